"""The rating change and performance on the players page, the crosstable and (when the
director shows them) the standings, and the report's CSV and XLSX (helpers.norm_event)."""

from __future__ import annotations

import csv
import io
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from openpyxl import load_workbook
from pypdf import PdfReader

from events.models import Event, Player
from events.services import PlayerFields, access_grant, player_update
from fiderating.report import report_document
from fiderating.selectors import rating_report
from fiderating.services import norm_conditions_set
from tests.fiderating.helpers import norm_event


@pytest.fixture
def event(director: Any, tmp_path: Path) -> Event:
    event = norm_event(tmp_path)
    access_grant(event=event, username=director.username, role="director", user=None)
    return event


def _player(event: Event, start_no: int) -> dict[str, Any]:
    return report_document(rating_report(event))["players"][start_no - 1]


def _signed(change: str) -> str:
    return change.replace("-", "−") if change.startswith("-") else f"+{change}"


def _row(page: str, marker: str) -> str:
    return page.split(marker)[1].split("</tr>")[0]


def test_the_players_page_and_the_crosstable(event: Event, client_for: Any, director: Any) -> None:
    seeker = _player(event, 1)
    change, performance = _signed(seeker["rating_change"]), seeker["performance"]
    cells = f'<td class="num">{change}</td><td class="num">{performance}</td>'
    players = client_for(director).get(f"/e/{event.slug}/players/").content.decode()
    assert '">±</th>' in players and '">Perf</th>' in players
    assert cells in _row(players, 'id="player-1"')
    crosstable = client_for(None).get(f"/e/{event.slug}/crosstable/").content.decode()
    assert cells in _row(crosstable, "Seeker, Nora")


def test_an_unrated_player_shows_the_first_rating_so_far(
    event: Event, client_for: Any, director: Any
) -> None:
    """B.02 8.2: no change for an unrated player, their first rating so far in brackets."""
    player = Player.objects.get(event=event, start_no=10)
    player_update(
        event=event,
        start_no=10,
        fields=PlayerFields(
            name=player.name,
            federation=player.federation,
            fide_id=player.fide_id,
            rating=0,
            title=player.title,
            sex=player.sex,
        ),
        expected_version=None,
        user=director,
    )
    row = next(row for row in rating_report(event).rows if row.start_no == 10)
    assert row.rating.initial is not None and row.rating.initial.rating is not None
    crosstable = client_for(None).get(f"/e/{event.slug}/crosstable/").content.decode()
    cells = _row(crosstable, player.name)
    assert f'<td class="num">({row.rating.initial.rating})</td>' in cells


def test_the_standings_show_them_when_the_director_says(
    event: Event, client_for: Any, director: Any
) -> None:
    anonymous = client_for(None)
    assert '">±</th>' not in anonymous.get(f"/e/{event.slug}/standings/").content.decode()
    norm_conditions_set(event=event, kind="ordinary", standings_columns=True, user=director)
    page = anonymous.get(f"/e/{event.slug}/standings/").content.decode()
    assert '">±</th>' in page and '">Perf</th>' in page
    assert f'<td class="num">{_player(event, 1)["performance"]}</td>' in _row(page, "Seeker, Nora")


def test_the_downloads(event: Event, client_for: Any) -> None:
    seeker = _player(event, 1)
    text = client_for(None).get(f"/e/{event.slug}/rating/report.csv").content.decode()
    rows = list(csv.DictReader(io.StringIO(text)))
    assert len(rows) == 10
    first = rows[0]
    assert (first["name"], first["rating_change"], first["norms"]) == (
        "Seeker, Nora",
        seeker["rating_change"],
        "GM IM",
    )
    assert Decimal(first["expected"]) == Decimal(seeker["expected"])
    body = client_for(None).get(f"/e/{event.slug}/rating/report.xlsx").content
    sheet = load_workbook(io.BytesIO(body)).active
    header = [cell.value for cell in sheet[1]]
    values = dict(zip(header, [cell.value for cell in sheet[2]], strict=True))
    assert values["performance"] == seeker["performance"]
    assert Decimal(str(values["rating_change"])) == Decimal(seeker["rating_change"])
    assert client_for(None).get(f"/e/{event.slug}/rating/report.pdf").status_code == 404


def _pdf_text(body: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(body)).pages)


def test_the_printed_standings_carry_them_when_the_director_shows_them(
    event: Event, client_for: Any, director: Any
) -> None:
    anonymous = client_for(None)
    seeker = _player(event, 1)
    hidden = anonymous.get(f"/e/{event.slug}/standings/print/").content.decode()
    assert '">±</th>' not in hidden
    hidden_codes = hidden.split("<thead>")[1].split("</thead>")[0].count('<th class="num">')
    norm_conditions_set(event=event, kind="ordinary", standings_columns=True, user=director)
    sheet = anonymous.get(f"/e/{event.slug}/standings/print/").content.decode()
    assert '">±</th>' in sheet and '">Perf</th>' in sheet
    cells = f'<td class="num">{_signed(seeker["rating_change"])}</td>'
    cells += f'<td class="num">{seeker["performance"]}</td>'
    assert cells in _row(sheet, "Seeker, Nora")
    # The two columns take the room of two tie-breaks (the sheet is upright A4).
    codes = sheet.split("<thead>")[1].split("</thead>")[0].count('<th class="num">')
    # Pl, No. and Pts, then the tie-breaks: five of them at most, three beside the two columns.
    assert codes - 3 == min(hidden_codes - 3, 3)
    pdf = _pdf_text(anonymous.get(f"/e/{event.slug}/standings/print.pdf").content)
    assert "Perf" in pdf and str(seeker["performance"]) in pdf


def test_the_wall_chart_carries_them_when_the_director_shows_them(
    event: Event, client_for: Any, director: Any
) -> None:
    anonymous = client_for(None)
    seeker = _player(event, 1)
    hidden = anonymous.get(f"/e/{event.slug}/crosstable/print/").content.decode()
    assert '">±</th>' not in hidden and '">Perf</th>' not in hidden
    hidden_pdf = _pdf_text(anonymous.get(f"/e/{event.slug}/crosstable/print.pdf").content)
    assert "Perf" not in hidden_pdf
    norm_conditions_set(event=event, kind="ordinary", standings_columns=True, user=director)
    sheet = anonymous.get(f"/e/{event.slug}/crosstable/print/").content.decode()
    cells = f'<td class="num">{_signed(seeker["rating_change"])}</td>'
    cells += f'<td class="num">{seeker["performance"]}</td>'
    assert '">±</th>' in sheet and cells in _row(sheet, "Seeker, Nora")
    pdf = _pdf_text(anonymous.get(f"/e/{event.slug}/crosstable/print.pdf").content)
    assert "Perf" in pdf and str(seeker["performance"]) in pdf


def test_a_name_typed_as_a_formula_stays_text_in_the_downloads(
    event: Event, client_for: Any, director: Any
) -> None:
    """OWASP "CSV Injection": the apostrophe in CSV, the quote prefix in XLSX."""
    player = Player.objects.get(event=event, start_no=1)
    typed = "=1+1 Nora"
    player_update(
        event=event,
        start_no=1,
        fields=PlayerFields(
            name=typed,
            federation=player.federation,
            fide_id=player.fide_id,
            rating=player.rating,
            title=player.title,
            sex=player.sex,
        ),
        expected_version=None,
        user=director,
    )
    text = client_for(None).get(f"/e/{event.slug}/rating/report.csv").content.decode()
    names = [row["name"] for row in csv.DictReader(io.StringIO(text))]
    assert f"'{typed}" in names and typed not in names
    body = client_for(None).get(f"/e/{event.slug}/rating/report.xlsx").content
    sheet = load_workbook(io.BytesIO(body)).active
    cell = next(cell for row in sheet.iter_rows() for cell in row if cell.value == typed)
    assert cell.data_type == "s" and cell.quotePrefix
