"""The ranking engine (standings/ranking.py): procedures, ties, lots, explanations. No database.

Most cases use small test-only tie-breaks registered for the test (``XGI`` group-independent,
``XGD`` group-dependent, ``XLOW`` lower-is-better) whose values come straight from a table, so
each case states exactly what every group sees. Case ids name the clause they exercise.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from events.records import ALL_CODES, Crosstable, Entrant, RoundResult, Scoring
from standings.ranking import (
    PROCEDURES,
    Criterion,
    RankingError,
    Standing,
    explain,
    points_of,
    rank,
    rank_by,
    tie_groups,
    truncate,
)
from standings.registry import (
    REGISTRY,
    TiebreakDefinition,
    TiebreakRequest,
    TiebreakSpec,
    TiebreakValue,
    UnknownTiebreak,
)

RESULT_CODES = {"1-0": ("1", "0"), "0-1": ("0", "1"), "1/2": ("=", "="), "-/+": ("-", "+")}


def build(
    players: int,
    games: Sequence[tuple[int, int, int, str]] = (),
    *,
    rounds: int | None = None,
    byes: Sequence[tuple[int, int, str]] = (),
) -> Crosstable:
    """A crosstable from (round, white, black, "1-0"|"0-1"|"1/2") and (round, start_no, code)."""
    results: dict[int, list[RoundResult]] = {p: [] for p in range(1, players + 1)}
    for round_no, white, black, result in games:
        white_code, black_code = RESULT_CODES[result]
        results[white].append(RoundResult(round_no, black, "w", white_code))
        results[black].append(RoundResult(round_no, white, "b", black_code))
    for round_no, start_no, code in byes:
        results[start_no].append(RoundResult(round_no, None, "-", code))
    last = max((r.round for rows in results.values() for r in rows), default=0)
    entrants = tuple(
        Entrant(p, f"Player {p:02d}", results=tuple(sorted(results[p], key=lambda r: r.round)))
        for p in results
    )
    return Crosstable("Test", last if rounds is None else rounds, entrants)


def _from_options(request: TiebreakRequest) -> Mapping[int, TiebreakValue]:
    table = request.options[request.spec.base.lower()]
    assert isinstance(table, Mapping)
    return {p: Fraction(table[p]) for p in request.group}


def _per_group(request: TiebreakRequest) -> Mapping[int, TiebreakValue]:
    tables = request.options["xgd"]
    assert isinstance(tables, Mapping)
    table = tables[tuple(sorted(request.group))]
    return {p: Fraction(table[p]) for p in request.group}


@pytest.fixture(autouse=True)
def test_tiebreaks(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setitem(REGISTRY, "XGI", TiebreakDefinition("XGI", "test", _from_options))
    monkeypatch.setitem(
        REGISTRY, "XLOW", TiebreakDefinition("XLOW", "test", _from_options, higher_is_better=False)
    )
    monkeypatch.setitem(
        REGISTRY, "XGD", TiebreakDefinition("XGD", "test", _per_group, group_dependent=True)
    )
    yield


def order(standings: Sequence[Standing]) -> list[int]:
    return [standing.start_no for standing in standings]


def by_start_no(standings: Sequence[Standing]) -> dict[int, Standing]:
    return {standing.start_no: standing for standing in standings}


# Four players level on points (no games yet); XGD values per group, XGI for the whole field.
FOUR = build(4, rounds=0)

SPLIT_IN_THREE = {
    (1, 2, 3, 4): {1: 3, 2: 2, 3: 2, 4: 1},
    (2, 3): {2: 1, 3: 0},
    (2, 3, 4): {2: 0, 3: 1, 4: 2},
}
SINGLE_WORST = {
    (1, 2, 3, 4): {1: 2, 2: 2, 3: 1, 4: 0},
    (1, 2, 3): {1: 0, 2: 1, 3: 1},
    (2, 3): {2: 0, 3: 1},
    (1, 2): {1: 1, 2: 0},
}
# XGD level for all four; XGI splits 1 | 2,3 | 4 (XGI values in THREE_ORDERS_XGI).
THREE_ORDERS = {
    (1, 2, 3, 4): {1: 1, 2: 1, 3: 1, 4: 1},
    (2, 3): {2: 0, 3: 1},
    (2, 3, 4): {2: 1, 3: 1, 4: 2},
}
XGI = {1: 0, 2: 0, 3: 1, 4: 0}
THREE_ORDERS_XGI = {1: 2, 2: 1, 3: 1, 4: 0}

PROCEDURE_CASES = [
    # Group {1,2,3,4} splits 1 | 2,3 | 4 on XGD. Lexicographic applies the group-dependent
    # XGD again to {2,3} (as DE recurses); restart too; peel places 1 first, recomputes
    # {2,3,4} (4 is best there), then {2,3} as a two-way tie.
    pytest.param(
        "lexicographic",
        SPLIT_IN_THREE,
        XGI,
        [1, 2, 3, 4],
        ["XGD", "XGD", "XGD", None],
        id="c07-de-recurses-on-groups-still-tied",
    ),
    pytest.param(
        "restart",
        SPLIT_IN_THREE,
        XGI,
        [1, 2, 3, 4],
        ["XGD", "XGD", "XGD", None],
        id="seed003-clarification1-restart-all-levels",
    ),
    pytest.param(
        "peel",
        SPLIT_IN_THREE,
        XGI,
        [1, 4, 2, 3],
        ["XGD", "XGD", "XGD", None],
        id="seed002-rule6A-peel-single-best",
    ),
    # No single best (1 and 2 share it) but a single worst (4): peel places 4 last and ranks
    # {1,2,3} again, where 1 is now the single worst, then {2,3} two-way.
    pytest.param(
        "peel",
        SINGLE_WORST,
        XGI,
        [3, 2, 1, 4],
        ["XGD", "XGD", "XGD", None],
        id="seed002-rule6A-peel-single-worst",
    ),
    pytest.param(
        "restart",
        SINGLE_WORST,
        XGI,
        [1, 2, 3, 4],
        ["XGD", "XGD", "XGD", None],
        id="seed003-clarification1-restart-single-worst-case",
    ),
    # Best value shared by a proper subset and no single worst: {1,2} above {3,4}, each
    # ranked again from the first criterion.
    pytest.param(
        "peel",
        {
            (1, 2, 3, 4): {1: 2, 2: 2, 3: 1, 4: 1},
            (1, 2): {1: 0, 2: 1},
            (3, 4): {3: 0, 4: 1},
        },
        XGI,
        [2, 1, 4, 3],
        ["XGD", "XGD", "XGD", None],
        id="seed002-rule6A-peel-best-subset",
    ),
    # XGD is level, XGI splits 1 | 2,3 | 4. Lexicographic never revisits XGD: 2 and 3 stay
    # tied. Restart goes back to XGD for {2,3}: 3 above 2. Peel places 1 (single best on XGI),
    # ranks {2,3,4} from XGD again (4 single best), then {2,3} two-way: 3 above 2.
    pytest.param(
        "lexicographic",
        THREE_ORDERS,
        THREE_ORDERS_XGI,
        [1, 2, 3, 4],
        ["XGI", None, "XGI", None],
        id="c07-art4.2-lexicographic-never-revisits",
    ),
    pytest.param(
        "restart",
        THREE_ORDERS,
        THREE_ORDERS_XGI,
        [1, 3, 2, 4],
        ["XGI", "XGD", "XGI", None],
        id="seed003-clarification1-restart-from-first-criterion",
    ),
    pytest.param(
        "peel",
        THREE_ORDERS,
        THREE_ORDERS_XGI,
        [1, 4, 3, 2],
        ["XGI", "XGD", "XGD", None],
        id="seed002-rule6-peel-from-first-criterion",
    ),
]


@pytest.mark.parametrize(("procedure", "xgd", "xgi", "expected", "decided_by"), PROCEDURE_CASES)
def test_procedures(
    procedure: str,
    xgd: dict[tuple[int, ...], dict[int, int]],
    xgi: dict[int, int],
    expected: list[int],
    decided_by: list[str | None],
) -> None:
    options = {"xgd": xgd, "xgi": xgi}
    standings = rank(FOUR, "XGD,XGI", procedure=procedure, options=options)
    assert order(standings) == expected
    assert [standing.decided_by for standing in standings] == decided_by


def test_three_procedures_give_three_orders() -> None:
    """seed003-clarification1 vs seed002-rule6 vs C.07: one tie, three different standings."""
    options = {"xgd": THREE_ORDERS, "xgi": THREE_ORDERS_XGI}
    orders = {
        procedure: order(rank(FOUR, ["XGD", "XGI"], procedure=procedure, options=options))
        for procedure in PROCEDURES
    }
    assert orders == {
        "lexicographic": [1, 2, 3, 4],
        "restart": [1, 3, 2, 4],
        "peel": [1, 4, 3, 2],
    }


def test_group_dependent_value_is_the_deciding_groups() -> None:
    """Standing.values holds the value from the group that decided (seed003-clarification1)."""
    options = {"xgd": SPLIT_IN_THREE, "xgi": XGI}
    rows = by_start_no(rank(FOUR, "XGD,XGI", procedure="restart", options=options))
    assert rows[1].values["XGD"] == 3  # decided in the group of four
    assert rows[2].values["XGD"] == 1  # decided in {2, 3}
    assert rows[3].values["XGD"] == 0
    assert rows[4].values["XGD"] == 1
    assert all(rows[p].values["XGI"] == v for p, v in {1: 0, 2: 0, 3: 1, 4: 0}.items())


# -- the criterion source: other records through the same procedures ----------------------------


def criterion(code: str, *, group_dependent: bool = False) -> Criterion:
    return Criterion(TiebreakSpec(code=code, base=code), group_dependent=group_dependent)


POINTS_CRITERION = criterion("PTS")


class TableSource:
    """A :class:`~standings.ranking.CriterionSource` over literal tables, with no crosstable:
    ``field[code]`` is a group-independent criterion's values, ``per_group[code][group]`` a
    group-dependent one's. ``expand`` gives the chain for a group (a chain may grow with the
    group, as seed 003's Buchholz cuts do). It records what it was asked."""

    def __init__(
        self,
        points: Mapping[int, int],
        field: Mapping[str, Mapping[int, int]],
        per_group: Mapping[str, Mapping[tuple[int, ...], Mapping[int, int]]],
        expand: Callable[[Collection[int]], Sequence[Criterion]],
    ) -> None:
        self.points = {p: Fraction(value) for p, value in points.items()}
        self.field = field
        self.per_group = per_group
        self.expand = expand
        self.chains_asked: list[tuple[int, ...]] = []
        self.values_asked: list[tuple[str, tuple[int, ...]]] = []

    def chain(self, group: Collection[int]) -> Sequence[Criterion]:
        self.chains_asked.append(tuple(sorted(group)))
        return self.expand(group)

    def values(self, criterion: Criterion, group: frozenset[int]) -> Mapping[int, TiebreakValue]:
        self.values_asked.append((criterion.code, tuple(sorted(group))))
        if criterion.code == "PTS":
            return self.points
        if criterion.group_dependent:
            table = self.per_group[criterion.code][tuple(sorted(group))]
        else:
            table = self.field[criterion.code]
        return {p: Fraction(table[p]) for p in group}


FOUR_NAMES = {p: f"Player {p:02d}" for p in range(1, 5)}


ProcedureCase = tuple[
    str, dict[tuple[int, ...], dict[int, int]], dict[int, int], list[int], list[str]
]


@pytest.mark.parametrize("case", [pytest.param(c.values, id=c.id) for c in PROCEDURE_CASES])
def test_a_criterion_source_ranks_through_the_same_procedures(case: ProcedureCase) -> None:
    """The procedure cases again, from literal tables instead of registered tie-breaks: the
    same rows, every field (order, places, values, explanations)."""
    procedure, xgd, xgi, expected, _ = case
    chain = [criterion("XGD", group_dependent=True), criterion("XGI")]
    source = TableSource(dict.fromkeys(FOUR_NAMES, 0), {"XGI": xgi}, {"XGD": xgd}, lambda _: chain)
    standings = rank_by(source, FOUR_NAMES, POINTS_CRITERION, procedure=procedure)
    options = {"xgd": xgd, "xgi": xgi}
    assert standings == rank(FOUR, "XGD,XGI", procedure=procedure, options=options)
    assert order(standings) == expected


# A chain that grows with the group (CUT4 for four tied players, CUT2 for two), as seed 003's
# growing Buchholz cuts do; CUT4 splits 1 | 2,3 | 4 and leaves 2 and 3 level among themselves.
GROWING_XGI = {1: 0, 2: 0, 3: 0, 4: 0, 5: 7}
GROWING_CUTS: dict[str, dict[tuple[int, ...], dict[int, int]]] = {
    "CUT4": {(1, 2, 3, 4): {1: 2, 2: 1, 3: 1, 4: 0}, (2, 3): {2: 1, 3: 1}},
    "CUT2": {(2, 3): {2: 0, 3: 1}},
}
FIVE_NAMES = {p: f"Player {p:02d}" for p in range(1, 6)}


def growing_source() -> TableSource:
    def expand(group: Collection[int]) -> Sequence[Criterion]:
        return [criterion("XGI"), criterion(f"CUT{len(group)}", group_dependent=True)]

    return TableSource({1: 0, 2: 0, 3: 0, 4: 0, 5: 1}, {"XGI": GROWING_XGI}, GROWING_CUTS, expand)


@pytest.mark.parametrize(
    ("procedure", "expected", "decided_by", "chains"),
    [
        # Each new tie starts again with its own chain: {2, 3} is ranked on CUT2.
        pytest.param(
            "restart",
            [5, 1, 3, 2, 4],
            ["PTS", "CUT4", "CUT2", "CUT4", None],
            [(1, 2, 3, 4), (2, 3)],
            id="seed003-clarification1-chain-per-new-tie",
        ),
        # C.07 Art. 4.2 keeps the chain the tie started with: CUT4 again among {2, 3}.
        pytest.param(
            "lexicographic",
            [5, 1, 2, 3, 4],
            ["PTS", "CUT4", None, "CUT4", None],
            [(1, 2, 3, 4)],
            id="c07-art4.2-chain-of-the-tie",
        ),
    ],
)
def test_a_chain_that_expands_by_group(
    procedure: str, expected: list[int], decided_by: list[str | None], chains: list[tuple[int, ...]]
) -> None:
    source = growing_source()
    standings = rank_by(
        source, FIVE_NAMES, POINTS_CRITERION, procedure=procedure, field_values=False
    )
    assert order(standings) == expected
    assert [standing.decided_by for standing in standings] == decided_by
    assert source.chains_asked == chains
    assert ("XGI", (1, 2, 3, 4, 5)) in source.values_asked  # for the field, once
    assert [code for code, _ in source.values_asked].count("XGI") == 1


def test_rows_show_the_field_values_or_the_values_compared() -> None:
    """Seed 003's multi-player rows show what each player's ties were compared on, in the
    order compared; a crosstable's show every group-independent value in chain order."""
    compared = by_start_no(
        rank_by(
            growing_source(),
            FIVE_NAMES,
            POINTS_CRITERION,
            procedure="restart",
            field_values=False,
        )
    )
    assert compared[5].values == {"PTS": 1}  # alone on points: never compared
    assert list(compared[2].values) == ["PTS", "XGI", "CUT4", "CUT2"]
    assert compared[2].values["CUT4"] == 1 and compared[2].values["CUT2"] == 0
    everything = by_start_no(
        rank_by(growing_source(), FIVE_NAMES, POINTS_CRITERION, procedure="restart")
    )
    assert everything[5].values == {"PTS": 1, "XGI": 7}
    assert list(everything[2].values) == ["PTS", "XGI", "CUT4", "CUT2"]


def test_rank_by_refuses_an_unknown_procedure() -> None:
    with pytest.raises(RankingError, match="procedure"):
        rank_by(growing_source(), FIVE_NAMES, POINTS_CRITERION, procedure="coin")


# -- points, ties, lots ------------------------------------------------------------------------

# Round robin of four: 1 beats everyone; 2, 3, 4 draw among themselves.
ROUND_ROBIN = build(
    4,
    [
        (1, 1, 4, "1-0"),
        (1, 2, 3, "1/2"),
        (2, 3, 1, "0-1"),
        (2, 4, 2, "1/2"),
        (3, 1, 2, "1-0"),
        (3, 3, 4, "1/2"),
    ],
)


def test_points_then_shared_places() -> None:
    standings = rank(ROUND_ROBIN, "")
    assert [(s.start_no, s.rank, s.shared, s.points) for s in standings] == [
        (1, 1, False, 3),
        (2, 2, True, 1),
        (3, 2, True, 1),
        (4, 2, True, 1),
    ]
    assert [s.decided_by for s in standings] == ["PTS", None, None, None]
    assert tie_groups(standings) == ((2, 3, 4),)


def test_pts_listed_explicitly_is_the_primary_not_a_second_criterion() -> None:
    options = {"xgi": {1: 0, 2: 1, 3: 2, 4: 0}}
    with_pts = rank(ROUND_ROBIN, "PTS,XGI", options=options)
    without = rank(ROUND_ROBIN, "XGI", options=options)
    assert with_pts == without
    assert order(with_pts) == [1, 3, 2, 4]
    assert [c.code for c in explain(with_pts, 3, 2)] == ["PTS", "XGI"]


def test_lower_is_better() -> None:
    standings = rank(ROUND_ROBIN, "XLOW", options={"xlow": {1: 9, 2: 3, 3: 1, 4: 2}})
    assert order(standings) == [1, 3, 4, 2]


def test_tied_players_keep_one_place_without_a_lot() -> None:
    """design.md "Ties are data": never ordered by id or at random."""
    standings = rank(ROUND_ROBIN, "XGI", options={"xgi": {1: 0, 2: 5, 3: 5, 4: 5}})
    assert {s.rank for s in standings[1:]} == {2}
    assert all(s.shared and s.lot is None for s in standings[1:])
    assert [c.separated for c in standings[1].comparisons] == [False, False]


def test_recorded_lot_orders_the_players_still_tied() -> None:
    options = {"xgi": {1: 0, 2: 5, 3: 5, 4: 4}}
    standings = rank(ROUND_ROBIN, "XGI", options=options, lot_order=[3, 4, 1, 2])
    assert [(s.start_no, s.rank, s.shared, s.decided_by, s.lot) for s in standings] == [
        (1, 1, False, "PTS", None),
        (3, 2, False, "LOT", 1),
        (2, 3, False, "XGI", 4),
        (4, 4, False, None, None),
    ]
    assert explain(standings, 2, 3)[-1].code == "LOT"
    assert explain(standings, 3, 2)[-1].value_a == 1


def test_lot_that_misses_a_tied_player_is_refused() -> None:
    with pytest.raises(RankingError, match="lot"):
        rank(ROUND_ROBIN, "", lot_order=[2, 3])


def test_explain_adjacent_players() -> None:
    options = {"xgd": THREE_ORDERS, "xgi": THREE_ORDERS_XGI}
    standings = rank(FOUR, "XGD,XGI", procedure="lexicographic", options=options)
    assert order(standings) == [1, 2, 3, 4]
    comparisons = explain(standings, 2, 1)
    assert [(c.code, c.value_a, c.value_b, c.separated) for c in comparisons] == [
        ("PTS", 0, 0, False),
        ("XGD", 1, 1, False),
        ("XGI", 1, 2, True),
    ]
    assert comparisons[1].among == (1, 2, 3, 4)
    assert comparisons[2].among is None
    tied = explain(standings, 2, 3)
    assert [(c.code, c.value_a == c.value_b, c.separated) for c in tied] == [
        ("PTS", True, False),
        ("XGD", True, False),
        ("XGI", True, False),
    ]
    with pytest.raises(RankingError, match="adjacent"):
        explain(standings, 1, 3)


def test_truncate_gives_the_standings_after_a_round() -> None:
    after_one = truncate(ROUND_ROBIN, 1)
    assert after_one.rounds == 1
    assert points_of(after_one) == {1: 1, 2: Fraction(1, 2), 3: Fraction(1, 2), 4: 0}
    assert order(rank(after_one, "")) == [1, 2, 3, 4]
    assert [s.rank for s in rank(after_one, "")] == [1, 2, 2, 4]
    with pytest.raises(RankingError):
        truncate(ROUND_ROBIN, 4)


def test_rank_part_of_the_field() -> None:
    standings = rank(ROUND_ROBIN, "", players=[4, 1])
    assert order(standings) == [1, 4]
    with pytest.raises(RankingError, match="not in the event"):
        rank(ROUND_ROBIN, "", players=[9])


def test_another_primary_criterion() -> None:
    """seed002-rule4A: a pool's winner is found on pool points, not overall points."""
    standings = rank(ROUND_ROBIN, "PTS", primary="XGI", options={"xgi": {1: 0, 2: 2, 3: 1, 4: 1}})
    assert order(standings) == [2, 3, 4, 1]
    assert [s.decided_by for s in standings] == ["XGI", None, "XGI", None]
    assert standings[0].values == {"XGI": 2, "PTS": 1}


@pytest.mark.parametrize(
    ("codes", "procedure", "error"),
    [
        pytest.param("NOPE", "lexicographic", UnknownTiebreak, id="unknown-code"),
        pytest.param("XGI,XGI", "lexicographic", RankingError, id="listed-twice"),
        pytest.param("XGI", "coin", RankingError, id="unknown-procedure"),
    ],
)
def test_mistakes_a_director_can_fix(codes: str, procedure: str, error: type[Exception]) -> None:
    with pytest.raises(error):
        rank(ROUND_ROBIN, codes, procedure=procedure, options={"xgi": {}})


# -- performance -------------------------------------------------------------------------------


def _swiss(players: int, rounds: int) -> Crosstable:
    """A deterministic Swiss-like field: neighbours by start number, results by a formula."""
    games = []
    for round_no in range(1, rounds + 1):
        shift = round_no % (players - 1) + 1
        paired: set[int] = set()
        for white in range(1, players + 1):
            black = (white + shift - 1) % players + 1
            if white in paired or black in paired or white == black:
                continue
            paired |= {white, black}
            result = ("1-0", "0-1", "1/2")[(white * 7 + black * 3 + round_no) % 3]
            games.append((round_no, white, black, result))
    return build(players, games, rounds=rounds)


def test_group_independent_values_are_computed_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []

    def counted(request: TiebreakRequest) -> Mapping[int, TiebreakValue]:
        calls.append(len(request.group))
        return {p: Fraction(p % 5) for p in request.group}

    monkeypatch.setitem(REGISTRY, "XCOUNT", TiebreakDefinition("XCOUNT", "test", counted))
    field = _swiss(2000, 9)
    for procedure in PROCEDURES:
        calls.clear()
        standings = rank(field, "XCOUNT,H2H", procedure=procedure)
        assert calls == [2000]
        assert sorted(order(standings)) == list(range(1, 2001))


# -- properties (house style 7) ----------------------------------------------------------------


@st.composite
def crosstables(draw: st.DrawFn) -> Crosstable:
    players = draw(st.integers(min_value=1, max_value=9))
    rounds = draw(st.integers(min_value=0, max_value=4))
    games = []
    for round_no in range(1, rounds + 1):
        pool = draw(st.permutations(range(1, players + 1)))
        for white, black in zip(pool[::2], pool[1::2], strict=False):
            games.append((round_no, white, black, draw(st.sampled_from(list(RESULT_CODES)))))
    return build(players, games, rounds=rounds)


CHAINS = st.lists(
    st.sampled_from(["H2H", "SOS", "COMMON", "BHEQ", "BHEQ/C1", "PROG", "STRONG", "SBEQ"]),
    unique=True,
    max_size=4,
)


def assert_consistent(standings: Sequence[Standing], field: Crosstable) -> None:
    assert sorted(order(standings)) == sorted(e.start_no for e in field.entrants)
    for index, standing in enumerate(standings):
        tied_above = index > 0 and standings[index - 1].rank == standing.rank
        tied_below = index + 1 < len(standings) and standings[index + 1].rank == standing.rank
        assert standing.rank == (standings[index - 1].rank if tied_above else index + 1)
        assert standing.shared == (tied_above or tied_below)
        last = index + 1 == len(standings)
        assert (standing.decided_by is None) == (tied_below or last)
        if standing.decided_by is not None:
            assert standing.comparisons[-1].separated
            assert standing.comparisons[-1].code == standing.decided_by
    assert all(b.points <= a.points for a, b in zip(standings, standings[1:], strict=False))


@settings(max_examples=150, deadline=None)
@given(field=crosstables(), codes=CHAINS, procedure=st.sampled_from(PROCEDURES))
def test_ranking_is_a_permutation_with_consistent_places(
    field: Crosstable, codes: list[str], procedure: str
) -> None:
    assert_consistent(rank(field, codes, procedure=procedure), field)


@settings(max_examples=100, deadline=None)
@given(
    field=crosstables(),
    codes=st.lists(st.sampled_from(["SOS", "PROG", "STRONG"]), unique=True, max_size=3),
)
def test_procedures_agree_without_group_dependent_criteria(
    field: Crosstable, codes: list[str]
) -> None:
    """Module docstring: the procedures differ only through group-dependent values."""
    results = {procedure: rank(field, codes, procedure=procedure) for procedure in PROCEDURES}
    assert results["restart"] == results["lexicographic"] == results["peel"]


SCORES = st.fractions(min_value=0, max_value=3, max_denominator=6)
SCORINGS = st.builds(
    Scoring,
    win=SCORES,
    draw=SCORES,
    loss=SCORES,
    forfeit_win=SCORES,
    forfeit_loss=SCORES,
    pairing_bye=SCORES,
    full_bye=SCORES,
    half_bye=SCORES,
    zero_bye=SCORES,
    time_control_weights=st.sampled_from(
        [(), (("rapid", Fraction(2)),), (("blitz", Fraction(1, 3)), ("rapid", Fraction(3, 2)))]
    ),
)


@st.composite
def scored_crosstables(draw: st.DrawFn) -> Crosstable:
    """Any result codes and time controls, rounds after the cut included, under any scoring."""
    rounds = draw(st.integers(min_value=0, max_value=4))
    entrants = []
    for start_no in range(1, draw(st.integers(min_value=1, max_value=8)) + 1):
        played = draw(st.integers(min_value=0, max_value=rounds + 1))
        results = tuple(
            RoundResult(
                round_no,
                None,
                "-",
                draw(st.sampled_from(sorted(ALL_CODES))),
                draw(st.sampled_from(["", "rapid", "blitz"])),
            )
            for round_no in range(1, played + 1)
        )
        entrants.append(Entrant(start_no, f"Player {start_no}", results=results))
    return Crosstable("Scored", rounds, tuple(entrants), scoring=draw(SCORINGS))


@settings(max_examples=200, deadline=None)
@given(field=scored_crosstables())
def test_points_are_each_rounds_points_added_up(field: Crosstable) -> None:
    """points_of adds integers over a common denominator, and ranking sorts by integers; the
    plain sum of Fractions is the reference, and the places follow the points."""
    expected = {
        entrant.start_no: sum(
            (field.scoring.points(r) for r in entrant.results if r.round <= field.rounds),
            Fraction(0),
        )
        for entrant in field.entrants
    }
    assert points_of(field) == expected
    assert_consistent(rank(field, []), field)


def test_peeling_a_large_tie_is_not_bound_by_recursion(monkeypatch: pytest.MonkeyPatch) -> None:
    """seed002-rule6: one player peeled per step; 600 players would exceed Python's recursion
    limit if each peel recursed."""

    def by_start_no(request: TiebreakRequest) -> Mapping[int, TiebreakValue]:
        return {p: Fraction(p) for p in request.group}

    monkeypatch.setitem(
        REGISTRY, "XID", TiebreakDefinition("XID", "test", by_start_no, group_dependent=True)
    )
    standings = rank(build(600, rounds=0), "XID", procedure="peel")
    assert order(standings) == list(range(600, 0, -1))
    assert [s.rank for s in standings] == list(range(1, 601))


# FIDE "Exercises in Tie-Breaking" (Held, 2024): the 6-player round robin with a forfeit
# (shared/data/tiebreaks/held_round_robin.trf), transcribed game by game.
HELD_ROUND_ROBIN = replace(
    build(
        6,
        [
            (1, 1, 5, "1/2"),
            (1, 2, 6, "1-0"),
            (1, 3, 4, "1-0"),
            (2, 1, 2, "1-0"),
            (2, 6, 3, "0-1"),
            (2, 5, 4, "1-0"),
            (3, 3, 1, "0-1"),
            (3, 2, 5, "1-0"),
            (3, 4, 6, "1/2"),
            (4, 1, 4, "0-1"),
            (4, 2, 3, "1/2"),
            (4, 5, 6, "-/+"),
            (5, 6, 1, "0-1"),
            (5, 4, 2, "0-1"),
            (5, 3, 5, "1-0"),
        ],
    ),
    round_robin=True,
)


@pytest.mark.parametrize("procedure", PROCEDURES)
def test_held_exercise_26_rank_by_points_and_direct_encounter(procedure: str) -> None:
    """C.07 Art. 6 with the published answer (held-exercise 26, also FIDE's calculator):
    DE splits {1,2,3} into 1 | 2,3 (2 and 3 drew: still tied) and orders 6, 5, 4."""
    pytest.importorskip("standings.tiebreaks")
    standings = rank(HELD_ROUND_ROBIN, "DE", procedure=procedure)
    assert {s.start_no: s.rank for s in standings} == {1: 1, 2: 2, 3: 2, 4: 6, 5: 5, 6: 4}
    assert tie_groups(standings) == ((2, 3),)
