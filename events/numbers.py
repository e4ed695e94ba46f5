"""Numbers as a person reads them (issue 20, "Numbers a person reads"). Pure: no Django.

The exact values (``Fraction``, ``Decimal``) stay exact everywhere they are computed, stored
and exchanged (the JSON interfaces keep their exact strings, design.md §4: ``"33/2"``,
``"331/330"``). What a person reads on a page, a print or a spreadsheet is made here:

- points: ``3``, ``3½``, ``½``; any other fraction as a decimal (tour points ``13.75``);
- other numbers (tie-break values, ratios): a decimal, exact when it has at most
  :data:`PLACES` decimals, else rounded half up to :data:`PLACES` (``331/330`` → ``1.003``);
  :func:`exact_title` then gives the exact value for a tooltip;
- spreadsheets: :func:`sheet_number`, a number a spreadsheet can add (an ``int`` or a
  ``Decimal``), rounded as on the page when the value has no short decimal;
- text an engine wrote with exact ratios in it (a Cohen stage's "17/2 points"):
  :func:`readable`.

The templates use the filters of ``events/templatetags/numbers.py`` (``points``, ``number``,
``readable``); every filter is one of these functions.
"""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

PLACES = 3
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:/\d+)?")
_RATIO_IN_TEXT = re.compile(r"(?<![\d/.\w])(-?\d+)/(\d+)(?![\d/])")

Number = Fraction | Decimal | int


def as_fraction(value: object) -> Fraction | None:
    """``value`` as an exact Fraction: a number, or text that is one ("8.5", "-25/3")."""
    if isinstance(value, bool):
        return None
    if isinstance(value, Fraction | int):
        return Fraction(value)
    if isinstance(value, Decimal):
        return Fraction(value) if value.is_finite() else None
    if isinstance(value, str) and _NUMBER.fullmatch(value.strip()):
        text = value.strip()
        if "/" in text and text.split("/")[1].strip("0") == "":
            return None  # "1/0" is no number
        return Fraction(text)
    return None


def _terminating(value: Fraction, places: int) -> bool:
    scaled: Fraction = value * 10**places
    return scaled.denominator == 1


def decimal_value(value: Fraction, places: int = PLACES) -> Decimal:
    """The decimal shown: exact when it fits ``places`` decimals, else rounded half up."""
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    if _terminating(value, places):
        return exact.normalize() if exact != exact.to_integral_value() else exact.quantize(1)
    quantum = Decimal(1).scaleb(-places)
    return (Decimal(value.numerator) / Decimal(value.denominator)).quantize(
        quantum, rounding=ROUND_HALF_UP
    )


def decimal_text(value: Fraction, places: int = PLACES) -> str:
    return f"{decimal_value(value, places):f}"


def points_text(value: object) -> str:
    """``3``, ``3½``, ``½``, ``-½``; another fraction as a decimal; text that is no number is
    returned as it is (``"–"``)."""
    exact = as_fraction(value)
    if exact is None:
        return "" if value is None else str(value)
    whole, rest = divmod(abs(exact), 1)
    sign = "-" if exact < 0 else ""
    if rest == 0:
        return f"{sign}{whole}"
    if rest == Fraction(1, 2):
        return f"{sign}{whole or ''}½"
    return decimal_text(exact)


def number_text(value: object) -> str:
    """A tie-break value or ratio as a decimal (a list of values, space-separated)."""
    if isinstance(value, tuple | list):
        return " ".join(number_text(item) for item in value)
    exact = as_fraction(value)
    if exact is None:
        return "" if value is None else str(value)
    return decimal_text(exact)


def exact_title(value: object) -> str:
    """The exact value when the text shown is rounded ("331/330"), else ""."""
    if isinstance(value, tuple | list):
        parts = [exact_title(item) for item in value]
        if not any(parts):
            return ""
        return " ".join(p or number_text(v) for p, v in zip(parts, value, strict=True))
    exact = as_fraction(value)
    if exact is None or _terminating(exact, PLACES):
        return ""
    return f"{exact.numerator}/{exact.denominator}"


def sheet_number(value: object) -> int | Decimal | str:
    """A cell a spreadsheet can add: an ``int``, or a ``Decimal`` as on the page; text that is
    no number is returned as it is (the caller's formula guard still applies)."""
    if isinstance(value, tuple | list):
        return number_text(value)
    exact = as_fraction(value)
    if exact is None:
        return "" if value is None else str(value)
    if exact.denominator == 1:
        return exact.numerator
    return decimal_value(exact)


def sheet_text(value: object) -> str:
    """:func:`sheet_number` as CSV text: ``16.5``, never ``33/2``."""
    cell = sheet_number(value)
    return f"{cell:f}" if isinstance(cell, Decimal) else str(cell)


def readable(text: str) -> str:
    """Text an engine wrote with exact ratios ("17/2 points (17/2 to 15/2)"): each ratio as
    points are read ("8½ points (8½ to 7½)"). Dates and paths are left alone."""
    return _RATIO_IN_TEXT.sub(lambda m: points_text(Fraction(int(m[1]), int(m[2]))), text)


# A result code (TRF, the exchange format) as a page writes it; files keep the codes.
_RESULTS_SHOWN = {"1/2-1/2": "½-½", "+/-": "+/−", "-/+": "−/+", "-/-": "−/−"}


def result_text(code: str) -> str:
    """``1/2-1/2`` → ``½-½``, a forfeit's minus as a minus sign; any other text with its
    ratios read as points (:func:`readable`)."""
    return _RESULTS_SHOWN.get(code, readable(code))


def count_text(value: object) -> str:
    """A count a person reads, its thousands grouped: ``4,004``, ``1,203,421`` (never a
    rating or a year, which are read as they are written); text that is no whole number
    passes through."""
    if isinstance(value, bool) or not isinstance(value, int):
        return "" if value is None else str(value)
    return f"{value:,}"
