"""Printed sheets as PDF (ReportLab): the fonts that set every name, the A4 page and table style
the sheets share, a generic one-table sheet, and the QR code of an event's public page.

Pure: no Django. The prize sheet (``prizes.exports``) builds its own table on these pieces; the
pairing list (``draws.pdf``), the standings (``standings.pdf``) and the crosstable wall chart
(:func:`wall_chart_pdf` below) are :class:`Sheet` values made from the same records as their
HTML sheets. The text is real text (names can be searched and copied), never an image.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any
from xml.sax.saxutils import escape

if TYPE_CHECKING:
    from reportlab.lib.styles import StyleSheet1
    from reportlab.platypus import SimpleDocTemplate

    from events.contributions import Columns

# The standard PDF fonts cover Latin-1 only; DejaVu (where installed) also covers Latin
# Extended, Greek and Cyrillic names. Chinese, Japanese and Korean names are set in one of
# ReportLab's CID fonts (Adobe's Asian fonts, which PDF readers provide, so nothing is
# embedded or shipped): the first script found decides which.
FONT_CANDIDATES = (
    Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),
    Path("/usr/share/fonts/TTF/DejaVuSans.ttf"),
)


def pdf_font() -> str:
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    for path in FONT_CANDIDATES:
        if path.exists():
            if "DejaVuSans" not in pdfmetrics.getRegisteredFontNames():
                pdfmetrics.registerFont(TTFont("DejaVuSans", str(path)))
            return "DejaVuSans"
    return "Helvetica"


# (first code point, last code point, CID font): kana first (a Japanese name also uses Han).
CJK_FONTS = (
    (0x3040, 0x30FF, "HeiseiKakuGo-W5"),  # Hiragana, Katakana: Japanese
    (0x1100, 0x11FF, "HYGothic-Medium"),  # Hangul Jamo: Korean
    (0xAC00, 0xD7AF, "HYGothic-Medium"),  # Hangul syllables
    (0x3130, 0x318F, "HYGothic-Medium"),  # Hangul compatibility Jamo
    (0x3400, 0x9FFF, "STSong-Light"),  # CJK unified ideographs: Chinese
    (0xF900, 0xFAFF, "STSong-Light"),  # CJK compatibility ideographs
)


def cid_font(text: str) -> str | None:
    """The CID font for a text in a CJK script, or None when the sheet's font covers it."""
    points = {ord(char) for char in text}
    for low, high, font in CJK_FONTS:
        if any(low <= point <= high for point in points):
            return font
    return None


def markup(text: str) -> str:
    """``text`` escaped for a Paragraph, in a CID font when it is written in a CJK script."""
    font = cid_font(text)
    if font is None:
        return escape(text)
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont

    if font not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(UnicodeCIDFont(font))
    return f'<font name="{font}">{escape(text)}</font>'


# -- The page and the table every sheet shares --------------------------------------------------

MARGIN_MM = 12


def sheet_styles(font: str) -> StyleSheet1:
    """ReportLab's sample styles, every one in the sheet's font."""
    from reportlab.lib.styles import getSampleStyleSheet

    styles = getSampleStyleSheet()
    for style in styles.byName.values():
        style.fontName = font
    return styles


def sheet_template(out: io.BytesIO, *, title: str, landscape: bool) -> SimpleDocTemplate:
    """An A4 document (portrait or landscape) with the sheets' 12 mm margins."""
    from reportlab.lib import pagesizes
    from reportlab.lib.units import mm
    from reportlab.platypus import SimpleDocTemplate

    size = pagesizes.landscape(pagesizes.A4) if landscape else pagesizes.A4
    margin = MARGIN_MM * mm
    return SimpleDocTemplate(
        out,
        pagesize=size,
        title=title,
        leftMargin=margin,
        rightMargin=margin,
        topMargin=margin,
        bottomMargin=margin,
    )


def table_commands(font: str, size: float = 9) -> list[tuple[Any, ...]]:
    """A ruled table: a heavier line under the header, hairlines between the rows."""
    from reportlab.lib import colors

    return [
        ("FONTNAME", (0, 0), (-1, -1), font),
        ("FONTSIZE", (0, 0), (-1, -1), size),
        ("LINEBELOW", (0, 0), (-1, 0), 0.8, colors.black),
        ("LINEBELOW", (0, 1), (-1, -1), 0.25, colors.grey),
    ]


# -- The QR code of the event's public page ----------------------------------------------------


def qr_drawing(url: str, size_mm: float) -> Any:
    """The QR code of ``url`` (segno) as one vector path, ``size_mm`` wide, quiet zone included:
    a rectangle per run of dark modules in a row. (A square per module was some 700 shapes a
    code, which ReportLab validates one by one: the cards of a 5,000-player event took over
    2 GB; issue 29.)"""
    import segno
    from reportlab.graphics import shapes
    from reportlab.lib import colors
    from reportlab.lib.units import mm

    matrix = [list(row) for row in segno.make(url, error="m").matrix_iter(border=2)]
    module = size_mm * mm / len(matrix)
    top = size_mm * mm
    path = shapes.Path(fillColor=colors.black, strokeColor=None, strokeWidth=0)
    for y, row in enumerate(matrix):
        low, high = top - (y + 1) * module, top - y * module
        for start, end in dark_runs(row):
            left, right = start * module, end * module
            path.moveTo(left, low)
            path.lineTo(right, low)
            path.lineTo(right, high)
            path.lineTo(left, high)
            path.closePath()
    drawing = shapes.Drawing(size_mm * mm, size_mm * mm)
    drawing.add(path)
    return drawing


def dark_runs(row: Sequence[Any]) -> list[tuple[int, int]]:
    """(start, end) of each run of dark modules in a QR code's row, end excluded."""
    runs: list[tuple[int, int]] = []
    start = None
    for x, dark in enumerate([*row, 0]):
        if dark and start is None:
            start = x
        elif not dark and start is not None:
            runs.append((start, x))
            start = None
    return runs


# -- A sheet of one table ----------------------------------------------------------------------


@dataclass(frozen=True)
class Column:
    title: str
    width_mm: float
    numeric: bool = False  # right-aligned, set as plain text (digits need no CJK font)
    centred: bool = False  # a result between two names


@dataclass(frozen=True)
class Sheet:
    """A printed list: a title, a line under it, one ruled table whose header repeats on every
    page, and notes. ``block`` rows are kept on one page together (the blocks of boards of a
    pairing list); ``qr_url`` puts the QR code of that address in the top right corner, and
    the address under the title. ``spans`` are (row, first column, last column): that row's
    cell in the first column runs across to the last, whose cells are left empty (a bye's
    kind across the result and the missing opponent, as the HTML sheet's colspan)."""

    title: str
    subtitle: str
    columns: Sequence[Column]
    rows: Sequence[Sequence[str]]
    landscape: bool = False
    notes: Sequence[str] = ()
    qr_url: str | None = None
    block: int = 0
    font_size: float = 10
    spans: Sequence[tuple[int, int, int]] = ()


QR_MM = 30


def sheet_pdf(sheet: Sheet) -> bytes:
    from reportlab.lib.units import mm
    from reportlab.platypus import Paragraph, Spacer, Table, TableStyle

    font = pdf_font()
    styles = sheet_styles(font)
    cell = styles["BodyText"].clone("cell", fontSize=sheet.font_size, leading=sheet.font_size + 2)
    centred = cell.clone("centred", alignment=1)
    out = io.BytesIO()
    title = f"{sheet.title} – {sheet.subtitle}"
    document = sheet_template(out, title=title, landscape=sheet.landscape)
    data: list[list[Any]] = [[column.title for column in sheet.columns]]
    data += [
        [
            text if column.numeric else Paragraph(markup(text), centred if column.centred else cell)
            for column, text in zip(sheet.columns, row, strict=True)
        ]
        for row in sheet.rows
    ]
    widths = [c.width_mm * mm for c in sheet.columns]
    table = Table(data, colWidths=widths, repeatRows=1, hAlign="LEFT")
    table.setStyle(TableStyle(_sheet_commands(sheet, font)))
    story = [
        _heading(sheet, styles, document.width),
        Spacer(1, 3 * mm),
        table,
        *(Paragraph(markup(note), styles["BodyText"]) for note in sheet.notes),
    ]
    document.build(story)
    return out.getvalue()


def _sheet_commands(sheet: Sheet, font: str) -> list[tuple[Any, ...]]:
    commands = table_commands(font, sheet.font_size)
    commands += [("LEFTPADDING", (0, 0), (-1, -1), 3), ("RIGHTPADDING", (0, 0), (-1, -1), 3)]
    for i, column in enumerate(sheet.columns):
        if column.numeric or column.centred:
            commands.append(("ALIGN", (i, 0), (i, -1), "RIGHT" if column.numeric else "CENTER"))
    commands.append(("VALIGN", (0, 0), (-1, -1), "MIDDLE"))
    # Data rows are 1..n (0 is the header).
    commands += [("SPAN", (first, row + 1), (last, row + 1)) for row, first, last in sheet.spans]
    # A page may end only between two blocks, and a heavier line marks where one block ends.
    firsts = range(1, len(sheet.rows) + 1, sheet.block) if sheet.block else []
    for first in firsts:
        commands.append(
            ("NOSPLIT", (0, first), (-1, min(first + sheet.block - 1, len(sheet.rows))))
        )
        if first > 1:
            commands.append(("LINEABOVE", (0, first), (-1, first), 0.8, "black"))
    return commands


def _heading(sheet: Sheet, styles: StyleSheet1, width: float) -> Any:
    """The title and the line under it; with a QR code, its address under them and the code
    beside them."""
    from reportlab.lib.units import mm
    from reportlab.platypus import Paragraph, Table, TableStyle

    title = styles["Title"].clone("sheet-title", alignment=0)
    words = [Paragraph(markup(sheet.title), title)]
    words.append(Paragraph(markup(sheet.subtitle), styles["BodyText"]))
    qr_width = (QR_MM + 6) * mm if sheet.qr_url else 0
    cells: list[Any] = [words]
    if sheet.qr_url:
        words.append(Paragraph(f"Live results: {escape(sheet.qr_url)}", styles["BodyText"]))
        cells.append(qr_drawing(sheet.qr_url, QR_MM))
    heading = Table([cells], colWidths=[width - qr_width, *([qr_width] if qr_width else [])])
    heading.setStyle(
        TableStyle(
            [
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LEFTPADDING", (0, 0), (0, 0), 0),
                ("ALIGN", (-1, 0), (-1, 0), "CENTER"),
            ]
        )
    )
    return heading


# -- The crosstable wall chart -----------------------------------------------------------------

# Up to this many rounds the wall chart fits an A4 page upright; beyond it, landscape. The HTML
# sheet (templates/events/crosstable_print.html) follows the same rule.
PORTRAIT_ROUNDS = 6
PORTRAIT_MM = 210 - 2 * MARGIN_MM
LANDSCAPE_MM = 297 - 2 * MARGIN_MM
ROUND_MM = 14.0  # "12w½" at 9 pt, with room to spare
SMALL_ROUND_MM = 12.0  # below this the cells are set at 7.5 pt, without Fed and Rtg
NAME_MM = 45.0  # at least: the rounds give way first


def wall_chart_landscape(rounds: int) -> bool:
    return rounds > PORTRAIT_ROUNDS


EXTRA_MM = 14.0  # a column another app adds (the rating change "+15.6", the performance)


def _wall_chart_columns(rounds: int, page_mm: float, extra: Sequence[str] = ()) -> list[Column]:
    """No., Name, Fed, Rtg, a column per round, Pts and the columns other apps add
    (``extra``: their headings); with many rounds, the federation and the rating give their
    room to the rounds."""
    sides = [Column("Fed", 12), Column("Rtg", 13, numeric=True)]
    room = page_mm - 10 - 14 - len(extra) * EXTRA_MM - sum(c.width_mm for c in sides)
    round_mm = min(ROUND_MM, (room - NAME_MM) / max(rounds, 1))
    if round_mm < SMALL_ROUND_MM:
        room += sum(c.width_mm for c in sides)
        sides, round_mm = [], (room - NAME_MM) / max(rounds, 1)
    return [
        Column("No.", 10, numeric=True),
        Column("Name", room - rounds * round_mm),
        *sides,
        *(Column(f"R{n}", round_mm, numeric=True) for n in range(1, rounds + 1)),
        Column("Pts", 14, numeric=True),
        *(Column(heading, EXTRA_MM, numeric=True) for heading in extra),
    ]


def wall_chart_pdf(
    *, event_name: str, rounds: int, rows: Sequence[Any], extra: Columns | None = None
) -> bytes:
    """The wall chart: each player's row of "opponent, colour, result" cells and points (rows
    as ``events.selectors.crosstable_rows`` gives them), across the whole page, then the
    columns other apps add (``extra``: the rating change and performance)."""
    landscape = wall_chart_landscape(rounds)
    headings = [heading for heading, _ in extra.headings] if extra else []
    columns = _wall_chart_columns(rounds, LANDSCAPE_MM if landscape else PORTRAIT_MM, headings)
    sides = len(columns) == rounds + 5 + len(headings)
    body = [
        [
            str(row.start_no),
            row.name,
            *([row.federation, str(row.rating or "")] if sides else []),
            *row.cells,
            row.points_text,
            *(extra.row(row.start_no) if extra else ()),
        ]
        for row in rows
    ]
    sheet = Sheet(
        title=event_name,
        subtitle="Crosstable",
        columns=columns,
        rows=body,
        landscape=landscape,
        font_size=9 if sides else 7.5,
    )
    return sheet_pdf(sheet)
