"""A team's line-up for a round, checked against its roster. Pure: no Django.

The rule (issue #22, the practice of FIDE team competitions, e.g. the Olympiad regulations'
"the order of the players must follow the board order of the list"): a line-up is a
subsequence of the roster in roster order (no re-ordering), nobody twice, nobody from outside
the roster, at most one player per board, and empty boards only at the bottom. A line-up that
breaks it is refused with the rule it breaks; the director may accept it anyway (an audited
override), which this module does not decide.
"""

from __future__ import annotations

from collections.abc import Sequence


class LineUpRefused(ValueError):
    """The line-up breaks the rule; the message names the rule, in one line."""


def _named_players(roster: Sequence[int], padded: Sequence[int | None]) -> list[int]:
    """The players the line-up names: at least one, each on the roster, none twice."""
    named = [number for number in padded if number is not None]
    if not named:
        raise LineUpRefused("a line-up names at least one player")
    strangers = [number for number in named if number not in roster]
    if strangers:
        raise LineUpRefused(f"player {strangers[0]} is not on the team's roster")
    if len(set(named)) != len(named):
        twice = next(number for number in named if named.count(number) > 1)
        raise LineUpRefused(f"player {twice} is on two boards")
    return named


def _empty_boards_at_the_bottom(padded: Sequence[int | None]) -> None:
    first_empty = padded.index(None) if None in padded else len(padded)
    if any(number is not None for number in padded[first_empty:]):
        raise LineUpRefused(
            f"board {first_empty + 1} is empty but a board below it is not: empty boards only "
            "at the bottom"
        )


def _roster_order_kept(roster: Sequence[int], named: Sequence[int]) -> None:
    place = {number: i for i, number in enumerate(roster)}
    positions = [place[number] for number in named]
    for board, (above, below) in enumerate(zip(positions, positions[1:], strict=False), start=2):
        if below < above:
            raise LineUpRefused(
                f"board {board}: {named[board - 1]} is above {named[board - 2]} in the roster; "
                "a line-up keeps the roster order"
            )


def lineup_check(
    *, roster: Sequence[int], boards: Sequence[int | None], board_count: int
) -> tuple[int | None, ...]:
    """The line-up, padded with empty boards to ``board_count``; refused with the rule.

    ``roster`` is the team's start numbers in roster order (reserves after the regular
    boards); ``boards`` the start numbers for boards 1, 2, ... (None: nobody on that board).
    """
    if len(boards) > board_count:
        raise LineUpRefused(f"a line-up has at most {board_count} boards, not {len(boards)}")
    padded = (*boards, *([None] * (board_count - len(boards))))
    named = _named_players(roster, padded)
    _empty_boards_at_the_bottom(padded)
    _roster_order_kept(roster, named)
    return padded
