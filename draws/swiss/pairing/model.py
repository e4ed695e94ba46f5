"""The Swiss engine's records: what a caller asks for and what it gets back.

Frozen dataclasses only; points are :class:`~fractions.Fraction` (C.04.3 (2025) scores are
exact multiples of the point values, and the engine never rounds).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

WHITE = "w"
BLACK = "b"


@dataclass(frozen=True)
class PairingRequest:
    """What to pair: the round, the field's state this round and the director's constraints.

    * ``initial_colour``: the colour the player with pairing number 1 gets in round 1 (drawn by
      lot elsewhere; C.04.3 (2025) colour allocation, last rule).
    * ``absent``: start numbers not paired this round (withdrawn, not yet arrived, excused).
    * ``requested_byes``: ``(start_no, "H" | "Z" | "F")``; those players are not paired either.
    * ``forbidden_pairs``: pairs that must not meet, absolute like a rematch (C.04.2 / C1).
    * ``acceleration``: virtual points per start number for this round (C.04.5; see
      :mod:`draws.swiss.pairing.acceleration`).
    * ``acceleration_history``: ``(round, start_no, points)`` for earlier rounds; the float
      criteria compare the scores the players had when a past round was paired, accelerated
      scores included (needed only when earlier rounds were accelerated).
    * ``pairing_numbers``: start numbers in pairing-number order; empty means start order.
    """

    round: int
    total_rounds: int
    initial_colour: str
    absent: frozenset[int] = frozenset()
    requested_byes: tuple[tuple[int, str], ...] = ()
    forbidden_pairs: frozenset[frozenset[int]] = frozenset()
    acceleration: tuple[tuple[int, Fraction], ...] = ()
    acceleration_history: tuple[tuple[int, int, Fraction], ...] = ()
    pairing_numbers: tuple[int, ...] = ()


@dataclass(frozen=True)
class Board:
    """One game of the round; ``reasons`` explain the colours and any float."""

    number: int
    white: int
    black: int
    reasons: tuple[str, ...] = ()


@dataclass(frozen=True)
class BracketReport:
    """How one pairing bracket was paired (C.04.3 (2025) Art. 1.3.2)."""

    score: Fraction
    residents: tuple[int, ...]
    moved_down: tuple[int, ...]
    downfloaters: tuple[int, ...]
    relaxed: tuple[str, ...]


@dataclass(frozen=True)
class Pairing:
    """The round's pairing: boards in board order, the pairing-allocated bye, explanations."""

    round: int
    boards: tuple[Board, ...]
    bye: int | None
    notes: tuple[str, ...] = ()
    brackets: tuple[BracketReport, ...] = ()

    def pairs(self) -> frozenset[tuple[int, int]]:
        """The (white, black) pairs, without board numbers."""
        return frozenset((board.white, board.black) for board in self.boards)


@dataclass(frozen=True)
class Difference:
    """One way a given round differs from the engine's pairing, with the rule concerned."""

    kind: str  # "absolute", "quality", "colour", "order"
    rule: str
    message: str


class PairingImpossible(ValueError):
    """No pairing satisfies the absolute criteria; the message says who and why."""
