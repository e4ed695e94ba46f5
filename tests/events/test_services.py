"""Result entry, conflicts, undo, pairings validation and the regulation lock (issue 2)."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from events.errors import RegulationLocked, ResultConflict, UserError
from events.models import AuditEntry, Event, Game, Player, RoundSlot
from events.services import (
    ByeInput,
    EventFields,
    PairingInput,
    PlayerFields,
    audit_undo,
    event_update,
    game_result_record,
    player_register,
    round_pairings_set,
)

pytestmark = pytest.mark.django_db


def board(event: Event, number: int) -> Game:
    return Game.objects.get(round__event=event, board=number)


def test_result_is_recorded_audited_and_bumps_the_version(event, arbiter):
    game = board(event, 1)
    version_before = event.results_version
    game_result_record(game_id=game.pk, result="1-0", expected_version=game.version, user=arbiter)
    game.refresh_from_db()
    event.refresh_from_db()
    assert game.result == "1-0"
    assert event.results_version > version_before
    entry = AuditEntry.objects.get(event=event, game=game)
    assert (entry.user, entry.before, entry.after) == (arbiter, {"result": ""}, {"result": "1-0"})


def test_a_stale_version_is_a_conflict_with_both_values_and_changes_nothing(
    event, director, arbiter
):
    game = board(event, 1)
    seen_version = game.version
    game_result_record(game_id=game.pk, result="1-0", expected_version=seen_version, user=director)
    with pytest.raises(ResultConflict) as caught:
        game_result_record(
            game_id=game.pk, result="0-1", expected_version=seen_version, user=arbiter
        )
    assert (caught.value.current, caught.value.attempted) == ("1-0", "0-1")
    game.refresh_from_db()
    assert game.result == "1-0"
    assert AuditEntry.objects.filter(game=game).count() == 1


def test_undo_restores_the_previous_result_as_a_new_audit_entry(event, director):
    game = board(event, 1)
    game_result_record(game_id=game.pk, result="1-0", expected_version=None, user=director)
    game_result_record(game_id=game.pk, result="1/2-1/2", expected_version=None, user=director)
    correction = AuditEntry.objects.filter(game=game).order_by("-id").first()
    audit_undo(event=event, entry_id=correction.pk, user=director)
    game.refresh_from_db()
    assert game.result == "1-0"
    correction.refresh_from_db()
    assert correction.undone_by is not None and correction.undone_by.action == "result.undo"
    with pytest.raises(UserError, match="already been undone"):
        audit_undo(event=event, entry_id=correction.pk, user=director)


def test_undo_refuses_to_overwrite_a_later_change(event, director):
    game = board(event, 1)
    game_result_record(game_id=game.pk, result="1-0", expected_version=None, user=director)
    first = AuditEntry.objects.filter(game=game).get()
    game_result_record(game_id=game.pk, result="0-1", expected_version=None, user=director)
    with pytest.raises(UserError, match="changed since"):
        audit_undo(event=event, entry_id=first.pk, user=director)
    game.refresh_from_db()
    assert game.result == "0-1"


@pytest.mark.parametrize(
    ("pairings", "byes", "message"),
    [
        pytest.param(
            [PairingInput(1, 1, 2), PairingInput(2, 2, 3)],
            [],
            "player 2 is already",
            id="player-paired-twice",
        ),
        pytest.param(
            [PairingInput(1, 1, 9)],
            [],
            "no player with start number 9",
            id="opponent-does-not-exist",
        ),
        pytest.param([PairingInput(1, 1, 1)], [], "cannot play themself", id="plays-themself"),
        pytest.param(
            [PairingInput(1, 1, 2)], [ByeInput(2, "half")], "player 2 is already", id="game-and-bye"
        ),
        pytest.param(
            [PairingInput(1, 1, 2), PairingInput(1, 3, 4)],
            [],
            "board is used twice",
            id="board-twice",
        ),
        pytest.param([], [ByeInput(1, "quarter")], "unknown bye kind", id="unknown-bye"),
    ],
)
def test_bad_pairings_are_refused_and_change_nothing(event, director, pairings, byes, message):
    before = list(Game.objects.filter(round__event=event).values_list("pk", flat=True))
    with pytest.raises(UserError, match=message):
        round_pairings_set(event=event, round_no=2, pairings=pairings, byes=byes, user=director)
    assert list(Game.objects.filter(round__event=event).values_list("pk", flat=True)) == before
    assert not event.round_set.filter(number=2).exists()


def test_a_round_with_results_cannot_be_repaired(event, director):
    game_result_record(
        game_id=board(event, 1).pk, result="1-0", expected_version=None, user=director
    )
    with pytest.raises(UserError, match="already has results"):
        round_pairings_set(event=event, round_no=1, pairings=[PairingInput(1, 1, 3)], user=director)


def test_the_database_itself_refuses_a_player_twice_in_a_round(event):
    game = board(event, 1)
    with pytest.raises(IntegrityError), transaction.atomic():
        RoundSlot.objects.create(round=game.round, player=game.white, game=board(event, 2))


def test_the_database_refuses_a_duplicate_start_number_and_self_play(event):
    player = Player.objects.filter(event=event).first()
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(event=event, start_no=player.start_no, name="Twin")
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.create(round=board(event, 1).round, board=9, white=player, black=player)


def test_duplicate_start_number_is_a_user_error(event, director):
    with pytest.raises(UserError, match="already taken"):
        player_register(event=event, fields=PlayerFields(name="X", start_no=1), user=director)


def fields_of(event: Event, **changes) -> EventFields:
    base = dict(
        name=event.name,
        system=event.system,
        time_control=event.time_control,
        rounds=event.rounds,
        start_date=event.start_date,
        preset=event.regulation.preset,
        overrides=event.regulation.overrides,
    )
    base.update(changes)
    return EventFields(**base)


def test_regulation_locks_once_round_one_has_a_result(event, director):
    event_update(event=event, fields=fields_of(event, preset="fide-2026"), user=director)
    game_result_record(
        game_id=board(event, 1).pk, result="1-0", expected_version=None, user=director
    )
    with pytest.raises(RegulationLocked):
        event_update(event=event, fields=fields_of(event, preset="fide-2024"), user=director)
    event.regulation.refresh_from_db()
    assert event.regulation.preset == "fide-2026"
    event_update(
        event=event,
        fields=fields_of(event, preset="fide-2024"),
        user=director,
        confirm_regulation=True,
    )
    event.regulation.refresh_from_db()
    assert event.regulation.preset == "fide-2024"
    change = AuditEntry.objects.filter(event=event, action="regulation.change").first()
    assert change.before["preset"] == "fide-2026" and change.after["preset"] == "fide-2024"


def test_unknown_tiebreak_code_is_refused_with_the_code_named(event, director):
    with pytest.raises(UserError, match="XYZ"):
        event_update(
            event=event,
            fields=fields_of(event, overrides={"tiebreaks": ["BH", "XYZ"]}),
            user=director,
        )


def test_closing_the_event_makes_it_final_and_reopening_undoes_it(event, director) -> None:
    from events.models import EventStatus, Game
    from events.selectors import rounds_progress, status_label
    from events.services import event_close, event_reopen, game_result_record

    with pytest.raises(UserError, match="round 1 board 1 has no result yet"):
        event_close(event=event, user=director)
    for game in Game.objects.filter(round__event=event):
        game_result_record(game_id=game.pk, result="1-0", expected_version=None, user=director)
    event.refresh_from_db()
    assert status_label(event, rounds_progress(event)) == "Round 1 of 3 complete"
    event_close(event=event, user=director)
    event.refresh_from_db()
    assert event.status == EventStatus.FINISHED
    assert status_label(event, rounds_progress(event)) == "Final"
    with pytest.raises(UserError, match="already closed"):
        event_close(event=event, user=director)
    event_reopen(event=event, user=director)
    event.refresh_from_db()
    assert event.status == EventStatus.RUNNING
    assert (
        AuditEntry.objects.filter(event=event, action__in=["event.close", "event.reopen"]).count()
        == 2
    )
