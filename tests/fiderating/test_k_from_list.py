"""K from the rating list (issue 30, "the rating list's K where it has one"): FIDE's list gives
each rating its own K (B.02 7.1.2, 8.3.3); the import keeps it, registering from the list
carries the K of the event's rating to the player, the rating report uses it before 8.3.3's
rules and after a K the arbiter sets, and the pages say where each K comes from.

The list is three players of FIDE's published legacy list (tests/ratings/test_parsers.py,
``LEGACY``, with its provenance): A E M, Doshtagir, rated 1840 (K 40) in standard and 1836 (K
20) in rapid, born 1974, whom 8.3.3's rules alone would give K 20; Aaberg, Anton, 2393 (K 10).
"""

from __future__ import annotations

import datetime as dt
import json
import re
from decimal import Decimal
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client

from events.models import Event, Game, Player
from events.services import (
    EventFields,
    PairingInput,
    event_create,
    game_result_record,
    round_pairings_set,
)
from ratings.models import RatingEntry
from tests.conftest import export_document, import_copy
from tests.ratings.conftest import import_list
from tests.ratings.test_parsers import LEGACY, LEGACY_HEADER, text

pytestmark = pytest.mark.django_db


@pytest.fixture
def legacy_list(db: Any) -> None:
    import_list(text(LEGACY_HEADER, *LEGACY), name="FIDE")


def _event(director: Any, time_control: str = "classical", slug: str = "k-open") -> Event:
    event = event_create(
        fields=EventFields(
            name=f"K Open {time_control}",
            system="swiss",
            time_control=time_control,
            rounds=5,
            start_date=dt.date(2026, 3, 7),
            preset="fide-2024",
        ),
        director=director,
        slug=slug,
    )
    return event


def _register_from_list(client: Client, event: Event, query: str) -> Player:
    """The rating list page's hit, registered with its button (the fields the list fills)."""
    url = f"/e/{event.slug}/players/rating-list/"
    body = client.get(url, {"q": query}).content.decode()
    form = re.search(r'<form method="post" action="([^"]+)">(.*?)</form>', body, re.S)
    assert form is not None
    fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', form.group(2)))
    assert client.post(form.group(1), {**fields, "add": "1"}).status_code == 302
    return Player.objects.get(event=event, fide_id=fields["fide_id"])


def test_the_import_keeps_each_rating_s_k(legacy_list: None) -> None:
    entry = RatingEntry.objects.get(fide_id="10207538")
    assert (entry.standard, entry.standard_k, entry.rapid, entry.rapid_k) == (1840, 40, 1836, 20)
    assert (entry.blitz, entry.blitz_k) == (1860, 20)
    aaberg = RatingEntry.objects.get(fide_id="1701991")
    assert (aaberg.standard_k, aaberg.rapid_k, aaberg.blitz_k) == (10, None, None)


@pytest.mark.parametrize(
    ("time_control", "rating", "k"), [("classical", 1840, 40), ("rapid", 1836, 20)]
)
def test_registering_from_the_list_carries_the_k_of_the_event_s_rating(
    legacy_list: None, director: Any, client_for: Any, time_control: str, rating: int, k: int
) -> None:
    event = _event(director, time_control)
    player = _register_from_list(client_for(director), event, "a e m")
    assert (player.rating, player.k_listed) == (rating, k)


def _report(slug: str) -> dict[int, dict[str, Any]]:
    out = StringIO()
    call_command("rating_report", slug, "--format", "json", stdout=out)
    return {p["start_no"]: p for p in json.loads(out.getvalue())["players"]}


@pytest.fixture
def played(legacy_list: None, director: Any, client_for: Any) -> Event:
    """A E M (1840, K 40 listed) beats Aaberg (2393, K 10 listed) in round 1."""
    event = _event(director)
    client = client_for(director)
    aem = _register_from_list(client, event, "a e m")
    aaberg = _register_from_list(client, event, "aaberg")
    round_pairings_set(
        event=event,
        round_no=1,
        pairings=[PairingInput(1, aem.start_no, aaberg.start_no)],
        user=director,
    )
    game = Game.objects.get(round__event=event)
    game_result_record(game_id=game.pk, result="1-0", expected_version=game.version, user=director)
    event.refresh_from_db()
    return event


def test_the_report_uses_the_list_s_k_before_b02_8_3_3_rules(played: Event) -> None:
    # 8.3.1: the difference 553 counts as 400; table 8.1.2: 392-411 gives the higher-rated 0.92
    # and the lower-rated 0.08. A E M: 40 x (1 - 0.08); the rules alone would say K 20.
    report = _report(played.slug)
    aem = next(p for p in report.values() if p["fide_id"] == "10207538")
    aaberg = next(p for p in report.values() if p["fide_id"] == "1701991")
    assert (aem["k"], aem["expected"], Decimal(aem["rating_change"])) == (
        40,
        "0.08",
        Decimal("36.8"),
    )
    assert (aaberg["k"], aaberg["expected"], Decimal(aaberg["rating_change"])) == (
        10,
        "0.92",
        Decimal("-9.2"),
    )


def test_the_pages_say_where_k_comes_from_and_the_arbiter_s_k_comes_first(
    played: Event, director: Any, client_for: Any
) -> None:
    client = client_for(director)
    aem = Player.objects.get(event=played, fide_id="10207538")
    url = f"/e/{played.slug}/rating/players/{aem.start_no}/"
    assert (
        'K 40 <span class="muted">from the rating list</span>' in client.get(url).content.decode()
    )
    client.post(f"/e/{played.slug}/rating/manage/k/{aem.start_no}/", {"k": "20"})
    page = client.get(url).content.decode()
    assert 'K 20 <span class="muted">set by the arbiter</span>' in page
    manage = client.get(f"/e/{played.slug}/rating/manage/").content.decode()
    row = manage.split(f'id="k-{aem.start_no}"')[1].split("</tr>")[0]
    assert '<td class="k-why">set by the arbiter</td>' in row
    assert _report(played.slug)[aem.start_no]["k"] == 20
    client.post(f"/e/{played.slug}/rating/manage/k/{aem.start_no}/", {"k": ""})
    assert _report(played.slug)[aem.start_no]["k"] == 40


def test_without_the_list_s_k_the_rules_decide_and_say_so(
    played: Event, director: Any, client_for: Any
) -> None:
    aem = Player.objects.get(event=played, fide_id="10207538")
    form = {
        "start_no": str(aem.start_no),
        "name": aem.name,
        "federation": aem.federation,
        "rating": str(aem.rating),
        "fide_id": aem.fide_id,
        "sex": aem.sex,
        "birth_year": str(aem.birth_year),
        "k_listed": "",
        "version": str(aem.version),
    }
    client = client_for(director)
    assert client.post(f"/e/{played.slug}/players/{aem.start_no}/", form).status_code == 302
    page = client.get(f"/e/{played.slug}/rating/players/{aem.start_no}/").content.decode()
    assert 'K 20 <span class="muted">by B.02 8.3.3: rated under 2400' in page
    assert _report(played.slug)[aem.start_no]["k"] == 20


@pytest.mark.parametrize("hostile", ["1000000000", "1e9", "41", "0", "-5"])
def test_a_listed_k_out_of_bounds_is_refused_on_the_player_s_form(
    played: Event, director: Any, client_for: Any, hostile: str
) -> None:
    aem = Player.objects.get(event=played, fide_id="10207538")
    form = {
        "start_no": str(aem.start_no),
        "name": aem.name,
        "rating": str(aem.rating),
        "fide_id": aem.fide_id,
        "k_listed": hostile,
        "version": str(aem.version),
    }
    page = client_for(director).post(f"/e/{played.slug}/players/{aem.start_no}/", form)
    assert page.status_code == 200  # the form again, with its error
    aem.refresh_from_db()
    assert aem.k_listed == 40


def test_the_listed_k_is_edited_with_an_audit_entry_and_kept_by_the_exchange_format(
    played: Event, director: Any, client_for: Any, tmp_path: Path
) -> None:
    from events.models import AuditEntry

    aem = Player.objects.get(event=played, fide_id="10207538")
    form = {
        "start_no": str(aem.start_no),
        "name": aem.name,
        "federation": aem.federation,
        "rating": str(aem.rating),
        "fide_id": aem.fide_id,
        "sex": aem.sex,
        "birth_year": str(aem.birth_year),
        "k_listed": "20",
        "version": str(aem.version),
    }
    client_for(director).post(f"/e/{played.slug}/players/{aem.start_no}/", form)
    entry = AuditEntry.objects.filter(event=played, action="player.update").latest("pk")
    assert (entry.before, entry.after) == ({"k_listed": 40}, {"k_listed": 20})
    copy = import_copy(export_document(played.slug), tmp_path)
    assert Player.objects.get(event=copy, fide_id="10207538").k_listed == 20


def test_players_registered_without_k_take_it_from_the_list_on_the_director_s_page(
    director: Any, client_for: Any, arbiter: Any
) -> None:
    """Players pasted in (as a TRF or another program's list brings them) before the list is
    imported: the director's button takes each one's K from the list, by FIDE id."""
    from events.models import AuditEntry
    from events.services import PlayerFields, players_register_many

    event = _event(director)
    players_register_many(
        event=event,
        players=[
            PlayerFields(name="A E M, Doshtagir", fide_id="10207538", rating=1840),
            PlayerFields(name="Aaberg, Anton", fide_id="1701991", rating=2393),
            PlayerFields(name="Nobody, Listed", fide_id="99999999", rating=1500),
            PlayerFields(name="No Id, Player", rating=1500),
        ],
        user=director,
    )
    url = f"/e/{event.slug}/rating/manage/k-from-list/"
    client = client_for(director)
    refused = client.post(url, follow=True).content.decode()
    assert "no rating list is loaded to take K from" in refused
    import_list(text(LEGACY_HEADER, *LEGACY), name="FIDE")
    page = client.post(url, follow=True).content.decode()
    assert "K from the rating list FIDE: 2 player(s) changed; 1 not on it." in page
    ks = dict(Player.objects.filter(event=event).values_list("name", "k_listed"))
    assert ks == {
        "A E M, Doshtagir": 40,
        "Aaberg, Anton": 10,
        "Nobody, Listed": None,
        "No Id, Player": None,
    }
    entry = AuditEntry.objects.get(event=event, action="player.k_listed")
    assert entry.after == [{"start_no": 1, "k_listed": 40}, {"start_no": 2, "k_listed": 10}]
    again = client.post(url, follow=True).content.decode()
    assert "0 player(s) changed" in again
    assert AuditEntry.objects.filter(event=event, action="player.k_listed").count() == 1
    assert client_for(arbiter).post(url).status_code in (403, 404)
