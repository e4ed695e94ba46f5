"""Mind Sports Olympiad extra rounds for several perfect scores (seed 003, "Perfect Scores").
Pure: no Django.

While two or more players have a perfect score after the last scheduled round, an extra round is
paired among them. The extra rounds count as tournament rounds, so they are real rounds of the
event (:mod:`formats.mso.extra_rounds` schedules them); this module draws their pairings.

Lots (design.md §3): ``mso-extra-round-{r}-bye`` and ``mso-extra-round-{r}-pairing`` with ``r``
the tournament round, over the players' start numbers in ascending order
(:class:`draws.lots.LotDrawer`).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from draws.lots import LotDrawer


class PerfectScoreError(ValueError):
    """Input a director can correct: a perfect scorer listed twice."""


@dataclass(frozen=True, slots=True)
class MsoExtraRound:
    """One extra round among the perfect scorers (seed 003, "Perfect Scores")."""

    round_no: int
    players: tuple[int, ...]
    pairings: tuple[tuple[int, int], ...]  # (White, Black)
    bye: int | None


def mso_extra_round(
    perfect_scorers: Sequence[int],
    seed: str,
    round_no: int,
    previous_byes: Collection[int] = (),
) -> MsoExtraRound | None:
    """Seed 003 "Perfect Scores": the pairings of the next extra round, or None when no extra
    round is needed (fewer than two players on a perfect score).

    Pairing and colours by lot (the first of each drawn pair has White). With an odd number one
    player, drawn by lot, has a bye scoring a win (a pairing-allocated bye, TRF ``U``), so the
    bye cannot cost a perfect score; a player who had a bye in an earlier extra round is not
    drawn again while another can take it.
    """
    if len(set(perfect_scorers)) != len(perfect_scorers):
        raise PerfectScoreError("a perfect scorer is listed twice")
    if len(perfect_scorers) < 2:
        return None
    pool = sorted(perfect_scorers)
    bye = None
    if len(pool) % 2:
        candidates = [player for player in pool if player not in previous_byes] or pool
        bye = LotDrawer(seed, f"mso-extra-round-{round_no}-bye").pick(candidates)
        pool.remove(bye)
    drawn = LotDrawer(seed, f"mso-extra-round-{round_no}-pairing").shuffle(pool)
    pairings = tuple((drawn[i], drawn[i + 1]) for i in range(0, len(drawn), 2))
    return MsoExtraRound(round_no, tuple(perfect_scorers), pairings, bye)
