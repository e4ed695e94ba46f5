"""The players' pages (issue 20): a player's edit page and its delete form, the duplicate
confirmation on the players page and the Swiss page's late entry, the withdrawn mark on every
list. Personas from tests/conftest.py: the director edits; the arbiter, a visitor and a
stranger to the event get 403, an anonymous visitor the login page, a player who is not there
404.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from draws.swiss.services import withdrawal_record
from events.models import AuditEntry, Event, Game, Player
from events.services import game_result_record

pytestmark = pytest.mark.django_db


def edit_url(event: Event, start_no: int) -> str:
    return reverse("events:player_edit", args=[event.slug, start_no])


def delete_url(event: Event, start_no: int) -> str:
    return reverse("events:player_delete", args=[event.slug, start_no])


def edit_form(player: Player, **changes: str) -> dict[str, str]:
    form = {
        "start_no": str(player.start_no),
        "name": player.name,
        "federation": player.federation,
        "rating": str(player.rating),
        "fide_id": player.fide_id,
        "title": player.title,
        "sex": player.sex,
        "version": str(player.version),
    }
    return {**form, **changes}


def test_personas_on_a_player_s_page(event, client_for, director, arbiter, visitor, other_arbiter):  # type: ignore[no-untyped-def]
    url = edit_url(event, 3)
    page = client_for(director).get(url)
    assert page.status_code == 200
    text = page.content.decode()
    assert 'value="Player 3"' in text and "Correct the player" in text
    assert "has a game in round 1" in text and "withdraw them instead" in text  # no delete
    three = Player.objects.get(event=event, start_no=3)
    for stranger in (arbiter, visitor, other_arbiter):
        assert client_for(stranger).get(url).status_code == 403
        response = client_for(stranger).post(url, edit_form(three, name="Hacked"))
        assert response.status_code == 403
        response = client_for(stranger).post(delete_url(event, 3), {"confirm_delete": "on"})
        assert response.status_code == 403
    assert client_for(None).get(url).status_code == 302  # to the login page
    assert client_for(director).get(edit_url(event, 99)).status_code == 404
    assert client_for(director).get(edit_url(event, 10**30)).status_code == 404  # no overflow
    huge = edit_form(three, previous_rank=str(10**12))
    refused = client_for(director).post(url, huge)
    assert refused.status_code == 200 and "less than or equal to 9999" in refused.content.decode()
    assert Player.objects.get(event=event, start_no=3).name == "Player 3"


def test_the_director_corrects_a_player_and_the_list_shows_it(event, client_for, director):  # type: ignore[no-untyped-def]
    client = client_for(director)
    three = Player.objects.get(event=event, start_no=3)
    response = client.post(edit_url(event, 3), edit_form(three, name="Hansen, Ola", rating="2050"))
    assert response.status_code == 302 and response.url == reverse(
        "events:players", args=[event.slug]
    )
    three.refresh_from_db()
    assert (three.name, three.rating, three.version) == ("Hansen, Ola", 2050, 2)
    listed = client.get(response.url).content.decode()
    assert "Hansen, Ola" in listed and "Saved 3. Hansen, Ola." in listed
    assert AuditEntry.objects.filter(event=event, action="player.update").count() == 1


def test_a_stale_edit_form_shows_the_player_as_they_are_now(event, client_for, director):  # type: ignore[no-untyped-def]
    client = client_for(director)
    three = Player.objects.get(event=event, start_no=3)
    client.post(edit_url(event, 3), edit_form(three, rating="2050"))
    stale = client.post(edit_url(event, 3), edit_form(three, name="Typo"), follow=True)
    text = stale.content.decode()
    assert "Someone else changed 3. Player 3" in text
    assert 'value="2050"' in text  # the form now shows the other change
    assert Player.objects.get(pk=three.pk).name == "Player 3"


def test_a_form_without_a_version_cannot_overwrite(event, client_for, director):  # type: ignore[no-untyped-def]
    three = Player.objects.get(event=event, start_no=3)
    form = edit_form(three, name="Blind")
    del form["version"]
    client_for(director).post(edit_url(event, 3), form)
    assert Player.objects.get(pk=three.pk).name == "Player 3"


def test_a_refused_edit_keeps_what_was_typed_and_says_why(event, client_for, director):  # type: ignore[no-untyped-def]
    three = Player.objects.get(event=event, start_no=3)
    response = client_for(director).post(
        edit_url(event, 3), edit_form(three, start_no="9", name="Renamed")
    )
    text = response.content.decode()
    assert response.status_code == 200
    assert "start numbers are fixed once round 1 is paired" in text
    assert 'value="Renamed"' in text
    assert Player.objects.get(pk=three.pk).name == "Player 3"


def test_a_name_twice_asks_for_a_confirmation_then_saves(event, client_for, director):  # type: ignore[no-untyped-def]
    client = client_for(director)
    url = reverse("events:players", args=[event.slug])
    first = client.post(url, {"add": "1", "name": "Player 2", "rating": "1500"})
    text = first.content.decode()
    assert first.status_code == 200
    assert "may be the same person as 2. Player 2" in text
    assert 'type="checkbox" name="confirm_duplicates"' in text
    assert 'value="1500"' in text  # what was typed is still there
    assert event.players.count() == 4
    second = client.post(
        url, {"add": "1", "name": "Player 2", "rating": "1500", "confirm_duplicates": "on"}
    )
    assert second.status_code == 302
    assert event.players.filter(name="Player 2").count() == 2


def test_a_pasted_list_is_appended_and_its_problems_named_by_line(event, client_for, director):  # type: ignore[no-untyped-def]
    client = client_for(director)
    url = reverse("events:players", args=[event.slug])
    refused = client.post(
        url, {"paste": "1", "players_csv": "Aas,NOR,1500,555\nBo,NOR,1400,666\nCe,NOR,1300,555"}
    )
    assert "line 3: FIDE id 555 is also on line 1" in refused.content.decode()
    assert event.players.count() == 4
    client.post(url, {"paste": "1", "players_csv": "Aas,NOR,1500,555\nBo,NOR,1400,666"})
    assert dict(event.players.filter(start_no__gt=4).values_list("start_no", "name")) == {
        5: "Aas",
        6: "Bo",
    }


def test_the_director_deletes_a_player_who_has_not_played(event, client_for, director):  # type: ignore[no-untyped-def]
    client = client_for(director)
    client.post(reverse("events:players", args=[event.slug]), {"add": "1", "name": "No Show"})
    page = client.get(edit_url(event, 5)).content.decode()
    assert "Delete No Show" in page
    unconfirmed = client.post(delete_url(event, 5), {"version": "1"}, follow=True)
    assert "Tick the box to confirm" in unconfirmed.content.decode()
    assert event.players.filter(start_no=5).exists()
    done = client.post(delete_url(event, 5), {"version": "1", "confirm_delete": "on"}, follow=True)
    assert "Deleted 5. No Show." in done.content.decode()
    assert not event.players.filter(start_no=5).exists()


def test_a_player_with_a_game_is_not_deleted(event, client_for, director):  # type: ignore[no-untyped-def]
    response = client_for(director).post(
        delete_url(event, 1), {"version": "1", "confirm_delete": "on"}, follow=True
    )
    assert "has a game in round 1" in response.content.decode()
    assert event.players.filter(start_no=1).exists()


def test_a_late_entry_twice_asks_for_a_confirmation(event, client_for, director):  # type: ignore[no-untyped-def]
    client = client_for(director)
    url = reverse("draws:swiss_late_entry", args=[event.slug])
    shown = client.post(url, {"name": "Player 4", "rating": "1400", "missed": "zero"})
    text = shown.content.decode()
    assert shown.status_code == 200 and "may be the same person as 4. Player 4" in text
    assert 'value="1400"' in text
    assert event.players.count() == 4
    client.post(url, {"name": "Player 4", "missed": "zero", "confirm_duplicates": "on"})
    assert event.players.count() == 5


def test_a_withdrawn_player_is_marked_on_every_list(event, client_for, director):  # type: ignore[no-untyped-def]
    for game in Game.objects.filter(round__event=event):
        game_result_record(game_id=game.pk, result="1-0", expected_version=None, user=director)
    withdrawal_record(event=event, start_no=4, after_round=1, user=director)
    mark = "withdrawn after round 1"
    pages = {
        "players": (director, reverse("events:players", args=[event.slug])),
        "standings": (None, reverse("standings:standings", args=[event.slug])),
        "standings as the director": (director, reverse("standings:standings", args=[event.slug])),
        "standings print": (None, reverse("standings:print", args=[event.slug])),
        "pairings": (None, reverse("events:round_detail", args=[event.slug, 1])),
        "hall screen": (None, reverse("standings:hall", args=[event.slug])),
        "event page": (None, reverse("events:event_detail", args=[event.slug])),
    }
    for name, (who, url) in pages.items():
        text = client_for(who).get(url).content.decode()
        assert text.count(mark) >= 1, name
    players = client_for(director).get(pages["players"][1]).content.decode()
    row = players.split('id="player-4"')[1].split("</tr>")[0]
    assert mark in row and mark not in players.split('id="player-3"')[1].split("</tr>")[0]
