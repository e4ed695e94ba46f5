"""A player whose year of birth alone is known (registered from a rating list, which publishes
only the year): no date is invented, and every export carries the year (issue 20).

The players page takes the year; the JSON exchange format writes ``birth_year`` when there is
no date, and reads it back; TRF16 writes ``YYYY/00/00`` in the birth date columns (70–79) and
reads the year back; the migration fills the year from the dates already stored.
"""

from __future__ import annotations

import datetime as dt
import io
import json

import jsonschema
import pytest
from django.apps import apps
from django.core.management import call_command

from events.exchange import event_import_document
from events.imports import event_import_trf
from events.models import Player
from events.services import PlayerFields, players_register_many
from tests.conftest import REPO

pytestmark = pytest.mark.django_db

SCHEMA = json.loads((REPO / "docs" / "exchange-format.schema.json").read_text())


@pytest.fixture
def registered(event, director):  # type: ignore[no-untyped-def]
    """Two more players in the conftest event: one with a year only, one with a date."""
    players_register_many(
        event=event,
        players=[
            PlayerFields(name="Year, Only", fide_id="24681012", birth_year=2004),
            PlayerFields(name="Full, Date", birth_date=dt.date(1990, 11, 30)),
        ],
        user=director,
    )
    return {p.name: p for p in Player.objects.filter(event=event)}


def test_the_players_page_registers_a_year_without_a_date(event, director, client_for) -> None:
    response = client_for(director).post(
        f"/e/{event.slug}/players/", {"add": "1", "name": "Lindqvist, Ebba", "birth_year": "2004"}
    )
    assert response.status_code == 302
    player = Player.objects.get(event=event, name="Lindqvist, Ebba")
    assert (player.birth_year, player.birth_date) == (2004, None)
    page = client_for(director).get(f"/e/{event.slug}/players/").content.decode()
    assert '<td class="hide-sm">2004</td>' in page


def test_a_date_gives_its_year(registered) -> None:  # type: ignore[no-untyped-def]
    assert registered["Full, Date"].birth_year == 1990


def test_a_year_that_contradicts_the_date_is_refused_inline(event, director, client_for) -> None:
    response = client_for(director).post(
        f"/e/{event.slug}/players/",
        {"add": "1", "name": "Two, Ages", "birth_year": "1990", "birth_date": "1991-05-02"},
    )
    assert response.status_code == 200
    assert "born 1991-05-02 but the year of birth says 1990" in response.content.decode()
    assert not Player.objects.filter(event=event, name="Two, Ages").exists()


def export(slug: str) -> dict:  # type: ignore[type-arg]
    out = io.StringIO()
    call_command("export_event", slug, stdout=out)
    return json.loads(out.getvalue())


def test_the_exchange_format_writes_the_year_only_when_there_is_no_date(event, registered) -> None:  # type: ignore[no-untyped-def]
    document = export(event.slug)
    jsonschema.validate(document, SCHEMA)
    by_name = {p["name"]: p for p in document["players"]}
    assert by_name["Year, Only"]["birth_date"] is None
    assert by_name["Year, Only"]["birth_year"] == 2004
    assert by_name["Full, Date"]["birth_date"] == "1990-11-30"
    assert "birth_year" not in by_name["Full, Date"]
    assert "birth_year" not in by_name["Player 1"]


def test_export_import_export_keeps_the_year(event, registered, director) -> None:  # type: ignore[no-untyped-def]
    first = export(event.slug)
    copy = event_import_document(text=json.dumps(first), user=director, slug="copy-of-spring")
    assert Player.objects.get(event=copy, name="Year, Only").birth_year == 2004
    second = export(copy.slug)
    assert {k: v for k, v in second.items() if k != "slug"} == {
        k: v for k, v in first.items() if k != "slug"
    }


@pytest.mark.parametrize("year", [1849, 2101, "1990"])
def test_the_exchange_format_refuses_a_year_that_is_not_one(event, director, year) -> None:  # type: ignore[no-untyped-def]
    document = export(event.slug)
    document["players"][0]["birth_year"] = year
    from events.errors import ImportFailed

    with pytest.raises(ImportFailed, match=r"players\[0\]\.birth_year"):
        event_import_document(text=json.dumps(document), user=director, slug="bad-year")


def test_trf_writes_the_year_in_the_birth_date_columns_and_reads_it_back(
    event, registered, director
) -> None:  # type: ignore[no-untyped-def]
    out = io.StringIO()
    call_command("export_trf", event.slug, stdout=out)
    lines = {line[14:47].strip(): line for line in out.getvalue().splitlines() if line[:3] == "001"}
    assert lines["Year, Only"][69:79] == "2004/00/00"  # columns 70-79: no day, no month
    assert lines["Full, Date"][69:79] == "1990/11/30"
    assert lines["Player 1"][69:79].strip() == ""
    copy = event_import_trf(text=out.getvalue(), user=director, slug="trf-copy")
    players = {p.name: p for p in Player.objects.filter(event=copy)}
    assert (players["Year, Only"].birth_year, players["Year, Only"].birth_date) == (2004, None)
    assert players["Full, Date"].birth_date == dt.date(1990, 11, 30)
    assert players["Player 1"].birth_year is None


def test_the_migration_fills_the_year_from_the_dates_already_stored(event) -> None:  # type: ignore[no-untyped-def]
    from importlib import import_module

    Player.objects.filter(event=event, start_no=1).update(birth_date=dt.date(1975, 3, 4))
    Player.objects.filter(event=event).update(birth_year=None)  # as before the migration
    import_module("events.migrations.0005_player_birth_year").year_from_date(apps, None)
    years = dict(Player.objects.filter(event=event).values_list("start_no", "birth_year"))
    assert years == {1: 1975, 2: None, 3: None, 4: None}
