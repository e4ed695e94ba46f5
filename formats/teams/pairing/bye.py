"""The pairing-allocated bye, the first step of the pairing (C.04.6 (2026) 3.3.2, 3.4).

"The pairing-allocated-bye is assigned to the team that: 3.4.1 leaves a legal pairing for all
teams; 3.4.2 has the lowest score; 3.4.3 has played the highest number of matches; 3.4.4 has
the largest TPN." Only teams that [C2] (2.1.2) allows are candidates: no earlier
pairing-allocated bye, no match won by forfeit, no full-point bye. The candidates are taken in
the order of 3.4.2–3.4.4 and the first that leaves a perfect matching of the others gets it.
"""

from __future__ import annotations

from draws.swiss.pairing.completion import UNMATCHED
from formats.teams.pairing.field import Field
from formats.teams.pairing.model import PairingImpossible


def _why_unpairable(field: Field, mate: list[int], vertices: list[int]) -> str:
    single = [field.number(v) for v in vertices if mate[v] == UNMATCHED]
    return ", ".join(str(number) for number in single)


def pair_everyone(field: Field, vertices: list[int]) -> list[int]:
    """A perfect matching of an even field, or :class:`PairingImpossible` (3.3.3)."""
    mate = field.oracle.maximum(vertices)
    if all(mate[v] != UNMATCHED for v in vertices):
        return mate
    raise PairingImpossible(
        "no legal pairing: teams "
        + _why_unpairable(field, mate, vertices)
        + " cannot all be given opponents they have not met (C.04.6 2.1.1 [C1], 3.3.3)"
    )


def bye_order(field: Field, vertices: list[int]) -> list[int]:
    """The candidates of [C2] in the order of 3.4.2–3.4.4."""
    candidates = [v for v in vertices if not field.teams[v].bye_barred]
    return sorted(
        candidates,
        key=lambda v: (field.score(v), -field.teams[v].played_matches, -field.number(v)),
    )


def allocate_bye(field: Field, vertices: list[int]) -> tuple[int, list[int]]:
    """3.4: the team that receives the bye, and a perfect matching of the others."""
    mate = field.oracle.maximum(vertices)
    for candidate in bye_order(field, vertices):
        trial = list(mate)
        partner = trial[candidate]
        if partner != UNMATCHED:
            trial[partner] = UNMATCHED
        trial[candidate] = UNMATCHED
        others = [v for v in vertices if v != candidate]
        exposed = [v for v in others if trial[v] == UNMATCHED]
        if field.oracle.perfect_from(trial, others, exposed):  # 3.4.1
            return candidate, trial
    barred = sorted(field.number(v) for v in vertices if field.teams[v].bye_barred)
    reason = (
        f"; teams {', '.join(map(str, barred))} may not receive it (2.1.2 [C2])" if barred else ""
    )
    raise PairingImpossible(
        "no legal pairing: no team can receive the pairing-allocated bye and leave a legal "
        f"pairing for all the others (C.04.6 3.4.1, 3.3.3){reason}"
    )
