"""The matching computer behind the bracket procedure: the window, not the whole field.

bbpPairings answers every question of a bracket (:mod:`draws.swiss.pairing.dutch`) with one maximum
weight matching over all players still unpaired. Only the players of the *window* (the moved
down players, the current score group and the next one) have edges that carry anything below
the top field of the weight (:mod:`draws.swiss.pairing.weights`): an edge that touches a
player below the window carries the completion field alone (1 + one per player who is no
bye candidate).
Summed over a perfect matching (the bye being matched to an extra vertex) that field is the
same constant for every pairing whose bye is a bye candidate, and such pairings exist (the
round starts by checking it and every decision keeps it). So the best pairing of the whole
field is a best matching of the window on the lower fields, completed by any perfect matching
of the rest (the window players it leaves single, everyone below, the bye vertex), provided
such a completion exists. :class:`WindowMatching` solves the window alone (a maximum weight
matching that may leave players single, :mod:`draws.swiss.pairing.matching`), checks the completion
with a cardinality matching of the rest kept from check to check
(:mod:`draws.swiss.pairing.completion`), and falls back to the whole graph when the check fails.

That argument needs the lower fields of a window matching to stay below the top field, which
:class:`WindowMatching` checks too. It does not hold when the C9 bits (the bye assignee's
unplayed games) were set on every edge at the start of the round (the bye then falls in the
top score group); the engine uses :class:`GlobalMatching`, the whole graph kept between
solves as bbpPairings does, for such rounds.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction

from draws.swiss.pairing.completion import UNMATCHED, CompatibilityGraph
from draws.swiss.pairing.matching import MaxWeightMatching


class GlobalMatching:
    """One graph over every player still unpaired, plus a bye vertex when the field is odd."""

    def __init__(self, players: int, scores: Sequence[Fraction]) -> None:
        self.n = players
        self.scores = scores
        self.dummy = players if players % 2 else UNMATCHED
        self.solver = MaxWeightMatching(players + (1 if players % 2 else 0))
        self.order: Sequence[int] = ()

    def begin_bracket(self, order: Sequence[int], movers: int, below_start: int) -> None:
        """Nothing to do but remember the window: the graph holds every edge."""
        self.order = order

    def set_weight(self, v: int, w: int, weight: int) -> None:
        self.solver.set_weight(v, w, weight)

    def set_rows(self, rows: Sequence[Sequence[int]], first: int) -> None:
        """``set_weight(order[j], order[i], rows[j][i])`` for ``j >= first``."""
        order = self.order
        for j in range(first, len(rows)):
            for i, weight in enumerate(rows[j]):
                self.solver.set_weight(order[j], order[i], weight)

    def solve(self) -> list[int]:
        """Each player's partner; the bye assignee is its own partner."""
        mate = self.solver.solve()
        return [v if m in (UNMATCHED, self.dummy) else m for v, m in enumerate(mate[: self.n])]

    def finalize(self, v: int, w: int) -> None:
        self.solver.retire_pair(v, w)

    def paired_below(self, vertices: Sequence[int], stable: list[int], score: Fraction) -> bool:
        """Whether one of ``vertices`` is paired with a player scoring less than ``score``."""
        return any(self.scores[stable[v]] < score for v in vertices)


class WindowMatching:
    """The window's matching, checked for completion against a kept matching of the rest.

    ``solve`` returns, for each window player, the partner in the window, or ``below``
    (``players``, beyond every vertex) for a window player left to the completion (paired with
    someone below the window, or the bye): the bracket procedure reads both alike.
    """

    def __init__(
        self,
        graph: CompatibilityGraph,
        mate: list[int],
        scores: Sequence[Fraction],
        initial_weight: Callable[[int, int], int],
        top_shift: int,
    ) -> None:
        self.graph = graph
        self.n = graph.players
        self.below = graph.players
        self.scores = scores
        self.initial_weight = initial_weight
        self.low_mask = (1 << top_shift) - 1
        self.top_unit = 1 << top_shift
        self.below_mate = mate  # a maximum matching of the players below the window, and bye
        self.below_start = 0
        self.active = [True] * graph.size
        self.below_exposed: list[int] = []
        self.full: list[list[int]] = []  # the window's weights, full[j][i] for i < j
        self.order: list[int] = []
        self.position: dict[int, int] = {}
        self.solver = MaxWeightMatching(0, perfect=False)
        self.max_low = 0
        self.checked: dict[frozenset[int], bool] = {}
        self.fallbacks = 0

    # -- the window ----------------------------------------------------------------------------

    def begin_bracket(self, order: Sequence[int], movers: int, below_start: int) -> None:
        """A new window ``order`` (vertices); the players from ``below_start`` on are below it.

        The moved-down players' edges among themselves are not recomputed by the bracket
        (bbpPairings keeps them from earlier brackets), so they are carried over here."""
        self._shrink_below(below_start)
        before, full = self.position, self.full
        self.order = list(order)
        self.position = {v: i for i, v in enumerate(self.order)}
        self.solver = MaxWeightMatching(len(self.order), perfect=False)
        self.max_low = 0
        self.full = [[0] * j for j in range(len(self.order))]
        for j in range(movers):
            for i in range(j):
                old_i, old_j = sorted((before[self.order[i]], before[self.order[j]]))
                self._set_local(i, j, full[old_j][old_i])

    def _set_local(self, i: int, j: int, weight: int) -> None:
        if i > j:
            i, j = j, i
        self.full[j][i] = weight
        low = weight & self.low_mask
        self.max_low = max(self.max_low, low)
        self.solver.set_weight(i, j, low)

    def set_weight(self, v: int, w: int, weight: int) -> None:
        self._set_local(self.position[v], self.position[w], weight)

    def set_rows(self, rows: Sequence[Sequence[int]], first: int) -> None:
        """The weights from each window player ``order[j]`` (``j >= first``) to those before
        it, ``rows[j][i]`` for ``order[i]``: the bracket's base weights, in bulk."""
        mask = self.low_mask
        for j in range(first, len(rows)):
            row = list(rows[j])
            self.full[j] = row
            low = [weight & mask for weight in row]
            self.max_low = max(self.max_low, *low, 0)
            self.solver.set_row(j, low)

    def finalize(self, v: int, w: int) -> None:
        self.solver.retire_pair(self.position[v], self.position[w])

    def solve(self) -> list[int]:
        local = self.solver.solve()
        order, retired = self.order, self.solver.retired
        single = [order[i] for i, m in enumerate(local) if m == UNMATCHED and not retired[i]]
        lexicographic = (len(order) // 2) * self.max_low < self.top_unit
        if not (lexicographic and self._completable(single)):
            return self.global_solve()
        stable = [self.below] * self.n
        for i, m in enumerate(local):
            stable[order[i]] = order[m] if m != UNMATCHED else self.below
        return stable

    # -- the rest of the field -----------------------------------------------------------------

    def _shrink_below(self, below_start: int) -> None:
        mate, active = self.below_mate, self.active
        for v in range(self.below_start, below_start):
            active[v] = False
            m = mate[v]
            if m != UNMATCHED:
                mate[v] = mate[m] = UNMATCHED
        self.below_start = below_start
        rest = [*range(below_start, self.n), *([self.graph.bye] if self.graph.bye >= 0 else [])]
        for v in rest:
            if mate[v] == UNMATCHED:
                self.graph.augment(v, mate, active)
        self.below_exposed = [v for v in rest if mate[v] == UNMATCHED]
        self.checked = {}

    def _completable(self, single: list[int]) -> bool:
        """Whether the window players left single, everyone below and the bye vertex have a
        perfect matching (edges between two window players are not needed: the window matching
        is optimal, so it would have taken them)."""
        key = frozenset(single)
        known = self.checked.get(key)
        if known is None:
            mate = list(self.below_mate)
            active = self.active
            for v in single:
                active[v] = True
            known = self.graph.complete(mate, active, [*single, *self.below_exposed])
            for v in single:
                active[v] = False
            self.checked[key] = known
        return known

    def global_solve(self) -> list[int]:
        """The whole remaining graph, solved afresh (the fallback)."""
        self.fallbacks += 1
        vertices = [*self.order, *range(self.below_start, self.n)]
        vertices = [v for v in vertices if not self._retired(v)]
        odd = len(vertices) % 2
        solver = MaxWeightMatching(len(vertices) + odd)
        position = self.position
        for j, w in enumerate(vertices):
            for i in range(j):
                v = vertices[i]
                if v in position and w in position:
                    a, b = sorted((position[v], position[w]))
                    weight = self.full[b][a]
                else:
                    weight = self.initial_weight(v, w)
                solver.set_weight(i, j, weight)
            if odd:
                solver.set_weight(j, len(vertices), 1)
        mate = solver.solve()
        stable = [self.below] * self.n
        for i, v in enumerate(vertices):
            m = mate[i]
            stable[v] = v if m in (UNMATCHED, len(vertices)) else vertices[m]
        return stable

    def _retired(self, v: int) -> bool:
        i = self.position.get(v)
        return i is not None and self.solver.retired[i]

    def paired_below(self, vertices: Sequence[int], stable: list[int], score: Fraction) -> bool:
        """Whether, in the pairing ``stable`` stands for, one of ``vertices`` (the players
        going on to the next bracket) is paired with a player scoring less than ``score``.

        A window player left to the completion is paired below unless it takes the bye; when
        the completion could go either way, the whole graph decides."""
        left = []
        for v in vertices:
            m = stable[v]
            if m == self.below:
                left.append(v)
            elif self.scores[m] < score:
                return True
        if not left:
            return False
        if len(left) > 1:
            return True
        if self.below_start >= self.n:
            return False
        if self.graph.bye < 0 or left[0] not in self.graph.neighbours(self.graph.bye):
            return True
        stable = self.global_solve()
        return any(stable[v] != v and self.scores[stable[v]] < score for v in vertices)
