"""Editing, deleting and registering players without duplicates (issue 20, "Players"):
``events.services.player_update``, ``player_delete``, the duplicate rules on every way in
(form, pasted list, late entry, TRF and JSON imports), lists appended after the last player,
and the TRF of an event with a player who never played.

conftest's ``event``: a 4-player Swiss (Player 1..4, ratings 1990..1960), round 1 paired
1-2 and 3-4, no results.
"""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.db import IntegrityError, transaction

from draws.swiss import selectors as swiss_selectors
from draws.swiss.services import (
    late_entry_register,
    participants_close,
    swiss_round_pair,
    swiss_round_publish,
    withdrawal_record,
)
from events.errors import DuplicatesToConfirm, ImportFailed, PlayerConflict, UserError
from events.exchange import event_import_document
from events.imports import event_export_trf, event_import_trf
from events.models import AuditEntry, Bye, Event, Game, Player
from events.services import (
    ByeInput,
    PairingInput,
    PlayerFields,
    game_result_record,
    parse_player_csv,
    player_delete,
    player_register,
    player_update,
    players_register_many,
    round_pairings_set,
)
from tests.conftest import make_event

pytestmark = pytest.mark.django_db


def fields_of(player: Player, **changes: object) -> PlayerFields:
    """The player's fields as the edit form posts them, with ``changes``."""
    current = {
        "name": player.name,
        "federation": player.federation,
        "fide_id": player.fide_id,
        "rating": player.rating,
        "title": player.title,
        "sex": player.sex,
        "birth_date": player.birth_date,
        "birth_year": player.birth_year,
        "previous_rank": player.previous_rank,
    }
    return PlayerFields(**{**current, **changes})  # type: ignore[arg-type]


def player(event: Event, start_no: int) -> Player:
    return Player.objects.get(event=event, start_no=start_no)


# -- Editing ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "stored"),
    [
        pytest.param({"name": "Hansen, Ola"}, {"name": "Hansen, Ola"}, id="name"),
        pytest.param({"title": "FM"}, {"title": "FM"}, id="title"),
        pytest.param({"federation": "swe"}, {"federation": "SWE"}, id="federation"),
        pytest.param({"fide_id": "1503014"}, {"fide_id": "1503014"}, id="fide-id"),
        pytest.param({"rating": 2222}, {"rating": 2222}, id="rating"),
        pytest.param(
            {"birth_date": dt.date(2001, 2, 3)},
            {"birth_date": dt.date(2001, 2, 3), "birth_year": 2001},
            id="birth-date-sets-the-year",
        ),
        pytest.param({"birth_year": 1999}, {"birth_year": 1999}, id="year-of-birth-alone"),
        pytest.param({"sex": "w"}, {"sex": "w"}, id="sex"),
        pytest.param({"previous_rank": 7}, {"previous_rank": 7}, id="previous-rank"),
    ],
)
def test_any_field_is_corrected_after_round_1_is_paired_and_audited(
    event, director, change, stored
) -> None:
    before = player(event, 3)
    version = Event.objects.get(pk=event.pk).results_version
    player_update(
        event=event,
        start_no=3,
        fields=fields_of(before, **change),
        expected_version=before.version,
        user=director,
    )
    after = player(event, 3)
    assert {name: getattr(after, name) for name in stored} == stored
    assert after.version == before.version + 1
    assert Event.objects.get(pk=event.pk).results_version > version
    entry = AuditEntry.objects.filter(event=event, action="player.update").get()
    assert entry.user == director and set(entry.after) == set(stored)
    assert set(entry.before) == set(stored)
    assert entry.summary.startswith("Edited 3. Player 3:")


def test_an_edit_that_changes_nothing_writes_nothing(event, director) -> None:
    before = player(event, 2)
    player_update(
        event=event, start_no=2, fields=fields_of(before), expected_version=1, user=director
    )
    assert player(event, 2).version == 1
    assert not AuditEntry.objects.filter(action="player.update").exists()


def test_a_stale_form_is_a_conflict_and_changes_nothing(event, director) -> None:
    first = player(event, 1)
    player_update(
        event=event,
        start_no=1,
        fields=fields_of(first, rating=2100),
        expected_version=1,
        user=director,
    )
    with pytest.raises(PlayerConflict, match="Someone else changed 1. Player 1"):
        player_update(
            event=event,
            start_no=1,
            fields=fields_of(first, name="Typo"),
            expected_version=1,  # the version the second form was loaded with
            user=director,
        )
    assert (player(event, 1).name, player(event, 1).rating) == ("Player 1", 2100)


def test_a_start_number_moves_before_round_1_is_paired_and_not_after(event, director) -> None:
    fresh = make_event(director, name="Fresh")
    player_update(
        event=fresh,
        start_no=4,
        fields=fields_of(player(fresh, 4), start_no=9),
        expected_version=1,
        user=director,
    )
    assert sorted(fresh.players.values_list("start_no", flat=True)) == [1, 2, 3, 9]
    with pytest.raises(UserError, match="start number 2 is already taken by 2. Player 2"):
        player_update(
            event=fresh,
            start_no=9,
            fields=fields_of(player(fresh, 9), start_no=2),
            expected_version=2,
            user=director,
        )
    with pytest.raises(UserError, match="start numbers are fixed once round 1 is paired"):
        player_update(
            event=event,  # round 1 is paired: 1-2, 3-4
            start_no=4,
            fields=fields_of(player(event, 4), start_no=9),
            expected_version=1,
            user=director,
        )
    assert player(event, 4).name == "Player 4"


def test_a_closed_list_of_participants_fixes_the_start_numbers(director) -> None:
    fresh = make_event(director, name="Closed list")
    participants_close(event=fresh, user=director)
    with pytest.raises(UserError, match="the list of participants is closed"):
        player_update(
            event=fresh,
            start_no=1,
            fields=fields_of(player(fresh, 1), start_no=7),
            expected_version=1,
            user=director,
        )


def test_an_edit_into_another_player_s_fide_id_is_refused(event, director) -> None:
    two = player(event, 2)
    player_update(
        event=event,
        start_no=2,
        fields=fields_of(two, fide_id="1503014"),
        expected_version=1,
        user=director,
    )
    with pytest.raises(UserError, match="FIDE id 1503014 is already 2. Player 2's"):
        player_update(
            event=event,
            start_no=3,
            fields=fields_of(player(event, 3), fide_id="1503014"),
            expected_version=1,
            user=director,
        )
    assert player(event, 3).fide_id == ""


def test_an_edit_into_another_player_s_name_needs_a_confirmation(event, director) -> None:
    three = player(event, 3)
    with pytest.raises(DuplicatesToConfirm, match="may be the same person as 2. Player 2"):
        player_update(
            event=event,
            start_no=3,
            fields=fields_of(three, name="Player 2"),
            expected_version=1,
            user=director,
        )
    assert player(event, 3).name == "Player 3"
    player_update(
        event=event,
        start_no=3,
        fields=fields_of(three, name="Player 2"),
        expected_version=1,
        user=director,
        confirm_duplicates=True,
    )
    assert player(event, 3).name == "Player 2"


# -- Pairing numbers (C.04.2, Initial order) ----------------------------------------------------


def _play_round(event: Event, number: int, director) -> None:  # type: ignore[no-untyped-def]
    swiss_round_pair(event=event, round_no=number, user=director)
    swiss_round_publish(event=event, round_no=number, user=director)
    for game in Game.objects.filter(round__event=event, round__number=number):
        game_result_record(game_id=game.pk, result="1/2-1/2", expected_version=None, user=None)


def _raise_the_last(event: Event, director) -> None:  # type: ignore[no-untyped-def]
    last = player(event, 8)
    player_update(
        event=event,
        start_no=8,
        fields=fields_of(last, rating=2500),
        expected_version=last.version,
        user=director,
    )


def test_a_rating_correction_moves_pairing_numbers_until_round_4_is_paired(director) -> None:
    """C.04.2, Initial order: corrections may reassign the pairing numbers; "no modification
    of a pairing number is allowed after the fourth round has been paired"."""
    early = make_event(director, name="Early", players=8, rounds=6)
    _play_round(early, 1, director)
    _raise_the_last(early, director)
    assert swiss_selectors.pairing_numbers(early)[0] == 8  # the highest rating is number 1

    late = make_event(director, name="Late", players=8, rounds=6)
    for number in range(1, 5):
        _play_round(late, number, director)
    order = swiss_selectors.pairing_numbers(late)
    _raise_the_last(late, director)
    assert swiss_selectors.pairing_numbers(late) == order == list(range(1, 9))


# -- Deleting ---------------------------------------------------------------------------------


def test_a_player_without_a_game_is_deleted_and_the_audit_keeps_them(event, director) -> None:
    extra = player_register(
        event=event, fields=PlayerFields(name="No Show", fide_id="77"), user=director
    )
    player_delete(event=event, start_no=extra.start_no, expected_version=1, user=director)
    assert not Player.objects.filter(event=event, name="No Show").exists()
    entry = AuditEntry.objects.get(event=event, action="player.delete")
    assert entry.before["name"] == "No Show" and entry.before["fide_id"] == "77"


def test_a_player_with_a_game_cannot_be_deleted_and_is_told_to_withdraw(event, director) -> None:
    with pytest.raises(UserError, match="1. Player 1 has a game in round 1.*withdraw them"):
        player_delete(event=event, start_no=1, expected_version=1, user=director)
    assert Player.objects.filter(event=event, start_no=1).exists()


def test_a_late_entry_who_never_came_is_deleted_with_their_zero_point_byes(event, director) -> None:
    late = late_entry_register(
        event=event, fields=PlayerFields(name="Late, Lena"), missed="zero", user=director
    )
    assert Bye.objects.filter(player=late).count() == 1
    player_delete(event=event, start_no=late.start_no, expected_version=1, user=director)
    assert not Bye.objects.filter(round__event=event).exists()
    assert AuditEntry.objects.get(action="player.delete").before["byes"] == [
        {"round": 1, "kind": "zero"}
    ]


def test_a_pairing_allocated_bye_is_taking_part(director) -> None:
    odd = make_event(director, name="Odd", players=5)
    round_pairings_set(
        event=odd,
        round_no=1,
        pairings=[PairingInput(1, 1, 2), PairingInput(2, 3, 4)],
        byes=[ByeInput(5, "pairing")],
        user=director,
    )
    with pytest.raises(UserError, match="5. Player 5 has a bye that scored a win in round 1"):
        player_delete(event=odd, start_no=5, expected_version=1, user=director)


def test_deleting_with_a_stale_form_is_refused(event, director) -> None:
    extra = player_register(event=event, fields=PlayerFields(name="Extra"), user=director)
    player_update(
        event=event,
        start_no=extra.start_no,
        fields=fields_of(extra, rating=1500),
        expected_version=1,
        user=director,
    )
    with pytest.raises(PlayerConflict):
        player_delete(event=event, start_no=extra.start_no, expected_version=1, user=director)
    assert Player.objects.filter(pk=extra.pk).exists()


def test_withdrawing_a_player_who_never_played_points_to_delete(event, director) -> None:
    extra = player_register(event=event, fields=PlayerFields(name="No Show"), user=director)
    with pytest.raises(UserError, match="has not played a game: delete them"):
        withdrawal_record(event=event, start_no=extra.start_no, after_round=0, user=director)
    assert player(event, extra.start_no).withdrawn_after_round is None


# -- The TRF of an event with a player who never played ------------------------------------------


def _trf_lines(event: Event) -> dict[int, str]:
    return {
        int(line[4:8]): line for line in event_export_trf(event).splitlines() if line[:3] == "001"
    }


def test_a_player_who_never_played_is_not_in_the_trf(event, director) -> None:
    """Issue 20: "withdrew after round 0" wrote ``0000 - Z`` for them in every round."""
    for game in Game.objects.filter(round__event=event):
        game_result_record(game_id=game.pk, result="1-0", expected_version=None, user=director)
    no_show = player_register(event=event, fields=PlayerFields(name="No Show"), user=director)
    # An event from before deleting existed: the no-show was withdrawn after round 0.
    Player.objects.filter(pk=no_show.pk).update(withdrawn_after_round=0)
    assert sorted(_trf_lines(event)) == [1, 2, 3, 4]
    assert "\n062 4\n" in event_export_trf(event)

    Player.objects.filter(pk=no_show.pk).update(withdrawn_after_round=None)
    player_delete(event=event, start_no=no_show.start_no, expected_version=1, user=director)
    assert sorted(_trf_lines(event)) == [1, 2, 3, 4]


def test_a_withdrawn_player_who_played_stays_in_the_trf(event, director) -> None:
    for game in Game.objects.filter(round__event=event):
        game_result_record(game_id=game.pk, result="1-0", expected_version=None, user=director)
    withdrawal_record(event=event, start_no=4, after_round=1, user=director)
    assert _trf_lines(event)[4][91:99] == "   3 b 0"  # round 1, as played


# -- Duplicates on every way in, lists appended ---------------------------------------------------


PASTED = '"Berg, Ola",NOR,1800,111\n"Dahl, Kari",NOR,1700,222\nBerg Ola,NOR,1800,111\n'


def test_a_pasted_list_with_a_fide_id_twice_is_refused_with_its_lines(event, director) -> None:
    with pytest.raises(UserError, match="line 3: FIDE id 111 is also on line 1"):
        players_register_many(event=event, players=parse_player_csv(PASTED), user=director)
    assert event.players.count() == 4


def test_a_pasted_list_naming_a_registered_fide_id_is_refused(event, director) -> None:
    player_register(
        event=event, fields=PlayerFields(name="Dahl, Kari", fide_id="222"), user=director
    )
    text = '"Someone, New",NOR,1500,333\n"Dahl, Kari",NOR,1700,222\n'
    with pytest.raises(UserError, match="line 2: FIDE id 222 is already 5. Dahl, Kari's"):
        players_register_many(event=event, players=parse_player_csv(text), user=director)
    assert event.players.count() == 5


def test_a_pasted_list_with_names_alike_is_confirmed_then_appended(event, director) -> None:
    text = '"Player 2",NOR,1800\n"Nyberg, Siv",SWE,1650\n'
    with pytest.raises(DuplicatesToConfirm, match="line 1: Player 2 may be the same person"):
        players_register_many(event=event, players=parse_player_csv(text), user=director)
    assert event.players.count() == 4
    created = players_register_many(
        event=event,
        players=parse_player_csv(text),
        user=director,
        confirm_duplicates=True,
        append=True,
    )
    assert [(p.start_no, p.name) for p in created] == [(5, "Player 2"), (6, "Nyberg, Siv")]


def test_a_late_entry_with_a_registered_fide_id_is_refused(event, director) -> None:
    player_register(
        event=event, fields=PlayerFields(name="Dahl, Kari", fide_id="222"), user=director
    )
    with pytest.raises(UserError, match="FIDE id 222 is already 5. Dahl, Kari's"):
        late_entry_register(
            event=event,
            fields=PlayerFields(name="Dahl, K.", fide_id="222"),
            missed="zero",
            user=director,
        )
    with pytest.raises(DuplicatesToConfirm):
        late_entry_register(
            event=event, fields=PlayerFields(name="Kari Dahl"), missed="zero", user=director
        )
    assert event.players.count() == 5 and not Bye.objects.exists()


def test_the_form_refuses_the_same_fide_id_twice(event, director) -> None:
    player_register(event=event, fields=PlayerFields(name="A", fide_id="999"), user=director)
    with pytest.raises(UserError, match="FIDE id 999"):
        player_register(event=event, fields=PlayerFields(name="B", fide_id="999"), user=director)


def test_the_database_refuses_the_same_fide_id_twice_in_an_event(event, director) -> None:
    Player.objects.create(event=event, start_no=20, name="A", fide_id="4242")
    Player.objects.create(event=event, start_no=21, name="B", fide_id="0")
    Player.objects.create(event=event, start_no=22, name="C", fide_id="0")  # 0: no id
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(event=event, start_no=23, name="D", fide_id="4242")
    other = make_event(director, name="Elsewhere")
    Player.objects.create(event=other, start_no=20, name="A", fide_id="4242")  # another event


def trf_player(start_no: int, name: str, rating: int, fide_id: str) -> str:
    return f"001 {start_no:4d}      {name:<33} {rating:4d} NOR {fide_id:>11}"


TRF_TWICE = "\n".join(
    ["012 Twice", trf_player(1, "Aas, Per", 1800, "12345"), trf_player(2, "Bo, Liv", 1700, "12345")]
)


def test_importing_a_trf_of_registrations_with_a_fide_id_twice_is_refused(director) -> None:
    """No round played: a list of registrations, refused as registering it here is (a played
    event imports with the id set aside: tests/events/test_import_notes.py, issue 28)."""
    with pytest.raises(ImportFailed, match="FIDE id 12345 is also on the file's player 1"):
        event_import_trf(text=TRF_TWICE, user=director)
    assert not Event.objects.filter(name="Twice").exists()


def test_importing_a_json_event_with_a_fide_id_twice_is_refused(director) -> None:
    document = {
        "format": "tournament-event/1",
        "name": "Twice JSON",
        "system": "swiss",
        "time_control": "classical",
        "rounds": 3,
        "players": [
            {"start_no": 1, "name": "Aas, Per", "fide_id": "12345"},
            {"start_no": 2, "name": "Bo, Liv", "fide_id": "12345"},
        ],
    }
    with pytest.raises(ImportFailed, match=r"players\[1\]: FIDE id 12345 is also on players\[0\]"):
        event_import_document(text=json.dumps(document), user=director)
    assert not Event.objects.filter(name="Twice JSON").exists()


def test_a_player_who_drew_lots_is_not_deleted_and_keeps_their_number(director) -> None:
    """A drawing of lots names the players (RESTRICT): a refusal, never a server error."""
    from draws.services import draw_perform

    ten = make_event(director, name="Ten", players=10, system="round_robin", rounds=9)
    draw_perform(event=ten, user=director, seed="s")  # the lots, no schedule yet
    with pytest.raises(UserError, match="1. Player 1 is in the drawing of lots"):
        player_delete(event=ten, start_no=1, expected_version=1, user=director)
    with pytest.raises(UserError, match="start numbers are fixed: the lots have been drawn"):
        player_update(
            event=ten,
            start_no=1,
            fields=fields_of(player(ten, 1), start_no=11),
            expected_version=1,
            user=director,
        )
    assert ten.players.count() == 10 and player(ten, 1).name == "Player 1"
