"""Public live pages: conditional requests, and one shared rendering per page for all spectators.

Design brief §3, "Live pages are cheap": every event has a results version that changes on
every write. An anonymous spectator's page is rendered once and kept in the shared cache
(Redis when ``REDIS_URL`` is set, so every app server shares it; else per process) with the
version it was rendered at; everyone is answered from there, and a browser that already has
that rendering gets ``304 Not Modified`` (the ETag is the rendering's digest).

When a write moves the version on, the kept rendering is stale. During a live round that is
every second, and a page of a 300-player event costs tens of milliseconds to render, so
(issue 24):

- **One computation at a time per page** (single flight, across app servers): a lock key taken
  with ``cache.add``, which only one process can take, and a timeout in case it dies.
- **Nobody waits for it** (stale-while-revalidate): while the page is recomputed, readers get
  the previous rendering; the worker that took the lock answers with it too and recomputes
  once its answer has gone out. A page is recomputed at most every ``REFRESH_SECONDS``.
- **Staleness is bounded**: a rendering that began more than ``settings.PUBLIC_PAGE_STALE_
  SECONDS`` ago is never served for a newer version; the reader computes it (or waits for the
  one computing it). So a saved result is on every public page within that bound, plus the
  ``events.selectors.VERSION_SECONDS`` a cached version may lag. 0 turns stale answers off.
- **A page sees only the query parameters it declares** (issue 19): the rest are dropped
  before the view runs, and the declared ones are reduced to a canonical value, so an
  anonymous visitor cannot make the server render one page once per made-up query string.

Logged-in people (directors, arbiters) never get a shared rendering: their pages are computed
for them, with an ETag of (event, version, query, htmx, viewer) for 304s.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import wraps
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.utils.cache import patch_cache_control
from django.utils.http import parse_etags
from django.views.decorators.http import condition

from events import selectors

PAGE_SECONDS = 600  # how long a rendering is kept at all
REFRESH_SECONDS = 5.0  # a stale page is recomputed at most this often
LOCK_SECONDS = 60  # outlives any computation (gunicorn's --timeout kills a worker at 30-60 s)
# A reader waits this long at most for another worker's computation, then computes the page
# itself: the one computing may have died, and gunicorn kills a worker that waits for long.
WAIT_SECONDS = 10
WAIT_STEP = 0.05  # how often a waiting reader looks again

View = Callable[..., HttpResponse]
# A declared query parameter: its raw value → the canonical one, or None to drop it.
Params = Mapping[str, Callable[[str], "str | None"]]

log = logging.getLogger(__name__)


def number_up_to(limit: int, *, otherwise: str | None = None) -> Callable[[str], str | None]:
    """A whole number 0..``limit`` in its canonical spelling ("007" → "7"); anything else is
    dropped, as the views already ignore a value that is not a number (ASCII digits only:
    ``"²".isdigit()`` is true, and ``int("²")`` fails), or, for a view that names the mistake,
    given as the one spelling ``otherwise`` (so that any number of wrong values is one page)."""

    def canonical(raw: str) -> str | None:
        if (
            raw.isascii()
            and raw.isdigit()
            and len(raw) <= len(str(limit)) + 2
            and int(raw) <= limit
        ):
            return str(int(raw))
        return otherwise if raw else None

    return canonical


def results_etag(request: HttpRequest, slug: str, **kwargs: object) -> str | None:
    """A logged-in person's page: event version, query, htmx or not, and who is asking
    (directors see links the public does not). Computed once per request."""
    if hasattr(request, "_results_etag"):
        return request._results_etag  # type: ignore[attr-defined, no-any-return]
    version = selectors.event_version(slug)
    etag = None
    if version is not None:
        htmx = "h" if getattr(request, "htmx", False) else "p"
        viewer = request.user.pk if request.user.is_authenticated else 0
        query = hashlib.sha256(request.get_full_path().encode()).hexdigest()[:16]
        etag = f"{slug}-{version}-{htmx}-{viewer}-{query}"
    request._results_etag = etag  # type: ignore[attr-defined]
    return etag


def _shared(request: HttpRequest) -> bool:
    """Only a plain anonymous spectator's page may be shared: no session, no flash message."""
    return (
        request.method in ("GET", "HEAD")
        and not request.user.is_authenticated
        and "messages" not in request.COOKIES
    )


def _keep_declared(request: HttpRequest, params: Params) -> None:
    """Leave the view only the declared parameters, each in its canonical spelling (the last
    value when one is repeated), in a fixed order."""
    kept = QueryDict(mutable=True)
    for name in sorted(params):
        raw = request.GET.get(name)
        value = params[name](raw) if raw is not None else None
        if value is not None:
            kept[name] = value
    query = kept.urlencode()
    request.GET = QueryDict(query)
    request.META["QUERY_STRING"] = query


@dataclass(frozen=True)
class Rendering:
    """A public page as kept in the cache (as a plain tuple, so that a deploy that changes
    this class cannot break reading what the previous one stored)."""

    version: int
    started: float  # when its computation began: the data are at least this recent
    etag: str
    content: bytes
    content_type: str

    def age(self) -> float:
        return time.time() - self.started

    def stored(self) -> tuple[int, float, str, bytes, str]:
        return (self.version, self.started, self.etag, self.content, self.content_type)

    def answer(
        self, request: HttpRequest, response_class: type[HttpResponse] = HttpResponse
    ) -> HttpResponse:
        if self.etag in parse_etags(request.headers.get("If-None-Match", "")):
            response = response_class(status=304)
            del response["Content-Type"]
        else:
            response = response_class(self.content, content_type=self.content_type)
        response["ETag"] = self.etag
        return response


class _AnswerThenRefresh(HttpResponse):
    """An answer from the cache after which this worker recomputes the page: ``close()`` runs
    once the answer has been sent (WSGI), so the reader who triggered it does not wait."""

    refresh: Callable[[], None]

    def close(self) -> None:
        try:
            self.refresh()
        finally:
            super().close()


class LivePage:
    """One public page for anonymous spectators: its rendering, its lock, its computation."""

    def __init__(
        self, view: View, request: HttpRequest, slug: str, args: tuple[Any, ...], kwargs: Any
    ) -> None:
        self.view, self.request, self.slug = view, request, slug
        self.args, self.kwargs = args, kwargs
        # The page is what the view reads: the URL (scheme and host too: the QR codes print
        # it), the declared parameters, and htmx or not.
        self.htmx = "h" if getattr(request, "htmx", False) else "p"
        address = f"{request.scheme}://{request.get_host()}{request.get_full_path()}|{self.htmx}"
        digest = hashlib.sha256(address.encode()).hexdigest()[:32]
        self.key = f"live-page:{slug}:{digest}"
        self.lock_key = f"live-page-lock:{slug}:{digest}"
        self.token = ""

    def kept(self) -> Rendering | None:
        stored = cache.get(self.key)
        return Rendering(*stored) if stored is not None else None

    def lock(self) -> bool:
        self.token = secrets.token_hex(8)
        return bool(cache.add(self.lock_key, self.token, LOCK_SECONDS))

    def unlock(self) -> None:
        if cache.get(self.lock_key) == self.token:  # not a lock that expired and was retaken
            cache.delete(self.lock_key)

    def compute(self, version: int) -> tuple[HttpResponse, Rendering | None]:
        """Run the view; keep its answer if it can be shared (a plain 200 that sets no cookie
        and did not use the CSRF token, which belongs to one visitor)."""
        started = time.time()
        response = self.view(self.request, self.slug, *self.args, **self.kwargs)
        shareable = (
            response.status_code == 200
            and not response.cookies
            and not response.streaming
            and not self.request.META.get("CSRF_COOKIE_NEEDS_UPDATE")
        )
        if not shareable:
            return response, None
        digest = hashlib.sha256(response.content).hexdigest()[:24]
        rendering = Rendering(
            version, started, f'"{digest}-{self.htmx}"', response.content, response["Content-Type"]
        )
        cache.set(self.key, rendering.stored(), PAGE_SECONDS)
        return response, rendering

    def refresh(self) -> None:
        """After an answer from the cache: recompute at the version of now, then let go. A
        page that can no longer be shared (gone, or an answer for one visitor) is dropped, so
        that the next reader has it computed for them."""
        try:
            if self._recomputed() is None:
                cache.delete(self.key)
        finally:
            self.unlock()

    def _recomputed(self) -> Rendering | None:
        try:
            version = selectors.event_version(self.slug)
            return self.compute(version)[1] if version is not None else None
        except Http404:
            return None
        except Exception:  # the reader has had their answer; the next one will try again
            log.exception("refreshing %s failed", self.request.path)
            return None

    def answer_stale(self, rendering: Rendering) -> HttpResponse:
        """The previous rendering; recompute it after answering if it is due and nobody else
        is at it."""
        if rendering.age() < REFRESH_SECONDS or not self.lock():
            return rendering.answer(self.request)
        latest = self.kept()
        if latest is not None and latest.started > rendering.started:  # another one just did
            self.unlock()
            return latest.answer(self.request)
        response = rendering.answer(self.request, _AnswerThenRefresh)
        response.refresh = self.refresh  # type: ignore[attr-defined]
        return response

    def answer_computed(self, version: int) -> HttpResponse:
        """Nothing recent enough is kept: compute it once, across every worker. Whoever takes
        the lock computes; the others wait for that rendering (or, after ``WAIT_SECONDS``,
        compute it themselves: the one computing may have died)."""
        deadline = time.monotonic() + WAIT_SECONDS
        while True:
            locked = self.lock()
            rendering = self.kept()  # after the lock: another worker may have just finished it
            if rendering is not None and self._recent(rendering, version):
                if locked:
                    self.unlock()
                return rendering.answer(self.request)
            if locked:
                try:
                    response, rendering = self.compute(version)
                finally:
                    self.unlock()
                return rendering.answer(self.request) if rendering else response
            if time.monotonic() > deadline:
                response, rendering = self.compute(version)
                return rendering.answer(self.request) if rendering else response
            time.sleep(WAIT_STEP)

    @staticmethod
    def _recent(rendering: Rendering, version: int) -> bool:
        return rendering.version == version or rendering.age() < stale_seconds()

    def answer(self) -> HttpResponse:
        version = selectors.event_version(self.slug)
        if version is None:  # no such event: the view says so
            return self.view(self.request, self.slug, *self.args, **self.kwargs)
        rendering = self.kept()
        if rendering is not None and rendering.version == version:
            return rendering.answer(self.request)
        if rendering is not None and rendering.age() < stale_seconds():
            return self.answer_stale(rendering)
        return self.answer_computed(version)


def stale_seconds() -> float:
    return float(settings.PUBLIC_PAGE_STALE_SECONDS)


def public_page(view: View | None = None, *, params: Params | None = None) -> Any:
    """A public page: shared rendering for anonymous spectators, ETag/304 for everyone.

    ``params`` declares the query parameters the view reads, each with its canonical form
    (:func:`number_up_to`); the view never sees any other. Use as ``@public_page`` or
    ``@public_page(params={"after": number_up_to(99)})``.
    """
    declared: Params = params or {}
    if view is None:
        return lambda decorated: public_page(decorated, params=declared)
    personal = condition(etag_func=results_etag)(view)

    @wraps(view)
    def wrapper(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponse:
        _keep_declared(request, declared)
        if _shared(request):
            response = LivePage(view, request, slug, args, kwargs).answer()
        else:
            response = personal(request, slug, *args, **kwargs)
        # Spectators' browsers revalidate every poll; the 304 keeps that cheap.
        patch_cache_control(response, no_cache=True)
        return response

    wrapper.public_page = True  # type: ignore[attr-defined]  # events.access.PrivatePages
    return wrapper


def public_pdf(filename: Callable[..., str], *, params: Params | None = None) -> Any:
    """:func:`public_page` for a PDF sheet. The shared cache keeps only a page's body and type,
    so the file name (``filename(slug, **url kwargs)``) is set here, on every answer."""

    def decorate(view: View) -> View:
        cached = public_page(view, params=params)

        @wraps(view)
        def wrapper(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponse:
            response = cached(request, slug, *args, **kwargs)
            if response.status_code == 200:
                name = filename(slug, *args, **kwargs)
                response["Content-Disposition"] = f'inline; filename="{name}"'
            return response

        wrapper.public_page = True  # type: ignore[attr-defined]
        return wrapper

    return decorate
