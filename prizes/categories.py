"""Category prizes (best woman, best under 2000, best junior, …) on top of the main prize sheet.

Pure Python, no Django. Seed 000 has no category prizes; this is the product's rule for the
opens that do, kept as data: a category is a list of conditions on a player's attributes
(``field``, ``op``, ``value``) and an ordered list of prizes.

The rule, in the order it is applied:

1. The main prize sheet (:func:`prizes.split.allocate_prizes`) is computed first over the full
   ranking and is never recomputed: the regulation's split (e.g. GCT 2.7/3.10) speaks of the
   final ranking, not of "players without a category prize".
2. One prize per player, the higher one. Category prizes are handed out from the highest amount
   down; each goes to the best-ranked eligible player who holds no category prize yet and whose
   main amount is lower than the category share. Equal amounts: the main prize comes first (a
   player keeps a main amount equal to the category share), then categories in the order
   listed, then a category's prizes in their order.
3. "Best-ranked" is the final ranking order, tied players separated by ``tiebreak_order`` when
   the ranking supplies it. Eligible players who are still level share the category prizes they
   occupy equally (the equal split of seed 000, 2.7, applied inside the category); a category
   prize beyond the end of a category's list is 0.
4. A player who takes a category prize gives up their main amount. It is *released* and reported
   (:attr:`CategoryOutcome.released`), not passed down the ranking: re-splitting the main prizes
   would change amounts the regulation fixed. The director decides what to do with it.
5. A condition on a missing attribute (an unrated player and ``rating < 2000``) is false.

All category shares are rounded once, at the end, under the sheet's rounding policy.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from fractions import Fraction
from itertools import groupby
from typing import Any

from prizes.split import (
    FinalRanking,
    PlacedPlayer,
    PrizeInputError,
    PrizeSheet,
    RoundingItem,
    format_money,
    pool_text,
    round_shares,
)

FIELDS = ("sex", "rating", "rated", "birth_date", "birth_year", "federation")

# Any: the operands are whatever the field holds (str, int, date); Condition checks the field.
OPERATORS: dict[str, Callable[[Any, Any], bool]] = {
    "eq": operator.eq,
    "ne": operator.ne,
    "lt": operator.lt,
    "le": operator.le,
    "gt": operator.gt,
    "ge": operator.ge,
    "in": lambda attribute, value: attribute in value,
}


@dataclass(frozen=True, slots=True)
class Condition:
    """``Condition("rating", "lt", 2000)``; ``birth_date`` values may be ISO strings."""

    field: str
    op: str
    value: object

    def __post_init__(self) -> None:
        if self.field not in FIELDS:
            raise PrizeInputError(f"category condition on unknown field {self.field!r}")
        if self.op not in OPERATORS:
            raise PrizeInputError(f"category condition with unknown operator {self.op!r}")
        if self.field == "birth_date" and isinstance(self.value, str):
            try:
                object.__setattr__(self, "value", date.fromisoformat(self.value))
            except ValueError:
                raise PrizeInputError(f"category condition: bad date {self.value!r}") from None
        if self.op == "in":
            if not isinstance(self.value, list | tuple | set | frozenset):
                raise PrizeInputError(f"category condition {self.field} in: expected a list")
            object.__setattr__(self, "value", tuple(self.value))

    def holds(self, player: PlacedPlayer) -> bool:
        attribute = getattr(player, self.field)
        if attribute is None or attribute == "":
            return False
        return OPERATORS[self.op](attribute, self.value)


@dataclass(frozen=True, slots=True)
class Category:
    """A category: all ``conditions`` must hold; ``prizes`` are 1st, 2nd, … in the category."""

    code: str
    name: str
    conditions: tuple[Condition, ...]
    prizes: tuple[Decimal, ...]

    def __post_init__(self) -> None:
        for prize in self.prizes:
            if not isinstance(prize, Decimal) or not prize.is_finite() or prize < 0:
                raise PrizeInputError(f"category {self.code}: prize {prize!r} is not a Decimal")
        if list(self.prizes) != sorted(self.prizes, reverse=True):
            # Handing out from the highest amount down relies on this.
            raise PrizeInputError(f"category {self.code}: prizes must not increase")

    def admits(self, player: PlacedPlayer) -> bool:
        return all(condition.holds(player) for condition in self.conditions)

    def prize(self, position: int) -> Fraction:
        return Fraction(self.prizes[position - 1]) if position <= len(self.prizes) else Fraction(0)


@dataclass(frozen=True, slots=True)
class CategoryAward:
    start_no: int
    category: str
    positions: tuple[int, ...]
    exact_amount: Fraction
    amount: Decimal
    breakdown: str


@dataclass(frozen=True, slots=True)
class Payout:
    """What a player is finally paid, and from where (``"main"`` or a category code)."""

    rank: int
    shared: bool
    start_no: int
    name: str
    amount: Decimal
    source: str
    breakdown: str


@dataclass(frozen=True, slots=True)
class ReleasedPrize:
    start_no: int
    amount: Decimal
    reason: str


@dataclass(frozen=True, slots=True)
class UnawardedPrize:
    category: str
    position: int
    amount: Decimal


@dataclass(frozen=True, slots=True)
class CategoryOutcome:
    payouts: tuple[Payout, ...]
    awards: tuple[CategoryAward, ...]
    released: tuple[ReleasedPrize, ...]
    unawarded: tuple[UnawardedPrize, ...]

    @property
    def total_paid(self) -> Decimal:
        return sum((payout.amount for payout in self.payouts), Decimal(0))


@dataclass(frozen=True, slots=True)
class _Pending:
    """An exact award before rounding."""

    start_no: int
    category_index: int
    positions: tuple[int, ...]
    amount: Fraction


def allocate_categories(
    ranking: FinalRanking, sheet: PrizeSheet, categories: Sequence[Category]
) -> CategoryOutcome:
    """Hand out category prizes after the main sheet (rules in the module docstring)."""
    _check_categories(categories, sheet.unit)
    main = {row.start_no: row.amount for row in sheet.rows}
    pending: dict[int, _Pending] = {}
    unawarded: list[UnawardedPrize] = []
    for index, position in _prize_order(categories):
        if _already_pooled(pending, index, position):
            continue
        awarded = _award(ranking, categories[index], index, position, main, pending)
        if not awarded:
            amount = categories[index].prizes[position - 1]
            unawarded.append(UnawardedPrize(categories[index].code, position, amount))
    awards = _rounded_awards(ranking, categories, list(pending.values()), sheet)
    return _outcome(ranking, sheet, awards, tuple(unawarded))


def _check_categories(categories: Sequence[Category], unit: Decimal) -> None:
    codes = [category.code for category in categories]
    if len(codes) != len(set(codes)):
        raise PrizeInputError("two categories have the same code")
    for category in categories:
        for prize in category.prizes:
            if (Fraction(prize) / Fraction(unit)).denominator != 1:
                raise PrizeInputError(
                    f"category {category.code}: prize {prize} is not a whole number of the "
                    f"rounding unit {unit}"
                )


def _prize_order(categories: Sequence[Category]) -> list[tuple[int, int]]:
    """(category index, position) from the highest amount down; equal amounts by the order
    the categories are listed, then by position."""
    items = [
        (index, position)
        for index, category in enumerate(categories)
        for position in range(1, len(category.prizes) + 1)
    ]
    return sorted(items, key=lambda item: (-categories[item[0]].prizes[item[1] - 1], *item))


def _already_pooled(pending: dict[int, _Pending], index: int, position: int) -> bool:
    # The positions a tie pools run on without a gap: two comparisons, however large the tie.
    return any(
        award.category_index == index and award.positions[0] <= position <= award.positions[-1]
        for award in pending.values()
    )


def _award(
    ranking: FinalRanking,
    category: Category,
    index: int,
    position: int,
    main: dict[int, Decimal],
    pending: dict[int, _Pending],
) -> bool:
    """Give the category prize at ``position`` (pooled with the next ones for a tie) to the
    best-ranked eligible group; False when nobody can take it."""
    candidates = sorted(
        (
            player
            for player in ranking.players
            if category.admits(player) and player.start_no not in pending
        ),
        key=_category_order,
    )
    for _, level in groupby(candidates, key=_category_order):
        taken = _level_takers(category, position, [player.start_no for player in level], main)
        if taken is not None:
            members, positions, share = taken
            for start_no in members:
                pending[start_no] = _Pending(start_no, index, positions, share)
            return True
    return False


def _level_takers(
    category: Category, position: int, members: list[int], main: dict[int, Decimal]
) -> tuple[list[int], tuple[int, ...], Fraction] | None:
    """The players of one level who take the prize at ``position`` pooled with the next ones,
    the positions pooled and each one's share; None when none of them does. A player whose
    main prize is at least the share keeps it and drops out, and the rest pool again."""
    while members:
        positions = tuple(range(position, position + len(members)))
        share = sum((category.prize(place) for place in positions), Fraction(0)) / len(members)
        # Equal amounts: the main prize comes first, so a category share must be higher.
        takers = [start_no for start_no in members if share > main[start_no]]
        if takers == members:
            return members, positions, share
        members = takers
    return None


def _category_order(player: PlacedPlayer) -> tuple[int, int]:
    """Final ranking order; inside a tie, the tie-break order when the ranking has one."""
    return (player.rank, player.tiebreak_order or 0)


def _rounded_awards(
    ranking: FinalRanking,
    categories: Sequence[Category],
    pending: list[_Pending],
    sheet: PrizeSheet,
) -> tuple[CategoryAward, ...]:
    ranks = {player.start_no: player.rank for player in ranking.players}
    items = [RoundingItem(award.amount, ranks[award.start_no], award.start_no) for award in pending]
    amounts = round_shares(items, sheet.rounding, sheet.unit)
    # A tie's pooled prizes are said once per tie, not once per member (issue 29: every member
    # wrote out every pooled prize, and a sheet grew with the square of the tie).
    pooled: dict[tuple[int, int, int], str] = {}
    for award in pending:
        key = (award.category_index, award.positions[0], award.positions[-1])
        if len(award.positions) > 1 and key not in pooled:  # once, not once per member
            pooled[key] = _pooled_text(categories[award.category_index], key[1], key[2])
    return tuple(
        CategoryAward(
            start_no=award.start_no,
            category=categories[award.category_index].code,
            positions=award.positions,
            exact_amount=award.amount,
            amount=amount,
            breakdown=_award_text(categories[award.category_index], award, amount, pooled),
        )
        for award, amount in zip(pending, amounts, strict=True)
    )


def _award_text(
    category: Category, award: _Pending, amount: Decimal, pooled: dict[tuple[int, int, int], str]
) -> str:
    first, last = award.positions[0], award.positions[-1]
    if first == last:
        return f"{category.name}, prize {first} = {format_money(amount)}"
    return (
        f"{category.name}, equal split of prizes {first}–{last} "
        f"({pooled[award.category_index, first, last]}) / {len(award.positions)} = "
        f"{format_money(amount)}"
    )


def _pooled_text(category: Category, first: int, last: int) -> str:
    """The category's prizes ``first``–``last`` (0 beyond its list), pooled by a tie."""
    prizes = category.prizes[first - 1 : last]
    terms = [format_money(prize) for prize in prizes] + ["0"] * (last - first + 1 - len(prizes))
    return pool_text(terms, format_money(sum(prizes, Decimal(0))))


def _outcome(
    ranking: FinalRanking,
    sheet: PrizeSheet,
    awards: tuple[CategoryAward, ...],
    unawarded: tuple[UnawardedPrize, ...],
) -> CategoryOutcome:
    by_player = {award.start_no: award for award in awards}
    rows = {row.start_no: row for row in sheet.rows}
    payouts: list[Payout] = []
    released: list[ReleasedPrize] = []
    for player in ranking.players:
        row = rows[player.start_no]
        award = by_player.get(player.start_no)
        if award is None:
            source, amount, text = "main", row.amount, row.breakdown
        else:
            source, amount, text = award.category, award.amount, award.breakdown
            if row.amount > 0:
                reason = f"takes the higher {award.category} prize instead ({award.breakdown})"
                released.append(ReleasedPrize(player.start_no, row.amount, reason))
        payouts.append(
            Payout(row.rank, row.shared, player.start_no, player.name, amount, source, text)
        )
    return CategoryOutcome(tuple(payouts), awards, tuple(released), unawarded)
