"""The drawing of lots as a recorded ceremony: draw, record, reset, schedule (issue 4, seed 001)."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from itertools import combinations

import pytest
from django.db import IntegrityError, transaction

from draws.lots import derived_seed
from draws.models import CeremonyMode, CeremonyStatus, DrawCeremony, DrawEntry
from draws.selectors import ceremony_entries, draw_players
from draws.services import draw_entry_record, draw_perform, draw_reset, schedule_create
from draws.varma import VarmaPlayer, computer_draw, prepared_envelopes, recorded_draw
from events.errors import UserError
from events.models import AuditEntry, Bye, Event, Game, Player
from events.services import (
    EventFields,
    PairingInput,
    PlayerFields,
    event_create,
    game_result_record,
    player_register,
    players_register_many,
    round_pairings_set,
)

pytestmark = pytest.mark.django_db

# Ten players, 9/10 table: A (3, 4, 8), B (5, 7, 9), C (1, 6), D (2, 10) (seed 001, clause 5).
# Drawing order (clause 2): IND Anand, Gukesh, Harikrishna; RUS Karjakin, Nepomniachtchi; then
# the single representatives by code: CHN Ding, FRA Firouzja, NED Giri, NOR Carlsen, USA Caruana.
TEN = [
    ("Anand", "IND"),
    ("Gukesh", "IND"),
    ("Harikrishna", "IND"),
    ("Karjakin", "RUS"),
    ("Nepomniachtchi", "RUS"),
    ("Carlsen", "NOR"),
    ("Caruana", "USA"),
    ("Ding", "CHN"),
    ("Giri", "NED"),
    ("Firouzja", "FRA"),
]
# A valid physical ceremony for TEN: (start_no, envelope, number) in drawing order.
CEREMONY = [
    (1, "A", 3),
    (2, "A", 4),
    (3, "A", 8),
    (4, "C", 1),
    (5, "C", 6),
    (8, "B", 5),
    (10, "B", 7),
    (9, "B", 9),
    (6, "D", 2),
    (7, "D", 10),
]


def make_field(
    director,  # type: ignore[no-untyped-def]
    players: list[tuple[str, str]] = TEN,
    *,
    system: str = "round_robin",
    rounds: int = 9,
    name: str = "Varma Cup",
    lots_seed: str = "varma-cup-2025",
) -> Event:
    event = event_create(
        fields=EventFields(
            name=name,
            system=system,
            time_control="classical",
            rounds=rounds,
            start_date=dt.date(2025, 5, 1),
            lots_seed=lots_seed,
        ),
        director=director,
    )
    if players:
        players_register_many(
            event=event,
            players=[PlayerFields(name=n, federation=fed) for n, fed in players],
            user=director,
        )
    event.refresh_from_db()
    return event


def stored(event: Event) -> list[tuple[int, str, int]]:
    return ceremony_entries(DrawCeremony.objects.filter(event=event).first())


def snapshot(event: Event) -> tuple[object, ...]:
    """What a refused service must leave untouched."""
    return (
        list(DrawCeremony.objects.filter(event=event).values_list("status", "warnings")),
        stored(event),
        AuditEntry.objects.filter(event=event).count(),
        Event.objects.get(pk=event.pk).results_version,
        Game.objects.filter(round__event=event).count(),
    )


def pairing_numbers(event: Event) -> dict[int, int]:
    """Pairing number → start number."""
    return {number: start_no for start_no, _envelope, number in stored(event)}


# --- computer draw ----------------------------------------------------------------------------


def test_computer_draw_is_the_engine_draw_from_the_events_seed(director):
    event = make_field(director)
    version = event.results_version
    ceremony = draw_perform(event=event, user=director)
    ceremony_seed = derived_seed("varma-cup-2025", "varma")
    expected = computer_draw(draw_players(event), ceremony_seed)
    assert ceremony.mode == CeremonyMode.COMPUTER and ceremony.status == CeremonyStatus.COMPLETE
    assert ceremony.seed == ceremony_seed and ceremony.table == "9/10"
    assert stored(event) == [(d.start_no, d.envelope, d.number) for d in expected.order]
    assert ceremony.warnings == []
    assert Event.objects.get(pk=event.pk).results_version > version
    entry = AuditEntry.objects.filter(event=event, action="draw.perform").get()
    assert entry.user == director and entry.after["entries"] == [list(e) for e in stored(event)]


def test_computer_draw_is_reproducible_from_the_seed(director):
    event = make_field(director)
    draw_perform(event=event, user=director)
    first = stored(event)
    draw_reset(event=event, user=director)
    draw_perform(event=event, user=director)
    assert stored(event) == first
    twin = make_field(director, name="Twin Cup")  # same field, same seed, another event
    draw_perform(event=twin, user=director)
    assert stored(twin) == first
    draw_reset(event=event, user=director)
    draw_perform(event=event, user=director, seed="another seed")
    assert stored(event) != first
    assert DrawCeremony.objects.get(event=event).seed == "another seed"


def record_all(event: Event, entries: list[tuple[int, str, int]], user) -> None:  # type: ignore[no-untyped-def]
    for start_no, envelope, number in entries:
        draw_entry_record(
            event=event, start_no=start_no, envelope=envelope, number=number, user=user
        )


def test_the_forced_6_12_meeting_of_twelve_players_is_stored_as_a_warning(director):
    """FIDE's 11/12 table puts 6 and 12 in group C, paired in round 11 (draws.varma docstring)."""
    field = [("Kramnik", "RUS"), ("Grischuk", "RUS")] + [
        (f"Player {i}", f"X{letter}{letter}") for i, letter in enumerate("ABCDEFGHIJ")
    ]
    event = make_field(director, field, rounds=11)
    envelope_of = {n: e.label for e in prepared_envelopes(12) for n in e.numbers}
    singles = zip(range(3, 13), [1, 2, 3, 4, 5, 7, 8, 9, 10, 11], strict=True)
    record_all(
        event,
        [(2, "C", 12), (1, "C", 6)] + [(s, envelope_of[n], n) for s, n in singles],
        director,
    )
    (warning,) = DrawCeremony.objects.get(event=event).warnings
    assert (warning["round"], warning["federation"], warning["numbers"]) == (11, "RUS", [6, 12])
    assert "Kramnik" in warning["message"] and "group C" in warning["message"]


@pytest.mark.parametrize(
    ("players", "reason"),
    [
        pytest.param([], "at least two players", id="no-players"),
        pytest.param([("Alone", "IND")], "at least two players", id="one-player"),
    ],
)
def test_computer_draw_refuses_a_field_too_small(director, players, reason):
    event = make_field(director, players)
    before = snapshot(event)
    with pytest.raises(UserError, match=reason):
        draw_perform(event=event, user=director)
    assert snapshot(event) == before


def test_computer_draw_refuses_when_lots_are_already_drawn_or_being_recorded(director):
    event = make_field(director)
    draw_entry_record(event=event, start_no=1, envelope="A", number=3, user=director)
    before = snapshot(event)
    with pytest.raises(UserError, match="physical ceremony is being recorded"):
        draw_perform(event=event, user=director)
    assert snapshot(event) == before
    draw_reset(event=event, user=director)
    draw_perform(event=event, user=director)
    with pytest.raises(UserError, match="already been drawn"):
        draw_perform(event=event, user=director)


@pytest.mark.parametrize("seed", ["", "   ", "x" * 201])
def test_computer_draw_refuses_an_unusable_seed(director, seed):
    event = make_field(director)
    with pytest.raises(UserError, match="seed"):
        draw_perform(event=event, user=director, seed=seed)
    assert not DrawCeremony.objects.filter(event=event).exists()


# --- recorded physical ceremony ---------------------------------------------------------------


def test_a_recorded_ceremony_is_stored_entry_by_entry_and_completes(director):
    event = make_field(director)
    for start_no, envelope, number in CEREMONY[:-1]:
        draw_entry_record(
            event=event, start_no=start_no, envelope=envelope, number=number, user=director
        )
    ceremony = DrawCeremony.objects.get(event=event)
    assert (ceremony.mode, ceremony.status, ceremony.seed) == ("recorded", "open", "")
    draw_entry_record(event=event, start_no=7, envelope="d", number=10, user=director)
    ceremony.refresh_from_db()
    assert ceremony.status == "complete" and ceremony.completed_at is not None
    assert stored(event) == CEREMONY
    expected = recorded_draw(draw_players(event), CEREMONY)
    assert len(ceremony.warnings) == len(expected.warnings)
    assert AuditEntry.objects.filter(event=event, action="draw.entry").count() == len(CEREMONY)


# (entries already recorded, the refused entry, the reason) — seed 001 clauses 2–4.
INVALID_ENTRIES = [
    pytest.param([], (2, "A", 3), "it is Anand's turn", id="clause-2-not-their-turn"),
    pytest.param([], (1, "E", 3), "there is no envelope 'E'", id="unknown-envelope"),
    pytest.param([], (1, "C", 1), "too few for the 3 IND", id="clause-3-envelope-too-small"),
    pytest.param([], (1, "A", 5), "number 5 is not in envelope A", id="number-not-in-envelope"),
    pytest.param(
        CEREMONY[:1], (2, "B", 5), "draw from envelope A while it holds", id="clause-3-contingent"
    ),
    pytest.param(CEREMONY[:1], (2, "A", 3), "already drawn by start no. 1", id="number-taken"),
    pytest.param(CEREMONY, (1, "A", 3), "ceremony is complete", id="ceremony-complete"),
]


@pytest.mark.parametrize(("recorded", "entry", "reason"), INVALID_ENTRIES)
def test_each_invalid_entry_is_refused_with_its_reason_and_nothing_saved(
    director, recorded, entry, reason
):
    event = make_field(director)
    for start_no, envelope, number in recorded:
        draw_entry_record(
            event=event, start_no=start_no, envelope=envelope, number=number, user=director
        )
    before = snapshot(event)
    start_no, envelope, number = entry
    with pytest.raises(UserError, match=reason):
        draw_entry_record(
            event=event, start_no=start_no, envelope=envelope, number=number, user=director
        )
    assert snapshot(event) == before
    if not recorded:
        assert not DrawCeremony.objects.filter(event=event).exists()


def test_the_free_round_of_an_odd_field_cannot_be_drawn(director):
    event = make_field(director, TEN[:9])  # 9 players: number 10 is the free round
    with pytest.raises(UserError, match="number 10 is the free round"):
        draw_entry_record(event=event, start_no=1, envelope="D", number=10, user=director)
    assert not DrawCeremony.objects.filter(event=event).exists()


def test_recording_is_refused_after_a_computer_draw(director):
    event = make_field(director)
    draw_perform(event=event, user=director)
    before = snapshot(event)
    with pytest.raises(UserError, match="drawn by computer"):
        draw_entry_record(event=event, start_no=1, envelope="A", number=3, user=director)
    assert snapshot(event) == before


def test_a_field_changed_mid_ceremony_must_be_reset(director):
    event = make_field(director)
    draw_entry_record(event=event, start_no=1, envelope="A", number=3, user=director)
    player_register(
        event=event, fields=PlayerFields(name="Aronian", federation="IND"), user=director
    )
    with pytest.raises(UserError, match="field has changed"):
        draw_entry_record(event=event, start_no=2, envelope="A", number=4, user=director)


# --- the database backs the rules -------------------------------------------------------------


def test_the_database_refuses_a_number_or_a_player_twice(director):
    event = make_field(director)
    draw_entry_record(event=event, start_no=1, envelope="A", number=3, user=director)
    ceremony = DrawCeremony.objects.get(event=event)
    anand, gukesh = Player.objects.filter(event=event, start_no__in=[1, 2]).order_by("start_no")
    with pytest.raises(IntegrityError), transaction.atomic():
        DrawEntry.objects.create(
            ceremony=ceremony, position=2, player=gukesh, envelope="A", number=3
        )
    with pytest.raises(IntegrityError), transaction.atomic():
        DrawEntry.objects.create(
            ceremony=ceremony, position=2, player=anand, envelope="A", number=4
        )


# --- reset ------------------------------------------------------------------------------------


def test_reset_discards_the_draw_and_the_audit_log_keeps_it(director):
    event = make_field(director)
    for start_no, envelope, number in CEREMONY[:3]:
        draw_entry_record(
            event=event, start_no=start_no, envelope=envelope, number=number, user=director
        )
    draw_reset(event=event, user=director)
    assert not DrawCeremony.objects.filter(event=event).exists()
    entry = AuditEntry.objects.get(event=event, action="draw.reset")
    assert entry.before["entries"] == [list(e) for e in CEREMONY[:3]]
    with pytest.raises(UserError, match="no drawing of lots"):
        draw_reset(event=event, user=director)


def test_reset_is_refused_once_the_schedule_exists(director):
    event = make_field(director)
    draw_perform(event=event, user=director)
    schedule_create(event=event, user=director)
    before = snapshot(event)
    with pytest.raises(UserError, match="can no longer be reset"):
        draw_reset(event=event, user=director)
    assert snapshot(event) == before


# --- schedule ---------------------------------------------------------------------------------


def games_by_round(event: Event) -> dict[int, list[tuple[int, int, int]]]:
    """Round → [(board, white start no., black start no.)]."""
    rounds: dict[int, list[tuple[int, int, int]]] = {}
    rows = Game.objects.filter(round__event=event).order_by("round__number", "board")
    for number, board, white, black in rows.values_list(
        "round__number", "board", "white__start_no", "black__start_no"
    ):
        rounds.setdefault(number, []).append((board, white, black))
    return rounds


def test_schedule_is_the_berger_table_in_drawn_pairing_numbers(director):
    """C.05 Annex 1, 10 players: round 1 1-10 2-9 3-8 4-7 5-6; round 2 10-6 7-5 8-4 9-3 1-2."""
    event = make_field(director)
    record_all(event, CEREMONY, director)
    assert schedule_create(event=event, user=director) == 9
    player = pairing_numbers(event)
    rounds = games_by_round(event)
    assert sorted(rounds) == list(range(1, 10))
    assert rounds[2][0] == (1, player[10], player[6])  # round 2, board 1: 10 vs 6
    assert rounds[1] == [
        (b, player[w], player[k])
        for b, (w, k) in enumerate([(1, 10), (2, 9), (3, 8), (4, 7), (5, 6)], start=1)
    ]
    assert [(w, k) for _, w, k in rounds[3]] == [
        (player[w], player[k]) for w, k in [(2, 10), (3, 1), (4, 9), (5, 8), (6, 7)]
    ]
    met = Counter(frozenset((w, k)) for games in rounds.values() for _, w, k in games)
    assert set(met) == {frozenset(pair) for pair in combinations(range(1, 11), 2)}
    assert set(met.values()) == {1}
    assert DrawCeremony.objects.get(event=event).schedule_created
    assert AuditEntry.objects.filter(event=event, action="draw.schedule").count() == 1


def test_schedule_sets_the_rounds_to_the_table_and_records_the_change(director):
    event = make_field(director, rounds=7)
    draw_perform(event=event, user=director)
    schedule_create(event=event, user=director)
    assert Event.objects.get(pk=event.pk).rounds == 9
    entry = AuditEntry.objects.get(event=event, action="draw.schedule")
    assert (entry.before, entry.after["rounds"]) == ({"rounds": 7}, 9)
    assert "rounds 7 → 9" in entry.summary


def test_an_odd_field_has_a_free_round_and_no_bye(director):
    event = make_field(director, TEN[:9], rounds=3)
    draw_perform(event=event, user=director)
    schedule_create(event=event, user=director)
    rounds = games_by_round(event)
    assert Event.objects.get(pk=event.pk).rounds == 9
    assert [len(games) for games in rounds.values()] == [4] * 9
    free = [
        set(range(1, 10)) - {s for _, w, k in games for s in (w, k)} for games in rounds.values()
    ]
    assert sorted(s for (s,) in free) == list(range(1, 10))  # everybody rests once
    assert not Bye.objects.filter(round__event=event).exists()


def test_a_double_round_robin_plays_the_table_twice_with_colours_reversed(director):
    event = make_field(director, TEN[:4], system="double_round_robin", rounds=6)
    draw_perform(event=event, user=director)
    assert schedule_create(event=event, user=director) == 6
    rounds = games_by_round(event)
    first = Counter((w, k) for r in (1, 2, 3) for _, w, k in rounds[r])
    second = Counter((k, w) for r in (4, 5, 6) for _, w, k in rounds[r])
    assert first == second


def test_schedule_replaces_pairings_without_results(director):
    event = make_field(director)
    round_pairings_set(event=event, round_no=1, pairings=[PairingInput(1, 1, 2)], user=director)
    draw_perform(event=event, user=director)
    schedule_create(event=event, user=director)
    assert [len(games) for games in games_by_round(event).values()] == [5] * 9


def test_schedule_is_refused_for_an_event_that_is_not_a_round_robin(director):
    event = make_field(director, system="swiss")
    draw_perform(event=event, user=director)
    before = snapshot(event)
    with pytest.raises(UserError, match="only a round robin"):
        schedule_create(event=event, user=director)
    assert snapshot(event) == before


def test_schedule_is_refused_before_the_draw_is_complete(director):
    event = make_field(director)
    with pytest.raises(UserError, match="not finished"):
        schedule_create(event=event, user=director)
    draw_entry_record(event=event, start_no=1, envelope="A", number=3, user=director)
    before = snapshot(event)
    with pytest.raises(UserError, match="not finished"):
        schedule_create(event=event, user=director)
    assert snapshot(event) == before


def test_schedule_is_refused_once_a_round_has_results(director):
    event = make_field(director)
    round_pairings_set(event=event, round_no=1, pairings=[PairingInput(1, 1, 2)], user=director)
    game = Game.objects.get(round__event=event)
    game_result_record(game_id=game.pk, result="1-0", expected_version=None, user=director)
    draw_perform(event=event, user=director)
    before = snapshot(event)
    with pytest.raises(UserError, match="already have results"):
        schedule_create(event=event, user=director)
    assert snapshot(event) == before


def test_schedule_is_refused_when_the_field_changed_since_the_draw(director):
    event = make_field(director)
    draw_perform(event=event, user=director)
    player_register(
        event=event, fields=PlayerFields(name="Aronian", federation="USA"), user=director
    )
    before = snapshot(event)
    with pytest.raises(UserError, match="10 players drew, 11 are registered"):
        schedule_create(event=event, user=director)
    assert snapshot(event) == before


def test_engine_records_match_the_registered_players(director):
    event = make_field(director, TEN[:3])
    assert draw_players(event) == [
        VarmaPlayer(1, "Anand", "IND"),
        VarmaPlayer(2, "Gukesh", "IND"),
        VarmaPlayer(3, "Harikrishna", "IND"),
    ]


def test_a_player_who_drew_cannot_be_deleted_alone_but_the_event_can(director):
    from django.db.models import RestrictedError

    event = make_field(director)
    draw_perform(event=event, user=director)
    with pytest.raises(RestrictedError), transaction.atomic():
        Player.objects.filter(event=event, start_no=1).delete()
    Event.objects.filter(pk=event.pk).delete()
    assert not DrawCeremony.objects.exists() and not DrawEntry.objects.exists()
