"""Baku acceleration (C.04.5, FIDE-approved accelerated systems): virtual points for the top
half of the field in the first rounds.

The players are split by initial rank: group A is the first half (the larger half when the
field is odd), group B the rest. In the first half of the accelerated rounds every group-A
player gets as many virtual points as a win gives; in the second half, as many as a draw. The
accelerated rounds are the first half of the tournament (rounded down, counting rounds before
the last); the virtual points count for pairing only, never for standings. The split of the
rounds and of the field is bbpPairings' (``applyBakuAcceleration`` in its ``trf.cpp``), which
is how the C.04.5 text reads for odd numbers: see docs/pairing.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from events.records import Scoring


def baku_acceleration(
    pairing_numbers: Sequence[int],
    total_rounds: int,
    round_no: int,
    scoring: Scoring | None = None,
) -> tuple[tuple[int, Fraction], ...]:
    """Virtual points per start number for round ``round_no`` (1-based).

    ``pairing_numbers`` is the initial ranking (start numbers, pairing number 1 first). Returns
    ``()`` for rounds after the accelerated ones. Raises ValueError for a point system where a
    draw is not half a win or a loss scores (C.04.5 assumes 1 / ½ / 0 up to scale).
    """
    points = scoring or Scoring()
    if points.loss or points.draw * 2 != points.win:
        raise ValueError("Baku acceleration needs a loss to score 0 and a draw half a win")
    if not pairing_numbers or total_rounds < 1:
        return ()
    last_accelerated = (len(pairing_numbers) - 1) // 2
    last_round = (total_rounds - 1) // 2
    last_full_round = last_round // 2
    index = round_no - 1
    if index > last_round:
        return ()
    virtual = points.win if index <= last_full_round else points.draw
    return tuple((start_no, virtual) for start_no in pairing_numbers[: last_accelerated + 1])
