"""Continuing a Swiss paired by another program (issue 20): what its TRF file leaves implicit.

Pure. Two questions a file written after round N answers only through its rounds:

* **The initial colour** (C.04.3 (2025), colour allocation, last rule: the colour drawn for
  pairing number 1 in round 1), when the file does not state it (``XXC white1|black1``,
  TRF-2026 ``152``). :func:`inferred_initial_colour` reads it back from the first round in
  which anyone had a colour, as bbpPairings does (its README, "initial piece color"): the
  colour of the highest player who took part in a pairing by then, reversed once for every
  such player above them who had no colour in that round.
* **The acceleration** (C.04.5). A file carries it as virtual points per player and round
  (``XXA``); the product stores an event's acceleration as a method, not as a table of points,
  so :func:`acceleration_difference` says whether the file's points are the Baku acceleration
  of this field (they are, or the first point where they differ).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from draws.swiss.pairing.acceleration import baku_acceleration
from events.records import FORFEIT_WIN, PAIRING_BYE, Crosstable, RoundResult, Scoring


def _took_part(result: RoundResult) -> bool:
    """Whether the player was in the round's pairing (a game, a forfeit, the pairing bye)."""
    return result.opponent is not None or result.code in (PAIRING_BYE, FORFEIT_WIN)


def inferred_initial_colour(crosstable: Crosstable, order: Sequence[int]) -> str:
    """The colour pairing number 1 had (or would have had) in round 1: "w", "b", or "" when no
    round gave anyone a colour. ``order`` is the start numbers in pairing-number order."""
    coloured = [r.round for e in crosstable.entrants for r in e.results if r.colour in ("w", "b")]
    if not coloured:
        return ""
    first = min(coloured)
    by_start = {entrant.start_no: entrant for entrant in crosstable.entrants}
    above = 0  # players above who took part by then without a colour in that round
    for start_no in order:
        entrant = by_start.get(start_no)
        if entrant is None or not any(_took_part(r) for r in entrant.results[:first]):
            continue
        colour = entrant.results[first - 1].colour
        if colour in ("w", "b"):
            return colour if above % 2 == 0 else {"w": "b", "b": "w"}[colour]
        above += 1
    return ""


def acceleration_difference(
    given: Mapping[int, Sequence[Fraction]],
    order: Sequence[int],
    total_rounds: int,
    through_round: int,
    scoring: Scoring,
) -> str | None:
    """None when the points ``given`` per start number (round 1 first; missing rounds: none)
    are the Baku acceleration (C.04.5) of the field ``order`` in rounds 1 to
    ``through_round``; else where they first differ, in words."""
    for round_no in range(1, through_round + 1):
        baku = dict(baku_acceleration(order, total_rounds, round_no, scoring))
        for start_no in order:
            values = given.get(start_no, ())
            value = values[round_no - 1] if round_no <= len(values) else Fraction(0)
            expected = baku.get(start_no, Fraction(0))
            if value != expected:
                return (
                    f"round {round_no}, player {start_no}: {value} virtual points where the "
                    f"Baku acceleration gives {expected}"
                )
    return None
