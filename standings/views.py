"""Public live standings: tie-break columns, shared places, the explanation of any two adjacent
players, htmx polling that stops when the event is final, 304s for an unchanged version; the
printable sheet and its PDF; the hall screen."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse

from draws.pdf import BOARDS_PER_BLOCK, pairing_blocks, pairing_lines
from events import selectors as event_selectors
from events.caching import number_up_to, public_page, public_pdf
from events.contributions import Columns, player_columns
from events.errors import UserError
from events.formats import format_page_redirect
from events.limits import whole_number
from events.models import Event, EventStatus
from events.qr import event_page_code
from standings import presenters
from standings.compute import StandingsTable
from standings.pdf import standings_pdf
from standings.selectors import event_standings, standings_around

POLL_SECONDS = 20
# The query parameters these pages read (events.caching: every other one is dropped). A round
# number is at most 99, as the event form allows; any other value of ``after`` is one page that
# says so.
NOT_A_ROUND = "-"
AFTER = {"after": number_up_to(99, otherwise=NOT_A_ROUND)}
EXPLAIN = {**AFTER, "a": number_up_to(9999), "b": number_up_to(9999)}


def _after_round(request: HttpRequest) -> int | None:
    """``?after=N``: None when absent; text that is no round number is refused like a round
    the event does not have (the page shows why, with the current standings)."""
    raw = request.GET.get("after", "")
    number = whole_number(raw)
    if raw and number is None:
        raise UserError("after round …: not a round number (the event's rounds are 1–99 at most)")
    return number


@public_page(params=AFTER)
def standings(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_selectors.event_get(slug)
    if moved := format_page_redirect(request, event):  # a team event's pages, say
        return moved
    error = ""
    try:
        table = event_standings(event, after_round=_after_round(request))
    except UserError as exc:
        error, table = str(exc), event_standings(event)
    context = {
        "event": event,
        "table": table,
        "rows": presenters.standings_rows(table, withdrawn=event_selectors.withdrawals(event)),
        "error": error,
        "rounds": range(1, event.rounds + 1),
        "poll": event.status != EventStatus.FINISHED and not request.GET.get("after"),
        "poll_seconds": POLL_SECONDS,
        # Each row links to its explanation: the address made once, not once per player.
        "explain_url": reverse("standings:explain", args=[slug]),
        "after_query": f"&after={table.after_round}" if request.GET.get("after") else "",
        "live": None if request.GET.get("after") else event_selectors.live_round(event),
    }
    template = "standings/standings.html"
    if request.htmx:  # type: ignore[attr-defined]
        template += "#standings-table"
    return render(request, template, context)


@public_page(params=EXPLAIN)
def explain(request: HttpRequest, slug: str) -> HttpResponse:
    """Two adjacent players: a few rows of the kept standings, never the whole table."""
    event = event_selectors.event_get(slug)
    if moved := format_page_redirect(request, event):  # a team event's pages, say
        return moved
    try:
        a, b = int(request.GET.get("a", "")), int(request.GET.get("b", ""))
        rows = standings_around(event, after_round=_after_round(request), a=a, b=b)
        comparison = presenters.explanation(rows, a, b)
    except (UserError, ValueError) as exc:
        return render(
            request, "standings/explain.html", {"event": event, "error": str(exc)}, status=400
        )
    template = "standings/explain.html" + ("#explanation" if request.htmx else "")  # type: ignore[attr-defined]
    return render(request, template, {"event": event, **comparison})


def _printed(request: HttpRequest, event: Event) -> StandingsTable:
    try:
        return event_standings(event, after_round=_after_round(request))
    except UserError:
        return event_standings(event)


def _printed_sheet(
    request: HttpRequest, event: Event
) -> tuple[StandingsTable, presenters.PrintedStandings, Columns]:
    """The printed standings with the columns other apps add to the standings page (the
    rating change and performance, when the director shows them), which take the room of as
    many tie-breaks."""
    table = _printed(request, event)
    extra = player_columns(event, "standings", table.after_round)
    printed = presenters.printed_standings(
        table, withdrawn=event_selectors.withdrawals(event), reserved=len(extra.headings)
    )
    return table, printed, extra


@public_page(params=AFTER)
def standings_print(request: HttpRequest, slug: str) -> HttpResponse:
    """The standings to pin up or print on A4: place, name, points, tie-breaks."""
    event = event_selectors.event_get(slug)
    if moved := format_page_redirect(request, event):
        return moved
    table, printed, extra = _printed_sheet(request, event)
    context = {
        "event": event,
        "table": table,
        "printed": printed,
        "rows": printed.rows,
        "extra": extra,
    }
    return render(request, "standings/standings_print.html", context)


@public_pdf(lambda slug: f"{slug}-standings.pdf", params=AFTER)
def standings_print_pdf(request: HttpRequest, slug: str) -> HttpResponse:
    """The same standings as a PDF."""
    event = event_selectors.event_get(slug)
    if moved := format_page_redirect(request, event):
        return moved
    table, printed, extra = _printed_sheet(request, event)
    pdf = standings_pdf(event_name=event.name, table=table, printed=printed, extra=extra)
    return HttpResponse(pdf, content_type="application/pdf")


# The hall screen: a page for a screen on the wall, turning between the current round's
# pairings and the standings, and refreshing itself until the event is final.
HALL_POLL_SECONDS = 20
HALL_ROTATE_SECONDS = 15
HALL_STANDINGS = 40  # the rest of the field is on the phones that scan the QR code
HALL_BLOCK = BOARDS_PER_BLOCK  # rows per column block, like the boards


def _hall_context(event: Event) -> dict[str, object]:
    current = event_selectors.current_round(event, event_selectors.rounds_progress(event))
    try:
        table: StandingsTable | None = event_standings(event)
    except UserError:
        table = None
    withdrawn = event_selectors.withdrawals(event)
    rows = presenters.standings_rows(table, HALL_STANDINGS, withdrawn) if table else []
    return {
        "event": event,
        "current": current,
        "boards": pairing_blocks(pairing_lines(current.games, current.byes)) if current else [],
        "table": table,
        "standings": [rows[i : i + HALL_BLOCK] for i in range(0, len(rows), HALL_BLOCK)],
        "poll": event.status != EventStatus.FINISHED,
        "poll_seconds": HALL_POLL_SECONDS,
        "rotate_seconds": HALL_ROTATE_SECONDS,
    }


@public_page
def hall(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_selectors.event_get(slug)
    if moved := format_page_redirect(request, event):
        return moved
    context = _hall_context(event)
    if request.htmx:  # type: ignore[attr-defined]
        return render(request, "standings/hall.html#hall", context)  # the poll: no QR code
    return render(request, "standings/hall.html", {**context, "code": event_page_code(slug)})
