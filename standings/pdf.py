"""The standings as a PDF: the rows of the printable sheet (templates/standings/
standings_print.html, ``presenters.printed_standings``) on upright A4, with the tie-break
columns that fit."""

from __future__ import annotations

from events.contributions import Columns
from events.pdf import Column, Sheet, sheet_pdf
from standings.compute import StandingsTable
from standings.presenters import PrintedStandings

TIEBREAK_MM = 15


def standings_pdf(
    *,
    event_name: str,
    table: StandingsTable,
    printed: PrintedStandings,
    extra: Columns | None = None,
) -> bytes:
    """Upright A4: place, No., name, points, the tie-break columns that fit
    (``presenters.printed_standings``) and the columns other apps add (``extra``: the rating
    change and performance); the tie-breaks left out are named in a note."""
    extra = extra or Columns(())
    subtitle = f"Standings after round {table.after_round} of {table.rounds}"
    if table.tiebreaks:
        subtitle += " · tie-breaks " + ", ".join(table.tiebreaks)
    columns = [
        Column("Pl", 14),
        Column("No.", 12, numeric=True),
        Column("Name", 70),
        Column("Pts", 15, numeric=True),
        *(Column(code, TIEBREAK_MM, numeric=True) for code in printed.codes),
        *(Column(heading, TIEBREAK_MM, numeric=True) for heading, _ in extra.headings),
    ]
    notes = [printed.note] if printed.note else []
    sheet = Sheet(
        title=event_name,
        subtitle=subtitle,
        columns=columns,
        rows=[
            (
                row.place,
                str(row.start_no),
                row.marked_name,
                row.points,
                *row.values,
                *extra.row(row.start_no),
            )
            for row in printed.rows
        ],
        notes=[*notes, *(f"Note: {note}" for note in table.notes)],
    )
    return sheet_pdf(sheet)
