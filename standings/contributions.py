"""What the standings add to an event's pages (events.contributions): the Standings and
Crosstable links, and the leaders on the spectator's event page."""

from __future__ import annotations

from events import selectors as event_selectors
from events.contributions import Block, Contributor, contributor_register
from events.errors import UserError
from events.formats import NavLink
from events.imports import TrfExport, TrfPart, trf_part_register
from events.models import Event
from standings import presenters
from standings.selectors import event_standings

LEADERS = 10


def _nav(event: Event) -> list[NavLink]:
    return [NavLink("Standings", "standings:standings"), NavLink("Crosstable", "events:crosstable")]


def _block(event: Event) -> Block | None:
    """The top of the standings after the last complete round (cached per results version)."""
    try:
        table = event_standings(event)
    except UserError:
        return None
    if table.after_round == 0:
        return None
    rows = presenters.standings_rows(table, LEADERS, event_selectors.withdrawals(event))
    return Block("standings/_leaders.html", {"table": table, "rows": rows}, order=20)


def _trf_ranks(event: Event, held: int, written: list[int]) -> TrfExport:
    """The TRF's rank column (issue 28): the order of the standings after the last complete
    round, the event's tie-breaks included, as the standings page shows them; nothing for an
    event the standings cannot rank (the writer then ranks by points)."""
    try:
        table = event_standings(event)
    except UserError:
        return TrfExport()
    return TrfExport(rank_order=[row.start_no for row in table.rows])


def register() -> None:
    contributor_register(Contributor("standings", nav=_nav, block=_block))
    trf_part_register(TrfPart("standings", load=lambda parsed, event, user: [], export=_trf_ranks))
