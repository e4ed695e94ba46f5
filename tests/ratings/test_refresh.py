"""Updating the registered players from a newer rating list (ratings/refresh.py; the players
page's *Update from a rating list* card, ``ratings:refresh``, and ``manage.py
refresh_ratings``): the preview as the director sees it, Apply changing exactly that with one
audit entry, and every refusal in one line with nothing changed."""

from __future__ import annotations

import datetime as dt
import html
import re
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from events.models import AuditEntry, Event, Player
from events.services import (
    EventFields,
    PairingInput,
    PlayerFields,
    access_grant,
    event_create,
    players_register_many,
    round_pairings_set,
)
from ratings.models import RatingList
from ratings.services import rating_list_delete
from tests.conftest import export_document, import_copy
from tests.ratings.conftest import import_list
from tests.ratings.test_parsers import SINGLE, SINGLE_HEADER, text

pytestmark = pytest.mark.django_db

# Registered weeks before the list; the values the list gives (tests/ratings/conftest.py's
# SMALL_LIST, FIDE's own sample lines for Carlsen and Ding) written out by hand below.
ENTRANTS = [
    PlayerFields(name="Carlsen, Magnus", federation="NOR", fide_id="1503014", rating=2830),
    PlayerFields(
        name="Lindqvist, Ebba Maria",  # as she wants it: the list says "Lindqvist, Ebba"
        federation="SWE",
        fide_id="24681012",
        rating=2050,
        title="WCM",
        sex="w",
        birth_date=dt.date(2004, 3, 1),
    ),
    PlayerFields(name="Nobody, Known", federation="NOR", fide_id="99999999", rating=1500),
    PlayerFields(name="Local, Lars", federation="NOR", rating=1400),
    PlayerFields(
        name="Ding, Liren",
        federation="CHN",
        fide_id="8603677",
        rating=2723,
        title="GM",
        sex="m",
        birth_year=1992,
        k_listed=10,
    ),
]

# What Apply must leave, by start number: (rating, title, K, federation, birth year, sex, name).
REFRESHED = {
    1: (2823, "GM", 10, "NOR", 1990, "m", "Carlsen, Magnus"),
    2: (2105, "WFM", None, "SWE", 2004, "w", "Lindqvist, Ebba Maria"),
    3: (1500, "", None, "NOR", None, "", "Nobody, Known"),
    4: (1400, "", None, "NOR", None, "", "Local, Lars"),
    5: (2723, "GM", 10, "CHN", 1992, "m", "Ding, Liren"),
}


def fields(player: Player) -> tuple[object, ...]:
    return (
        player.rating,
        player.title,
        player.k_listed,
        player.federation,
        player.birth_year,
        player.sex,
        player.name,
    )


def state(event: Event) -> dict[int, tuple[object, ...]]:
    return {p.start_no: fields(p) for p in Player.objects.filter(event=event)}


@pytest.fixture
def entrants(director, arbiter) -> Event:  # type: ignore[no-untyped-def]
    """A classical Swiss, five players registered, no round paired yet."""
    event = event_create(
        fields=EventFields(name="Autumn Open", system="swiss", time_control="classical", rounds=5),
        director=director,
    )
    players_register_many(event=event, players=ENTRANTS, user=director)
    access_grant(event=event, username=arbiter.username, role="arbiter", user=director)
    return event


def url(event: Event) -> str:
    return f"/e/{event.slug}/players/rating-refresh/"


def cells(body: str) -> list[list[str]]:
    """The preview table's rows, each cell's text."""
    table = re.search(r'<table id="refresh-changes">(.*?)</table>', body, re.S)
    assert table is not None, body
    rows = re.findall(r"<tr>(.*?)</tr>", table.group(1), re.S)
    return [
        [
            " ".join(re.sub(r"<[^>]+>", "", c).split())
            for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, re.S)
        ]
        for row in rows
    ]


def digest_of(body: str) -> str:
    found = re.search(r'name="digest" value="([0-9a-f]+)"', body)
    assert found is not None, body
    return found.group(1)


def preview(client, event: Event, rating_list: RatingList, **headers: str):  # type: ignore[no-untyped-def]
    return client.get(url(event), {"list": rating_list.pk}, **headers)


def test_the_players_page_has_the_card_that_says_names_stay(
    fide_list, entrants, director, client_for
) -> None:
    body = client_for(director).get(f"/e/{entrants.slug}/players/").content.decode()
    assert "Update from a rating list" in body
    assert "Names are not changed" in body
    assert f'<option value="{fide_list.pk}" selected>' in body


def test_the_preview_shows_each_change_old_to_new_and_changes_nothing(
    fide_list, entrants, director, client_for
) -> None:
    before = state(entrants)
    response = preview(client_for(director), entrants, fide_list, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    body = response.content.decode()
    assert body.lstrip().startswith('<div id="rating-refresh-preview"')  # the partial alone
    assert cells(body) == [
        ["No.", "Name", "Rating", "Title", "K", "Federation", "Year of birth", "Sex"],
        ["1", "Carlsen, Magnus", "2830 → 2823", "— → GM", "— → 10", "", "— → 1990", "— → m"],
        ["2", "Lindqvist, Ebba Maria", "2050 → 2105", "WCM → WFM", "", "", "", ""],
    ]
    assert "Not on FIDE (they keep what they have): 3. Nobody, Known." in body
    assert "No FIDE id to look up (they keep what they have): 4. Local, Lars." in body
    assert state(entrants) == before
    assert not AuditEntry.objects.filter(event=entrants, action="player.rating_refresh").exists()


def test_without_javascript_the_preview_is_a_page_with_the_card(
    fide_list, entrants, director, client_for
) -> None:
    body = preview(client_for(director), entrants, fide_list).content.decode()
    assert "<h1>Update from a rating list</h1>" in body
    assert len(cells(body)) == 3 and "Apply" in body


def test_apply_changes_exactly_the_preview_with_one_audit_entry(
    fide_list, entrants, director, client_for
) -> None:
    client = client_for(director)
    digest = digest_of(preview(client, entrants, fide_list).content.decode())
    versions = dict(Player.objects.filter(event=entrants).values_list("start_no", "version"))
    response = client.post(url(entrants), {"list": fide_list.pk, "digest": digest}, follow=True)
    assert response.redirect_chain[-1][0] == f"/e/{entrants.slug}/players/#rating-refresh"
    assert "Updated 2 player(s) from FIDE: 7 field(s) changed." in response.content.decode()
    assert state(entrants) == REFRESHED
    after = dict(Player.objects.filter(event=entrants).values_list("start_no", "version"))
    assert {n for n in after if after[n] != versions[n]} == {1, 2}
    entry = AuditEntry.objects.get(event=entrants, action="player.rating_refresh")
    assert entry.user == director
    log = client.get(f"/e/{entrants.slug}/audit/").content.decode()
    assert "Updated 2 player(s) from FIDE: 7 field(s) changed." in log
    assert entry.before == {
        "rating_list": "FIDE",
        "players": [
            {
                "start_no": 1,
                "rating": 2830,
                "title": "",
                "k_listed": None,
                "birth_year": None,
                "sex": "",
            },
            {"start_no": 2, "rating": 2050, "title": "WCM"},
        ],
    }
    assert entry.after["players"] == [
        {
            "start_no": 1,
            "rating": 2823,
            "title": "GM",
            "k_listed": 10,
            "birth_year": 1990,
            "sex": "m",
        },
        {"start_no": 2, "rating": 2105, "title": "WFM"},
    ]


def test_apply_is_refused_when_the_players_changed_since_the_preview(
    fide_list, entrants, director, client_for
) -> None:
    client = client_for(director)
    digest = digest_of(preview(client, entrants, fide_list).content.decode())
    Player.objects.filter(event=entrants, start_no=2).update(rating=2060)  # an edit meanwhile
    before = state(entrants)
    response = client.post(url(entrants), {"list": fide_list.pk, "digest": digest}, follow=True)
    assert "The players or the list changed since the preview; nothing was changed" in (
        response.content.decode()
    )
    assert state(entrants) == before
    assert not AuditEntry.objects.filter(event=entrants, action="player.rating_refresh").exists()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"list": "", "digest": "0" * 64}, "Choose a rating list."),
        ({"list": "abc"}, "Choose one of the rating lists."),
        ({"list": "-1"}, "Choose one of the rating lists."),
        ({"list": str(2**40)}, "Choose one of the rating lists."),
        ({"list": "999999", "digest": "0" * 64}, "There is no rating list 999999"),
        ({"list": "LIST", "digest": "0" * 64}, "The players or the list changed since"),
        ({"list": "LIST"}, "The players or the list changed since"),
        ({"list": "LIST", "digest": "x" * 10_000}, "Ensure this value has at most 64"),
    ],
    ids=["no-list", "text", "negative", "huge", "unknown", "forged-digest", "no-digest", "long"],
)
def test_a_forged_post_is_refused_in_one_line_and_changes_nothing(
    fide_list, entrants, director, client_for, data, message
) -> None:
    data = {k: str(fide_list.pk) if v == "LIST" else v for k, v in data.items()}
    before = state(entrants)
    response = client_for(director).post(url(entrants), data, follow=True)
    assert message in response.content.decode().replace("&#x27;", "'")
    assert state(entrants) == before
    assert not AuditEntry.objects.filter(event=entrants, action="player.rating_refresh").exists()


def test_a_list_without_the_event_s_rating_is_refused(
    fide_list, entrants, director, client_for
) -> None:
    blitz = import_list(text(SINGLE_HEADER, *SINGLE), name="FIDE blitz", kind="blitz")
    body = html.unescape(
        preview(client_for(director), entrants, blitz.rating_list).content.decode()
    )
    assert "FIDE blitz, Jan 2023 carries no standard ratings, the event's" in body
    assert "refresh-changes" not in body


def test_a_list_deleted_after_the_preview_is_refused(
    fide_list, entrants, director, manager, client_for
) -> None:
    client = client_for(director)
    digest = digest_of(preview(client, entrants, fide_list).content.decode())
    before, list_id = state(entrants), fide_list.pk
    rating_list_delete(rating_list=fide_list, user=manager)
    response = client.post(url(entrants), {"list": list_id, "digest": digest}, follow=True)
    assert f"There is no rating list {list_id} (deleted, or never loaded)" in (
        response.content.decode()
    )
    assert state(entrants) == before


def test_a_list_replaced_after_the_preview_is_refused(
    fide_list, entrants, director, client_for
) -> None:
    from tests.ratings.conftest import SMALL_LIST

    client = client_for(director)
    digest = digest_of(preview(client, entrants, fide_list).content.decode())
    import_list(SMALL_LIST, name="FIDE")  # the same name: replaced as a whole
    before = state(entrants)
    replaced = RatingList.objects.get(name="FIDE")
    response = client.post(url(entrants), {"list": replaced.pk, "digest": digest}, follow=True)
    assert "changed since the preview" in response.content.decode()
    assert state(entrants) == before


@pytest.mark.parametrize("who", ["arbiter", "other_arbiter", "visitor"])
def test_only_the_event_s_directors_preview_or_apply(
    fide_list, entrants, director, client_for, request, who
) -> None:
    digest = digest_of(preview(client_for(director), entrants, fide_list).content.decode())
    person = request.getfixturevalue(who)
    before = state(entrants)
    assert preview(client_for(person), entrants, fide_list).status_code == 403
    posted = client_for(person).post(url(entrants), {"list": fide_list.pk, "digest": digest})
    assert posted.status_code == 403
    assert client_for(None).get(url(entrants)).status_code == 302  # to the login page
    assert state(entrants) == before


def test_refused_once_round_one_is_paired(fide_list, entrants, director, client_for) -> None:
    client = client_for(director)
    digest = digest_of(preview(client, entrants, fide_list).content.decode())
    round_pairings_set(
        event=entrants,
        round_no=1,
        pairings=[PairingInput(1, 1, 2), PairingInput(2, 3, 4)],
        user=director,
    )
    before = state(entrants)
    line = "Ratings are fixed once round 1 is paired: the pairing numbers rest on them"
    assert line in client.get(f"/e/{entrants.slug}/players/").content.decode()
    assert line in preview(client, entrants, fide_list).content.decode()
    response = client.post(url(entrants), {"list": fide_list.pk, "digest": digest}, follow=True)
    assert line in response.content.decode()
    assert state(entrants) == before


def test_refused_on_a_closed_event(fide_list, entrants, director, client_for) -> None:
    client = client_for(director)
    digest = digest_of(preview(client, entrants, fide_list).content.decode())
    Event.objects.filter(pk=entrants.pk).update(status="finished")
    before = state(entrants)
    response = client.post(url(entrants), {"list": fide_list.pk, "digest": digest}, follow=True)
    assert response.redirect_chain[-1] == (f"/e/{entrants.slug}/", 303)
    assert "This event is closed (final)" in response.content.decode()
    assert "This event is closed (final)" in preview(client, entrants, fide_list).content.decode()
    assert state(entrants) == before


def test_the_exchange_carries_the_refreshed_players(
    fide_list, entrants, director, client_for, tmp_path
) -> None:
    client = client_for(director)
    digest = digest_of(preview(client, entrants, fide_list).content.decode())
    client.post(url(entrants), {"list": fide_list.pk, "digest": digest})
    copy = import_copy(export_document(entrants.slug), tmp_path)
    assert state(copy) == state(entrants)
    assert state(copy)[1] == (2823, "GM", 10, "NOR", 1990, "m", "Carlsen, Magnus")


# -- The command ---------------------------------------------------------------------------


def run(*args: str) -> str:
    out = StringIO()
    call_command("refresh_ratings", *args, stdout=out)
    return out.getvalue()


def test_the_command_prints_the_preview_and_changes_nothing(fide_list, entrants) -> None:
    before = state(entrants)
    printed = run(entrants.slug, "--list", str(fide_list.pk))
    assert "    2. Lindqvist, Ebba Maria: rating 2050 -> 2105; title WCM -> WFM" in printed
    assert "Not on the list: 3. Nobody, Known" in printed
    assert "No FIDE id to look up: 4. Local, Lars" in printed
    assert "2 player(s), 7 field(s) to change." in printed
    assert "Nothing changed: run again with --apply" in printed
    assert state(entrants) == before


def test_the_command_applies_with_one_audit_entry(fide_list, entrants) -> None:
    printed = run(entrants.slug, "--list", str(fide_list.pk), "--apply")
    assert printed.rstrip().endswith("Updated 2 player(s) from FIDE: 7 field(s) changed.")
    assert state(entrants)[2] == REFRESHED[2]
    entry = AuditEntry.objects.get(event=entrants, action="player.rating_refresh")
    assert entry.user is None
    assert "Nothing to update from FIDE" in run(
        entrants.slug, "--list", str(fide_list.pk), "--apply"
    )
    assert AuditEntry.objects.filter(event=entrants, action="player.rating_refresh").count() == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["no-such-event", "--list", "1"], "no event with the slug 'no-such-event'"),
        (["x" * 5000, "--list", "1"], "no event with the slug"),
        (["SLUG", "--list", "999999"], "There is no rating list 999999"),
        (["SLUG", "--list", "999999"], "choose one of the lists. Lists: LIST (FIDE)."),
        (["SLUG", "--list", "-3"], "There is no rating list -3"),
        (["SLUG", "--list", str(2**63)], f"There is no rating list {2**63}"),
    ],
)
def test_the_command_refuses_in_one_line(fide_list, entrants, args, message) -> None:
    args = [entrants.slug if a == "SLUG" else a for a in args]
    message = message.replace("LIST", str(fide_list.pk))
    before = state(entrants)
    with pytest.raises(CommandError, match=re.escape(message)) as refused:
        run(*args, "--apply")
    assert "\n" not in str(refused.value)
    assert state(entrants) == before


def test_a_long_preview_comes_in_pages_and_apply_changes_every_page(
    fide_list, entrants, director, client_for, monkeypatch
) -> None:
    monkeypatch.setattr("ratings.views.REFRESH_PAGE", 1)
    client = client_for(director)
    first = preview(client, entrants, fide_list).content.decode()
    second = client.get(url(entrants), {"list": fide_list.pk, "page": 2}).content.decode()
    assert [row[1] for row in cells(first)[1:]] == ["Carlsen, Magnus"]
    assert [row[1] for row in cells(second)[1:]] == ["Lindqvist, Ebba Maria"]
    assert "Players 2–2 of 2 who change." in second
    assert digest_of(first) == digest_of(second)
    client.post(url(entrants), {"list": fide_list.pk, "digest": digest_of(second)})
    assert state(entrants) == REFRESHED


def test_a_rapid_event_takes_the_list_s_rapid_rating_and_its_k(
    fide_list, director, client_for
) -> None:
    rapid = event_create(
        fields=EventFields(name="Rapid Cup", system="swiss", time_control="rapid", rounds=7),
        director=director,
    )
    players_register_many(event=rapid, players=ENTRANTS[:2], user=director)
    rows = cells(preview(client_for(director), rapid, fide_list).content.decode())
    assert rows[1][:5] == ["1", "Carlsen, Magnus", "2830 → 2801", "— → GM", "— → 10"]
    assert rows[2][:4] == ["2", "Lindqvist, Ebba Maria", "2050 → 2140", "WCM → WFM"]
