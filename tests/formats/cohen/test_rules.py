"""Cohen Chess advancement and final places (formats/cohen/rules.py; seed 002 first round rules 4–7,
Elite Eight rules 4–7, Final Four rules 3–8, Ranking rules 3–6, Consolation Tournaments, the
7-or-fewer format). Case ids cite the seed clause."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from events.records import Crosstable, Entrant, RoundResult
from formats.cohen.draw import (
    ELITE_EIGHT_CONSOLATION,
    FIRST_ROUND_CONSOLATION,
    SMALL_FIELD_CONSOLATION,
    Pools,
    StageSchedule,
    consolation,
    divide_pools,
    elite_eight,
    final_four,
    first_round,
    small_field_round_robin,
)
from formats.cohen.rules import (
    CohenTieError,
    StageField,
    advance_elite_eight,
    advance_first_round,
    advance_small_field,
    final_four_tie,
    final_places,
    rank_pool,
)

CODES = {"1-0": ("1", "0"), "0-1": ("0", "1"), "1/2": ("=", "=")}
Game = tuple[int, int, int, str]  # (round, white, black, result)


def build(
    players: Sequence[int], games: Sequence[Game], byes: Sequence[tuple[int, int, str]] = ()
) -> Crosstable:
    results: dict[int, list[RoundResult]] = {p: [] for p in players}
    for round_no, white, black, result in games:
        white_code, black_code = CODES[result]
        results[white].append(RoundResult(round_no, black, "w", white_code))
        results[black].append(RoundResult(round_no, white, "b", black_code))
    for round_no, start_no, code in byes:
        results[start_no].append(RoundResult(round_no, None, "-", code))
    last = max((r.round for rows in results.values() for r in rows), default=0)
    entrants = tuple(
        Entrant(p, f"Player {p:02d}", results=tuple(sorted(results[p], key=lambda r: r.round)))
        for p in players
    )
    return Crosstable("Cohen test", last, entrants)


def lower_number_wins(
    schedule: StageSchedule, upsets: Mapping[frozenset[int], str] = {}
) -> list[Game]:
    """Every game won by the lower start number, except the listed pairs (a result code)."""
    games: list[Game] = []
    for g in schedule.games:
        result = upsets.get(frozenset(g.players))
        if result is None:
            result = "1-0" if g.white < g.black else "0-1"
        games.append((g.round, g.white, g.black, result))
    return games


IDENTITY_PREVIOUS = {p: p for p in range(1, 41)}

# -- first round -------------------------------------------------------------------------------

# Ten players, pools A (1, 4, 5, 8, 9) and B (2, 3, 6, 7, 10); the lower number wins, except
# that 8 beats 7. Points: 1: 4; 2, 3, 4, 5: 3; 8: 2; 6, 9: 1; 7, 10: 0.
TEN = divide_pools(range(1, 11))
TEN_R1 = first_round(TEN)
TEN_TABLE = build(range(1, 11), lower_number_wins(TEN_R1, {frozenset((7, 8)): "1-0"}))


def test_ten_players_first_round_advancement() -> None:
    """seed002-first-round-5: pool winners 1 and 2 (2 over 3 on rule 4 I, previous ranking),
    the next six overall; 7 and 10 (both pool B) out; pool A's lowest qualifier (9) moves."""
    outcome = advance_first_round(
        TEN_TABLE, TEN, rounds=TEN_R1.rounds, previous_rank=IDENTITY_PREVIOUS
    )
    assert [ranking.winner for ranking in outcome.pool_rankings] == [1, 2]
    assert [row.start_no for row in outcome.overall] == [1, 2, 3, 4, 5, 8, 6, 9, 7, 10]
    assert outcome.eliminated == (7, 10)
    assert outcome.moved == (9,)
    assert outcome.next_pools == Pools(a=(1, 4, 5, 8), b=(2, 3, 6, 9))
    assert outcome.advanced == (1, 4, 5, 8, 2, 3, 6, 9)
    assert outcome.decision(2).route == "pool-winner"
    assert "PREV" in outcome.decision(2).reason
    assert (
        outcome.decision(9).route == "overall"
        and "moved from pool A to pool B" in outcome.decision(9).reason
    )
    assert outcome.decision(7).route == "eliminated"
    assert "consolation" in outcome.decision(7).reason


def test_ten_players_overall_uses_pool_ranking_rule_5c() -> None:
    """seed002-ranking-5C: 2 and 3 are level on points and never met; 2 won pool B (place 1),
    3 is 2nd in it, so 2 ranks above 3 overall by POOLRANK."""
    outcome = advance_first_round(
        TEN_TABLE, TEN, rounds=TEN_R1.rounds, previous_rank=IDENTITY_PREVIOUS
    )
    row = next(r for r in outcome.overall if r.start_no == 2)
    assert row.decided_by == "POOLRANK"


def test_ten_players_multi_way_tie_rule_6() -> None:
    """seed002-ranking-6A–B: 2, 3, 4, 5 tie on 3 points; head-to-head gives 2 and 3 one point,
    4 and 5 none: no single best or worst, so the best subset {2, 3} goes above {4, 5} and each
    pair is ranked again with the two-way chain (POOLRANK)."""
    outcome = advance_first_round(
        TEN_TABLE, TEN, rounds=TEN_R1.rounds, previous_rank=IDENTITY_PREVIOUS
    )
    decided = {row.start_no: row.decided_by for row in outcome.overall}
    assert (decided[2], decided[3], decided[4]) == ("POOLRANK", "H2H", "POOLRANK")
    among = next(r for r in outcome.overall if r.start_no == 3).comparisons[-1].among
    assert among == (2, 3, 4, 5)


def test_pool_winner_level_on_everything_needs_a_lot() -> None:
    """seed002-ranking-4J: without a previous ranking or birth dates, 2 and 3 stay level."""
    with pytest.raises(CohenTieError) as raised:
        advance_first_round(TEN_TABLE, TEN, rounds=TEN_R1.rounds)
    assert set(raised.value.tied) >= {2, 3}
    lot = [3, 2, 1, 4, 5, 6, 7, 8, 9, 10]
    outcome = advance_first_round(TEN_TABLE, TEN, rounds=TEN_R1.rounds, lot_order=lot)
    assert outcome.pool_rankings[1].winner == 3


# Twelve players: every pool-A player wins every inter-pool game, so six of pool A qualify with
# pool B's winner and one more: the two lowest of pool A move (rule 5, repeated).
TWELVE = divide_pools(range(1, 13))
TWELVE_R1 = first_round(TWELVE)
TWELVE_TABLE = build(
    range(1, 13),
    [(g.round, g.white, g.black, "1-0" if g.white in TWELVE.a else "0-1") for g in TWELVE_R1.games],
)


def test_rebalancing_repeats_until_four_and_four() -> None:
    """seed002-first-round-5-rebalance: 6–2 after qualification; 12 then 9 move to pool B."""
    outcome = advance_first_round(
        TWELVE_TABLE, TWELVE, rounds=TWELVE_R1.rounds, previous_rank=IDENTITY_PREVIOUS
    )
    assert TWELVE.a == (1, 4, 5, 8, 9, 12)
    assert outcome.moved == (12, 9)
    assert outcome.next_pools == Pools(a=(1, 4, 5, 8), b=(2, 9, 12, 3))
    assert outcome.eliminated == (6, 7, 10, 11)


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=8, max_value=16), st.integers(min_value=0, max_value=10**6))
def test_first_round_advancement_properties(players: int, seed: int) -> None:
    """seed002-first-round-5–6: eight go on (both pool winners among them), pools of four,
    everyone else to the consolation; movers come from the larger pool."""
    rng = random.Random(seed)
    pools = divide_pools(range(1, players + 1))
    schedule = first_round(pools)
    games = [(g.round, g.white, g.black, rng.choice(list(CODES))) for g in schedule.games]
    table = build(range(1, players + 1), games)
    lot = rng.sample(range(1, players + 1), players)
    outcome = advance_first_round(table, pools, rounds=schedule.rounds, lot_order=lot)
    assert outcome.next_pools is not None
    assert len(outcome.next_pools.a) == len(outcome.next_pools.b) == 4
    assert sorted(outcome.advanced + outcome.eliminated) == list(range(1, players + 1))
    winners = {ranking.winner for ranking in outcome.pool_rankings}
    assert winners <= set(outcome.advanced)
    assert {outcome.next_pools.a[0], outcome.next_pools.b[0]} == winners
    overall = [row.start_no for row in outcome.overall if row.start_no not in winners]
    assert overall[:6] == [p for p in overall if p in outcome.advanced]
    larger = [p for p in outcome.advanced if pools.pool_of(p) == "A"]
    side = "A" if len(larger) > 4 else "B"
    assert all(pools.pool_of(p) == side for p in outcome.moved)


# -- Elite Eight -------------------------------------------------------------------------------

# First-round points as full-point byes in rounds 1–4 (1: 4, 2: 1, 3: 2, 4: 2, 5: 2, 6: 3, 7: 2,
# 8: 1); the Elite Eight in rounds 5–7.
E8_POOLS = Pools(a=(1, 2, 3, 4), b=(5, 6, 7, 8))
E8 = elite_eight(E8_POOLS, first_round=5)
STAGE_ONE = {1: 4, 2: 1, 3: 2, 4: 2, 5: 2, 6: 3, 7: 2, 8: 1}
E8_RESULTS = {  # winner of each pairing
    frozenset((1, 2)): 2,
    frozenset((2, 3)): 2,
    frozenset((2, 4)): 2,
    frozenset((1, 3)): 1,
    frozenset((1, 4)): 1,
    frozenset((3, 4)): 3,
    frozenset((5, 6)): 5,
    frozenset((5, 7)): 5,
    frozenset((5, 8)): 5,
    frozenset((6, 7)): 6,
    frozenset((6, 8)): 6,
    frozenset((7, 8)): 7,
}
E8_TABLE = build(
    range(1, 9),
    [
        (g.round, g.white, g.black, "1-0" if E8_RESULTS[frozenset(g.players)] == g.white else "0-1")
        for g in E8.games
    ],
    [(r, p, "F") for p, n in STAGE_ONE.items() for r in range(1, n + 1)],
)


def test_elite_eight_pool_winner_by_pool_points() -> None:
    """seed002-ranking-3A / elite-eight-4: 2 wins pool A with 3 pool points although 1 has
    more points overall (6 to 4)."""
    outcome = advance_elite_eight(
        E8_TABLE, E8_POOLS, rounds=E8.rounds, previous_rank=IDENTITY_PREVIOUS
    )
    assert [ranking.winner for ranking in outcome.pool_rankings] == [2, 5]
    points = {row.start_no: row.points for row in outcome.overall}
    assert points[1] == 6 and points[2] == 4


def test_elite_eight_to_final_four() -> None:
    """seed002-elite-eight-5–6: winners 5 and 2 (in overall order), then the next two overall
    (1 and 6) form one pool; 3, 7, 4, 8 go to the consolation (3 over 7 on SOS)."""
    outcome = advance_elite_eight(
        E8_TABLE, E8_POOLS, rounds=E8.rounds, previous_rank=IDENTITY_PREVIOUS
    )
    assert outcome.advanced == (5, 2, 1, 6)
    assert outcome.next_pools is None and outcome.moved == ()
    assert outcome.eliminated == (3, 7, 4, 8)
    assert outcome.decision(3).reason.endswith("to the consolation tournament")
    row = next(r for r in outcome.overall if r.start_no == 3)
    assert row.decided_by == "SOS"


def test_pool_ranking_other_places_by_cumulative_points() -> None:
    """seed002-ranking-3B: below the winner, pool A ranks by cumulative points: 1, 3, 4."""
    ranking = rank_pool(E8_TABLE, "A", E8_POOLS.a, rounds=E8.rounds)
    assert ranking.order == (2, 1, 3, 4)
    assert ranking.places == ((2, 1), (1, 2), (3, 3), (4, 4))


# -- Final Four and final places -------------------------------------------------------------


def full_event(players: int, seed: int, *, upsets: float = 0.15) -> dict[str, object]:
    """Plays a whole event: the lower number usually wins (``upsets`` of games go the other way
    or are drawn). Returns the crosstable and stage fields."""
    rng = random.Random(seed)
    results: list[Game] = []

    def play(schedule: StageSchedule) -> None:
        for g in schedule.games:
            favourite_white = g.white < g.black
            roll = rng.random()
            if roll < upsets / 2:
                result = "1/2"
            elif roll < upsets:
                result = "0-1" if favourite_white else "1-0"
            else:
                result = "1-0" if favourite_white else "0-1"
            results.append((g.round, g.white, g.black, result))

    field = list(range(1, players + 1))
    pools = divide_pools(field)
    r1 = first_round(pools)
    play(r1)
    lot = field[::-1]
    first = advance_first_round(build(field, results), pools, rounds=r1.rounds, lot_order=lot)
    assert first.next_pools is not None
    e8 = elite_eight(first.next_pools, first_round=r1.slots + 1)
    play(e8)
    cons1 = consolation(FIRST_ROUND_CONSOLATION, first.eliminated, first_round=r1.slots + 1)
    play(cons1)
    second = advance_elite_eight(
        build(field, results), first.next_pools, rounds=e8.rounds, lot_order=lot
    )
    ff = final_four(second.advanced, first_round=e8.rounds[-1] + 1)
    play(ff)
    cons2 = consolation(ELITE_EIGHT_CONSOLATION, second.eliminated, first_round=e8.rounds[-1] + 1)
    play(cons2)
    return {
        "table": build(field, results),
        "final_four": StageField(ff.players, ff.rounds),
        "elite_eight_consolation": StageField(cons2.players, cons2.rounds),
        "first_round_consolation": StageField(cons1.players, cons1.rounds),
        "lot": lot,
    }


@pytest.mark.parametrize("players", [8, 9, 13, 20])
def test_final_places_cover_the_field_in_stage_blocks(players: int) -> None:
    """seed002-final-four-7–8, consolation-1C–D, 2C–D: 1–4 from the Final Four, 5–8 from the
    Elite Eight consolation, 9th on from the first-round consolation."""
    event = full_event(players, players)
    table, ff = event["table"], event["final_four"]
    assert isinstance(table, Crosstable) and isinstance(ff, StageField)
    tie = final_four_tie(table, ff)
    places = final_places(
        table,
        final_four=ff,
        elite_eight_consolation=event["elite_eight_consolation"],  # type: ignore[arg-type]
        first_round_consolation=event["first_round_consolation"],  # type: ignore[arg-type]
        final_four_winner=tie[0] if tie else None,
        lot_order=event["lot"],  # type: ignore[arg-type]
    )
    assert sorted(places.order) == list(range(1, players + 1))
    assert [row.place for row in places.rows] == list(range(1, players + 1))
    assert set(places.order[:4]) == set(ff.players)
    stages = [row.stage for row in places.rows]
    assert stages[:4] == ["final-four"] * 4
    assert stages[4:8] == ["elite-eight-consolation"] * 4
    assert stages[8:] == ["first-round-consolation"] * (players - 8)
    assert places.rows[4].reason.startswith("won the consolation pool")
    # each place below the champion explains itself criterion by criterion: the steps end
    # with the one the reason names (or every criterion, level, when the place is shared)
    explained = 0
    for row, below in zip(places.rows[1:-1], places.rows[2:], strict=True):
        if not row.steps or below.stage != row.stage:
            continue
        explained += 1
        code, mine, theirs = row.steps[-1]
        if row.shared:
            assert all(a == b for _, a, b in row.steps)
        else:
            assert f"on {code} ({mine} to {theirs})" in row.reason
            assert all(a == b for _, a, b in row.steps[:-1]) and mine != theirs
    assert explained >= 2


# A Final Four in rounds 7–9 (players 1–4, ranked in that order) with earlier points as
# full-point byes in rounds 1–6 standing for the previous stages.
FF = final_four((1, 2, 3, 4), first_round=7)


def final_four_table(
    winners: Mapping[frozenset[int], str], earlier: Mapping[int, int]
) -> Crosstable:
    games = [(g.round, g.white, g.black, winners[frozenset(g.players)]) for g in FF.games]
    byes = [(r, p, "F") for p, n in earlier.items() for r in range(1, n + 1)]
    return build(range(1, 5), games, byes)


def r(white: int, black: int, result: str) -> tuple[frozenset[int], str]:
    """A result keyed by pairing, given from the first-named player's side as White."""
    game = next(g for g in FF.games if set(g.players) == {white, black})
    if game.white != white:
        result = {"1-0": "0-1", "0-1": "1-0", "1/2": "1/2"}[result]
    return frozenset((white, black)), result


# 1 and 2 draw each other and beat 3 and 4 (2½ pool points each); 3 beats 4.
TIED_FF = dict(
    [r(1, 2, "1/2"), r(1, 3, "1-0"), r(1, 4, "1-0"), r(2, 3, "1-0"), r(2, 4, "1-0"), r(3, 4, "1-0")]
)


def test_final_four_two_way_tie_goes_to_the_extra_game() -> None:
    """seed002-final-four-3: 1 and 2 tie on pool points; the playoff engine gets them in the
    pool-winner chain's order and its winner is passed back."""
    table = final_four_table(TIED_FF, {1: 3, 2: 3, 3: 1, 4: 0})
    field = StageField((1, 2, 3, 4), FF.rounds)
    assert final_four_tie(table, field, previous_rank={2: 1, 1: 2}) == (2, 1)
    with pytest.raises(CohenTieError):
        final_places(table, final_four=field)
    places = final_places(table, final_four=field, final_four_winner=1)
    assert places.order == (1, 2, 3, 4)
    assert "extra games" in places.rows[0].reason


def test_final_four_places_two_to_four_by_overall_ranking() -> None:
    """seed002-final-four-8: 4 wins the pool on pool points; 2nd–4th follow cumulative points
    (3 has more overall points than 1 and 2 thanks to earlier stages)."""
    winners = dict(
        [
            r(1, 2, "1/2"),
            r(1, 3, "0-1"),
            r(1, 4, "0-1"),
            r(2, 3, "1/2"),
            r(2, 4, "0-1"),
            r(3, 4, "0-1"),
        ]
    )
    table = final_four_table(winners, {1: 3, 2: 2, 3: 3, 4: 1})
    field = StageField((1, 2, 3, 4), FF.rounds)
    assert final_four_tie(table, field) == ()
    places = final_places(table, final_four=field)
    # pool points: 4: 3, 3: 1½, 1: ½, 2: 1; overall: 3: 4½, 4: 4, 1: 3½, 2: 3
    assert places.order == (4, 3, 1, 2)
    assert places.rows[1].clause == "Cohen Chess rules, Final Four rule 8"


def test_winner_must_be_in_the_final_four() -> None:
    table = final_four_table(TIED_FF, {})
    with pytest.raises(ValueError):
        final_places(table, final_four=StageField((1, 2, 3, 4), FF.rounds), final_four_winner=9)


# -- consolation placement ---------------------------------------------------------------------

# Elite Eight consolation of 5, 6, 7, 8 in rounds 7–9 with earlier points as byes in rounds 1–6:
# 8 wins every consolation game; 6 beats 5; 7 draws 5 and 6. Consolation points: 8: 3, 6: 1½,
# 7: 1, 5: ½. Overall: 5: 4½, 8: 3, 7: 3, 6: 2½.
CONS = consolation(ELITE_EIGHT_CONSOLATION, (5, 6, 7, 8), first_round=7)
CONS_WINNER = {
    frozenset((5, 8)): 8,
    frozenset((6, 8)): 8,
    frozenset((7, 8)): 8,
    frozenset((5, 6)): 6,
}


def _consolation_result(white: int, black: int) -> str:
    winner = CONS_WINNER.get(frozenset((white, black)))
    if winner is None:
        return "1/2"
    return "1-0" if winner == white else "0-1"


CONS_GAMES = [
    (g.round, g.white, g.black, _consolation_result(g.white, g.black)) for g in CONS.games
]
CONS_EARLIER = {5: 4, 6: 1, 7: 2, 8: 0}
FF_FIELD = StageField((1, 2, 3, 4), FF.rounds)


def consolation_table() -> Crosstable:
    games = [(g.round, g.white, g.black, "1-0" if g.white < g.black else "0-1") for g in FF.games]
    byes = [(r, p, "F") for p, n in CONS_EARLIER.items() for r in range(1, n + 1)]
    return build(range(1, 9), games + CONS_GAMES, byes)


@pytest.mark.parametrize(
    ("order", "expected"),
    [
        # 5th: 8, the consolation winner; then "the overall scores": 5: 4½, 7: 3, 6: 2½.
        pytest.param("overall", (8, 5, 7, 6), id="seed002-consolation-2C-2D-overall-scores"),
        # The alternative reading (regulation option): consolation points 6: 1½, 7: 1, 5: ½.
        pytest.param("consolation", (8, 6, 7, 5), id="seed002-consolation-2D-consolation-points"),
    ],
)
def test_elite_eight_consolation_places(order: str, expected: tuple[int, ...]) -> None:
    table = consolation_table()
    field = StageField((5, 6, 7, 8), CONS.rounds)
    places = final_places(
        table, final_four=FF_FIELD, elite_eight_consolation=field, consolation_order=order
    )
    assert places.order[4:] == expected
    assert places.place_of(8) == 5
    assert places.rows[4].clause == "Cohen Chess rules, Consolation rule 2 C–D"


def test_first_round_consolation_starts_at_ninth_and_a_single_player_is_placed() -> None:
    """seed002-consolation-1C: the winner takes 9th; a consolation of one plays no games."""
    table = build(
        range(1, 10),
        [(g.round, g.white, g.black, "1-0" if g.white < g.black else "0-1") for g in FF.games]
        + CONS_GAMES,
    )
    places = final_places(
        table,
        final_four=FF_FIELD,
        elite_eight_consolation=StageField((5, 6, 7, 8), CONS.rounds),
        first_round_consolation=StageField((9,), ()),
    )
    assert places.place_of(9) == 9
    assert places.rows[-1].stage == "first-round-consolation"


def test_large_field_needs_the_elite_eight_consolation() -> None:
    table = consolation_table()
    with pytest.raises(ValueError):
        final_places(
            table,
            final_four=FF_FIELD,
            first_round_consolation=StageField((5, 6, 7, 8), CONS.rounds),
        )


def test_players_placed_twice_are_rejected() -> None:
    table = consolation_table()
    with pytest.raises(ValueError):
        final_places(
            table,
            final_four=FF_FIELD,
            elite_eight_consolation=StageField((4, 5, 6, 7), CONS.rounds),
        )


# -- 7 or fewer players ------------------------------------------------------------------------


def test_small_field_best_four_to_final_four_rest_to_consolation() -> None:
    """seed002-7-or-fewer-first-round-3–5 and second-round-1: six players, the lower number
    wins; 1–4 go on, 5 and 6 play the consolation (twice each) and take 5th and 6th."""
    field = list(range(1, 7))
    rr = small_field_round_robin(field)
    games = lower_number_wins(rr)
    outcome = advance_small_field(build(field, games), field, rounds=rr.rounds)
    assert outcome.advanced == (1, 2, 3, 4)
    assert outcome.eliminated == (5, 6)
    ff = final_four(outcome.advanced, first_round=rr.slots + 1)
    cons = consolation(SMALL_FIELD_CONSOLATION, outcome.eliminated, first_round=rr.slots + 1)
    assert cons.slots == 2
    games += (
        lower_number_wins(ff)
        + [
            (g.round, g.white, g.black, "1-0" if g.white == 6 else "0-1")
            for g in cons.games
            if g.white == 6
        ]
        + [(g.round, g.white, g.black, "1/2") for g in cons.games if g.white != 6]
    )
    places = final_places(
        build(field, games),
        final_four=StageField(ff.players, ff.rounds),
        first_round_consolation=StageField(cons.players, cons.rounds),
    )
    # 6 wins the consolation (1½ to ½) and takes 5th although 5 has more points overall.
    assert places.order == (1, 2, 3, 4, 6, 5)
    assert places.place_of(6) == 5


def test_small_field_cut_level_on_everything_needs_a_lot() -> None:
    """seed002-7-or-fewer-first-round-4: 4th and 5th level after the whole chain."""
    field = [1, 2, 3, 4, 5]
    rr = small_field_round_robin(field)
    games = [(g.round, g.white, g.black, "1/2") for g in rr.games]
    with pytest.raises(CohenTieError):
        advance_small_field(build(field, games), field, rounds=rr.rounds)
    outcome = advance_small_field(
        build(field, games), field, rounds=rr.rounds, lot_order=[5, 4, 3, 2, 1]
    )
    assert outcome.advanced == (5, 4, 3, 2)
