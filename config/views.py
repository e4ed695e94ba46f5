"""Views that belong to the deployment rather than to a tournament concern."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe


@never_cache
@require_safe
def healthz(request: HttpRequest) -> HttpResponse:
    """ "ok" for load balancers: the process answers. It touches neither the database nor the
    cache, so it is also the floor for Django's own cost per request (docs/performance.md)."""
    return HttpResponse("ok", content_type="text/plain")
