"""The B.01 norm engine (fiderating/norms.py), clause by clause, and gacrux as the oracle of
the norm performance (its ``ComputeTournamentPerformanceRating`` with the norm floors).

B.01's own example figures are its thresholds: 1.4.8's "minimum level prior to rounding"
(2599.5 for 2600) and the floors of 1.4.6; each case below sits on one clause's edge and its id
names the clause.
"""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

import pytest

from events.records import Crosstable, Entrant, RoundResult
from fiderating.norms import (
    NATIONAL_CHAMPIONSHIP,
    NormEvent,
    counted_games,
    event_norms,
    next_round_needs,
    norm_performance,
    titles_to_check,
)
from tests.standings.generate import generate

Opponent = tuple[int, str, str, str]  # rating, title, federation, the player's result code

GM_FIELD: list[Opponent] = [
    (2500, "GM", "GER", "="),
    (2480, "GM", "FRA", "="),
    (2450, "GM", "ESP", "1"),
    (2420, "IM", "GER", "1"),
    (2400, "IM", "FRA", "="),
    (2380, "IM", "ESP", "1"),
    (2350, "FM", "NED", "1"),
    (2300, "FM", "NED", "="),
    (2250, "", "SWE", "1"),
]


def table(
    opponents: list[Opponent | None],
    *,
    me: Entrant | None = None,
    rounds: int | None = None,
    extra: tuple[Entrant, ...] = (),
) -> Crosstable:
    """Player 1 (NOR) against one opponent per round (None: a forfeit win in that round)."""
    total = rounds or len(opponents)
    mine: list[RoundResult] = []
    others = []
    for index, opponent in enumerate(opponents):
        number, start_no = index + 1, index + 2
        theirs = [RoundResult(r, None, "-", "Z") for r in range(1, total + 1)]
        if opponent is None:
            mine.append(RoundResult(number, start_no, "w", "+"))
            theirs[index] = RoundResult(number, 1, "b", "-")
            others.append(Entrant(start_no, f"P{start_no}", 2400, results=tuple(theirs)))
            continue
        rating, title, federation, code = opponent
        mine.append(RoundResult(number, start_no, "w", code))
        theirs[index] = RoundResult(number, 1, "b", {"1": "0", "=": "=", "0": "1"}[code])
        others.append(
            Entrant(
                start_no, f"P{start_no}", rating, federation, title=title, results=tuple(theirs)
            )
        )
    mine += [RoundResult(r, None, "-", "Z") for r in range(len(mine) + 1, total + 1)]
    player = me or Entrant(1, "Norm, Seeker", 2350, "NOR")
    return Crosstable("T", total, (replace(player, results=tuple(mine)), *others, *extra))


def gm(checks_by_player: dict[int, tuple]) -> object:  # type: ignore[type-arg]
    return next(c for c in checks_by_player[1] if c.title == "GM")


def check(opponents: list[Opponent | None], event: NormEvent | None = None, **kw: object):  # type: ignore[no-untyped-def]
    crosstable = table(opponents, **kw)  # type: ignore[arg-type]
    return gm(event_norms(crosstable, event or NormEvent(rounds=crosstable.rounds)))


def test_a_gm_norm() -> None:
    result = check(GM_FIELD)
    assert result.achieved, result.missing
    # Ra 21530 / 9 = 2392.2; 7 of 9 = 78 % (dp 220).
    assert (result.average, result.performance, result.counts_as) == (2392, 2612, 9)
    assert [g.round for g in result.games] == list(range(1, 10))


def _ten(ratings: list[int], halves: int) -> list[Opponent]:
    """Ten GM opponents of five federations at these ratings, scoring ``halves``."""
    feds = ["GER", "FRA", "ESP", "NED", "SWE"] * 2
    codes = ["1"] * (halves // 2) + ["="] * (halves % 2)
    codes += ["0"] * (10 - len(codes))
    return [(r, "GM", f, c) for r, f, c in zip(ratings, feds, codes, strict=True)]


@pytest.mark.parametrize(
    ("total", "achieved", "performance"),
    [
        # Ra 2406.5 -> 2407, 7.5 of 10 = 75 % (dp 193): 2599.5 before rounding, 2600 after.
        pytest.param(24065, True, 2600, id="B.01-1.4.8-2599.5-is-2600"),
        # Ra 2406.4 -> 2406: 2599.
        pytest.param(24064, False, 2599, id="B.01-1.4.8-2599.4-is-not"),
    ],
)
def test_the_performance_threshold(total: int, achieved: bool, performance: int) -> None:
    """A round robin, so that every round counts (a Swiss could stop after round 9, 1.4.1 e)."""
    ratings = [total // 10 + (1 if i < total % 10 else 0) for i in range(10)]
    result = check(_ten(ratings, 15), NormEvent(rounds=10, round_robin=True))
    assert (result.achieved, result.performance) == (achieved, performance)


def test_each_point_above_the_norm_counts_as_a_game() -> None:
    """B.01 1.4.1 d: 8 of 9 where 7 gives the GM norm (Ra 2392: 78 % needed) counts as 10."""
    field = [(r, t, f, "1" if i in (0, 1) else c) for i, (r, t, f, c) in enumerate(GM_FIELD)]
    result = check(field)
    assert result.achieved and result.halves == 16
    assert result.counts_as == 10


def test_the_floor_raises_the_lowest_opponent_only() -> None:
    """B.01 1.4.6 c: two opponents below 2200; only the lowest is raised to the floor."""
    field = [*GM_FIELD[:7], (2100, "FM", "NED", "1"), (2000, "", "SWE", "1")]
    crosstable = table(field)
    games, _ = counted_games(crosstable, crosstable.entrants[0], 9, NormEvent())
    from fiderating.norms import NORMS, norm_ratings

    assert sorted(norm_ratings(games, NORMS["GM"]))[:2] == [2100, 2200]


def test_an_unrated_opponent_counts_as_1400_then_the_floor() -> None:
    """B.01 1.4.6 d: an unrated opponent is 1400; being the lowest, it is raised to 2200."""
    field = [*GM_FIELD[:8], (0, "", "SWE", "1")]
    from fiderating.norms import NORMS, norm_ratings

    crosstable = table(field)
    games, _ = counted_games(crosstable, crosstable.entrants[0], 9, NormEvent())
    assert min(norm_ratings(games, NORMS["GM"])) == 2200
    assert min(norm_ratings(games, NORMS["IM"])) == 2050
    assert "unrated opponents count as 1400 (1.4.6 d): 1" in check(field).notes


@pytest.mark.parametrize(
    ("field", "event", "words"),
    [
        pytest.param(GM_FIELD[:8], NormEvent(rounds=11), "1 more game", id="B.01-1.4.1-9-games"),
        pytest.param(
            [*GM_FIELD[:8], None],
            NormEvent(rounds=11),
            "a forfeit does not count (1.4.2 c)",
            id="B.01-1.4.2-c-forfeit",
        ),
        pytest.param(
            [(r, t, "GER", c) for r, t, _, c in GM_FIELD],
            None,
            "2 federations other than NOR",
            id="B.01-1.4.3-two-foreign-federations",
        ),
        pytest.param(
            [(r, t, "NOR" if i < 6 else f, c) for i, (r, t, f, c) in enumerate(GM_FIELD)],
            None,
            "at most 5 opponents from NOR (three fifths, 1.4.4): 6",
            id="B.01-1.4.4-three-fifths",
        ),
        pytest.param(
            [(r, t, "GER" if i < 7 else f, c) for i, (r, t, f, c) in enumerate(GM_FIELD)],
            None,
            "at most 6 opponents from one federation (two thirds, 1.4.4): 7 from GER",
            id="B.01-1.4.4-two-thirds",
        ),
        pytest.param(
            [(r, "" if i > 3 else t, f, c) for i, (r, t, f, c) in enumerate(GM_FIELD)],
            None,
            "at least 5 title-holders among the 9 opponents",
            id="B.01-1.4.5-a-half-titled",
        ),
        pytest.param(
            [(r, "IM" if t == "GM" and i else t, f, c) for i, (r, t, f, c) in enumerate(GM_FIELD)],
            None,
            "at least 3 GM opponents (1.4.5): 1",
            id="B.01-1.4.5-b-three-gms",
        ),
        pytest.param(
            [(r, t, f, "0" if i > 2 else "=") for i, (r, t, f, c) in enumerate(GM_FIELD)],
            None,
            "a score of at least 35 % (1.4.8 b): 17 %",
            id="B.01-1.4.8-b-35-percent",
        ),
        pytest.param(
            [(r - 300, t, f, c) for r, t, f, c in GM_FIELD],
            None,
            "an opponents' average of at least 2380 (1.4.8 a)",
            id="B.01-1.4.8-a-average",
        ),
    ],
)
def test_what_is_missing_in_words(
    field: list[Opponent | None], event: NormEvent | None, words: str
) -> None:
    result = check(field, event, rounds=(event.rounds if event else None))
    assert not result.achieved
    assert any(words in line for line in (*result.missing, *result.notes)), result


def test_a_performance_short_says_the_score_needed() -> None:
    field = [
        (r, t, f, "=" if c == "1" and i == 2 else c) for i, (r, t, f, c) in enumerate(GM_FIELD)
    ]
    result = check(field)
    assert not result.achieved
    assert any("would give it" in line for line in result.missing), result.missing


def test_the_national_championship_exempts_the_host_players() -> None:
    """B.01 1.4.3 a: no foreigner requirement for the host federation's players."""
    field = [(r, t, "NOR", c) for r, t, _, c in GM_FIELD]
    ordinary = check(field)
    assert not ordinary.achieved
    national = check(field, NormEvent(kind=NATIONAL_CHAMPIONSHIP, host_federation="NOR"))
    assert national.achieved, national.missing
    assert "1.4.3 a" in national.notes[0]


def test_eight_games_count_as_nine_after_a_forfeit_win() -> None:
    """B.01 1.4.1 c: a 9-round event, the ninth game a forfeit win."""
    field = [*GM_FIELD[:8], None]
    field[5] = (2450, "GM", "ESP", "1")  # enough for the performance on eight games
    result = check(field, NormEvent(rounds=9))
    assert result.achieved, result.missing
    assert result.counts_as >= 9 and any("1.4.1 c" in n for n in result.notes)


def test_a_swiss_norm_stays_reached_after_later_losses() -> None:
    """B.01 1.4.1 e: after the norm in round 9, two losses in rounds 10 and 11 are ignored."""
    field = [*GM_FIELD, (2500, "GM", "GER", "0"), (2500, "GM", "FRA", "0")]
    result = check(field, NormEvent(rounds=11))
    assert result.achieved
    assert any("counting rounds 1-9 (1.4.1 e)" in note for note in result.notes)


def test_a_win_may_be_left_out() -> None:
    """B.01 1.4.1 f: in a round robin, 6½ of 10 against 2490 gives 2600; the win against an
    1800 (raised to 2200) brings it to 7½ of 11 at 2464: 2597. Leaving the win out."""
    ratings = [2600, 2560, 2540, 2520, 2500, 2480, 2460, 2440, 2420, 2380]
    codes = ["1", "1", "1", "1", "=", "=", "=", "=", "=", "0"]
    feds = ["GER", "FRA", "ESP", "NED", "SWE"] * 2
    field: list[Opponent | None] = [
        (r, "GM" if i < 5 else "IM", f, c)
        for i, (r, f, c) in enumerate(zip(ratings, feds, codes, strict=True))
    ]
    field.append((1800, "", "ITA", "1"))
    result = check(field, NormEvent(rounds=11, round_robin=True))
    assert result.achieved, result.missing
    assert result.performance == 2600 and len(result.games) == 10
    assert "leaving out the wins of round 11 (1.4.1 f)" in result.notes


def test_a_round_robin_norm_counts_every_round() -> None:
    result = check(GM_FIELD, NormEvent(rounds=11, round_robin=True), rounds=11)
    assert not result.achieved
    assert "rounds 10-11: a round robin's norm counts every round (1.4.1 e)" in result.missing


def test_the_big_swiss_exemption() -> None:
    """B.01 1.4.3 d: 20 foreign rated players of 3 federations, 10 titled, every round."""
    field = [(r, t, "NOR", c) for r, t, _, c in GM_FIELD]
    crowd = tuple(
        Entrant(
            100 + i,
            f"Guest {i}",
            2300,
            ("GER", "FRA", "ESP")[i % 3],
            title="IM" if i < 10 else "",
            results=tuple(RoundResult(r, None, "-", "U") for r in range(1, 10)),
        )
        for i in range(20)
    )
    host = NormEvent(host_federation="NOR", rounds=9)
    crosstable = table(field, extra=crowd)
    result = gm(event_norms(crosstable, host))
    assert result.achieved, result.missing
    assert "1.4.3 d" in result.notes[0]
    thin = table(field, extra=crowd[:19])
    assert not gm(event_norms(thin, host)).achieved


@pytest.mark.parametrize(
    ("sex", "title", "titles"),
    [
        ("m", "", ("GM", "IM")),
        ("w", "", ("GM", "IM", "WGM", "WIM")),
        ("w", "WIM", ("GM", "IM", "WGM")),
        ("m", "IM", ("GM",)),
        ("w", "GM", ()),
    ],
)
def test_who_is_checked_for_what(sex: str, title: str, titles: tuple[str, ...]) -> None:
    assert titles_to_check(Entrant(1, "X", 2300, sex=sex, title=title)) == titles


def _gm_need(crosstable: Crosstable, opponent: Entrant | None) -> str:
    event = NormEvent(rounds=9)
    checks = event_norms(crosstable, event)[1]
    nxt = next_round_needs(crosstable, 1, event, round_no=9, opponent=opponent, checks=checks)
    return next(n for n in nxt.needs if n.startswith("GM norm"))


def test_what_the_last_round_needs() -> None:
    """Eight rounds of nine: 6 of 8 against 2410 with two GMs. A draw against a GM rated 2650
    gives 6½ of 9 (72 %, dp 166) at 2437: 2603; against an IM nothing does (three GMs, 1.4.5);
    not paired yet, a draw needs an average of 2433.5 (a GM rated 2622 or more), a win 78 %
    against any GM (the floor raises a lower one to 2200: Ra 2387, Rp 2607)."""
    field = list(GM_FIELD[:8])
    field[2] = (2450, "IM", "ESP", "1")
    crosstable = table(field, rounds=9)
    strong = Entrant(50, "Strong, GM", 2650, "ITA", title="GM")
    assert _gm_need(crosstable, strong) == "GM norm: a draw in round 9 gives it (or better)"
    assert _gm_need(crosstable, replace(strong, title="IM")) == (
        "GM norm: no result of round 9 gives it"
    )
    assert _gm_need(crosstable, None) == (
        "GM norm: a draw against an opponent rated 2622 or more or a win against any opponent "
        "in round 9 would give it (if the opponent's title and federation also fit)"
    )


gacrux_rating = pytest.importorskip("gacrux.rating")


@pytest.mark.oracle
@pytest.mark.parametrize("seed", range(60))
def test_the_norm_performance_agrees_with_gacrux(seed: int) -> None:
    """gacrux's performance with the norm floors (its ComputeTournamentPerformanceRating with
    ``norm=``) on every player's counted games of generated events; unrated opponents as
    1400 (1.4.6 d)."""
    crosstable = generate(seed)
    event = NormEvent(rounds=crosstable.rounds, round_robin=crosstable.round_robin)
    for entrant in crosstable.entrants:
        games, _ = counted_games(crosstable, entrant, crosstable.rounds, event)
        if not games:
            continue
        score = Decimal(sum(g.halves for g in games)) / 2
        ratings = [g.rating or 1400 for g in games]
        for title in ("GM", "IM", "WGM", "WIM"):
            oracle = gacrux_rating.ComputeTournamentPerformanceRating(score, ratings, norm=title)
            assert norm_performance(games, title) == oracle, (seed, entrant.start_no, title)
