"""MSO multi-player games (formats/mso/rules.py; seed 003 "multi-player games" rules 1–5,
the * note on percentage of best opponent's score, clarifications 1–2; rules-notes "Mind Sports
Olympiad"). Case ids cite the seed clause."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from formats.mso.rules import (
    MULTI_PLAYER_TIEBREAKS,
    MultiEvent,
    MultiGame,
    MultiOptions,
    MultiPlayer,
    MultiPlayerError,
    PointsTable,
    best_opponent_percentage,
    cut_sequence,
    game_points,
    growing_cuts,
    parse_codes,
    rank_multiplayer,
    tiebreak_values,
    tournament_points,
)
from standings.registry import TiebreakSpec, parse_code

F = Fraction
TABLE = PointsTable(
    (
        (2, (F(1), F(0))),
        (3, (F(2), F(1), F(0))),
        (4, (F(3), F(2), F(1), F(0))),
    )
)


def game(round_no: int, board: int, *scores: tuple[int, int]) -> MultiGame:
    return MultiGame(round_no, board, tuple((p, F(s)) for p, s in scores))


def event(
    games: Sequence[MultiGame],
    *,
    players: int | None = None,
    byes: Sequence[tuple[int, int]] = (),
    options: MultiOptions | None = None,
) -> MultiEvent:
    seated = {p for g in games for p in g.players} | {p for _, p in byes}
    count = players or max(seated)
    return MultiEvent(
        "MSO test",
        tuple(MultiPlayer(p, f"Player {p:02d}") for p in range(1, count + 1)),
        tuple(games),
        TABLE,
        tuple(byes),
        options or MultiOptions(),
    )


# -- tournament points per game --------------------------------------------------------------


@pytest.mark.parametrize(
    ("scores", "shared", "expected"),
    [
        pytest.param(
            ((1, 50), (2, 40), (3, 30), (4, 20)),
            "average",
            {1: F(3), 2: F(2), 3: F(1), 4: F(0)},
            id="seed003-points-by-position",
        ),
        pytest.param(
            ((1, 50), (2, 30), (3, 30), (4, 20)),
            "average",
            {1: F(3), 2: F(3, 2), 3: F(3, 2), 4: F(0)},
            id="decision-tied-scores-share-positions-average",
        ),
        pytest.param(
            ((1, 30), (2, 30), (3, 30), (4, 20)),
            "highest",
            {1: F(3), 2: F(3), 3: F(3), 4: F(0)},
            id="decision-tied-scores-option-highest",
        ),
        pytest.param(
            ((1, -5), (2, 10), (3, -5)),
            "average",
            {1: F(1, 2), 2: F(2), 3: F(1, 2)},
            id="seed003-negative-scores-rank-normally",
        ),
    ],
)
def test_game_points(
    scores: tuple[tuple[int, int], ...], shared: str, expected: dict[int, Fraction]
) -> None:
    assert game_points(game(1, 1, *scores), TABLE, shared) == expected


def test_points_table_must_cover_the_table_size() -> None:
    with pytest.raises(MultiPlayerError):
        game_points(game(1, 1, (1, 1), (2, 2), (3, 3), (4, 4), (5, 5)), TABLE)
    with pytest.raises(MultiPlayerError):
        PointsTable(((3, (F(1), F(0))),)).for_size(3)


def test_byes_score_the_regulations_points() -> None:
    """Decision: a bye scores ``bye_points`` (the regulation's), default 0."""
    games = [game(1, 1, (1, 10), (2, 5), (3, 0))]
    assert tournament_points(event(games, byes=[(1, 4)]))[4] == 0
    options = MultiOptions(bye_points=F(1))
    assert tournament_points(event(games, byes=[(1, 4)], options=options))[4] == 1


# -- percentage of best opponent's score (rule 3 *) ---------------------------------------------


@pytest.mark.parametrize(
    ("scores", "options", "expected"),
    [
        pytest.param(
            ((1, 50), (2, 100), (3, 20)), MultiOptions(), F(1, 2), id="seed003-pbo-vs-winner"
        ),
        pytest.param(((1, 120), (2, 100)), MultiOptions(), F(11, 10), id="seed003-pbo-110-cap"),
        pytest.param(
            ((1, 105), (2, 100), (3, 1)),
            MultiOptions(),
            F(21, 20),
            id="seed003-pbo-winner-vs-runner-up",
        ),
        pytest.param(
            ((1, 10), (2, 0), (3, 0)), MultiOptions(), F(11, 10), id="decision-x-over-0-is-cap"
        ),
        pytest.param(((1, 0), (2, 0)), MultiOptions(), F(1), id="decision-0-over-0-is-100"),
        pytest.param(
            ((1, 0), (2, 0)), MultiOptions(zero_over_zero=F(0)), F(0), id="option-0-over-0"
        ),
        pytest.param(((1, -5), (2, 10)), MultiOptions(), F(0), id="decision-negative-clamped"),
        pytest.param(
            ((1, -5), (2, 10), (3, -10)),
            MultiOptions(negative_scores="shift"),
            F(1, 4),
            id="option-negative-shift",
        ),
        pytest.param(
            ((1, 5), (2, -10)), MultiOptions(), F(11, 10), id="decision-negative-best-is-0"
        ),
        pytest.param(((1, 6), (2, 5)), MultiOptions(cap=F(1)), F(1), id="option-cap"),
    ],
)
def test_best_opponent_percentage_per_game(
    scores: tuple[tuple[int, int], ...], options: MultiOptions, expected: Fraction
) -> None:
    assert best_opponent_percentage(game(1, 1, *scores), 1, options) == expected


def test_unknown_negative_score_rule() -> None:
    with pytest.raises(MultiPlayerError):
        best_opponent_percentage(game(1, 1, (1, 1), (2, 2)), 1, MultiOptions(negative_scores="x"))


AVERAGED = [
    game(1, 1, (1, 50), (2, 100)),  # 1: 1/2
    game(2, 1, (1, 120), (3, 100)),  # 1: 6/5 → capped 11/10
]


@pytest.mark.parametrize(
    ("byes", "options", "expected"),
    [
        # rules-notes: averaged per game, not total over total (170/200 = 17/20).
        pytest.param((), MultiOptions(), F(4, 5), id="seed003-pbo-averaged-over-rounds"),
        # A bye is not a round played (decision) ...
        pytest.param(((3, 1),), MultiOptions(), F(4, 5), id="decision-bye-not-a-round-played"),
        # ... unless the regulation gives it a percentage: (1/2 + 11/10 + 1) / 3.
        pytest.param(
            ((3, 1),), MultiOptions(bye_percentage=F(1)), F(13, 15), id="option-bye-percentage"
        ),
    ],
)
def test_percentage_averaged(
    byes: tuple[tuple[int, int], ...], options: MultiOptions, expected: Fraction
) -> None:
    values = tiebreak_values(event(AVERAGED, byes=byes, options=options), "PBO", [1])
    assert values[1] == expected


def test_cap_applies_per_game_before_averaging() -> None:
    """seed003-pbo-110-cap: uncapped, 1 would average (200 % + 50 %) / 2 = 125 %, above 2's
    steady 90 %; capped per game it is (110 % + 50 %) / 2 = 80 %, below."""
    games = [
        game(1, 1, (1, 100), (3, 50)),
        game(1, 2, (2, 90), (4, 100)),
        game(2, 1, (1, 50), (4, 100)),
        game(2, 2, (2, 90), (3, 100)),
    ]
    assert tiebreak_values(event(games), "PBO", [1, 2]) == {1: F(4, 5), 2: F(9, 10)}


# -- games won, cut sequences -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("shared", "expected"),
    [
        pytest.param(False, {1: F(1), 2: F(0)}, id="decision-shared-first-not-a-win"),
        pytest.param(True, {1: F(2), 2: F(1)}, id="option-shared-first-counts"),
    ],
)
def test_games_won(shared: bool, expected: dict[int, Fraction]) -> None:
    games = [game(1, 1, (1, 10), (2, 5), (3, 1)), game(2, 1, (1, 7), (2, 7), (3, 1))]
    options = MultiOptions(shared_win_counts=shared)
    assert tiebreak_values(event(games, options=options), "WON", [1, 2]) == expected


@pytest.mark.parametrize(
    ("opponents", "cuts"),
    [
        pytest.param(0, (), id="seed003-rule5-no-opponents"),
        pytest.param(1, (0,), id="seed003-rule5-one-opponent-only-cut0"),
        pytest.param(2, (1, 0), id="seed003-rule5-cut2-runs-out"),
        pytest.param(3, (2, 1, 0), id="seed003-rule5-three"),
        pytest.param(6, (2, 3, 4, 5, 1, 0), id="seed003-rule5-growing-then-1-then-0"),
    ],
)
def test_growing_cuts(opponents: int, cuts: tuple[int, ...]) -> None:
    assert growing_cuts(opponents) == cuts


@settings(max_examples=50, deadline=None)
@given(st.integers(min_value=0, max_value=60))
def test_growing_cuts_property(opponents: int) -> None:
    """Rule 5 and rules-notes: every cut below the number of opponents, each once."""
    cuts = growing_cuts(opponents)
    assert sorted(cuts) == list(range(opponents))
    assert cuts[-2:] == ((1, 0) if opponents >= 2 else cuts[-2:])


# -- Buchholz with equalisation and restart on split -----------------------------------------


def buchholz_event(opponents: Mapping[int, Sequence[int]], byes: Mapping[int, int]) -> MultiEvent:
    """Tied players 1, 2, 3 win two-player games against fillers whose points are listed: a
    filler loses its game (round i) and has byes (1 point each) in as many other rounds."""
    rounds = 12
    games: list[MultiGame] = []
    bye_list: list[tuple[int, int]] = []
    filler = 10
    for tied, points in opponents.items():
        for index, target in enumerate(points):
            round_no = index + 1
            games.append(game(round_no, tied, (tied, 10), (filler, 0)))
            free = [r for r in range(1, rounds + 1) if r != round_no][:target]
            bye_list += [(r, filler) for r in free]
            filler += 1
        start = len(points) + 1
        bye_list += [(r, tied) for r in range(start, start + byes.get(tied, 0))]
    return event(games, players=filler - 1, byes=bye_list, options=MultiOptions(bye_points=F(1)))


# Opponents' points: 1 and 2 have nine opponents, 3 has six (and three byes); all on 9 points.
RESTART = buchholz_event(
    {1: [10, 7, 5, 3, 1, 1, 0, 0, 0], 2: [8, 8, 5, 4, 1, 1, 1, 1, 1], 3: [2, 2, 2, 2, 2, 2]},
    {3: 3},
)


def test_equalisation_depends_on_who_is_tied() -> None:
    """seed003-clarification-2: tied with 3 (six opponents), 1 and 2 keep their six best
    opponents and cut-2 leaves 25 each; between themselves they keep all nine."""
    points = tournament_points(RESTART)
    assert points[1] == points[2] == points[3] == 9
    assert tiebreak_values(RESTART, "BHEQ/C2", [1, 2, 3]) == {1: 25, 2: 25, 3: 8}
    assert tiebreak_values(RESTART, "BHEQ/C2", [1, 2]) == {1: 27, 2: 28}
    # Carried on in the three-player group (no restart) cut-3 would favour 1: 22 to 21.
    assert tiebreak_values(RESTART, "BHEQ/C3", [1, 2, 3]) == {1: 22, 2: 21, 3: 6}


def test_restart_on_split_recomputes_for_the_smaller_group() -> None:
    """seed003-clarification-1: cut-2 splits {1, 2} from 3; {1, 2} start again, now compared
    on nine opponents each, and 2 wins on cut-2 (28 to 27)."""
    rows = rank_multiplayer(RESTART, ["BHEQ/GROW"])
    top = [row for row in rows if row.start_no in (1, 2, 3)]
    assert [row.start_no for row in top] == [2, 1, 3]
    assert top[0].decided_by == "BHEQ/C2"
    assert top[0].comparisons[-1].among == (1, 2)
    assert (top[0].comparisons[-1].value_a, top[0].comparisons[-1].value_b) == (28, 27)
    assert top[1].decided_by == "BHEQ/C2"
    assert top[1].comparisons[-1].among == (1, 2, 3)


def test_cut_sequence_follows_the_group() -> None:
    """seed003-rule5: six opponents after equalisation → C2–C5, C1, none; nine → C2–C8, …"""
    assert cut_sequence(RESTART, [1, 2, 3]) == (
        "BHEQ/C2",
        "BHEQ/C3",
        "BHEQ/C4",
        "BHEQ/C5",
        "BHEQ/C1",
        "BHEQ",
    )
    assert len(cut_sequence(RESTART, [1, 2])) == 9


# Two opponents each: cut-2 would leave nothing, so the sequence is C1, then no cut.
SHORT = buchholz_event({1: [4, 1], 2: [3, 3]}, {})


def test_cuts_run_out_of_opponents() -> None:
    """seed003-rule5 / rules-notes: with two opponents (4 and 1, against 3 and 3) cut-2 is
    skipped: the sequence is C1 (4 to 3, decides for 1), then no cut (5 to 6, unused)."""
    assert cut_sequence(SHORT, [1, 2]) == ("BHEQ/C1", "BHEQ")
    rows = [row for row in rank_multiplayer(SHORT, ["BHEQ/GROW"]) if row.start_no in (1, 2)]
    assert [row.start_no for row in rows] == [1, 2]
    assert rows[0].decided_by == "BHEQ/C1"


def test_level_on_everything_shares_the_place_or_uses_the_lot() -> None:
    """Players nothing separates share the place (design: ties are data) unless a lot is
    recorded."""
    level = buchholz_event({1: [3, 3], 2: [3, 3]}, {})
    rows = [row for row in rank_multiplayer(level) if row.start_no in (1, 2)]
    assert rows[0].rank == rows[1].rank and rows[0].shared and rows[0].decided_by is None
    lot = [2, 1] + list(range(3, 20))
    rows = [row for row in rank_multiplayer(level, lot_order=lot) if row.start_no in (1, 2)]
    assert [row.start_no for row in rows] == [2, 1] and rows[0].decided_by == "LOT"


# -- the whole chain, rules 1–2 ---------------------------------------------------------------

# Six players, three-player tables. Round 2 is the final round.
CHAIN = event(
    [
        game(1, 1, (1, 30), (2, 20), (3, 10)),
        game(1, 2, (4, 30), (5, 20), (6, 10)),
        game(2, 1, (5, 30), (1, 20), (6, 10)),
        game(2, 2, (4, 30), (2, 20), (3, 10)),
    ]
)


def test_final_round_board_then_result() -> None:
    """seed003-multi-player-1–2: 1 and 5 (3 points) played board 1 in the final round, 5 won
    it (rule 2); 6 and 3 (0 points): 6 was on board 1 (rule 1)."""
    rows = rank_multiplayer(CHAIN)
    assert [row.start_no for row in rows] == [4, 5, 1, 2, 6, 3]
    by_start = {row.start_no: row for row in rows}
    assert by_start[5].decided_by == "LRR"
    assert by_start[6].decided_by == "LRB"
    assert by_start[6].values["LRB"] == 1 and by_start[3].values["LRB"] == 2


def test_no_final_round_game_ranks_below_every_board() -> None:
    """Decision: a player with a bye in the final round ranks below every board."""
    games = [game(1, 1, (1, 10), (2, 5)), game(1, 2, (3, 10), (4, 5)), game(2, 1, (1, 10), (4, 5))]
    values = tiebreak_values(event(games, byes=[(2, 3)]), "LRB", [1, 3])
    assert values == {1: 1, 3: 2}


def test_percentage_separates_shared_final_positions() -> None:
    """seed003-multi-player-3: 1 and 4 share the final board's first place (same board, same
    result); 1's round-1 win (200 %, capped 110 %) beats 4's (60/57)."""
    games = [
        game(1, 1, (1, 100), (2, 50), (3, 40)),
        game(1, 2, (4, 60), (5, 57), (6, 20)),
        game(2, 1, (1, 50), (4, 50), (2, 10)),
        game(2, 2, (3, 50), (5, 40), (6, 30)),
    ]
    rows = rank_multiplayer(event(games))
    assert [row.start_no for row in rows[:2]] == [1, 4]
    assert rows[0].decided_by == "PBO"
    assert rows[0].values["PBO"] == F(21, 20)
    assert rows[1].values["PBO"] == (F(20, 19) + 1) / 2


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_ranking_is_a_permutation_with_ordered_points(data: st.DataObject) -> None:
    """Invariant: every player once; points never increase down the table; places ordered."""
    players = data.draw(st.integers(min_value=3, max_value=9))
    rounds = data.draw(st.integers(min_value=1, max_value=4))
    games = []
    for round_no in range(1, rounds + 1):
        order = data.draw(st.permutations(range(1, players + 1)))
        for board, start in enumerate(range(0, players - 1, 3), start=1):
            seats = order[start : start + 3]
            if len(seats) < 2:
                continue
            scores = data.draw(
                st.lists(st.integers(-5, 50), min_size=len(seats), max_size=len(seats))
            )
            games.append(
                MultiGame(
                    round_no, board, tuple((p, F(s)) for p, s in zip(seats, scores, strict=True))
                )
            )
    rows = rank_multiplayer(event(games, players=players))
    assert sorted(row.start_no for row in rows) == list(range(1, players + 1))
    assert all(a.points >= b.points for a, b in zip(rows, rows[1:], strict=False))
    assert all(a.rank <= b.rank for a, b in zip(rows, rows[1:], strict=False))


# -- input errors -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("games", "byes"),
    [
        pytest.param(
            [game(1, 1, (1, 1), (2, 2)), game(1, 2, (1, 3), (3, 1))], [], id="twice-in-a-round"
        ),
        pytest.param([game(1, 1, (1, 1), (2, 2))], [(1, 2)], id="game-and-bye-same-round"),
        pytest.param([game(1, 1, (1, 1))], [], id="one-player-game"),
        pytest.param([game(1, 1, (1, 1), (99, 2))], [], id="unknown-player"),
    ],
)
def test_bad_input(games: list[MultiGame], byes: list[tuple[int, int]]) -> None:
    bad = event(games, players=3, byes=byes)
    with pytest.raises(MultiPlayerError):
        rank_multiplayer(bad)


@pytest.mark.parametrize("codes", [["XYZ"], ["PBO", "PBO"], ["BHEQ/M1"]])
def test_bad_codes(codes: list[str]) -> None:
    with pytest.raises(MultiPlayerError):
        rank_multiplayer(CHAIN, codes)


def test_codes_are_parsed_in_the_registrys_notation() -> None:
    """A base code and one modifier at most (a cut or GROW), as the registry parses C.07's."""
    assert parse_codes(" bheq/c2, lrb ,BHEQ/GROW") == ("BHEQ/C2", "LRB", "BHEQ/GROW")
    assert parse_code("BHEQ/C3", MULTI_PLAYER_TIEBREAKS) == TiebreakSpec("BHEQ/C3", "BHEQ", ("C3",))


@pytest.mark.parametrize("code", ["BHEQ/C1/C2", "BHEQ/GROW/C2", "LRB/C1", "BHEQ/C", "SB", "PTS"])
def test_codes_the_multi_player_table_does_not_take(code: str) -> None:
    with pytest.raises(MultiPlayerError, match="unknown multi-player tie-break code"):
        parse_codes([code])


def test_growing_buchholz_has_no_values_of_its_own() -> None:
    """BHEQ/GROW stands for the group's cut sequence; only its cuts have values."""
    with pytest.raises(MultiPlayerError):
        tiebreak_values(RESTART, "BHEQ/GROW", [1, 2, 3])


def test_rows_show_the_values_their_ties_were_compared_on() -> None:
    """Ranked through the ranking engine without field values: a player alone on points shows
    points only (the product adds the group-independent values); the others show what their
    ties compared, in the order compared."""
    by_start = {row.start_no: row for row in rank_multiplayer(CHAIN)}
    assert by_start[4].values == {"PTS": 4}
    assert list(by_start[5].values) == ["PTS", "LRB", "LRR"]
    assert list(by_start[2].values) == ["PTS"]


def test_a_lot_that_misses_a_tied_player_is_a_multi_player_error() -> None:
    level = buchholz_event({1: [3, 3], 2: [3, 3]}, {})
    with pytest.raises(MultiPlayerError, match="lot"):
        rank_multiplayer(level, lot_order=[1])
