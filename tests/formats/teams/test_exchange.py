"""formats/teams/exchange.py: the ``team_event`` key carries everything a team event stores
(settings, teams and rosters, line-ups with an override, published and draft rounds, board
results, a forfeited match, byes, prohibited pairings): export → import → export is the same
document, and a document naming a team or player that does not exist changes nothing."""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal

import pytest
from django.core.management import CommandError

from events.models import Event
from formats.teams import services
from formats.teams.models import TeamMatch
from tests.conftest import export_document, import_copy
from tests.formats.teams.test_services import team_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(director):  # type: ignore[no-untyped-def]
    event = team_event(director, teams=5, boards=2)
    services.team_setup_update(
        event=event,
        fields=services.SetupFields(
            boards=2,
            match_points="3-1-0",
            tiebreaks="MP,GP,BH:MP",
            min_board_games=1,
            board_prizes="100, 50",
            lineups_close="deadline",
        ),
        expected_version=None,
        user=director,
    )
    services.lineup_set(
        event=event, team_no=1, round_no=1, boards=[2, 1], override=True, user=director
    )
    services.prohibited_pairing_add(
        event=event, team_a=1, team_b=2, first_round=1, last_round=2, user=director
    )
    services.team_bye_request(event=event, team_no=5, round_no=2, kind="zero", user=director)
    services.team_round_pair(event=event, round_no=1, user=director)
    services.team_round_publish(event=event, round_no=1, user=director)
    first, second = TeamMatch.objects.filter(round__event=event).order_by("table")
    services.match_card_record(
        event=event, match_id=first.pk, results={1: "1-0", 2: "-/+"},
        expected_version=None, user=director,
    )  # fmt: skip
    services.match_card_record(
        event=event, match_id=second.pk, results={}, forfeit="-+",
        expected_version=None, user=director,
    )  # fmt: skip
    services.team_round_pair(event=event, round_no=2, user=director)  # a draft
    services.team_adjustment_add(
        event=event, team_no=3, round_no=1, match_points=Decimal(-2),
        game_points=Decimal(0), reason="fielded an ineligible player", user=director,
    )  # fmt: skip
    closes = dt.datetime(2026, 3, 3, 14, 30, tzinfo=dt.UTC)
    services.lineup_deadline_set(event=event, round_no=3, closes_at=closes, user=director)
    return event


def _without_identity(document: dict) -> dict:  # type: ignore[type-arg]
    return {k: v for k, v in document.items() if k not in ("slug", "name")}


def test_round_trip(played, tmp_path) -> None:  # type: ignore[no-untyped-def]
    document = export_document(played.slug)
    section = document["team_event"]
    assert section["setup"]["match_points"] == "3-1-0"
    assert [r["published"] for r in section["rounds"]] == [True, False]
    assert {"round": 2, "team": 5, "kind": "zero"} in section["byes"]
    assert section["lineups"][0]["override"] is True
    assert section["setup"]["board_prizes"] == "100, 50"
    assert (section["setup"]["min_board_games"], section["setup"]["lineups_close"]) == (
        1,
        "deadline",
    )
    assert Event.objects.get(slug=played.slug).status == "running"  # round 1 is published
    assert section["adjustments"] == [
        {
            "team": 3,
            "round": 1,
            "match_points": "-2",
            "game_points": "0",
            "standings_only": False,
            "reason": "fielded an ineligible player",
        }
    ]
    assert section["lineup_deadlines"] == [{"round": 3, "closes_at": "2026-03-03T14:30:00+00:00"}]
    copy = import_copy(document, tmp_path)
    again = export_document(copy.slug)
    assert _without_identity(again) == _without_identity(document)
    assert copy.status == "running"  # not "Registration" on the home page


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("teams", 0, "roster", 0), 999, "no player 999"),
        (("rounds", 0, "matches", 0, "white"), 77, "no team 77"),
        (("rounds", 0, "matches", 0, "boards", 0, "result"), "=1+1", "unknown result"),
        (("byes", 0, "kind"), "double", "pairing, full, half or zero"),
        (("setup", "lineups_close"), "never", "pairing or deadline"),
        (("setup", "min_board_games"), 100, "0 to 99, or null"),
    ],
)
def test_bad_document_changes_nothing(played, tmp_path, path, value, message) -> None:  # type: ignore[no-untyped-def]
    document = json.loads(json.dumps(export_document(played.slug)))
    target = document["team_event"]
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    events = Event.objects.count()
    with pytest.raises(CommandError, match=message):
        import_copy(document, tmp_path)
    assert Event.objects.count() == events


def test_the_export_meets_the_schema(played) -> None:  # type: ignore[no-untyped-def]
    import jsonschema

    from tests.events.test_schema import SCHEMA

    jsonschema.validate(export_document(played.slug), SCHEMA)
