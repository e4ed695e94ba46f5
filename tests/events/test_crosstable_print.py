"""The crosstable's wall chart: the A4 sheet (landscape when the rounds need the width) and its
PDF, public, from the same rows as the crosstable page, which links to both."""

from __future__ import annotations

from io import BytesIO

import pytest
from django.urls import reverse
from pypdf import PdfReader

from events.models import Event, Game, Player
from events.services import event_version_bump, game_result_record
from tests.conftest import make_event

pytestmark = pytest.mark.django_db

NAMES = {1: "Zoë Ødegård-Łukasiewicz", 2: "王浩", 3: "藤井 そうた", 4: "김철수"}


@pytest.fixture
def played(event) -> Event:  # type: ignore[no-untyped-def]
    """The shared 4-player event, named in four scripts, with round 1 played (1-0, ½-½)."""
    for start_no, name in NAMES.items():
        Player.objects.filter(event=event, start_no=start_no).update(name=name)
    event_version_bump(event=event)
    for board, result in ((1, "1-0"), (2, "1/2-1/2")):
        game = Game.objects.get(round__event=event, board=board)
        game_result_record(game_id=game.pk, result=result, expected_version=None, user=None)
    return event


def test_the_crosstable_page_links_to_the_wall_chart_and_its_pdf(played, client_for):
    content = client_for(None).get(reverse("events:crosstable", args=[played.slug])).content
    for name in ("events:crosstable_print", "events:crosstable_pdf", "standings:hall"):
        assert reverse(name, args=[played.slug]).encode() in content
    assert b'class="crosstable"' in content and b'class="name"' in content


def test_the_wall_chart_sheet_shows_every_cell_without_navigation(played, client_for):
    page = client_for(None).get(reverse("events:crosstable_print", args=[played.slug]))
    assert page.status_code == 200
    content = page.content.decode()
    assert "event-nav" not in content and "css/print." in content
    assert all(name in content for name in NAMES.values())
    assert '<td class="cell">2w1</td>' in content  # player 1 beat 2 with White
    assert '<td class="cell">4w½</td>' in content
    assert 'class="sheet"' in content  # three rounds: upright


def test_many_rounds_turn_the_sheet_to_landscape(director, client_for):
    event = make_event(director, rounds=9)
    content = client_for(None).get(reverse("events:crosstable_print", args=[event.slug])).content
    assert b'class="sheet landscape"' in content and b"R9" in content


def test_the_pdf_holds_the_same_rows(played, client_for):
    response = client_for(None).get(reverse("events:crosstable_pdf", args=[played.slug]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == f'inline; filename="{played.slug}-crosstable.pdf"'
    text = " ".join(p.extract_text() for p in PdfReader(BytesIO(response.content)).pages)
    assert all(name in text for name in NAMES.values())
    assert "2w1" in text and "1b0" in text and "Crosstable" in text


def test_unknown_event_is_404(client_for):
    for name in ("events:crosstable_print", "events:crosstable_pdf"):
        assert client_for(None).get(reverse(name, args=["no-such-event"])).status_code == 404


@pytest.fixture
def draft_round(director) -> tuple[Event, int]:  # type: ignore[no-untyped-def]
    """A 5-player Swiss: round 1 paired, published and played; round 2 paired by the engine
    and still under the director's review, with its pairing-allocated bye. Returns the event
    and the start number of round 2's bye (5 players: round 1 has a bye too)."""
    from draws.swiss import services as swiss_services
    from events.models import Bye

    event = make_event(director, players=5, rounds=5)
    swiss_services.swiss_round_pair(event=event, round_no=1, user=director)
    swiss_services.swiss_round_publish(event=event, round_no=1, user=director)
    for game in Game.objects.filter(round__event=event, round__number=1):
        game_result_record(game_id=game.pk, result="0-1", expected_version=None, user=director)
    swiss_services.swiss_round_pair(event=event, round_no=2, user=director)
    bye = Bye.objects.get(round__event=event, round__number=2)
    return event, bye.player.start_no


def test_nothing_of_a_round_under_review_is_on_the_public_crosstable(draft_round, client_for):  # type: ignore[no-untyped-def]
    """Issue 19: the draft round's bye and its point showed on the crosstable (HTML and PDF)
    while the standings said 0. Round 2 is blank for everyone, and the points are round 1's."""
    event, bye_start_no = draft_round
    page = client_for(None).get(reverse("events:crosstable", args=[event.slug]))
    rows = {row.start_no: row for row in page.context["rows"]}
    assert rows[bye_start_no].cells[1] == "–"  # not "1 bye"
    assert all(row.cells[1] == "–" for row in rows.values()), [r.cells for r in rows.values()]
    standings = client_for(None).get(reverse("standings:standings", args=[event.slug]))
    points = {row.start_no: row.points for row in standings.context["table"].rows}
    assert {n: row.points for n, row in rows.items()} == points
    assert page.content.decode().count("1 bye") == 1  # round 1's, published
    for sheet in ("events:crosstable_print", "events:crosstable_pdf"):
        response = client_for(None).get(reverse(sheet, args=[event.slug]))
        if sheet.endswith("pdf"):
            text = " ".join(p.extract_text() for p in PdfReader(BytesIO(response.content)).pages)
        else:
            text = response.content.decode()
        assert text.count("1 bye") == 1, sheet
