"""Playoff services against a real database: confirmation, results, coin tosses, the chief
arbiter's decision, conflicts, stale ties, final standings (seed 000 §2–3)."""

from __future__ import annotations

import datetime as dt
import json
from io import StringIO

import pytest
from django.core.management import call_command

from events.errors import ResultConflict, UserError
from events.models import AuditEntry, Event, Game
from events.services import game_result_record
from playoffs import selectors, services
from playoffs.models import ArbiterDecision, CoinToss, PlayoffGame, PlayoffState
from playoffs.rules import to_json
from tests.playoffs.conftest import (
    TWO_TIED,
    confirm,
    drawn,
    gct_event,
    plan_of,
    play_current_stage,
)

pytestmark = pytest.mark.django_db


def stored(event: Event) -> list[tuple[int, int, int, int, str]]:
    return list(
        PlayoffGame.objects.filter(event=event)
        .order_by("stage", "round", "id")
        .values_list("stage", "round", "white", "black", "result")
    )


def version_of(event: Event, stage: int, game: int) -> int:
    return selectors.numbered_rows(event)[(stage, game)].version


# --- proposal and confirmation (2.1, 3.1, 2.2, 3.2) -------------------------------------------


def test_classical_tie_is_proposed_and_confirmed_for_the_reserve_day_3_2(classical, director):
    assert selectors.tied_for_first(classical) == (1, 2, 3)
    overview = selectors.playoff_overview(classical)
    assert overview.plan.status == "scheduled" and overview.state is None
    assert not overview.open_for_entry
    confirm(classical, director)
    state = PlayoffState.objects.get(event=classical)
    assert (state.tied, state.start_day, state.start_clause) == (
        [1, 2, 3],
        dt.date(2019, 8, 29),
        "3.2",
    )
    # The first stage is stored as unplayed rows in schedule order (design.md playoff_games).
    plan = plan_of(classical)
    assert [(s, r, w, b) for s, r, w, b, _ in stored(classical)] == [
        (1, game.round, game.white, game.black) for game in plan.stages[0].games
    ]
    assert AuditEntry.objects.filter(event=classical, action="playoff.confirm").exists()


def test_rapid_blitz_starts_thirty_minutes_after_the_last_game_2_2(director):
    event = gct_event(director, preset="gct-2019-rapid-blitz")
    confirm(event, director)
    state = PlayoffState.objects.get(event=event)
    assert state.not_before == dt.datetime(2019, 8, 14, 19, 0, tzinfo=dt.UTC)
    assert state.start_clause == "2.2"


def test_no_confirmation_without_a_tie(director):
    event = gct_event(director, rounds={1: [(1, 4, "1-0"), (2, 3, "1-0")]})  # rounds 2–3 unpaired
    with pytest.raises(UserError, match="not complete or first place is not tied"):
        confirm(event, director)


def test_results_wait_for_the_directors_confirmation(classical, arbiter):
    with pytest.raises(UserError, match="not confirmed"):
        services.playoff_result_record(
            event=classical, stage=1, game=1, result="1-0", expected_version=None, user=arbiter
        )


# --- GCT Classical: rapid round robin, colours reversed, decided (3.3–3.7) --------------------


def test_classical_three_tied_all_drawn_then_blitz_reversed_then_decided(classical, director):
    confirm(classical, director)
    rapid = play_current_stage(classical, director, drawn)
    plan = plan_of(classical)
    assert plan.status == "in_progress"
    blitz = plan.stages[1]
    assert (rapid.kind, blitz.kind, blitz.pairing_source) == (
        "rapid_round_robin",
        "blitz_round_robin",
        "reversed",
    )
    assert "3.6" in blitz.clause and blitz.time_control.label == "G/5 + 3 s delay"
    # 3.6: the same pairing numbers, every game with the colours swapped.
    assert [(g.white, g.black) for g in blitz.games] == [(g.black, g.white) for g in rapid.games]
    assert blitz.pairing_numbers == rapid.pairing_numbers
    # The blitz games are stored right away, unplayed, after the rapid ones.
    assert [row[4] for row in stored(classical)] == ["1/2-1/2"] * 3 + [""] * 3

    play_current_stage(
        classical, director, lambda stage, game: "1-0" if game.white == 2 else "1/2-1/2"
    )
    plan = plan_of(classical)
    assert plan.status == "decided" and plan.winner == 2
    assert plan.order_groups[0] == (2,)


def test_final_standings_write_back_the_tied_places_only(classical, director):
    before = selectors.final_standings(classical)
    confirm(classical, director)
    play_current_stage(classical, director, drawn)
    play_current_stage(
        classical, director, lambda stage, game: "1-0" if game.white == 3 else "1/2-1/2"
    )
    table = selectors.final_standings(Event.objects.get(pk=classical.pk))
    top = [(row.start_no, row.rank, row.decided_by) for row in table.rows[:3]]
    assert top[0] == (3, 1, "PLAYOFF")
    assert {row.start_no for row in table.rows[:3]} == {1, 2, 3}
    assert all(rank > 1 for _, rank, _ in top[1:])
    # Player 4, not in the tie, keeps their place and row untouched.
    assert table.rows[3] == before.rows[3]


def test_two_tied_play_a_rapid_mini_match_3_3_1(director):
    event = gct_event(director, rounds=TWO_TIED)
    confirm(event, director)
    stage = plan_of(event).stages[0]
    assert stage.kind == "rapid_match" and len(stage.games) == 2
    assert stage.time_control.label == "G/25 + 10 s delay"


def test_arbiter_decides_after_four_round_robins_3_5(classical, director):
    confirm(classical, director)
    for _ in range(4):
        play_current_stage(classical, director, drawn)
    plan = plan_of(classical)
    assert plan.status == "arbiter_decides" and len(plan.stages) == 4
    with pytest.raises(UserError, match="exactly the players still tied"):
        services.arbiter_decision_record(
            event=classical, order=[3, 1], reason="Armageddon", user=director
        )
    assert not ArbiterDecision.objects.exists()  # refused: nothing written
    services.arbiter_decision_record(
        event=classical, order=[3, 1, 2], reason="Drawing of lots after consultation", user=director
    )
    plan = plan_of(classical)
    assert (plan.status, plan.winner, plan.decided_by) == ("decided", 3, "3.5")
    entry = AuditEntry.objects.get(event=classical, action="playoff.arbiter_decision")
    assert entry.after["reason"] == "Drawing of lots after consultation"
    with pytest.raises(UserError, match="called for"):  # decided: a second decision is refused
        services.arbiter_decision_record(
            event=classical, order=[1, 2, 3], reason="x", user=director
        )


def test_no_arbiter_decision_before_it_is_called_for(classical, director):
    confirm(classical, director)
    with pytest.raises(UserError, match="3.5"):
        services.arbiter_decision_record(
            event=classical, order=[1, 2, 3], reason="x", user=director
        )


# --- GCT Rapid & Blitz: Armageddon byes, coin toss, draw = Black wins (2.3–2.5) ---------------


def test_rapid_blitz_armageddon_bye_and_coin_toss(director):
    event = gct_event(director, preset="gct-2019-rapid-blitz")
    confirm(event, director)
    blitz = play_current_stage(event, director, drawn)
    assert blitz.kind == "blitz_round_robin"
    armageddon = plan_of(event).stages[1]
    assert armageddon.kind == "armageddon" and len(armageddon.byes) == 1  # 3 → 1 game, 1 bye
    game = armageddon.games[0]
    assert game.colours_pending
    with pytest.raises(UserError, match="coin toss"):
        services.playoff_result_record(
            event=event, stage=2, game=1, result="1-0", expected_version=None, user=director
        )
    loser_of_toss = max(game.players)
    services.coin_toss_record(
        event=event, stage=2, game=1, toss_winner=loser_of_toss, choice="black", user=director
    )
    game = plan_of(event).stages[1].games[0]
    assert (game.black, game.toss.source, game.toss.choice) == (loser_of_toss, "recorded", "black")
    assert CoinToss.objects.get(event=event).toss_winner == loser_of_toss
    # Colours now known: the stored row says who has White.
    assert stored(event)[-1][2:4] == (game.white, game.black)
    services.playoff_result_record(
        event=event, stage=2, game=1, result="1-0", expected_version=None, user=director
    )
    final = plan_of(event).stages[2]
    assert set(final.players) == {game.white, *armageddon.byes} and final.byes == ()
    final = play_current_stage(event, director, lambda stage, g: "0-1")
    plan = plan_of(event)
    assert plan.status == "decided" and plan.winner == final.games[0].black


def test_armageddon_draw_is_a_win_for_black_2_5_2(director):
    event = gct_event(director, preset="gct-2019-rapid-blitz", rounds=TWO_TIED)
    confirm(event, director)
    play_current_stage(event, director, drawn)  # the rapid mini-match 1–1 (2.3.1)
    play_current_stage(event, director, drawn)  # Armageddon drawn
    plan = plan_of(event)
    game = plan.stages[-1].games[0]
    assert plan.status == "decided" and plan.winner == game.black


def test_coin_toss_only_for_armageddon_and_players_in_the_game(classical, director):
    confirm(classical, director)
    with pytest.raises(UserError, match="only in Armageddon"):
        services.coin_toss_record(
            event=classical, stage=1, game=1, toss_winner=1, choice="white", user=director
        )


# --- validation against the plan ----------------------------------------------------------------


def test_result_for_a_game_not_scheduled_is_refused(classical, director):
    confirm(classical, director)
    with pytest.raises(UserError, match="stage 2 game 1 is not scheduled"):
        services.playoff_result_record(
            event=classical, stage=2, game=1, result="1-0", expected_version=None, user=director
        )
    with pytest.raises(UserError, match="stage 1 game 4 is not scheduled"):
        services.playoff_result_record(
            event=classical, stage=1, game=4, result="1-0", expected_version=None, user=director
        )


def test_colours_must_match_the_schedule(classical, director):
    confirm(classical, director)
    game = plan_of(classical).stages[0].games[0]
    with pytest.raises(UserError, match="reload"):
        services.playoff_result_record(
            event=classical,
            stage=1,
            game=1,
            result="1-0",
            expected_version=None,
            user=director,
            white=game.black,
            black=game.white,
        )


def test_unknown_result_is_refused(classical, director):
    confirm(classical, director)
    with pytest.raises(UserError, match="unknown result"):
        services.playoff_result_record(
            event=classical, stage=1, game=1, result="2-0", expected_version=None, user=director
        )


def test_a_second_person_saving_the_same_game_gets_a_conflict(classical, director, arbiter):
    confirm(classical, director)
    seen = version_of(classical, 1, 1)
    services.playoff_result_record(
        event=classical, stage=1, game=1, result="1-0", expected_version=seen, user=arbiter
    )
    with pytest.raises(ResultConflict) as caught:
        services.playoff_result_record(
            event=classical, stage=1, game=1, result="0-1", expected_version=seen, user=director
        )
    assert (caught.value.current, caught.value.attempted) == ("1-0", "0-1")
    assert stored(classical)[0][4] == "1-0"  # never a silent overwrite


def test_correction_and_clear_refused_while_a_later_stage_has_results(classical, director):
    confirm(classical, director)
    play_current_stage(classical, director, drawn)
    services.playoff_result_record(
        event=classical, stage=2, game=1, result="1-0", expected_version=None, user=director
    )
    with pytest.raises(UserError, match="clear those first"):
        services.playoff_result_record(
            event=classical, stage=1, game=1, result="1-0", expected_version=None, user=director
        )
    with pytest.raises(UserError, match="clear those first"):
        services.playoff_result_clear(
            event=classical, stage=1, game=1, expected_version=None, user=director
        )
    services.playoff_result_clear(
        event=classical, stage=2, game=1, expected_version=None, user=director
    )
    services.playoff_result_clear(
        event=classical, stage=1, game=1, expected_version=None, user=director
    )
    # Stage 1 is incomplete again: the blitz stage is no longer scheduled nor stored.
    assert {row[0] for row in stored(classical)} == {1}
    assert len(plan_of(classical).stages) == 1


def test_undo_puts_the_previous_result_back(classical, director):
    confirm(classical, director)
    services.playoff_result_record(
        event=classical, stage=1, game=1, result="1-0", expected_version=None, user=director
    )
    services.playoff_result_record(
        event=classical, stage=1, game=1, result="0-1", expected_version=None, user=director
    )
    entry = AuditEntry.objects.get(event=classical, action="playoff.result.correct")
    services.playoff_result_undo(event=classical, entry_id=entry.pk, user=director)
    assert stored(classical)[0][4] == "1-0"
    entry.refresh_from_db()
    assert entry.undone_by.action == "playoff.result.undo"
    with pytest.raises(UserError):
        services.playoff_result_undo(event=classical, entry_id=entry.pk, user=director)


def test_every_write_bumps_the_results_version(classical, director):
    versions = [Event.objects.get(pk=classical.pk).results_version]
    confirm(classical, director)
    versions.append(Event.objects.get(pk=classical.pk).results_version)
    services.playoff_result_record(
        event=classical, stage=1, game=1, result="1-0", expected_version=None, user=director
    )
    versions.append(Event.objects.get(pk=classical.pk).results_version)
    assert versions == sorted(set(versions))


# --- the tie changes after confirmation --------------------------------------------------------


def test_a_changed_tie_requires_confirmation_again(classical, director):
    confirm(classical, director)
    # A corrected result in round 1: 4 beat 1, so 2 and 3 tie and 1 drops out.
    game = Game.objects.get(round__event=classical, round__number=1, white__start_no=1)
    game_result_record(game_id=game.pk, result="0-1", expected_version=None, user=director)
    event = Event.objects.get(pk=classical.pk)
    overview = selectors.playoff_overview(event)
    assert overview.stale and not overview.open_for_entry
    assert set(overview.tied) == {2, 3}
    with pytest.raises(UserError, match="confirm the playoff again"):
        services.playoff_result_record(
            event=event, stage=1, game=1, result="1-0", expected_version=None, user=director
        )
    confirm(event, director)
    assert set(PlayoffState.objects.get(event=event).tied) == {2, 3}
    assert plan_of(event).stages[0].kind == "rapid_match"


def test_reset_deletes_everything_but_the_audit_trail(classical, director):
    confirm(classical, director)
    play_current_stage(classical, director, drawn)
    services.playoff_reset(event=classical, user=director)
    assert not PlayoffGame.objects.filter(event=classical).exists()
    assert not PlayoffState.objects.filter(event=classical).exists()
    entry = AuditEntry.objects.get(event=classical, action="playoff.reset")
    assert len(entry.before["games"]) == 6


# --- the exchange format keeps the playoff (design.md §4) ---------------------------------------


def _export(slug: str) -> dict:
    out = StringIO()
    call_command("export_event", slug, stdout=out)
    return json.loads(out.getvalue())


def test_export_import_keeps_playoff_results_and_gives_the_same_plan(director, tmp_path):
    event = gct_event(director, preset="gct-2019-rapid-blitz")
    confirm(event, director)
    play_current_stage(event, director, drawn)
    play_current_stage(event, director, lambda stage, game: "1-0")  # Armageddon round 1
    original = plan_of(event)
    document = _export(event.slug)
    assert document["lots_seed"] == event.lots_seed
    assert [g["result"] for g in document["playoff_games"]][:4] == ["1/2-1/2"] * 3 + ["1-0"]
    document["slug"] = "imported-copy"
    path = tmp_path / "event.json"
    path.write_text(json.dumps(document))
    call_command("import_event", str(path), stdout=StringIO())
    copy = Event.objects.get(slug="imported-copy")
    # The same seed redraws the same pairing numbers, byes and pairings; the results as played
    # restore the Armageddon colours (the coin toss itself is not in the exchange format).
    assert to_json(plan_of(copy)) == to_json(original)
    assert _export("imported-copy")["playoff_games"] == document["playoff_games"]
