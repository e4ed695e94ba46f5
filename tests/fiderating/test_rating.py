"""The B.02 rating engine (fiderating/rating.py), clause by clause.

B.02 (effective 1 March 2024) has no worked examples of its own: every case below is a clause
applied to figures chosen to sit on its edges (a row boundary of table 8.1.2, 400 and 401
points, 2649 and 2650, K x n = 700 and 701, 0.5 in 8.3.4), and each id names the clause. The
figures FIDE itself published for real players are in test_published.py; FIDE's calculator
gacrux is the oracle on generated events in test_oracle_gacrux.py.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from fractions import Fraction

import pytest

from events.errors import UserError
from events.records import Crosstable, Entrant, RoundResult
from fiderating.rating import (
    BLITZ,
    RAPID,
    STANDARD,
    PlayerRecord,
    Rules,
    decimal_text,
    event_ratings,
    expected_score,
    initial_rating,
    k_factor,
    period_change,
    rating_difference,
    rating_type_of,
)

NOW = Rules.for_event(STANDARD, dt.date(2026, 1, 10))
BEFORE_AMENDMENT = Rules.for_event(STANDARD, dt.date(2025, 9, 1))


@pytest.mark.parametrize(
    ("difference", "expected"),
    [
        pytest.param(0, "0.50", id="B.02-8.1.2-D0"),
        pytest.param(3, "0.50", id="B.02-8.1.2-row-0-3-top"),
        pytest.param(4, "0.51", id="B.02-8.1.2-row-4-10"),
        pytest.param(-4, "0.49", id="B.02-8.1.2-lower-rated-4"),
        pytest.param(91, "0.62", id="B.02-8.1.2-row-84-91"),
        pytest.param(92, "0.63", id="B.02-8.1.2-row-92-98"),
        pytest.param(-200, "0.24", id="B.02-8.1.2-lower-rated-198-206"),
        pytest.param(400, "0.92", id="B.02-8.1.2-row-392-411"),
        pytest.param(735, "0.99", id="B.02-8.1.2-row-620-735"),
        pytest.param(736, "1.00", id="B.02-8.1.2-over-735"),
        pytest.param(-1026, "0.00", id="B.02-8.1.2-over-735-lower"),
    ],
)
def test_expected_score_is_the_table(difference: int, expected: str) -> None:
    assert expected_score(difference) == Decimal(expected)


@pytest.mark.parametrize(
    ("own", "opponent", "rules", "used"),
    [
        pytest.param(2300, 1900, NOW, 400, id="B.02-8.3.1-exactly-400"),
        pytest.param(2301, 1900, NOW, 400, id="B.02-8.3.1-401-counts-as-400"),
        pytest.param(1900, 2400, NOW, -400, id="B.02-8.3.1-lower-rated-capped"),
        pytest.param(2649, 2000, NOW, 400, id="B.02-8.3.1-2649-capped"),
        pytest.param(2650, 2000, NOW, 650, id="B.02-8.3.1-2650-full-difference"),
        pytest.param(2000, 2650, NOW, -400, id="B.02-8.3.1-opponent-of-2650-still-capped"),
        pytest.param(2813, 1787, BEFORE_AMENDMENT, 400, id="B.02-8.3.1-before-1-Oct-2025"),
        pytest.param(
            2813, 1787, Rules.for_event(RAPID, dt.date(2026, 1, 1)), 400, id="R&B-7.3.1-no-2650"
        ),
    ],
)
def test_the_400_point_rule(own: int, opponent: int, rules: Rules, used: int) -> None:
    difference = rating_difference(own, opponent, rules)
    assert difference.used == used
    assert difference.actual == own - opponent
    assert difference.capped == (used != own - opponent)


@pytest.mark.parametrize(
    ("rating", "record", "year", "games", "k"),
    [
        pytest.param(2400, PlayerRecord(1), 2026, 9, 10, id="B.02-8.3.3-reached-2400"),
        pytest.param(2399, PlayerRecord(1), 2026, 9, 20, id="B.02-8.3.3-under-2400"),
        pytest.param(2299, PlayerRecord(1, birth_year=2008), 2026, 9, 40, id="B.02-8.3.3-junior"),
        pytest.param(
            2299, PlayerRecord(1, birth_year=2007), 2026, 9, 20, id="B.02-8.3.3-junior-year-over"
        ),
        pytest.param(
            2300, PlayerRecord(1, birth_year=2010), 2026, 9, 20, id="B.02-8.3.3-junior-2300"
        ),
        pytest.param(2100, PlayerRecord(1, k_set=40), 2026, 9, 40, id="B.02-8.3.3-set-by-hand"),
        pytest.param(2450, PlayerRecord(1, k_listed=20), 2026, 9, 20, id="B.02-8.3.3-list-K"),
        pytest.param(2100, PlayerRecord(1, k_set=20), 2026, 35, 20, id="B.02-8.3.3-700-exactly"),
        pytest.param(2100, PlayerRecord(1, k_set=20), 2026, 39, 17, id="B.02-8.3.3-700-rule-39"),
        pytest.param(2100, PlayerRecord(1, k_set=40), 2026, 18, 38, id="B.02-8.3.3-700-rule-18"),
    ],
)
def test_k(rating: int, record: PlayerRecord, year: int, games: int, k: int) -> None:
    assert k_factor(rating, record, year=year, games=games).value == k


@pytest.mark.parametrize(
    ("change", "rounded"),
    [
        pytest.param("-2.50", -3, id="B.02-8.3.4-minus-half-away-from-zero"),
        pytest.param("2.50", 3, id="B.02-8.3.4-half-away-from-zero"),
        pytest.param("92.48", 92, id="B.02-8.3.4-down"),
        pytest.param("-0.49", 0, id="B.02-8.3.4-to-zero"),
    ],
)
def test_the_period_rounding(change: str, rounded: int) -> None:
    assert period_change(Decimal(change)) == rounded


@pytest.mark.parametrize(
    ("opponents", "halves", "rating", "missing"),
    [
        # (5 x 1900 + 2 x 1800) / 7 = 1871.43; 3.5 + 1 of 7 = 64 % -> dp 102: 1973.43.
        pytest.param([1900] * 5, 7, 1973, 0, id="B.02-8.2.2-two-hypothetical-draws"),
        # 2.5 + 1 of 7 = 50 %: Ru = Ra = 1871.43.
        pytest.param([1900] * 5, 5, 1871, 0, id="B.02-8.2.3-fifty-percent"),
        pytest.param([2500] * 9, 18, 2200, 0, id="B.02-8.2.3-at-most-2200"),
        # (4 x 1300 + 3600) / 6 = 1466.67, 1 of 6 -> 17 % -> dp -273 -> 1194: under 1400.
        pytest.param([1300] * 4, 0, 1194, 3, id="B.02-7.1.4-under-1400-too-few-and-zero"),
        pytest.param([2000, 2000], 2, 1900, 1, id="B.02-7.1.4-three-more-games"),
        pytest.param([], 0, None, 1, id="B.02-7.1.4-no-game"),
    ],
)
def test_a_first_rating(
    opponents: list[int], halves: int, rating: int | None, missing: int
) -> None:
    initial = initial_rating(opponents, halves)
    assert initial.rating == rating
    assert len(initial.missing) == missing
    assert initial.published == (missing == 0)


def test_a_first_rating_is_exact_before_rounding() -> None:
    initial = initial_rating([1902, 1877, 1884, 2012, 1832], 6)
    assert initial.average == Fraction(9507 + 3600, 7)
    assert initial.percent == 57  # 4 of 7
    assert initial.rating == 1922


def _game(round_no: int, opponent: int, colour: str, code: str, tc: str = "") -> RoundResult:
    return RoundResult(round_no, opponent, colour, code, tc)


def _table(entrants: list[Entrant], start: dt.date = dt.date(2026, 1, 10)) -> Crosstable:
    return Crosstable("Test", max(len(e.results) for e in entrants), tuple(entrants), start)


def test_which_games_are_rated() -> None:
    """B.02 5.1 and 8.3.1: forfeits, byes, games of under one move and games against an
    unrated opponent do not count; the rest do, with their terms."""
    a = Entrant(
        1,
        "A",
        2000,
        results=(
            _game(1, 2, "w", "1"),
            _game(2, 3, "b", "+"),
            RoundResult(3, None, "-", "H"),
            _game(4, 4, "w", "W"),
            _game(5, 5, "b", "="),
        ),
    )
    others = [
        Entrant(2, "B", 1800, results=(_game(1, 1, "b", "0"),)),
        Entrant(3, "C", 2100, results=(RoundResult(1, None, "-", "Z"), _game(2, 1, "w", "-"))),
        Entrant(4, "D", 2050, results=tuple(RoundResult(r, None, "-", "Z") for r in (1, 2, 3))),
        Entrant(5, "E", 0, results=tuple(RoundResult(r, None, "-", "Z") for r in (1, 2, 3, 4))),
    ]
    (mine, *_) = event_ratings(_table([a, *others]), {}, NOW)
    assert [g.round for g in mine.games] == [1]
    assert [n.round for n in mine.not_rated] == [2, 3, 4, 5]
    assert "forfeit" in mine.not_rated[0].why and "5.1" in mine.not_rated[0].why
    assert "unrated" in mine.not_rated[3].why
    game = mine.games[0]
    assert (game.difference.used, game.expected, game.delta) == (
        200,
        Decimal("0.76"),
        Decimal("0.24"),
    )
    assert mine.k is not None and mine.k.value == 20
    assert mine.change == Decimal("4.8")
    assert (mine.aro, mine.performance) == (1800, 2600)  # 1800 + dp(100 %) = 800


def test_an_unrated_players_games_toward_a_first_rating() -> None:
    """B.02 8.2: the unrated player's games against rated opponents; no K, no change."""
    u = Entrant(1, "U", 0, results=(_game(1, 2, "w", "1"), _game(2, 3, "b", "=")))
    others = [
        Entrant(2, "R", 1900, results=(_game(1, 1, "b", "0"), RoundResult(2, None, "-", "U"))),
        Entrant(3, "S", 2100, results=(RoundResult(1, None, "-", "U"), _game(2, 1, "w", "="))),
    ]
    mine, r, s = event_ratings(_table([u, *others]), {}, NOW)
    assert (mine.k, mine.change, mine.expected) == (None, None, None)
    assert mine.score == Decimal("1.5") and len(mine.games) == 2
    assert mine.initial is not None and mine.initial.rating is not None
    assert "3 more games" in mine.initial.missing[0]
    # The rated players' games against the unrated one are not rated (8.3.1).
    assert r.games == () and s.games == ()


def test_rapid_and_blitz_use_their_own_games_and_the_600_rule() -> None:
    """Rapid and Blitz Rating Regulations 7.3.1 (from 1 December 2024): 600 points apart
    with a player above 2600 is not rated; a blitz game is not rated in the rapid list."""
    rules = Rules.for_event(RAPID, dt.date(2025, 1, 5))
    top = Entrant(1, "T", 2700, results=(_game(1, 2, "w", "1"), _game(2, 3, "b", "1", "blitz")))
    others = [
        Entrant(2, "L", 2100, results=(_game(1, 1, "b", "0"), RoundResult(2, None, "-", "U"))),
        Entrant(
            3, "M", 2650, results=(RoundResult(1, None, "-", "U"), _game(2, 1, "w", "0", "blitz"))
        ),
    ]
    mine, low, _ = event_ratings(_table([top, *others]), {}, rules)
    assert mine.games == () and low.games == ()
    assert "7.3.1" in mine.not_rated[0].why and "blitz" in mine.not_rated[1].why
    before = Rules.for_event(RAPID, dt.date(2024, 11, 30))
    mine, low, _ = event_ratings(_table([top, *others]), {}, before)
    assert len(mine.games) == 1 and mine.games[0].difference.used == 400


@pytest.mark.parametrize(
    ("time_control", "rating_type"),
    [("classical", STANDARD), ("rapid", RAPID), ("rapid_blitz", RAPID), ("blitz", BLITZ)],
)
def test_the_rating_type_of_an_event(time_control: str, rating_type: str) -> None:
    assert rating_type_of(time_control) == rating_type


@pytest.mark.parametrize(
    ("rating", "record", "message"),
    [
        pytest.param(-5, PlayerRecord(1), "rating -5 is outside 0-4000", id="rating--5"),
        pytest.param(10_000, PlayerRecord(1), "rating 10000 is outside", id="rating-10000"),
        pytest.param(2000, PlayerRecord(1, k_set=10**9), "K 1000000000", id="K-1e9"),
        pytest.param(2000, PlayerRecord(1, k_set=0), "K 0", id="K-0"),
    ],
)
def test_hostile_input_is_refused_in_one_line(
    rating: int, record: PlayerRecord, message: str
) -> None:
    table = _table([Entrant(1, "A", rating, results=(RoundResult(1, None, "-", "U"),))])
    with pytest.raises(UserError) as refused:
        event_ratings(table, {1: record}, NOW)
    assert message in str(refused.value)
    assert "\n" not in str(refused.value)


def test_an_event_of_5000_players() -> None:
    """The largest event the application holds (events.limits: 5,000 players)."""
    from tests.standings.generate import generate_large_swiss

    table = generate_large_swiss(5000, 12)
    rated = event_ratings(table, {}, NOW)
    assert len(rated) == 5000
    assert sum(len(p.games) for p in rated) == 2 * (5000 // 2) * 12


@pytest.mark.parametrize(
    ("value", "text"),
    [("15.60", "15.6"), ("20.00", "20"), ("-3.0", "-3"), ("0.00", "0"), ("-0.00", "0")],
)
def test_decimal_text(value: str, text: str) -> None:
    assert decimal_text(Decimal(value)) == text
