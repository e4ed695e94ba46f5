"""The hall screen (/e/SLUG/hall/): the latest published round's pairings with the results so
far, the standings, the QR code of the event's public page; the htmx region alone for a
refresh, which stops once the event is final; public, like every spectator page."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from events.models import Event, EventStatus, Game, Round
from events.qr import qr_svg
from events.services import (
    PairingInput,
    event_version_bump,
    game_result_record,
    round_pairings_set,
)
from tests.conftest import make_event

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
SITE_URL = "https://chess.example.org"


@pytest.fixture(autouse=True)
def site_url(settings):  # type: ignore[no-untyped-def]
    settings.SITE_URL = SITE_URL


def hall(event: Event) -> str:
    return reverse("standings:hall", args=[event.slug])


def play_round_one(event: Event) -> None:
    for board, result in ((1, "1-0"), (2, "1/2-1/2")):
        game = Game.objects.get(round__event=event, board=board)
        game_result_record(game_id=game.pk, result=result, expected_version=None, user=None)


def test_a_forged_host_header_never_reaches_the_qr_code(event, client_for, settings):  # type: ignore[no-untyped-def]
    """One request with Host evil:6666 (where any host gets through) renders the page the shared
    cache then gives every spectator: its QR code must still be the site's (issue 19)."""
    settings.ALLOWED_HOSTS = ["*"]
    url = f"{SITE_URL}/e/{event.slug}/"
    first = client_for(None).get(hall(event), HTTP_HOST="evil:6666").content.decode()
    later = client_for(None).get(hall(event)).content.decode()
    for content in (first, later):
        assert qr_svg(url, title=f"QR code: {url}") in content
        assert "evil" not in content


def test_the_current_round_and_the_qr_code_of_the_public_page(event, client_for):
    first = Game.objects.get(round__event=event, board=1)
    game_result_record(game_id=first.pk, result="1-0", expected_version=None, user=None)
    page = client_for(None).get(hall(event))
    assert page.status_code == 200
    content = page.content.decode()
    assert 'id="hall-pairings"' in content and "Round 1" in content
    assert "1 of 2 results" in content
    assert re.search(r"1\. Player 1</td><td class=\"result\">1-0</td><td>2\. Player 2", content)
    assert re.search(r"3\. Player 3</td><td class=\"result\">–</td><td>4\. Player 4", content)
    # Round 1 is not complete: no standings yet, and the page says when they come.
    assert "The standings appear once the first round is complete." in content
    url = f"{SITE_URL}/e/{event.slug}/"
    assert qr_svg(url, title=f"QR code: {url}") in content and url in content
    assert "js/hall." in content and "<script>" not in content  # the CSP: no inline script
    assert 'data-rotate-seconds="15"' in content
    assert 'hx-trigger="every 20s"' in content


def test_standings_after_the_last_complete_round(event, client_for):
    play_round_one(event)
    content = client_for(None).get(hall(event)).content.decode()
    assert 'id="hall-standings"' in content and "after round 1 of 3" in content
    standings = content[content.index('id="hall-standings"') :]
    places = re.findall(r'<tr><td class="num">([^<]+)</td><td>(\d+)\. ', standings)
    assert places == [("1", "1"), ("2–3", "3"), ("2–3", "4"), ("4", "2")]


def test_a_round_under_review_stays_off_the_screen(event, client_for, director):
    play_round_one(event)
    round_pairings_set(
        event=event,
        round_no=2,
        pairings=[PairingInput(1, 3, 1), PairingInput(2, 2, 4)],
        user=director,
    )
    Round.objects.filter(event=event, number=2).update(published=False)
    event_version_bump(event=event)
    content = client_for(None).get(hall(event)).content.decode()
    assert "Round 1" in content and "Round 2" not in content


def test_before_any_round_only_the_standings_panel(director, client_for):
    event = make_event(director, name="Quiet Open")
    content = client_for(None).get(hall(event)).content.decode()
    assert 'id="hall-pairings"' not in content and 'id="hall-standings"' in content


def test_htmx_refresh_is_the_region_alone_and_stops_when_the_event_is_final(event, client_for):
    play_round_one(event)
    region = client_for(None).get(hall(event), **HTMX).content.decode()
    assert region.lstrip().startswith('<main id="hall"') and "<html" not in region
    assert "hx-get" in region
    Event.objects.filter(pk=event.pk).update(status=EventStatus.FINISHED)
    event_version_bump(event=event)
    final = client_for(None).get(hall(event)).content.decode()
    assert "hx-get" not in final and 'id="hall-standings"' in final


def test_unchanged_screen_answers_304(event, client_for):
    client = client_for(None)
    first = client.get(hall(event), **HTMX)
    assert client.get(hall(event), HTTP_IF_NONE_MATCH=first["ETag"], **HTMX).status_code == 304


def test_everyone_sees_it_and_an_unknown_event_is_404(event, client_for, visitor, director):
    for who in (None, visitor, director):
        assert client_for(who).get(hall(event)).status_code == 200
    assert client_for(None).get("/e/no-such-event/hall/").status_code == 404


def test_the_public_pages_link_to_the_hall_screen(event, client_for):
    play_round_one(event)
    client = client_for(None)
    for page in (
        reverse("standings:standings", args=[event.slug]),
        reverse("events:crosstable", args=[event.slug]),
        reverse("events:round_detail", args=[event.slug, 1]),
        reverse("events:event_detail", args=[event.slug]),  # the leaders block
    ):
        assert hall(event).encode() in client.get(page).content, page


def test_a_team_event_shows_its_standings_alone(director, client_for):
    """A GNOT event has matches, not games: the screen shows what the standings say."""
    from tests.formats.gnot.helpers import seeded

    event = seeded(director, teams=16, name="GNOT Hall")
    page = client_for(None).get(hall(event))
    assert page.status_code == 200
    assert b'id="hall-pairings"' not in page.content and b'id="hall-standings"' in page.content
