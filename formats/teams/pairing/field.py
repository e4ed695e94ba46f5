"""The teams to be paired this round and what every step of the procedure asks of them.

Teams are numbered by position (their vertex in the compatibility graph) in TPN order, so a
smaller position is a smaller TPN (1.1). The scoregroups (1.3.1) are those of the teams to be
paired, the team that will receive the pairing-allocated bye included: the "following
scoregroup" of [C6] is the next lower of these scores.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from formats.teams.pairing.model import TYPE_B
from formats.teams.pairing.pairability import Pairability
from formats.teams.pairing.state import TeamState


@dataclass(frozen=True)
class Field:
    teams: tuple[TeamState, ...]  # in TPN order; the index is the team's position
    oracle: Pairability
    scores: tuple[Fraction, ...]  # the scoregroups, highest first
    preference_type: str
    last_two_rounds: bool  # [C7] and [C10] do not apply (2.3.4, 2.3.7)

    @property
    def type_b(self) -> bool:
        return self.preference_type == TYPE_B

    def score(self, v: int) -> Fraction:
        return self.teams[v].score

    def number(self, v: int) -> int:
        return self.teams[v].number

    def numbers(self, vertices: Sequence[int]) -> tuple[int, ...]:
        return tuple(self.teams[v].number for v in vertices)

    def following_score(self, score: Fraction) -> Fraction | None:
        """The scoregroup just below ``score`` ([C6]), or None below the lowest."""
        lower = [s for s in self.scores if s < score]
        return lower[0] if lower else None


def make_field(
    teams: Sequence[TeamState],
    prohibited: frozenset[frozenset[int]],
    preference_type: str,
    last_two_rounds: bool,
) -> Field:
    """The field of ``teams`` (sorted here by TPN) with the pairs C1 and the competition's
    prohibitions allow."""
    ordered = tuple(sorted(teams, key=lambda team: team.number))
    position = {team.number: v for v, team in enumerate(ordered)}
    allowed: list[set[int]] = [set(range(len(ordered))) - {v} for v in range(len(ordered))]
    for v, team in enumerate(ordered):
        for opponent in team.opponents:
            w = position.get(opponent)
            if w is not None:
                allowed[v].discard(w)
                allowed[w].discard(v)
    for pair in prohibited:
        a, b = (position.get(number) for number in pair)
        if a is not None and b is not None:
            allowed[a].discard(b)
            allowed[b].discard(a)
    return Field(
        teams=ordered,
        oracle=Pairability([frozenset(row) for row in allowed]),
        scores=tuple(sorted({team.score for team in ordered}, reverse=True)),
        preference_type=preference_type,
        last_two_rounds=last_two_rounds,
    )
