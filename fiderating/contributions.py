"""What the rating report adds to the event's pages (events.contributions): the *Rating* link
in the navigation of a chess event (not the formats with their own screens); on each player's
private page their rating change, performance and, near a norm, what the next game needs; and
the change and performance columns of the players page, the crosstable and (when the director
shows them) the standings and the wall chart, printed or as a PDF."""

from __future__ import annotations

from events.contributions import Block, Columns, Contributor, contributor_register
from events.formats import NavLink, format_of
from events.models import Event
from fiderating import presenters, selectors


def _nav(event: Event) -> list[NavLink]:
    return [NavLink("Rating", "fiderating:report")] if format_of(event) is None else []


def _player(event: Event, start_no: int) -> Block | None:
    """The player's own figures; what the next game needs only near a norm (every polling
    phone renders this after each result: the hypothetical games are for the few)."""
    if format_of(event) is not None:
        return None
    report = selectors.rating_report(event)
    row = report.row(start_no)
    if row is None:
        return None
    near = any(selectors.is_near(norm) for norm in row.norms)
    context = {
        "event": event,
        "row": row,
        "line": presenters.line(row),
        "next": selectors.player_next_round(event, report, start_no) if near else None,
    }
    return Block("fiderating/_player_block.html", context, order=50)


HEADINGS = (
    ("±", "FIDE rating change: K × (score − expected score), B.02"),
    ("Perf", "Performance over the rated games (B.02, C.07 TPR)"),
)


# The tables where the columns take room that other columns need (the tie-breaks, the rounds
# on paper): there only when the director shows them (NormConditions.standings_columns).
SHOWN_BY_THE_DIRECTOR = ("standings", "wall_chart")


def _columns(event: Event, page: str, after_round: int | None) -> Columns | None:
    """The change (an unrated player's first rating so far, in brackets) and performance."""
    if format_of(event) is not None:
        return None
    if page in SHOWN_BY_THE_DIRECTOR and not selectors.standings_columns(event):
        return None
    report = selectors.rating_report(event, rounds=after_round)
    cells = {}
    for row in report.rows:
        line = presenters.line(row)
        initial = row.rating.initial
        first = f"({initial.rating})" if initial is not None and initial.rating is not None else ""
        change = line.change if row.rating.rating else first
        cells[row.start_no] = (change if line.games else "", str(line.performance or ""))
    return Columns(HEADINGS, cells)


def register() -> None:
    contributor_register(Contributor("fiderating", nav=_nav, player=_player, columns=_columns))
