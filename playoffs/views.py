"""Playoff screens (issue 5): the proposal on the event page, the management page, the public
schedule with the Armageddon bracket. Thin function views (house style 3).

Who may do what: everybody reads the public page; directors and arbiters open the management
page and enter results; only the director confirms the playoff, records coin tosses (2.5.3:
the chief arbiter tosses) and the decision by other means (3.5), resets and undoes.
htmx regions are inline partials named after their element ids; every form works without
JavaScript (plain POST, then a redirect back to the page).
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_GET, require_POST

from events.access import event_for_director, event_for_results
from events.caching import public_page
from events.errors import ResultConflict, UserError
from events.forms import seen_version
from events.limits import whole_number
from events.models import Event
from events.selectors import event_get, user_role
from events.views import HtmxHttpRequest
from playoffs import presenters, selectors, services
from playoffs.forms import ArbiterDecisionForm, CoinTossForm, ConfirmForm, confirm_form
from playoffs.models import PLAYOFF_RESULTS

MANAGE = "playoffs/manage.html"
PUBLIC = "playoffs/public.html"
PROPOSAL = "playoffs/proposal.html"
POLL_SECONDS = 20
RESULT_BUTTONS = (("1-0", "1-0", "1"), ("1/2-1/2", "½-½", "="), ("0-1", "0-1", "0"))


def _context(request: HttpRequest, event: Event, **extra: object) -> dict[str, object]:
    overview = selectors.playoff_overview(event)
    role = user_role(event, request.user)
    return {
        **presenters.page_context(overview),
        "role": role,
        "form": confirm_form(),
        "entries": selectors.playoff_result_entries(event) if role == "director" else [],
        "result_choices": RESULT_BUTTONS,
        **extra,
    }


@require_GET
@public_page
def playoff_public(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    context = _context(request, event_get(slug), poll_seconds=POLL_SECONDS)
    context["poll"] = context["plan"] is not None and context["plan"].status in (  # type: ignore[attr-defined]
        "scheduled",
        "in_progress",
    )
    template = PUBLIC + "#playoff-board" if request.htmx else PUBLIC
    response = render(request, template, context)
    patch_cache_control(response, no_cache=True)
    return response


@require_GET
@public_page
def playoff_proposal(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The event page's playoff box (loaded by htmx; a page of its own without JavaScript)."""
    event = event_get(slug)
    context = _context(request, event)
    template = PROPOSAL + "#playoff-proposal" if request.htmx else PROPOSAL
    return render(request, template, context)


@require_GET
def playoff_manage(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    event = event_for_results(request, slug)
    context = _context(request, event, decision_form=ArbiterDecisionForm())
    return render(request, MANAGE, context)


@require_POST
def playoff_confirm(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_for_director(request, slug)
    form = ConfirmForm(request.POST)
    try:
        if not form.is_valid():
            raise UserError("enter the date of the last round or the end of the last game")
        services.playoff_confirm(event=event, user=request.user, **form.cleaned_data)
    except UserError as exc:
        messages.error(request, str(exc))
        return redirect("events:event_detail", slug=slug)
    messages.success(request, "Playoff confirmed.")
    return redirect("playoffs:manage", slug=slug)


def _version(request: HttpRequest) -> int:
    return seen_version(request.POST.get("version"))


def _start_no(request: HttpRequest, key: str) -> int | None:
    return whole_number(request.POST.get(key, ""))


def _save_result(request: HttpRequest, event: Event, stage: int, game: int) -> None:
    result = request.POST.get("result", "")
    if result and result not in PLAYOFF_RESULTS:
        raise UserError(f"unknown result {result!r}")
    where = {"event": event, "stage": stage, "game": game, "user": request.user}
    if not result:
        services.playoff_result_clear(**where, expected_version=_version(request))
        return
    services.playoff_result_record(
        **where,
        result=result,
        expected_version=_version(request),
        white=_start_no(request, "white"),
        black=_start_no(request, "black"),
    )


def _row(request: HtmxHttpRequest, event: Event, stage: int, game: int, **extra: object):  # type: ignore[no-untyped-def]
    """The game's row alone (htmx); the whole page refreshes when the schedule moved on."""
    context = _context(request, event, **extra)
    overview = context["overview"]
    context["game"] = presenters.game_view(overview, stage, game)  # type: ignore[arg-type]
    response = render(request, MANAGE + "#game-row", context)
    current = [s for s in context["stages"] if s.number == stage]  # type: ignore[attr-defined]
    if context["game"] is None or (current and current[0].complete and "conflict" not in extra):
        response["HX-Refresh"] = "true"
    return response


def _back(slug: str, stage: int, game: int) -> HttpResponse:
    return redirect(reverse("playoffs:manage", args=[slug]) + f"#playoff-game-{stage}-{game}")


@require_POST
def playoff_game_result(request: HtmxHttpRequest, slug: str, stage: int, game: int) -> HttpResponse:
    """One-tap result entry; a stale version gets the conflict, never a silent overwrite."""
    event = event_for_results(request, slug)
    try:
        _save_result(request, event, stage, game)
    except ResultConflict as exc:
        if request.htmx:
            return _row(request, event, stage, game, conflict=exc, row_conflict=True)
        return render(request, MANAGE, _context(request, event, conflict=exc), status=409)
    except UserError as exc:
        messages.error(request, str(exc))
        return _back(slug, stage, game)
    return _row(request, event, stage, game) if request.htmx else _back(slug, stage, game)


@require_POST
def coin_toss(request: HtmxHttpRequest, slug: str, stage: int, game: int) -> HttpResponse:
    event = event_for_director(request, slug)
    form = CoinTossForm(request.POST)
    try:
        if not form.is_valid():
            raise UserError("choose the toss winner and their colour")
        services.coin_toss_record(
            event=event, stage=stage, game=game, user=request.user, **form.cleaned_data
        )
    except UserError as exc:
        messages.error(request, str(exc))
        return _back(slug, stage, game)
    return _row(request, event, stage, game) if request.htmx else _back(slug, stage, game)


@require_POST
def arbiter_decision(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_for_director(request, slug)
    form = ArbiterDecisionForm(request.POST)
    if form.is_valid():
        try:
            services.arbiter_decision_record(event=event, user=request.user, **form.cleaned_data)
        except UserError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, "The chief arbiter's decision is recorded.")
            return redirect("playoffs:manage", slug=slug)
    context = _context(request, event, decision_form=form)
    return render(request, MANAGE, context, status=400)


@require_POST
def playoff_reset(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_for_director(request, slug)
    if request.POST.get("confirm_reset") != "yes":
        messages.error(request, "Tick the box to confirm the reset.")
        return redirect("playoffs:manage", slug=slug)
    services.playoff_reset(event=event, user=request.user)
    messages.success(request, "The playoff was reset; confirm it again.")
    return redirect("events:event_detail", slug=slug)


@require_POST
def playoff_undo(request: HttpRequest, slug: str, entry_id: int) -> HttpResponse:
    event = event_for_director(request, slug)
    try:
        services.playoff_result_undo(event=event, entry_id=entry_id, user=request.user)
    except UserError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, "Undone.")
    return redirect("playoffs:manage", slug=slug)
