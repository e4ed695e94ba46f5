"""Standings of an event: one narrow load, the pure ranking engine, cached per results version.

The pages, ``call_command("standings")`` and the playoff and prize screens all come through
:func:`event_standings`. The ``standings`` command line reads the same rows with plain SQL
(:mod:`standings.fastpath`); both rank through :mod:`standings.compute`, so they can never
disagree about anything but the rows, and a test holds those equal.
"""

from __future__ import annotations

import hashlib
import pickle
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
from standings.compute import (
    EventFacts,
    Request,
    StandingsSource,
    StandingsTable,
    compute_standings,
    resolve,
)

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
    if table is not None:
        return table
    if fmt is not None and fmt.final_table is not None:  # the format's final places
        table = fmt.final_table(event, compute_standings(facts, rows, request))
    elif use_cache:
        table = _ranked_once_per_inputs(facts, rows, request)
    else:
        table = compute_standings(facts, rows, request)
    if use_cache:
        cache.set(key, table, CACHE_SECONDS)
    return table


class _RowsRead:
    """The rows one request ranks, read once (a :class:`standings.compute.StandingsSource`)."""

    def __init__(self, rows: StandingsSource, request: Request) -> None:
        self.table = rows.crosstable(request.after_round)
        self.previous = rows.previous_ranks()
        self.complete = request.after_round

    def last_complete_round(self) -> int:
        return self.complete

    def crosstable(self, rounds: int) -> Crosstable:
        return self.table

    def previous_ranks(self) -> dict[int, int]:
        return self.previous


def _ranked_once_per_inputs(
    facts: EventFacts, rows: StandingsSource, request: Request
) -> StandingsTable:
    """Rank only if no table is kept for the same inputs (issue 24). The results version moves
    with every write, but the standings after round N read only rounds up to N: while round
    N + 1 is being played, each of its results is a new version and the same standings. So
    the table is also kept under a digest of everything :func:`compute_standings` reads (the
    event's facts, the request, the crosstable up to the round, the previous ranks): reading
    those costs a fraction of ranking them. Not for formats that adjust the table with data of
    their own (``final_table``), which the digest does not see."""
    read = _RowsRead(rows, request)
    inputs = pickle.dumps((facts, request, read.table, read.previous), protocol=5)
    key = f"standings-inputs:{hashlib.sha256(inputs).hexdigest()}"
    table = cache.get(key)
    if table is None:
        table = compute_standings(facts, read, request)
        cache.set(key, table, CACHE_SECONDS)
    return table
