"""The Handbook's own examples in C.04.6 (2026): the order of the sets of upfloaters (3.5.4),
the identifier of a pairing (3.6.2), and the order of score profiles ([C5], 2.3.2)."""

from __future__ import annotations

from fractions import Fraction

from formats.teams.pairing.bracket import identifier
from formats.teams.pairing.upfloaters import score_profiles, upfloater_sets


def test_3_5_4_the_sets_of_upfloaters_in_order() -> None:
    # "Let's assume that 2,6,8 have 3 points, and 1,3,5 have 2.5 points. [C4] determines that
    # a set of three upfloaters is needed, and [C5] determines that two upfloaters must have
    # 3 points and the other 2.5 points. The possible set of upfloaters are: {2,6,1} <
    # {2,6,3} < {2,6,5} < {2,8,1} < {2,8,3} < {2,8,5} < {6,8,1} < {6,8,3} < {6,8,5}."
    groups = [[2, 6, 8], [1, 3, 5]]
    floated = [False] * 9
    sets = list(upfloater_sets(groups, [2, 1], floated))
    assert sets == [
        (2, 6, 1),
        (2, 6, 3),
        (2, 6, 5),
        (2, 8, 1),
        (2, 8, 3),
        (2, 8, 5),
        (6, 8, 1),
        (6, 8, 3),
        (6, 8, 5),
    ]


def test_3_5_4_with_c7_the_sets_of_one_floater_count_keep_their_order() -> None:
    groups = [[2, 6, 8], [1, 3, 5]]
    floated = [False] * 9
    floated[6] = floated[3] = True
    none = list(upfloater_sets(groups, [2, 1], floated, floaters=0))
    one = list(upfloater_sets(groups, [2, 1], floated, floaters=1))
    assert none == [(2, 8, 1), (2, 8, 5)]
    assert one == [(2, 6, 1), (2, 6, 5), (2, 8, 3), (6, 8, 1), (6, 8, 5)]
    assert sorted(none + one + list(upfloater_sets(groups, [2, 1], floated, floaters=2))) == (
        sorted(upfloater_sets(groups, [2, 1], floated))
    )


def test_3_6_2_the_identifier_of_a_pairing() -> None:
    # "If 11-24 16-6 10-9 8-4 is a pairing, its identifier is 4 6 9 11 8 16 10 24."
    assert identifier([(11, 24), (16, 6), (10, 9), (8, 4)]) == (4, 6, 9, 11, 8, 16, 10, 24)


def test_2_3_2_c5_profiles_highest_scores_first_compared_from_the_lowest() -> None:
    three, half = Fraction(3), Fraction(5, 2)
    profiles = list(score_profiles([(three, 3), (half, 3)], 3))
    assert profiles == [
        {three: 3},
        {half: 1, three: 2},
        {half: 2, three: 1},
        {half: 3},
    ]
    # Only two teams on 3: the best set of three takes both and one team on 2½.
    assert next(score_profiles([(three, 2), (half, 3)], 3)) == {half: 1, three: 2}
