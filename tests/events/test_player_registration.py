"""Registering players from a TRF file on the players page (issue 2, "register players")."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from events.models import Event, Player
from events.services import EventFields, event_create
from tests.conftest import TIEBREAK_DATA

pytestmark = pytest.mark.django_db


def trf_upload(text: str) -> SimpleUploadedFile:
    return SimpleUploadedFile("players.trf", text.encode(), content_type="text/plain")


@pytest.fixture
def empty_event(director) -> Event:
    return event_create(
        fields=EventFields(name="Club RR", system="round_robin", time_control="rapid", rounds=5),
        director=director,
    )


def test_the_players_of_a_trf_file_are_registered_with_their_start_numbers(
    empty_event, director, client_for
):
    text = (TIEBREAK_DATA / "held_round_robin.trf").read_text()
    response = client_for(director).post(
        f"/e/{empty_event.slug}/players/", {"trf": "1", "trf_file": trf_upload(text)}
    )
    assert response.status_code == 302
    names = dict(Player.objects.filter(event=empty_event).values_list("start_no", "name"))
    assert names[1] == "Alyx" and names[6] == "Helene" and len(names) == 6


def test_a_file_into_a_list_with_players_is_numbered_after_the_last_one(
    empty_event, director, client_for
):
    """Issue 20: it used to fail with "start number 4 is already taken"."""
    Player.objects.create(event=empty_event, start_no=4, name="Already here")
    text = (TIEBREAK_DATA / "held_round_robin.trf").read_text()
    response = client_for(director).post(
        f"/e/{empty_event.slug}/players/", {"trf": "1", "trf_file": trf_upload(text)}
    )
    assert response.status_code == 302
    names = dict(Player.objects.filter(event=empty_event).values_list("start_no", "name"))
    file_order = ["Alyx", "Bruno", "Charline", "David", "Franck", "Helene"]
    assert names == {4: "Already here", **dict(enumerate(file_order, start=5))}


def test_a_malformed_file_is_refused_inline_naming_the_line(empty_event, director, client_for):
    response = client_for(director).post(
        f"/e/{empty_event.slug}/players/",
        {"trf": "1", "trf_file": trf_upload("001    x broken line\n")},
    )
    assert response.status_code == 200
    assert "line 1" in response.content.decode()
    assert not Player.objects.filter(event=empty_event).exists()
