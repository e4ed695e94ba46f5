"""Public live pages: conditional requests and a shared page cache per results version.

Design brief §3, "Live pages are cheap": every event has a results version that changes on
every write. A public page is identified by (event, version, query, htmx or not, viewer); its
ETag says so, an unchanged page answers ``304 Not Modified``, and the rendered page of an
anonymous spectator is kept in the cache (Redis when ``REDIS_URL`` is set, so every app server
shares it) until the version moves on. Nothing has to be invalidated: a new version is a new key.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_cache_control
from django.views.decorators.http import condition

from events import selectors

PAGE_SECONDS = 600
View = Callable[..., HttpResponse]


def results_etag(request: HttpRequest, slug: str, **kwargs: object) -> str | None:
    """The page's identity: event version, query, htmx or not, and who is asking (directors
    see links the public does not). Computed once per request."""
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
    return not request.user.is_authenticated and "messages" not in request.COOKIES


def public_page(view: View) -> View:
    """ETag/304 for every viewer, plus the shared page cache for anonymous spectators."""

    @wraps(view)
    def wrapper(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponse:
        etag = results_etag(request, slug)
        key = f"page:{etag}" if etag is not None and _shared(request) else None
        cached = cache.get(key) if key else None
        if cached is not None:
            content, content_type = cached
            response = HttpResponse(content, content_type=content_type)
        else:
            response = view(request, slug, *args, **kwargs)
            if key and response.status_code == 200 and not response.cookies:
                cache.set(key, (response.content, response["Content-Type"]), PAGE_SECONDS)
        # Spectators' browsers revalidate every poll; the 304 keeps that cheap.
        patch_cache_control(response, no_cache=True)
        return response

    conditional = condition(etag_func=results_etag)(wrapper)
    conditional.public_page = True  # type: ignore[attr-defined]  # events.access.PrivatePages
    return conditional


def public_pdf(filename: Callable[..., str]) -> Callable[[View], View]:
    """:func:`public_page` for a PDF sheet. The shared cache keeps only a page's body and type,
    so the file name (``filename(slug, **url kwargs)``) is set here, on every answer."""

    def decorate(view: View) -> View:
        cached = public_page(view)

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
