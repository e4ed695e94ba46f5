"""The seeds' own tie-breaks (standings/chains.py): MSO (seed 003) and Cohen Chess (seed 002).

Values are checked through the registry, as the ranking engine calls them; where opponents'
points matter the request carries them explicitly, so each case shows its arithmetic.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from fractions import Fraction

import pytest

from events.records import Crosstable, Entrant, RoundResult
from events.sources import COHEN_CHESS, MSO, cite
from standings.chains import SEED_CODES
from standings.ranking import PROCEDURES, explain, points_of, rank
from standings.registry import (
    REGISTRY,
    TiebreakRequest,
    TiebreakValue,
    UnknownTiebreak,
    parse_code,
)

RESULT_CODES = {"1-0": ("1", "0"), "0-1": ("0", "1"), "1/2": ("=", "=")}
F = Fraction


def build(
    players: int,
    games: Sequence[tuple[int, int, int, str]] = (),
    *,
    byes: Sequence[tuple[int, int, str]] = (),
    born: Mapping[int, dt.date] | None = None,
) -> Crosstable:
    """A crosstable from (round, white, black, "1-0"|"0-1"|"1/2") and (round, start_no, code)."""
    results: dict[int, list[RoundResult]] = {p: [] for p in range(1, players + 1)}
    for round_no, white, black, result in games:
        white_code, black_code = RESULT_CODES[result]
        results[white].append(RoundResult(round_no, black, "w", white_code))
        results[black].append(RoundResult(round_no, white, "b", black_code))
    for round_no, start_no, code in byes:
        results[start_no].append(RoundResult(round_no, None, "-", code))
    entrants = tuple(
        Entrant(
            p,
            f"Player {p}",
            birth_date=(born or {}).get(p),
            results=tuple(sorted(results[p], key=lambda r: r.round)),
        )
        for p in results
    )
    last = max((r.round for rows in results.values() for r in rows), default=0)
    return Crosstable("Test", last, entrants)


def values(
    crosstable: Crosstable,
    code: str,
    group: Sequence[int],
    *,
    points: Mapping[int, Fraction] | None = None,
    options: Mapping[str, object] | None = None,
) -> dict[int, TiebreakValue]:
    spec = parse_code(code)
    request = TiebreakRequest(
        crosstable=crosstable,
        spec=spec,
        edition="2024",
        points=points_of(crosstable) if points is None else points,
        group=frozenset(group),
        options=options or {},
    )
    return dict(REGISTRY[spec.base].compute(request))


def test_every_seed_code_is_registered_with_its_clause() -> None:
    assert [row.code for row in SEED_CODES] == [
        "PROG",
        "BHEQ",
        "SBEQ",
        "POOLPTS",
        "POOLH2H",
        "H2H",
        "POOLRANK",
        "COMMON",
        "SOS",
        "STRONG",
        "VSTOP",
        "PREV",
        "AGE",
    ]
    mso_codes = {"PROG", "BHEQ", "SBEQ"}
    for row in SEED_CODES:
        assert row.clause.startswith(cite(MSO if row.code in mso_codes else COHEN_CHESS))
        assert row.clause in REGISTRY[row.code].description


@pytest.mark.parametrize(
    ("code", "accepted"),
    [
        pytest.param("BHEQ/C2", True, id="seed003-two-player-1-cut2"),
        pytest.param("SBEQ/C1", True, id="seed003-clarification2-sb-cut1"),
        pytest.param("BHEQ/M1", False, id="no-median-modifier"),
        pytest.param("PROG/C1", False, id="seed003-two-player-3-takes-no-modifier"),
        pytest.param("H2H/P", False, id="seed002-h2h-takes-no-modifier"),
    ],
)
def test_modifiers(code: str, accepted: bool) -> None:
    if accepted:
        assert parse_code(code).modifiers
    else:
        with pytest.raises(UnknownTiebreak):
            parse_code(code)


# -- MSO (seed 003) ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("games", "byes", "expected"),
    [
        # rules-notes: W L W D → 1 + 1 + 2 + 2.5 = 6.5
        pytest.param(
            [(1, 1, 2, "1-0"), (2, 3, 1, "1-0"), (3, 1, 4, "1-0"), (4, 5, 1, "1/2")],
            [],
            F(13, 2),
            id="seed003-two-player-3-WLWD",
        ),
        # A half-point bye scores what it awards: 1, 1.5, 1.5 → 4
        pytest.param(
            [(1, 1, 2, "1-0"), (3, 1, 3, "0-1")],
            [(2, 1, "H")],
            F(4),
            id="seed003-two-player-3-half-bye",
        ),
    ],
)
def test_progressive_score(
    games: list[tuple[int, int, int, str]], byes: list[tuple[int, int, str]], expected: Fraction
) -> None:
    assert values(build(5, games, byes=byes), "PROG", [1])[1] == expected


# Player 1 met 3, 4, 5, 6 (W W L W); player 2 met 7, 8, 5 (W, W, L) and had a full-point bye.
EQUALISATION = build(
    8,
    [
        (1, 1, 3, "1-0"),
        (2, 4, 1, "0-1"),
        (3, 1, 5, "0-1"),
        (4, 6, 1, "0-1"),
        (1, 2, 7, "1-0"),
        (3, 8, 2, "0-1"),
        (4, 2, 5, "0-1"),
    ],
    byes=[(2, 2, "F")],
)
OPPONENT_POINTS = {1: F(3), 2: F(3), 3: F(1), 4: F(2), 5: F(3), 6: F(1, 2), 7: F(0), 8: F(2)}


@pytest.mark.parametrize(
    ("code", "group", "expected"),
    [
        # Clarification 2: player 1 has one opponent more, so loses the lowest (6, ½ point).
        pytest.param("BHEQ", [1, 2], {1: F(6), 2: F(5)}, id="seed003-clarification2-bh"),
        # Alone (nobody to equalise with) the plain Buchholz: 1 + 2 + 3 + ½.
        pytest.param("BHEQ", [1], {1: F(13, 2)}, id="seed003-clarification2-no-tie"),
        # Equalise first, then cut the two lowest of what remains (two-player rule 1).
        pytest.param("BHEQ/C2", [1, 2], {1: F(3), 2: F(3)}, id="seed003-two-player-1-cut2"),
        # SB: 1 keeps wins over 3 (1) and 4 (2) and the loss to 5; 2 keeps 7 (0), 8 (2), 5 (0).
        pytest.param("SBEQ", [1, 2], {1: F(3), 2: F(2)}, id="seed003-clarification2-sb"),
        pytest.param("SBEQ", [1], {1: F(7, 2)}, id="seed003-clarification2-sb-no-tie"),
    ],
)
def test_opponent_count_equalisation(
    code: str, group: list[int], expected: dict[int, Fraction]
) -> None:
    assert values(EQUALISATION, code, group, points=OPPONENT_POINTS) == expected


def test_equalisation_uses_played_games_from_the_crosstable() -> None:
    """The same, with the opponents' real points: 2's bye is not an opponent."""
    points = points_of(EQUALISATION)
    assert points[1] == points[2] == 3
    plain = values(EQUALISATION, "BHEQ", [1])[1]
    equalised = values(EQUALISATION, "BHEQ", [1, 2])[1]
    lowest = min(points[3], points[4], points[5], points[6])
    assert plain - equalised == lowest


# -- Cohen Chess (seed 002) --------------------------------------------------------------------

# Stage one is rounds 1–2, stage two round 3 (a rematch of 1 and 2).
STAGES = build(
    4,
    [
        (1, 1, 2, "1-0"),
        (1, 3, 4, "1/2"),
        (2, 1, 3, "0-1"),
        (2, 2, 4, "1-0"),
        (3, 1, 2, "1/2"),
        (3, 3, 4, "0-1"),
    ],
)

# 1 lost to 3 then beat 3 (met twice), beat 4; 2 drew 3 and beat 5.
COMMON = build(
    5,
    [(1, 1, 3, "0-1"), (2, 3, 1, "0-1"), (3, 2, 3, "1/2"), (4, 1, 4, "1-0"), (5, 2, 5, "1-0")],
)


@pytest.mark.parametrize(
    ("crosstable", "code", "group", "options", "expected"),
    [
        pytest.param(
            STAGES, "H2H", [1, 2], {}, {1: F(3, 2), 2: F(1, 2)}, id="seed002-rule4D-5B-h2h"
        ),
        pytest.param(
            STAGES,
            "POOLH2H",
            [1, 2],
            {"pool_rounds": [3]},
            {1: F(1, 2), 2: F(1, 2)},
            id="seed002-rule4B-5E-pool-h2h",
        ),
        pytest.param(
            STAGES,
            "POOLPTS",
            [1, 2, 3, 4],
            {"pool_rounds": [3]},
            {1: F(1, 2), 2: F(1, 2), 3: F(0), 4: F(1)},
            id="seed002-rule4A-5D-pool-points",
        ),
        pytest.param(
            STAGES,
            "POOLPTS",
            [1, 4],
            {},
            {1: F(3, 2), 4: F(3, 2)},
            id="seed002-rule4A-pool-points-default-all-rounds",
        ),
        pytest.param(
            COMMON, "COMMON", [1, 2], {}, {1: F(1), 2: F(1, 2)}, id="seed002-rule4E-a-best-game"
        ),
        pytest.param(
            COMMON, "COMMON", [1, 2, 4], {}, {1: F(0), 2: F(0), 4: F(0)}, id="seed002-rule4E-none"
        ),
        pytest.param(
            COMMON,
            "POOLRANK",
            [1, 2, 3],
            {"pool_rank": {1: 2, 2: 1}},
            {1: F(2), 2: F(1), 3: F(3)},
            id="seed002-rule5C-pool-ranking",
        ),
        pytest.param(
            COMMON,
            "PREV",
            [1, 2, 3],
            {"previous_rank": {1: 4, 2: 1}},
            {1: F(4), 2: F(1), 3: F(5)},
            id="seed002-rule4I-5J-previous-ranking",
        ),
    ],
)
def test_cohen_values(
    crosstable: Crosstable,
    code: str,
    group: list[int],
    options: dict[str, object],
    expected: dict[int, TiebreakValue],
) -> None:
    assert values(crosstable, code, group, options=options) == expected


def test_strength_of_schedule_counts_an_opponent_once_per_game() -> None:
    """seed002-rule4F-b: 1 met 3 twice, so 3's points count twice."""
    points = points_of(COMMON)
    assert values(COMMON, "SOS", [1])[1] == 2 * points[3] + points[4]


def test_strongest_opponents_is_a_descending_list() -> None:
    """seed002-rule4G-a: the points of the strongest opponent first, then the next."""
    points = {1: F(2), 2: F(3, 2), 3: F(3), 4: F(0), 5: F(1)}
    assert values(COMMON, "STRONG", [1, 2], points=points) == {1: (F(3), F(0)), 2: (F(3), F(1))}


@pytest.mark.parametrize(
    ("group", "options", "expected"),
    [
        # By points the highest-ranked player outside {1, 2} is 3 (1½ points).
        pytest.param([1, 2], {}, {1: F(1), 2: F(1, 2)}, id="seed002-rule4H-by-points"),
        pytest.param(
            [1, 2],
            {"overall_rank": {4: 1, 3: 2}},
            {1: F(1), 2: F(0)},
            id="seed002-rule4H-by-overall-rank",
        ),
    ],
)
def test_points_against_the_highest_ranked_player(
    group: list[int], options: dict[str, object], expected: dict[int, Fraction]
) -> None:
    assert values(COMMON, "VSTOP", group, options=options) == expected


def test_younger_ranks_higher() -> None:
    """seed002-rule4J-5K: "age, in reverse order"; no birth date counts as oldest."""
    born = {1: dt.date(1990, 5, 1), 2: dt.date(2001, 1, 31)}
    crosstable = build(3, born=born)
    standings = rank(crosstable, "AGE")
    assert [s.start_no for s in standings] == [2, 1, 3]
    assert standings[0].values["AGE"] == 20010131


# -- chains under the multi-way procedures -----------------------------------------------------

# Four players on 2½ after a round robin among them plus byes. Head-to-head among all four:
# 1 has 2½, 2 has 1½, 3 and 4 one each; among {2, 3, 4} everyone has 1 (a cycle); 3 beat 4;
# 2 beat 3. Ages: 4 youngest, then 3, 2, 1.
CYCLE = build(
    4,
    [
        (1, 1, 2, "1/2"),
        (1, 3, 4, "1-0"),
        (2, 1, 3, "1-0"),
        (2, 2, 4, "0-1"),
        (3, 1, 4, "1-0"),
        (3, 2, 3, "1-0"),
    ],
    byes=[(4, 1, "Z"), (4, 2, "F"), (4, 3, "F"), (4, 4, "F"), (5, 1, "Z"), (5, 2, "Z")]
    + [(5, 3, "H"), (5, 4, "H")],
    born={1: dt.date(1980, 1, 1), 2: dt.date(1990, 1, 1), 3: dt.date(2000, 1, 1)}
    | {4: dt.date(2010, 1, 1)},
)


@pytest.mark.parametrize(
    ("procedure", "expected"),
    [
        # {3, 4} left tied by H2H: H2H again among them (DE recursion): 3 beat 4.
        pytest.param("lexicographic", [1, 2, 3, 4], id="c07-de-recursion-lexicographic"),
        # {3, 4} starts again with head-to-head between them: 3 beat 4.
        pytest.param("restart", [1, 2, 3, 4], id="seed003-clarification1-restart"),
        # 1 is the single best; {2, 3, 4} again: head-to-head level (cycle), AGE: 4 single
        # best; {2, 3} two-way: 2 beat 3.
        pytest.param("peel", [1, 4, 2, 3], id="seed002-rule6-peel"),
    ],
)
def test_head_to_head_under_each_procedure(procedure: str, expected: list[int]) -> None:
    assert set(points_of(CYCLE).values()) == {F(5, 2)}
    standings = rank(CYCLE, "H2H,AGE", procedure=procedure)
    assert [s.start_no for s in standings] == expected
    assert [s.rank for s in standings] == [1, 2, 3, 4]


# A three-player cycle (1 beat 2, 2 beat 3, 3 beat 1); 1 is youngest, 2 and 3 born the same day.
SMALL_CYCLE = build(
    3,
    [(1, 1, 2, "1-0"), (2, 2, 3, "1-0"), (3, 3, 1, "1-0")],
    born={1: dt.date(2005, 1, 1), 2: dt.date(1999, 1, 1), 3: dt.date(1999, 1, 1)},
)


@pytest.mark.parametrize(
    ("procedure", "ranks"),
    [
        # H2H level, AGE splits 1 | 2,3; nothing follows AGE, so 2 and 3 share second place.
        pytest.param("lexicographic", [1, 2, 2], id="c07-art4.2-no-return-to-h2h"),
        # {2,3} is a new tie from the first criterion: head-to-head, 2 beat 3.
        pytest.param("restart", [1, 2, 3], id="seed003-clarification1-back-to-h2h"),
        pytest.param("peel", [1, 2, 3], id="seed002-rule6B-two-way-chain"),
    ],
)
def test_cycle_then_age(procedure: str, ranks: list[int]) -> None:
    standings = rank(SMALL_CYCLE, "H2H,AGE", procedure=procedure)
    assert [s.start_no for s in standings] == [1, 2, 3]
    assert [s.rank for s in standings] == ranks


def test_peel_explains_with_the_recomputed_group() -> None:
    standings = rank(CYCLE, "H2H,AGE", procedure="peel")
    why = explain(standings, 4, 2)
    assert [(c.code, c.value_a, c.value_b, c.separated) for c in why] == [
        ("PTS", F(5, 2), F(5, 2), False),
        ("H2H", F(1), F(1), False),
        ("AGE", F(20100101), F(19900101), True),
    ]
    assert why[1].among == (2, 3, 4)
    assert {s.start_no: s.values["H2H"] for s in standings} == {
        1: F(5, 2),  # decided in the group of four
        4: F(1),  # decided in {2, 3, 4}
        2: F(1),  # decided in {2, 3}
        3: F(0),
    }


def test_cohen_overall_chain_runs_end_to_end() -> None:
    """seed002-rule5: the whole overall chain, every procedure, with its options."""
    options = {
        "pool_rounds": [1, 2, 3],
        "pool_rank": {1: 1, 2: 2, 3: 1, 4: 2},
        "previous_rank": {2: 1},
    }
    codes = "PTS,H2H,POOLRANK,POOLPTS,POOLH2H,COMMON,SOS,STRONG,VSTOP,PREV,AGE"
    for procedure in PROCEDURES:
        standings = rank(CYCLE, codes, procedure=procedure, options=options)
        assert sorted(s.start_no for s in standings) == [1, 2, 3, 4]
        assert standings[0].start_no == 1 and standings[0].decided_by == "H2H"
