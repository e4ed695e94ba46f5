"""TRF imports of every size (events/imports.py, issue 19): the system detected in linear time, a
real large open imported within its time and memory, and a file past a cap (players, rounds,
results, bytes) refused in one line, on the import page and by ``manage.py import_trf``, with
nothing written. The caps themselves: events/limits.py, docs/reliability.md ("Limits")."""

from __future__ import annotations

import time
from dataclasses import replace
from io import StringIO
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from bench.measure import manage_measured
from events.imports import _players_of, _round_inputs, _unplayed_notes, detect_system
from events.limits import MAX_UPLOAD_BYTES
from events.models import Event, Game, Player
from events.records import Crosstable, Entrant, RoundResult
from events.services import PlayerFields, players_register_many
from events.trf import parse_trf, write_trf
from tests.conftest import make_event, manage_environment, refused_in_one_line
from tests.events.test_trf import player
from tests.standings.generate import berger_rounds, generate_large_swiss

# -- Which system a file holds ------------------------------------------------------------------


def round_robin(players: int, cycles: int, *, leave_out: int = 0) -> Crosstable:
    """A round robin by the Berger tables (every pair once, or twice), the last ``leave_out``
    rounds not played; marked neither way, as a TRF without record 092 is."""
    schedule = berger_rounds(players, cycles)
    results: dict[int, list[RoundResult]] = {n: [] for n in range(1, players + 1)}
    for number, pairs in enumerate(schedule[: len(schedule) - leave_out], start=1):
        seated = set()
        for white, black in pairs:
            if white <= players and black <= players:
                results[white].append(RoundResult(number, black, "w", "="))
                results[black].append(RoundResult(number, white, "b", "="))
                seated |= {white, black}
        for free in set(results) - seated:
            results[free].append(RoundResult(number, None, "-", "Z"))
    entrants = tuple(Entrant(n, f"Player {n}", results=tuple(r)) for n, r in results.items())
    return Crosstable(name="RR", rounds=len(schedule) - leave_out, entrants=entrants)


@pytest.mark.parametrize(
    ("table", "system"),
    [
        (round_robin(8, 1), "round_robin"),
        (round_robin(7, 1), "round_robin"),  # odd: a free round each
        (round_robin(6, 2), "double_round_robin"),
        (round_robin(8, 1, leave_out=1), "swiss"),  # not every pair has met yet
        (round_robin(6, 2, leave_out=1), "swiss"),  # some pairs twice, some once
        (round_robin(2, 1), "swiss"),  # two players: a match, not a tournament
        (replace(round_robin(8, 1, leave_out=3), round_robin=True), "round_robin"),  # 092 says
        (generate_large_swiss(40, 5), "swiss"),
    ],
    ids=["rr-8", "rr-7", "double-6", "rr-unfinished", "double-unfinished", "two", "092", "swiss"],
)
def test_the_system_follows_who_met_whom(table: Crosstable, system: str) -> None:
    assert detect_system(table) == system


def test_detecting_the_system_of_a_large_open_builds_no_pairs() -> None:
    """4.5 million pairs of players at 3,000 (1.1 GB, 12-20 s before); linear now."""
    table = generate_large_swiss(3000, 11)
    start = time.process_time()
    assert detect_system(table) == "swiss"
    assert time.process_time() - start < 1.0


# -- A real large open ----------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_3000_player_open_imports_under_300_mb(tmp_path: Path) -> None:
    """The promise (bench/trf_import.py measures it: about 5 s on a quiet machine): a
    3,000-player, 11-round TRF imports in one process under 300 MB; the time bound here is
    loose because the test machine is shared."""
    path = tmp_path / "open.trf"
    path.write_text(write_trf(generate_large_swiss(3000, 11)))
    run = manage_measured("import_trf", str(path), "--slug", "large-open", env=manage_environment())
    assert run.status == 0, run.stderr
    assert run.peak_mb < 300, f"peak {run.peak_mb:.0f} MB"
    assert run.seconds < 60, f"{run.seconds:.1f} s"
    event = Event.objects.get(slug="large-open")
    assert (event.system, event.rounds) == ("swiss", 11)
    assert Player.objects.filter(event=event).count() == 3000
    assert Game.objects.filter(round__event=event).count() == 1500 * 11


# -- Past the caps: refused in one line, nothing written -----------------------------------------


def absent_field(players: int, rounds: int) -> str:
    """A TRF of ``players`` who never played (a zero-point bye every round): cheap to make at
    any size, and as large as a real file of that size where the caps are concerned."""
    results = tuple(RoundResult(r, None, "-", "Z") for r in range(1, rounds + 1))
    entrants = tuple(Entrant(n, f"Player {n}", results=results) for n in range(1, players + 1))
    return write_trf(Crosstable(name="Field", rounds=rounds, entrants=entrants))


PAST_THE_CAPS = {
    "players": ((5001, 1), "line 5007: more than 5,000 players"),
    "rounds": ((4, 100), "100 rounds; an event has at most 99"),
    "results": ((5000, 13), "65,000 results; at most 60,000"),
}


def trf_past(cap: str) -> tuple[str, str]:
    (players, rounds), message = PAST_THE_CAPS[cap]
    return absent_field(players, rounds), message


@pytest.mark.django_db
@pytest.mark.parametrize("cap", sorted(PAST_THE_CAPS))
def test_import_trf_refuses_a_file_past_a_cap(cap: str, tmp_path: Path) -> None:
    text, message = trf_past(cap)
    path = tmp_path / f"{cap}.trf"
    path.write_text(text)
    with pytest.raises(CommandError, match=message):
        call_command("import_trf", str(path), stdout=StringIO())
    assert not Event.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_import_trf_refuses_more_bytes_than_the_cap_unread(tmp_path: Path) -> None:
    path = tmp_path / "huge.trf"
    path.write_bytes(b"012 Huge\n" + b" " * MAX_UPLOAD_BYTES)
    assert "is 10.0 MB; at most 10.0 MB is accepted" in refused_in_one_line("import_trf", str(path))
    assert not Event.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_import_trf_refuses_a_scheduled_round_count_past_the_cap(tmp_path: Path) -> None:
    path = tmp_path / "xxr.trf"
    path.write_text("XXR 150\n" + write_trf(generate_large_swiss(6, 3)))
    refusal = refused_in_one_line("import_trf", str(path))
    assert "line 1: 150 rounds; an event has at most 99" in refusal
    assert not Event.objects.exists()


def upload(name: str, content: str | bytes) -> SimpleUploadedFile:
    data = content.encode() if isinstance(content, str) else content
    return SimpleUploadedFile(name, data, content_type="application/octet-stream")


@pytest.mark.django_db
@pytest.mark.parametrize("cap", sorted(PAST_THE_CAPS))
def test_the_import_page_refuses_a_file_past_a_cap(cap: str, director, client_for) -> None:
    text, message = trf_past(cap)
    response = client_for(director).post(
        reverse("events:event_import"), {"file": upload(f"{cap}.trf", text)}
    )
    assert response.status_code == 200
    assert message.replace("\\", "") in response.content.decode()
    assert not Event.objects.exists()


@pytest.mark.django_db
def test_the_import_page_refuses_a_file_past_the_byte_cap(director, client_for) -> None:
    """Just past the cap: the request itself is within the middleware's bound (file plus form),
    so the form says it, on the page, before the file is decoded."""
    content = b"012 Huge\n" + b" " * MAX_UPLOAD_BYTES
    response = client_for(director).post(
        reverse("events:event_import"), {"file": upload("huge.trf", content)}
    )
    assert response.status_code == 200
    assert "the file &#x27;huge.trf&#x27; is 10.0 MB; at most 10.0 MB is accepted" in (
        response.content.decode()
    )
    assert not Event.objects.exists()


@pytest.mark.django_db
def test_registering_players_from_a_trf_past_the_cap_is_refused(director, client_for) -> None:
    event = make_event(director, players=0, rounds=9)
    text, message = trf_past("players")
    response = client_for(director).post(
        reverse("events:players", args=[event.slug]),
        {"trf": "1", "trf_file": upload("players.trf", text)},
    )
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Player.objects.filter(event=event).exists()


@pytest.mark.django_db
def test_registering_players_past_the_results_cap_is_refused(director, client_for) -> None:
    """The players the event's rounds allow (60,000 results: 4,000 in 15 rounds), and no
    more, whichever way they come."""
    event = make_event(director, players=0, rounds=15)
    field = [PlayerFields(name=f"Player {n}") for n in range(1, 4000)]
    players_register_many(event=event, players=field, user=director)
    response = client_for(director).post(
        reverse("events:players", args=[event.slug]),
        {"paste": "1", "players_csv": "Late, NOR\nLater, SWE"},
    )
    assert response.status_code == 200
    assert "4,001 players x 15 rounds is 60,015 results" in response.content.decode()
    assert Player.objects.filter(event=event).count() == 3999


# -- Issue 28: the import's own decisions (no database) --------------------------------------

REAL = Path(__file__).resolve().parents[1] / "fixtures" / "trf" / "real"
SWISS_EVERYONE_MET = REAL / "sklangen-TRF" / "2021_03.trf"


@pytest.mark.parametrize(
    ("declared", "system"),
    [(False, "swiss"), (None, "round_robin"), (True, "round_robin")],
    ids=["092 says Swiss (lichess 2021_03)", "092 silent: inferred", "092 says round robin"],
)
def test_record_092_says_what_the_event_is(declared: bool | None, system: str) -> None:
    """9 players, 9 rounds, everyone met everyone once and had one bye: a round robin by
    the look of it, a Swiss by the file's word (issue 28)."""
    table = parse_trf(SWISS_EVERYONE_MET.read_text()).crosstable
    assert detect_system(table, declared) == system


def entrants(*lines: str) -> tuple[Entrant, ...]:
    return parse_trf("012 T\n" + "\n".join(lines)).crosstable.entrants


@pytest.mark.parametrize(
    ("last", "result", "note"),
    [(True, "", "they await their results here"), (False, "-/-", "read as double forfeits")],
    ids=["the last round: paired, awaiting results", "an earlier round: nobody scored"],
)
def test_a_pairing_without_results_is_a_game_awaiting_its_result_or_a_double_forfeit(
    last: bool, result: str, note: str
) -> None:
    table = entrants(player(1, "   2 w  "), player(2, "   1 b  "), player(3, "0000 - U"))
    read = _round_inputs(table, 1, last=last)
    assert [(g.white, g.black, g.result) for g in read.games] == [(1, 2, result)]
    assert read.unplayed == [(1, 2)]
    assert note in _unplayed_notes(1, read.unplayed, last=last)[0]


def test_two_players_with_one_fide_id_are_imported_without_it_and_named() -> None:
    table = entrants(player(1, "   2 w 1"), player(2, "   1 b 0"))
    with_ids = tuple(replace(e, fide_id="1503014") for e in table)
    players, conflicts, notes = _players_of(with_ids, [])
    assert [p.fide_id for p in players] == ["", ""]
    assert conflicts == [{"fide_id": "1503014", "start_nos": [1, 2]}]
    assert notes == [
        "Players 1 (Player 1) and 2 (Player 2) have the same FIDE id 1503014 in the file: "
        "neither keeps it here; give it to the right one on the Players page."
    ]
