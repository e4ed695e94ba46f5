"""The prize sheet document (the ``prizes`` JSON of design.md §4 plus extras) as people read it.

Pure: no Django. The page, the CSV/XLSX/PDF exports and the approved snapshots all go through
:func:`sheet_display`, so a printed sheet and the page can never disagree. Amounts stay
``Decimal`` and tour points ``Fraction`` until they become text.

What every sheet carries (issue 29: the CSV and the PDF left out the category prizes, and a
treasurer paying from them did not pay three players):

- **Every prize**: the place prizes, the category prizes and a team event's board prizes, each
  with who gets it and what is paid for it. A place prize given up for a higher category prize
  (one prize per player, :mod:`prizes.categories`) stays on its line, paid 0, saying why; so
  the lines' paid amounts add up to the **total to pay**.
- **Who approved it and when** (the ``approval`` key :func:`prizes.selectors.approved_document`
  adds to a snapshot), or that it is a draft.
- **The prizes, and the rest on request**: as printed, a player without a prize (no money, no
  tour points) is counted, not listed; ``every_player`` lists everyone.
- **A shared prize said once**: where every player of a tie has the same breakdown (an equal
  split), it is said once, above them, and their rows say only what differs (issue 29: a
  5,000-way tie printed its split 5,000 times).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from fractions import Fraction
from itertools import groupby
from typing import Any

from events.numbers import points_text
from events.sources import GCT_2019, cite
from prizes.split import format_money


@dataclass(frozen=True)
class DisplayRow:
    """A row of the main sheet: a player's place prize (and tour points)."""

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
    exact_amount: Fraction = Fraction(0)
    given_up: str = ""  # why the amount is not paid: the player takes a category prize instead

    @property
    def paid(self) -> Decimal:
        return Decimal(0) if self.given_up else self.amount

    @property
    def paid_text(self) -> str:
        return money_text(self.paid)

    @property
    def is_prize(self) -> bool:
        """Money or tour points: what a printed sheet lists."""
        return self.amount > 0 or bool(self.tour_points)


@dataclass(frozen=True)
class DisplayGroup:
    """A place and the players who share it. ``breakdown`` is said once, above its rows, when
    it is the same for every player of the place (else "" and each row says its own);
    ``rows`` are the rows printed, ``size`` counts them all."""

    place: str
    size: int
    breakdown: str
    rows: tuple[DisplayRow, ...]

    @property
    def heading(self) -> str:
        return f"Places {self.place}, {self.size:,} players: {self.breakdown}"

    @property
    def printed(self) -> tuple[tuple[DisplayRow, str], ...]:
        """Each printed row with what it says beside its amount (:func:`row_breakdown`)."""
        return tuple((row, row_breakdown(row, self)) for row in self.rows)


@dataclass(frozen=True)
class DisplayPayout:
    """What a player is finally paid with category prizes (``categories.payouts``)."""

    place: str
    start_no: int
    name: str
    amount: Decimal
    source: str
    breakdown: str


@dataclass(frozen=True)
class DisplayAward:
    """A category prize: who takes it, at which place of the final ranking."""

    category: str  # the category's name (its code in a snapshot approved before issue 29)
    place: str
    rank: int
    start_no: int
    name: str
    amount: Decimal
    amount_text: str
    breakdown: str
    shared: bool  # the category's tied players pool their category prizes


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
class PrizeLine:
    """One prize as the flat sheets (CSV, XLSX) write it: ``kind`` is ``place``,
    ``category`` or ``board``; ``prize`` says which in words; ``paid`` is what is paid for it
    (0 for a place prize given up for a category prize)."""

    kind: str
    prize: str
    rank: int | None
    place: str
    shared: bool
    start_no: int
    name: str
    amount: Decimal
    paid: Decimal
    tour_points: Fraction | None
    breakdown: str


@dataclass(frozen=True)
class SheetDisplay:
    event: str
    event_name: str
    currency: str
    rows: tuple[DisplayRow, ...]  # every player of the main sheet
    groups: tuple[DisplayGroup, ...]  # the places printed, with the rows printed
    unlisted: int  # players without a prize, not printed (0 with every player)
    every_player: bool
    policy: str
    approval: str  # "Approved by … on …" or "Draft: not approved"
    approved_by: str
    approved_at: str  # ISO 8601, "" for a draft
    fund_text: str
    total_paid_text: str
    difference_text: str
    difference_note: str
    places: tuple[tuple[int, str], ...]
    has_tour_points: bool
    payouts: tuple[DisplayPayout, ...]
    awards: tuple[DisplayAward, ...]
    category_notes: tuple[str, ...]
    boards: tuple[tuple[int, tuple[DisplayBoardRow, ...]], ...]
    total_to_pay: Decimal
    total_to_pay_text: str

    @property
    def has_categories(self) -> bool:
        return bool(self.awards or self.category_notes)

    @property
    def category_total(self) -> Decimal:
        return sum((a.amount for a in self.awards), Decimal(0))

    @property
    def category_total_text(self) -> str:
        return money_text(self.category_total, self.currency)

    @property
    def given_up(self) -> Decimal:
        """Place prizes given up for higher category prizes: in the total paid, not to pay."""
        return sum((row.amount for row in self.rows if row.given_up), Decimal(0))

    @property
    def board_total(self) -> Decimal:
        return sum((row.amount for _, rows in self.boards for row in rows), Decimal(0))

    @property
    def board_total_text(self) -> str:
        return money_text(self.board_total, self.currency)

    @property
    def to_pay_text(self) -> str:
        """ "Category prizes 230 EUR · given up for them 100 EUR · total to pay 730 EUR."."""
        parts = [f"category prizes {self.category_total_text}"] if self.awards else []
        if self.given_up:
            parts.append(f"given up for them {money_text(self.given_up, self.currency)}")
        parts += [f"board prizes {self.board_total_text}"] if self.boards else []
        parts.append(f"total to pay {self.total_to_pay_text}")
        text = " · ".join(parts)
        return text[0].upper() + text[1:] + "."

    @property
    def unlisted_note(self) -> str:
        if not self.unlisted:
            return ""
        players = "player" if self.unlisted == 1 else "players"
        return f"{self.unlisted:,} {players} without a prize not listed."

    def lines(self) -> Iterator[PrizeLine]:
        """Every prize printed, place prizes first, then category and board prizes."""
        for group in self.groups:
            for row in group.rows:
                breakdown = row.breakdown + (f"; given up: {row.given_up}" if row.given_up else "")
                yield PrizeLine(
                    "place", "place prize", row.rank, row.place, row.shared, row.start_no,
                    row.name, row.amount, row.paid, row.tour_points, breakdown,
                )  # fmt: skip
        for award in self.awards:
            yield PrizeLine(
                "category", award.category, award.rank, award.place, award.shared, award.start_no,
                award.name, award.amount, award.amount, None, award.breakdown,
            )  # fmt: skip
        for board, rows in self.boards:
            for row in rows:
                breakdown = (
                    f"board prize; {row.team}; {row.points} of {row.games} ({row.percent} %); "
                    f"{row.breakdown}"
                )
                yield PrizeLine(
                    "board", f"board {board}", None, row.place, "–" in row.place, row.start_no,
                    row.name, row.amount, row.amount, None, breakdown,
                )  # fmt: skip


def row_breakdown(row: DisplayRow, group: DisplayGroup) -> str:
    """What a printed row says beside its amount: its breakdown, unless its group says it once
    above it; and, given up for a category prize, the amount given up and why."""
    said = "" if group.breakdown else row.breakdown
    if not row.given_up:
        return said
    given_up = f"{row.amount_text} given up: {row.given_up}"
    return f"{said}; {given_up}" if said else given_up


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


def approval_text(approval: dict[str, Any] | None) -> str:
    """ "Approved by dora on 2026-05-02 18:30 UTC (results version 41)", or a draft's note."""
    if not approval:
        return "Draft: computed from the current results, not approved."
    when = datetime.fromisoformat(approval["approved_at"])
    offset = when.strftime("%z")
    zone = "UTC" if offset in ("", "+0000") else f"UTC{offset[:3]}:{offset[3:]}"
    by = f" by {approval['approved_by']}" if approval.get("approved_by") else ""
    return (
        f"Approved{by} on {when:%Y-%m-%d %H:%M} {zone} "
        f"(results version {approval['results_version']})."
    )


def _policy_text(document: dict[str, Any]) -> str:
    """The split rule and the rounding policy, in words, with the rounding unit."""
    return (
        f"{document.get('split_rule_name', document['split_rule'])} · "
        f"{document.get('rounding_name', document['rounding'])}, in units of "
        f"{document.get('unit', '1')} {document['currency']}"
    )


def _total_to_pay(
    document: dict[str, Any],
    categories: dict[str, Any],
    boards: tuple[tuple[int, tuple[DisplayBoardRow, ...]], ...],
) -> Decimal:
    """What is paid in all: the place (or category) prizes and the board prizes."""
    main_paid = Decimal(categories["total_paid"] if categories else document["total_paid"])
    return main_paid + sum((row.amount for _, board in boards for row in board), Decimal(0))


def _places(document: dict[str, Any]) -> tuple[tuple[int, str], ...]:
    """The fund's place prizes: (place, amount)."""
    return tuple(
        (place["place"], money_text(place["amount"])) for place in document.get("places", [])
    )


def sheet_display(document: dict[str, Any], *, every_player: bool = False) -> SheetDisplay:
    """The sheet as printed: the prizes, and with ``every_player`` every player."""
    rows = document["rows"]
    sizes = Counter(row["rank"] for row in rows)
    currency = document["currency"]
    categories = document.get("categories") or {}
    given_up = {item["start_no"]: item["reason"] for item in categories.get("released", ())}
    display = tuple(
        _row(row, sizes[row["rank"]], given_up.get(row["start_no"], "")) for row in rows
    )
    groups = tuple(_groups(display, every_player))
    boards = _boards(document)
    to_pay = _total_to_pay(document, categories, boards)
    approval = document.get("approval") or {}
    return SheetDisplay(
        event=document["event"],
        event_name=document.get("event_name", document["event"]),
        currency=currency,
        rows=display,
        groups=groups,
        unlisted=len(display) - sum(len(group.rows) for group in groups),
        every_player=every_player,
        policy=_policy_text(document),
        approval=approval_text(approval),
        approved_by=approval.get("approved_by") or "",
        approved_at=approval.get("approved_at") or "",
        fund_text=money_text(document["fund"], currency),
        total_paid_text=money_text(document["total_paid"], currency),
        difference_text=signed_money_text(Decimal(document["difference"])),
        difference_note=_difference_note(document),
        places=_places(document),
        has_tour_points=any(row["tour_points"] is not None for row in rows),
        payouts=_payouts(categories, sizes),
        awards=_awards(categories, sizes),
        category_notes=_category_notes(categories, currency),
        boards=boards,
        total_to_pay=to_pay,
        total_to_pay_text=money_text(to_pay, currency),
    )


def _row(row: dict[str, Any], size: int, given_up: str) -> DisplayRow:
    tour = None if row["tour_points"] is None else Fraction(row["tour_points"])
    return DisplayRow(
        place=place_label(row["rank"], size),
        rank=row["rank"],
        shared=row["shared"],
        start_no=row["start_no"],
        name=row["name"],
        amount=Decimal(row["amount"]),
        amount_text=money_text(row["amount"]),
        tour_points=tour,
        tour_points_text="" if tour is None else points_text(tour),
        breakdown=row["breakdown"],
        playoff_winner=bool(row.get("playoff_winner")),
        exact_amount=Fraction(row.get("exact_amount", row["amount"])),
        given_up=given_up,
    )


def _groups(rows: tuple[DisplayRow, ...], every_player: bool) -> Iterator[DisplayGroup]:
    """The places printed: a place with a prize (or, shared, whose pool rounded to nothing:
    its split is still said), with its rows that carry one; every place with every player."""
    for _, members in groupby(rows, key=lambda row: row.rank):
        group = list(members)
        listed = tuple(row for row in group if every_player or row.is_prize)
        if listed or _pooled(group):
            yield DisplayGroup(group[0].place, len(group), _shared_breakdown(group), listed)


def _pooled(group: list[DisplayRow]) -> bool:
    """A shared place whose pooled prizes are not nothing (its split is said even when every
    share rounded to nothing)."""
    return len(group) > 1 and any(row.exact_amount for row in group)


def _shared_breakdown(group: list[DisplayRow]) -> str:
    """The split of a shared place, said once for the place when every share has the same."""
    breakdowns = {row.breakdown for row in group}
    return breakdowns.pop() if len(group) > 1 and len(breakdowns) == 1 else ""


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


def _payouts(categories: dict[str, Any], sizes: Counter[int]) -> tuple[DisplayPayout, ...]:
    """What each player is finally paid with category prizes (one prize per player)."""
    return tuple(
        DisplayPayout(
            place=place_label(payout["rank"], sizes[payout["rank"]]),
            start_no=payout["start_no"],
            name=payout["name"],
            amount=Decimal(payout["amount"]),
            source=payout["source"],
            breakdown=payout["breakdown"],
        )
        for payout in categories.get("payouts", ())
        if Decimal(payout["amount"]) > 0
    )


def _awards(categories: dict[str, Any], sizes: Counter[int]) -> tuple[DisplayAward, ...]:
    players = {payout["start_no"]: payout for payout in categories.get("payouts", ())}
    awards = []
    for award in categories.get("awards", ()):
        player = players[award["start_no"]]
        awards.append(
            DisplayAward(
                category=award.get("category_name") or award["category"],
                place=place_label(player["rank"], sizes[player["rank"]]),
                rank=player["rank"],
                start_no=award["start_no"],
                name=player["name"],
                amount=Decimal(award["amount"]),
                amount_text=money_text(award["amount"]),
                breakdown=award["breakdown"],
                shared=bool(award.get("shared")),
            )
        )
    return tuple(awards)


def _category_notes(categories: dict[str, Any], currency: str) -> tuple[str, ...]:
    notes = [
        f"No. {item['start_no']} gives up {money_text(item['amount'], currency)}: {item['reason']}"
        for item in categories.get("released", ())
    ]
    # Not awarded: nobody is eligible, or every eligible player keeps a prize at least as high.
    notes += [
        f"{item.get('category_name') or item['category']} prize {item['position']} "
        f"({money_text(item['amount'], currency)}): not awarded, no eligible player without "
        "a prize at least as high"
        for item in categories.get("unawarded", ())
    ]
    return tuple(notes)


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
