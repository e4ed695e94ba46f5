"""Issue 28, "Write what others read": the TRF of an event paired here is read by the programs
the director moves to. ``manage.py export_trf`` of every Swiss the product paired is checked
by bbpPairings' free pairings checker (``bbpPairings --dutch FILE -c``: it re-pairs every
round from the file and lists each board that differs) and by FIDE's calculator gacrux (every
tie-break equal to ``manage.py standings``), and it imports again into the same file.

The events are the demo's Riverside Open (whose equal ratings make the pairing numbers differ
from the start numbers) and Swiss events generated here and paired round by round through the
services, as a director pairs them: equal ratings, unrated players, requested half- and
zero-point byes, forfeits (one-sided and double), withdrawals, late entries (which take a
pairing number among the others), forbidden pairs and Baku acceleration
(``draws/swiss/trf_import.py``, ``swiss_trf_export``).
"""

from __future__ import annotations

import json
import random
import subprocess
from fractions import Fraction
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from draws.swiss import services as swiss
from events.models import Event, Game, Player
from events.services import PlayerFields, game_result_record, players_register_many
from tests.conftest import REPO, make_event
from tests.draws.swiss import bbp
from tests.standings.test_oracle_gacrux import gacrux_values

pytestmark = [pytest.mark.django_db, pytest.mark.oracle]

# Tie-breaks computed without ratings (the generated events have unrated players).
CODES = ["PTS", "BH/C1", "BH", "SB", "PS", "WIN", "WON", "BPG", "AOB"]
RESULTS = ["1-0", "0-1", "1/2-1/2", "+/-", "-/+", "-/-"]
RESULT_WEIGHTS = [34, 30, 26, 4, 4, 2]


@pytest.fixture(scope="module")
def exe() -> str:
    return bbp.required_path()


def exported(slug: str) -> str:
    out = StringIO()
    call_command("export_trf", slug, stdout=out)
    return out.getvalue()


def checker_differences(exe: str, text: str, tmp_path: Path) -> list[str]:
    """What ``bbpPairings --dutch FILE -c`` says beyond its "Round #r" headings: the boards it
    pairs otherwise, or why it cannot read the file."""
    path = tmp_path / "event.trf"
    path.write_text(text)
    done = subprocess.run(
        [exe, "--dutch", str(path), "-c"], capture_output=True, text=True, timeout=120
    )
    said = [line for line in done.stdout.splitlines() if line.strip()]
    differences = [line for line in said if not line.startswith("event: Round #")]
    if done.returncode:
        differences.append(f"exit {done.returncode}: {done.stderr.strip()}")
    return differences


def gacrux_differences(slug: str, text: str) -> list[str]:
    """Every tie-break of ``manage.py standings`` (after the last round played) against
    gacrux on the file. gacrux counts the rounds ``XXR`` schedules beyond those the file holds
    as rounds not played, so a file written mid-event is given to it as of its rounds."""
    out = StringIO()
    call_command("standings", slug, "--tiebreaks", ",".join(CODES[1:]), "--format", "json",
                 stdout=out)  # fmt: skip
    ours = {row["start_no"]: row for row in json.loads(out.getvalue())["rows"]}
    as_played = "\n".join(line for line in text.splitlines() if not line.startswith("XXR"))
    _, theirs = gacrux_values(as_played + "\n", CODES, round_robin=False)
    problems = []
    for start_no, (_, values) in theirs.items():
        row = ours[start_no]
        mine = [row["points"]] + [row["tiebreaks"][code] for code in CODES[1:]]
        for code, our, their in zip(CODES, mine, values, strict=True):
            if Fraction(our) != Fraction(their or 0):
                problems.append(f"{code} #{start_no}: ours {our}, gacrux {their}")
    return problems


def reimported(text: str, tmp_path: Path, slug: str) -> str:
    """``import_trf`` of the file, then ``export_trf`` of the event it made."""
    path = tmp_path / f"{slug}.trf"
    path.write_text(text)
    call_command("import_trf", str(path), "--slug", slug, stdout=StringIO(), stderr=StringIO())
    return exported(slug)


def test_the_riverside_open_is_written_with_the_pairing_numbers_it_was_paired_with(
    exe: str, tmp_path: Path
) -> None:
    call_command("import_event", str(REPO / "examples" / "swiss-open.json"), stdout=StringIO())
    text = exported("swiss-open")
    assert "\nXXC rank " in text  # its pairing numbers are not its start numbers
    assert checker_differences(exe, text, tmp_path) == []
    assert gacrux_differences("swiss-open", text) == []
    assert reimported(text, tmp_path, "riverside-again") == text


def paired_here(director, seed: int, *, late: bool, baku: bool, forbidden: bool) -> Event:  # type: ignore[no-untyped-def]
    """A Swiss paired round by round by the engine, its results entered as on the floor."""
    rng = random.Random(seed)
    players, rounds = rng.randint(9, 26), rng.randint(5, 8)
    event = make_event(director, name=f"Paired here {seed}", players=0, rounds=rounds)
    ratings = [rng.choice([0, 1500, 1650, 1800, 1800, 1950, 2100]) for _ in range(players)]
    swiss_players = [
        PlayerFields(name=f"{rng.choice('ABCDEF')}son, Player {i}", rating=rating)
        for i, rating in enumerate(ratings, start=1)
    ]
    players_register_many(event=event, players=swiss_players, user=director,
                          confirm_duplicates=True)  # fmt: skip
    if baku:
        swiss.swiss_setup_set(event=event, initial_colour="", acceleration="baku", user=director)
    if forbidden:
        swiss.forbidden_pair_add(event=event, first=1, second=2, user=director)
    for round_no in range(1, rounds + 1):
        _before_pairing(event, round_no, rng, director, late=late)
        swiss.swiss_round_pair(event=event, round_no=round_no, user=director)
        swiss.swiss_round_publish(event=event, round_no=round_no, user=director)
        for game in Game.objects.filter(round__event=event, round__number=round_no):
            result = rng.choices(RESULTS, RESULT_WEIGHTS)[0]
            game_result_record(game_id=game.pk, result=result, expected_version=None,
                               user=director)  # fmt: skip
        if round_no < rounds:
            _withdrawals(event, round_no, rng, director)
    return event


def _before_pairing(
    event: Event, round_no: int, rng: random.Random, director, *, late: bool
) -> None:  # type: ignore[no-untyped-def]
    for player in Player.objects.filter(event=event, withdrawn_after_round=None):
        if rng.random() < 0.08:
            kind = rng.choice(["half", "zero"])
            swiss.bye_request_record(event=event, start_no=player.start_no, round_no=round_no,
                                     kind=kind, user=director)  # fmt: skip
    if late and round_no in (2, 3):
        swiss.late_entry_register(
            event=event,
            fields=PlayerFields(name=f"Late, Entry {round_no}", rating=rng.choice([0, 1700, 2200])),
            missed=rng.choice(["half", "zero"]),
            user=director,
            confirm_duplicates=True,
        )


def _withdrawals(event: Event, round_no: int, rng: random.Random, director) -> None:  # type: ignore[no-untyped-def]
    for player in Player.objects.filter(event=event, withdrawn_after_round=None):
        if rng.random() < 0.05:
            swiss.withdrawal_record(event=event, start_no=player.start_no, after_round=round_no,
                                    user=director)  # fmt: skip


@pytest.mark.parametrize(
    ("seed", "late", "baku", "forbidden"),
    [
        pytest.param(1, False, False, False, id="byes-forfeits-withdrawals"),
        pytest.param(5, True, False, True, id="late-entries-and-a-forbidden-pair"),
        pytest.param(404, True, False, False, id="late-entries"),
        pytest.param(303, False, True, False, id="baku-acceleration"),
    ],
)
def test_an_event_paired_here_is_read_back_by_bbppairings_and_gacrux(  # type: ignore[no-untyped-def]
    director, exe: str, tmp_path: Path, seed: int, late: bool, baku: bool, forbidden: bool
) -> None:
    event = paired_here(director, seed, late=late, baku=baku, forbidden=forbidden)
    text = exported(event.slug)
    assert checker_differences(exe, text, tmp_path) == []
    assert gacrux_differences(event.slug, text) == []
    assert reimported(text, tmp_path, f"{event.slug}-again") == text
