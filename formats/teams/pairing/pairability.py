"""Can these teams all be paired? Perfect matchings of the compatibility graph.

C.04.6 (2026) asks the same question in four places: the pairing-allocated bye must leave "a
legal pairing for all teams" (3.4.1); a bracket must have a legal pairing (3.5.5); "a pairing
complying with all the absolute criteria shall always exist for all teams not yet paired"
([C3], 2.2.1); and the following scoregroup must stay pairable with the fewest upfloaters
([C6], 2.3.3). Legal means [C1] (no second meeting; prohibited pairs count the same) once the
bye is given ([C2] concerns the bye alone), so each question is whether a set of teams has a
perfect matching in the graph of the pairs C1 allows. Every such matching can be reached by
the procedure of 3.3.2 (a bracket may take upfloaters from any lower scoregroup), so the test
is exact, not just necessary.

The answers come from Edmonds' cardinality matching (:mod:`draws.swiss.pairing.completion`). A
perfect matching of everyone still to be paired is kept, and a question about "everyone but
these" starts from it: only the partners of the removed teams need new partners.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from draws.swiss.pairing.completion import UNMATCHED, CompatibilityGraph


class Pairability:
    """Teams ``0 .. n-1`` (positions in the engine's list) and the pairs C1 allows."""

    def __init__(self, allowed: Sequence[frozenset[int]]) -> None:
        self.allowed = allowed
        self.size = len(allowed)
        rows = [sorted(row) for row in allowed]
        self.graph = CompatibilityGraph(self.size, lambda v: list(rows[v]), with_bye=False)

    def can_meet(self, v: int, w: int) -> bool:
        return w in self.allowed[v]

    def _active(self, vertices: Collection[int]) -> list[bool]:
        active = [False] * self.size
        for v in vertices:
            active[v] = True
        return active

    def perfect(self, vertices: Sequence[int]) -> list[int] | None:
        """A perfect matching of ``vertices`` (``mate[v]``), or None when there is none."""
        if len(vertices) % 2:
            return None
        mate = self.graph.maximum_matching(vertices, self._active(vertices))
        return mate if all(mate[v] != UNMATCHED for v in vertices) else None

    def perfect_without(
        self, base: Sequence[int], vertices: Collection[int], removed: Collection[int]
    ) -> list[int] | None:
        """A perfect matching of ``vertices`` minus ``removed``, starting from ``base`` (a
        perfect matching of ``vertices``); None when there is none."""
        if (len(vertices) - len(removed)) % 2:
            return None
        keep = self._active(vertices)
        for v in removed:
            keep[v] = False
        mate = list(base)
        exposed = []
        for v in vertices:
            if not keep[v]:
                mate[v] = UNMATCHED
            elif mate[v] == UNMATCHED or not keep[mate[v]]:
                mate[v] = UNMATCHED
                exposed.append(v)
        return mate if self.graph.complete(mate, keep, exposed) else None

    def maximum(self, vertices: Sequence[int]) -> list[int]:
        """A maximum matching of ``vertices`` (``mate[v]`` is -1 for a team left single)."""
        return self.graph.maximum_matching(vertices, self._active(vertices))

    def perfect_from(
        self, mate: list[int], vertices: Collection[int], exposed: Sequence[int]
    ) -> bool:
        """Extend ``mate`` (a matching of ``vertices``) to a perfect one by augmenting from the
        ``exposed`` teams; changes ``mate`` and says whether it worked."""
        return self.graph.complete(mate, self._active(vertices), exposed)
