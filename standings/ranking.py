"""The ranking engine: points, then an ordered list of tie-break codes, under a multi-way procedure.

Pure: no Django. It takes a :class:`~events.records.Crosstable` and returns frozen
:class:`Standing` rows that carry everything a page, an export, a playoff or a prize split needs:
the place, whether it is shared, every tie-break value, and which criterion separated each player
from the next one down ("ties are data", design.md §3).

Tie-breaks come from the registry (:mod:`standings.registry`). A group-independent definition is
computed once for the whole field; a group-dependent one (direct encounter, head-to-head, MSO
opponent-count equalisation) is recomputed for every group the procedure compares.

The procedures, the levels, the explanations and the rows are written once, over a
:class:`CriterionSource`: what one kind of record gives them (its points, its chain as applied to a
group, a criterion's values for a group). :func:`rank` ranks a crosstable through the registry;
:mod:`formats.mso.rules` ranks MSO multi-player tables (seed 003) through :func:`rank_by`
with its own source, whose growing Buchholz cuts expand differently for every tied group.

The multi-way procedure is a regulation-set option (rules-notes, "Cohen Chess"):

``lexicographic``
    Compare code by code (C.07 Art. 4.2). A group-dependent criterion is computed among the
    players still tied after the previous criteria; where it splits them, it is applied again
    within each level still tied (direct encounter "recurses on groups still tied",
    rules-notes), and only then does the next criterion follow. Earlier criteria are never
    revisited.
``restart``
    MSO clarification 1 (seed 003): at the first criterion that separates anyone, split the group
    into all its value levels at once; each level of two or more is a new tie that starts again
    from the first tie-break, values recomputed for that smaller group.
``peel``
    Cohen Chess rule 6 (seed 002) as rules-notes reads it: for three or more players and the next
    criterion, exactly one best is placed first and the rest ranked again from the first
    tie-break; else exactly one worst is placed last, the same; else the players sharing the best
    value go above the rest and each part is ranked again; else the next criterion. Two players
    use the two-way chain (plain lexicographic).

With group-independent criteria only, the three procedures give the same order; they differ once
a group-dependent criterion is involved (tests construct such cases).

Players level after every criterion stay tied: same place, ``shared=True``. They are ordered by a
lot only when the event has recorded one (``lot_order``); otherwise they are listed by name, which
is presentation, not ranking: they keep the same place.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from itertools import groupby
from typing import Protocol

from events.records import Crosstable, Entrant, RoundResult
from standings import catalogue
from standings.registry import (
    REGISTRY,
    TiebreakRequest,
    TiebreakSpec,
    TiebreakValue,
    parse_code,
)

# The whole catalogue (FIDE C.07 and the seeds' chains) is registered before any ranking.
catalogue.load()

POINTS = "PTS"
LOT = "LOT"
LEXICOGRAPHIC = "lexicographic"
RESTART = "restart"
PEEL = "peel"
PROCEDURES = (LEXICOGRAPHIC, RESTART, PEEL)


class RankingError(ValueError):
    """A ranking request a director can fix: unknown procedure, a code listed twice, a lot
    order that misses a tied player, a start number not in the event."""


@dataclass(frozen=True, slots=True)
class Comparison:
    """One criterion compared for two players: ``value_a`` belongs to the first player asked
    about. ``among`` is the group a group-dependent value was computed in (None otherwise)."""

    code: str
    value_a: TiebreakValue
    value_b: TiebreakValue
    separated: bool
    among: tuple[int, ...] | None = None

    def swapped(self) -> Comparison:
        return replace(self, value_a=self.value_b, value_b=self.value_a)


@dataclass(frozen=True, slots=True)
class Standing:
    """One row of the standings.

    ``rank`` is the place (tied players share the best place); ``values`` maps the primary
    code (``PTS``) and each tie-break code to the player's value, in chain order (a
    group-dependent code: the value computed in the last group that compared the player, the
    one that decided; absent if the player was never in a tie that reached it). Multi-player
    rows (``field_values=False`` in :func:`rank_by`) hold only the values the player's ties were
    compared on, in the order compared.
    ``decided_by`` is the code that separated this player from the next one down (``"PTS"``
    for points, ``"LOT"`` for a recorded lot), None when tied with them or last.
    ``comparisons`` are the criteria compared against the next player down, in order, ending
    with the deciding one. ``lot`` is the player's position in the recorded lot when the lot
    placed them.
    """

    start_no: int
    name: str
    rank: int
    shared: bool
    points: Fraction
    values: dict[str, TiebreakValue]
    decided_by: str | None
    comparisons: tuple[Comparison, ...] = ()
    lot: int | None = None


@dataclass(frozen=True, slots=True)
class Criterion:
    """One criterion of a chain as the procedures see it: its code in the registry's notation,
    which way is better, and whether its values depend on who is tied (then they are
    recomputed for every group compared, and explanations say among whom)."""

    spec: TiebreakSpec
    higher_is_better: bool = True
    group_dependent: bool = False

    @property
    def code(self) -> str:
        return self.spec.code


class CriterionSource(Protocol):
    """What one kind of record lends the procedures: a crosstable and the registry
    (:class:`CrosstableSource`), or MSO multi-player tables (:mod:`formats.mso.rules`)."""

    @property
    def points(self) -> Mapping[int, Fraction]:
        """Every player's points (the rows' ``points``)."""
        ...

    def chain(self, group: Collection[int]) -> Sequence[Criterion]:
        """The tie-breaks applied to ``group``, in order; asked again for every new tie (a
        chain may expand by group: seed 003's growing Buchholz cuts). A group-independent
        criterion is the same whatever the group."""
        ...

    def values(self, criterion: Criterion, group: frozenset[int]) -> Mapping[int, TiebreakValue]:
        """The criterion's values for ``group`` (a group-independent one is asked once, for
        the whole field)."""
        ...


class CrosstableSource:
    """Registered tie-breaks (:mod:`standings.registry`) over a crosstable, under the event's
    edition and regulation-set options; ``PTS`` is the points under the event's scoring."""

    def __init__(
        self,
        crosstable: Crosstable,
        chain: Sequence[Criterion],
        *,
        edition: str,
        options: Mapping[str, object],
    ) -> None:
        self.crosstable = crosstable
        self.listed = tuple(chain)
        self.edition = edition
        self.options = options
        self.points = points_of(crosstable)

    def chain(self, group: Collection[int]) -> Sequence[Criterion]:
        return self.listed

    def values(self, criterion: Criterion, group: frozenset[int]) -> Mapping[int, TiebreakValue]:
        if criterion.code == POINTS:
            return self.points
        request = TiebreakRequest(
            crosstable=self.crosstable,
            spec=criterion.spec,
            edition=self.edition,
            points=self.points,
            group=group,
            options=self.options,
        )
        return REGISTRY[criterion.spec.base].compute(request)


@dataclass(frozen=True, slots=True)
class _Step:
    """A criterion evaluated for a group: ``among`` is set for group-dependent values."""

    criterion: Criterion
    values: Mapping[int, TiebreakValue]
    among: frozenset[int] | None = None


@dataclass(frozen=True, slots=True)
class _Link:
    """What lies between two adjacent players: the steps compared, and the deciding code."""

    decided_by: str | None
    steps: tuple[_Step, ...]
    lot: tuple[int, int] | None = None  # lot positions of the upper and lower player


@dataclass(slots=True)
class _Ordered:
    """A ranked sequence of players and the links between neighbours (len(order) - 1)."""

    order: list[int] = field(default_factory=list)
    links: list[_Link] = field(default_factory=list)

    def extend(self, other: _Ordered, link: _Link | None) -> None:
        if self.order and link is not None:
            self.links.append(link)
        self.order.extend(other.order)
        self.links.extend(other.links)


def points_of(crosstable: Crosstable) -> dict[int, Fraction]:
    """Every entrant's points after ``crosstable.rounds`` rounds under the event's scoring.

    A round's points depend on its code and time control only; they are added as integers
    over a common denominator, as :mod:`standings.tiebreaks` does (adding 22,000 rounds as
    Fractions was over a quarter of the time to rank 2000 players).
    """
    outcomes = [
        (
            entrant.start_no,
            [(r.code, r.time_control) for r in entrant.results if r.round <= crosstable.rounds],
        )
        for entrant in crosstable.entrants
    ]
    distinct_outcomes = {outcome for _, played in outcomes for outcome in played}
    value = {
        outcome: crosstable.scoring.points(RoundResult(1, None, "-", *outcome))
        for outcome in distinct_outcomes
    }
    unit = math.lcm(1, *(v.denominator for v in value.values()))
    scaled = {outcome: v.numerator * (unit // v.denominator) for outcome, v in value.items()}
    totals: dict[int, Fraction] = {}
    distinct: dict[int, Fraction] = {}  # one Fraction per distinct score
    for start_no, played in outcomes:
        total = sum(scaled[outcome] for outcome in played)
        if total not in distinct:
            distinct[total] = Fraction(total, unit)
        totals[start_no] = distinct[total]
    return totals


def truncate(crosstable: Crosstable, rounds: int) -> Crosstable:
    """The crosstable as it stood after ``rounds`` rounds (standings "after round N")."""
    if not 0 <= rounds <= crosstable.rounds:
        raise RankingError(f"round {rounds} is outside 0–{crosstable.rounds}")
    entrants = tuple(
        replace(entrant, results=tuple(r for r in entrant.results if r.round <= rounds))
        for entrant in crosstable.entrants
    )
    return replace(crosstable, rounds=rounds, entrants=entrants)


def _criterion(code: str) -> Criterion:
    if code == POINTS:
        return Criterion(TiebreakSpec(code=POINTS, base=POINTS))
    spec = parse_code(code)
    definition = REGISTRY[spec.base]
    return Criterion(spec, definition.higher_is_better, definition.group_dependent)


def _criteria(codes: str | Sequence[str], primary: str) -> tuple[Criterion, list[Criterion]]:
    """Parse the chain. The primary criterion (points unless the regulation says otherwise,
    e.g. Cohen rule 4 A pool points) is never applied twice: listed again, it is dropped."""
    items = codes.split(",") if isinstance(codes, str) else list(codes)
    cleaned = [item.strip().upper() for item in items if item.strip()]
    primary_criterion = _criterion(primary.strip().upper())
    if primary_criterion.group_dependent:
        raise RankingError(f"{primary} depends on the tied group and cannot rank the field")
    chain: list[Criterion] = []
    for code in cleaned:
        criterion = _criterion(code)
        if criterion.code == primary_criterion.code:
            continue
        if any(existing.code == criterion.code for existing in chain):
            raise RankingError(f"tie-break {criterion.code} is listed twice")
        chain.append(criterion)
    return primary_criterion, chain


def _levels(group: Collection[int], step: _Step) -> list[list[int]]:
    """Split a group into its value levels, best first (ties keep their given order)."""
    members = list(group)
    key = _sort_key(members, step.values)
    ordered = sorted(members, key=key.__getitem__, reverse=step.criterion.higher_is_better)
    return [list(level) for _, level in groupby(ordered, key=key.__getitem__)]


def _sort_key(
    members: list[int], values: Mapping[int, TiebreakValue]
) -> Mapping[int, int] | Mapping[int, TiebreakValue]:
    """Fractions as integers over their common denominator, which order and group the same:
    comparing two Fractions goes through the numbers ABCs, and sorting 2000 players by points
    and tie-breaks was a tenth of the time to rank them. Tuples (Cohen) compare as they are."""
    fractions = [value for value in map(values.__getitem__, members) if isinstance(value, Fraction)]
    if len(fractions) < len(members):
        return values
    unit = math.lcm(*{value.denominator for value in fractions})
    return {
        p: value.numerator * (unit // value.denominator)
        for p, value in zip(members, fractions, strict=True)
    }


def _peel_parts(levels: list[list[int]]) -> list[list[int]]:
    """Cohen rule 6 A: a single best goes first; else a single worst goes last; else the
    subset sharing the best value goes above the rest."""
    if len(levels[0]) == 1:
        return [levels[0], [p for level in levels[1:] for p in level]]
    if len(levels[-1]) == 1:
        return [[p for level in levels[:-1] for p in level], levels[-1]]
    return [levels[0], [p for level in levels[1:] for p in level]]


class _Ranker:
    """The procedures over a source. With ``field_values`` every group-independent criterion
    of the chain is computed for the whole field up front and every row shows it, in chain
    order (a C.07 standings list); without, a row shows the values its ties were compared on,
    in the order compared (seed 003's multi-player list)."""

    def __init__(
        self,
        source: CriterionSource,
        names: Mapping[int, str],
        primary: Criterion,
        *,
        lot_order: Sequence[int] | None,
        field_values: bool,
    ) -> None:
        self.source = source
        self.names = names
        self.field = frozenset(names)
        self.field_values = field_values
        self.values: dict[int, dict[str, TiebreakValue]] = {p: {} for p in names}
        self.lot = None if lot_order is None else {p: i + 1 for i, p in enumerate(lot_order)}
        self.independent: dict[str, Mapping[int, TiebreakValue]] = {}
        self.primary_step = self.step(primary, self.field)
        self.codes: tuple[str, ...] | None = None
        if field_values:
            chain = source.chain(self.field)
            self.codes = (primary.code, *(criterion.code for criterion in chain))
            for criterion in chain:
                if not criterion.group_dependent:
                    self.step(criterion, self.field)

    def compute(
        self, criterion: Criterion, group: frozenset[int], shown: Collection[int]
    ) -> Mapping[int, TiebreakValue]:
        values = self.source.values(criterion, group)
        self.show(criterion, values, shown)
        return values

    def show(
        self, criterion: Criterion, values: Mapping[int, TiebreakValue], shown: Collection[int]
    ) -> None:
        for start_no in shown:
            self.values[start_no][criterion.code] = values[start_no]

    def ordered_values(self, start_no: int) -> dict[str, TiebreakValue]:
        """The player's values, the primary first: in chain order, or as compared."""
        known = self.values[start_no]
        if self.codes is None:
            return dict(known)
        ordered = {code: known[code] for code in self.codes if code in known}
        if len(ordered) < len(known):  # codes a tied group's chain added: as compared, after
            ordered.update(known)
        return ordered

    def step(self, criterion: Criterion, group: Collection[int]) -> _Step:
        if criterion.group_dependent:
            among = frozenset(group)
            return _Step(criterion, self.compute(criterion, among, among), among)
        values = self.independent.get(criterion.code)
        if values is None:  # computed once, for the whole field
            shown = self.field if self.field_values else group
            values = self.compute(criterion, self.field, shown)
            self.independent[criterion.code] = values
        elif not self.field_values:
            self.show(criterion, values, group)
        return _Step(criterion, values)

    # -- the three procedures -------------------------------------------------------------

    def resolve(self, group: list[int], procedure: str, base: tuple[_Step, ...]) -> _Ordered:
        if len(group) == 1:
            return _Ordered(order=list(group))
        if procedure == RESTART:
            return self.restart(group, base)
        if procedure == PEEL:
            return self.peel(group, base)
        return self.lexicographic(group, self.source.chain(group), 0, base)

    def lexicographic(
        self, group: list[int], chain: Sequence[Criterion], index: int, trail: tuple[_Step, ...]
    ) -> _Ordered:
        """C.07 Art. 4.2 along the chain the tie started with (earlier criteria are never
        revisited, so a chain that expands by group is expanded once per tie)."""
        for position in range(index, len(chain)):
            step = self.step(chain[position], group)
            levels = _levels(group, step)
            if len(levels) > 1:
                deeper = trail + (step,)
                # A group-dependent criterion applies again among the players it left tied
                # (direct encounter "recurses on groups still tied", rules-notes); for any
                # other criterion they are level on it, so the next one follows.
                again = position if step.criterion.group_dependent else position + 1
                parts = [
                    self.lexicographic(level, chain, again, deeper)
                    if len(level) > 1
                    else _Ordered(order=level)
                    for level in levels
                ]
                return self._join(parts, step, trail)
            trail += (step,)
        return self.block(group, trail)

    def restart(self, group: list[int], base: tuple[_Step, ...]) -> _Ordered:
        trail = base
        for criterion in self.source.chain(group):
            step = self.step(criterion, group)
            levels = _levels(group, step)
            if len(levels) > 1:
                parts = [self.resolve(level, RESTART, base) for level in levels]
                return self._join(parts, step, trail)
            trail += (step,)
        return self.block(group, trail)

    def peel(self, group: list[int], base: tuple[_Step, ...]) -> _Ordered:
        """Rule 6 as a loop: a single best player goes above, a single worst below, and the
        rest is ranked again from the first criterion (a best subset is ranked on its own).
        Peeling one player at a time is a loop, not a recursion, so large ties stay shallow."""
        above = _Ordered()
        link_above: _Link | None = None
        below: list[tuple[_Link, list[int]]] = []  # bottom-most last
        rest = group
        middle: _Ordered | None = None
        while middle is None:
            if len(rest) <= 2:  # two players use the two-way chain
                middle = self.lexicographic(rest, self.source.chain(rest), 0, base)
                continue
            outcome = self._peel_step(rest, base)
            if isinstance(outcome, _Ordered):  # level on every criterion
                middle = outcome
                continue
            (upper, lower), link = outcome
            if len(lower) == 1 and len(upper) > 1:  # a single worst: place them last
                below.insert(0, (link, lower))
                rest = upper
                continue
            above.extend(self.resolve(upper, PEEL, base), link_above)
            link_above, rest = link, lower
        above.extend(middle, link_above)
        for link, part in below:
            above.extend(_Ordered(order=part), link)
        return above

    def _peel_step(
        self, group: list[int], base: tuple[_Step, ...]
    ) -> tuple[list[list[int]], _Link] | _Ordered:
        trail = base
        for criterion in self.source.chain(group):
            step = self.step(criterion, group)
            levels = _levels(group, step)
            if len(levels) > 1:
                return _peel_parts(levels), _Link(step.criterion.code, trail + (step,))
            trail += (step,)
        return self.block(group, trail)

    @staticmethod
    def _join(parts: list[_Ordered], step: _Step, trail: tuple[_Step, ...]) -> _Ordered:
        joined = _Ordered()
        link = _Link(step.criterion.code, trail + (step,))
        for part in parts:
            joined.extend(part, link)
        return joined

    def block(self, group: list[int], trail: tuple[_Step, ...]) -> _Ordered:
        """Players level after every criterion: tied, unless the event recorded a lot."""
        if self.lot is None:
            members = sorted(group, key=lambda p: (self.names[p], p))
            return _Ordered(order=members, links=[_Link(None, trail)] * (len(members) - 1))
        missing = sorted(p for p in group if p not in self.lot)
        if missing:
            raise RankingError(f"the recorded lot does not place start numbers {missing}")
        lot = self.lot
        members = sorted(group, key=lot.__getitem__)
        links = [
            _Link(LOT, trail, (lot[upper], lot[lower]))
            for upper, lower in zip(members, members[1:], strict=False)
        ]
        return _Ordered(order=members, links=links)


def _comparisons(link: _Link, upper: int, lower: int) -> tuple[Comparison, ...]:
    compared = [
        Comparison(
            code=step.criterion.code,
            value_a=step.values[upper],
            value_b=step.values[lower],
            # a separating link always ends with its deciding step; a lot decides after them all
            separated=link.decided_by not in (None, LOT) and index == len(link.steps) - 1,
            among=None if step.among is None else tuple(sorted(step.among)),
        )
        for index, step in enumerate(link.steps)
    ]
    if link.lot is not None:
        compared.append(Comparison(LOT, Fraction(link.lot[0]), Fraction(link.lot[1]), True))
    return tuple(compared)


def _standings(ranker: _Ranker, ordered: _Ordered) -> tuple[Standing, ...]:
    order, links = ordered.order, ordered.links
    rows: list[Standing] = []
    place = 1
    for index, start_no in enumerate(order):
        above = links[index - 1] if index > 0 else None
        below = links[index] if index < len(links) else None
        if above is not None and above.decided_by is not None:
            place = index + 1
        comparisons = _comparisons(below, start_no, order[index + 1]) if below else ()
        rows.append(_standing(ranker, start_no, place, (above, below), comparisons))
    return tuple(rows)


def _standing(
    ranker: _Ranker,
    start_no: int,
    place: int,
    neighbours: tuple[_Link | None, _Link | None],
    comparisons: tuple[Comparison, ...],
) -> Standing:
    """One player's row: the place is shared when a link to a neighbour decides nothing, and
    the player's lot is shown when a lot separated the player from a neighbour."""
    below = neighbours[1]
    placed_by_lot = any(link is not None and link.lot for link in neighbours)
    return Standing(
        start_no=start_no,
        name=ranker.names[start_no],
        rank=place,
        shared=any(link is not None and link.decided_by is None for link in neighbours),
        points=ranker.source.points[start_no],
        values=ranker.ordered_values(start_no),
        decided_by=None if below is None else below.decided_by,
        comparisons=comparisons,
        lot=ranker.lot[start_no] if ranker.lot is not None and placed_by_lot else None,
    )


def _field(crosstable: Crosstable, players: Collection[int] | None) -> list[Entrant]:
    if players is None:
        return list(crosstable.entrants)
    wanted = set(players)
    entrants = [entrant for entrant in crosstable.entrants if entrant.start_no in wanted]
    unknown = wanted - {entrant.start_no for entrant in entrants}
    if unknown:
        raise RankingError(f"start numbers {sorted(unknown)} are not in the event")
    return entrants


def _check_procedure(procedure: str) -> None:
    if procedure not in PROCEDURES:
        raise RankingError(f"unknown multi-way procedure {procedure!r}; use one of {PROCEDURES}")


def rank_by(
    source: CriterionSource,
    names: Mapping[int, str],
    primary: Criterion,
    *,
    procedure: str = LEXICOGRAPHIC,
    lot_order: Sequence[int] | None = None,
    field_values: bool = True,
) -> tuple[Standing, ...]:
    """Rank the field ``names`` lists (start number → name): ``primary`` first, then the
    source's chain under ``procedure``. ``field_values``: every row shows every
    group-independent value of the chain (True), or only the values its ties were compared on
    (:class:`_Ranker`). Raises :class:`RankingError` for an unknown procedure or a recorded lot
    that misses a tied player."""
    _check_procedure(procedure)
    ranker = _Ranker(source, names, primary, lot_order=lot_order, field_values=field_values)
    ordered = _Ordered()
    link = _Link(primary.code, (ranker.primary_step,))
    for level in _levels(list(names), ranker.primary_step):
        ordered.extend(ranker.resolve(level, procedure, (ranker.primary_step,)), link)
    return _standings(ranker, ordered)


def rank(
    crosstable: Crosstable,
    codes: str | Sequence[str],
    *,
    edition: str = "2024",
    procedure: str = LEXICOGRAPHIC,
    options: Mapping[str, object] | None = None,
    lot_order: Sequence[int] | None = None,
    primary: str = POINTS,
    players: Collection[int] | None = None,
) -> tuple[Standing, ...]:
    """Rank the field: ``primary`` (points) first, then ``codes`` under ``procedure``.

    ``codes`` is a comma-separated string or a sequence in TRF-2026 notation; listing the
    primary code (``PTS``) again has no effect. ``players`` restricts the ranking to part of
    the field (a Cohen pool, a consolation group) while tie-breaks still see every game.
    ``lot_order`` is the event's recorded lot (start numbers, first drawn first); without it,
    players level on every criterion share their place.

    Raises :class:`~standings.registry.UnknownTiebreak` for a code the registry does not know
    and :class:`RankingError` for the other mistakes a director can fix.
    """
    _check_procedure(procedure)
    primary_criterion, chain = _criteria(codes, primary)
    if not any(criterion.group_dependent for criterion in chain):
        # With values that do not depend on the group the three procedures coincide (module
        # docstring); the plain sort keeps large fields near-linear.
        procedure = LEXICOGRAPHIC
    entrants = _field(crosstable, players)
    source = CrosstableSource(crosstable, chain, edition=edition, options=options or {})
    names = {entrant.start_no: entrant.name for entrant in entrants}
    return rank_by(source, names, primary_criterion, procedure=procedure, lot_order=lot_order)


def explain(standings: Sequence[Standing], a: int, b: int) -> list[Comparison]:
    """Why ``a`` and ``b`` — two adjacent players — stand where they do: each criterion in
    turn, with both values (``value_a`` is ``a``'s), up to the one that separated them (all
    of them, if they are tied). Only neighbours have one deciding comparison."""
    position = {standing.start_no: index for index, standing in enumerate(standings)}
    if a not in position or b not in position:
        raise RankingError(f"start numbers {a} and {b} must both be in the standings")
    upper, lower = sorted((position[a], position[b]))
    if lower - upper != 1:
        raise RankingError(f"start numbers {a} and {b} are not adjacent in the standings")
    comparisons = standings[upper].comparisons
    if position[a] == upper:
        return list(comparisons)
    return [comparison.swapped() for comparison in comparisons]


def tie_groups(standings: Sequence[Standing]) -> tuple[tuple[int, ...], ...]:
    """Start numbers sharing a place, best place first (what playoffs and prize splits need)."""
    groups = (
        tuple(standing.start_no for standing in rows)
        for _, rows in groupby(standings, key=lambda standing: standing.rank)
    )
    return tuple(group for group in groups if len(group) > 1)
