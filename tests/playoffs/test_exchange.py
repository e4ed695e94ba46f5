"""The exchange format carries the playoff's recorded inputs: coin tosses (seed 000 2.5.3), the
chief arbiter's decision (3.5) and the director's confirmation; rows that do not fit the
schedule refuse the import."""

from __future__ import annotations

import datetime as dt
import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from events.models import Event
from playoffs import services
from playoffs.models import ArbiterDecision, CoinToss, PlayoffState
from playoffs.rules import to_json
from tests.playoffs.conftest import confirm, drawn, gct_event, plan_of, play_current_stage

pytestmark = pytest.mark.django_db


def export(slug: str) -> dict:
    out = StringIO()
    call_command("export_event", slug, stdout=out)
    return json.loads(out.getvalue())


def reimport(document: dict, tmp_path, slug: str = "copy") -> Event:
    document = {**document, "slug": slug}
    path = tmp_path / f"{slug}.json"
    path.write_text(json.dumps(document))
    call_command("import_event", str(path), stdout=StringIO())
    return Event.objects.get(slug=slug)


def test_a_decision_by_the_chief_arbiter_survives_export_and_import(classical, director, tmp_path):
    confirm(classical, director)
    for _ in range(4):
        play_current_stage(classical, director, drawn)
    services.arbiter_decision_record(
        event=classical, order=[3, 1, 2], reason="Drawing of lots", user=director
    )
    document = export(classical.slug)
    assert document["playoff_decision"] == {"order": [3, 1, 2], "reason": "Drawing of lots"}
    copy = reimport(document, tmp_path)
    assert to_json(plan_of(copy)) == to_json(plan_of(classical))
    assert plan_of(copy).winner == 3
    assert PlayoffState.objects.filter(event=copy).exists()
    assert export("copy") == {**document, "slug": "copy"}


def test_a_recorded_coin_toss_survives_export_and_import(director, tmp_path):
    event = gct_event(director, preset="gct-2019-rapid-blitz")
    confirm(event, director)
    play_current_stage(event, director, drawn)
    game = plan_of(event).stages[1].games[0]
    services.coin_toss_record(
        event=event, stage=2, game=1, toss_winner=max(game.players), choice="black", user=director
    )
    document = export(event.slug)
    assert document["playoff_coin_tosses"] == [
        {"stage": 2, "game": 1, "toss_winner": max(game.players), "choice": "black"}
    ]
    copy = reimport(document, tmp_path)
    assert CoinToss.objects.get(event=copy).choice == "black"
    assert to_json(plan_of(copy)) == to_json(plan_of(event))


def test_playoff_rows_that_do_not_fit_the_schedule_refuse_the_whole_import(
    classical, director, tmp_path
):
    confirm(classical, director)
    play_current_stage(classical, director, drawn)
    document = export(classical.slug)
    document["playoff_games"][0]["result"] = "1-0"
    document["playoff_games"][0]["white"], document["playoff_games"][0]["black"] = (
        document["playoff_games"][0]["black"],
        document["playoff_games"][0]["white"],
    )
    document["playoff_games"].append(
        {"stage": 9, "round": 1, "white": 1, "black": 2, "result": "1-0"}
    )
    before = Event.objects.count()
    with pytest.raises(CommandError, match="playoff_games"):
        reimport(document, tmp_path)
    assert Event.objects.count() == before
    assert not ArbiterDecision.objects.exists()


def test_a_playoff_made_stale_by_a_corrected_result_still_round_trips(
    classical, director, tmp_path
):
    """A result corrected after the playoff began changes the tie; the export must still
    re-import (a backup that cannot be restored is worse than none), and the playoff pages
    then ask the director to confirm again."""
    from events.models import Game
    from events.services import game_result_record
    from playoffs.selectors import playoff_overview

    confirm(classical, director)
    play_current_stage(classical, director, drawn)
    # Give the last-placed tied player a loss in the last round: the tie for first changes.
    tied = plan_of(classical).tied
    game = (
        Game.objects.filter(round__event=classical, round__number=classical.rounds)
        .filter(white__start_no=tied[-1])
        .first()
        or Game.objects.filter(round__event=classical, round__number=classical.rounds)
        .filter(black__start_no=tied[-1])
        .first()
    )
    losing = "0-1" if game.white.start_no == tied[-1] else "1-0"
    game_result_record(game_id=game.pk, result=losing, expected_version=None, user=director)
    document = export(classical.slug)
    copy = reimport(document, tmp_path)
    assert export("copy") == {**document, "slug": "copy"}
    assert PlayoffState.objects.get(event=copy).tied == document["playoff_confirmation"]["tied"]
    assert playoff_overview(copy).stale  # the pages ask the director to confirm again


def test_the_moment_of_the_confirmation_survives_export_and_import(classical, director, tmp_path):
    """Issue 19: the import stamped the confirmation with its own moment."""
    confirm(classical, director)
    confirmed_at = dt.datetime(2019, 8, 27, 21, 5, tzinfo=dt.UTC)
    PlayoffState.objects.filter(event=classical).update(confirmed_at=confirmed_at)
    document = export(classical.slug)
    assert document["playoff_confirmation"]["confirmed_at"] == "2019-08-27T21:05:00+00:00"
    copy = reimport(document, tmp_path)
    assert PlayoffState.objects.get(event=copy).confirmed_at == confirmed_at
    assert export(copy.slug) == {**document, "slug": copy.slug}


def test_a_confirmation_moment_that_is_no_moment_is_refused(classical, director, tmp_path):
    confirm(classical, director)
    document = export(classical.slug)
    document["playoff_confirmation"]["confirmed_at"] = "yesterday"
    with pytest.raises(CommandError, match=r"playoff_confirmation.confirmed_at: 'yesterday'"):
        reimport(document, tmp_path)
    assert not Event.objects.filter(slug="copy").exists()
