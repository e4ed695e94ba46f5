"""``manage.py playoff SLUG [--format json|text]`` (design.md §4)."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from playoffs.models import PlayoffGame
from tests.conftest import make_event
from tests.events.test_commands import command_fails
from tests.playoffs.conftest import confirm, drawn, gct_event, plan_of, play_current_stage

pytestmark = pytest.mark.django_db

TOP_KEYS = ["event", "status", "tied", "winner", "order", "stages"]
STAGE_KEYS = {"kind", "players", "byes", "games"}
GAME_KEYS = {"white", "black", "result"}


def playoff(*args: str) -> str:
    out = StringIO()
    call_command("playoff", *args, stdout=out)
    return out.getvalue()


def test_json_has_the_keys_of_design_md_exactly(classical, director):
    confirm(classical, director)
    play_current_stage(classical, director, drawn)
    document = json.loads(playoff(classical.slug, "--format", "json"))
    assert list(document)[: len(TOP_KEYS)] == TOP_KEYS
    assert document["event"] == classical.slug
    assert (document["status"], document["tied"], document["winner"], document["order"]) == (
        "in_progress",
        [1, 2, 3],
        None,
        [],
    )
    assert [stage["kind"] for stage in document["stages"]] == [
        "rapid_round_robin",
        "blitz_round_robin",
    ]
    for stage in document["stages"]:
        assert set(stage) >= STAGE_KEYS and stage["byes"] == []
        for game in stage["games"]:
            assert set(game) >= GAME_KEYS
            assert isinstance(game["white"], int) and isinstance(game["black"], int)
    assert [g["result"] for g in document["stages"][0]["games"]] == ["1/2-1/2"] * 3
    assert [g["result"] for g in document["stages"][1]["games"]] == [None] * 3
    assert document["start"] == {"day": "2019-08-29", "not_before": None, "clause": "3.2"}


def test_json_once_decided_has_winner_and_order(classical, director):
    confirm(classical, director)
    play_current_stage(classical, director, drawn)
    play_current_stage(classical, director, lambda s, g: "1-0" if g.white == 1 else "1/2-1/2")
    document = json.loads(playoff(classical.slug, "--format", "json"))
    assert document["status"] == "decided" and document["winner"] == 1
    assert document["order"][0] == 1 and sorted(document["order"]) == [1, 2, 3]


def test_text_shows_the_schedule_with_time_controls_and_clauses(director):
    event = gct_event(director, preset="gct-2019-rapid-blitz")
    confirm(event, director)
    play_current_stage(event, director, drawn)
    text = playoff(event.slug)
    assert "Status: in_progress" in text
    assert "Starts: 2019-08-14 19:00 UTC (2.2)" in text
    assert "Blitz round robin · G/5 + 3 s delay · GCT 2019 Tiebreak Regulations 2.3, 2.3.2" in text
    assert "Armageddon · White 5 min, Black 4 min, no increment or delay" in text
    assert "byes: " in text and "colours pending" in text


def test_event_without_a_playoff_rule_reports_none(director):
    event = make_event(director, name="Open")
    document = json.loads(playoff(event.slug, "--format", "json"))
    assert document == {
        "event": event.slug,
        "status": "none",
        "tied": [],
        "winner": None,
        "order": [],
        "stages": [],
    }


def test_unknown_slug_is_a_one_line_error():
    with pytest.raises(CommandError, match="no event"):
        playoff("no-such-event")
    assert "no event" in command_fails("playoff", "no-such-event")


def test_stored_results_that_do_not_fit_are_a_one_line_error(classical, director):
    confirm(classical, director)
    game = plan_of(classical).stages[0].games[0]
    # Typed into the wrong row: the colours of game 1 reversed.
    PlayoffGame.objects.filter(event=classical, stage=1, white=game.white).update(
        white=game.black, black=game.white, result="1-0"
    )
    with pytest.raises(CommandError) as caught:
        playoff(classical.slug, "--format", "json")
    assert "stage 1 game 1" in str(caught.value) and "\n" not in str(caught.value)
