"""The Swiss round workflow (draws/swiss/services.py, draws/swiss/selectors.py; issue 14):
pair, review, change by hand, publish; requested byes, forbidden pairs, withdrawals, late
entries, the initial order and the initial colour (C.04.1–C.04.3 2025, C.04.2)."""

from __future__ import annotations

import pytest

from draws.models import ByeRequest, SwissRound
from draws.swiss import selectors, services
from draws.swiss.pairing import pair_round
from events.errors import UserError
from events.models import AuditEntry, Bye, Game, Player, Round
from events.services import PlayerFields, game_result_record
from tests.conftest import make_event


def play(event, number: int, result: str = "1-0") -> None:  # type: ignore[no-untyped-def]
    for game in Game.objects.filter(round__event=event, round__number=number):
        game_result_record(game_id=game.pk, result=result, expected_version=None, user=None)


def boards(event, number: int) -> list[tuple[int, int]]:  # type: ignore[no-untyped-def]
    return selectors.round_as_played(event, number)[0]


@pytest.mark.parametrize(
    ("rows", "order"),
    [
        pytest.param(
            [(1, 2100, "", "Bell"), (2, 2200, "", "Adams"), (3, 0, "", "Cole")],
            [2, 1, 3],
            id="C.04.2-initial-order-rating-first-unrated-last",
        ),
        pytest.param(
            [(1, 2300, "FM", "Ash"), (2, 2300, "IM", "Bee"), (3, 2300, "", "Ace")],
            [2, 1, 3],
            id="C.04.2-initial-order-title-breaks-equal-ratings",
        ),
        pytest.param(
            [(1, 2300, "WGM", "Ash"), (2, 2300, "FM", "Bee"), (3, 2300, "GM", "Cox")],
            [3, 1, 2],
            id="C.04.2-initial-order-title-order-GM-IM-WGM-FM",
        ),
        pytest.param(
            [(1, 1900, "", "zed"), (2, 1900, "", "Abel")],
            [2, 1],
            id="C.04.2-initial-order-then-name",
        ),
    ],
)
def test_initial_order(rows, order) -> None:  # type: ignore[no-untyped-def]
    assert selectors.initial_order(rows) == order


def test_a_closed_list_keeps_its_numbers_and_late_entries_follow() -> None:
    rows = [(1, 2000, "", "A"), (2, 2100, "", "B"), (3, 2500, "", "Late")]
    assert selectors.initial_order(rows) == [3, 2, 1]
    assert selectors.initial_order(rows, frozen=[2, 1]) == [2, 1, 3]


def test_pair_stores_the_engines_round_unpublished_for_review(director) -> None:
    event = make_event(director, players=7, rounds=5)
    record = services.swiss_round_pair(event=event, round_no=1, user=director)
    inputs = selectors.engine_input(event, 1)
    expected = pair_round(inputs.crosstable, inputs.request)
    assert boards(event, 1) == [(b.white, b.black) for b in expected.boards]
    assert record.bye == expected.bye is not None
    assert Bye.objects.get(round__event=event, round__number=1).player.start_no == expected.bye
    assert not Round.objects.get(event=event, number=1).published
    assert record.notes and record.source == "engine"
    assert AuditEntry.objects.filter(event=event, action="swiss.pair").exists()


def test_publish_then_results_then_no_repairing(director) -> None:
    event = make_event(director, players=6, rounds=5)
    services.swiss_round_pair(event=event, round_no=1, user=director)
    services.swiss_round_publish(event=event, round_no=1, user=director)
    assert Round.objects.get(event=event, number=1).published
    with pytest.raises(UserError, match="already published"):
        services.swiss_round_publish(event=event, round_no=1, user=director)
    game_result_record(
        game_id=Game.objects.filter(round__event=event).first().pk,  # type: ignore[union-attr]
        result="1-0",
        expected_version=None,
        user=director,
    )
    for refused in (
        lambda: services.swiss_round_pair(event=event, round_no=1, user=director),
        lambda: services.swiss_round_unpublish(event=event, round_no=1, user=director),
        lambda: services.swiss_round_discard(event=event, round_no=1, user=director),
        lambda: services.swiss_round_edit(
            event=event, round_no=1, change="swap", values=[1], user=director, confirm=True
        ),
    ):
        with pytest.raises(UserError, match="already has results"):
            refused()


def test_a_round_without_results_can_be_unpublished_repaired_and_discarded(director) -> None:
    event = make_event(director, players=6, rounds=5)
    services.swiss_round_pair(event=event, round_no=1, user=director)
    services.swiss_round_publish(event=event, round_no=1, user=director)
    services.swiss_round_unpublish(event=event, round_no=1, user=director)
    first = boards(event, 1)
    services.swiss_round_pair(event=event, round_no=1, user=director)
    assert boards(event, 1) == first  # the same rules give the same pairing
    services.swiss_round_discard(event=event, round_no=1, user=director)
    assert not Round.objects.filter(event=event, number=1).exists()
    assert not SwissRound.objects.filter(round__event=event).exists()


def test_the_next_round_waits_for_the_previous_results(director) -> None:
    event = make_event(director, players=6, rounds=5)
    with pytest.raises(UserError, match="round 1 has not been paired"):
        services.swiss_round_pair(event=event, round_no=2, user=director)
    services.swiss_round_pair(event=event, round_no=1, user=director)
    services.swiss_round_publish(event=event, round_no=1, user=director)
    with pytest.raises(
        UserError, match=r"round 1 has 3 game\(s\) without a result \(board 1, 2, 3\)"
    ):
        services.swiss_round_pair(event=event, round_no=2, user=director)
    assert not Round.objects.filter(event=event, number=2).exists()
    services.swiss_round_pair(event=event, round_no=2, user=director, allow_unfinished=True)
    assert len(boards(event, 2)) == 3


def test_a_manual_change_that_breaks_a_rule_needs_a_confirmation(director) -> None:
    event = make_event(director, players=6, rounds=5)
    services.swiss_round_pair(event=event, round_no=1, user=director)
    services.swiss_round_publish(event=event, round_no=1, user=director)
    play(event, 1)
    services.swiss_round_pair(event=event, round_no=2, user=director)
    before = boards(event, 2)
    # Pair two players who met in round 1: a rematch (C.04.1 b, criterion C1).
    rematch = boards(event, 1)[0]
    change = {"change": "set", "values": [1, rematch[0], rematch[1]]}
    with pytest.raises(services.NeedsConfirmation) as refusal:
        services.swiss_round_edit(event=event, round_no=2, user=director, **change)
    assert any(d.kind == "absolute" for d in refusal.value.differences)
    assert boards(event, 2) == before  # nothing written
    differences = services.swiss_round_edit(
        event=event, round_no=2, user=director, confirm=True, **change
    )
    assert differences and boards(event, 2)[0] == rematch
    assert SwissRound.objects.get(round__event=event, round__number=2).source == "edited"
    entry = AuditEntry.objects.filter(event=event, action="swiss.edit").get()
    assert entry.before["boards"] == [list(p) for p in before]
    assert entry.after["differences"][0]["kind"] == "absolute"


def test_swapping_colours_and_exchanging_players(director) -> None:
    event = make_event(director, players=8, rounds=5)
    services.swiss_round_pair(event=event, round_no=1, user=director)
    (w1, b1), (w2, b2) = boards(event, 1)[:2]
    services.swiss_round_edit(
        event=event, round_no=1, change="swap", values=[1], user=director, confirm=True
    )
    assert boards(event, 1)[0] == (b1, w1)
    services.swiss_round_edit(
        event=event, round_no=1, change="exchange", values=[w1, w2], user=director, confirm=True
    )
    assert boards(event, 1)[:2] == [(b1, w2), (w1, b2)]
    with pytest.raises(UserError, match="not paired in this round"):
        services.swiss_round_edit(
            event=event, round_no=1, change="exchange", values=[w1, 99], user=director
        )


def test_an_edit_as_the_rules_give_needs_no_confirmation(director) -> None:
    event = make_event(director, players=8, rounds=5)
    services.swiss_round_pair(event=event, round_no=1, user=director)
    (white, black) = boards(event, 1)[0]
    assert (
        services.swiss_round_edit(  # set board 1 to what it already is
            event=event, round_no=1, change="set", values=[1, white, black], user=director
        )
        == []
    )


def test_requested_byes(director) -> None:
    event = make_event(director, players=6, rounds=5)
    services.bye_request_record(event=event, start_no=2, round_no=1, kind="half", user=director)
    with pytest.raises(UserError, match="already asked for a bye in round 1"):
        services.bye_request_record(event=event, start_no=2, round_no=1, kind="zero", user=director)
    with pytest.raises(UserError, match="no player with start number 99"):
        services.bye_request_record(
            event=event, start_no=99, round_no=1, kind="half", user=director
        )
    services.swiss_round_pair(event=event, round_no=1, user=director)
    assert 2 not in {p for pair in boards(event, 1) for p in pair}
    half = Bye.objects.get(round__event=event, round__number=1, player__start_no=2)
    assert half.kind == "half"
    with pytest.raises(UserError, match="already paired"):
        services.bye_request_record(event=event, start_no=3, round_no=1, kind="half", user=director)


def test_a_forbidden_pair_is_kept_apart_and_an_impossible_one_is_named(director) -> None:
    event = make_event(director, players=4, rounds=3)
    services.swiss_round_pair(event=event, round_no=1, user=director)
    first = boards(event, 1)[0]
    services.swiss_round_discard(event=event, round_no=1, user=director)
    services.forbidden_pair_add(
        event=event, first=first[0], second=first[1], reason="siblings", user=director
    )
    services.swiss_round_pair(event=event, round_no=1, user=director)
    assert first not in boards(event, 1) and first[::-1] not in boards(event, 1)
    services.swiss_round_discard(event=event, round_no=1, user=director)
    others = [p for p in (1, 2, 3, 4) if p not in first]
    # Forbid every other opponent of the first player too: nobody is left for them.
    for other in others:
        services.forbidden_pair_add(event=event, first=first[0], second=other, user=director)
    with pytest.raises(UserError, match="cannot be paired") as refusal:
        services.swiss_round_pair(event=event, round_no=1, user=director)
    assert "forbidden" in str(refusal.value)
    assert not Round.objects.filter(event=event, number=1).exists()


def test_a_forbidden_pair_until_a_round(director) -> None:
    event = make_event(director, players=4, rounds=3)
    services.forbidden_pair_add(event=event, first=1, second=3, until_round=1, user=director)
    assert selectors.forbidden_pairs_in_force(event, 1) == {frozenset({1, 3})}
    assert selectors.forbidden_pairs_in_force(event, 2) == frozenset()
    with pytest.raises(UserError, match="already a forbidden pair"):
        services.forbidden_pair_add(event=event, first=3, second=1, user=director)


def test_a_withdrawn_player_is_not_paired_but_keeps_their_games(director) -> None:
    event = make_event(director, players=6, rounds=4)
    services.swiss_round_pair(event=event, round_no=1, user=director)
    services.swiss_round_publish(event=event, round_no=1, user=director)
    play(event, 1)
    with pytest.raises(UserError, match="already paired in round 1"):
        services.withdrawal_record(event=event, start_no=4, after_round=0, user=director)
    services.withdrawal_record(event=event, start_no=4, after_round=1, user=director)
    services.swiss_round_pair(event=event, round_no=2, user=director)
    assert 4 not in {p for pair in boards(event, 2) for p in pair}
    assert not Bye.objects.filter(round__number=2, player__start_no=4).exists()
    assert (
        Game.objects.filter(round__number=1, round__event=event).filter(white__start_no=4).exists()
        or Game.objects.filter(round__event=event, black__start_no=4).exists()
    )


def test_a_late_entry_gets_byes_for_the_rounds_already_paired(director) -> None:
    event = make_event(director, players=6, rounds=5)
    services.swiss_round_pair(event=event, round_no=1, user=director)
    services.swiss_round_publish(event=event, round_no=1, user=director)
    play(event, 1)
    late = services.late_entry_register(
        event=event, fields=PlayerFields(name="Late Larsen", rating=2100), missed="half", user=None
    )
    bye = Bye.objects.get(player=late)
    assert (bye.round.number, bye.kind) == (1, "half")
    services.swiss_round_pair(event=event, round_no=2, user=director)
    paired = {p for pair in boards(event, 2) for p in pair}
    assert late.start_no in paired | {selectors.swiss_round_of(event, 2).bye}
    zero = services.late_entry_register(
        event=event, fields=PlayerFields(name="Later Lund"), missed="zero", user=None
    )
    assert list(Bye.objects.filter(player=zero).values_list("kind", flat=True)) == ["zero", "zero"]


def test_settings_are_fixed_once_round_one_is_paired(director) -> None:
    event = make_event(director, players=4, rounds=3)
    services.swiss_setup_set(event=event, initial_colour="b", acceleration="", user=director)
    assert selectors.initial_colour_of(event) == ("b", "set by the director")
    services.swiss_round_pair(event=event, round_no=1, user=director)
    # C.04.3: pairing number 1 has the initial colour in round 1.
    top = selectors.pairing_numbers(event)[0]
    assert any(black == top for _, black in boards(event, 1))
    with pytest.raises(UserError, match="fixed"):
        services.swiss_setup_set(event=event, initial_colour="w", acceleration="", user=director)


def test_the_initial_colour_lot_is_reproducible(director) -> None:
    event = make_event(director, players=4, rounds=3)
    colour, source = selectors.initial_colour_of(event)
    assert colour in ("w", "b") and "lot" in source
    assert selectors.initial_colour_of(event) == (colour, source)


def test_closing_the_list_freezes_the_pairing_numbers(director) -> None:
    event = make_event(director, players=4, rounds=3)
    order = services.participants_close(event=event, user=director)
    late = services.late_entry_register(
        event=event, fields=PlayerFields(name="Strong Late", rating=2700), missed="zero", user=None
    )
    assert selectors.pairing_numbers(event) == [*order, late.start_no]
    with pytest.raises(UserError, match="already closed"):
        services.participants_close(event=event, user=director)


def test_baku_acceleration_reaches_the_engine(director) -> None:
    event = make_event(director, players=8, rounds=5)
    services.swiss_setup_set(event=event, initial_colour="w", acceleration="baku", user=director)
    request = selectors.engine_input(event, 1).request
    assert request.acceleration and all(points == 1 for _, points in request.acceleration)
    services.swiss_round_pair(event=event, round_no=1, user=director)


def test_only_a_swiss_is_paired(director) -> None:
    event = make_event(director, system="round_robin")
    with pytest.raises(UserError, match="only a Swiss"):
        services.swiss_round_pair(event=event, round_no=1, user=director)


def test_bye_requests_count_in_the_rounds_paired(director) -> None:
    event = make_event(director, players=5, rounds=3)
    services.bye_request_record(event=event, start_no=5, round_no=2, kind="zero", user=director)
    assert ByeRequest.objects.filter(player__event=event).count() == 1
    request = selectors.engine_input(event, 2).request
    assert request.requested_byes == ((5, "Z"),)
    assert Player.objects.filter(event=event).count() == 5


def test_the_next_round_waits_until_the_last_one_is_published(director) -> None:
    event = make_event(director, players=6, rounds=5)
    services.swiss_round_pair(event=event, round_no=1, user=director)
    play(event, 1)
    with pytest.raises(UserError, match="round 1 is still under review: publish it first"):
        services.swiss_round_pair(event=event, round_no=2, user=director)
    services.swiss_round_publish(event=event, round_no=1, user=director)
    services.swiss_round_pair(event=event, round_no=2, user=director)
