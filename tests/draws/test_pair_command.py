"""``manage.py pair`` (design.md §4; issue 14): the next round, ``--round``, ``--dry-run``,
``--format json|text`` and ``--check``; bad input is a one-line refusal that changes nothing."""

from __future__ import annotations

import json
import time
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from draws.swiss import selectors, services
from events.errors import UserError
from events.models import Game, Round
from events.services import (
    ByeInput,
    PairingInput,
    PlayerFields,
    game_result_record,
    players_register_many,
    round_pairings_set,
)
from tests.conftest import REPO, make_event, manage_process, refused_in_one_line


def run(*args: str) -> str:
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def pair(*args: str) -> str:
    return run("pair", *args)


def play(event, number: int) -> None:  # type: ignore[no-untyped-def]
    for game in Game.objects.filter(round__event=event, round__number=number):
        game_result_record(game_id=game.pk, result="1/2-1/2", expected_version=None, user=None)


@pytest.mark.django_db
def test_json_has_the_keys_of_design_md_exactly(director) -> None:
    event = make_event(director, players=5, rounds=3)
    services.bye_request_record(event=event, start_no=2, round_no=1, kind="half", user=director)
    document = json.loads(pair(event.slug, "--draft"))
    assert list(document) == ["event", "round", "boards", "byes", "notes"]
    assert (document["event"], document["round"]) == (event.slug, 1)
    assert [list(board) for board in document["boards"]] == [["board", "white", "black"]] * 2
    assert {bye["kind"] for bye in document["byes"]} <= {"pairing", "half", "zero"}
    assert {"start_no": 2, "kind": "half"} in document["byes"]
    assert all(isinstance(note, str) for note in document["notes"])
    stored = selectors.round_as_played(event, 1)[0]
    assert [(b["white"], b["black"]) for b in document["boards"]] == stored
    assert not Round.objects.get(event=event, number=1).published


@pytest.mark.django_db
def test_dry_run_stores_nothing_and_equals_the_real_run(director) -> None:
    event = make_event(director, players=6, rounds=3)
    dry = json.loads(pair(event.slug, "--dry-run"))
    assert not Round.objects.filter(event=event).exists()
    real = json.loads(pair(event.slug))
    assert dry["boards"] == real["boards"] and dry["byes"] == real["byes"]
    assert Round.objects.get(event=event, number=1).published


@pytest.mark.django_db
def test_the_next_round_and_an_explicit_round(director) -> None:
    event = make_event(director, players=6, rounds=3)
    pair(event.slug)
    with pytest.raises(CommandError, match="round 1 has 3 game"):
        pair(event.slug)
    assert json.loads(pair(event.slug, "--allow-unfinished", "--dry-run"))["round"] == 2
    play(event, 1)
    assert json.loads(pair(event.slug))["round"] == 2
    assert json.loads(pair(event.slug, "--round", "2"))["round"] == 2  # re-paired, no result
    with pytest.raises(CommandError, match="outside 1–3"):
        pair(event.slug, "--round", "9")


@pytest.mark.django_db
def test_text_names_the_players(director) -> None:
    event = make_event(director, players=4, rounds=3)
    text = pair(event.slug, "--dry-run", "--format", "text")
    assert "round 1 (FIDE Dutch system, 2025 rules)" in text
    assert "Player 1" in text and "Player 4" in text


@pytest.mark.django_db
def test_check_passes_for_engine_rounds_and_finds_a_hand_change(director) -> None:
    event = make_event(director, players=8, rounds=4)
    for number in (1, 2):
        pair(event.slug)
        play(event, number)
    assert json.loads(pair(event.slug, "--check"))["differences"] == 0
    services.swiss_round_pair(event=event, round_no=3, user=director)
    (w1, _), (w2, _) = selectors.round_as_played(event, 3)[0][:2]
    services.swiss_round_edit(
        event=event, round_no=3, change="exchange", values=[w1, w2], user=director, confirm=True
    )
    out, err = StringIO(), StringIO()
    with pytest.raises(SystemExit) as exit_status:
        call_command("pair", event.slug, "--check", stdout=out, stderr=err)
    assert exit_status.value.code == 1
    document = json.loads(out.getvalue())
    flagged = {entry["round"]: entry["differences"] for entry in document["rounds"]}
    assert flagged[1] == flagged[2] == [] and flagged[3]
    assert all(d["rule"] and d["message"] for d in flagged[3])
    assert "difference(s) from the Dutch rules" in err.getvalue()


@pytest.mark.django_db
def test_check_of_the_demo_swiss_with_a_bye_a_withdrawal_and_a_forbidden_pair() -> None:
    out = StringIO()
    call_command("import_event", str(REPO / "examples" / "swiss-open.json"), stdout=out)
    slug = out.getvalue().strip().splitlines()[-1]
    text = pair(slug, "--check", "--format", "text")
    assert text.count("as the rules give") == 4


@pytest.mark.django_db(transaction=True)
def test_bad_input_is_one_line_and_changes_nothing(director) -> None:
    event = make_event(director, name="Round Robin", system="round_robin")
    result = manage_process("pair", event.slug)
    assert result.returncode != 0 and result.stderr.count("\n") == 1
    assert "only a Swiss" in result.stderr
    missing = manage_process("pair", "no-such-event")
    assert missing.returncode != 0 and "no event with the slug" in missing.stderr
    assert not Round.objects.filter(event=event).exists()


# -- Round numbers, the events it applies to, and the size it pairs (issue 19) -------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("number", ["0", "-1", "4", str(2**40)])
def test_a_round_the_event_does_not_have_is_refused_in_one_line(director, number) -> None:
    """``--round 0`` paired the next round; 2^40 grew a process until MemoryError."""
    event = make_event(director, players=6, rounds=3)
    refusal = refused_in_one_line("pair", event.slug, "--round", number, "--dry-run")
    assert f"--round {number} is outside 1–3, the event's rounds" in refusal
    assert not Round.objects.filter(event=event).exists()


@pytest.mark.django_db
def test_pairing_a_round_past_the_event_is_refused_at_once(director) -> None:
    event = make_event(director, players=6, rounds=3)
    with pytest.raises(UserError, match="round 1099511627776 is outside 1–3"):
        services.swiss_round_pair(event=event, round_no=2**40, user=director)
    assert not Round.objects.filter(event=event).exists()


@pytest.mark.django_db
def test_check_is_refused_for_a_round_robin_and_for_gnot(director) -> None:
    event = make_event(director, name="Round Robin", system="round_robin", players=4)
    round_pairings_set(
        event=event, round_no=1, pairings=[PairingInput(1, 1, 2), PairingInput(2, 3, 4)], user=None
    )
    with pytest.raises(CommandError, match="only a Swiss event .* 'Round robin': there is nothing"):
        pair(event.slug, "--check")
    gnot = run("import_event", str(REPO / "examples" / "gnot-2012.json")).strip().splitlines()[-1]
    with pytest.raises(CommandError, match="'GNOT bridge teams': there is nothing to check"):
        pair(gnot, "--check")


@pytest.mark.django_db
def test_check_passes_the_engines_own_round_1_after_a_late_entry(director) -> None:
    """Baku acceleration's group A is the top half of the field: a later entry changed it, and
    the check re-paired round 1 with the new field and flagged the engine's own round."""
    event = make_event(director, players=12, rounds=5)
    services.swiss_setup_set(event=event, initial_colour="", acceleration="baku", user=director)
    pair(event.slug)
    services.late_entry_register(
        event=event, fields=PlayerFields(name="Late", rating=1000), missed="zero", user=director
    )
    assert "Round 1: as the rules give" in pair(event.slug, "--check", "--format", "text")


@pytest.mark.django_db
def test_check_of_one_round(director) -> None:
    event = make_event(director, players=6, rounds=3)
    pair(event.slug)
    play(event, 1)
    pair(event.slug)
    document = json.loads(pair(event.slug, "--check", "--round", "2"))
    assert [entry["round"] for entry in document["rounds"]] == [2]
    with pytest.raises(CommandError, match="round 3 has not been paired"):
        pair(event.slug, "--check", "--round", "3")


@pytest.fixture
def crowded(director):  # type: ignore[no-untyped-def]
    """One player more than the engine pairs in a round, round 1 paired by hand."""
    event = make_event(director, players=0, rounds=5)
    field = [PlayerFields(name=f"Player {n}", rating=1000 + n) for n in range(1, 1002)]
    players_register_many(event=event, players=field, user=director)
    boards = [PairingInput(n, 2 * n - 1, 2 * n) for n in range(1, 501)]
    round_pairings_set(
        event=event, round_no=1, pairings=boards, byes=[ByeInput(1001, "pairing")], user=director
    )
    return event


@pytest.mark.django_db
def test_a_field_larger_than_the_engine_pairs_is_refused_at_once(crowded) -> None:
    """At 3,000 players the check ran for minutes (and a round's pairing took a gigabyte)."""
    for args in (["--check"], ["--round", "2", "--dry-run", "--allow-unfinished"]):
        start = time.perf_counter()
        with pytest.raises(
            CommandError, match="1,001 players to pair; .* at most 1,000 in a round"
        ):
            pair(crowded.slug, *args)
        assert time.perf_counter() - start < 10
    assert not Round.objects.filter(event=crowded, number=2).exists()
