"""The pairing of a bracket (C.04.6 (2026) 3.6, criteria C1, C8, C9, C10).

3.6.1 in each pair the team with the smaller TPN is the top member, the other the bottom one;
3.6.2 a pairing is identified by the TPNs of its top members in ascending order, followed by
      the TPNs of their bottom members in the same order (the Handbook's example: 11-24 16-6
      10-9 8-4 is 4 6 9 11 8 16 10 24);
3.6.3 pairings are sorted by the lexicographic order of their identifiers;
3.6.4 choose the first pairing that complies with [C1], [C8], [C9] and [C10].

[C8]–[C10] are "minimise" criteria (2.3), so "complies" reads as "as well as any legal pairing
of the bracket can" (gacrux's reading, docs/teams.md): the pairing chosen is the lexicographic
minimum of ([C8], [C9], [C10], identifier) over the perfect matchings C1 allows. Per pair:

* [C8] (2.3.5) one team's preference goes unfulfilled exactly when both prefer the same colour:
  4.3.2 and 4.3.3 grant every other combination;
* [C9] (2.3.6, Type B) a strong preference goes unfulfilled exactly when both have a strong
  preference for the same colour (4.3.4 grants a strong one over a mild one);
* [C10] (2.3.7, not in the last two rounds) each upfloater of the pair whose opponent floated
  in the previous round.

When no pair of the bracket costs anything under [C8]–[C10] (round 1; round 2 with Type A
preferences or none), the first identifier is found directly: each team, smallest TPN
first, is made a top member whenever a perfect matching still allows it, then each top member
takes the smallest bottom member that still allows one (Edmonds' cardinality matching,
:mod:`draws.swiss.pairing.completion`). Otherwise the minimum is one maximum-weight perfect matching
(:mod:`draws.swiss.pairing.matching`, exact integers) with the criteria packed into each pair's
weight, highest first. The identifier
packs in two layers: a bottom member at bracket position p costs 2^(B−p), so the top set with
the lowest TPNs wins whatever the bottoms are (its binary sum is smallest); then the bottom
member's position is a digit in base B+1 at the place of its top member, so bottoms compare in
the order of their tops.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from draws.swiss.pairing.completion import UNMATCHED, CompatibilityGraph
from draws.swiss.pairing.matching import MaxWeightMatching
from formats.teams.pairing.field import Field
from formats.teams.pairing.state import TeamState


@dataclass(frozen=True)
class PairCriteria:
    """What one pair of a bracket costs: [C8], [C9], [C10]."""

    c8: int
    c9: int
    c10: int

    @property
    def zero(self) -> bool:
        return not (self.c8 or self.c9 or self.c10)


def pair_criteria(field: Field, a: TeamState, b: TeamState, score: Fraction) -> PairCriteria:
    """[C8]–[C10] of the pair ``a``–``b`` in the bracket of the ``score`` scoregroup."""
    same = bool(a.preference) and a.preference == b.preference
    c10 = 0
    if not field.last_two_rounds:
        c10 = (a.score < score and b.floated) + (b.score < score and a.floated)
    return PairCriteria(
        c8=int(same), c9=int(same and field.type_b and a.strong and b.strong), c10=c10
    )


def identifier(pairs: Iterable[tuple[int, int]]) -> tuple[int, ...]:
    """3.6.2: the top members (smaller TPNs) ascending, then their bottom members."""
    ordered = sorted((min(pair), max(pair)) for pair in pairs)
    return tuple(top for top, _ in ordered) + tuple(bottom for _, bottom in ordered)


class _Weights:
    """The packed cost of a pair at bracket positions ``i < j`` (0-based, TPN order)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.digit = [1] * (size + 1)  # (size + 1) ** k
        for k in range(1, size + 1):
            self.digit[k] = self.digit[k - 1] * (size + 1)
        self.top = self.digit[size]  # above every sum of the bottom layer
        self.c10 = self.top << size  # above every sum of both identifier layers
        self.c9 = self.c10 * (size + 1)
        self.c8 = self.c9 * (size + 1)
        self.ceiling = self.c8 * (size + 1)  # above every pair's cost: weights stay positive

    def cost(self, i: int, j: int, criteria: PairCriteria) -> int:
        size = self.size
        return (
            criteria.c8 * self.c8
            + criteria.c9 * self.c9
            + criteria.c10 * self.c10
            + (self.top << (size - 1 - j))
            + (j + 1) * self.digit[size - 1 - i]
        )


class _RoleGraph(CompatibilityGraph):
    """The bracket's compatibility graph with each team's role (3.6.1) decided or open: a
    pair may be used only with its smaller-TPN team as the top member."""

    def __init__(self, rows: list[list[int]]) -> None:
        super().__init__(len(rows), lambda v: list(rows[v]), with_bye=False)
        self.rows = rows
        self.role = [""] * len(rows)

    def usable(self, v: int, w: int) -> bool:
        top, bottom = (v, w) if v < w else (w, v)
        return self.role[top] != _BOTTOM and self.role[bottom] != _TOP

    def neighbours(self, v: int) -> list[int]:
        return [w for w in self.rows[v] if self.usable(v, w)]


_TOP, _BOTTOM = "top", "bottom"


def _retry(graph: _RoleGraph, mate: list[int], active: list[bool], loose: list[int]) -> bool:
    """Re-pair the ``loose`` teams (and whoever augmenting moves) within ``active``."""
    return graph.complete(mate, active, [v for v in loose if mate[v] == UNMATCHED])


def _choose_tops(graph: _RoleGraph, mate: list[int]) -> None:
    """The top members, smallest TPNs first: a team is a top member whenever a perfect
    matching still allows it (the first identifier has the smallest first half)."""
    active = [True] * len(mate)
    for p in range(len(mate)):
        if mate[p] > p:
            graph.role[p] = _TOP
            continue
        graph.role[p] = _TOP
        trial = list(mate)
        partner = trial[p]
        trial[p] = trial[partner] = UNMATCHED
        if _retry(graph, trial, active, [partner, p]):
            mate[:] = trial
        else:
            graph.role[p] = _BOTTOM


def _choose_bottoms(graph: _RoleGraph, mate: list[int]) -> list[tuple[int, int]]:
    """Each top member in turn takes the smallest bottom member that still allows a perfect
    matching of the others (the identifier's second half, in the order of the tops)."""
    size = len(mate)
    active = [True] * size
    pairs = []
    for top in (v for v in range(size) if graph.role[v] == _TOP):
        for bottom in sorted(w for w in graph.neighbours(top) if active[w]):
            if mate[top] == bottom:
                break
            trial = list(mate)
            loose = [trial[top], trial[bottom]]
            for v in (*loose, top, bottom):
                trial[v] = UNMATCHED
            trial[top], trial[bottom] = bottom, top
            active[top] = active[bottom] = False
            fits = _retry(graph, trial, active, loose)
            active[top] = active[bottom] = True
            if fits:
                mate[:] = trial
                break
        active[top] = active[mate[top]] = False
        pairs.append((top, mate[top]))
    return pairs


def first_identifier(field: Field, bracket: Sequence[int]) -> list[tuple[int, int]]:
    """3.6.3: the pairing with the first identifier among those C1 allows (for a bracket in
    which no pair costs anything under C8–C10), by cardinality matchings alone."""
    position = {v: i for i, v in enumerate(bracket)}
    rows = [
        [position[w] for w in bracket if w != v and field.oracle.can_meet(v, w)] for v in bracket
    ]
    graph = _RoleGraph(rows)
    mate = graph.maximum_matching(range(len(rows)), [True] * len(rows))
    _choose_tops(graph, mate)
    return [(bracket[i], bracket[j]) for i, j in _choose_bottoms(graph, mate)]


def _best_by_weights(
    field: Field, bracket: Sequence[int], teams: list[TeamState], score: Fraction
) -> list[tuple[int, int]]:
    size = len(bracket)
    weights = _Weights(size)
    solver = MaxWeightMatching(size)
    for j in range(size):
        for i in range(j):
            if field.oracle.can_meet(bracket[i], bracket[j]):
                criteria = pair_criteria(field, teams[i], teams[j], score)
                solver.set_weight(i, j, weights.ceiling - weights.cost(i, j, criteria))
    mate = solver.solve()
    return [(bracket[i], bracket[mate[i]]) for i in range(size) if i < mate[i]]


def _costs_nothing(field: Field, teams: list[TeamState], score: Fraction) -> bool:
    return all(
        pair_criteria(field, a, b, score).zero for i, a in enumerate(teams) for b in teams[i + 1 :]
    )


def pair_bracket(field: Field, bracket: Sequence[int], score: Fraction) -> list[tuple[int, int]]:
    """3.6: the pairs (positions, top member first) of the bracket of the ``score``
    scoregroup; ``bracket`` is in TPN order and has a perfect matching."""
    size = len(bracket)
    teams = [field.teams[v] for v in bracket]
    half = size // 2
    # With no pair costing anything, the first identifier of all is the first half against
    # the second in order: take it when C1 allows it.
    natural = [(i, i + half) for i in range(half)]
    if all(
        field.oracle.can_meet(bracket[i], bracket[j])
        and pair_criteria(field, teams[i], teams[j], score).zero
        for i, j in natural
    ):
        return [(bracket[i], bracket[j]) for i, j in natural]
    if _costs_nothing(field, teams, score):
        pairs = first_identifier(field, bracket)
    else:
        pairs = _best_by_weights(field, bracket, teams, score)
    if len(pairs) != half:  # the bracket was checked to have a perfect matching
        raise RuntimeError("the bracket's best pairing is not a perfect matching")
    return pairs
