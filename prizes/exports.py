"""The prize sheet as CSV, XLSX (openpyxl) and PDF (reportlab), for the organiser (design.md §1).

Pure: no Django. Each takes the sheet document (:func:`prizes.selectors.sheet_document` or an
approved snapshot) and returns text or bytes. Money is written from its exact decimal string:
the CSV holds the same strings as the JSON; the XLSX stores amounts as numeric cells made from
``Decimal`` (so they add up in a spreadsheet) and tour points as exact text ("33/2"), because a
spreadsheet number cannot hold a third.
"""

from __future__ import annotations

import csv
import io
import json
from decimal import Decimal
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from prizes.presenters import SheetDisplay, sheet_display

CSV_COLUMNS = (
    "rank",
    "place",
    "shared",
    "start_no",
    "name",
    "amount",
    "currency",
    "tour_points",
    "breakdown",
)
FORMATS = ("json", "csv", "xlsx", "pdf")
CONTENT_TYPES = {
    "csv": "text/csv; charset=utf-8",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "pdf": "application/pdf",
    "json": "application/json",
}


def sheet_csv(document: dict[str, Any]) -> str:
    """One line per payee, the JSON row keys plus the place label and currency."""
    display = sheet_display(document)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for row, record in zip(display.rows, document["rows"], strict=True):
        writer.writerow(
            [
                row.rank,
                row.place,
                "true" if row.shared else "false",
                row.start_no,
                row.name,
                record["amount"],
                document["currency"],
                "" if record["tour_points"] is None else record["tour_points"],
                row.breakdown,
            ]
        )
    return out.getvalue()


def _money_format(document: dict[str, Any]) -> str:
    exponent = Decimal(str(document.get("unit", "1"))).as_tuple().exponent
    decimals = -exponent if isinstance(exponent, int) and exponent < 0 else 0
    return "#,##0" + ("." + "0" * decimals if decimals else "")


def sheet_xlsx(document: dict[str, Any]) -> bytes:
    from openpyxl import Workbook
    from openpyxl.styles import Alignment, Font

    display = sheet_display(document)
    workbook = Workbook()
    sheet = workbook.active
    sheet.title = "Prize sheet"
    sheet.append([f"Prize sheet – {display.event_name}"])
    sheet["A1"].font = Font(bold=True, size=14)
    sheet.append([display.policy])
    sheet.append([])
    header = ["Place", "No.", "Name", f"Amount ({display.currency})", "Tour points", "Breakdown"]
    sheet.append(header)
    for cell in sheet[sheet.max_row]:
        cell.font = Font(bold=True)
    money_format = _money_format(document)
    for row, record in zip(display.rows, document["rows"], strict=True):
        tour = "" if record["tour_points"] is None else record["tour_points"]
        sheet.append([row.place, row.start_no, row.name, row.amount, tour, row.breakdown])
        sheet.cell(sheet.max_row, 4).number_format = money_format
        sheet.cell(sheet.max_row, 6).alignment = Alignment(wrap_text=True)
    sheet.append([])
    for label, value in (
        ("Fund", document["fund"]),
        ("Total paid", document["total_paid"]),
        ("Difference", document["difference"]),
    ):
        sheet.append([label, None, None, Decimal(value)])
        sheet.cell(sheet.max_row, 4).number_format = money_format
    sheet.append([display.difference_note])
    for column, width in zip("ABCDEF", (8, 6, 28, 16, 12, 90), strict=True):
        sheet.column_dimensions[column].width = width
    _xlsx_categories(workbook, display)
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


def _xlsx_categories(workbook: Any, display: SheetDisplay) -> None:
    if not display.payouts and not display.category_notes:
        return
    sheet = workbook.create_sheet("Payouts with categories")
    sheet.append(["Place", "No.", "Name", f"Amount ({display.currency})", "From", "Breakdown"])
    for payout in display.payouts:
        sheet.append(
            [
                payout.place,
                payout.start_no,
                payout.name,
                payout.amount_text,
                payout.source,
                payout.breakdown,
            ]
        )
    for note in display.category_notes:
        sheet.append([note])


# The standard PDF fonts cover Latin-1 only; DejaVu (where installed) also covers Latin
# Extended, Greek and Cyrillic names. Chinese, Japanese and Korean names are set in one of
# ReportLab's CID fonts (Adobe's Asian fonts, which PDF readers provide, so nothing is
# embedded or shipped): the first script found decides which.
FONT_CANDIDATES = (
    Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),
    Path("/usr/share/fonts/TTF/DejaVuSans.ttf"),
)


def _pdf_font() -> str:
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


def _cid_font(text: str) -> str | None:
    """The CID font for a text in a CJK script, or None when the sheet's font covers it."""
    points = {ord(char) for char in text}
    for low, high, font in CJK_FONTS:
        if any(low <= point <= high for point in points):
            return font
    return None


def _markup(text: str) -> str:
    """``text`` escaped for a Paragraph, in a CID font when it is written in a CJK script."""
    font = _cid_font(text)
    if font is None:
        return escape(text)
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont

    if font not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(UnicodeCIDFont(font))
    return f'<font name="{font}">{escape(text)}</font>'


def sheet_pdf(document: dict[str, Any]) -> bytes:
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4, landscape
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.lib.units import mm
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

    display = sheet_display(document)
    font = _pdf_font()
    styles = getSampleStyleSheet()
    for style in styles.byName.values():
        style.fontName = font
    body, small = styles["BodyText"], styles["BodyText"].clone("small", fontSize=8, leading=10)
    out = io.BytesIO()
    pdf = SimpleDocTemplate(
        out,
        pagesize=landscape(A4),
        title=f"Prize sheet – {display.event_name}",
        leftMargin=12 * mm,
        rightMargin=12 * mm,
        topMargin=12 * mm,
        bottomMargin=12 * mm,
    )
    data: list[list[Any]] = [["Place", "No.", "Name", f"Amount ({display.currency})", "Tour pts"]]
    data[0].append("Breakdown")
    for row in display.rows:
        name = row.name + (" (playoff winner)" if row.playoff_winner else "")
        data.append(
            [
                row.place,
                str(row.start_no),
                Paragraph(_markup(name), small),
                row.amount_text,
                row.tour_points_text,
                Paragraph(escape(row.breakdown), small),
            ]
        )
    table = Table(data, colWidths=[16 * mm, 12 * mm, 55 * mm, 30 * mm, 18 * mm, 140 * mm])
    table.setStyle(
        TableStyle(
            [
                ("FONTNAME", (0, 0), (-1, -1), font),
                ("FONTSIZE", (0, 0), (-1, -1), 9),
                ("LINEBELOW", (0, 0), (-1, 0), 0.8, colors.black),
                ("LINEBELOW", (0, 1), (-1, -1), 0.25, colors.grey),
                ("ALIGN", (3, 1), (4, -1), "RIGHT"),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("REPEATROWS", (0, 0), (-1, 0)),
            ]
        )
    )
    table.repeatRows = 1
    story = [
        Paragraph(_markup(f"Prize sheet – {display.event_name}"), styles["Title"]),
        Paragraph(escape(display.policy), body),
        Spacer(1, 4 * mm),
        table,
        Spacer(1, 4 * mm),
        Paragraph(
            escape(
                f"Fund {display.fund_text} · total paid {display.total_paid_text} · "
                f"difference {display.difference_text}. {display.difference_note}"
            ),
            body,
        ),
    ]
    story += [Paragraph(escape(note), small) for note in display.category_notes]
    pdf.build(story)
    return out.getvalue()


def sheet_render(document: dict[str, Any], fmt: str) -> bytes:
    """The document in ``fmt`` (one of :data:`FORMATS`) as bytes (text formats in UTF-8)."""
    if fmt == "json":
        return (json.dumps(document, indent=2, ensure_ascii=False) + "\n").encode()
    if fmt == "csv":
        return sheet_csv(document).encode()
    if fmt == "xlsx":
        return sheet_xlsx(document)
    if fmt == "pdf":
        return sheet_pdf(document)
    raise ValueError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
