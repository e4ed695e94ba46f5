"""The printed player cards: one A4 sheet of cards, three across and four down, each with the
player's name, start number, the event, the private link and its QR code (``events.pdf``'s
font and QR drawing, the same as the pairing list's), with cutting lines between them."""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from events.pdf import markup, pdf_font, qr_drawing, sheet_styles

COLUMNS, ROWS = 3, 4
CARD_QR_MM = 38


@dataclass(frozen=True)
class Card:
    start_no: int
    name: str
    url: str


def cards_pdf(*, event_name: str, cards: Sequence[Card]) -> bytes:
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.units import mm
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Table, TableStyle

    font = pdf_font()
    styles = sheet_styles(font)
    small = styles["BodyText"].clone("card", fontSize=7, leading=8, alignment=1)
    name = styles["BodyText"].clone("card-name", fontSize=10, leading=12, alignment=1)
    out = io.BytesIO()
    document = SimpleDocTemplate(
        out,
        pagesize=A4,
        leftMargin=10 * mm,
        rightMargin=10 * mm,
        topMargin=10 * mm,
        bottomMargin=10 * mm,
        title=f"{event_name} – player cards",
    )
    width, height = (A4[0] - 20 * mm) / COLUMNS, (A4[1] - 20 * mm) / ROWS
    cells = [
        [
            Paragraph(f"<b>{card.start_no}. {markup(card.name)}</b>", name),
            qr_drawing(card.url, CARD_QR_MM),
            Paragraph(markup(event_name), small),
            Paragraph(markup(card.url), small),
        ]
        for card in cards
    ]
    rows: list[list[Any]] = [cells[i : i + COLUMNS] for i in range(0, len(cells), COLUMNS)]
    rows = rows or [[""]]
    for row in rows:
        row += [""] * (COLUMNS - len(row))
    table = Table(rows, colWidths=[width] * COLUMNS, rowHeights=[height] * len(rows))
    table.setStyle(
        TableStyle(
            [
                ("GRID", (0, 0), (-1, -1), 0.25, colors.grey),  # the cutting lines
                ("ALIGN", (0, 0), (-1, -1), "CENTER"),
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ]
        )
    )
    document.build([table])
    return out.getvalue()
