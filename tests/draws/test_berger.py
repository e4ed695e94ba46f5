"""Berger tables (FIDE C.05 Annex 1; rules-notes "Berger tables")."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from draws.berger import (
    Round,
    double_round_robin,
    free_round_player,
    single_round_robin,
    table_size,
    without_free_round,
)

FIELDS = range(2, 31)


def _colour_sequence(rounds: tuple[Round, ...], player: int) -> list[str]:
    """The player's colours round by round; a round without a game is left out."""
    colours = []
    for pairings in rounds:
        for white, black in pairings:
            if player == white:
                colours.append("W")
            elif player == black:
                colours.append("B")
    return colours


@pytest.mark.parametrize(
    ("round_no", "expected"),
    [
        pytest.param(1, ((1, 10), (2, 9), (3, 8), (4, 7), (5, 6)), id="rules-notes-10p-round-1"),
        pytest.param(2, ((10, 6), (7, 5), (8, 4), (9, 3), (1, 2)), id="rules-notes-10p-round-2"),
        pytest.param(3, ((2, 10), (3, 1), (4, 9), (5, 8), (6, 7)), id="rules-notes-10p-round-3"),
    ],
)
def test_ten_players_published_rounds(round_no: int, expected: Round) -> None:
    assert single_round_robin(10)[round_no - 1] == expected


def test_four_players_whole_published_table() -> None:
    # C.05 Annex 1, the 3/4-player table.
    assert single_round_robin(4) == (((1, 4), (2, 3)), ((4, 3), (1, 2)), ((2, 4), (3, 1)))


@pytest.mark.parametrize(("players", "size"), [(2, 2), (3, 4), (9, 10), (10, 10), (29, 30)])
def test_table_size_rounds_odd_fields_up(players: int, size: int) -> None:
    assert table_size(players) == size


@pytest.mark.parametrize("players", [-1, 0, 1])
def test_fewer_than_two_players_is_an_error(players: int) -> None:
    with pytest.raises(ValueError):
        single_round_robin(players)


@pytest.mark.parametrize("players", FIELDS)
def test_every_pair_meets_exactly_once(players: int) -> None:
    size = table_size(players)
    rounds = single_round_robin(players)
    met = Counter(frozenset(pairing) for pairings in rounds for pairing in pairings)
    assert len(rounds) == size - 1
    assert all(len(pairings) == size // 2 for pairings in rounds)
    assert set(met) == {frozenset(pair) for pair in combinations(range(1, size + 1), 2)}
    assert set(met.values()) == {1}


@pytest.mark.parametrize("players", FIELDS)
def test_everybody_plays_once_per_round(players: int) -> None:
    size = table_size(players)
    for pairings in single_round_robin(players):
        numbers = [number for pairing in pairings for number in pairing]
        assert sorted(numbers) == list(range(1, size + 1))


@pytest.mark.parametrize("players", FIELDS)
def test_colours_balanced_within_one(players: int) -> None:
    rounds = without_free_round(single_round_robin(players), players)
    for player in range(1, players + 1):
        colours = Counter(_colour_sequence(rounds, player))
        assert abs(colours["W"] - colours["B"]) <= 1


@pytest.mark.parametrize("players", FIELDS)
def test_double_round_robin_second_cycle_reverses_colours(players: int) -> None:
    single = single_round_robin(players)
    double = double_round_robin(players)
    cycle = len(single)
    assert len(double) == 2 * cycle
    assert double[cycle:] == tuple(tuple((b, w) for w, b in rnd) for rnd in single)
    games = Counter(pairing for rnd in double for pairing in rnd)
    assert all(games[(b, w)] == 1 for (w, b) in games)  # each pair once with each colour


@pytest.mark.parametrize("players", [n for n in FIELDS if n > 3])
def test_double_round_robin_swaps_last_two_rounds_of_first_cycle(players: int) -> None:
    single = single_round_robin(players)
    first_cycle = double_round_robin(players)[: len(single)]
    assert first_cycle == single[:-2] + (single[-1], single[-2])


@pytest.mark.parametrize("players", FIELDS)
def test_nobody_has_the_same_colour_three_times_running(players: int) -> None:
    # Across the cycle join above all; a free round does not break a run of colours.
    rounds = without_free_round(double_round_robin(players), players)
    for player in range(1, players + 1):
        sequence = "".join(_colour_sequence(rounds, player))
        assert "WWW" not in sequence and "BBB" not in sequence, (player, sequence)


@pytest.mark.parametrize("players", [n for n in FIELDS if n % 2])
def test_odd_field_free_round(players: int) -> None:
    free = players + 1
    full = single_round_robin(players)
    dropped = without_free_round(full, players)
    resting = [free_round_player(rnd, players) for rnd in full]
    assert sorted(r for r in resting if r is not None) == list(range(1, players + 1))
    for rnd, kept in zip(full, dropped, strict=True):
        assert len(kept) == len(rnd) - 1
        assert all(free not in pairing for pairing in kept)


@pytest.mark.parametrize("players", [n for n in FIELDS if n % 2 == 0])
def test_even_field_has_no_free_round(players: int) -> None:
    rounds = single_round_robin(players)
    assert without_free_round(rounds, players) == rounds
    assert all(free_round_player(rnd, players) is None for rnd in rounds)
