"""GNOT 2012 (seed 004): match tie rules, pools, ranking for choice, Swiss, qualification.

Case ids cite the seed clause; the two clauses numbered 1.9.3 are told apart by their text
("1.9.3-28-board", "1.9.3-final-spot").
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from draws.lots import LotDrawer
from formats.gnot.bridge import WBF_25, WBF_2013_20, BandScale, VPBand, VPScale, score_match
from formats.gnot.rules import (
    FinalOrder,
    GnotError,
    Match,
    MatchOutcome,
    MissingBoardScores,
    PlayoffNeeded,
    Quotient,
    SwissLine,
    TieRule,
    decide_match,
    final_order,
    match_tie_rule,
    pool_lines,
    pool_of_four_places,
    pool_standing,
    qualifier_counts,
    qualify,
    rank_across_pools,
    rank_droppers,
    rank_losers,
    rank_single_knockout,
    rank_winners,
    swiss_entry_score,
    swiss_lines,
    swiss_standing,
    whist_lines,
    whist_standing,
    whist_swiss_entry,
)

SEED = "gnot-test-seed"


def played(home: int, away: int, *boards: int) -> Match:
    """A match scored from its boards' net scores for the home team."""
    score = score_match(boards)
    return Match(home, away, score.home_imps, score.away_imps, tuple(boards))


def result(home: int, away: int, home_imps: int, away_imps: int) -> Match:
    return Match(home, away, home_imps, away_imps)


def won(match: Match, playoffs: tuple[Match, ...] = ()) -> MatchOutcome:
    winner = match.imp_winner
    if winner is None:
        winner = next(p.imp_winner for p in playoffs if p.imp_winner is not None)
        return MatchOutcome(match, winner, "playoff", playoffs)
    return MatchOutcome(match, winner, "imps")


# --- quotient ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("scored", "conceded", "expected"),
    [
        pytest.param(30, 20, Quotient(False, Fraction(3, 2)), id="1.10.4-quotient-exact"),
        pytest.param(30, 0, Quotient(True, Fraction(0)), id="1.10.4-zero-denominator-infinite"),
        pytest.param(0, 0, Quotient(False, Fraction(1)), id="decision-5-zero-over-zero-is-one"),
    ],
)
def test_quotient_of(scored: int, conceded: int, expected: Quotient) -> None:
    assert Quotient.of(scored, conceded) == expected


def test_infinite_quotient_beats_every_finite_one() -> None:
    assert Quotient.of(1, 0) > Quotient.of(10**9, 1)
    assert Quotient.of(1, 0) == Quotient.of(50, 0)
    assert str(Quotient.of(1, 0)) == "inf"


# --- which tie rule (1.9) -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("boards", "second_half", "final_spot", "rule"),
    [
        pytest.param(14, False, False, TieRule.RESCORE, id="1.9.1-14-boards-first-half"),
        pytest.param(14, True, False, TieRule.ONE_BOARD, id="1.9.2-14-boards-second-half"),
        pytest.param(28, False, False, TieRule.TWO_BOARDS, id="1.9.3-28-board"),
        pytest.param(28, False, True, TieRule.FINAL_SPOT, id="1.9.3-final-spot-28"),
        pytest.param(14, True, True, TieRule.FINAL_SPOT, id="1.9.3-final-spot-14"),
    ],
)
def test_match_tie_rule(boards: int, second_half: bool, final_spot: bool, rule: TieRule) -> None:
    assert match_tie_rule(boards=boards, second_half=second_half, final_spot=final_spot) == rule


# --- deciding a match (1.9) ------------------------------------------------------------------


def decide(match: Match, rule: TieRule, *playoffs: Match) -> MatchOutcome | PlayoffNeeded:
    return decide_match(match, rule, playoffs=playoffs, seed=SEED, purpose="tie")


def test_imps_decide_without_a_tie_rule() -> None:
    outcome = decide(played(1, 2, 620, -100), TieRule.RESCORE)
    assert isinstance(outcome, MatchOutcome)
    assert (outcome.winner, outcome.loser, outcome.decided_by) == (1, 2, "imps")


@pytest.mark.parametrize(
    ("boards", "winner", "decided_by"),
    [
        pytest.param((20, 20, -50), 1, "board-a-match", id="1.9.1-board-a-match"),
        pytest.param((30, -40), 2, "total-points", id="1.9.1-total-points"),
    ],
)
def test_rescore_1_9_1(boards: tuple[int, ...], winner: int, decided_by: str) -> None:
    match = played(1, 2, *boards)
    assert match.imp_winner is None
    outcome = decide(match, TieRule.RESCORE)
    assert isinstance(outcome, MatchOutcome)
    assert (outcome.winner, outcome.decided_by) == (winner, decided_by)


def test_rescore_1_9_1_lot_is_recorded_and_reproducible() -> None:
    match = played(5, 9, 30, -30)
    outcome = decide(match, TieRule.RESCORE)
    assert isinstance(outcome, MatchOutcome)
    assert outcome.decided_by == "lot"
    assert outcome.winner == LotDrawer(SEED, "tie").pick([5, 9])
    assert decide(match, TieRule.RESCORE) == outcome


def test_rescore_needs_board_scores() -> None:
    with pytest.raises(MissingBoardScores, match="1.9.1"):
        decide(result(1, 2, 20, 20), TieRule.RESCORE)


def test_1_9_2_one_board_playoff_then_rescore_of_fifteen_boards() -> None:
    match = played(1, 2, 30, -30)
    assert decide(match, TieRule.ONE_BOARD) == PlayoffNeeded((1, 2), 1, "1.9.2")
    outcome = decide(match, TieRule.ONE_BOARD, played(2, 1, 50))
    assert isinstance(outcome, MatchOutcome)
    assert (outcome.winner, outcome.decided_by, outcome.after_playoff) == (2, "playoff", True)
    # The board is flat: the fifteen boards are rescored board-a-match.
    flat = decide(match, TieRule.ONE_BOARD, played(1, 2, 10))
    assert isinstance(flat, MatchOutcome)
    assert (flat.winner, flat.decided_by) == (1, "board-a-match")


def test_1_9_3_28_board_two_board_playoff_then_thirty_boards() -> None:
    match = played(3, 4, 30, -30)
    assert decide(match, TieRule.TWO_BOARDS) == PlayoffNeeded((3, 4), 2, "1.9.3-28-board")
    tied_playoff = played(3, 4, 50, -50)
    outcome = decide(match, TieRule.TWO_BOARDS, tied_playoff)
    assert isinstance(outcome, MatchOutcome)
    # 30 boards: BAM 2–2, total points 0 → lot.
    assert outcome.decided_by == "lot"
    assert outcome.after_playoff


def test_1_9_3_final_spot_four_boards_then_successive_single_boards() -> None:
    match = played(7, 8, 30, -30)
    rule = TieRule.FINAL_SPOT
    assert decide(match, rule) == PlayoffNeeded((7, 8), 4, "1.9.3-final-spot")
    four = played(7, 8, 50, -50, 0, 0)
    assert decide(match, rule, four) == PlayoffNeeded((7, 8), 1, "1.9.3-final-spot")
    one = played(7, 8, 10)
    assert decide(match, rule, four, one) == PlayoffNeeded((7, 8), 1, "1.9.3-final-spot")
    outcome = decide(match, rule, four, one, played(8, 7, -420))
    assert isinstance(outcome, MatchOutcome)
    assert (outcome.winner, outcome.decided_by) == (7, "playoff")


def test_playoff_between_other_teams_is_refused() -> None:
    with pytest.raises(GnotError):
        decide(played(1, 2, 30, -30), TieRule.ONE_BOARD, played(1, 3, 50))


def test_playoff_of_the_wrong_length_is_refused() -> None:
    with pytest.raises(GnotError, match="2 boards"):
        decide(played(1, 2, 30, -30), TieRule.TWO_BOARDS, played(1, 2, 50))


# --- pools of three (3.1.1) ------------------------------------------------------------------


def pool(*matches: Match, playoffs: tuple[Match, ...] = ()):  # type: ignore[no-untyped-def]
    teams = sorted({t for m in matches for t in m.teams})
    return pool_standing(teams, list(matches), playoffs=playoffs, seed=SEED, purpose="pool")


def test_pool_by_wins() -> None:
    standing = pool(played(1, 2, 620), played(1, 3, 100), played(2, 3, 50))
    assert standing.order == (1, 2, 3)
    assert [p.decided_by for p in standing.places] == ["wins", "wins", None]


def test_pool_by_net_imps() -> None:
    # A 1-1-1 circle: 1 beat 2 by 12, 2 beat 3 by 5, 3 beat 1 by 2: nets +10, -7, -3.
    standing = pool(played(1, 2, 620), played(2, 3, 200), played(3, 1, 50))
    assert standing.order == (1, 3, 2)
    assert [p.decided_by for p in standing.places] == ["net-imps", "net-imps", None]


def test_pool_by_imp_quotient() -> None:
    # 1 beats both by 5; 2 and 3 draw: both ½ win and net -5; 2's quotient 30/35 < 3's 70/75.
    matches = [result(1, 2, 15, 10), result(1, 3, 55, 50), result(2, 3, 20, 20)]
    standing = pool_standing([1, 2, 3], matches, seed=SEED, purpose="q")
    assert standing.order == (1, 3, 2)
    assert standing.places[1].decided_by == "imp-quotient"


def test_pool_two_tied_for_first_play_two_boards() -> None:
    # 1 and 2 both beat 3 by the same margin and tie each other.
    matches = (played(1, 2, 30, -30), played(1, 3, 420), played(2, 3, 420))
    standing = pool(*matches)
    assert standing.playoff_needed == PlayoffNeeded((1, 2), 2, "3.1.1")
    decided = pool(*matches, playoffs=(played(2, 1, 100, 0),))
    assert decided.order == (2, 1, 3)
    assert decided.places[0].decided_by == "playoff"
    assert decided.playoff_needed is None


def test_pool_tie_for_first_rescored_over_thirty_boards() -> None:
    # Playoff flat; team 1 has the better board-a-match over its thirty boards.
    matches = (played(1, 2, 30, -30), played(1, 3, 420, 20), played(2, 3, 430, 0))
    assert pool(*matches).playoff_needed is not None
    decided = pool(*matches, playoffs=(played(1, 2, 0, 0),))
    assert decided.order == (1, 2, 3)
    assert decided.places[0].decided_by == "board-a-match"


def test_pool_tie_for_second_uses_1_9_1() -> None:
    # 1 beats both; 2 and 3 tie their match and lost to 1 by the same.
    matches = (played(1, 2, 420), played(1, 3, 420), played(2, 3, 20, 20, -50))
    standing = pool(*matches)
    assert standing.playoff_needed is None
    assert standing.order == (1, 2, 3)
    assert standing.places[1].decided_by == "board-a-match"


def test_pool_all_three_tied_play_a_one_board_triangle() -> None:
    matches = (played(1, 2, 420), played(2, 3, 420), played(3, 1, 420))
    standing = pool(*matches)
    assert standing.playoff_needed == PlayoffNeeded((1, 2, 3), 1, "3.1.1 triangle")
    triangle = (played(1, 2, 0), played(2, 3, 100), played(3, 1, 50))
    decided = pool(*matches, playoffs=triangle)
    # Triangle: 2 beat 3, 3 beat 1, 1 and 2 flat → 2: 1½ wins, 3: 1, 1: ½.
    assert decided.order == (2, 3, 1)
    assert decided.places[0].decided_by == "triangle-wins"


def test_pool_of_four_places() -> None:
    first = (won(result(1, 4, 30, 10)), won(result(2, 3, 5, 25)))
    second = (won(result(1, 3, 40, 41)), won(result(4, 2, 10, 9)))
    places = pool_of_four_places(first, second)
    assert (places.winner, places.runner_up, places.third, places.fourth) == (3, 1, 4, 2)


def test_rank_across_pools_uses_3_1_1_then_lot() -> None:
    lines = pool_lines([1, 2, 3], [result(1, 9, 20, 10), result(2, 8, 30, 20), result(3, 7, 9, 2)])
    ranked = rank_across_pools(lines, [1, 2, 3], seed=SEED, purpose="across")
    # 3 has net 7, 1 and 2 net 10; 1's quotient 2 beats 2's 3/2.
    assert [r.team_no for r in ranked] == [1, 2, 3]
    assert ranked[0].decided_by == "imp-quotient"


# --- ranking for choice (1.10) and droppers (1.8.4) ------------------------------------------


def test_winners_by_largest_margin_then_quotient() -> None:
    outcomes = [
        won(result(1, 11, 50, 20)),  # margin 30, quotient 5/2
        won(result(2, 12, 40, 10)),  # margin 30, quotient 4
        won(result(3, 13, 30, 0)),  # margin 30, quotient infinite
        won(result(4, 14, 80, 10)),  # margin 70
    ]
    ranked = rank_winners(outcomes, seed=SEED, purpose="w")
    assert [r.team_no for r in ranked] == [4, 3, 2, 1]
    assert [r.decided_by for r in ranked] == ["imp-margin", "imp-quotient", "imp-quotient", None]


def test_playoff_winner_ranks_after_winners_by_a_margin() -> None:
    tied = result(5, 15, 40, 40)
    outcomes = [won(tied, (result(5, 15, 9, 0),)), won(result(6, 16, 41, 40))]
    assert [r.team_no for r in rank_winners(outcomes, seed=SEED, purpose="w")] == [6, 5]


def test_losers_lost_playoff_first_then_smallest_margin_then_quotient() -> None:
    outcomes = [
        won(result(1, 11, 50, 20)),  # 11 lost by 30, quotient 5/2
        won(result(2, 12, 40, 10)),  # 12 lost by 30, quotient 4
        won(result(3, 13, 30, 0)),  # 13 lost by 30, quotient infinite → lowest
        won(result(4, 14, 12, 10)),  # 14 lost by 2
        won(result(5, 15, 40, 40), (result(5, 15, 30, 0),)),  # 15 lost a playoff by 30
    ]
    ranked = rank_losers(outcomes, seed=SEED, purpose="l")
    assert [r.team_no for r in ranked] == [15, 14, 11, 12, 13]
    assert ranked[0].decided_by == "lost-playoff"
    assert ranked[1].decided_by == "imp-margin"
    assert ranked[2].decided_by == "imp-quotient"


def test_lost_playoffs_rank_by_the_playoff_margin() -> None:
    outcomes = [
        won(result(1, 11, 40, 40), (result(1, 11, 12, 0),)),
        won(result(2, 12, 40, 40), (result(2, 12, 3, 0),)),
    ]
    ranked = rank_droppers(outcomes, seed=SEED, purpose="d")
    assert [r.team_no for r in ranked] == [12, 11]
    assert ranked[0].decided_by == "playoff-margin"


def test_identical_losses_are_ranked_by_a_recorded_lot() -> None:
    outcomes = [won(result(1, 11, 30, 20)), won(result(2, 12, 30, 20))]
    ranked = rank_losers(outcomes, seed=SEED, purpose="l")
    expected = LotDrawer(SEED, "l-11").shuffle([11, 12])
    assert [r.team_no for r in ranked] == expected
    assert ranked[0].decided_by == "lot"


def test_single_knockout_ranking_1_10_3() -> None:
    dko_losers = [won(result(1, 11, 50, 20)), won(result(2, 12, 40, 39))]
    sko_winners = [won(result(21, 31, 30, 29)), won(result(22, 32, 60, 10))]
    ranked = rank_single_knockout(dko_losers, sko_winners, seed=SEED, purpose="3a", after=(99,))
    assert [r.team_no for r in ranked] == [12, 11, 22, 21, 99]
    assert [r.decided_by for r in ranked] == [
        "imp-margin",
        "section",
        "imp-margin",
        "entry-route",
        None,
    ]


@given(
    st.lists(
        st.tuples(st.integers(0, 60), st.integers(0, 60)).filter(lambda x: x[0] != x[1]),
        min_size=1,
        max_size=8,
    )
)
def test_knockout_rankings_are_permutations(scores: list[tuple[int, int]]) -> None:
    outcomes = [won(result(i, 100 + i, a, b)) for i, (a, b) in enumerate(scores)]
    winners = rank_winners(outcomes, seed=SEED, purpose="w")
    losers = rank_losers(outcomes, seed=SEED, purpose="l")
    assert sorted(r.team_no for r in winners) == sorted(o.winner for o in outcomes)
    assert sorted(r.team_no for r in losers) == sorted(o.loser for o in outcomes)
    margins = [
        next(o for o in outcomes if o.winner == r.team_no).match.margin(r.team_no) for r in winners
    ]
    assert margins == sorted(margins, reverse=True)


# --- Swiss (1.8.3, 1.9.4) ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("scale", "played_", "leader", "expected"),
    [
        pytest.param(WBF_25, 1, Fraction(18), Fraction(20), id="1.8.3-80pc-above-leader"),
        pytest.param(WBF_25, 1, Fraction(24), Fraction(24), id="1.8.3-leader-above-80pc"),
        pytest.param(WBF_25, 2, Fraction(30), Fraction(35), id="1.8.3-capped-at-leader-plus-5"),
        pytest.param(WBF_2013_20, 2, Fraction(30), Fraction(32), id="1.8.3-20-scale-80pc"),
        pytest.param(WBF_2013_20, 3, Fraction(40), Fraction(44), id="1.8.3-20-scale-cap-4"),
    ],
)
def test_swiss_entry_score(
    scale: VPScale, played_: int, leader: Fraction, expected: Fraction
) -> None:
    assert swiss_entry_score(scale, matches_played=played_, leader=leader) == expected


def test_swiss_lines_and_standing_break_ties_by_net_imps() -> None:
    entries = {1: Fraction(0), 2: Fraction(0), 3: Fraction(20), 4: Fraction(20)}
    matches = [result(1, 2, 30, 30), result(3, 4, 41, 40)]
    lines = swiss_lines(entries, matches, WBF_25)
    assert lines[3].vps == 20 + 15 and lines[4].vps == 20 + 15  # 1 IMP is a 15-15 draw
    assert lines[3].net_imps == 1
    ranked = swiss_standing(lines, seed=SEED, purpose="swiss")
    assert [r.team_no for r in ranked][:2] == [3, 4]
    assert ranked[0].decided_by == "net-imps"
    assert ranked[2].decided_by == "lot"  # 1 and 2: same VPs, net IMPs


def test_swiss_match_without_entry_is_refused() -> None:
    with pytest.raises(GnotError, match="entry"):
        swiss_lines({1: Fraction(0)}, [result(1, 2, 1, 0)], WBF_25)


def test_swiss_lines_with_20_scale_are_exact() -> None:
    lines = swiss_lines({1: Fraction(16), 2: Fraction(0)}, [result(1, 2, 42, 40)], WBF_2013_20)
    assert lines[1].vps == Fraction(16) + Fraction("10.66")
    assert lines[1].vps + lines[2].vps == 36


def test_swiss_line_marks_non_contending() -> None:
    lines = swiss_lines({1: Fraction(0)}, [], WBF_25, non_contending=frozenset({1}))
    assert lines[1] == SwissLine(1, Fraction(0), Fraction(0), True)


# --- final order and qualification (1.11) ----------------------------------------------------


@pytest.mark.parametrize(
    ("contending", "national", "metropolitan"),
    [
        pytest.param(24, 2, 4, id="1.11.2-24-teams-22-rest-4"),
        pytest.param(16, 2, 2, id="1.11.2-16-teams-14-rest-2"),
        pytest.param(23, 2, 3, id="1.11.2-23-teams-21-rest-3"),
        pytest.param(30, 2, 4, id="1.11.2-30-teams-28-rest-4"),
        pytest.param(31, 2, 5, id="1.11.2-31-teams-29-rest-5"),
    ],
)
def test_qualifier_counts(contending: int, national: int, metropolitan: int) -> None:
    assert qualifier_counts(contending) == (national, metropolitan)


def field_24() -> FinalOrder:
    swiss = list(range(4, 25))  # 21 Swiss teams, team 1 (DKO winner) also played it
    return final_order(
        dko_winner=1, sko_winner=2, sko_final_loser=3, swiss=[1, *swiss], non_contending=[]
    )


def test_final_order_1_11_1() -> None:
    final = field_24()
    assert final.order == tuple(range(1, 25))
    assert final.swiss == tuple(range(4, 25))


def test_qualify_1_11_2() -> None:
    qualification = qualify(field_24())
    assert qualification.national == (1, 2)
    assert qualification.metropolitan == (3, 4, 5, 6)
    assert qualification.replacements == ()


def test_declined_team_is_replaced_by_the_next_1_11_3() -> None:
    qualification = qualify(field_24(), declined=[2, 5])
    assert qualification.national == (1, 3)
    assert qualification.metropolitan == (4, 6, 7, 8)
    assert qualification.replacements == (7, 8)


def test_replacement_must_finish_above_the_swiss_middle_1_11_3() -> None:
    # Swiss of 21: the middle-ranked team is 11th (team 14); teams 4..13 may replace.
    declined = list(range(3, 13))
    qualification = qualify(field_24(), declined=declined)
    assert qualification.national == (1, 2)
    assert qualification.metropolitan == (13,)
    assert qualification.vacant_metropolitan == 3


def test_non_contending_teams_do_not_count_or_qualify() -> None:
    final = final_order(
        dko_winner=1, sko_winner=2, sko_final_loser=3, swiss=[4, 50, 5, 6], non_contending=[50]
    )
    qualification = qualify(final)
    assert qualifier_counts(6) == (2, 1)
    assert qualification.national == (1, 2)
    assert qualification.metropolitan == (3,)


# --- the American Whist group of a 25-team entry (3.2.4.1) ----------------------------------

# A small band table made for these tests (not a published scale): 0 → 15-15, 1–9 → 16-14,
# 10+ → 20-10, so equal VP totals are easy to build.
TEST_SCALE = BandScale(
    code="test-bands",
    name="test bands",
    match_maximum=Decimal(25),
    tables={
        8: (
            VPBand(0, Decimal(15), Decimal(15)),
            VPBand(1, Decimal(16), Decimal(14)),
            VPBand(10, Decimal(20), Decimal(10)),
        )
    },
)


def whist(*matches: Match, playoffs: tuple[Match, ...] = ()):  # type: ignore[no-untyped-def]
    teams = sorted({t for m in matches for t in m.teams})
    return whist_standing(
        teams, list(matches), TEST_SCALE, playoffs=playoffs, seed=SEED, purpose="whist"
    )


def test_whist_lines_use_the_8_board_table_for_7_board_matches() -> None:
    # 3.2.4.1: seven-board matches "converted to VPs using the NSWBA scale for 8 board
    # butler matches": the scale's 8-board table, whatever the boards played.
    lines = whist_lines([1, 2], [result(1, 2, 12, 1)], TEST_SCALE, scale_boards=8)
    assert (lines[1].vps, lines[2].vps) == (Fraction(20), Fraction(10))
    assert (lines[1].wins, lines[1].net_imps) == (Fraction(1), Fraction(11))


def test_whist_ranks_by_vps_then_most_matches_won_3_2_4_1() -> None:
    matches = (
        result(1, 3, 1, 0), result(1, 4, 1, 0), result(1, 5, 1, 0), result(2, 1, 20, 0),
        result(3, 2, 1, 0), result(4, 2, 1, 0), result(5, 2, 10, 0),
        result(4, 3, 1, 0), result(5, 3, 10, 0), result(5, 4, 10, 0),
    )  # fmt: skip
    standing = whist(*matches)
    # VPs: 5 → 74; 1 → 58 with three wins; 2 → 58 with one win; 4 → 56; 3 → 54.
    assert standing.order == (5, 1, 2, 4, 3)
    assert [p.decided_by for p in standing.places] == ["vps", "wins", "vps", "vps", None]


def _tied_for_first(first_v_third: Match, second_v_third: Match) -> tuple[Match, ...]:
    # 1 and 2 draw, both beat 3, 4 and 5 by one IMP; 3, 4 and 5 draw among themselves.
    return (
        played(1, 2, 0), first_v_third, played(1, 4, 20), played(1, 5, 20),
        second_v_third, played(2, 4, 20), played(2, 5, 20),
        played(3, 4, 0), played(3, 5, 0), played(4, 5, 0),
    )  # fmt: skip


def test_whist_tie_for_first_plays_two_boards_3_2_4_1() -> None:
    matches = _tied_for_first(played(1, 3, 20), played(2, 3, 20))
    assert whist(*matches).playoff_needed == PlayoffNeeded((1, 2), 2, "3.2.4.1")
    decided = whist(*matches, playoffs=(played(2, 1, 100, 0),))
    assert decided.order[:2] == (2, 1)
    assert decided.places[0].decided_by == "playoff-wins"


def test_whist_tie_still_level_after_the_playoff_goes_to_1_9_1_over_thirty_boards() -> None:
    # Same IMPs and VPs; team 1's boards against 3 score better board-a-match (20, 0 v 20, -10).
    matches = _tied_for_first(played(1, 3, 20, 0), played(2, 3, 20, -10))
    decided = whist(*matches, playoffs=(played(1, 2, 0, 0),))
    assert decided.order[:2] == (1, 2)
    assert decided.places[0].decided_by == "board-a-match"


def test_whist_three_tied_for_first_each_pair_plays_two_boards_decision_8() -> None:
    # 1, 2 and 3 beat each other in a circle by one IMP and beat 4 and 5 by one IMP.
    matches = (
        result(1, 2, 1, 0), result(2, 3, 1, 0), result(3, 1, 1, 0),
        result(1, 4, 1, 0), result(1, 5, 1, 0), result(2, 4, 1, 0), result(2, 5, 1, 0),
        result(3, 4, 1, 0), result(3, 5, 1, 0), result(4, 5, 0, 0),
    )  # fmt: skip
    assert whist(*matches).playoff_needed == PlayoffNeeded((1, 2, 3), 2, "3.2.4.1")
    one_played = (result(1, 2, 3, 0),)
    assert whist(*matches, playoffs=one_played).playoff_needed is not None
    all_played = (result(1, 2, 3, 0), result(3, 2, 5, 0), result(1, 3, 0, 0))
    decided = whist(*matches, playoffs=all_played)
    # playoff wins: 1 → 1½, 3 → 1½, 2 → 0; then playoff net IMPs: 3 (+5) before 1 (+3)
    assert decided.order[:3] == (3, 1, 2)
    assert [p.decided_by for p in decided.places[:2]] == ["playoff-net-imps", "playoff-wins"]


def test_whist_ties_below_first_need_no_playoff_decision_9() -> None:
    matches = _tied_for_first(played(1, 3, 20), played(2, 3, 20))
    decided = whist(*matches, playoffs=(played(2, 1, 100, 0),))
    # 3, 4 and 5 are level on VPs, wins and net IMPs: a recorded lot, no playoff asked
    assert decided.playoff_needed is None and sorted(decided.order[2:]) == [3, 4, 5]
    assert decided.places[2].decided_by == "lot"


@pytest.mark.parametrize(
    ("vps", "whist_scale", "swiss_scale", "entry"),
    [
        pytest.param(Fraction(58), WBF_25, WBF_25, Fraction(29, 2), id="3.2.4.1-quarter"),
        pytest.param(
            Fraction(48), WBF_2013_20, WBF_25, Fraction(15), id="decision-10-rescaled-20-to-25"
        ),
    ],
)
def test_whist_swiss_entry_3_2_4_1(
    vps: Fraction, whist_scale: VPScale, swiss_scale: VPScale, entry: Fraction
) -> None:
    assert whist_swiss_entry(vps, whist_scale, swiss_scale) == entry
