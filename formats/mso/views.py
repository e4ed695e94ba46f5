"""MSO multi-player table screens (seed 003): a round's tables with every seat's score and the
tournament points it earned; the director seats the round, directors and arbiters enter a
table's scores in one go. Thin function views; the tables region is an inline partial named
after its element id, rendered alone for htmx requests; every form works without JavaScript."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_GET, require_POST

from events.access import event_for_director, event_for_results
from events.caching import public_page
from events.errors import ResultConflict, UserError
from events.forms import seen_version
from events.limits import whole_number
from events.models import Event
from events.selectors import event_get, round_number_or_404, user_role
from events.services import ByeInput
from events.views import HtmxHttpRequest
from formats.mso.extra_rounds import mso_extra_round_schedule
from formats.mso.selectors import is_multi_player, multi_round_tables, tables_text
from formats.mso.services import (
    ScoreError,
    TableInput,
    multi_game_scores_record,
    multi_round_tables_set,
)

PAGE = "mso/tables.html"


def _context(request: HttpRequest, event: Event, number: int, **extra: object) -> dict[str, object]:
    if not is_multi_player(event) or not 1 <= number <= event.rounds:
        raise Http404("No such round of tables")
    role = user_role(event, request.user)
    return {
        "event": event,
        "round": multi_round_tables(event, number),
        "rounds": range(1, event.rounds + 1),
        "role": role,
        "tables_text": tables_text(event, number) if role == "director" else "",
        **extra,
    }


@require_GET
@public_page
def multi_round(request: HtmxHttpRequest, slug: str, number: int) -> HttpResponse:
    event = event_get(slug)
    template = PAGE + "#multi-tables" if request.htmx else PAGE
    response = render(request, template, _context(request, event, number))
    patch_cache_control(response, no_cache=True)
    return response


def parse_tables(text: str) -> tuple[list[TableInput], list[ByeInput]]:
    """One table a line, start numbers in seat order ("3 7 12 5"); "bye 4" for a bye."""
    tables, byes = [], []
    for line_no, line in enumerate(text.strip().splitlines(), start=1):
        words = line.replace(",", " ").split()
        if not words:
            continue
        if words[0].lower() == "bye":
            start_no = whole_number(words[1]) if len(words) == 2 else None
            if start_no is None:
                raise UserError(f"line {line_no}: write a bye as 'bye START_NO'")
            byes.append(ByeInput(start_no=start_no, kind="zero"))
            continue
        seats = [whole_number(word) for word in words]
        if None in seats:
            raise UserError(f"line {line_no}: list start numbers, e.g. 3 7 12 5")
        tables.append(
            TableInput(
                board=len(tables) + 1, players=tuple(seat for seat in seats if seat is not None)
            )
        )
    return tables, byes


@require_POST
def multi_tables_set(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    event = event_for_director(request, slug)
    round_number_or_404(event, number)
    try:
        tables, byes = parse_tables(request.POST.get("tables", ""))
        multi_round_tables_set(
            event=event, round_no=number, tables=tables, byes=byes, user=request.user
        )
    except UserError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, f"Round {number} seated: {len(tables)} tables.")
    return redirect("mso:tables", slug=slug, number=number)


def _posted_scores(request: HttpRequest) -> list[tuple[int, str]]:
    players = request.POST.getlist("player")
    scores = request.POST.getlist("score")
    seats = [whole_number(player) for player in players]
    if len(players) != len(scores) or None in seats:
        raise ScoreError("every seat needs a player and a score")
    return [(int(p), s) for p, s in zip(players, scores, strict=True)]


@require_POST
def multi_scores(request: HtmxHttpRequest, slug: str, number: int, game_id: int) -> HttpResponse:
    event = event_for_results(request, slug)
    version = request.POST.get("version", "")
    posted: list[tuple[int, str]] = []
    try:
        posted = _posted_scores(request)
        multi_game_scores_record(
            event=event,
            game_id=game_id,
            scores=posted,
            expected_version=seen_version(version),
            user=request.user,
        )
    except UserError as exc:  # ScoreError and ResultConflict too: shown at the table
        event.refresh_from_db()
        extra = {"error_game": game_id, "error": str(exc), "entered": dict(posted)}
        if isinstance(exc, ResultConflict):
            extra["entered"] = {}
        context = _context(request, event, number, **extra)
        template = PAGE + "#multi-tables" if request.htmx else PAGE
        return render(request, template, context, status=200 if request.htmx else 400)
    if request.htmx:
        event.refresh_from_db()
        return render(request, PAGE + "#multi-tables", _context(request, event, number))
    return redirect("mso:tables", slug=slug, number=number)


@require_POST
def mso_extra_round(request: HttpRequest, slug: str) -> HttpResponse:
    """Seed 003 "Perfect Scores": the director pairs the next extra round."""
    event = event_for_director(request, slug)
    try:
        number = mso_extra_round_schedule(event=event, user=request.user)
    except UserError as exc:
        messages.error(request, str(exc))
        return redirect("events:event_detail", slug=slug)
    messages.success(request, f"Extra round {number} paired among the perfect scores.")
    return redirect("events:round_results", slug=slug, number=number)
