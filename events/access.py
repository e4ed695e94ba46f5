"""Access helpers: return the event or refuse (404 for no such event, 403 for the wrong person).

Roles per event (issue 2, "People and access"): the director owns the event and may do
everything; an arbiter enters and corrects results only; everyone else reads the public pages.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.cache import patch_cache_control

from events.errors import EventClosed
from events.models import Event, EventStatus, Role
from events.selectors import event_directors, event_get, user_role

SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


class LoginRequired(Exception):
    """Raised for anonymous users on a protected page; turned into a redirect to login."""


class EventAccessDenied(PermissionDenied):
    """A logged-in person on an event page their role does not open: answered with a 403 page
    that says what they may do there and whom to ask (the event's directors), issue 20."""

    def __init__(self, event: Event, role: str | None, needed: str) -> None:
        super().__init__("You have no access to this event's administration.")
        self.event = event
        self.role = role
        self.needed = needed


def _event_for(request: HttpRequest, slug: str, allowed: set[str], open_only: bool) -> Event:
    event = event_get(slug)
    if not request.user.is_authenticated:
        raise LoginRequired
    role = user_role(event, request.user)
    if role not in allowed:
        needed = Role.DIRECTOR if allowed == {Role.DIRECTOR} else Role.ARBITER
        raise EventAccessDenied(event, role, needed)
    request.event_role = role  # type: ignore[attr-defined]
    # A form posted to a closed event is refused before it is read, the same way everywhere
    # (LoginRequiredMiddleware below); the write services refuse it again under the event's row
    # lock (events.services.event_require_open), which also covers the command line.
    if open_only and request.method not in SAFE_METHODS and event.status == EventStatus.FINISHED:
        raise EventClosed
    return event


def event_for_director(request: HttpRequest, slug: str, *, open_only: bool = True) -> Event:
    """The director's pages. ``open_only=False`` for the few writes a closed event still
    takes (reopening it, access, prizes: events.services.event_require_open says why)."""
    return _event_for(request, slug, {Role.DIRECTOR}, open_only)


def event_for_results(request: HttpRequest, slug: str) -> Event:
    """Directors and arbiters: result entry and correction."""
    return _event_for(request, slug, {Role.DIRECTOR, Role.ARBITER}, True)


class LoginRequiredMiddleware:
    """Turns the access helpers' refusals into answers: :class:`LoginRequired` into Django's
    redirect to the login page, :class:`EventClosed` into the event page with the message."""

    def __init__(self, get_response):  # type: ignore[no-untyped-def]
        self.get_response = get_response

    def __call__(self, request: HttpRequest):  # type: ignore[no-untyped-def]
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception):  # type: ignore[no-untyped-def]
        if isinstance(exception, LoginRequired):
            return redirect_to_login(request.get_full_path())
        if isinstance(exception, EventClosed):
            return _closed_answer(request, exception)
        if isinstance(exception, EventAccessDenied):
            return _denied_answer(request, exception)
        return None


def _denied_answer(request: HttpRequest, refusal: EventAccessDenied) -> HttpResponse:
    """403 with what the person may do in this event and whom to ask for more."""
    context = {
        "event": refusal.event,
        "role": refusal.role,
        "needed": refusal.needed,
        "directors": event_directors(refusal.event, logins=refusal.role is not None),
        "reason": str(refusal),
    }
    return render(request, "403.html", context, status=403)


def _closed_answer(request: HttpRequest, refusal: EventClosed) -> HttpResponse:
    """The event page, which says "Final" and holds the director's Reopen button, with the
    message on top. htmx follows ``HX-Redirect`` whatever the status; 409 tells a script."""
    messages.error(request, str(refusal))
    slug = request.resolver_match.kwargs["slug"] if request.resolver_match else ""
    event_page = redirect("events:event_detail", slug=slug)
    if getattr(request, "htmx", False):
        response = HttpResponse(str(refusal), status=409, content_type="text/plain")
        response["HX-Redirect"] = event_page.url
        return response
    event_page.status_code = 303  # See Other: the form's POST is not repeated
    return event_page


class PrivatePages:
    """``Cache-Control: private, no-store`` on every page a logged-in user gets, except the
    public pages (:func:`events.caching.public_page`), which get ``private`` alone: they keep
    their ETag revalidation, but no shared cache keeps a page rendered for someone (issue 19).

    Keyed on the page rather than on a list of URLs: the audit log, the exports, the Swiss
    review, every director's and arbiter's page, and any page added later are covered. A
    visitor without a session sees no private page (they are sent to the login page).
    """

    def __init__(self, get_response):  # type: ignore[no-untyped-def]
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response: HttpResponse = self.get_response(request)
        if response.status_code >= 500:
            # An error page holds nothing of anyone's, and the database (which knows who is
            # logged in) may be the error: the 503 page must not turn into a 500 here.
            return response
        if request.user.is_authenticated:
            if getattr(request, "public_page", False):
                patch_cache_control(response, private=True)
            else:
                patch_cache_control(response, private=True, no_store=True)
        return response

    def process_view(self, request: HttpRequest, view: Any, *args: Any) -> None:
        request.public_page = getattr(view, "public_page", False)  # type: ignore[attr-defined]
