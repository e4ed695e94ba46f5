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
from fractions import Fraction
from typing import Any
from xml.sax.saxutils import escape

from events.numbers import as_fraction, sheet_number, sheet_text
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
    "prize",
    "paid",
    "approved_by",
    "approved_at",
)
FORMATS = ("json", "csv", "xlsx", "pdf")
CONTENT_TYPES = {
    "csv": "text/csv; charset=utf-8",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "pdf": "application/pdf",
    "json": "application/json",
}


def sheet_csv(document: dict[str, Any], *, every_player: bool = False) -> str:
    """One line per prize (:meth:`SheetDisplay.lines`): the JSON row keys, the place label and
    the currency; ``prize`` is ``place``, ``category`` or ``board`` (whose ``place`` reads
    "board N: P"); ``paid`` adds up to the total to pay; who approved the sheet, and when, on
    every line (empty for a draft)."""
    display = sheet_display(document, every_player=every_player)
    approval = [display.approved_by, display.approved_at]
    rows = [
        [
            "" if line.rank is None else line.rank,
            f"{line.prize}: {line.place}" if line.kind == "board" else line.place,
            "true" if line.shared else "false",
            line.start_no,
            line.name,
            str(line.amount),
            display.currency,
            "" if line.tour_points is None else sheet_text(line.tour_points),
            line.breakdown,
            line.kind,
            str(line.paid),
            *approval,
        ]
        for line in display.lines()
    ]
    return csv_text([CSV_COLUMNS, *rows])


def _money_format(document: dict[str, Any]) -> str:
    exponent = Decimal(str(document.get("unit", "1"))).as_tuple().exponent
    decimals = -exponent if isinstance(exponent, int) and exponent < 0 else 0
    return "#,##0" + ("." + "0" * decimals if decimals else "")


def _place_cell(place: str) -> int | str:
    """A place a spreadsheet can sort and add ("3" → 3); a shared one stays text ("1–4")."""
    return int(place) if place.isdigit() else place


def _points_cell(points: str) -> int | Decimal | str:
    """A board's points as the sheet prints them ("3½") as a number a spreadsheet adds (3.5)."""
    whole, half, _ = points.partition("½")
    exact = as_fraction(whole or "0")
    if exact is None:
        return points
    return sheet_number(exact + (Fraction(1, 2) if half else 0))


def sheet_xlsx(document: dict[str, Any], *, every_player: bool = False) -> bytes:
    """Sheet "Prize sheet": every prize, one line each, amounts, places and tour points as
    numbers (issue 29: they were text, and a SUM gave 0), then the totals; "Payouts with
    categories" (what each player is finally paid) and "Board prizes" when there are any."""
    from openpyxl import Workbook
    from openpyxl.styles import Alignment, Font

    display = sheet_display(document, every_player=every_player)
    workbook = Workbook()
    sheet = workbook.active
    sheet.title = "Prize sheet"
    xlsx_append(sheet, [f"Prize sheet – {display.event_name}"])
    sheet["A1"].font = Font(bold=True, size=14)
    xlsx_append(sheet, [display.policy])
    xlsx_append(sheet, [display.approval])
    sheet.append([])
    currency = display.currency
    header = ["Place", "No.", "Name", f"Amount ({currency})", "Tour points", "Breakdown"]
    for cell in xlsx_append(sheet, [*header, "Prize", f"Paid ({currency})"]):
        cell.font = Font(bold=True)
    money_format = _money_format(document)
    for line in display.lines():
        tour = "" if line.tour_points is None else sheet_number(line.tour_points)
        cells = [_place_cell(line.place), line.start_no, line.name, line.amount, tour]
        row = xlsx_append(sheet, [*cells, line.breakdown, line.prize, line.paid])
        row[3].number_format = row[7].number_format = money_format
        row[5].alignment = Alignment(wrap_text=True)
    sheet.append([])
    for label, value in _totals(document, display):
        row = xlsx_append(sheet, [label, None, None, None, None, None, None, value])
        row[7].number_format = money_format
    for note in (display.difference_note, *display.category_notes, display.unlisted_note):
        if note:
            xlsx_append(sheet, [note])
    for column, width in zip("ABCDEFGH", (8, 6, 28, 14, 12, 80, 16, 14), strict=True):
        sheet.column_dimensions[column].width = width
    _xlsx_payouts(workbook, display, money_format)
    _xlsx_boards(workbook, display, money_format)
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


def _totals(document: dict[str, Any], display: SheetDisplay) -> list[tuple[str, Decimal]]:
    """The fund and what is paid, under the Paid column."""
    totals = [
        ("Fund", Decimal(document["fund"])),
        ("Total paid", Decimal(document["total_paid"])),
        ("Difference", Decimal(document["difference"])),
    ]
    if display.given_up:
        totals.append(("Given up for category prizes", -display.given_up))
    if display.awards:
        totals.append(("Category prizes", display.category_total))
    if display.boards:
        totals.append(("Board prizes", display.board_total))
    if display.awards or display.boards:
        totals.append(("Total to pay", display.total_to_pay))
    return totals


def _xlsx_payouts(workbook: Any, display: SheetDisplay, money_format: str) -> None:
    if not display.payouts and not display.category_notes:
        return
    sheet = workbook.create_sheet("Payouts with categories")
    header = ["Place", "No.", "Name", f"Amount ({display.currency})", "From", "Breakdown"]
    xlsx_append(sheet, header)
    for payout in display.payouts:
        place = _place_cell(payout.place)
        cells = [place, payout.start_no, payout.name, payout.amount, payout.source]
        xlsx_append(sheet, [*cells, payout.breakdown])[3].number_format = money_format
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
            cells = xlsx_append(
                sheet,
                [
                    row.board,
                    _place_cell(row.place),
                    row.start_no,
                    row.name,
                    row.team,
                    row.games,
                    _points_cell(row.points),
                    sheet_number(row.percent),
                    row.amount,
                    row.breakdown,
                ],
            )
            cells[8].number_format = money_format


def sheet_pdf(document: dict[str, Any], *, every_player: bool = False) -> bytes:
    """Landscape A4, in the fonts and table style of every printed sheet (events.pdf): the
    place prizes (a tie's split said once, above its players), the category prizes, the board
    prizes, the totals and who approved the sheet, and when."""
    from reportlab.lib.units import mm
    from reportlab.platypus import Paragraph, Spacer

    display = sheet_display(document, every_player=every_player)
    font = pdf_font()
    styles = sheet_styles(font)
    body, small = styles["BodyText"], styles["BodyText"].clone("small", fontSize=8, leading=10)
    out = io.BytesIO()
    pdf = sheet_template(out, title=f"Prize sheet – {display.event_name}", landscape=True)
    story: list[Any] = [
        Paragraph(markup(f"Prize sheet – {display.event_name}"), styles["Title"]),
        Paragraph(escape(display.policy), body),
        Paragraph(escape(display.approval), body),
        Spacer(1, 4 * mm),
        _pdf_places(display, font, small),
    ]
    if display.awards:
        story += [
            Paragraph("Category prizes", styles["Heading2"]),
            _pdf_awards(display, font, small),
        ]
    if display.boards:
        story += [Paragraph("Board prizes", styles["Heading2"]), _pdf_boards(display, font, small)]
    story += [Spacer(1, 4 * mm), *(Paragraph(escape(text), body) for text in _totals_text(display))]
    notes = (*display.category_notes, display.unlisted_note)
    story += [Paragraph(escape(note), small) for note in notes if note]
    pdf.build(story)
    return out.getvalue()


def _totals_text(display: SheetDisplay) -> list[str]:
    texts = [
        f"Fund {display.fund_text} · total paid {display.total_paid_text} · "
        f"difference {display.difference_text}. {display.difference_note}"
    ]
    if display.awards or display.boards:
        texts.append(display.to_pay_text)
    return texts


def _pdf_table(data: list[list[Any]], widths_mm: list[int], commands: list[Any], font: str) -> Any:
    from reportlab.lib.units import mm
    from reportlab.platypus import Table, TableStyle

    table = Table(data, colWidths=[width * mm for width in widths_mm], repeatRows=1)
    table.setStyle(
        TableStyle([*table_commands(font), ("VALIGN", (0, 0), (-1, -1), "TOP"), *commands])
    )
    return table


def _pdf_places(display: SheetDisplay, font: str, small: Any) -> Any:
    """The place prizes: a group's shared breakdown on a line of its own, spanning the table."""
    from reportlab.lib import colors
    from reportlab.platypus import Paragraph

    data: list[list[Any]] = [["Place", "No.", "Name", f"Amount ({display.currency})", "Tour pts"]]
    data[0].append("Breakdown")
    commands: list[Any] = [("ALIGN", (3, 1), (4, -1), "RIGHT")]
    for group in display.groups:
        if group.breakdown:
            data.append([Paragraph(escape(group.heading), small), "", "", "", "", ""])
            at = len(data) - 1
            commands += [
                ("SPAN", (0, at), (-1, at)),
                ("BACKGROUND", (0, at), (-1, at), colors.HexColor("#eeeeee")),
            ]
        for row, said in group.printed:
            name = row.name + (" (playoff winner)" if row.playoff_winner else "")
            data.append(
                [
                    row.place,
                    str(row.start_no),
                    Paragraph(markup(name), small),
                    row.paid_text,
                    row.tour_points_text,
                    Paragraph(escape(said), small),
                ]
            )
    if len(data) == 1:
        data.append(["", "", "No prize is paid.", "", "", ""])
    return _pdf_table(data, [16, 12, 55, 30, 18, 140], commands, font)


def _pdf_awards(display: SheetDisplay, font: str, small: Any) -> Any:
    from reportlab.platypus import Paragraph

    data: list[list[Any]] = [["Category", "Place", "No.", "Name", f"Amount ({display.currency})"]]
    data[0].append("Breakdown")
    data += [
        [
            Paragraph(markup(award.category), small),
            award.place,
            str(award.start_no),
            Paragraph(markup(award.name), small),
            award.amount_text,
            Paragraph(escape(award.breakdown), small),
        ]
        for award in display.awards
    ]
    return _pdf_table(data, [40, 16, 12, 55, 30, 118], [("ALIGN", (4, 1), (4, -1), "RIGHT")], font)


def _pdf_boards(display: SheetDisplay, font: str, small: Any) -> Any:
    from reportlab.platypus import Paragraph

    data: list[list[Any]] = [["Board", "Place", "No.", "Name", "Team", "Result"]]
    data[0].append(f"Amount ({display.currency})")
    for _, rows in display.boards:
        data += [
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
    return _pdf_table(
        data, [14, 16, 12, 60, 50, 40, 30], [("ALIGN", (6, 1), (6, -1), "RIGHT")], font
    )


def sheet_render(document: dict[str, Any], fmt: str, *, every_player: bool = False) -> bytes:
    """The document in ``fmt`` (one of :data:`FORMATS`) as bytes (text formats in UTF-8).
    ``every_player`` lists players without a prize too; the JSON always has every row."""
    if fmt == "json":
        return (json.dumps(document, indent=2, ensure_ascii=False) + "\n").encode()
    if fmt == "csv":
        return sheet_csv(document, every_player=every_player).encode()
    if fmt == "xlsx":
        return sheet_xlsx(document, every_player=every_player)
    if fmt == "pdf":
        return sheet_pdf(document, every_player=every_player)
    raise ValueError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
