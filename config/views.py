"""Views that belong to the deployment rather than to a tournament concern."""

from __future__ import annotations

from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse
from django.views import defaults
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from events.limits import MAX_FORM_BYTES, megabytes
from events.middleware import too_large


@never_cache
@require_safe
def healthz(request: HttpRequest) -> HttpResponse:
    """ "ok" for load balancers: the process answers. It touches neither the database nor the
    cache, so it is also the floor for Django's own cost per request (docs/performance.md)."""
    return HttpResponse("ok", content_type="text/plain")


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """Django's 400, except for form fields past ``DATA_UPLOAD_MAX_MEMORY_SIZE``: that one is
    the one-line "too large" page (status 413), like an upload past its cap."""
    if isinstance(exception, RequestDataTooBig):
        return too_large(
            request,
            f"The form you sent holds more than {megabytes(MAX_FORM_BYTES)} of text, the most a "
            "form accepts. Nothing was changed.",
        )
    return defaults.bad_request(request, exception)
