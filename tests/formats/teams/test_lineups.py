"""formats/teams/lineups.py: a line-up is a subsequence of the roster in roster order, nobody
twice, empty boards only at the bottom (issue #22, "What a director and a captain do")."""

from __future__ import annotations

import pytest

from formats.teams.lineups import LineUpRefused, lineup_check

ROSTER = (11, 12, 13, 14, 15, 16)  # four regulars, two reserves

ACCEPTED = [
    ("regulars", [11, 12, 13, 14], (11, 12, 13, 14)),
    ("reserve in for board 2", [11, 13, 14, 15], (11, 13, 14, 15)),
    ("both reserves", [13, 14, 15, 16], (13, 14, 15, 16)),
    ("empty bottom board", [11, 12, 13], (11, 12, 13, None)),
    ("empty bottom boards given", [11, 12, None, None], (11, 12, None, None)),
]

REFUSED = [
    ("out of roster order", [12, 11, 13, 14], "keeps the roster order"),
    ("reserve above a regular", [15, 12, 13, 14], "keeps the roster order"),
    ("twice", [11, 11, 13, 14], "on two boards"),
    ("stranger", [11, 12, 13, 99], "not on the team's roster"),
    ("empty board in the middle", [11, None, 13, 14], "empty boards only at the bottom"),
    ("too many boards", [11, 12, 13, 14, 15], "at most 4 boards"),
    ("nobody", [None, None], "at least one player"),
]


@pytest.mark.parametrize(
    ("boards", "expected"), [c[1:] for c in ACCEPTED], ids=[c[0] for c in ACCEPTED]
)
def test_accepted(boards: list[int | None], expected: tuple[int | None, ...]) -> None:
    assert lineup_check(roster=ROSTER, boards=boards, board_count=4) == expected


@pytest.mark.parametrize(("boards", "rule"), [c[1:] for c in REFUSED], ids=[c[0] for c in REFUSED])
def test_refused_with_the_rule(boards: list[int | None], rule: str) -> None:
    with pytest.raises(LineUpRefused, match=rule):
        lineup_check(roster=ROSTER, boards=boards, board_count=4)
