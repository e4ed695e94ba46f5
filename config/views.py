"""Views that belong to the deployment rather than to a tournament concern."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent
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
    """Django's 400, except for a form past ``DATA_UPLOAD_MAX_MEMORY_SIZE`` or
    ``DATA_UPLOAD_MAX_NUMBER_FIELDS``: the one-line "too large" page, like an upload past its
    cap (status 413, and 400 for too many fields, as Django answers)."""
    if isinstance(exception, RequestDataTooBig):
        return too_large(
            request,
            f"The form you sent holds more than {megabytes(MAX_FORM_BYTES)} of text, the most a "
            "form accepts. Nothing was changed.",
        )
    if isinstance(exception, TooManyFieldsSent):
        most = settings.DATA_UPLOAD_MAX_NUMBER_FIELDS
        return too_large(
            request,
            f"The form you sent has more than {most:,} fields, the most a form accepts. "
            "Nothing was changed.",
            status=400,
        )
    return defaults.bad_request(request, exception)
