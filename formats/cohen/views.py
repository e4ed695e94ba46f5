"""Cohen Chess screens (seed 002): the stage overview with its pool tables, who advances and
why, and the final places 1–N; the director starts the event and advances each stage with
one confirmed action. Thin function views (house style 3); the public page is read-only and
answers conditional requests per results version."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_GET, require_POST

from events.access import event_for_director
from events.caching import public_page
from events.errors import UserError
from events.limits import whole_number
from events.selectors import event_get, user_role
from events.views import HtmxHttpRequest
from formats.cohen.selectors import cohen_overview
from formats.cohen.services import LOT_FROM_SEED, cohen_stage_advance, cohen_stage_start

PAGE = "cohen/stages.html"


@require_GET
@public_page
def cohen_stages(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    event = event_get(slug)
    context = {"overview": cohen_overview(event), "event": event}
    context["role"] = user_role(event, request.user)
    template = PAGE + "#cohen-stages" if request.htmx else PAGE
    response = render(request, template, context)
    patch_cache_control(response, no_cache=True)
    return response


@require_POST
def cohen_start(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_for_director(request, slug)
    try:
        stage = cohen_stage_start(event=event, user=request.user)
    except UserError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, f"The {stage.get_name_display()} has started.")
    return redirect("cohen:stages", slug=slug)


def _lot(request: HttpRequest) -> str | list[int] | None:
    """The lot the director recorded with the advance: drawn from the seed, or typed."""
    if request.POST.get("lot") == LOT_FROM_SEED:
        return LOT_FROM_SEED
    typed = request.POST.get("lot_order", "").replace(",", " ").split()
    if not typed:
        return None
    order = [whole_number(item) for item in typed]
    if None in order:
        raise UserError("the lot order lists start numbers, best first, e.g. 7 3")
    return [number for number in order if number is not None]


@require_POST
def cohen_advance(request: HttpRequest, slug: str, stage: str) -> HttpResponse:
    event = event_for_director(request, slug)
    version = request.POST.get("version", "")
    try:
        if request.POST.get("confirm") != "yes":
            raise UserError("tick the confirmation to advance the stage")
        advanced = cohen_stage_advance(
            event=event,
            stage_name=stage,
            user=request.user,
            expected_version=whole_number(version),
            lot=_lot(request),
        )
    except UserError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, f"The {advanced.get_name_display()} has been advanced.")
    return redirect("cohen:stages", slug=slug)
