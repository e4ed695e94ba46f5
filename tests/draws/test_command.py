"""``manage.py varma_draw SLUG --seed SEED [--format json|text]`` (design brief §4)."""

from __future__ import annotations

import json
import subprocess
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from draws.berger import single_round_robin
from draws.models import DrawCeremony, DrawEntry
from draws.selectors import draw_players
from draws.services import draw_entry_record
from draws.varma import computer_draw
from events.models import AuditEntry, Event, Game
from events.services import PairingInput, round_pairings_set
from tests.conftest import manage_process
from tests.draws.test_services import TEN, make_field

pytestmark = pytest.mark.django_db

KEYS = {"event", "seed", "table", "order", "rounds", "warnings"}


def run(*args: str) -> str:
    out = StringIO()
    call_command("varma_draw", *args, stdout=out)
    return out.getvalue()


def database_state() -> tuple[object, ...]:
    """Everything a refused run must leave as it was."""
    return (
        list(DrawCeremony.objects.values_list("event__slug", "seed", "status", "schedule_created")),
        list(DrawEntry.objects.order_by("pk").values_list("player_id", "envelope", "number")),
        AuditEntry.objects.count(),
        list(Event.objects.order_by("pk").values_list("slug", "results_version", "rounds")),
        Game.objects.count(),
    )


def test_json_has_exactly_the_documented_keys_and_the_engine_draw(director):
    event = make_field(director)
    document = json.loads(run(event.slug, "--seed", "s3cret", "--format", "json"))
    assert set(document) == KEYS
    assert (document["event"], document["seed"], document["table"]) == (
        event.slug,
        "s3cret",
        "9/10",
    )
    expected = computer_draw(draw_players(event), "s3cret")
    assert document["order"] == [
        {
            "start_no": d.start_no,
            "federation": d.federation,
            "envelope": d.envelope,
            "number": d.number,
        }
        for d in expected.order
    ]
    assert all(
        set(row) == {"start_no", "federation", "envelope", "number"} for row in document["order"]
    )
    assert document["rounds"] == [[list(p) for p in rnd] for rnd in single_round_robin(10)]
    assert document["rounds"][1][0] == [10, 6]  # C.05 Annex 1, round 2 board 1
    assert document["warnings"] == []


def test_the_draw_is_recorded_and_the_games_are_created(director):
    event = make_field(director, rounds=5)
    run(event.slug, "--seed", "s3cret")
    ceremony = DrawCeremony.objects.get(event=event)
    assert (ceremony.mode, ceremony.seed, ceremony.status) == ("computer", "s3cret", "complete")
    assert ceremony.schedule_created
    assert Game.objects.filter(round__event=event).count() == 45
    assert Event.objects.get(pk=event.pk).rounds == 9
    assert event.lots_seed != "s3cret"  # the event's own seed is left for its other lots


def test_same_seed_gives_the_same_output(director):
    event = make_field(director)
    first = run(event.slug, "--seed", "repeatable")
    assert run(event.slug, "--seed", "repeatable") == first  # re-run prints the record
    twin = make_field(director, name="Twin Cup")
    twin_output = json.loads(run(twin.slug, "--seed", "repeatable"))
    assert {**twin_output, "event": event.slug} == json.loads(first)
    other = make_field(director, name="Other Cup")
    assert json.loads(run(other.slug, "--seed", "different"))["order"] != json.loads(first)["order"]


def test_text_format_is_readable(director):
    event = make_field(director)
    text = run(event.slug, "--seed", "s3cret", "--format", "text")
    assert "Table: 9/10" in text and "Seed: s3cret" in text
    assert "Drawing order:" in text and "Anand (IND)" in text
    assert "Round  2: 10-6" in text
    assert "Games: created in the event" in text
    assert run(event.slug, "--seed", "s3cret", "--format", "text") == text


def test_an_odd_field_leaves_out_the_free_round(director):
    event = make_field(director, TEN[:9])
    document = json.loads(run(event.slug, "--seed", "odd"))
    assert len(document["rounds"]) == 9
    assert all(len(games) == 4 for games in document["rounds"])
    assert all(10 not in pair for games in document["rounds"] for pair in games)


def test_games_are_not_created_for_a_swiss_or_once_rounds_are_paired(director):
    swiss = make_field(director, system="swiss", name="Swiss Open")
    text = run(swiss.slug, "--seed", "s", "--format", "text")
    assert "Games: not created (the event is a Swiss)" in text
    assert not Game.objects.filter(round__event=swiss).exists()
    paired = make_field(director, name="Paired Cup")
    round_pairings_set(event=paired, round_no=1, pairings=[PairingInput(1, 1, 2)], user=director)
    text = run(paired.slug, "--seed", "s", "--format", "text")
    assert "Games: not created (rounds were already paired" in text
    assert Game.objects.filter(round__event=paired).count() == 1


def test_a_double_round_robin_prints_both_cycles(director):
    event = make_field(director, TEN[:4], system="double_round_robin", rounds=6)
    rounds = json.loads(run(event.slug, "--seed", "d"))["rounds"]
    assert len(rounds) == 6
    assert sorted(map(tuple, sum(rounds[:3], []))) == sorted(
        (b, w) for w, b in map(tuple, sum(rounds[3:], []))
    )


@pytest.mark.parametrize(
    ("setup", "args", "reason"),
    [
        pytest.param("ten", ["no-such-event", "--seed", "s"], "no event", id="unknown-slug"),
        pytest.param("one", ["{slug}", "--seed", "s"], "at least two players", id="one-player"),
        pytest.param("ten", ["{slug}", "--seed", ""], "seed must not be empty", id="empty-seed"),
        pytest.param(
            "drawn", ["{slug}", "--seed", "other"], "different seed", id="drawn-other-seed"
        ),
        pytest.param(
            "recording", ["{slug}", "--seed", "s"], "physical ceremony", id="being-recorded"
        ),
    ],
)
def test_bad_input_is_a_one_line_error_and_changes_nothing(director, setup, args, reason):
    players = TEN[:1] if setup == "one" else TEN
    event = make_field(director, players)
    if setup == "drawn":
        run(event.slug, "--seed", "first")
    if setup == "recording":
        draw_entry_record(event=event, start_no=1, envelope="A", number=3, user=director)
    before = database_state()
    with pytest.raises(CommandError, match=reason) as caught:
        run(*[arg.format(slug=event.slug) for arg in args])
    assert "\n" not in str(caught.value)
    assert database_state() == before


def test_a_failing_schedule_rolls_back_the_draw(director, monkeypatch):
    """The command is one transaction: a refused schedule leaves no half-made draw behind."""
    from draws import services

    def refuse(**kwargs: object) -> None:
        raise services.UserError("schedule refused")

    monkeypatch.setattr(services, "schedule_create", refuse)
    event = make_field(director)
    before = database_state()
    with pytest.raises(CommandError, match="schedule refused"):
        run(event.slug, "--seed", "s")
    assert database_state() == before


# --- the real process: exit status and stderr -------------------------------------------------


def _manage(*args: str) -> subprocess.CompletedProcess[str]:
    return manage_process("varma_draw", *args)


@pytest.mark.django_db(transaction=True)
def test_exit_status_and_stderr_of_the_real_command(director):
    event = make_field(director)
    done = _manage(event.slug, "--seed", "proc", "--format", "json")
    assert done.returncode == 0, done.stderr
    assert set(json.loads(done.stdout)) == KEYS
    before = database_state()
    for args in ([event.slug, "--seed", "other"], ["no-such-event", "--seed", "s"]):
        refused = _manage(*args)
        assert refused.returncode != 0 and refused.stdout == ""
        assert len(refused.stderr.strip().splitlines()) == 1, refused.stderr
        assert refused.stderr.startswith("CommandError: ")
    assert database_state() == before
