"""The rating report as CSV and XLSX, for the organiser and the rating officer. Pure: no
Django. One row per player with the ``rating_report`` JSON's figures (the exact change as a
decimal, the XLSX's numbers made from ``Decimal``) and the norms reached; every cell goes
through :mod:`events.spreadsheet`, so a name typed as a formula stays text."""

from __future__ import annotations

import io
from decimal import Decimal
from typing import Any

from events.spreadsheet import csv_text, xlsx_append
from fiderating.rating import period_change
from fiderating.report import RatingReport, report_document

COLUMNS = (
    "start_no",
    "name",
    "title",
    "federation",
    "fide_id",
    "rating",
    "k",
    "rated_games",
    "score",
    "expected",
    "rating_change",
    "rounded_change",
    "performance",
    "aro",
    "norms",
)
CONTENT_TYPES = {
    "csv": "text/csv; charset=utf-8",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
}


def _rows(report: RatingReport) -> list[list[Any]]:
    rows = []
    for row, player in zip(report.rows, report_document(report)["players"], strict=True):
        change = player["rating_change"]
        rows.append(
            [
                row.start_no,
                row.name,
                row.title,
                row.federation,
                row.fide_id,
                player["rating"],
                player["k"],
                player["rated_games"],
                Decimal(player["score"]),
                None if player["expected"] is None else Decimal(player["expected"]),
                None if change is None else Decimal(change),
                None if change is None else period_change(Decimal(change)),
                player["performance"],
                player["aro"],
                " ".join(n["title"] for n in player["norms"] if n["achieved"]),
            ]
        )
    return rows


def report_csv(report: RatingReport) -> str:
    return csv_text([COLUMNS, *_rows(report)])  # None empty, numbers as Python writes them


def report_xlsx(report: RatingReport) -> bytes:
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    sheet.title = "Rating report"
    xlsx_append(sheet, COLUMNS)
    for row in _rows(report):
        xlsx_append(sheet, row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()
