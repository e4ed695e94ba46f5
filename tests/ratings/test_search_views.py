"""Registering from a rating list through the pages (ratings/views.py ``search``, the players
page's type-ahead block): who may search, what a name or an id finds, the htmx partial, and a
hit's button registering the player with the list's data."""

from __future__ import annotations

import re

import pytest

from events.models import Player
from events.services import EventFields, event_create
from tests.ratings.conftest import EBBA, import_list, registered_as
from tests.ratings.test_parsers import SINGLE, SINGLE_HEADER, text

pytestmark = pytest.mark.django_db


def url(event) -> str:  # type: ignore[no-untyped-def]
    return f"/e/{event.slug}/players/rating-list/"


def hit_names(response) -> list[str]:  # type: ignore[no-untyped-def]
    body = response.content.decode()
    return [
        " ".join(re.sub(r"<[^>]+>", "", name).split())
        for name in re.findall(r'<span class="hit-name">(.*?)</span>', body, re.S)
    ]


def search(client, event, query: str, **params: object) -> list[str]:  # type: ignore[no-untyped-def]
    response = client.get(url(event), {"q": query, **params}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    return hit_names(response)


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("carlsen", ["Carlsen, Henrik", "GM Carlsen, Magnus"]),  # a surname's start: A–Z
        ("carlsen m", ["GM Carlsen, Magnus"]),
        ("Carlsen, Magnus", ["GM Carlsen, Magnus"]),
        ("CARLS", ["Carlsen, Henrik", "GM Carlsen, Magnus"]),
        ("magnus carlsen", ["GM Carlsen, Magnus"]),  # first name first: the list's order tried
        ("henrik carl", ["Carlsen, Henrik"]),
        ("magnus", ["Magnusson, Carl"]),  # a name begins so: the names' starts only
        (
            "magn carl",
            ["GM Carlsen, Magnus", "Magnusson, Carl"],
        ),  # none does: words, strongest first
        ("nikola", ["IM Ðukić, Nikola"]),  # a first name alone
        ("oye asmund", ["Øye, Åsmund"]),
        ("Øye", ["Øye, Åsmund"]),
        ("dukic", ["IM Ðukić, Nikola"]),
        ("nikola duk", ["IM Ðukić, Nikola"]),
        ("1503014", ["GM Carlsen, Magnus"]),  # a FIDE id
        ("150301", ["GM Carlsen, Magnus", "Carlsen, Henrik"]),  # its first digits
        ("arlsen", []),  # inside a word is not the start of one
        ("zz", []),
        ("", []),
    ],
)
def test_a_name_or_an_id_as_typed_finds_the_players(
    fide_list, event, director, client_for, query, expected
) -> None:  # type: ignore[no-untyped-def]
    assert search(client_for(director), event, query) == expected


def test_the_hits_show_the_rating_of_the_event_s_time_control(
    fide_list, director, client_for
) -> None:
    rapid = event_create(
        fields=EventFields(name="Rapid Cup", system="swiss", time_control="rapid", rounds=7),
        director=director,
    )
    body = client_for(director).get(url(rapid), {"q": "lindqvist"}).content.decode()
    assert 'data-rating-fill="{&quot;name&quot;: &quot;Lindqvist, Ebba&quot;' in body
    assert "&quot;rating&quot;: &quot;2140&quot;" in body  # her rapid rating, not 2105


def test_the_registration_picks_the_list_with_the_event_s_rating(
    fide_list, director, client_for
) -> None:
    import_list(text(SINGLE_HEADER, *SINGLE), filename="blitz_rating_list.txt")
    blitz = event_create(
        fields=EventFields(name="Blitz Night", system="swiss", time_control="blitz", rounds=9),
        director=director,
    )
    classical = event_create(
        fields=EventFields(name="Classic", system="swiss", time_control="classical", rounds=9),
        director=director,
    )
    client = client_for(director)
    # The blitz list is January 2023's, FIDE's combined list is undated: the dated list
    # carrying the event's rating comes first.
    assert search(client, blitz, "kalshyan") == ["A K, Kalshyan"]
    assert search(client, classical, "kalshyan") == []  # FIDE (combined) has no such player
    chosen = client.get(f"/e/{blitz.slug}/players/").content.decode()
    assert re.search(r'<option value="\d+" selected>FIDE blitz, Jan 2023</option>', chosen)
    # The director may pick another list.
    assert search(client, blitz, "carlsen m", list=fide_list.pk) == ["GM Carlsen, Magnus"]


def test_the_full_page_works_without_javascript_and_the_partial_is_the_hits_alone(
    fide_list, event, director, client_for
) -> None:
    client = client_for(director)
    page = client.get(url(event), {"q": "carlsen m"})
    body = page.content.decode()
    assert "<h1>Register from a rating list</h1>" in body and "<html" in body
    assert 'action="/e/' in body and 'name="add" value="1"' in body
    partial = client.get(url(event), {"q": "carlsen m"}, HTTP_HX_REQUEST="true")
    text_of_partial = partial.content.decode()
    assert text_of_partial.lstrip().startswith('<div id="rating-hits"')
    assert "<html" not in text_of_partial


def test_a_hit_s_button_registers_the_player_with_the_list_s_data(
    fide_list, event, director, client_for
) -> None:
    client = client_for(director)
    body = client.get(url(event), {"q": "lindqvist"}).content.decode()
    form = re.search(r'<form method="post" action="([^"]+)">(.*?)</form>', body, re.S)
    assert form is not None
    fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', form.group(2)))
    response = client.post(form.group(1), {**fields, "add": "1"})
    assert response.status_code == 302
    player = Player.objects.get(event=event, name="Lindqvist, Ebba")
    assert registered_as(player) == EBBA
    again = client.get(url(event), {"q": "lindqvist"}).content.decode()
    assert f"already No. {player.start_no}" in again


def test_a_word_search_that_runs_too_long_asks_for_more_of_the_name(
    fide_list, event, director, client_for, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    from django.db.models.expressions import RawSQL

    from ratings import selectors

    slow = selectors._word_matches

    def sleepy(entries, words, order):  # type: ignore[no-untyped-def]
        return slow(entries.annotate(nap=RawSQL("pg_sleep(0.2)", [])), words, order)

    monkeypatch.setattr(selectors, "WORD_QUERY_MS", 50)
    monkeypatch.setattr(selectors, "_word_matches", sleepy)
    response = client_for(director).get(url(event), {"q": "magn carl"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert (
        '<p class="error" role="alert">Too many names hold these words: type more of the name, '
        "the surname first.</p>"
    ) in response.content.decode()
    assert search(client_for(director), event, "carlsen m") == ["GM Carlsen, Magnus"]  # still


def test_a_too_long_search_is_refused_in_one_line(fide_list, event, director, client_for) -> None:
    response = client_for(director).get(url(event), {"q": "x" * 101}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert '<p class="error" role="alert">Search with at most 100 characters.</p>' in (
        response.content.decode()
    )


def test_the_players_page_offers_the_type_ahead(fide_list, event, director, client_for) -> None:
    body = client_for(director).get(f"/e/{event.slug}/players/").content.decode()
    assert 'id="rating-search"' in body and f'hx-get="{url(event)}"' in body
    assert '<form method="post" class="card" id="player-add">' in body
    assert re.search(r"js/rating-pick\.(\w+\.)?js", body)


def test_without_a_list_the_players_page_says_where_to_import_one(
    event, director, client_for
) -> None:
    body = client_for(director).get(f"/e/{event.slug}/players/").content.decode()
    assert "No rating list yet" in body and 'href="/rating-lists/"' in body


@pytest.mark.parametrize(
    ("who", "status"), [("arbiter", 403), ("visitor", 403), ("other_arbiter", 403)]
)
def test_only_the_event_s_director_searches(
    fide_list, event, request, client_for, who, status
) -> None:  # type: ignore[no-untyped-def]
    user = request.getfixturevalue(who)
    assert client_for(user).get(url(event), {"q": "carlsen"}).status_code == status


def test_an_anonymous_visitor_is_sent_to_log_in(fide_list, event, client_for) -> None:
    response = client_for(None).get(url(event), {"q": "carlsen"})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
