"""Access helpers: return the event or refuse (404 for no such event, 403 for the wrong person).

Roles per event (issue 2, "People and access"): the director owns the event and may do
everything; an arbiter enters and corrects results only; everyone else reads the public pages.
"""

from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest

from events.models import Event, Role
from events.selectors import event_get, user_role


class LoginRequired(Exception):
    """Raised for anonymous users on a protected page; turned into a redirect to login."""


def _event_for(request: HttpRequest, slug: str, allowed: set[str]) -> Event:
    event = event_get(slug)
    if not request.user.is_authenticated:
        raise LoginRequired
    role = user_role(event, request.user)
    if role not in allowed:
        raise PermissionDenied("You have no access to this event's administration.")
    request.event_role = role  # type: ignore[attr-defined]
    return event


def event_for_director(request: HttpRequest, slug: str) -> Event:
    return _event_for(request, slug, {Role.DIRECTOR})


def event_for_results(request: HttpRequest, slug: str) -> Event:
    """Directors and arbiters: result entry and correction."""
    return _event_for(request, slug, {Role.DIRECTOR, Role.ARBITER})


class LoginRequiredMiddleware:
    """Turns :class:`LoginRequired` into Django's redirect to the login page."""

    def __init__(self, get_response):  # type: ignore[no-untyped-def]
        self.get_response = get_response

    def __call__(self, request: HttpRequest):  # type: ignore[no-untyped-def]
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception):  # type: ignore[no-untyped-def]
        if isinstance(exception, LoginRequired):
            return redirect_to_login(request.get_full_path())
        return None
