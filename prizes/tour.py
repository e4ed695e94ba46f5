"""Grand Chess Tour points and the tour standings (seed 000, 2.6, 2.7, 3.9, 3.10, 4.1–4.3).

Pure Python, no Django. Points are exact :class:`~fractions.Fraction` values: ties share points
in thirds and sixths, and a float would turn a real "clear by a sixth" into a tie (rules-notes,
"Tour points (2019)").

**What "20 (outright)" means.** The 2019 tables give first place 18 in a Classical event and 12
in a Rapid & Blitz event; an *outright* winner (alone on the top score, so no playoff was needed)
gets the GCT bonus on top: 2 → 20 Classical, 1 → 13 Rapid & Blitz. When first place is tied the
playoff only decides the title: the tied players pool the *base* points of the places they
occupy (18, not 20) and share them equally, and nobody gets the bonus (2.6, 3.9: "No GCT Bonus
Points will be assigned if a playoff is required"). So a three-way tie for first in a Classical
event gives (18 + 15 + 12) / 3 = 15 each, and a two-way tie (18 + 15) / 2 = 16 1/2 (design.md's
``"33/2"``). Ties below first share equally too (2.7, 3.10). Places beyond the table score 0.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from fractions import Fraction
from itertools import groupby

from prizes.split import FinalRanking, PrizeInputError

# --------------------------------------------------------------------------------------------
# Event tour points


@dataclass(frozen=True, slots=True)
class TourPointsTable:
    """Base points per place (place 1 first) and the bonus for an outright winner."""

    code: str
    name: str
    place_points: tuple[int, ...]
    outright_bonus: int

    def base(self, place: int) -> int:
        return self.place_points[place - 1] if place <= len(self.place_points) else 0


TOUR_POINTS_TABLES: dict[str, TourPointsTable] = {
    table.code: table
    for table in (
        # Seed 000 / rules-notes "Tour points (2019)": 18 (20 outright), 15, 12, … 1.
        TourPointsTable(
            "gct-2019-classical",
            "GCT 2019 Classical",
            (18, 15, 12, 10, 8, 7, 6, 5, 4, 3, 2, 1),
            outright_bonus=2,
        ),
        # 12 (13 outright), 10, 8, … 1.
        TourPointsTable(
            "gct-2019-rapid-blitz",
            "GCT 2019 Rapid & Blitz",
            (12, 10, 8, 7, 6, 5, 4, 3, 2, 1),
            outright_bonus=1,
        ),
    )
}


def tour_points_table(code: str) -> TourPointsTable:
    try:
        return TOUR_POINTS_TABLES[code]
    except KeyError:
        known = ", ".join(sorted(TOUR_POINTS_TABLES))
        raise PrizeInputError(
            f"unknown tour points table {code!r}; choose one of {known}"
        ) from None


def tour_points(ranking: FinalRanking, table_code: str) -> dict[int, Fraction]:
    """Start number → exact tour points of one event.

    Every tie group pools the base points of its places and shares them equally (2.6, 2.7, 3.9,
    3.10); the bonus goes only to a winner who was alone on the top score. The playoff result
    is deliberately ignored.
    """
    table = tour_points_table(table_code)
    points: dict[int, Fraction] = {}
    for group in ranking.groups:
        pooled = sum((table.base(place) for place in group.places), 0)
        share = Fraction(pooled, group.size)
        if group.first_place == 1 and group.size == 1:
            share += table.outright_bonus
        for player in group.players:
            points[player.start_no] = share
    return points


def format_mixed(value: Fraction) -> str:
    """Exact points as a mixed number: ``Fraction(221, 6)`` → ``"36 5/6"``, ``33/2`` →
    ``"16 1/2"``, ``5/6`` → ``"5/6"``, ``15`` → ``"15"``."""
    sign = "-" if value < 0 else ""
    whole, rest = divmod(abs(value), 1)
    if rest == 0:
        return f"{sign}{whole}"
    if whole == 0:
        return f"{sign}{rest}"
    return f"{sign}{whole} {rest}"


# --------------------------------------------------------------------------------------------
# Tour standings (4.1–4.3)

DECIDED_PLACES = 4  # 4.1: ties are broken only for the first four places.


@dataclass(frozen=True, slots=True)
class TourEventResult:
    """One player's result in one tour event. ``player`` is a stable identity across events
    (a FIDE id, say); start numbers differ from event to event."""

    player: str
    name: str
    tour_points: Fraction
    prize_money: Decimal


@dataclass(frozen=True, slots=True)
class TourEvent:
    code: str
    classical: bool
    results: tuple[TourEventResult, ...]


@dataclass(frozen=True, slots=True)
class TourTotals:
    player: str
    name: str
    tour_points: Fraction
    classical_tour_points: Fraction
    prize_money: Decimal
    classical_prize_money: Decimal
    events: int


@dataclass(frozen=True, slots=True)
class TourStandingRow:
    """``decided_by`` names the 4.3 criterion that separated the player from those tied with
    them on tour points (``None``: not tied, or left tied). A row with ``shared`` and a rank of
    4 or better is a tie that 4.3 could not break: 4.4 hands it to the GCT Advisory Board."""

    rank: int
    shared: bool
    totals: TourTotals
    decided_by: str | None


@dataclass(frozen=True, slots=True)
class TourTiebreak:
    code: str
    key: Callable[[TourTotals], Fraction | Decimal]


# 4.3.A classical tour points, 4.3.B all prize money, 4.3.C classical prize money.
TOUR_TIEBREAKS: tuple[TourTiebreak, ...] = (
    TourTiebreak("4.3.A", lambda totals: totals.classical_tour_points),
    TourTiebreak("4.3.B", lambda totals: totals.prize_money),
    TourTiebreak("4.3.C", lambda totals: totals.classical_prize_money),
)


def tour_totals(events: Iterable[TourEvent]) -> list[TourTotals]:
    """Each player's sums over the season, in order of first appearance."""
    totals: dict[str, TourTotals] = {}
    for event in events:
        seen: set[str] = set()
        for result in event.results:
            if result.player in seen:
                raise PrizeInputError(f"{event.code}: player {result.player} appears twice")
            seen.add(result.player)
            before = totals.get(result.player) or TourTotals(
                result.player, result.name, Fraction(0), Fraction(0), Decimal(0), Decimal(0), 0
            )
            totals[result.player] = _add_result(before, result, event.classical)
    return list(totals.values())


def _add_result(totals: TourTotals, result: TourEventResult, classical: bool) -> TourTotals:
    if not isinstance(result.prize_money, Decimal) or not isinstance(result.tour_points, Fraction):
        # Exactness is the point of the whole module (rules-notes): refuse floats at the door.
        raise PrizeInputError(f"player {result.player}: points must be exact, money a Decimal")
    classical_points = result.tour_points if classical else Fraction(0)
    classical_money = result.prize_money if classical else Decimal(0)
    return replace(
        totals,
        tour_points=totals.tour_points + result.tour_points,
        classical_tour_points=totals.classical_tour_points + classical_points,
        prize_money=totals.prize_money + result.prize_money,
        classical_prize_money=totals.classical_prize_money + classical_money,
        events=totals.events + 1,
    )


def tour_standings(
    events: Iterable[TourEvent], *, decided_places: int = DECIDED_PLACES
) -> tuple[TourStandingRow, ...]:
    """The overall tour standings (seed 000, 4.1–4.3).

    Players are ordered by total tour points. A tie that touches places 1–``decided_places`` is
    broken by 4.3.A, then 4.3.B, then 4.3.C, each applied only to players still tied (4.3
    "remaining tie"). Ties for fifth and below are not broken (4.2).

    A tie that straddles 4/5 (say four players level for places 3–6) is broken only as far as
    needed to settle places 1–4: whoever the criteria place 5th or lower stays tied with every
    other member of the original tie placed there, at the first such place. They all have the
    same tour points, so 4.2's "the tie shall not be broken" applies to them. Within a group the
    rows keep their order of first appearance (no ordering by name or id is implied).
    """
    totals = sorted(tour_totals(events), key=lambda entry: -entry.tour_points)
    rows: list[TourStandingRow] = []
    place = 1
    for group in _split_by(totals, lambda entry: entry.tour_points):
        rows.extend(_settle(group, place, decided_places))
        place += len(group)
    return tuple(rows)


def _split_by(
    entries: Sequence[TourTotals], key: Callable[[TourTotals], Fraction | Decimal]
) -> list[list[TourTotals]]:
    """Entries grouped by equal ``key``, best (largest) first; stable inside a group."""
    groups: list[list[TourTotals]] = []
    for entry in sorted(entries, key=lambda item: -key(item)):
        if groups and key(groups[-1][0]) == key(entry):
            groups[-1].append(entry)
        else:
            groups.append([entry])
    return groups


def _settle(group: list[TourTotals], place: int, decided_places: int) -> list[TourStandingRow]:
    """Rank a group level on tour points, starting at ``place``.

    4.3 applies its criteria one after the other to the "remaining tie", which is the same as
    ordering by the tuple (4.3.A, 4.3.B, 4.3.C). Levels are placed while they start at or
    above ``decided_places``; everybody after that stays tied (4.2).
    """
    if len(group) == 1:
        return [TourStandingRow(place, False, group[0], None)]
    ordered = sorted(group, key=_tiebreak_key)
    rows: list[TourStandingRow] = []
    index = 0
    for _, members in groupby(ordered, key=_tiebreak_key):
        level = list(members)
        if place > decided_places:
            break
        if len(level) > 1:
            # 4.3 exhausted for places 1–4: 4.4 hands the tie to the Advisory Board.
            rows.extend(TourStandingRow(place, True, entry, None) for entry in level)
        else:
            rows.append(TourStandingRow(place, False, level[0], _separated_by(ordered, index)))
        place += len(level)
        index += len(level)
    return rows + _left_tied(group, ordered, index, place)


def _left_tied(
    group: list[TourTotals], ordered: list[TourTotals], index: int, place: int
) -> list[TourStandingRow]:
    """The players after the decided places (4.2): one alone is placed; more stay tied, listed
    in order of first appearance, so that the listing does not suggest an order the
    regulation refuses to make."""
    if index == len(ordered) - 1:
        return [TourStandingRow(place, False, ordered[index], _separated_by(ordered, index))]
    leftovers = {id(entry) for entry in ordered[index:]}
    return [TourStandingRow(place, True, entry, None) for entry in group if id(entry) in leftovers]


def _tiebreak_key(entry: TourTotals) -> tuple[Fraction | Decimal, ...]:
    return tuple(-tiebreak.key(entry) for tiebreak in TOUR_TIEBREAKS)


def _separated_by(ordered: Sequence[TourTotals], index: int) -> str | None:
    """The first 4.3 criterion telling ``ordered[index]`` from the next player (the previous
    one for the last)."""
    other = ordered[index + 1] if index + 1 < len(ordered) else ordered[index - 1]
    for tiebreak in TOUR_TIEBREAKS:
        if tiebreak.key(ordered[index]) != tiebreak.key(other):
            return tiebreak.code
    return None
