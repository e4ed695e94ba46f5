"""The standings as a PDF: the rows of the printable sheet (templates/standings/
standings_print.html, ``presenters.standings_rows``) on A4, landscape when the tie-breaks
would not fit upright."""

from __future__ import annotations

from collections.abc import Sequence

from events.pdf import Column, Sheet, sheet_pdf
from standings.compute import StandingsTable
from standings.presenters import Row

# Place, No., Pts and the name take 111 mm of the 186 mm of an upright page.
PORTRAIT_TIEBREAKS = 5
TIEBREAK_MM = 15


def standings_pdf(*, event_name: str, table: StandingsTable, rows: Sequence[Row]) -> bytes:
    subtitle = f"Standings after round {table.after_round} of {table.rounds}"
    if table.tiebreaks:
        subtitle += " · tie-breaks " + ", ".join(table.tiebreaks)
    columns = [
        Column("Pl", 14),
        Column("No.", 12, numeric=True),
        Column("Name", 70),
        Column("Pts", 15, numeric=True),
        *(Column(code, TIEBREAK_MM, numeric=True) for code in table.tiebreaks),
    ]
    sheet = Sheet(
        title=event_name,
        subtitle=subtitle,
        columns=columns,
        rows=[
            (row.place, str(row.start_no), row.marked_name, row.points, *row.values) for row in rows
        ],
        landscape=len(table.tiebreaks) > PORTRAIT_TIEBREAKS,
        notes=[f"Note: {note}" for note in table.notes],
    )
    return sheet_pdf(sheet)
