"""Chess team event screens (issue #22): teams and rosters, rounds (line-ups, pair → review →
publish, match cards), team standings with the crosstable, the board ranking. Thin function
views; regions are inline partials named after their element ids; forms work without
JavaScript and Enter submits what was typed."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from events.access import event_for_director, event_for_results
from events.caching import public_page
from events.errors import DuplicatesToConfirm, UserError
from events.forms import seen_version
from events.models import Event, Round
from events.selectors import event_get, round_number_or_404, user_role
from events.views import HtmxHttpRequest
from formats.teams import forms, selectors, services
from formats.teams.models import BOARD_RESULTS, MatchForfeit, Team, TeamByeKind
from formats.teams.systems import TEAM_SYSTEMS


def _team_event(slug: str) -> Event:
    event = event_get(slug)
    if event.system not in TEAM_SYSTEMS:
        raise Http404("Not a team event")
    return event


def _base(request: HttpRequest, event: Event, **extra: Any) -> dict[str, Any]:
    return {"event": event, "role": user_role(event, request.user), **extra}


def _teams_page(request: HttpRequest, event: Event, **extra: Any) -> HttpResponse:
    context = _base(
        request,
        event,
        teams=selectors.teams_of(event),
        setup=selectors.setup_of(event),
        points_choices=["2-1-0", "3-1-0"],
        colour_choices=["A", "B", "none"],
        numbering_rules=services.NUMBERING_RULES,
        adjustments=selectors.adjustments_of(event),
        paired=Round.objects.filter(event=event).exists(),
        **extra,
    )
    return render(request, "teams/teams.html", context)


@require_GET
@public_page
def teams(request: HttpRequest, slug: str) -> HttpResponse:
    return _teams_page(request, _team_event(slug))


@require_GET
@public_page
def team_page(request: HttpRequest, slug: str, team_no: int) -> HttpResponse:
    event = _team_event(slug)
    detail = selectors.team_detail(event, team_no)
    if detail is None:
        raise Http404("No such team")
    return render(request, "teams/team.html", _base(request, event, **detail))


def _outcome(request: HttpRequest, done: str, action: Any, **kwargs: Any) -> None:
    try:
        action(**kwargs, user=request.user)
    except UserError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, done)


@require_POST
def team_register(request: HttpRequest, slug: str) -> HttpResponse:
    """Register a team; a refusal shows the page again with everything typed still in the
    form (a pasted roster is never lost), and a probable duplicate player asks for a tick."""
    event = event_for_director(request, slug)
    typed = {
        key: request.POST.get(key, "")[:limit]
        for key, limit in (
            ("name", 300),
            ("club", 300),
            ("captain", 300),
            ("roster", 20_000),
            ("team_no", 10),
        )
    }
    try:
        team_no = (
            forms.number(typed, "team_no", "the pairing number", 3)
            if typed["team_no"].strip()
            else None
        )
        services.team_register(
            event=event,
            name=typed["name"],
            club=typed["club"],
            captain=typed["captain"],
            roster_text=typed["roster"],
            team_no=team_no,
            confirm_duplicates=request.POST.get("confirm_duplicates") == "on",
            user=request.user,
        )
    except DuplicatesToConfirm as warning:
        return _teams_page(
            request, event, typed=typed, register_error=str(warning), ask_confirmation=True
        )
    except UserError as exc:
        return _teams_page(request, event, typed=typed, register_error=str(exc))
    messages.success(request, "Team registered.")
    return redirect("teams:teams", slug=slug)


@require_POST
def team_numbers(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_for_director(request, slug)
    _outcome(
        request,
        "Pairing numbers given.",
        services.team_numbers_assign,
        event=event,
        rule=request.POST.get("rule", "")[:20],
    )
    return redirect("teams:teams", slug=slug)


@require_POST
def team_adjustment(request: HttpRequest, slug: str) -> HttpResponse:
    """Add a score adjustment, or remove one (``remove`` = its id)."""
    event = event_for_director(request, slug)
    if request.POST.get("remove"):
        try:
            adjustment_id = forms.number(request.POST, "remove", "adjustment", 12)
        except UserError as exc:
            messages.error(request, str(exc))
        else:
            _outcome(
                request,
                "Adjustment removed.",
                services.team_adjustment_remove,
                event=event,
                adjustment_id=adjustment_id,
            )
        return redirect("teams:teams", slug=slug)
    try:
        fields = forms.adjustment_fields(request.POST)
    except UserError as exc:
        messages.error(request, str(exc))
        return redirect("teams:teams", slug=slug)
    _outcome(request, "Adjustment recorded.", services.team_adjustment_add, event=event, **fields)
    return redirect("teams:teams", slug=slug)


@require_POST
def team_settings(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_for_director(request, slug)
    try:
        fields = forms.setup_fields(request.POST)
    except UserError as exc:
        messages.error(request, str(exc))
        return redirect("teams:teams", slug=slug)
    version = seen_version(request.POST.get("version"))
    _outcome(
        request,
        "Settings saved.",
        services.team_setup_update,
        event=event,
        fields=fields,
        expected_version=version,
    )
    return redirect("teams:teams", slug=slug)


@require_POST
def team_bye(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_for_director(request, slug)
    try:
        team_no = forms.number(request.POST, "team", "team")
        round_no = forms.number(request.POST, "round", "round", 2)
    except UserError as exc:
        messages.error(request, str(exc))
        return redirect("teams:rounds", slug=slug)
    _outcome(
        request,
        "Bye recorded.",
        services.team_bye_request,
        event=event,
        team_no=team_no,
        round_no=round_no,
        kind=request.POST.get("kind", ""),
    )
    return redirect("teams:rounds", slug=slug)


@require_GET
@public_page
def rounds(request: HttpRequest, slug: str) -> HttpResponse:
    event = _team_event(slug)
    paired = selectors.rounds_of(event)
    context = _base(
        request,
        event,
        rounds=paired,
        next_round=len(paired) + 1,
        teams=Team.objects.filter(event=event),
        bye_kinds=[TeamByeKind.HALF, TeamByeKind.ZERO],
    )
    return render(request, "teams/rounds.html", context)


def _round_context(request: HttpRequest, event: Event, number: int, **extra: Any) -> dict:  # type: ignore[type-arg]
    round_number_or_404(event, number)
    found = [row for row in selectors.rounds_of(event) if row["round"].number == number]
    role = user_role(event, request.user)
    if found and not found[0]["round"].published and role is None:
        found = []  # a draft is the director's until published
    return _base(
        request,
        event,
        number=number,
        paired=found[0] if found else None,
        lineups=selectors.lineups_for(event, number) if role and not found else [],
        deadline=selectors.lineup_deadline_of(event, number),
        boards=range(1, selectors.setup_of(event).boards + 1),
        results=BOARD_RESULTS,
        forfeits=MatchForfeit.choices[1:],
        **extra,
    )


@require_GET
@public_page
def round_page(request: HtmxHttpRequest, slug: str, number: int) -> HttpResponse:
    event = _team_event(slug)
    template = "teams/round.html#match-cards" if request.htmx else "teams/round.html"
    return render(request, template, _round_context(request, event, number))


def _round_write(request: HttpRequest, slug: str, number: int, done: str, action: Any) -> Any:
    event = event_for_director(request, slug)
    round_number_or_404(event, number)
    _outcome(request, done, action, event=event, round_no=number)
    return redirect("teams:round", slug=slug, number=number)


@require_POST
def round_pair(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    done = f"Round {number} paired: review it, then publish."
    return _round_write(request, slug, number, done, services.team_round_pair)


@require_POST
def round_publish(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    return _round_write(
        request, slug, number, f"Round {number} published.", services.team_round_publish
    )


@require_POST
def round_discard(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    done = f"The draft of round {number} was discarded."
    return _round_write(request, slug, number, done, services.team_round_discard)


@require_POST
def lineup(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    event = event_for_results(request, slug)
    round_number_or_404(event, number)
    try:
        team_no = forms.number(request.POST, "team", "team")
        boards = forms.lineup_boards(request.POST.get("boards", "")[:400], 99)
        override = request.POST.get("override") == "1" and user_role(event, request.user) == (
            "director"
        )
        services.lineup_set(
            event=event,
            team_no=team_no,
            round_no=number,
            boards=boards,
            override=override,
            user=request.user,
        )
    except UserError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, f"Line-up of team {team_no} saved.")
    return redirect("teams:round", slug=slug, number=number)


@require_POST
def lineup_deadline(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    event = event_for_director(request, slug)
    round_number_or_404(event, number)
    try:
        closes_at = forms.deadline(request.POST.get("closes_at", "")[:40])
    except UserError as exc:
        messages.error(request, str(exc))
        return redirect("teams:round", slug=slug, number=number)
    _outcome(
        request,
        "Line-up deadline saved." if closes_at else "The line-ups have no deadline now.",
        services.lineup_deadline_set,
        event=event,
        round_no=number,
        closes_at=closes_at,
    )
    return redirect("teams:round", slug=slug, number=number)


@require_POST
def match_card(request: HtmxHttpRequest, slug: str, number: int, match_id: int) -> HttpResponse:
    event = event_for_results(request, slug)
    round_number_or_404(event, number)
    try:
        results = forms.card_results(request.POST, selectors.setup_of(event).boards)
        services.match_card_record(
            event=event,
            match_id=match_id,
            results=results,
            forfeit=request.POST.get("forfeit", ""),
            expected_version=seen_version(request.POST.get("version")),
            user=request.user,
        )
    except UserError as exc:  # a ResultConflict too: shown on the card
        event.refresh_from_db()
        context = _round_context(request, event, number, error=str(exc), error_match=match_id)
        template = "teams/round.html#match-cards" if request.htmx else "teams/round.html"
        return render(request, template, context, status=200 if request.htmx else 400)
    if request.htmx:
        event.refresh_from_db()
        return render(
            request, "teams/round.html#match-cards", _round_context(request, event, number)
        )
    return redirect("teams:round", slug=slug, number=number)


@require_GET
@public_page
def standings(request: HttpRequest, slug: str) -> HttpResponse:
    event = _team_event(slug)
    try:
        table = selectors.standings_of(event)
    except ValueError as exc:  # an event the tie-breaks refuse: said on the page
        table, error = None, str(exc)
    else:
        error = ""
    return render(request, "teams/standings.html", _base(request, event, table=table, error=error))


@require_GET
@public_page
def boards(request: HttpRequest, slug: str) -> HttpResponse:
    event = _team_event(slug)
    context = _base(
        request,
        event,
        ranking=selectors.board_ranking(event),
        setup=selectors.setup_of(event),
    )
    return render(request, "teams/boards.html", context)
