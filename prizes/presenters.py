"""The prize sheet document (the ``prizes`` JSON of design.md §4 plus extras) as people read it.

Pure: no Django. The page, the CSV/XLSX/PDF exports and the approved snapshots all go through
:func:`sheet_display`, so a printed sheet and the page can never disagree. Amounts stay
``Decimal`` and tour points ``Fraction`` until they become text.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from events.numbers import points_text
from events.sources import GCT_2019, cite
from prizes.split import format_money


@dataclass(frozen=True)
class DisplayRow:
    place: str
    rank: int
    shared: bool
    start_no: int
    name: str
    amount: Decimal
    amount_text: str
    tour_points: Fraction | None
    tour_points_text: str
    breakdown: str
    playoff_winner: bool


@dataclass(frozen=True)
class DisplayPayout:
    place: str
    start_no: int
    name: str
    amount_text: str
    source: str
    breakdown: str


@dataclass(frozen=True)
class DisplayBoardRow:
    """A board prize (a team event's, ``Format.board_prizes``)."""

    board: int
    place: str
    start_no: int
    name: str
    team: str
    games: int
    points: str
    percent: str
    amount: Decimal
    amount_text: str
    breakdown: str


@dataclass(frozen=True)
class SheetDisplay:
    event: str
    event_name: str
    currency: str
    rows: tuple[DisplayRow, ...]
    policy: str
    fund_text: str
    total_paid_text: str
    difference_text: str
    difference_note: str
    places: tuple[tuple[int, str], ...]
    has_tour_points: bool
    payouts: tuple[DisplayPayout, ...]
    category_notes: tuple[str, ...]
    boards: tuple[tuple[int, tuple[DisplayBoardRow, ...]], ...] = ()


def place_label(rank: int, size: int) -> str:
    """``"3"``, or ``"1–4"`` for a place four players share."""
    return f"{rank}–{rank + size - 1}" if size > 1 else str(rank)


def money_text(amount: str | Decimal, currency: str = "") -> str:
    text = format_money(Decimal(amount))
    return f"{text} {currency}" if currency else text


def signed_money_text(amount: Decimal) -> str:
    return ("+" if amount > 0 else "") + format_money(amount)


def _difference_note(document: dict[str, Any]) -> str:
    difference = Decimal(document["difference"])
    remainder = Decimal(document.get("organiser_remainder", "0"))
    currency = document["currency"]
    if difference == 0:
        return "The total paid equals the fund."
    parts = []
    if difference > 0:
        parts.append(
            f"{money_text(difference, currency)} more than the fund: each share is rounded to "
            f"the unit on its own ({cite(GCT_2019, '3.8.4')}, as in its Addendum)"
        )
    else:
        parts.append(f"{money_text(-difference, currency)} less than the fund")
    if remainder > 0:
        parts.append(f"rounding leaves {money_text(remainder, currency)} to the organiser")
    unawarded = Decimal(document.get("unawarded", "0"))
    if unawarded > 0:
        parts.append(
            f"the prizes of places nobody occupied ({money_text(unawarded, currency)}) are not paid"
        )
    return "; ".join(parts) + "."


def sheet_display(document: dict[str, Any]) -> SheetDisplay:
    rows = document["rows"]
    sizes = Counter(row["rank"] for row in rows)
    currency = document["currency"]
    display = tuple(
        DisplayRow(
            place=place_label(row["rank"], sizes[row["rank"]]),
            rank=row["rank"],
            shared=row["shared"],
            start_no=row["start_no"],
            name=row["name"],
            amount=Decimal(row["amount"]),
            amount_text=money_text(row["amount"]),
            tour_points=None if row["tour_points"] is None else Fraction(row["tour_points"]),
            tour_points_text=""
            if row["tour_points"] is None
            else points_text(Fraction(row["tour_points"])),
            breakdown=row["breakdown"],
            playoff_winner=bool(row.get("playoff_winner")),
        )
        for row in rows
    )
    policy = (
        f"{document.get('split_rule_name', document['split_rule'])} · "
        f"{document.get('rounding_name', document['rounding'])}, in units of "
        f"{document.get('unit', '1')} {currency}"
    )
    payouts, notes = _categories(document, sizes)
    return SheetDisplay(
        event=document["event"],
        event_name=document.get("event_name", document["event"]),
        currency=currency,
        rows=display,
        policy=policy,
        fund_text=money_text(document["fund"], currency),
        total_paid_text=money_text(document["total_paid"], currency),
        difference_text=signed_money_text(Decimal(document["difference"])),
        difference_note=_difference_note(document),
        places=tuple(
            (place["place"], money_text(place["amount"])) for place in document.get("places", [])
        ),
        has_tour_points=any(row["tour_points"] is not None for row in rows),
        payouts=payouts,
        category_notes=notes,
        boards=_boards(document),
    )


def _boards(document: dict[str, Any]) -> tuple[tuple[int, tuple[DisplayBoardRow, ...]], ...]:
    return tuple(
        (
            board["board"],
            tuple(
                DisplayBoardRow(
                    board=board["board"],
                    place=row["place"],
                    start_no=row["start_no"],
                    name=row["name"],
                    team=row["team"],
                    games=row["games"],
                    points=row["points"],
                    percent=row["percent"],
                    amount=Decimal(row["amount"]),
                    amount_text=money_text(row["amount"]),
                    breakdown=row["breakdown"],
                )
                for row in board["rows"]
            ),
        )
        for board in document.get("board_prizes") or ()
    )


def _categories(
    document: dict[str, Any], sizes: Counter[int]
) -> tuple[tuple[DisplayPayout, ...], tuple[str, ...]]:
    categories = document.get("categories")
    if not categories:
        return (), ()
    payouts = tuple(
        DisplayPayout(
            place=place_label(payout["rank"], sizes[payout["rank"]]),
            start_no=payout["start_no"],
            name=payout["name"],
            amount_text=money_text(payout["amount"]),
            source=payout["source"],
            breakdown=payout["breakdown"],
        )
        for payout in categories["payouts"]
        if Decimal(payout["amount"]) > 0
    )
    currency = document["currency"]
    notes = [
        f"No. {item['start_no']} gives up {money_text(item['amount'], currency)}: {item['reason']}"
        for item in categories["released"]
    ]
    notes += [
        f"{item['category']} prize {item['position']} "
        f"({money_text(item['amount'], currency)}): nobody eligible"
        for item in categories["unawarded"]
    ]
    return payouts, tuple(notes)


_OPERATOR_WORDS = {"eq": "=", "ne": "≠", "lt": "<", "le": "≤", "gt": ">", "ge": "≥", "in": "in"}
_FIELD_WORDS = {
    "rating": "rating",
    "rated": "rated",
    "birth_date": "born",
    "birth_year": "born (year)",
    "sex": "sex",
    "federation": "federation",
}


def conditions_text(conditions: object) -> str:
    """A category's stored conditions in words ("rating ≤ 1999 · sex = w"), for its list."""
    if not isinstance(conditions, list):
        return str(conditions)
    parts = []
    for condition in conditions:
        if not isinstance(condition, dict):
            return str(conditions)
        field, op, value = condition.get("field"), condition.get("op"), condition.get("value")
        if field == "rated" and op == "eq" and isinstance(value, bool):
            parts.append("rated players" if value else "unrated players")
            continue
        shown = ", ".join(map(str, value)) if isinstance(value, list) else str(value)
        parts.append(
            f"{_FIELD_WORDS.get(str(field), field)} {_OPERATOR_WORDS.get(str(op), op)} {shown}"
        )
    return " · ".join(parts)
