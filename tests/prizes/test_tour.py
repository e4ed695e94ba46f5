"""GCT 2019 tour points (seed 000, 2.6, 2.7, 3.9, 3.10) and tour standings (4.1–4.3)."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from prizes.split import FinalRanking, PlacedPlayer, PrizeInputError
from prizes.tour import (
    TOUR_POINTS_TABLES,
    TourEvent,
    TourEventResult,
    format_mixed,
    tour_points,
    tour_standings,
)


def ranking(group_sizes: list[int], playoff_winner: int | None = None) -> FinalRanking:
    players = []
    start_no = 1
    for size in group_sizes:
        rank = start_no
        for _ in range(size):
            players.append(PlacedPlayer(start_no, f"Player {start_no}", rank, size > 1))
            start_no += 1
    return FinalRanking(tuple(players), playoff_winner=playoff_winner)


F = Fraction

POINTS_CASES = [
    pytest.param(
        "gct-2019-classical",
        [1] * 12,
        None,
        [20, 15, 12, 10, 8, 7, 6, 5, 4, 3, 2, 1],
        id="seed000-classical-outright-winner-20",
    ),
    pytest.param(
        "gct-2019-rapid-blitz",
        [1] * 10,
        None,
        [13, 10, 8, 7, 6, 5, 4, 3, 2, 1],
        id="seed000-rapid-blitz-outright-winner-13",
    ),
    pytest.param(
        "gct-2019-classical",
        [2] + [1] * 10,
        1,
        # 3.9: (18 + 15) / 2, no bonus although the playoff found a winner.
        [F(33, 2), F(33, 2), 12, 10, 8, 7, 6, 5, 4, 3, 2, 1],
        id="seed000-3.9-two-way-tie-for-first-16-1/2",
    ),
    pytest.param(
        "gct-2019-classical",
        [3] + [1] * 9,
        None,
        [15, 15, 15, 10, 8, 7, 6, 5, 4, 3, 2, 1],
        id="seed000-3.9-three-way-tie-for-first-(18+15+12)/3",
    ),
    pytest.param(
        "gct-2019-classical",
        [6] + [1] * 6,
        None,
        # (18 + 15 + 12 + 10 + 8 + 7) / 6 = 70/6 = 11 2/3.
        [F(35, 3)] * 6 + [6, 5, 4, 3, 2, 1],
        id="seed000-3.9-six-way-tie-for-first",
    ),
    pytest.param(
        "gct-2019-rapid-blitz",
        [1, 3] + [1] * 6,
        None,
        # 2.7: (10 + 8 + 7) / 3 = 8 1/3; the outright winner keeps the bonus.
        [13, F(25, 3), F(25, 3), F(25, 3), 6, 5, 4, 3, 2, 1],
        id="seed000-2.7-rapid-blitz-three-tied-2nd-4th-thirds",
    ),
    pytest.param(
        "gct-2019-rapid-blitz",
        [2, 1, 1, 6],
        2,
        # 2.6: (12 + 10) / 2 = 11; places 5–10 share 21/6 = 3 1/2.
        [11, 11, 8, 7] + [F(7, 2)] * 6,
        id="seed000-2.6-rapid-blitz-tie-for-first-and-six-way-tie",
    ),
    pytest.param(
        "gct-2019-classical",
        [1] * 11 + [3],
        None,
        # Places 12–14: only place 12 scores, (1 + 0 + 0) / 3.
        [20, 15, 12, 10, 8, 7, 6, 5, 4, 3, 2, F(1, 3), F(1, 3), F(1, 3)],
        id="tie-straddling-the-end-of-the-table",
    ),
]


@pytest.mark.parametrize(("table", "groups", "winner", "expected"), POINTS_CASES)
def test_tour_points(
    table: str, groups: list[int], winner: int | None, expected: list[int | Fraction]
) -> None:
    points = tour_points(ranking(groups, winner), table)
    assert [points[start_no] for start_no in range(1, len(expected) + 1)] == [
        Fraction(value) for value in expected
    ]
    assert all(isinstance(value, Fraction) for value in points.values())


def test_unknown_table_is_a_clear_error() -> None:
    with pytest.raises(PrizeInputError, match="choose one of gct-2019-classical"):
        tour_points(ranking([1]), "gct-2018")


@given(
    st.sampled_from(sorted(TOUR_POINTS_TABLES)),
    st.lists(st.integers(1, 6), min_size=1, max_size=8),
)
def test_points_are_conserved_and_tied_players_equal(table: str, groups: list[int]) -> None:
    points = tour_points(ranking(groups), table)
    spec = TOUR_POINTS_TABLES[table]
    players = sum(groups)
    bonus = spec.outright_bonus if groups[0] == 1 else 0
    assert sum(points.values()) == sum(spec.base(place) for place in range(1, players + 1)) + bonus
    start_no = 1
    for size in groups:
        assert len({points[n] for n in range(start_no, start_no + size)}) == 1
        start_no += size


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (F(221, 6), "36 5/6"),
        (F(33, 2), "16 1/2"),
        (F(5, 6), "5/6"),
        (F(15), "15"),
        (F(0), "0"),
        (F(-7, 3), "-2 1/3"),
    ],
)
def test_format_mixed(value: Fraction, text: str) -> None:
    assert format_mixed(value) == text


def test_a_season_of_thirds_and_halves_adds_up_exactly() -> None:
    """16 1/2 (2-way tie for first, Classical) + 8 1/3 (3-way tie for 2nd, R&B) + 12 = 36 5/6."""
    classical = tour_points(ranking([2] + [1] * 10, playoff_winner=2), "gct-2019-classical")
    rapid = tour_points(ranking([1, 3] + [1] * 6), "gct-2019-rapid-blitz")
    total = classical[1] + rapid[2] + classical[3]
    assert format_mixed(total) == "36 5/6"


# --- Tour standings (4.1–4.3) ---------------------------------------------------------------


def event(code: str, classical: bool, *results: tuple[str, Fraction | int, int]) -> TourEvent:
    return TourEvent(
        code,
        classical,
        tuple(
            TourEventResult(player, player.title(), Fraction(points), Decimal(money))
            for player, points, money in results
        ),
    )


def standings_table(*events: TourEvent) -> list[tuple[int, bool, str, str | None]]:
    return [
        (row.rank, row.shared, row.totals.player, row.decided_by) for row in tour_standings(events)
    ]


STANDINGS_CASES = [
    pytest.param(
        [
            event("rapid", False, ("a", 10, 100), ("b", 12, 50), ("c", 8, 40)),
            event("classical", True, ("a", 12, 100), ("b", 10, 50), ("c", 15, 40)),
        ],
        # a and b level on 22; 4.3.A: b has 10 classical points, a 12.
        [(1, False, "c", None), (2, False, "a", "4.3.A"), (3, False, "b", "4.3.A")],
        id="seed000-4.3.A-classical-tour-points",
    ),
    pytest.param(
        [
            event("rapid", False, ("a", 10, 100), ("b", 10, 120)),
            event("classical", True, ("a", 12, 100), ("b", 12, 50)),
        ],
        # Level on points and classical points; 4.3.B: a 200 vs b 170 total money.
        [(1, False, "a", "4.3.B"), (2, False, "b", "4.3.B")],
        id="seed000-4.3.B-total-prize-money",
    ),
    pytest.param(
        [
            event("rapid", False, ("a", 10, 150), ("b", 10, 100)),
            event("classical", True, ("a", 12, 50), ("b", 12, 100)),
        ],
        # Level on points, classical points and total money (200); 4.3.C: b 100 vs a 50.
        [(1, False, "b", "4.3.C"), (2, False, "a", "4.3.C")],
        id="seed000-4.3.C-classical-prize-money",
    ),
    pytest.param(
        [
            event("rapid", False, ("a", 10, 100), ("b", 10, 100)),
            event("classical", True, ("a", 12, 50), ("b", 12, 50)),
        ],
        # Nothing separates them: 4.4 (the Advisory Board) — left tied for 1st.
        [(1, True, "a", None), (1, True, "b", None)],
        id="seed000-4.4-unbroken-tie-for-first-stays-tied",
    ),
    pytest.param(
        [
            event(
                "classical",
                True,
                ("a", 20, 0),
                ("b", 15, 0),
                ("c", 12, 0),
                ("d", 10, 0),
                ("e", 3, 900),
                ("f", 4, 100),
            ),
            event("rapid", False, ("e", 5, 0), ("f", 4, 0)),
        ],
        # e and f level on 8 for 5th; 4.3.A would favour f, 4.3.B e: 4.2 leaves them tied.
        [
            (1, False, "a", None),
            (2, False, "b", None),
            (3, False, "c", None),
            (4, False, "d", None),
            (5, True, "e", None),
            (5, True, "f", None),
        ],
        id="seed000-4.2-tie-for-fifth-not-broken",
    ),
    pytest.param(
        [
            event("classical", True, ("a", 30, 0), ("b", 25, 0), ("x", 13, 0)),
            event("classical2", True, ("y", 10, 500), ("z", 10, 300), ("w", 5, 0)),
            event("rapid", False, ("x", 0, 0), ("y", 3, 0), ("z", 3, 0), ("w", 8, 0)),
        ],
        # x, y, z, w level on 13 for places 3–6. 4.3.A: x 13 > y = z 10 > w 5. x is 3rd;
        # y and z (places 4–5) go to 4.3.B: y 500 > z 300, y is 4th. z and w both end below
        # 4th: 4.2 leaves them tied for 5th although 4.3.A had put z ahead of w.
        [
            (1, False, "a", None),
            (2, False, "b", None),
            (3, False, "x", "4.3.A"),
            (4, False, "y", "4.3.B"),
            (5, True, "z", None),
            (5, True, "w", None),
        ],
        id="decision-tie-straddling-4th-and-5th",
    ),
    pytest.param(
        [
            event("classical", True, ("a", 20, 0), ("b", 15, 0), ("c", 12, 0)),
            event("classical2", True, ("d", 8, 0), ("e", 5, 0)),
            event("rapid", False, ("d", 2, 0), ("e", 5, 0)),
        ],
        # d and e level on 10 for places 4–5: 4.3.A settles 4th and, with it, 5th.
        [
            (1, False, "a", None),
            (2, False, "b", None),
            (3, False, "c", None),
            (4, False, "d", "4.3.A"),
            (5, False, "e", "4.3.A"),
        ],
        id="seed000-4.1-tie-for-4th-5th-broken-for-4th",
    ),
    pytest.param(
        [
            event("classical", True, ("a", Fraction(35, 3), 0), ("b", Fraction(23, 2), 0)),
            event("rapid", False, ("a", Fraction(1, 3), 0), ("b", Fraction(1, 2), 0)),
        ],
        # 12 vs 12: level; 4.3.A by a sixth (11 2/3 > 11 1/2), which a float could lose.
        [(1, False, "a", "4.3.A"), (2, False, "b", "4.3.A")],
        id="exact-sixths-decide-4.3.A",
    ),
]


@pytest.mark.parametrize(("events", "expected"), STANDINGS_CASES)
def test_tour_standings(
    events: list[TourEvent], expected: list[tuple[int, bool, str, str | None]]
) -> None:
    assert standings_table(*events) == expected


def test_standings_totals_are_exact_sums() -> None:
    rows = tour_standings(
        [
            event("classical", True, ("a", Fraction(33, 2), 82500)),
            event("rapid", False, ("a", Fraction(25, 3), 43333)),
        ]
    )
    totals = rows[0].totals
    assert totals.tour_points == Fraction(149, 6)
    assert totals.classical_tour_points == Fraction(33, 2)
    assert totals.prize_money == Decimal(125833)
    assert totals.classical_prize_money == Decimal(82500)
    assert totals.events == 2


def test_standings_refuse_floats_and_duplicates() -> None:
    with pytest.raises(PrizeInputError, match="exact"):
        tour_standings(
            [TourEvent("r", False, (TourEventResult("a", "A", 1.5, Decimal(0)),))]  # type: ignore[arg-type]
        )
    with pytest.raises(PrizeInputError, match="appears twice"):
        tour_standings([event("r", False, ("a", 1, 0), ("a", 2, 0))])
