"""Prize splitting: the final ranking's tie groups and a prize fund → a prize sheet.

Pure Python, no Django (design brief §3, house style 1). The engine works in three steps:

1. A **split rule** (registry :data:`SPLIT_RULES`, chosen by the regulation set) turns every tie
   group into exact :class:`~fractions.Fraction` shares of the place prizes the group occupies.
2. A **rounding policy** (registry :data:`ROUNDING_POLICIES`) turns all shares into
   :class:`~decimal.Decimal` amounts at once, at the very end (design brief §3 "Exact
   arithmetic"; seed 000, 3.8.4 "As a rule, integer amounts will be paid out").
3. The result is a :class:`PrizeSheet` whose rows map one to one onto the ``prizes`` JSON rows of
   design.md §4 (:func:`prize_sheet_json`).

Prizes for places beyond the fund are 0; a tie that straddles the end of the fund pools only the
prizes that exist, across all the tied players (so each of them gets a smaller share, never an
invented prize).

Money never passes through ``float``: amounts are ``Decimal`` on the way in and out and
``Fraction`` in between.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from fractions import Fraction
from itertools import groupby
from math import floor

from events.registries import Registry

# --------------------------------------------------------------------------------------------
# Errors a director can fix (bad configuration, missing playoff result) are PrizeInputError;
# anything else escaping this module is a bug.


class PrizeInputError(ValueError):
    """Input the director can correct: the message says what and where."""


class PlayoffWinnerRequired(PrizeInputError):
    """The split rule needs the playoff winner (GCT 3.8) and the playoff is not decided yet."""


# --------------------------------------------------------------------------------------------
# Input


@dataclass(frozen=True, slots=True)
class PlacedPlayer:
    """One player of the final ranking.

    ``rank`` is the best place of the player's tie group (tied players share it) and ``shared``
    says whether the group has more than one player. ``tiebreak_order`` is the 1-based position
    inside the tie group by the event's tie-breaks; only the Hort split (and category prizes)
    look at it. ``sex``, ``rating`` and ``birth_date`` feed category prizes
    (:mod:`prizes.categories`).
    """

    start_no: int
    name: str
    rank: int
    shared: bool = False
    tiebreak_order: int | None = None
    sex: str = ""
    rating: int | None = None
    birth_date: date | None = None
    federation: str = ""
    birth_year: int | None = None  # known when only the year is (a rating list's)

    @property
    def rated(self) -> bool:
        """For the category condition "unrated players" (``rated eq false``)."""
        return self.rating is not None


@dataclass(frozen=True, slots=True)
class TieGroup:
    """Players who finished level, occupying places ``first_place`` … ``last_place``."""

    players: tuple[PlacedPlayer, ...]

    @property
    def first_place(self) -> int:
        return self.players[0].rank

    @property
    def last_place(self) -> int:
        return self.first_place + len(self.players) - 1

    @property
    def places(self) -> range:
        return range(self.first_place, self.last_place + 1)

    @property
    def size(self) -> int:
        return len(self.players)


@dataclass(frozen=True, slots=True)
class FinalRanking:
    """The final ranking in rank order, with the outcome of a playoff for first, if any.

    ``playoff_order`` is the playoff engine's final order of the players tied for first (winner
    first); ``playoff_winner`` may be given alone. Either only decides the title and, under GCT
    3.8, part of the money; the tied players keep rank 1 and ``shared=True`` because they are not
    ranked among themselves (rules-notes, "Prize split").
    """

    players: tuple[PlacedPlayer, ...]
    playoff_winner: int | None = None
    playoff_order: tuple[int, ...] = ()
    groups: tuple[TieGroup, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        groups = _validated_groups(self.players)
        object.__setattr__(self, "groups", groups)
        winner = _validated_playoff(groups, self.playoff_winner, self.playoff_order)
        object.__setattr__(self, "playoff_winner", winner)

    @property
    def tied_for_first(self) -> bool:
        return bool(self.groups) and self.groups[0].size > 1


def _validated_groups(players: tuple[PlacedPlayer, ...]) -> tuple[TieGroup, ...]:
    seen: set[int] = set()
    groups: list[TieGroup] = []
    expected_rank = 1
    for rank, members in groupby(players, key=lambda player: player.rank):
        group = TieGroup(tuple(members))
        if rank != expected_rank:
            raise PrizeInputError(
                f"rank {rank} follows {expected_rank - 1} place(s): expected rank {expected_rank}"
            )
        for player in group.players:
            if player.start_no in seen:
                raise PrizeInputError(f"start number {player.start_no} appears twice")
            seen.add(player.start_no)
            if player.shared != (group.size > 1):
                raise PrizeInputError(
                    f"start number {player.start_no}: shared={player.shared} but "
                    f"{group.size} player(s) have rank {rank}"
                )
        _check_tiebreak_order(group)
        groups.append(group)
        expected_rank += group.size
    return tuple(groups)


def _check_tiebreak_order(group: TieGroup) -> None:
    """Positions 1…n inside the tie, in competition style: players the tie-breaks (or the
    playoff) still leave level share a position and the next one skips (1, 1, 3)."""
    orders = [player.tiebreak_order for player in group.players]
    if all(order is None for order in orders):
        return
    ordered = sorted(order or 0 for order in orders)
    valid = ordered[0] == 1 and all(
        ordered[i] in (ordered[i - 1], i + 1) for i in range(1, len(ordered))
    )
    if not valid:
        raise PrizeInputError(
            f"tie-break order of the tie at {_places_text(group)} must number the players "
            f"1 to {group.size}, got {orders}"
        )


def _playoff_order_check(tied: set[int], winner: int | None, order: tuple[int, ...]) -> None:
    """A playoff order names each player tied for first once, its winner first."""
    if set(order) != tied or len(order) != len(set(order)):
        raise PrizeInputError(f"playoff order {list(order)} is not the players tied for first")
    if winner is not None and order[0] != winner:
        raise PrizeInputError(f"playoff winner {winner} is not first in the playoff order")


def _validated_playoff(
    groups: tuple[TieGroup, ...], winner: int | None, order: tuple[int, ...]
) -> int | None:
    if winner is None and not order:
        return None
    if not groups or groups[0].size < 2:
        raise PrizeInputError("a playoff result was given but nobody is tied for first")
    tied = {player.start_no for player in groups[0].players}
    if order:
        _playoff_order_check(tied, winner, order)
    winner = winner if winner is not None else order[0]
    if winner not in tied:
        raise PrizeInputError(f"playoff winner {winner} is not tied for first")
    return winner


@dataclass(frozen=True, slots=True)
class PlacePrize:
    place: int
    amount: Decimal


@dataclass(frozen=True, slots=True)
class PrizeFund:
    """Place prizes (place → amount) in one currency. Missing places pay 0."""

    prizes: tuple[PlacePrize, ...]
    currency: str = "USD"

    def __post_init__(self) -> None:
        places = [prize.place for prize in self.prizes]
        if len(places) != len(set(places)):
            raise PrizeInputError("a place has two prizes")
        for prize in self.prizes:
            # A float would already have lost exactness before reaching us (design §3).
            if not isinstance(prize.amount, Decimal) or not prize.amount.is_finite():
                raise PrizeInputError(f"prize for place {prize.place}: amount must be a Decimal")
            if prize.place < 1 or prize.amount < 0:
                raise PrizeInputError(f"prize for place {prize.place}: {prize.amount} is invalid")

    @classmethod
    def from_amounts(
        cls, amounts: Sequence[Decimal | int | str], currency: str = "USD"
    ) -> PrizeFund:
        """Prizes for places 1, 2, … in order (``int`` and ``str`` are converted exactly)."""
        if any(isinstance(amount, float) for amount in amounts):
            raise PrizeInputError("prize amounts must be Decimal, int or str, never float")
        return cls(
            tuple(PlacePrize(place, Decimal(amount)) for place, amount in enumerate(amounts, 1)),
            currency,
        )

    def amount_decimal(self, place: int) -> Decimal:
        for prize in self.prizes:
            if prize.place == place:
                return prize.amount
        return Decimal(0)

    def amount(self, place: int) -> Fraction:
        return Fraction(self.amount_decimal(place))

    @property
    def total(self) -> Decimal:
        return sum((prize.amount for prize in self.prizes), Decimal(0))


# --------------------------------------------------------------------------------------------
# Money text


def plain_decimal(amount: Decimal) -> Decimal:
    """``Decimal("90000.00")`` → ``Decimal("90000")``, ``Decimal("12.50")`` → ``Decimal("12.5")``:
    trailing zeros dropped without the exponent notation ``normalize`` gives (``1E+1``)."""
    if amount == amount.to_integral_value():
        return amount.quantize(Decimal(1))
    return amount.normalize()


def format_money(amount: Decimal) -> str:
    """``Decimal("49167")`` → ``"49,167"`` (thousands separators, the unit's decimals kept)."""
    return f"{amount:,}"


def _display(value: Fraction, unit: Decimal) -> str:
    """An exact component rounded half up to the unit, for reading only.

    The addendum prints its components rounded (21,667); the amount paid is always computed from
    the exact share, never from these rounded parts.
    """
    return format_money(_units_to_decimal(_half_up(value / Fraction(unit)), unit))


def _half_up(units: Fraction) -> int:
    return floor(units + Fraction(1, 2))


def _units_to_decimal(count: int, unit: Decimal) -> Decimal:
    """``count`` whole units as a Decimal written with the unit's decimals (0.01 → "12.50")."""
    exponent = unit.as_tuple().exponent
    assert isinstance(exponent, int), "the unit was checked to be finite"
    return (Decimal(count) * unit).quantize(Decimal(1).scaleb(min(exponent, 0)))


def _places_text(group: TieGroup) -> str:
    if group.size == 1:
        return f"place {group.first_place}"
    return f"places {group.first_place}–{group.last_place}"


# A breakdown says at most this many terms of a sum; a longer one is said by its count and
# total (issue 29: with every term written out, a 5,000-way tie wrote 5,000 terms on each of
# its 5,000 rows, and its sheet grew with the square of the tie).
MAX_TERMS = 8


def pool_text(terms: Sequence[str], total: str) -> str:
    """The prizes a tie pools, in words that do not grow with the tie: three or more equal
    prizes in a row as ``4,997 × 0``; more than :data:`MAX_TERMS` terms as ``5,000 prizes,
    600 in all``. Short sums read as before: ``60,000 + 40,000``."""
    said: list[str] = []
    for term, run in groupby(terms):
        count = sum(1 for _ in run)
        said += [f"{count:,} × {term}"] if count >= 3 else [term] * count
    if len(said) <= MAX_TERMS:
        return " + ".join(said)
    return f"{len(terms):,} prizes, {total} in all"


def _sum_text(values: Sequence[Fraction], unit: Decimal) -> str:
    terms = [_display(value, unit) for value in values]
    return pool_text(terms, _display(sum(values, Fraction(0)), unit))


# --------------------------------------------------------------------------------------------
# Split rules


@dataclass(frozen=True, slots=True)
class ExactShare:
    """One player's exact share; ``explanation`` is the breakdown before ``= amount``."""

    start_no: int
    amount: Fraction
    explanation: str


@dataclass(frozen=True, slots=True)
class SplitContext:
    group: TieGroup
    fund: PrizeFund
    unit: Decimal
    playoff_winner: int | None

    def prizes(self) -> list[Fraction]:
        return [self.fund.amount(place) for place in self.group.places]


@dataclass(frozen=True, slots=True)
class SplitRule:
    code: str
    name: str
    split: Callable[[SplitContext], tuple[ExactShare, ...]]
    description: str = ""


SPLIT_RULES: Registry[SplitRule] = Registry("prize split rule", PrizeInputError)


def _register_split(rule: SplitRule) -> SplitRule:
    return SPLIT_RULES.register(rule.code, rule)


def split_rule(code: str) -> SplitRule:
    """The registered rule for ``code``; :class:`PrizeInputError` names the known codes."""
    return SPLIT_RULES.find(code)


def _single_share(context: SplitContext) -> tuple[ExactShare, ...]:
    """An untied player takes the prize of their place (0 beyond the fund)."""
    (player,) = context.group.players
    prize = context.fund.amount(player.rank)
    label = f"prize for place {player.rank}" if prize else f"no prize for place {player.rank}"
    return (ExactShare(player.start_no, prize, label),)


def equal_split(context: SplitContext) -> tuple[ExactShare, ...]:
    """Equal split: the prizes of the places the tie occupies, pooled and shared equally.

    Seed 000, 2.6 (a Rapid & Blitz tie for first: the playoff decides the title only), 2.7 and
    3.10 (every tie below first). Places beyond the fund contribute 0 to the pool.
    """
    group = context.group
    if group.size == 1:
        return _single_share(context)
    prizes = context.prizes()
    share = sum(prizes, Fraction(0)) / group.size
    text = (
        f"equal split of {_places_text(group)} ({_sum_text(prizes, context.unit)}) / {group.size}"
    )
    return tuple(ExactShare(player.start_no, share, text) for player in group.players)


def gct_2019_classical_split(context: SplitContext) -> tuple[ExactShare, ...]:
    """GCT 2019 Classical (seed 000, 3.8): the Hort variant for a tie for first.

    3.8.1: half of the pooled prizes of all tied places is shared equally by everyone tied;
    3.8.2: the playoff winner adds half of the first prize; 3.8.3: the others share equally half
    of the remaining tied places' prizes. The tied players are not ranked among themselves
    (rules-notes), so no tie-break order is used. Ties below first: equal split (3.10). The
    addendum (tie for 1st–4th, 90k/60k/40k/30k) gives 72,500 and 3 × 49,166 2/3.
    """
    group = context.group
    if group.size == 1 or group.first_place != 1:
        return equal_split(context)
    if context.playoff_winner is None:
        raise PlayoffWinnerRequired(
            f"the tie for {_places_text(group)} splits its prize money by the playoff (GCT 3.8): "
            "enter the playoff winner first"
        )
    prizes = context.prizes()
    pool = sum(prizes, Fraction(0))
    shared = pool / 2 / group.size
    winner_part = prizes[0] / 2
    others_part = (pool - prizes[0]) / 2 / (group.size - 1)
    prefix = f"tie for {_places_text(group)} (GCT 3.8)"
    shares = []
    for player in group.players:
        is_winner = player.start_no == context.playoff_winner
        divisible = winner_part if is_winner else others_part
        role = "playoff winner" if is_winner else "playoff loser"
        text = (
            f"{prefix}, {role}: shared {_display(shared, context.unit)} + "
            f"divisible {_display(divisible, context.unit)}"
        )
        shares.append(ExactShare(player.start_no, shared + divisible, text))
    return tuple(shares)


def hort_split(context: SplitContext) -> tuple[ExactShare, ...]:
    """The classic Hort system of open tournaments, for every tie.

    Source: the German Wikipedia article "Hort-System" (de.wikipedia.org/wiki/Hort-System),
    named after GM Vlastimil Hort: each tied player keeps 50 % of the prize for the place their
    tie-breaks give them; the other 50 % of the tied places' prizes goes into a pot shared
    equally by the tied players. An untied player keeps the whole prize. The article's example
    (prizes 100/80/60/40/20/10; two tied on 8, three on 7) pays 95, 85, 60, then 31 2/3, 21 2/3,
    16 2/3 exactly. Unlike GCT 3.8, here the tied players *are* ordered by their tie-breaks
    (``PlacedPlayer.tiebreak_order``), which is therefore required for every tie; a playoff's
    order takes their place for a tie for first.

    Decision where the article is silent: players whom neither the tie-breaks nor a playoff
    separate (an event whose regulation has no tie-breaks, as GCT 2019's) share a position; each
    keeps half of the average prize of the places they occupy together. With nobody
    separated this is the equal split; with everybody separated it is the article's rule.
    """
    group = context.group
    if group.size == 1:
        return _single_share(context)
    if any(player.tiebreak_order is None for player in group.players):
        raise PrizeInputError(
            f"the Hort split needs the tie-break order of the tie at {_places_text(group)}"
        )
    prizes = context.prizes()
    pot_share = sum(prizes, Fraction(0)) / 2 / group.size
    level = Counter(player.tiebreak_order for player in group.players)
    # Once per position, not per player: players still level share one (issue 29).
    said = {
        position: _hort_position(context, prizes, position, sharing, pot_share)
        for position, sharing in level.items()
    }
    return tuple(
        ExactShare(player.start_no, *said[player.tiebreak_order]) for player in group.players
    )


def _hort_position(
    context: SplitContext,
    prizes: Sequence[Fraction],
    position: int | None,
    sharing: int,
    pot_share: Fraction,
) -> tuple[Fraction, str]:
    """What a player at ``position`` of the tie takes under the Hort split, and why."""
    position = position or 0
    kept = sum(prizes[position - 1 : position - 1 + sharing], Fraction(0)) / sharing / 2
    place = context.group.first_place + position - 1
    if sharing == 1:
        where = f"place {place} by tie-break: half of place {place}"
    else:
        last = place + sharing - 1
        where = f"places {place}–{last} still level: half of their prizes shared by {sharing}"
    text = (
        f"Hort split of {_places_text(context.group)}, {where} {_display(kept, context.unit)} + "
        f"pot share {_display(pot_share, context.unit)}"
    )
    return kept + pot_share, text


_register_split(
    SplitRule(
        "equal",
        "Equal split",
        equal_split,
        "Tied players pool the prizes of their places and share equally (GCT 2.6, 2.7, 3.10).",
    )
)
_register_split(
    SplitRule(
        "gct-2019-classical",
        "GCT 2019 Classical (Hort variant for first)",
        gct_2019_classical_split,
        "Tie for first: half shared, playoff winner adds half of 1st prize (GCT 3.8).",
    )
)
_register_split(
    SplitRule(
        "hort",
        "Hort system",
        hort_split,
        "Each tied player keeps half the prize of their tie-break place; halves pooled equally.",
    )
)


# --------------------------------------------------------------------------------------------
# Rounding policies


@dataclass(frozen=True, slots=True)
class RoundingItem:
    """A share to round; ``rank`` and ``start_no`` order remainder ties (largest remainder)."""

    amount: Fraction
    rank: int
    start_no: int


@dataclass(frozen=True, slots=True)
class RoundingPolicy:
    code: str
    name: str
    apply: Callable[[Sequence[RoundingItem], Fraction], list[int]]
    description: str = ""


ROUNDING_POLICIES: Registry[RoundingPolicy] = Registry("rounding policy", PrizeInputError)


def _register_rounding(policy: RoundingPolicy) -> RoundingPolicy:
    return ROUNDING_POLICIES.register(policy.code, policy)


def rounding_policy(code: str) -> RoundingPolicy:
    return ROUNDING_POLICIES.find(code)


def _per_share_half_up(items: Sequence[RoundingItem], unit: Fraction) -> list[int]:
    """Each share to the nearest unit on its own, halves up (seed 000, 3.8.4 and the addendum:
    3 × 49,166 2/3 → 49,167, so 220,001 is paid from 220,000). Error ≤ ½ unit per payee."""
    return [_half_up(item.amount / unit) for item in items]


def _floor(items: Sequence[RoundingItem], unit: Fraction) -> list[int]:
    """Each share down to a whole unit; the organiser keeps the remainder (< 1 unit/payee)."""
    return [floor(item.amount / unit) for item in items]


def _largest_remainder(items: Sequence[RoundingItem], unit: Fraction) -> list[int]:
    """Hamilton's method: floor every share, then give the units still missing from the exact
    total one each to the largest fractional parts. Equal remainders go by rank, then start
    number (a product decision: reproducible and visible, though players of one equal split can
    then differ by one unit). The total paid equals the exact total whenever that total is a
    whole number of units, which :func:`allocate_prizes` guarantees."""
    units = [item.amount / unit for item in items]
    floors = [floor(value) for value in units]
    missing = floor(sum(units, Fraction(0))) - sum(floors)
    by_remainder = sorted(
        range(len(items)),
        key=lambda i: (-(units[i] - floors[i]), items[i].rank, items[i].start_no),
    )
    for index in by_remainder[:missing]:
        floors[index] += 1
    return floors


_register_rounding(
    RoundingPolicy(
        "per-share-half-up",
        "Each share rounded half up",
        _per_share_half_up,
        "GCT 3.8.4 as in the addendum; the total may differ from the fund by ½ unit per payee.",
    )
)
_register_rounding(
    RoundingPolicy(
        "largest-remainder",
        "Largest remainder",
        _largest_remainder,
        "Total paid equals the fund exactly; extra units to the largest fractions.",
    )
)
_register_rounding(
    RoundingPolicy(
        "floor",
        "Rounded down, remainder to the organiser",
        _floor,
        "Each share rounded down; the organiser keeps what is left (reported).",
    )
)


# --------------------------------------------------------------------------------------------
# Regulation presets → prize settings (design.md §3: regulation sets are data)


@dataclass(frozen=True, slots=True)
class PrizeRegulation:
    """The prize part of a regulation preset: registry codes, overridable per event."""

    split_rule: str = "equal"
    rounding: str = "per-share-half-up"
    tour_points_table: str | None = None


PRIZE_REGULATIONS: dict[str, PrizeRegulation] = {
    # 3.8 for a tie for first, 3.10 below; 3.9 tour points.
    "gct-2019-classical": PrizeRegulation(
        "gct-2019-classical", tour_points_table="gct-2019-classical"
    ),
    # 2.6: the playoff decides the title only; 2.7 below first.
    "gct-2019-rapid-blitz": PrizeRegulation("equal", tour_points_table="gct-2019-rapid-blitz"),
}


def prize_regulation(preset: str) -> PrizeRegulation:
    """The preset's prize settings; presets without their own (FIDE, MSO, …) split equally."""
    return PRIZE_REGULATIONS.get(preset, PrizeRegulation())


# --------------------------------------------------------------------------------------------
# Output


@dataclass(frozen=True, slots=True)
class PrizeRow:
    """One row of the prize sheet, as design.md §4's ``prizes`` JSON row."""

    rank: int
    shared: bool
    start_no: int
    name: str
    amount: Decimal
    tour_points: Fraction | None
    breakdown: str
    exact_amount: Fraction
    playoff_winner: bool = False


@dataclass(frozen=True, slots=True)
class PrizeSheet:
    """The prize sheet. ``fund`` is every place prize; ``awarded`` the prizes of places somebody
    occupies (``unawarded`` = the rest); ``difference`` = ``total_paid - fund``; and
    ``organiser_remainder`` what rounding left unpaid (the floor policy's remainder)."""

    currency: str
    split_rule: str
    rounding: str
    unit: Decimal
    fund: Decimal
    awarded: Decimal
    total_paid: Decimal
    rows: tuple[PrizeRow, ...]

    @property
    def difference(self) -> Decimal:
        return self.total_paid - self.fund

    @property
    def unawarded(self) -> Decimal:
        return self.fund - self.awarded

    @property
    def rounding_difference(self) -> Decimal:
        return self.total_paid - self.awarded

    @property
    def organiser_remainder(self) -> Decimal:
        return max(self.awarded - self.total_paid, Decimal(0))


def allocate_prizes(
    ranking: FinalRanking,
    fund: PrizeFund,
    *,
    split_rule_code: str = "equal",
    rounding_code: str = "per-share-half-up",
    unit: Decimal = Decimal(1),
    tour_points: Mapping[int, Fraction] | None = None,
) -> PrizeSheet:
    """Split ``fund`` over ``ranking`` and round once, at the end.

    ``tour_points`` (start number → exact points, see :func:`prizes.tour.tour_points`) is copied
    onto the rows; without it the rows carry ``None``.
    """
    rule = split_rule(split_rule_code)
    policy = rounding_policy(rounding_code)
    _check_unit(fund, unit)
    shares = [
        share
        for group in ranking.groups
        for share in rule.split(SplitContext(group, fund, unit, ranking.playoff_winner))
    ]
    players = {player.start_no: player for player in ranking.players}
    items = [
        RoundingItem(share.amount, players[share.start_no].rank, share.start_no) for share in shares
    ]
    paid = round_shares(items, policy.code, unit)
    rows = sorted(
        (
            _row(players[share.start_no], share, amount, policy.code, ranking, tour_points)
            for share, amount in zip(shares, paid, strict=True)
        ),
        key=lambda row: (row.rank, _playoff_position(ranking, row.start_no)),
    )
    occupied = range(1, len(ranking.players) + 1)
    return PrizeSheet(
        currency=fund.currency,
        split_rule=rule.code,
        rounding=policy.code,
        unit=unit,
        fund=fund.total,
        awarded=sum((fund.amount_decimal(place) for place in occupied), Decimal(0)),
        total_paid=sum(paid, Decimal(0)),
        rows=tuple(rows),
    )


def _playoff_position(ranking: FinalRanking, start_no: int) -> int:
    """Rows of the tie for first follow the playoff order when there is one; everyone else
    keeps the ranking's order (the sort is stable)."""
    if start_no in ranking.playoff_order:
        return ranking.playoff_order.index(start_no)
    return 0 if start_no == ranking.playoff_winner else 1


def round_shares(items: Sequence[RoundingItem], rounding_code: str, unit: Decimal) -> list[Decimal]:
    """Round exact shares under a named policy into whole multiples of ``unit``."""
    _check_unit_value(unit)
    exact_unit = Fraction(unit)
    counts = rounding_policy(rounding_code).apply(items, exact_unit)
    return [_units_to_decimal(count, unit) for count in counts]


def _check_unit(fund: PrizeFund, unit: Decimal) -> None:
    """Every prize must be a whole number of units, so that the exact total of the shares is
    too and the largest-remainder policy can pay it exactly."""
    _check_unit_value(unit)
    for prize in fund.prizes:
        if (Fraction(prize.amount) / Fraction(unit)).denominator != 1:
            raise PrizeInputError(
                f"prize for place {prize.place} ({prize.amount}) is not a whole number of the "
                f"rounding unit {unit}"
            )


def _check_unit_value(unit: Decimal) -> None:
    if not isinstance(unit, Decimal) or not unit.is_finite() or unit <= 0:
        raise PrizeInputError(f"rounding unit must be a positive Decimal, got {unit!r}")


def _breakdown(share: ExactShare, amount: Decimal, rounding_code: str) -> str:
    """The explanation, the amount paid and, when rounding changed it, the exact share."""
    text = f"{share.explanation} = {format_money(amount)}"
    if Fraction(amount) == share.amount:
        return text
    return f"{text} (exact {format_exact_money(share.amount)}, {rounding_code})"


def format_exact_money(value: Fraction) -> str:
    """An exact amount as a mixed number with thousands separators: ``"49,166 2/3"``."""
    if _terminates(value.denominator):
        # 21/2 of a currency with cents reads better as 10.5 than 10 1/2.
        return format_money(Decimal(value.numerator) / Decimal(value.denominator))
    sign = "-" if value < 0 else ""
    whole, rest = divmod(abs(value), 1)
    if whole == 0:
        return f"{sign}{rest}"
    return f"{sign}{whole:,} {rest}"


def _terminates(denominator: int) -> bool:
    """Whether 1/denominator has a finite decimal expansion (only factors 2 and 5)."""
    for factor in (2, 5):
        while denominator % factor == 0:
            denominator //= factor
    return denominator == 1


def _row(
    player: PlacedPlayer,
    share: ExactShare,
    amount: Decimal,
    rounding_code: str,
    ranking: FinalRanking,
    tour_points: Mapping[int, Fraction] | None,
) -> PrizeRow:
    return PrizeRow(
        rank=player.rank,
        shared=player.shared,
        start_no=player.start_no,
        name=player.name,
        amount=amount,
        tour_points=None if tour_points is None else tour_points.get(player.start_no, Fraction(0)),
        breakdown=_breakdown(share, amount, rounding_code),
        exact_amount=share.amount,
        playoff_winner=player.start_no == ranking.playoff_winner,
    )


def prize_sheet_json(sheet: PrizeSheet, event: str) -> dict[str, object]:
    """The ``prizes`` JSON of design.md §4 (fractions as strings ``Fraction`` parses)."""
    return {
        "event": event,
        "currency": sheet.currency,
        "fund": str(sheet.fund),
        "total_paid": str(sheet.total_paid),
        "difference": str(sheet.difference),
        "organiser_remainder": str(sheet.organiser_remainder),
        "split_rule": sheet.split_rule,
        "rounding": sheet.rounding,
        "rows": [
            {
                "rank": row.rank,
                "shared": row.shared,
                "start_no": row.start_no,
                "name": row.name,
                "amount": str(row.amount),
                "tour_points": None if row.tour_points is None else str(row.tour_points),
                "breakdown": row.breakdown,
            }
            for row in sheet.rows
        ],
    }
