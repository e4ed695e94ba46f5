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
from dataclasses import dataclass

from django.core.cache import cache

from events.errors import UserError
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
from standings.ranking import Standing

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
    kept = _kept_table(event, after_round=after_round, codes=codes, edition=edition)
    table = cache.get(kept.key) if use_cache else None
    if table is not None:
        return table
    if fmt is not None and fmt.final_table is not None:  # the format's final places
        table = fmt.final_table(event, compute_standings(kept.facts, kept.rows, kept.request))
    elif use_cache:
        table = _ranked_once_per_inputs(kept.facts, kept.rows, kept.request)
    else:
        table = compute_standings(kept.facts, kept.rows, kept.request)
    if use_cache:
        cache.set(kept.key, table, CACHE_SECONDS)
    return table


@dataclass(frozen=True)
class _KeptTable:
    """Where the standings of one request are kept, and what computes them."""

    key: str
    facts: EventFacts
    rows: EventRows
    request: Request


def _kept_table(
    event: Event, *, after_round: int | None, codes: Sequence[str] | None, edition: str | None
) -> _KeptTable:
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
    return _KeptTable(key, facts, rows, request)


# Explaining two players (issue 29). The page asks for one pair of adjacent players; loading
# the whole table to answer it took 0.4 s of CPU and 145 MB at 5,000 players, for every new
# pair an anonymous visitor made up. So each table is kept a second time for it, once, as
# the players' positions and slices of EXPLAIN_ROWS + 1 rows (each slice overlaps the next by
# one, so that any two adjacent players are in one): a pair reads the positions and a slice.
EXPLAIN_ROWS = 50


def standings_around(
    event: Event, *, after_round: int | None, a: int, b: int
) -> tuple[Standing, ...]:
    """A few rows of the standings holding ``a`` and ``b``, which must be adjacent: what
    :func:`standings.ranking.explain` needs, read without the whole table. Raises
    :class:`~events.errors.UserError` for a round out of range, and for a pair that is not
    two adjacent players of the standings, saying which."""
    fmt = format_of(event)
    if fmt is not None and fmt.standings is not None:  # not kept by version: the table
        return event_standings(event, after_round=after_round).rows
    key = "standings-around:" + _kept_table(
        event, after_round=after_round, codes=None, edition=None
    ).key.removeprefix("standings:")
    positions = cache.get(key)
    if positions is not None:
        rows = cache.get(f"{key}:{_adjacent(positions, a, b) // EXPLAIN_ROWS}")
        if rows is not None:
            return tuple(rows)
    # Not kept yet for this version (or dropped from a full cache): the table, kept again.
    table = event_standings(event, after_round=after_round)
    upper = _adjacent(_positions_keep(key, table), a, b)
    return table.rows[upper : upper + 2]


def _positions_keep(key: str, table: StandingsTable) -> dict[int, int]:
    positions = {row.start_no: i for i, row in enumerate(table.rows)}
    slices = {
        f"{key}:{n}": table.rows[start : start + EXPLAIN_ROWS + 1]
        for n, start in enumerate(range(0, len(table.rows), EXPLAIN_ROWS))
    }
    cache.set_many(slices, CACHE_SECONDS)
    cache.set(key, positions, CACHE_SECONDS)
    return positions


def _adjacent(positions: dict[int, int], a: int, b: int) -> int:
    """The upper one's position, or the refusal :func:`standings.ranking.explain` gives."""
    if a not in positions or b not in positions:
        raise UserError(f"start numbers {a} and {b} must both be in the standings")
    upper, lower = sorted((positions[a], positions[b]))
    if lower - upper != 1:
        raise UserError(f"start numbers {a} and {b} are not adjacent in the standings")
    return upper


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
