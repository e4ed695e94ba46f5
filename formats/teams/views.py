"""Chess team event screens (issue #22): teams and rosters, rounds (line-ups, pair → review →
publish, match cards), team standings with the crosstable, the board ranking. Thin function
views; regions are inline partials named after their element ids; forms work without
JavaScript and Enter submits what was typed."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from events.access import event_for_director, event_for_results
from events.caching import number_up_to, public_page, public_pdf
from events.errors import DuplicatesToConfirm, ResultConflict, UserError
from events.forms import seen_version
from events.models import Event, EventStatus, Round
from events.pdf import Sheet, sheet_pdf
from events.qr import event_page_code
from events.selectors import (
    RESULT_BUTTONS,
    event_get,
    round_number_or_404,
    rounds_progress,
    user_role,
    whats_next,
)
from events.views import HtmxHttpRequest
from formats.teams import forms, presenters, selectors, services
from formats.teams.board_prizes import min_board_games
from formats.teams.models import LineUpsClose, MatchForfeit, Team, TeamByeKind
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
        lineup_rules=LineUpsClose.choices,
        default_min_games=min_board_games(event.rounds, None),
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
    next_round = len(paired) + 1
    context = _base(
        request,
        event,
        rounds=paired,
        next_round=next_round,
        window=selectors.lineup_window(event, next_round) if next_round <= event.rounds else None,
        teams=Team.objects.filter(event=event),
        bye_kinds=[TeamByeKind.HALF, TeamByeKind.ZERO],
    )
    return render(request, "teams/rounds.html", context)


def _round_context(request: HttpRequest, event: Event, number: int, **extra: Any) -> dict:  # type: ignore[type-arg]
    """The round page: before the pairing the director's pairing form and the line-ups; then
    the draft to review, or the published round's match cards (result entry for the director
    and arbiters), with the line-ups while the event's rule still takes them."""
    round_number_or_404(event, number)
    role = user_role(event, request.user)
    found = selectors.round_of(event, number)
    if found and not found["round"].published and role is None:
        found = None  # a draft is the director's until published
    window = selectors.lineup_window(event, number)
    entry = bool(role and found and found["round"].published)
    return _base(
        request,
        event,
        number=number,
        paired=found,
        entry=entry,
        window=window,
        lineups=selectors.lineups_for(event, number) if _taking(role, window) else [],
        forfeits=MatchForfeit.choices[1:],
        result_common=RESULT_BUTTONS[:3],
        result_rare=RESULT_BUTTONS[3:],
        **(_entry_state(event, role, found) if entry else {}),
        **extra,
    )


def _taking(role: str | None, window: selectors.LineUpWindow) -> bool:
    """The line-up forms are shown: to the director while any line-up can go in, to an
    arbiter until the deadline."""
    return role is not None and not window.locked and (role == "director" or not window.late)


def _entry_state(event: Event, role: str | None, paired: Any) -> dict[str, Any]:
    """Result entry's own: the board to open on, and once every board is in, what comes next."""
    complete = paired["done"] == paired["total"]
    return {
        "first_open": selectors.first_open_board(paired),
        "next": whats_next(event, role, rounds_progress(event)) if complete else None,
    }


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
    """Pair the round as a draft; the message says what became of its line-ups."""
    event = event_for_director(request, slug)
    window = selectors.lineup_window(event, number)
    if window.rule == "pairing":
        lock = "Its line-ups are locked now: this event takes them before the pairing."
    else:
        lock = "Its line-ups stay open until the round's deadline, or until each match begins."
    done = f"Round {number} paired: review it, then publish. {lock}"
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


def _board_response(
    request: HtmxHttpRequest, event: Event, number: int, game_id: int, **extra: Any
) -> HttpResponse:
    """One board's row again (htmx): with its new result, and out of band the match's score,
    the round's progress and, once the round is complete, what comes next; or with the
    refusal or the conflict in the row."""
    context = _round_context(request, event, number, **extra)
    card, game = selectors.card_of_board(context["paired"], game_id)
    context.update(card=card, game=game, saved_game=None if extra else game)
    template = "teams/round.html#board-row" if extra else "teams/round.html#board-row-oob"
    return render(request, template, context)


@require_POST
def board_result(request: HtmxHttpRequest, slug: str, game_id: int) -> HttpResponse:
    """Record one board's result, as a chess game's result is entered: a tap or a key."""
    event = event_for_results(request, slug)
    number = selectors.board_round_number(event, game_id)
    try:
        services.board_result_record(
            event=event,
            game_id=game_id,
            result=forms.board_result(request.POST.get("result", "")),
            expected_version=seen_version(request.POST.get("version")),
            user=request.user,
        )
    except ResultConflict as exc:
        if not request.htmx:
            context = _round_context(request, event, number, conflict=exc, conflict_game=game_id)
            return render(request, "teams/round.html", context, status=409)
        return _board_response(request, event, number, game_id, conflict=exc, conflict_game=game_id)
    except UserError as exc:
        if not request.htmx:
            messages.error(request, str(exc))
            return redirect(reverse("teams:round", args=[slug, number]) + f"#board-{game_id}")
        return _board_response(
            request, event, number, game_id, row_error=str(exc), error_game=game_id
        )
    if not request.htmx:
        messages.success(request, "Saved.")
        return redirect(reverse("teams:round", args=[slug, number]) + f"#board-{game_id}")
    event.refresh_from_db()
    return _board_response(request, event, number, game_id)


@require_POST
def match_card(request: HtmxHttpRequest, slug: str, number: int, match_id: int) -> HttpResponse:
    """A whole-match forfeit (``forfeit``), or boards typed as text (``board1``, ...; ``½-½``
    and ``=`` read as a draw): boards the card does not name keep their results."""
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
    if request.htmx:  # the cards, and out of band the round's progress and what comes next
        event.refresh_from_db()
        context = _round_context(request, event, number, saved_match=match_id)
        return render(request, "teams/round.html#match-cards-oob", context)
    messages.success(request, "Saved.")
    return redirect("teams:round", slug=slug, number=number)


# ``?after=N``: the standings after round N (the chess standings' parameter, which the
# redirect from ``/e/SLUG/standings/`` keeps); anything else is one page that says so.
AFTER = {"after": number_up_to(99, otherwise="-")}


def _standings(request: HttpRequest, event: Event) -> tuple[dict[str, Any] | None, str]:
    """The team standings after the round asked for (the last played by default), or the
    latest with the reason the one asked for cannot be shown; None when the event's
    tie-breaks refuse it."""
    raw = request.GET.get("after", "")
    try:
        if raw == "-":
            raise ValueError("after round …: not a round number")
        return selectors.standings_of(event, after_round=int(raw) if raw else None), ""
    except ValueError as exc:
        error = str(exc)
    try:
        return (selectors.standings_of(event) if raw else None), error
    except ValueError as exc:
        return None, str(exc)


@require_GET
@public_page(params=AFTER)
def standings(request: HttpRequest, slug: str) -> HttpResponse:
    event = _team_event(slug)
    table, error = _standings(request, event)
    after = f"?after={table['after_round']}" if table and request.GET.get("after") else ""
    context = _base(
        request, event, table=table, error=error, after=after, rounds=range(1, event.rounds + 1)
    )
    return render(request, "teams/standings.html", context)


@require_GET
@public_page
def boards(request: HttpRequest, slug: str) -> HttpResponse:
    event = _team_event(slug)
    minimum = selectors.board_games_needed(event)
    context = _base(
        request,
        event,
        ranking=selectors.board_ranking(event),
        note=presenters.board_minimum_note(minimum),
    )
    return render(request, "teams/boards.html", context)


HALL_POLL_SECONDS = 20
HALL_ROTATE_SECONDS = 15


@require_GET
@public_page
def hall(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The hall screen of a team event (``/e/SLUG/hall/`` comes here): the round's matches
    with their board results, the team standings and the board leaders, in turn."""
    event = _team_event(slug)
    context = {
        "event": event,
        **presenters.hall_context(event),
        "poll": event.status != EventStatus.FINISHED,
        "poll_seconds": HALL_POLL_SECONDS,
        "rotate_seconds": HALL_ROTATE_SECONDS,
    }
    if request.htmx:
        return render(request, "teams/hall.html#hall", context)  # the poll: no QR code
    return render(request, "teams/hall.html", {**context, "code": event_page_code(slug)})


def _sheet(request: HttpRequest, event: Event, sheet: str, number: int | None) -> Sheet:
    """One of the printed sheets (:mod:`formats.teams.presenters`)."""
    if sheet == "round":
        paired = selectors.round_of(event, number or 0)
        if paired is None or not paired["round"].published:
            raise Http404("This round has not been published yet")
        return presenters.round_sheet(event, paired, event_page_code(event.slug).url)
    if sheet == "boards":
        minimum = selectors.board_games_needed(event)
        return presenters.boards_sheet(event, selectors.board_ranking(event), minimum)
    table, error = _standings(request, event)
    if table is None:
        raise Http404(error)
    if sheet == "crosstable":
        return presenters.crosstable_sheet(event, table)
    return presenters.standings_sheet(event, table)


@require_GET
@public_page(params=AFTER)
def sheet_print(
    request: HttpRequest, slug: str, sheet: str, number: int | None = None
) -> HttpResponse:
    """A sheet to pin up or print on A4 (the standings, the crosstable, a round, the board
    ranking): the same rows as its PDF."""
    event = _team_event(slug)
    printed = _sheet(request, event, sheet, number)
    pdf_args = [slug, number] if number else [slug]
    after = f"?after={request.GET['after']}" if request.GET.get("after") else ""
    context = {
        "event": event,
        "sheet": printed,
        "blocks": presenters.sheet_blocks(printed),
        "code": event_page_code(slug) if printed.qr_url else None,
        "pdf_url": reverse(f"teams:{sheet}_pdf", args=pdf_args) + after,
        "back_url": reverse("teams:round" if number else SHEET_PAGES[sheet], args=pdf_args),
    }
    return render(request, "teams/sheet_print.html", context)


SHEET_PAGES = {"standings": "teams:standings", "crosstable": "teams:standings"}
SHEET_PAGES |= {"boards": "teams:boards"}


def _sheet_file(slug: str, sheet: str, number: int | None = None) -> str:
    return f"{slug}-{sheet}{f'-{number}' if number else ''}.pdf"


@require_GET
@public_pdf(_sheet_file, params=AFTER)
def sheet_file(
    request: HttpRequest, slug: str, sheet: str, number: int | None = None
) -> HttpResponse:
    """The same sheet as a PDF."""
    printed = _sheet(request, _team_event(slug), sheet, number)
    return HttpResponse(sheet_pdf(printed), content_type="application/pdf")
