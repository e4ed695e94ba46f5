"""Cohen Chess schedules (formats/cohen/draw.py; seed 002 "Tournament Format", "Player Piece Color",
"Consolation Tournaments"). Case ids cite the seed clause."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from formats.cohen.draw import (
    ELITE_EIGHT_CONSOLATION,
    FINAL_FOUR,
    FIRST_ROUND_CONSOLATION,
    FOUR_PLAYER_TABLE,
    POOL_A,
    SINGLE_POOL,
    SMALL_FIELD_CONSOLATION,
    CohenFormatError,
    Pools,
    StageSchedule,
    consolation,
    divide_pools,
    elite_eight,
    final_four,
    first_round,
    seeding_order,
    small_field_round_robin,
    uses_pools,
)


def opponents(schedule: StageSchedule, player: int) -> list[int]:
    return [g.black if g.white == player else g.white for g in schedule.games_of(player)]


def check_first_round(pools: Pools) -> None:
    """Every clause of first round rules 1–2 and Player Piece Color rule 1."""
    schedule = first_round(pools)
    odd = len(pools.players) % 2
    assert len(pools.a) - len(pools.b) == odd  # rule 1: pool A holds the extra player
    assert schedule.slots == 4 + odd  # rule 2: four slots, five for an odd field
    seats = Counter((game.slot, p) for game in schedule.games for p in game.players)
    assert max(seats.values()) == 1  # nobody plays twice in a slot
    in_pool = []
    for player in pools.players:
        games = schedule.games_of(player)
        assert len(games) == 4  # rule 2: four games each
        assert schedule.colours(player).count("W") == 2  # colour rule 1
        assert len(set(opponents(schedule, player))) == 4  # no rematch
        same_pool = [
            o for o in opponents(schedule, player) if pools.pool_of(o) == pools.pool_of(player)
        ]
        if same_pool:
            in_pool.append(player)
            assert len(same_pool) == 1 and pools.pool_of(player) == POOL_A
            assert sorted(g.slot for g in games)[-1] == 5  # the within-pool game is slot 5
            assert len([g for g in games if g.slot <= 4]) == 3  # three of the first four slots
        else:
            assert sorted(g.slot for g in games) == [1, 2, 3, 4]
    assert len(in_pool) == (4 if odd else 0)  # rule 2: four players of the larger pool
    for game in schedule.games:
        assert (game.pool is None) == (game.slot <= 4)
        assert game.round == game.slot


@pytest.mark.parametrize("players", range(8, 31))
def test_first_round_every_field_size_8_to_30(players: int) -> None:
    check_first_round(divide_pools(range(1, players + 1)))


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=8, max_value=40).flatmap(lambda n: st.permutations(range(1, n + 1))))
def test_first_round_property_any_field_8_to_40_any_seeding(seeding: list[int]) -> None:
    """Seed 002 first round rule 2 and colour rule 1 for any field and any seeding order."""
    check_first_round(divide_pools(seeding))


def test_first_round_nine_players_literal() -> None:
    """seed002-first-round-2-odd: pool A (1, 4, 5, 8, 9), pool B (2, 3, 6, 7); the four lowest
    seeds of pool A (9, 8, 5, 4) each sit out one slot and meet within the pool in slot 5."""
    pools = divide_pools(range(1, 10))
    assert pools == Pools(a=(1, 4, 5, 8, 9), b=(2, 3, 6, 7))
    schedule = first_round(pools)
    table = [[(g.white, g.black) for g in schedule.slot_games(s)] for s in range(1, 6)]
    assert table == [
        [(1, 2), (4, 3), (5, 6), (8, 7)],
        [(3, 1), (6, 4), (7, 5), (2, 9)],
        [(1, 6), (4, 7), (8, 2), (9, 3)],
        [(7, 1), (2, 5), (3, 8), (6, 9)],
        [(9, 8), (5, 4)],
    ]
    assert [g.pool for g in schedule.slot_games(5)] == [POOL_A, POOL_A]


@pytest.mark.parametrize(
    ("seeding", "a", "b"),
    [
        pytest.param(range(1, 9), (1, 4, 5, 8), (2, 3, 6, 7), id="seed002-first-round-1-even"),
        pytest.param(range(1, 10), (1, 4, 5, 8, 9), (2, 3, 6, 7), id="seed002-first-round-1-odd"),
        # The extra player falls to the second pool: the pools swap names (A is the larger).
        pytest.param(
            range(1, 12),
            (2, 3, 6, 7, 10, 11),
            (1, 4, 5, 8, 9),
            id="seed002-first-round-1-odd-extra-in-A",
        ),
    ],
)
def test_divide_pools_serpentine(seeding: range, a: tuple[int, ...], b: tuple[int, ...]) -> None:
    assert divide_pools(seeding) == Pools(a=a, b=b)


def test_seeding_order_rating_then_previous_rank_then_start_no() -> None:
    ratings = {1: 1500, 2: 1800, 3: 1500, 4: 1500, 5: 0}
    assert seeding_order(ratings, {4: 1, 3: 2}) == (2, 4, 3, 1, 5)
    assert seeding_order(ratings) == (2, 1, 3, 4, 5)


@pytest.mark.parametrize(
    "bad",
    [
        pytest.param(range(1, 8), id="seed002-7-or-fewer-use-round-robin"),
        pytest.param([1, 2, 3, 4, 5, 6, 7, 7], id="player-listed-twice"),
    ],
)
def test_divide_pools_rejects(bad: list[int]) -> None:
    with pytest.raises(CohenFormatError):
        divide_pools(bad)


def test_first_round_rejects_unbalanced_pools() -> None:
    with pytest.raises(CohenFormatError):
        first_round(Pools(a=(1, 2, 3, 4, 5, 6), b=(7, 8, 9, 10)))


# -- Elite Eight and Final Four (Player Piece Color rule 2) ------------------------------------

# The seed's list: "playing with the white pieces in these rounds are".
SEED_WHITE = {(1, 4): 4, (1, 3): 1, (1, 2): 1, (2, 4): 2, (2, 3): 2, (3, 4): 3}


def test_four_player_table_is_the_seeds_list() -> None:
    listed = {(a, b): white for slot in FOUR_PLAYER_TABLE for a, b, white in slot}
    assert listed == SEED_WHITE


@pytest.mark.parametrize(
    ("stage", "build"),
    [
        pytest.param(
            "elite-eight",
            lambda: elite_eight(Pools((11, 12, 13, 14), (21, 22, 23, 24))),
            id="seed002-elite-eight-1",
        ),
        pytest.param(FINAL_FOUR, lambda: final_four((11, 12, 13, 14)), id="seed002-final-four-1"),
    ],
)
def test_four_player_pools_follow_colour_rule_2(stage: str, build: object) -> None:
    schedule = build()  # type: ignore[operator]
    assert schedule.slots == 3  # three game slots, everyone plays in each
    pools = [(11, 12, 13, 14)] + ([(21, 22, 23, 24)] if stage == "elite-eight" else [])
    for ranked in pools:
        rank = {p: i + 1 for i, p in enumerate(ranked)}
        whites = {p: schedule.colours(p).count("W") for p in ranked}
        assert [whites[p] for p in ranked] == [2, 2, 1, 1]  # 1st, 2nd White twice
        for game in schedule.games:
            if game.white in rank:
                pair = tuple(sorted((rank[game.white], rank[game.black])))
                assert SEED_WHITE[pair] == rank[game.white]
        met = {frozenset(g.players) for g in schedule.games if g.white in rank}
        assert met == {frozenset(pair) for pair in combinations(ranked, 2)}
        for slot in (1, 2, 3):
            assert sorted(
                p for g in schedule.slot_games(slot) for p in g.players if p in rank
            ) == sorted(ranked)


def test_elite_eight_pools_keep_their_names_and_the_top_two_meet_last() -> None:
    schedule = elite_eight(Pools((1, 2, 3, 4), (5, 6, 7, 8)), first_round=6)
    assert {g.pool for g in schedule.games if 1 in g.players} == {"A"}
    assert {g.pool for g in schedule.games if 5 in g.players} == {"B"}
    assert [(g.white, g.black) for g in schedule.slot_games(3)] == [(1, 2), (3, 4), (5, 6), (7, 8)]
    assert schedule.rounds == (6, 7, 8)


@pytest.mark.parametrize(
    "pools",
    [
        pytest.param(Pools((1, 2, 3, 4, 5), (6, 7, 8)), id="seed002-elite-eight-1-four-each"),
        pytest.param(Pools((1, 2, 3, 4), (4, 6, 7, 8)), id="player-twice"),
    ],
)
def test_elite_eight_rejects(pools: Pools) -> None:
    with pytest.raises(CohenFormatError):
        elite_eight(pools)


def test_final_four_is_one_pool_of_four() -> None:
    assert {g.pool for g in final_four((4, 3, 2, 1)).games} == {SINGLE_POOL}
    with pytest.raises(CohenFormatError):
        final_four((1, 2, 3))


# -- Consolation tournaments ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("stage", "players", "meetings", "slots"),
    [
        pytest.param(FIRST_ROUND_CONSOLATION, 0, 0, 0, id="seed002-consolation-1A-nobody"),
        pytest.param(FIRST_ROUND_CONSOLATION, 1, 0, 0, id="seed002-consolation-1A-one-player"),
        pytest.param(FIRST_ROUND_CONSOLATION, 2, 2, 2, id="seed002-consolation-1A-two-twice"),
        pytest.param(FIRST_ROUND_CONSOLATION, 3, 2, 6, id="seed002-consolation-1A-three-twice"),
        pytest.param(FIRST_ROUND_CONSOLATION, 4, 1, 3, id="seed002-consolation-1A-four-once"),
        pytest.param(FIRST_ROUND_CONSOLATION, 7, 1, 7, id="seed002-consolation-1A-seven-once"),
        pytest.param(ELITE_EIGHT_CONSOLATION, 4, 1, 3, id="seed002-consolation-2A-once"),
        pytest.param(SMALL_FIELD_CONSOLATION, 3, 2, 6, id="seed002-7-or-fewer-consolation"),
    ],
)
def test_consolation_round_robins(stage: str, players: int, meetings: int, slots: int) -> None:
    ranked = list(range(101, 101 + players))
    schedule = consolation(stage, ranked, first_round=10)
    assert schedule.slots == slots
    met = Counter(frozenset(g.players) for g in schedule.games)
    assert set(met) == {frozenset(pair) for pair in combinations(ranked, 2)}
    assert set(met.values()) <= {meetings}
    if meetings == 2:  # the second meeting reverses the colours
        for pair in met:
            whites = {g.white for g in schedule.games if frozenset(g.players) == pair}
            assert whites == set(pair)
    assert all(g.round == 9 + g.slot for g in schedule.games)


def test_consolation_rejects_other_stages() -> None:
    with pytest.raises(CohenFormatError):
        consolation(FINAL_FOUR, [1, 2, 3])


# -- 7 or fewer players ----------------------------------------------------------------------


@pytest.mark.parametrize("players", range(4, 8))
def test_small_field_round_robin(players: int) -> None:
    """seed002-7-or-fewer-first-round-1: everyone plays everyone once."""
    ranked = list(range(1, players + 1))
    schedule = small_field_round_robin(ranked)
    met = Counter(frozenset(g.players) for g in schedule.games)
    assert met == Counter({frozenset(pair): 1 for pair in combinations(ranked, 2)})
    assert not uses_pools(players)


@pytest.mark.parametrize("players", [3, 8])
def test_small_field_bounds(players: int) -> None:
    with pytest.raises(CohenFormatError):
        small_field_round_robin(range(1, players + 1))
    assert uses_pools(players) == (players >= 8)
