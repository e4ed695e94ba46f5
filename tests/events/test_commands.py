"""The stable commands of design brief §4: import_trf, export_trf, import_event, export_event.

TRF round trip is checked against FIDE's own calculator (gacrux, rules-notes): what export_trf
writes must give the same tie-breaks as the original file.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from events.models import AuditEntry, Event, Game, Player
from tests.conftest import REPO, TIEBREAK_DATA

pytestmark = pytest.mark.django_db

TRF_FILES = [
    "held_swiss_5.trf",
    "held_swiss_9.trf",
    "held_round_robin.trf",
    "swiss_with_many_unplayed_rounds.trf",
]
GACRUX_CODES = ["PTS", "BH/C1", "BH", "SB", "WIN", "WON", "BPG", "BWG", "REP", "PS", "ARO", "AOB"]


def run(*args: str) -> str:
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def gacrux_table(path: Path, *, round_robin: bool, workdir: Path) -> str:
    """gacrux's table, run from a directory with no folder named gacrux (rules-notes)."""
    cmd = [
        sys.executable,
        "-m",
        "gacrux.tiebreakchecker",
        "-i",
        str(path),
        "-t",
        *GACRUX_CODES,
        "-d",
        "T",
        "-p" if round_robin else "-s",
    ]
    done = subprocess.run(cmd, cwd=workdir, capture_output=True, text=True, check=True)
    return done.stdout


@pytest.mark.oracle
@pytest.mark.parametrize("name", TRF_FILES)
def test_export_trf_gives_fides_calculator_the_same_tiebreaks(name, tmp_path):
    source = TIEBREAK_DATA / name
    slug = run("import_trf", str(source)).strip().splitlines()[-1]
    exported = tmp_path / "exported.trf"
    exported.write_text(run("export_trf", slug))
    round_robin = Event.objects.get(slug=slug).is_round_robin
    assert gacrux_table(exported, round_robin=round_robin, workdir=tmp_path) == gacrux_table(
        source, round_robin=round_robin, workdir=tmp_path
    )


@pytest.mark.parametrize("name", TRF_FILES)
def test_trf_import_export_import_is_stable(name, tmp_path):
    first = run("export_trf", run("import_trf", str(TIEBREAK_DATA / name)).strip())
    path = tmp_path / "again.trf"
    path.write_text(first)
    second = run("export_trf", run("import_trf", str(path), "--slug", "again").strip())
    assert second == first


def test_import_trf_creates_the_event_and_prints_the_slug_last():
    output = run("import_trf", str(TIEBREAK_DATA / "held_round_robin.trf"), "--slug", "held-rr")
    assert output.strip().splitlines()[-1] == "held-rr"
    event = Event.objects.get(slug="held-rr")
    assert event.system == "round_robin"
    assert Player.objects.filter(event=event).count() == 6
    forfeit = Game.objects.get(round__event=event, round__number=4, result__in=["+/-", "-/+"])
    assert {forfeit.white.start_no, forfeit.black.start_no} == {5, 6}


EXAMPLES = sorted((REPO / "examples").glob("*.json"))


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_json_export_import_export_gives_the_same_document(path, tmp_path):
    slug = run("import_event", str(path)).strip().splitlines()[-1]
    first = json.loads(run("export_event", slug))
    assert first["format"] == "tournament-event/1"
    Event.objects.get(slug=slug).delete()
    again = tmp_path / "again.json"
    again.write_text(json.dumps(first))
    run("import_event", str(again))
    assert json.loads(run("export_event", slug)) == first


def test_json_round_trip_keeps_byes_prizes_playoff_games_and_overrides(tmp_path):
    document = {
        "format": "tournament-event/1",
        "name": "Round Trip",
        "slug": "round-trip",
        "start_date": "2026-04-02",
        "system": "swiss",
        "time_control": "rapid",
        "rounds": 2,
        "regulation": {"preset": "fide-2026", "tiebreaks": ["BH/C1", "SB"]},
        "currency": "EUR",
        "lots_seed": "seed-1",
        "players": [
            {
                "start_no": n,
                "name": f"P{n}",
                "federation": "GER",
                "rating": 1500 + n,
                "fide_id": "",
                "title": "",
                "sex": "w",
                "birth_date": "2001-02-03",
            }
            for n in (1, 2, 3)
        ],
        "games": [
            {"round": 1, "board": 1, "white": 1, "black": 2, "result": "-/+"},
            {"round": 2, "board": 1, "white": 3, "black": 1, "result": None},
        ],
        "byes": [
            {"round": 1, "start_no": 3, "kind": "pairing"},
            {"round": 2, "start_no": 2, "kind": "half"},
        ],
        "prizes": [{"place": 1, "amount": "500"}, {"place": 2, "amount": "250.5"}],
        "playoff_games": [{"stage": 1, "round": 1, "white": 1, "black": 2, "result": "1/2-1/2"}],
    }
    path = tmp_path / "doc.json"
    path.write_text(json.dumps(document))
    slug = run("import_event", str(path)).strip()
    exported = json.loads(run("export_event", slug))
    for key in ("byes", "prizes", "playoff_games", "regulation", "lots_seed", "currency"):
        assert exported[key] == document[key], key
    assert exported["games"][0] == document["games"][0]


def command_fails(*args: str) -> str:
    """Run a command in a real process: exit status and stderr as a user sees them."""
    settings = connection.settings_dict  # the test database, so the schema is there
    url = (
        f"postgres://{settings['USER']}@{settings['HOST'] or '127.0.0.1'}:"
        f"{settings['PORT'] or 5432}/{settings['NAME']}"
    )
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        env={**os.environ, "DATABASE_URL": url},
    )
    assert done.returncode != 0
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, done.stderr
    return lines[0]


def test_bad_trf_exits_non_zero_with_one_line_naming_the_line(tmp_path):
    text = (TIEBREAK_DATA / "held_round_robin.trf").read_text().splitlines()
    text[5] = text[5].replace(" w 1", " w X", 1)  # an unknown result code on line 6
    bad = tmp_path / "bad.trf"
    bad.write_text("\n".join(text) + "\n")
    before = Event.objects.count()
    with pytest.raises(CommandError, match="line 6"):
        call_command("import_trf", str(bad))
    assert Event.objects.count() == before
    assert "line 6" in command_fails("import_trf", str(bad))


BAD_DOCUMENTS = [
    pytest.param("{not json", "invalid JSON", id="invalid-json"),
    pytest.param('{"format": "other/9"}', "format", id="wrong-format"),
    pytest.param(
        {"players": [{"start_no": "one", "name": "A"}]},
        "players[0].start_no",
        id="start-no-not-integer",
    ),
    pytest.param(
        {"games": [{"round": 1, "white": 1, "black": 7}]},
        "no player with start number 7",
        id="opponent-does-not-exist",
    ),
    pytest.param(
        {
            "games": [
                {"round": 1, "board": 1, "white": 1, "black": 2},
                {"round": 1, "board": 2, "white": 2, "black": 1},
            ]
        },
        "player 2 is already",
        id="player-twice-in-a-round",
    ),
    pytest.param(
        {"games": [{"round": 1, "white": 1, "black": 2, "result": "2-0"}]},
        "games[0].result",
        id="unknown-result",
    ),
    pytest.param(
        {"regulation": {"preset": "fide-2024", "tiebreaks": ["BH", "NOPE"]}},
        "NOPE",
        id="unknown-tiebreak",
    ),
    pytest.param({"regulation": {"preset": "fide-1999"}}, "fide-1999", id="unknown-preset"),
    pytest.param(
        {"byes": [{"round": 9, "start_no": 1, "kind": "half"}]},
        "byes[0].round",
        id="round-out-of-range",
    ),
]


@pytest.mark.parametrize(("change", "message"), BAD_DOCUMENTS)
def test_bad_json_changes_nothing_and_names_the_key(tmp_path, change, message):
    if isinstance(change, str):
        text = change
    else:
        base = {
            "format": "tournament-event/1",
            "name": "Bad",
            "system": "swiss",
            "time_control": "classical",
            "rounds": 2,
            "players": [{"start_no": 1, "name": "A"}, {"start_no": 2, "name": "B"}],
        }
        text = json.dumps({**base, **change})
    path = tmp_path / "bad.json"
    path.write_text(text)
    counts = (Event.objects.count(), Player.objects.count(), AuditEntry.objects.count())
    with pytest.raises(CommandError) as caught:
        call_command("import_event", str(path))
    assert message in str(caught.value)
    assert (Event.objects.count(), Player.objects.count(), AuditEntry.objects.count()) == counts


def test_unknown_slug_exits_non_zero_with_one_line():
    assert "no event" in command_fails("export_event", "no-such-event")
    assert "no event" in command_fails("export_trf", "no-such-event")
