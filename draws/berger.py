"""Berger round-robin tables for any number of players (FIDE C.05 Annex 1).

Pure: no Django. Pairing numbers are 1..m where m is the field size rounded up to even; with an
odd field the highest number m is the free round (rules-notes, "Berger tables").

The construction: number m sits still, the others turn on a circle of m − 1 places. In round r
m meets p = (r + 1) / 2 (odd r, m has Black) or p = m/2 + r/2 (even r, m has White); the other
boards pair p + k (White) with p − k (Black), counted round the circle 1..m − 1, for
k = 1 … m/2 − 1. Board 1 is m's game. This reproduces the published table (10 players, round 2:
10-6 7-5 8-4 9-3 1-2).
"""

from __future__ import annotations

Pairing = tuple[int, int]  # (white pairing number, black pairing number)
Round = tuple[Pairing, ...]


def table_size(players: int) -> int:
    """The even table used for ``players`` (an odd field uses the next even table)."""
    if players < 2:
        raise ValueError("a round robin needs at least two players")
    return players + (players % 2)


def _on_circle(value: int, circle: int) -> int:
    return (value - 1) % circle + 1


def single_round_robin(players: int) -> tuple[Round, ...]:
    """Every round of a single round robin, White first, board 1 first.

    With an odd field the pairings against the highest number (the free round) are included;
    callers that schedule games drop them (see :func:`without_free_round`).
    """
    m = table_size(players)
    circle = m - 1
    rounds: list[Round] = []
    for r in range(1, m):
        if r % 2:
            p = (r + 1) // 2
            boards: list[Pairing] = [(p, m)]
        else:
            p = m // 2 + r // 2
            boards = [(m, p)]
        for k in range(1, m // 2):
            boards.append((_on_circle(p + k, circle), _on_circle(p - k, circle)))
        rounds.append(tuple(boards))
    return tuple(rounds)


def double_round_robin(players: int) -> tuple[Round, ...]:
    """Two cycles: the second reverses the colours of the first.

    The last two rounds of the first cycle are swapped so that nobody has the same colour three
    times running across the join (C.05 Annex 1; rules-notes).
    """
    first = list(single_round_robin(players))
    if len(first) >= 2:
        first[-1], first[-2] = first[-2], first[-1]
    second = [tuple((black, white) for white, black in rnd) for rnd in single_round_robin(players)]
    return tuple(first) + tuple(second)


def without_free_round(rounds: tuple[Round, ...], players: int) -> tuple[Round, ...]:
    """Drop the pairings against the free-round number of an odd field."""
    if players % 2 == 0:
        return rounds
    free = players + 1
    return tuple(tuple(p for p in rnd if free not in p) for rnd in rounds)


def free_round_player(rnd: Round, players: int) -> int | None:
    """Who has the free round in ``rnd`` (odd fields), else None."""
    if players % 2 == 0:
        return None
    free = players + 1
    for white, black in rnd:
        if free in (white, black):
            return black if white == free else white
    return None
