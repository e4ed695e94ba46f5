"""Standings of an event: one narrow load, the pure ranking engine, cached per results version.

The pages, ``call_command("standings")`` and the playoff and prize screens all come through
:func:`event_standings`. The ``standings`` command line reads the same rows with plain SQL
(:mod:`standings.fastpath`); both rank through :mod:`standings.compute`, so they can never
disagree about anything but the rows, and a test holds those equal.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.core.cache import cache

from events.formats import format_of
from events.models import Event, Player
from events.records import Crosstable
from events.selectors import (
    event_crosstable,
    last_complete_round,
    regulation_of,
)
from standings.compute import EventFacts, StandingsTable, compute_standings, resolve

CACHE_SECONDS = 3600


class EventRows:
    """The ORM's reading of an event's rows (:class:`standings.compute.StandingsSource`)."""

    def __init__(self, event: Event) -> None:
        self.event = event

    def last_complete_round(self) -> int:
        return last_complete_round(self.event)

    def crosstable(self, rounds: int) -> Crosstable:
        return event_crosstable(self.event, rounds=rounds)

    def previous_ranks(self) -> dict[int, int]:
        return dict(
            Player.objects.filter(event=self.event, previous_rank__isnull=False).values_list(
                "start_no", "previous_rank"
            )
        )


def event_standings(
    event: Event,
    *,
    after_round: int | None = None,
    codes: Sequence[str] | None = None,
    edition: str | None = None,
    use_cache: bool = True,
) -> StandingsTable:
    """The standings after ``after_round`` (default: the last complete round).

    ``use_cache=False`` neither reads nor stores the cached table: for a process that exits
    right after, whose local cache dies with it.

    Raises :class:`~events.errors.UserError` for a round out of range, an unknown code or a
    code the edition forbids, naming it.
    """
    # A format with standings of its own (formats/mso's multi-player tables) ranks the event
    # itself; the command line's direct path declines such events (standings.fastpath).
    fmt = format_of(event)
    if fmt is not None and fmt.standings is not None:
        return fmt.standings(event, after_round=after_round, codes=codes, edition=edition)
    regulation = regulation_of(event)
    facts = EventFacts(
        slug=event.slug,
        name=event.name,
        rounds=event.rounds,
        round_robin=event.is_round_robin,
        start_date=event.start_date,
        regulation=regulation,
    )
    rows = EventRows(event)
    request = resolve(facts, rows, after_round=after_round, codes=codes, edition=edition)
    key = (
        f"standings:{event.pk}:{event.results_version}:{request.after_round}:"
        f"{','.join(request.codes)}:{request.edition}"
    )
    table = cache.get(key) if use_cache else None
    if table is None:
        table = compute_standings(facts, rows, request)
        if fmt is not None and fmt.final_table is not None:  # the format's final places
            table = fmt.final_table(event, table)
        if use_cache:
            cache.set(key, table, CACHE_SECONDS)
    return table
