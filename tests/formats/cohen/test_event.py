"""A Cohen Chess event in the product (formats/cohen/services.py, formats/cohen/selectors.py):
the stages scheduled into the event's rounds, the director's advance, the Final Four's extra
games through the playoff, the final places 1–N and the standings command (seed 002)."""

from __future__ import annotations

import datetime as dt
import json
import random
from io import StringIO

import pytest
from django.core.management import call_command

from events.errors import UserError
from events.models import AuditEntry, Event, Game
from events.services import game_result_record
from formats.cohen.models import CohenStage
from formats.cohen.selectors import cohen_final_places, cohen_overview, cohen_rounds_needed
from formats.cohen.services import cohen_stage_advance, cohen_stage_start
from playoffs import services as playoff_services
from playoffs.selectors import event_playoff, tied_for_first
from tests.conftest import make_event

pytestmark = pytest.mark.django_db


def cohen_event(director, players: int, name: str = "Club Night") -> Event:  # type: ignore[no-untyped-def]
    return make_event(
        director, name=name, rounds=1, players=players, system="cohen", preset="cohen-chess"
    )


def play_open_games(event: Event, rng: random.Random, user, *, upsets: float = 0.2) -> int:  # type: ignore[no-untyped-def]
    """Every game without a result gets one: the lower start number usually wins."""
    played = 0
    for game in Game.objects.filter(round__event=event, result="").select_related("white", "black"):
        roll = rng.random()
        favourite_white = game.white.start_no < game.black.start_no
        if roll < upsets / 2:
            result = "1/2-1/2"
        elif roll < upsets:
            result = "0-1" if favourite_white else "1-0"
        else:
            result = "1-0" if favourite_white else "0-1"
        game_result_record(game_id=game.pk, result=result, expected_version=None, user=user)
        played += 1
    return played


def advance(event: Event, stage: str, user) -> CohenStage:  # type: ignore[no-untyped-def]
    """The director's action; a tie only a lot can break gets the lot from the seed."""
    try:
        return cohen_stage_advance(event=event, stage_name=stage, user=user)
    except UserError as exc:
        assert "Record a lot" in str(exc)
        return cohen_stage_advance(event=event, stage_name=stage, user=user, lot="seed")


def settle_final_four(event: Event, user) -> None:  # type: ignore[no-untyped-def]
    """Play the extra games of Final Four rules 3–4 through the playoff services."""
    event.refresh_from_db()
    if not tied_for_first(event):
        return
    playoff_services.playoff_confirm(event=event, user=user, last_round_date=dt.date(2025, 5, 1))
    while (plan := event_playoff(event)) is not None and plan.status != "decided":
        stage = plan.stages[-1]
        game = stage.games[0]
        playoff_services.playoff_result_record(
            event=event,
            stage=stage.number,
            game=game.number,
            result="1-0",
            expected_version=None,
            user=user,
        )


def run_event(director, players: int, seed: int) -> Event:  # type: ignore[no-untyped-def]
    rng = random.Random(seed)
    event = cohen_event(director, players, name=f"Club {players}-{seed}")
    cohen_stage_start(event=event, user=director)
    event.refresh_from_db()
    main = ["first_round", "elite_eight"] if players >= 8 else ["small_field"]
    for stage in main:
        play_open_games(event, rng, director)
        advance(event, stage, director)
        event.refresh_from_db()
    play_open_games(event, rng, director)
    settle_final_four(event, director)
    event.refresh_from_db()
    return event


def test_ten_players_through_every_stage_to_final_places_one_to_ten(director) -> None:
    """seed002 (8 or more): pools 5+5, four inter-pool slots; Elite Eight; Final Four; the
    first-round consolation (2 players, twice each) beside the Elite Eight; the Elite Eight
    consolation beside the Final Four; places 1–4, 5–8, 9–10."""
    event = cohen_event(director, 10)
    stage = cohen_stage_start(event=event, user=director)
    event.refresh_from_db()
    assert event.rounds == cohen_rounds_needed(10) == 10
    assert stage.name == "first_round" and stage.rounds == (1, 2, 3, 4)
    assert [len(stage.pools["A"]), len(stage.pools["B"])] == [5, 5]
    assert Game.objects.filter(round__event=event).count() == 20  # 5 games in each of 4 slots
    rng = random.Random(7)
    play_open_games(event, rng, director)
    first = advance(event, "first_round", director)
    assert first.status == "advanced" and len(first.advanced) == 8
    routes = {d["start_no"]: d["route"] for d in first.decisions}
    assert sorted(routes.values()).count("pool-winner") == 2
    assert sorted(routes.values()).count("eliminated") == 2
    assert all(d["reason"] for d in first.decisions)
    elite = CohenStage.objects.get(event=event, name="elite_eight")
    consolation = CohenStage.objects.get(event=event, name="consolation_first_round")
    assert elite.rounds == (5, 6, 7) and consolation.rounds == (5, 6)
    assert set(consolation.players) == {n for n, route in routes.items() if route == "eliminated"}
    # The consolation shares rounds 5–6 with the Elite Eight, on the boards after it.
    assert list(
        Game.objects.filter(round__event=event, round__number=5).values_list("board", flat=True)
    ) == [1, 2, 3, 4, 5]
    event.refresh_from_db()
    play_open_games(event, rng, director)
    advance(event, "elite_eight", director)
    final = CohenStage.objects.get(event=event, name="final_four")
    assert final.rounds == (8, 9, 10)
    assert CohenStage.objects.get(event=event, name="consolation_elite_eight").rounds == (8, 9, 10)
    event.refresh_from_db()
    play_open_games(event, rng, director)
    settle_final_four(event, director)
    places, note = cohen_final_places(event)
    assert places is not None, note
    assert [row.place for row in places.rows] == list(range(1, 11))
    assert set(places.order[:4]) == set(final.players)
    assert [row.stage for row in places.rows] == ["final-four"] * 4 + [
        "elite-eight-consolation"
    ] * 4 + ["first-round-consolation"] * 2
    assert AuditEntry.objects.filter(event=event, action="cohen.stage.advance").count() == 2


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_seeded_ten_player_events_place_everyone(director, seed: int) -> None:
    event = run_event(director, 10, seed)
    places, note = cohen_final_places(event)
    assert places is not None, note
    assert sorted(places.order) == list(range(1, 11))
    assert sorted(row.place for row in places.rows if not row.shared) == [
        row.place for row in places.rows if not row.shared
    ]


@pytest.mark.parametrize("players", [4, 5, 7])
def test_seven_or_fewer_round_robin_then_final_four(director, players: int) -> None:
    """seed002 (7 or fewer) first round rules 1–5: a round robin, the best four to the Final
    Four, the rest to a consolation whose winner takes 5th."""
    event = run_event(director, players, players)
    stages = {s.name: s for s in CohenStage.objects.filter(event=event)}
    assert stages["small_field"].rounds[0] == 1
    assert stages["final_four"].first_round == stages["small_field"].rounds[-1] + 1
    assert event.rounds == cohen_rounds_needed(players)
    places, note = cohen_final_places(event)
    assert places is not None, note
    assert sorted(places.order) == list(range(1, players + 1))
    assert set(places.order[:4]) == set(stages["final_four"].players)
    if players > 4:
        assert places.rows[4].stage == "first-round-consolation"


def test_advance_is_refused_before_the_stage_is_complete_and_only_once(director) -> None:
    event = cohen_event(director, 8)
    cohen_stage_start(event=event, user=director)
    with pytest.raises(UserError, match="not complete"):
        cohen_stage_advance(event=event, stage_name="first_round", user=director)
    play_open_games(event, random.Random(3), director)
    advance(event, "first_round", director)
    with pytest.raises(UserError, match="already been advanced"):
        cohen_stage_advance(event=event, stage_name="first_round", user=director)
    assert not CohenStage.objects.filter(event=event, name="consolation_first_round").exists()


def test_a_stale_page_cannot_advance(director) -> None:
    event = cohen_event(director, 8)
    cohen_stage_start(event=event, user=director)
    play_open_games(event, random.Random(4), director)
    event.refresh_from_db()
    with pytest.raises(UserError, match="results changed"):
        cohen_stage_advance(
            event=event,
            stage_name="first_round",
            user=director,
            expected_version=event.results_version - 1,
        )


def test_a_tie_only_a_lot_breaks_asks_for_one(director) -> None:
    """seed002 rule 4 J: players level on every criterion (all draws, same data) → a lot."""
    event = cohen_event(director, 8)
    cohen_stage_start(event=event, user=director)
    for game in Game.objects.filter(round__event=event):
        game_result_record(game_id=game.pk, result="1/2-1/2", expected_version=None, user=director)
    with pytest.raises(UserError, match="Record a lot"):
        cohen_stage_advance(event=event, stage_name="first_round", user=director)
    stage = cohen_stage_advance(event=event, stage_name="first_round", user=director, lot="seed")
    assert stage.lot_source == "seed" and sorted(stage.lot_order) == list(range(1, 9))


def test_start_needs_a_cohen_event_and_four_players(director) -> None:
    with pytest.raises(UserError, match="Cohen"):
        cohen_stage_start(event=make_event(director, name="Swiss"), user=director)
    with pytest.raises(UserError, match="at least 4"):
        cohen_stage_start(event=cohen_event(director, 3), user=director)


def test_overview_and_standings_command_show_final_places(director) -> None:
    event = run_event(director, 10, 11)
    overview = cohen_overview(event)
    assert overview.final is not None
    assert [view.stage.name for view in overview.stages][:2] == [
        "first_round",
        "consolation_first_round",
    ]
    out = StringIO()
    call_command("standings", event.slug, "--format", "json", stdout=out)
    table = json.loads(out.getvalue())
    assert set(table) == {"event", "after_round", "tiebreaks", "rows"}
    assert set(table["rows"][0]) == {
        "rank",
        "shared",
        "start_no",
        "name",
        "points",
        "tiebreaks",
        "decided_by",
    }
    assert table["after_round"] == 10
    assert [row["start_no"] for row in table["rows"]] == list(overview.final.order)
    assert [row["rank"] for row in table["rows"]] == [row.place for row in overview.final.rows]
    text = StringIO()
    call_command("standings", event.slug, "--after-round", "4", stdout=text)
    assert "standings after round 4" in text.getvalue()


def test_final_four_tie_goes_to_the_extra_games_then_places(director) -> None:
    """seed002 Final Four rules 3–4: all Final Four games drawn → a four-way tie on pool
    points; no final places until the extra games (the playoff) decide the winner (rule 7)."""
    event = cohen_event(director, 8)
    rng = random.Random(5)
    cohen_stage_start(event=event, user=director)
    for stage in ("first_round", "elite_eight"):
        play_open_games(event, rng, director)
        advance(event, stage, director)
    final = CohenStage.objects.get(event=event, name="final_four")
    for game in Game.objects.filter(round__event=event, round__number__in=final.rounds):
        result = "1/2-1/2" if game.white.start_no in final.players else "1-0"
        game_result_record(game_id=game.pk, result=result, expected_version=None, user=director)
    event.refresh_from_db()
    tied = tied_for_first(event)
    assert sorted(tied) == sorted(final.players)
    places, note = cohen_final_places(event)
    assert places is None and "extra games" in note
    settle_final_four(event, director)
    places, note = cohen_final_places(event)
    assert places is not None, note
    assert places.rows[0].start_no == tied[0]  # won the slot-four game with White
    assert "extra games" in places.rows[0].reason


def test_example_import_rebuilds_the_decisions_and_refuses_a_wrong_advance() -> None:
    """Exchange format ``stages``: advanced stages are ranked again on import."""
    from events.errors import ImportFailed
    from events.exchange import event_import_document
    from tests.conftest import REPO

    text = (REPO / "examples" / "cohen-chess.json").read_text()
    event = event_import_document(text=text, user=None)
    first = CohenStage.objects.get(event=event, name="first_round")
    assert first.status == "advanced" and len(first.decisions) == 10
    places, note = cohen_final_places(event)
    assert places is not None, note
    # the stages page shows each place's criteria against the next place
    from django.test import Client
    from django.urls import reverse

    page = Client().get(reverse("cohen:stages", args=[event.slug])).content.decode()
    explained = [row for row in places.rows if row.steps]
    assert explained and page.count("Compared with the next place") == len(explained)
    from events.numbers import readable

    code, mine, theirs = explained[0].steps[-1]
    assert readable(f"{code}: {mine} – {theirs}") in page  # 17/2 reads 8½ (issue 20)
    document = json.loads(text)
    document["slug"] = "tampered"
    document["stages"][0]["advanced"] = list(reversed(document["stages"][0]["advanced"]))
    with pytest.raises(ImportFailed, match=r"stages\[0\].advanced"):
        event_import_document(text=json.dumps(document), user=None)
    assert not Event.objects.filter(slug="tampered").exists()
