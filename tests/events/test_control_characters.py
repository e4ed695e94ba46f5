"""Issue 28, "A name with a line break becomes records of its own": text with a control
character (a line break, a tab, NUL, escape, Unicode's line separator) is refused wherever it
comes in, with one line that names the character and where it is, and nothing is changed
(``events.limits.text_check``); and whatever text is stored, every line of the TRF the product
writes is a record of its own kind, and the file imports again (``events.trf``).

Each way in is used as people use it: the event's and the players' forms, the pasted list,
the late entry, the team registration, ``import_event`` and ``import_trf``.
"""

from __future__ import annotations

import html
import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from events.models import Event, Player
from tests.conftest import export_document, make_event
from tests.events.test_player_views import edit_form, edit_url
from tests.events.test_trf import player

pytestmark = pytest.mark.django_db

EVIL = "Evil, Eve\n012 Injected Open"
REFUSED_LINE_BREAK = "A line break (U+000A) is not allowed: one line of printable characters."


def _players(event: Event) -> list[tuple[int, str]]:
    return list(Player.objects.filter(event=event).values_list("start_no", "name"))


def test_the_player_forms_refuse_a_line_break_at_the_field(event, client_for, director):  # type: ignore[no-untyped-def]
    client = client_for(director)
    before = _players(event)
    three = Player.objects.get(event=event, start_no=3)
    edited = client.post(edit_url(event, 3), edit_form(three, name=EVIL))
    added = client.post(reverse("events:players", args=[event.slug]), {"add": "1", "name": EVIL})
    late = client.post(
        reverse("draws:swiss_late_entry", args=[event.slug]),
        {"name": "Late, Larry", "fide_id": "123\t456", "missed": "zero"},
        follow=True,
    )
    for response in (edited, added):
        assert response.status_code == 200
        assert REFUSED_LINE_BREAK in response.content.decode()
    assert "A tab (U+0009) is not allowed" in late.content.decode()
    assert _players(event) == before


def test_the_event_form_refuses_control_characters_in_its_texts(event, client_for, director):  # type: ignore[no-untyped-def]
    document = export_document(event.slug)
    form = {
        "name": "Spring Open\u2028042 2001/01/01",
        "system": "swiss",
        "time_control": "classical",
        "rounds": "3",
        "preset": "fide-2024",
        "currency": "USD",
        "chief_arbiter": "IA Nordmann\x1b[2J",
        "deputy_arbiters": "FA One\nFA\tTwo",
    }
    response = client_for(director).post(reverse("events:event_edit", args=[event.slug]), form)
    text = response.content.decode()
    assert response.status_code == 200
    assert "A line separator (U+2028) is not allowed" in text
    assert "A control character (U+001B) is not allowed" in text
    assert "line 2: a tab (U+0009) is not allowed" in text
    assert export_document(event.slug) == document


def test_a_pasted_list_names_the_line_whose_cell_holds_a_line_break(event, client_for, director):  # type: ignore[no-untyped-def]
    before = _players(event)
    pasted = 'Aas,NOR,1500\n"Evil, Eve\n012 Injected Open",NOR,1400'
    response = client_for(director).post(
        reverse("events:players", args=[event.slug]), {"paste": "1", "players_csv": pasted}
    )
    assert "line 2, name: a line break (U+000A) is not allowed" in response.content.decode()
    assert _players(event) == before


def test_a_team_and_its_roster_refuse_control_characters(client_for, director):  # type: ignore[no-untyped-def]
    from formats.teams.models import Team

    event = make_event(director, players=0, system="team_swiss")
    url = reverse("teams:register", args=[event.slug])
    client = client_for(director)
    named = client.post(url, {"name": "Oslo\rSK", "roster": "Aas,NOR,1500"})
    roster = client.post(url, {"name": "Oslo SK", "roster": '"Aas\x07",NOR,1500'})
    assert "the team's name: a carriage return (U+000D)" in html.unescape(named.content.decode())
    assert "line 1, name: a control character (U+0007)" in roster.content.decode()
    assert not Team.objects.filter(event=event).exists() and not _players(event)


def _refused_import(command: str, path: Path) -> str:
    before = Event.objects.count()
    with pytest.raises(CommandError) as refused:
        call_command(command, str(path), stdout=StringIO(), stderr=StringIO())
    assert Event.objects.count() == before
    message = str(refused.value)
    assert "\n" not in message
    return message


def test_import_event_refuses_a_name_with_a_line_break(event, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    document = export_document(event.slug)
    document["slug"] = "evil-copy"
    document["players"][1]["name"] = EVIL
    path = tmp_path / "evil.json"
    path.write_text(json.dumps(document))
    assert "players[1], name: a line break (U+000A) is not allowed" in _refused_import(
        "import_event", path
    )
    document["players"][1]["name"] = "Eve"
    document["name"] = "Open\x85"
    path.write_text(json.dumps(document))
    assert "the event's name: a line break (U+0085)" in _refused_import("import_event", path)


def test_import_trf_refuses_a_control_character_in_a_name(tmp_path: Path) -> None:
    path = tmp_path / "evil.trf"
    lines = ["012 Open", player(1, "", name="Evil,\x0bEve"), player(2, "")]
    path.write_text("\n".join(lines) + "\n")
    message = _refused_import("import_trf", path)
    assert "the file's player 1, name: a control character (U+000B)" in message


def test_a_windows_1252_file_is_read_as_such_not_as_control_characters(tmp_path: Path) -> None:
    """Reading it as Latin-1 would make ``Š`` (0x8A) the control character U+008A."""
    path = tmp_path / "cp1252.trf"
    text = f"012 Open\n{player(1, '', name='Šarac, Žana')}\n"
    path.write_bytes(text.encode("cp1252"))
    call_command("import_trf", str(path), "--slug", "cp", stdout=StringIO(), stderr=StringIO())
    assert _players(Event.objects.get(slug="cp")) == [(1, "Šarac, Žana")]


RECORDS = {"001", "012", "022", "032", "042", "052", "062", "072", "082", "092", "102", "112"}
RECORDS |= {"122", "132", "XXR", "XXC", "XXA", "XXP", "BBW", "BBD", "BBL", "BBZ", "BBF", "BBU"}


def test_whatever_text_is_stored_every_line_of_the_trf_is_a_record(
    director, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    """Text stored before inputs refused control characters (here written to the database
    directly): the writer keeps each field in its columns and each record on its line."""
    event = make_event(director, name="Open", players=4)
    hostile = {
        1: ("Evil, Eve\n012 Injected Open\n001    9", "IM\n", "123\r4567", "NOR"),
        2: ("Tab\tby\x0btab\x1b[31m red", "\u2028", "", "SWE"),
        3: ("A" * 60 + "\x07", "", "9" * 15, ""),
    }
    for start_no, (name, title, fide_id, federation) in hostile.items():
        Player.objects.filter(event=event, start_no=start_no).update(
            name=name, title=title, fide_id=fide_id, federation=federation
        )
    Event.objects.filter(pk=event.pk).update(
        name="Open\n001    7      Ghost", chief_arbiter="IA\rX", deputy_arbiters=["FA\nY"]
    )
    out = StringIO()
    call_command("export_trf", event.slug, stdout=out)
    text = out.getvalue()
    lines = text.split("\n")
    assert lines.pop() == ""
    assert all(line[:3] in RECORDS for line in lines), lines
    players = [line for line in lines if line.startswith("001")]
    assert [int(line[4:8]) for line in players] == [1, 2, 3, 4]
    assert all(len(line) <= 89 and line[47] == " " for line in players)  # name in 15-47
    path = tmp_path / "written.trf"
    path.write_text(text)
    call_command("import_trf", str(path), "--slug", "again", stdout=StringIO(), stderr=StringIO())
    again = dict(_players(Event.objects.get(slug="again")))
    assert again[1] == "Evil, Eve 012 Injected Open 001"
    assert again[3] == "A" * 33
