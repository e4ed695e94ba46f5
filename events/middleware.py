"""A database that is down or restarting answers 503 with a clear page, not a 500; a request
larger than anything the application accepts answers 413 with one line, unread."""

from __future__ import annotations

import logging

from django.db import DatabaseError, InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.urls import Resolver404, resolve
from django.utils.http import url_has_allowed_host_and_scheme

from events.limits import MAX_FORM_BYTES, MAX_UPLOAD_BYTES, megabytes, whole_number

logger = logging.getLogger(__name__)
# The largest body anything accepts: an uploaded file at its cap, with the form around it.
MAX_REQUEST_BYTES = MAX_UPLOAD_BYTES + MAX_FORM_BYTES


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


class RequestSizeLimitMiddleware:
    """Refuses a request whose body is larger than anything the application accepts (an
    uploaded file at the cap plus a form's fields), before a byte of it is read: a one-line
    page with status 413, instead of a worker streaming a gigabyte to disk to refuse it after.

    Bodies within the limit are still held to the caps where they are used: the upload forms
    (``events.limits.size_check``) and Django's ``DATA_UPLOAD_MAX_MEMORY_SIZE`` for form fields
    (``config.views.bad_request`` turns that one into the same page).

    A view that takes larger files says so with ``checks_request_size`` (the rating lists'
    upload: FIDE's zipped lists) and refuses past its own cap with a message of its own.
    """

    def __init__(self, get_response):  # type: ignore[no-untyped-def]
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        size = whole_number(request.META.get("CONTENT_LENGTH") or "", digits=18) or 0
        if size > MAX_REQUEST_BYTES and not _checked_by_the_view(request):
            return too_large(
                request,
                f"What you sent is {megabytes(size)}; a file may have at most "
                f"{megabytes(MAX_UPLOAD_BYTES)}. Nothing was read or changed.",
            )
        return self.get_response(request)


def checks_request_size(limit: int):  # type: ignore[no-untyped-def]
    """Marks a view that takes bodies up to ``limit`` bytes, past MAX_REQUEST_BYTES, and refuses
    larger ones itself, from the declared length and before reading a byte, on its own page."""

    def mark(view):  # type: ignore[no-untyped-def]
        view.checks_request_size = limit
        return view

    return mark


def _checked_by_the_view(request: HttpRequest) -> bool:
    try:
        view = resolve(request.path_info).func
    except Resolver404:
        return False
    return getattr(view, "checks_request_size", 0) > MAX_REQUEST_BYTES


def too_large(request: HttpRequest, reason: str, status: int = 413) -> HttpResponse:
    """The page for an input past a cap: the reason in one line, a way back."""
    back = request.META.get("HTTP_REFERER", "")
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}):
        back = ""
    body = render_to_string("413.html", {"reason": reason, "back": back}, request=request)
    return HttpResponse(body, status=status)
