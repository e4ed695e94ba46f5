"""Who is in the running for a board prize (issue 29: "A board prize went to a reserve with one
game"). Pure: no Django.

C.04.6 and C.07 leave board prizes to the competition. The FIDE Olympiad's regulations give them
to players who played at least 8 games of its 11 rounds; the default asks the same share of any
event's rounds, and the event may set its own minimum (docs/teams.md, "Prizes").
"""

from __future__ import annotations

from fractions import Fraction

BOARD_PRIZE_SHARE = Fraction(8, 11)


def min_board_games(rounds: int, setting: int | None) -> int:
    """The games a player needs for a board prize: the event's own minimum when it set one
    (0: none), else 8 of every 11 rounds, rounded up (7 rounds: 6; 9: 7; 11: 8), at least 1."""
    if setting is not None:
        return setting
    return max(1, -(-BOARD_PRIZE_SHARE.numerator * rounds // BOARD_PRIZE_SHARE.denominator))
