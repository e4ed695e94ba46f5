"""Can the rest of the round still be paired? Cardinality matching on the compatibility graph.

Completion (C.04.3 (2025) C4, with C1–C3 and C2's bye) is the top field of every Dutch edge
weight (:mod:`draws.swiss.pairing.weights`): the whole round must stay pairable, at most one player
left over, and that one a bye candidate. That is a question about a *perfect* matching of the
compatibility graph with one extra vertex, the bye, joined to the bye candidates; it needs no
weights. This module answers it with Edmonds' blossom algorithm for maximum cardinality
matching (one alternating-tree search per exposed vertex, stopping at the first augmenting
path), on a graph that never changes during a round, so the neighbour lists are built once
and a maximum matching of the players below the current window can be kept and reused
(:mod:`draws.swiss.pairing.window`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

UNMATCHED = -1


class CompatibilityGraph:
    """Players ``0 .. players-1`` plus, when the field is odd, the bye vertex ``players``.

    ``opponents(v)`` lists the players ``v`` may meet: C1 (no rematch, no forbidden pair) and
    C3 (absolute colours); the bye candidates are joined to the bye vertex. Neighbour lists
    are built on first use.
    """

    def __init__(
        self,
        players: int,
        opponents: Callable[[int], list[int]],
        with_bye: bool,
    ) -> None:
        self.players = players
        self.size = players + (1 if with_bye else 0)
        self.bye = players if with_bye else UNMATCHED
        self._opponents = opponents
        self._neighbours: list[list[int] | None] = [None] * self.size
        self._bye_allowed = [False] * players
        if with_bye:
            self._neighbours[self.bye] = []

    def set_bye_candidates(self, candidates: Sequence[int]) -> None:
        """Who may be left over (C2 and the bye assignee's score, C.04.3 (2025) Art. 1.5);
        set once, when the bye assignee's score is known."""
        assert self.bye != UNMATCHED and not any(self._bye_allowed)
        self._neighbours[self.bye] = list(candidates)
        for v in candidates:
            self._bye_allowed[v] = True
            row = self._neighbours[v]
            if row is not None:
                row.append(self.bye)

    def _player_row(self, v: int) -> list[int]:
        row = self._opponents(v)
        if self._bye_allowed[v]:
            row.append(self.bye)
        return row

    def neighbours(self, v: int) -> list[int]:
        row = self._neighbours[v]
        if row is None:
            row = self._player_row(v)
            self._neighbours[v] = row
        return row

    # -- Edmonds' search ------------------------------------------------------------------------

    def augment(self, root: int, mate: list[int], active: list[bool]) -> bool:
        """Search an augmenting path from the exposed ``root`` among the ``active`` vertices;
        flip it and return True, or return False (then ``root`` stays exposed in every maximum
        matching of the active graph, whatever augmentations follow)."""
        search = _Search(self, root, mate, active)
        end = search.run()
        if end == UNMATCHED:
            return False
        parent = search.parent
        v = end
        while v != UNMATCHED:
            pv = parent[v]
            following = mate[pv]
            mate[v] = pv
            mate[pv] = v
            v = following
        return True

    def complete(self, mate: list[int], active: list[bool], exposed: Sequence[int]) -> bool:
        """Augment from each of ``exposed`` in turn; True when all of them get matched."""
        for v in exposed:
            if mate[v] == UNMATCHED and not self.augment(v, mate, active):
                return False
        return True

    def maximum_matching(self, vertices: Sequence[int], active: list[bool]) -> list[int]:
        """A maximum matching of the active graph: greedy first, then augmenting paths."""
        mate = [UNMATCHED] * self.size
        for v in vertices:
            if mate[v] != UNMATCHED:
                continue
            for w in self.neighbours(v):
                if active[w] and mate[w] == UNMATCHED:
                    mate[v], mate[w] = w, v
                    break
        for v in vertices:
            if mate[v] == UNMATCHED:
                self.augment(v, mate, active)
        return mate


class _Search:
    """One alternating-tree search (Edmonds), bases and parents as in the textbook version."""

    def __init__(
        self, graph: CompatibilityGraph, root: int, mate: list[int], active: list[bool]
    ) -> None:
        size = graph.size
        self.graph = graph
        self.root = root
        self.mate = mate
        self.active = active
        self.outer = [False] * size
        self.parent = [UNMATCHED] * size
        self.base = list(range(size))
        self.tree = [root]
        self.queue = [root]
        self.outer[root] = True

    def run(self) -> int:
        """The exposed vertex that ends an augmenting path, or UNMATCHED."""
        mate, parent, base, active = self.mate, self.parent, self.base, self.active
        queue, root = self.queue, self.root
        head = 0
        while head < len(queue):
            v = queue[head]
            head += 1
            for to in self.graph.neighbours(v):
                if not active[to] or base[v] == base[to] or mate[v] == to:
                    continue
                if to == root or (mate[to] != UNMATCHED and parent[mate[to]] != UNMATCHED):
                    self._shrink(v, to)
                elif parent[to] == UNMATCHED:
                    parent[to] = v
                    self.tree.append(to)
                    if mate[to] == UNMATCHED:
                        return to
                    self.tree.append(mate[to])
                    self.outer[mate[to]] = True
                    queue.append(mate[to])
        return UNMATCHED

    def _common_base(self, a: int, b: int) -> int:
        mate, parent, base = self.mate, self.parent, self.base
        seen = set()
        while True:
            a = base[a]
            seen.add(a)
            if mate[a] == UNMATCHED:
                break
            a = parent[mate[a]]
        while True:
            b = base[b]
            if b in seen:
                return b
            b = parent[mate[b]]

    def _mark_path(self, v: int, common: int, child: int, blossom: set[int]) -> None:
        mate, parent, base = self.mate, self.parent, self.base
        while base[v] != common:
            blossom.add(base[v])
            blossom.add(base[mate[v]])
            parent[v] = child
            child = mate[v]
            v = parent[mate[v]]

    def _shrink(self, v: int, to: int) -> None:
        common = self._common_base(v, to)
        blossom: set[int] = set()
        self._mark_path(v, common, to, blossom)
        self._mark_path(to, common, v, blossom)
        base, outer = self.base, self.outer
        for i in list(self.tree):
            if base[i] in blossom:
                base[i] = common
                if not outer[i]:
                    outer[i] = True
                    self.queue.append(i)
