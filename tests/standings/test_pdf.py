"""The standings as a PDF (standings/pdf.py and its view): the printable sheet's rows, public,
linked from the standings page and the printable sheet."""

from __future__ import annotations

from io import BytesIO

import pytest
from django.urls import reverse
from pypdf import PdfReader

from events.models import Event, Game, Player
from events.services import event_version_bump, game_result_record
from standings.compute import StandingsTable
from standings.pdf import standings_pdf
from standings.presenters import printed_standings

pytestmark = pytest.mark.django_db

NAMES = {1: "Zoë Ødegård-Łukasiewicz", 2: "王浩", 3: "藤井 そうた", 4: "김철수"}


@pytest.fixture
def played(event) -> Event:  # type: ignore[no-untyped-def]
    for start_no, name in NAMES.items():
        Player.objects.filter(event=event, start_no=start_no).update(name=name)
    event_version_bump(event=event)
    for board, result in ((1, "1-0"), (2, "0-1")):
        game = Game.objects.get(round__event=event, board=board)
        game_result_record(game_id=game.pk, result=result, expected_version=None, user=None)
    return event


def pdf_text(content: bytes) -> str:
    return " ".join(page.extract_text() for page in PdfReader(BytesIO(content)).pages)


def test_the_pdf_holds_the_standings_in_every_script(played, client_for):
    response = client_for(None).get(reverse("standings:print_pdf", args=[played.slug]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == f'inline; filename="{played.slug}-standings.pdf"'
    text = pdf_text(response.content)
    assert "Standings after round 1 of 3" in text
    assert all(name in text for name in NAMES.values())
    # The winners share first place on one point.
    assert "1–2" in text and "Zoë Ødegård-Łukasiewicz" in text


def test_the_pages_link_to_the_pdf(played, client_for):
    pdf = reverse("standings:print_pdf", args=[played.slug])
    client = client_for(None)
    assert pdf.encode() in client.get(reverse("standings:standings", args=[played.slug])).content
    assert pdf.encode() in client.get(reverse("standings:print", args=[played.slug])).content


def test_after_round_zero_and_an_unknown_event(event, client_for):
    response = client_for(None).get(reverse("standings:print_pdf", args=[event.slug]))
    assert response.status_code == 200
    assert "Standings after round 0 of 3" in pdf_text(response.content)
    assert client_for(None).get("/e/no-such-event/standings/print.pdf").status_code == 404


@pytest.mark.parametrize(
    ("codes", "left_out"),
    [
        pytest.param(("BH/C1", "BH", "DE", "WIN"), (), id="fide-swiss-default"),
        pytest.param(("BH/C1", "BH", "DE", "WIN", "SB", "ARO"), ("ARO",), id="six-codes"),
    ],
)
def test_the_page_stays_upright_with_the_tiebreak_columns_that_fit(codes, left_out):
    """Issue 20: an upright A4 sheet shows the tie-breaks that fit, in the regulation's
    order, and names the ones left out."""
    table = StandingsTable(event="e", after_round=1, tiebreaks=codes, rows=(), rounds=5)
    content = standings_pdf(event_name="Café Open", table=table, printed=printed_standings(table))
    box = PdfReader(BytesIO(content)).pages[0].mediabox
    assert box.width < box.height
    text = pdf_text(content)
    assert all(code in text for code in codes)  # the subtitle names them all
    if left_out:
        assert f"Not printed for want of width: {', '.join(left_out)}" in text
    else:
        assert "Not printed" not in text
