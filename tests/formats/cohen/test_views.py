"""Cohen Chess screens (formats/cohen/views.py) with personas: the public stage overview and
its htmx partial, the director's start and one confirmed advance, 403 for arbiters and
visitors, the login redirect for anonymous users (seed 002)."""

from __future__ import annotations

import random

import pytest

from events.services import access_grant
from formats.cohen.models import CohenStage
from formats.cohen.services import cohen_stage_start
from tests.formats.cohen.test_event import cohen_event, play_open_games

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(director, arbiter, other_arbiter):  # type: ignore[no-untyped-def]
    event = cohen_event(director, 10)
    access_grant(event=event, username=arbiter.username, role="arbiter", user=director)
    other = cohen_event(director, 8, name="Other Club")
    access_grant(event=other, username=other_arbiter.username, role="arbiter", user=director)
    return event


def test_director_starts_the_event_from_the_page(club, director, client_for) -> None:
    client = client_for(director)
    page = client.get(f"/e/{club.slug}/cohen/").content.decode()
    assert "Divide the pools and start the first stage" in page and "needs 10 rounds" in page
    response = client.post(f"/e/{club.slug}/cohen/start/")
    assert response.status_code == 302
    assert CohenStage.objects.filter(event=club, name="first_round").exists()


def test_public_page_shows_pools_and_no_director_forms(club, director, client_for) -> None:
    cohen_stage_start(event=club, user=director)
    page = client_for(None).get(f"/e/{club.slug}/cohen/")
    assert page.status_code == 200
    body = page.content.decode()
    assert "Pool A" in body and "Pool B" in body and "<form" not in body.split("<main>")[1]
    partial = client_for(None).get(f"/e/{club.slug}/cohen/", HTTP_HX_REQUEST="true")
    assert partial.content.decode().lstrip().startswith('<div id="cohen-stages"')
    again = client_for(None).get(f"/e/{club.slug}/cohen/", HTTP_IF_NONE_MATCH=page["ETag"])
    assert again.status_code == 304


def test_director_advances_with_one_confirmed_action(club, director, client_for) -> None:
    cohen_stage_start(event=club, user=director)
    play_open_games(club, random.Random(9), director)
    client = client_for(director)
    page = client.get(f"/e/{club.slug}/cohen/").content.decode()
    assert "Advance the First round (pools)" in page and "on, pool winner" in page
    url = f"/e/{club.slug}/cohen/first_round/advance/"
    unconfirmed = client.post(url, follow=True)
    assert "tick the confirmation" in unconfirmed.content.decode()
    assert not CohenStage.objects.filter(event=club, name="elite_eight").exists()
    club.refresh_from_db()
    response = client.post(
        url, {"confirm": "yes", "version": club.results_version, "lot": "seed"}, follow=True
    )
    assert response.status_code == 200
    assert CohenStage.objects.get(event=club, name="first_round").status == "advanced"
    assert CohenStage.objects.filter(event=club, name="elite_eight").exists()
    assert "Elite Eight" in response.content.decode()


def test_wrong_people_cannot_start_or_advance(
    club, director, arbiter, other_arbiter, visitor, client_for
) -> None:
    for user in (arbiter, other_arbiter, visitor):
        assert client_for(user).post(f"/e/{club.slug}/cohen/start/").status_code == 403
    anonymous = client_for(None).post(f"/e/{club.slug}/cohen/start/")
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
    assert not CohenStage.objects.filter(event=club).exists()
    cohen_stage_start(event=club, user=director)
    play_open_games(club, random.Random(2), director)
    url = f"/e/{club.slug}/cohen/first_round/advance/"
    for user in (arbiter, other_arbiter, visitor):
        assert client_for(user).post(url, {"confirm": "yes", "lot": "seed"}).status_code == 403
    assert client_for(None).post(url, {"confirm": "yes"}).status_code == 302
    assert CohenStage.objects.get(event=club, name="first_round").status == "playing"
    assert client_for(None).get("/e/no-such-club/cohen/").status_code == 404
