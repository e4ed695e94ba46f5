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
