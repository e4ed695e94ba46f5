"""The prize sheet as CSV, XLSX (openpyxl) and PDF (reportlab), for the organiser (design.md §1).

Pure: no Django (nor does ``events.pdf``, whose fonts and page the PDF shares with the other
printed sheets). Each takes the sheet document (:func:`prizes.selectors.sheet_document` or an
approved snapshot) and returns text or bytes. Money is written from its exact decimal string:
the CSV holds the same amount strings as the JSON; the XLSX stores amounts as numeric cells
made from ``Decimal`` (so they add up in a spreadsheet). Tour points are numbers a spreadsheet
can add (issue 20): ``16.5`` in the CSV and a numeric cell in the XLSX, a third rounded to three
decimals as on the page (:mod:`events.numbers`); the JSON keeps the exact "33/2". Every cell goes
through :mod:`events.spreadsheet`, so a name typed as a formula stays text.
"""

from __future__ import annotations

import io
import json
from decimal import Decimal
from typing import Any
from xml.sax.saxutils import escape

from events.numbers import sheet_number, sheet_text
from events.pdf import markup, pdf_font, sheet_styles, sheet_template, table_commands
from events.spreadsheet import csv_text, xlsx_append
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
    rows = [
        [
            row.rank,
            row.place,
            "true" if row.shared else "false",
            row.start_no,
            row.name,
            record["amount"],
            document["currency"],
            "" if record["tour_points"] is None else sheet_text(record["tour_points"]),
            row.breakdown,
        ]
        for row, record in zip(display.rows, document["rows"], strict=True)
    ]
    # A team event's board prizes follow, one line each: no rank, the place names the board.
    rows += [
        [
            "",
            f"board {row.board}: {row.place}",
            "true" if "–" in row.place else "false",
            row.start_no,
            row.name,
            str(row.amount),
            document["currency"],
            "",
            _board_breakdown(row),
        ]
        for _, board_rows in display.boards
        for row in board_rows
    ]
    return csv_text([CSV_COLUMNS, *rows])


def _board_breakdown(row: Any) -> str:
    return (
        f"board prize; {row.team}; {row.points} of {row.games} ({row.percent} %); {row.breakdown}"
    )


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
    xlsx_append(sheet, [f"Prize sheet – {display.event_name}"])
    sheet["A1"].font = Font(bold=True, size=14)
    xlsx_append(sheet, [display.policy])
    sheet.append([])
    header = ["Place", "No.", "Name", f"Amount ({display.currency})", "Tour points", "Breakdown"]
    xlsx_append(sheet, header)
    for cell in sheet[sheet.max_row]:
        cell.font = Font(bold=True)
    money_format = _money_format(document)
    for row, record in zip(display.rows, document["rows"], strict=True):
        tour = "" if record["tour_points"] is None else sheet_number(record["tour_points"])
        xlsx_append(sheet, [row.place, row.start_no, row.name, row.amount, tour, row.breakdown])
        sheet.cell(sheet.max_row, 4).number_format = money_format
        sheet.cell(sheet.max_row, 6).alignment = Alignment(wrap_text=True)
    sheet.append([])
    for label, value in (
        ("Fund", document["fund"]),
        ("Total paid", document["total_paid"]),
        ("Difference", document["difference"]),
    ):
        xlsx_append(sheet, [label, None, None, Decimal(value)])
        sheet.cell(sheet.max_row, 4).number_format = money_format
    xlsx_append(sheet, [display.difference_note])
    for column, width in zip("ABCDEF", (8, 6, 28, 16, 12, 90), strict=True):
        sheet.column_dimensions[column].width = width
    _xlsx_categories(workbook, display)
    _xlsx_boards(workbook, display, money_format)
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


def _xlsx_categories(workbook: Any, display: SheetDisplay) -> None:
    if not display.payouts and not display.category_notes:
        return
    sheet = workbook.create_sheet("Payouts with categories")
    header = ["Place", "No.", "Name", f"Amount ({display.currency})", "From", "Breakdown"]
    xlsx_append(sheet, header)
    for payout in display.payouts:
        xlsx_append(
            sheet,
            [
                payout.place,
                payout.start_no,
                payout.name,
                payout.amount_text,
                payout.source,
                payout.breakdown,
            ],
        )
    for note in display.category_notes:
        xlsx_append(sheet, [note])


def _xlsx_boards(workbook: Any, display: SheetDisplay, money_format: str) -> None:
    if not display.boards:
        return
    sheet = workbook.create_sheet("Board prizes")
    header = ["Board", "Place", "No.", "Name", "Team", "Games", "Points", "%"]
    xlsx_append(sheet, [*header, f"Amount ({display.currency})", "Breakdown"])
    for _, rows in display.boards:
        for row in rows:
            xlsx_append(
                sheet,
                [
                    row.board,
                    row.place,
                    row.start_no,
                    row.name,
                    row.team,
                    row.games,
                    row.points,
                    row.percent,
                    row.amount,
                    row.breakdown,
                ],
            )
            sheet.cell(sheet.max_row, 9).number_format = money_format


def sheet_pdf(document: dict[str, Any]) -> bytes:
    """Landscape A4, in the fonts and table style of every printed sheet (events.pdf)."""
    from reportlab.lib.units import mm
    from reportlab.platypus import Paragraph, Spacer, Table, TableStyle

    display = sheet_display(document)
    font = pdf_font()
    styles = sheet_styles(font)
    body, small = styles["BodyText"], styles["BodyText"].clone("small", fontSize=8, leading=10)
    out = io.BytesIO()
    pdf = sheet_template(out, title=f"Prize sheet – {display.event_name}", landscape=True)
    data: list[list[Any]] = [["Place", "No.", "Name", f"Amount ({display.currency})", "Tour pts"]]
    data[0].append("Breakdown")
    for row in display.rows:
        name = row.name + (" (playoff winner)" if row.playoff_winner else "")
        data.append(
            [
                row.place,
                str(row.start_no),
                Paragraph(markup(name), small),
                row.amount_text,
                row.tour_points_text,
                Paragraph(escape(row.breakdown), small),
            ]
        )
    table = Table(data, colWidths=[16 * mm, 12 * mm, 55 * mm, 30 * mm, 18 * mm, 140 * mm])
    table.setStyle(
        TableStyle(
            [
                *table_commands(font),
                ("ALIGN", (3, 1), (4, -1), "RIGHT"),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("REPEATROWS", (0, 0), (-1, 0)),
            ]
        )
    )
    table.repeatRows = 1
    story = [
        Paragraph(markup(f"Prize sheet – {display.event_name}"), styles["Title"]),
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
    if display.boards:
        story += [Spacer(1, 4 * mm), Paragraph("Board prizes", styles["Heading2"])]
        boards: list[list[Any]] = [["Board", "Place", "No.", "Name", "Team", "Result"]]
        boards[0].append(f"Amount ({display.currency})")
        for _, rows in display.boards:
            boards += [
                [
                    str(row.board),
                    row.place,
                    str(row.start_no),
                    Paragraph(markup(row.name), small),
                    Paragraph(markup(row.team), small),
                    f"{row.points} / {row.games} ({row.percent} %)",
                    row.amount_text,
                ]
                for row in rows
            ]
        widths = [14 * mm, 16 * mm, 12 * mm, 60 * mm, 50 * mm, 40 * mm, 30 * mm]
        table = Table(boards, colWidths=widths)
        table.setStyle(TableStyle([*table_commands(font), ("ALIGN", (6, 1), (6, -1), "RIGHT")]))
        story.append(table)
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
