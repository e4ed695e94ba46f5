"""A database that is down or restarting answers 503 with a clear page, not a 500."""

from __future__ import annotations

import logging

from django.db import DatabaseError, InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string

logger = logging.getLogger(__name__)


class DatabaseUnavailableMiddleware:
    """Turns a lost database connection into "503 Service Unavailable" with Retry-After.

    The request's transaction was rolled back by the database, so nothing half-written stays;
    the next request opens a fresh connection.
    """

    def __init__(self, get_response):  # type: ignore[no-untyped-def]
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, OperationalError | InterfaceError) or not _is_connection_loss(
            exception
        ):
            return None
        logger.warning("database unavailable: %s", exception)
        body = render_to_string("503.html", request=request)
        response = HttpResponse(body, status=503)
        response["Retry-After"] = "5"
        return response


def _is_connection_loss(exception: DatabaseError) -> bool:
    if isinstance(exception, InterfaceError):
        return True
    text = str(exception).lower()
    return any(
        marker in text
        for marker in (
            "connection",
            "server closed",
            "terminating",
            "shutting down",
            "could not connect",
            "the database system is",
        )
    )
