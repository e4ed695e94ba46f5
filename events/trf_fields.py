"""The fields of a TRF file as real programs spell them, read leniently (issue 28). Pure: no
Django, no models.

A director brings files from Swiss-Manager, Vega, lichess, JaVaFo, national rating programs
and club programs; each spells dates, sexes, titles, federations and ids its own way. What can
be read without guessing is read; what cannot is left empty; either way the import notes say
so in one line (:class:`FieldNotes`). A played event is never refused for an informational
field (TRF16, "Tournament section": records 022-132 inform the rating officer, they do not
decide a result).

Dates (records 042, 052 and 132) are read **together**: a spelling such as ``10.09.13`` or
``08/04/2018`` is a date in more than one order, and the file's own records decide which. One
order is taken for the day-month-year spellings of the file and one for its two-digit-year
spellings; an order is possible when every date it gives exists, the start is not after the
end, and the round dates are in order and within the event's dates. Where the possible orders
still disagree about a date, TRF16's own order (year first) is taken when it is among them
(that is the format's reading, not a guess), else the date is left empty.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import product

from events.limits import three_letter_code

# -------------------------------------------------------------------------------------------
# Notes


@dataclass(slots=True)
class FieldNotes:
    """What the reader set aside or changed, one line each, grouped by what happened so that
    a 3,000-player file gives a few lines, not thousands (``add`` a case, ``lines`` at the end).
    """

    lines_: list[str] = field(default_factory=list)
    groups: dict[str, list[str]] = field(default_factory=dict)

    def line(self, text: str) -> None:
        self.lines_.append(text)

    def add(self, group: str, case: str) -> None:
        """One more case of ``group``, a sentence with ``{cases}`` where the cases go."""
        self.groups.setdefault(group, []).append(case)

    def lines(self) -> tuple[str, ...]:
        grouped = [group.format(cases=listed(cases)) for group, cases in self.groups.items()]
        return (*self.lines_, *grouped)


MAX_NAMED = 8  # cases named in one note; the rest are counted


def listed(cases: Sequence[str]) -> str:
    """``a, b, c`` or ``a, b, ... and 12 more``."""
    shown = ", ".join(cases[:MAX_NAMED])
    more = len(cases) - MAX_NAMED
    return f"{shown} and {more} more" if more > 0 else shown


# -------------------------------------------------------------------------------------------
# Dates

MONTHS = {
    name: number
    for number, names in enumerate(
        (
            ("jan", "january"),
            ("feb", "february"),
            ("mar", "march"),
            ("apr", "april"),
            ("may",),
            ("jun", "june"),
            ("jul", "july"),
            ("aug", "august"),
            ("sep", "sept", "september"),
            ("oct", "october"),
            ("nov", "november"),
            ("dec", "december"),
        ),
        start=1,
    )
    for name in names
}
_NAMED = (
    re.compile(r"(?P<month>[A-Za-z]{3,9})\.?\s+(?P<day>\d{1,2}),?\s+(?P<year>\d{4})"),
    re.compile(r"(?P<day>\d{1,2})\.?\s+(?P<month>[A-Za-z]{3,9})\.?,?\s+(?P<year>\d{4})"),
)
_NUMERIC = re.compile(r"(\d{1,4})\s*([-/.])\s*(\d{1,2})\s*[-/.]\s*(\d{1,4})")
_PLACEHOLDER = re.compile(r"[0\s/.-]*")

# The orders a date of three numbers can be in; TRF16 writes the year first.
ORDER_WORDS = {
    "YMD": "year, month, day",
    "DMY": "day, month, year",
    "MDY": "month, day, year",
    "YDM": "year, day, month",
}
SHORT_ORDERS = ("YMD", "DMY", "MDY", "YDM")  # two-digit years: any of them occurs
# A season's league is the longest event: dates further apart than this are misread.
MAX_EVENT_DAYS = 2 * 366
LONG_ORDERS = ("DMY", "MDY")  # a four-digit year last: the day or the month first


@dataclass(frozen=True, slots=True)
class _Spelling:
    """A date as written: its three numbers and the orders they may be in. A year first
    (``2024/08/01``) or a month's name has one reading; a four-digit year last is the day or
    the month first (with dots only the day: ``09.04.2026``, as every country that writes dots
    reads it); two-digit years (``10.09.13``, ``11.25.02``) may be in any order."""

    text: str
    parts: tuple[int, int, int]
    orders: tuple[str, ...]
    short: bool = False

    def read(self, order: str) -> dt.date | None:
        """The date in ``order``; None when the spelling cannot be in that order or there is
        no such day."""
        if order not in self.orders:
            return None
        values = dict(zip(order, self.parts, strict=True))
        year = values["Y"] + ((2000 if values["Y"] < 70 else 1900) if self.short else 0)
        try:
            return dt.date(year, values["M"], values["D"])
        except ValueError:
            return None


_STANDARD = re.compile(r"\d{2,4}[-/.]\d{1,2}[-/.]\d{1,2}")


def _named(text: str) -> _Spelling | None:
    for pattern in _NAMED:
        match = pattern.fullmatch(text)
        month = MONTHS.get(match.group("month").lower()) if match else None
        if match and month:
            return _Spelling(
                text, (int(match.group("year")), month, int(match.group("day"))), ("YMD",)
            )
    return None


def spelling(text: str) -> _Spelling | None:
    """How ``text`` spells a date; None when it is no date at all."""
    value = " ".join(text.split())
    match = _NUMERIC.fullmatch(value)
    if match is None:
        return _named(value)
    first, separator, second, last = match.groups()
    parts = (int(first), int(second), int(last))
    if len(first) == 4:
        return _Spelling(value, parts, ("YMD",))
    if len(last) == 4:
        return _Spelling(value, parts, ("DMY",) if separator == "." else LONG_ORDERS)
    if len(first) <= 2 and len(last) <= 2:
        return _Spelling(value, parts, SHORT_ORDERS, short=True)
    return None


def is_placeholder(text: str) -> bool:
    """Blank, or only zeros and separators (``0000/00/00``): no date given."""
    return bool(_PLACEHOLDER.fullmatch(text))


@dataclass(frozen=True, slots=True)
class DateField:
    """A date field of the tournament section: ``what`` names it in a note (``record 042``,
    ``record 132, round 3``); ``role`` is "start", "end" or "round"."""

    what: str
    text: str
    role: str


@dataclass(frozen=True, slots=True)
class DatesRead:
    start: dt.date | None
    end: dt.date | None
    rounds: tuple[dt.date | None, ...]
    notes: tuple[str, ...]


Orders = tuple[str, str]  # (the order of four-digit-year-last dates, of two-digit-year dates)


def _orders(spellings: Sequence[_Spelling | None]) -> list[Orders]:
    """The pairs of orders worth trying for these spellings."""
    present = [s for s in spellings if s is not None]
    longs = LONG_ORDERS if any(s.orders == LONG_ORDERS for s in present) else ("DMY",)
    shorts = SHORT_ORDERS if any(s.short for s in present) else ("YMD",)
    return list(product(longs, shorts))


def _reading(spelled: _Spelling | None, orders: Orders) -> dt.date | None:
    if spelled is None:
        return None
    if len(spelled.orders) == 1:
        return spelled.read(spelled.orders[0])
    return spelled.read(orders[1] if spelled.short else orders[0])


def _role(fields: Sequence[DateField], dates: Sequence[dt.date | None], role: str) -> list[dt.date]:
    return [d for f, d in zip(fields, dates, strict=True) if f.role == role and d is not None]


def _fits(fields: Sequence[DateField], dates: Sequence[dt.date | None]) -> bool:
    """The start is not after the end; the rounds are in order and within the event's dates."""
    start = next(iter(_role(fields, dates, "start")), None)
    end = next(iter(_role(fields, dates, "end")), None)
    if start and end and start > end:
        return False
    rounds = _role(fields, dates, "round")
    if any(later < earlier for earlier, later in zip(rounds, rounds[1:], strict=False)):
        return False
    low, high = start or dt.date.min, end or dt.date.max
    if not all(low <= d <= high for d in rounds):
        return False
    dates_given = ([start] if start else []) + rounds + ([end] if end else [])
    return not dates_given or (max(dates_given) - min(dates_given)).days <= MAX_EVENT_DAYS


def _possible(
    fields: Sequence[DateField], spellings: Sequence[_Spelling | None]
) -> list[tuple[Orders, list[dt.date | None]]]:
    """The orders in which every date exists and the dates fit together, with their dates;
    TRF16's order of two-digit years (year first) alone when it is one of them."""
    found = []
    for orders in _orders(spellings):
        dates = [_reading(s, orders) for s in spellings]
        readable = all(d is not None for s, d in zip(spellings, dates, strict=True) if s)
        if readable and _fits(fields, dates):
            found.append((orders, dates))
    if any(orders[1] == "YMD" for orders, _ in found):
        found = [(orders, dates) for orders, dates in found if orders[1] == "YMD"]
    return found


def dates_read(fields: Sequence[DateField]) -> DatesRead:
    """Read the tournament section's dates together (see the module's docstring)."""
    notes = FieldNotes()
    spellings: list[_Spelling | None] = []
    for date_field in fields:
        spelled = None if is_placeholder(date_field.text) else spelling(date_field.text)
        if spelled is None and not is_placeholder(date_field.text):
            notes.add(
                "Dates that are no dates, left empty: {cases}.",
                f"{date_field.what} {date_field.text[:20]!r}",
            )
        spellings.append(spelled)
    possible = _possible(fields, spellings)
    dates = [
        _date_of(field_, spelled, [found[index] for _, found in possible], notes)
        for index, (field_, spelled) in enumerate(zip(fields, spellings, strict=True))
    ]
    if not possible:
        dates = _end_after_start(fields, dates, notes)
    _spelling_notes(fields, spellings, dates, notes)
    start = next(iter(_role(fields, dates, "start")), None)
    end = next(iter(_role(fields, dates, "end")), None)
    rounds = tuple(d for f, d in zip(fields, dates, strict=True) if f.role == "round")
    return DatesRead(start, end, rounds, notes.lines())


def _date_of(
    date_field: DateField,
    spelled: _Spelling | None,
    readings: list[dt.date | None],
    notes: FieldNotes,
) -> dt.date | None:
    if spelled is None:
        return None
    if readings:
        values = set(readings)
    else:  # no order fits the file's dates: only a date with one reading is read on its own
        values = {spelled.read(o) for o in spelled.orders} - {None}
        values = values if len(spelled.orders) == 1 else values | {None}
    if len(values) == 1:
        return values.pop()
    shown = " or ".join(sorted(d.isoformat() for d in values if d)) or "no such day"
    if None in values and len(values) > 1:
        shown += ", or neither"
    notes.add(
        "Dates left empty because they read more than one way or as no day (set them in the "
        "event's settings): {cases}.",
        f"{date_field.what} {spelled.text!r} ({shown})",
    )
    return None


def _end_after_start(
    fields: Sequence[DateField], dates: list[dt.date | None], notes: FieldNotes
) -> list[dt.date | None]:
    """Dates that do not fit together, each read on its own: an end before the start is left
    empty (which of the two is wrong cannot be told)."""
    start = next(iter(_role(fields, dates, "start")), None)
    kept = []
    for date_field, date in zip(fields, dates, strict=True):
        if date_field.role == "end" and start and date and date < start:
            notes.line(
                f"The end date ({date_field.what}) {date.isoformat()} is before the start "
                f"{start.isoformat()}: left empty."
            )
            date = None
        kept.append(date)
    return kept


def _spelling_notes(
    fields: Sequence[DateField],
    spellings: Sequence[_Spelling | None],
    dates: Sequence[dt.date | None],
    notes: FieldNotes,
) -> None:
    """One line for each way of writing dates other than TRF16's that was read (TRF16: the
    year first, four digits in 042/052, two in 132)."""
    by_order: dict[str, list[str]] = {}
    for date_field, spelled, date in zip(fields, spellings, dates, strict=True):
        if spelled is None or date is None:
            continue
        order = next(o for o in spelled.orders if spelled.read(o) == date)
        standard = order == "YMD" and _STANDARD.fullmatch(spelled.text)
        if standard and (date_field.role == "round") == spelled.short:
            continue
        how = "with the month's name" if not spelled.text[0].isdigit() else ORDER_WORDS[order]
        by_order.setdefault(how, []).append(f"{date_field.what} {spelled.text!r} is {date}")
    for how, cases in by_order.items():
        written = how if how.startswith("with") else f"written {how}"
        notes.line(f"Dates {written}, read so: {listed(cases)}.")


# -------------------------------------------------------------------------------------------
# Player fields

# TRF16 column 10: "m" or "w"; files also write "M", "F", "f" (female) and "W".
SEXES = {"m": "m", "w": "w", "f": "w"}
# Title abbreviations of older files (TRF16: "g" GM, "m" IM, "f" FM, "c" CM, "wg" WGM ...).
TITLE_LETTERS = {
    "g": "GM",
    "m": "IM",
    "f": "FM",
    "c": "CM",
    "wg": "WGM",
    "wm": "WIM",
    "wf": "WFM",
    "wc": "WCM",
}
TITLES = frozenset({"GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM", "AGM", "AIM", "AFM"})


def sex_read(text: str) -> str | None:
    """``m`` or ``w``, "" when blank; None when it is neither (set aside)."""
    value = text.strip().lower()
    if not value:
        return ""
    return SEXES.get(value)


def title_read(text: str) -> str | None:
    """The title as FIDE writes it (``GM``, ``WFM``); "" when blank; None when unknown."""
    value = text.strip()
    if not value:
        return ""
    if value in TITLE_LETTERS:
        return TITLE_LETTERS[value]
    upper = value.upper()
    return upper if upper in TITLES else None


def federation_read(text: str) -> str | None:
    """A three-letter code, upper case; "" when blank; None for anything else (a club's
    ``C.C``, a word): it is no federation code."""
    return three_letter_code(text)


def fide_id_read(text: str) -> str | None:
    """The id's digits; "" for blank and for an id of zeros only (``00000000``: no id);
    None when it is not a number."""
    value = text.strip()
    if not value:
        return ""
    if not (value.isascii() and value.isdigit()):
        return None
    return "" if value.strip("0") == "" else value


def rating_read(text: str) -> int | None:
    """The rating; 0 when blank; None when it is not a number."""
    value = text.strip()
    if not value:
        return 0
    return int(value) if value.isascii() and value.isdigit() else None


def duplicated(values: Iterable[tuple[int, str]]) -> dict[str, list[int]]:
    """The values held by more than one start number: value -> start numbers."""
    holders: dict[str, list[int]] = {}
    for start_no, value in values:
        if value:
            holders.setdefault(value, []).append(start_no)
    return {value: numbers for value, numbers in holders.items() if len(numbers) > 1}
