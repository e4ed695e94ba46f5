"""Maximum-weight matching on a general graph, exact integer weights, with warm restarts.

Pure Python. The algorithm is Edmonds' primal-dual blossom method in the O(n^3) form of
Galil, Micali and Gabow ("An O(EV log V) algorithm for finding a maximal weighted matching in
general graphs", SIAM J. Comput. 15, 1986), following the structure of Joris van Rantwijk's
public-domain reference implementation (``mwmatching.py``, 2008), which networkx also ports.
It is the same family of algorithm that bbpPairings uses; the Dutch engine needs it because the
2025 rules define the best pairing as a lexicographic optimum, which bbpPairings encodes as one
big integer weight per pair (see :mod:`draws.swiss.pairing.dutch`).

Two things differ from the reference implementation:

* It always runs in "maximum cardinality" mode, i.e. it returns a maximum-weight matching among
  the matchings of maximum size. The Dutch weights make every maximum-weight matching a
  maximum-size one (each pair carries a dominating completion bit), and the engine adds a dummy
  vertex when the number of players is odd, so the problem solved is a maximum-weight *perfect*
  matching, whose dual variables have no sign constraint.
* The solver keeps its primal and dual state between calls. Changing the weights at a vertex
  dissolves the blossoms that contain it (their dual value moves onto their vertices, which
  keeps every edge feasible), unmatches the pairs whose edge stopped being tight, lowers the
  vertex's own dual to the least feasible value, and resumes the stages from the exposed
  vertices. Perfect-matching duals have no sign constraint, so any feasible dual vector is a
  valid starting point; each re-solve costs one stage per exposed pair instead of a whole run.
  This is the "update" idea of bbpPairings' matching computer, done on van Rantwijk's data
  structures.

Weights are non-negative Python ints of any size; 0 means "no edge". Internally every weight is
doubled so that all dual values stay integers.
"""

from __future__ import annotations

from collections.abc import Iterator

_FREE = 0
_OUTER = 1  # "S" label
_INNER = 2  # "T" label
_BREADCRUMB = 5
_STUCK, _GROWN, _AUGMENTED = 0, 1, 2


# A recursive procedure written as a generator: it yields the generator of each nested call.
_Steps = Iterator["_Steps"]


def _unwind(steps: _Steps) -> None:
    """Run a recursive procedure on an explicit stack (a trampoline, as networkx does for
    the same algorithm): a nested call yielded by the generator on top runs to its end before
    that generator resumes, so the order of every assignment is the recursive one."""
    stack = [steps]
    while stack:
        nested = next(stack[-1], None)
        if nested is None:
            stack.pop()
        else:
            stack.append(nested)


class MatchingError(RuntimeError):
    """The solver's state became inconsistent (a bug); callers fall back to a fresh solve."""


class MaxWeightMatching:
    """A graph on ``size`` vertices whose edge weights can be changed between solves.

    ``solve()`` returns ``mate`` with ``mate[v]`` the vertex matched to ``v`` or -1. Vertices
    retired with :meth:`retire_pair` keep their pair and drop out of the graph.
    """

    def __init__(self, size: int, perfect: bool = True) -> None:
        self.n = size
        self.perfect = perfect
        self._edge_index: dict[tuple[int, int], int] = {}
        self.endpoint: list[int] = []
        self.weight: list[int] = []
        self.neighbend: list[list[int]] = [[] for _ in range(size)]
        self.mate: list[int] = [-1] * size  # an endpoint index, as in the reference
        self.label: list[int] = [0] * (2 * size)
        self.labelend: list[int] = [-1] * (2 * size)
        self.inblossom: list[int] = list(range(size))
        self.blossomparent: list[int] = [-1] * (2 * size)
        self.blossomchilds: list[list[int] | None] = [None] * (2 * size)
        self.blossombase: list[int] = list(range(size)) + [-1] * size
        self.blossomendps: list[list[int] | None] = [None] * (2 * size)
        self.bestedge: list[int] = [-1] * (2 * size)
        self.blossombestedges: list[list[int] | None] = [None] * (2 * size)
        self.unusedblossoms: list[int] = list(range(size, 2 * size))
        self.dualvar: list[int] = [0] * (2 * size)
        self.allowedge: list[bool] = []
        self.allowed: list[int] = []  # the edges made allowed in this stage
        self.tight_at: list[int] = []  # the dual sum at which an edge is tight: 2 * weight[k]
        self.queue: list[int] = []
        self.head = 0  # the next vertex to scan, when the queue is first in, first out
        self.breadth_first = False
        self.retired: list[bool] = [False] * size
        self.leaves: list[list[int]] = [[v] for v in range(size)] + [[] for _ in range(size)]
        self.partner: dict[int, int] = {}
        self.retirements = 0  # players retired so far, and when each list was last compacted
        self.compacted = [0] * size
        self._started = False
        self._dirty: set[int] = set()
        self.stale: list[int] = []  # new outer blossoms whose best edges are not gathered yet

    # -- building the graph ------------------------------------------------------------------

    def set_weight(self, v: int, w: int, weight: int) -> None:
        """Set the weight of edge v–w (0 removes it); takes effect at the next solve."""
        if v == w:
            raise ValueError("no loops")
        key = (v, w) if v < w else (w, v)
        k = self._edge_index.get(key)
        if k is None:
            if not weight:
                return
            k = len(self.weight)
            self._edge_index[key] = k
            self.endpoint.extend(key)
            self.weight.append(0)
            self.allowedge.append(False)
            self.tight_at.append(0)
            self.neighbend[key[0]].append(2 * k + 1)
            self.neighbend[key[1]].append(2 * k)
        if self.weight[k] == 2 * weight:
            return
        self.weight[k] = 2 * weight
        self.tight_at[k] = 4 * weight
        if self._started:
            self._dirty.add(v)

    def set_row(self, w: int, weights: list[int]) -> None:
        """``set_weight(v, w, weights[v])`` for every ``v < w``, in bulk."""
        index, neighbend = self._edge_index, self.neighbend
        for v, weight in enumerate(weights):
            if (v, w) in index or self._started:
                self.set_weight(v, w, weight)
            elif weight:
                k = len(self.weight)
                index[(v, w)] = k
                self.endpoint += (v, w)
                self.weight.append(2 * weight)
                self.tight_at.append(4 * weight)
                self.allowedge.append(False)
                neighbend[v].append(2 * k + 1)
                neighbend[w].append(2 * k)

    def get_weight(self, v: int, w: int) -> int:
        k = self._edge_index.get((v, w) if v < w else (w, v))
        return 0 if k is None else self.weight[k] // 2

    def retire_pair(self, v: int, w: int) -> None:
        """Take a matched pair out of the graph for good (a finalised board)."""
        if self._started:
            self._dissolve_around(v)
            self._dissolve_around(w)
            self._unmatch(v)
            self._unmatch(w)
        for x in (v, w):
            self.retired[x] = True
            for p in self.neighbend[x]:
                self.weight[p // 2] = self.tight_at[p // 2] = 0
            self._dirty.discard(x)
        self.partner[v] = w
        self.partner[w] = v
        self.retirements += 2

    # -- solving -----------------------------------------------------------------------------

    def solve(self) -> list[int]:
        if not self._started:
            self._initial_duals()
            self._started = True
        else:
            self._apply_updates()
        self._run_stages()
        return [
            self.partner.get(v, -1) if self.mate[v] == -1 else self.endpoint[self.mate[v]]
            for v in range(self.n)
        ]

    def _initial_duals(self) -> None:
        if self.perfect:
            maxweight = max(self.weight, default=0)
            for v in range(self.n):
                self.dualvar[v] = maxweight
            return
        # Each vertex's heaviest edge is a feasible dual (a vertex may stay single, so duals
        # are non-negative). Then, vertex by vertex, an exposed vertex's dual drops to the least
        # feasible value, which makes an edge tight, and takes an exposed partner along it.
        weight, endpoint, dualvar = self.weight, self.endpoint, self.dualvar
        for v in range(self.n):
            dualvar[v] = max((weight[p >> 1] for p in self.neighbend[v]), default=0)
        for v in range(self.n):
            if self.mate[v] != -1:
                continue
            dualvar[v] = least = max(0, self._least_feasible_dual(v))
            for p in self.neighbend[v]:
                w = endpoint[p]
                wk = self.tight_at[p >> 1]
                if wk and self.mate[w] == -1 and least + dualvar[w] == wk:
                    self.mate[v], self.mate[w] = p, p ^ 1
                    break

    def _apply_updates(self) -> None:
        dirty = sorted(self._dirty)
        self._dirty.clear()
        for v in dirty:
            self._dissolve_around(v)
            self._unmatch(v)
        for v in dirty:
            self.dualvar[v] = self._least_feasible_dual(v)
        self._align_exposed_parity()

    def _align_exposed_parity(self) -> None:
        """Give every exposed vertex an even dual.

        The stages halve the slack of edges between two outer vertices; that slack is even
        (so the duals stay integers) when all tree roots have duals of one parity, the argument
        of the reference implementation. An exposed vertex may raise its dual freely; one
        inside a blossom first has the blossom dissolved around it.
        """
        for v in range(self.n):
            if self.mate[v] != -1 or self.retired[v] or not self.dualvar[v] & 1:
                continue
            self._dissolve_around(v)
            if self.dualvar[v] & 1:
                self.dualvar[v] += 1

    def _least_feasible_dual(self, v: int) -> int:
        best: int | None = None
        for p in self.neighbend[v]:
            k = p // 2
            if self.weight[k]:
                need = self.tight_at[k] - self.dualvar[self.endpoint[p]]
                if best is None or need > best:
                    best = need
        if best is None or (best < 0 and not self.perfect):
            return 0
        return best

    def _unmatch(self, v: int) -> None:
        p = self.mate[v]
        if p != -1:
            self.mate[self.endpoint[p]] = -1
            self.mate[v] = -1

    def _dissolve_around(self, v: int) -> None:
        """Dissolve every blossom containing v, keeping the duals feasible."""
        while self.inblossom[v] != v:
            top = self.inblossom[v]
            self._dissolve_top(top)

    def _dissolve_top(self, b: int) -> None:
        z = self.dualvar[b]
        base = self.blossombase[b]
        if z and self.mate[base] != -1:
            self._unmatch(base)
        childs = self.blossomchilds[b]
        assert childs is not None
        for v in self._leaves(b):
            self.dualvar[v] += z
        for s in childs:
            self.blossomparent[s] = -1
            if s < self.n:
                self.inblossom[s] = s
            else:
                for v in self._leaves(s):
                    self.inblossom[v] = s
        self._release_blossom(b)

    def _release_blossom(self, b: int) -> None:
        self.label[b] = self.labelend[b] = -1
        self.blossomchilds[b] = self.blossomendps[b] = None
        self.blossombase[b] = -1
        self.blossombestedges[b] = None
        self.bestedge[b] = -1
        self.dualvar[b] = 0
        self.leaves[b] = []
        self.unusedblossoms.append(b)

    # -- the primal-dual stages (after van Rantwijk) ------------------------------------------

    def _slack(self, k: int) -> int:
        return (
            self.dualvar[self.endpoint[2 * k]]
            + self.dualvar[self.endpoint[2 * k + 1]]
            - self.tight_at[k]
        )

    def _leaves(self, b: int) -> list[int]:
        return self.leaves[b]

    def _is_root(self, v: int) -> bool:
        """An exposed vertex still to be matched: every one for a perfect matching; without
        that goal only those whose dual is positive (a zero dual means "single is optimal")."""
        return self.mate[v] == -1 and not self.retired[v] and (self.perfect or self.dualvar[v] > 0)

    def _run_stages(self) -> None:
        while self._root_count() >= (2 if self.perfect else 1) and self._stage():
            pass

    def _root_count(self) -> int:
        mate, retired, dualvar = self.mate, self.retired, self.dualvar
        if self.perfect:
            return sum(1 for v in range(self.n) if mate[v] == -1 and not retired[v])
        return sum(1 for v in range(self.n) if mate[v] == -1 and not retired[v] and dualvar[v])

    def _start_stage(self) -> None:
        n = self.n
        self.label[:] = [0] * (2 * n)
        self.bestedge[:] = [-1] * (2 * n)
        self.blossombestedges[n:] = [None] * n
        for k in self.allowed:
            self.allowedge[k] = False
        self.allowed.clear()
        self.queue[:] = []
        self.head = 0
        self.stale.clear()
        # Depth first (the reference's order) when the stage grows many trees, as a fresh
        # solve does; breadth first when a warm restart left two or three roots, whose trees
        # then meet sooner through the many tight edges of the Dutch weights (both measured).
        self.breadth_first = self._root_count() <= 3
        for v in range(n):
            if self._is_root(v) and self.label[self.inblossom[v]] == 0:
                self._assign_label(v, _OUTER, -1)

    def _next_outer(self) -> int:
        if self.breadth_first:
            self.head += 1
            v = self.queue[self.head - 1]
        else:
            v = self.queue.pop()
        if self.retirements - self.compacted[v] >= 8:
            # Retired players' edges are dead for good: drop them from the list to scan.
            retired, endpoint = self.retired, self.endpoint
            self.neighbend[v] = [p for p in self.neighbend[v] if not retired[endpoint[p]]]
            self.compacted[v] = self.retirements
        return v

    def _allow(self, k: int) -> None:
        self.allowedge[k] = True
        self.allowed.append(k)

    def _stage(self) -> bool:
        """One stage: grow trees until an augmentation; False when none is possible."""
        self._start_stage()
        while True:
            if self._scan_queue():
                self._end_stage()
                return True
            step = self._dual_step()
            if step == _AUGMENTED:
                self._end_stage()
                return True
            if step == _STUCK:
                return False

    def _end_stage(self) -> None:
        for b in range(self.n, 2 * self.n):
            if (
                self.blossomparent[b] == -1
                and self.blossombase[b] >= 0
                and self.label[b] == _OUTER
                and self.dualvar[b] == 0
            ):
                self._expand_blossom(b, True)

    def _scan_queue(self) -> bool:
        """Scan the outer vertices' edges (the hot loop: locals on purpose)."""
        queue, inblossom, allowedge = self.queue, self.inblossom, self.allowedge
        tight, endpoint, dualvar, label = self.tight_at, self.endpoint, self.dualvar, self.label
        bestedge, neighbend, allowed = self.bestedge, self.neighbend, self.allowed
        while len(queue) > self.head:
            v = self._next_outer()
            dual_v = dualvar[v]
            bv = inblossom[v]
            for p in neighbend[v]:
                k = p >> 1
                wk = tight[k]
                if not wk:
                    continue
                w = endpoint[p]
                bw = inblossom[w]
                if bv == bw:
                    continue
                if not allowedge[k]:
                    kslack = dual_v + dualvar[w] - wk
                    if kslack > 0:
                        # Remember the least-slack edge to another tree or to a free vertex.
                        slot = bv if label[bw] == _OUTER else w if label[w] == _FREE else -1
                        if slot >= 0:
                            best = bestedge[slot]
                            if best == -1 or kslack < (
                                dualvar[endpoint[2 * best]]
                                + dualvar[endpoint[2 * best + 1]]
                                - tight[best]
                            ):
                                bestedge[slot] = k
                        continue
                    allowedge[k] = True
                    allowed.append(k)
                if self._use_tight_edge(v, w, p, k):
                    return True
                bv = inblossom[v]  # a new blossom may have taken v in
        return False

    def _use_tight_edge(self, v: int, w: int, p: int, k: int) -> bool:
        label = self.label
        bw = self.inblossom[w]
        if label[bw] == _FREE:
            if self.mate[self.blossombase[bw]] == -1:
                # Only without the perfect goal: an exposed vertex whose dual is already zero.
                self._augment_side(v, p)
                if bw >= self.n:
                    self._augment_blossom(bw, w)
                self.mate[w] = p ^ 1
                return True
            self._assign_label(w, _INNER, p ^ 1)
        elif label[bw] == _OUTER:
            base = self._scan_blossom(v, w)
            if base < 0:
                self._augment_matching(k)
                return True
            self._add_blossom(base, k)
        elif label[w] == _FREE:
            label[w] = _INNER
            self.labelend[w] = p ^ 1
        return False

    def _dual_step(self) -> int:
        """Change the duals by the largest safe amount: _GROWN, _AUGMENTED (a vertex left
        single) or _STUCK (no tree can grow)."""
        kind, delta, edge, blossom = self._find_delta()
        if kind < 0:
            return _STUCK
        self._update_duals(delta)
        if kind == 1:
            # A vertex's dual reached zero: leaving it single is optimal, so the path from
            # its tree's root is flipped and the vertex stays exposed ("matched to its twin").
            self._augment_side(edge, -1)
            return _AUGMENTED
        if kind in (2, 3):
            self._allow(edge)
            i, j = self.endpoint[2 * edge], self.endpoint[2 * edge + 1]
            if self.label[self.inblossom[i]] == _FREE:
                i, j = j, i
            self.queue.append(i)
        else:
            self._expand_blossom(blossom, False)
        return _GROWN

    def _find_delta(self) -> tuple[int, int, int, int]:
        """The largest safe dual change and what limits it, as (kind, delta, edge or vertex,
        blossom): 1 an outer vertex's dual reaches zero (only without the perfect goal),
        2 an edge to a free vertex, 3 an edge between outer blossoms gets tight, 4 an inner
        blossom's dual reaches zero."""
        best = (-1, 0, -1, -1)
        if not self.perfect:
            best = self._least_outer_dual(best)
        best = self._least_edge_slack(best)
        for b in range(self.n, 2 * self.n):
            if self._is_inner_top_blossom(b) and (best[0] == -1 or self.dualvar[b] < best[1]):
                best = (4, self.dualvar[b], -1, b)
        return best

    def _least_outer_dual(self, best: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
        label, inblossom, dualvar = self.label, self.inblossom, self.dualvar
        for v in range(self.n):
            if label[inblossom[v]] == _OUTER and (best[0] == -1 or dualvar[v] < best[1]):
                best = (1, dualvar[v], v, -1)
        return best

    def _least_edge_slack(self, best: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
        self._fresh_best_edges()
        label, inblossom, bestedge, slack = self.label, self.inblossom, self.bestedge, self._slack
        kind, delta = best[0], best[1]
        for v in range(self.n):
            k = bestedge[v]
            if k != -1 and label[inblossom[v]] == _FREE:
                d = slack(k)
                if kind == -1 or d < delta:
                    best = (2, d, k, -1)
                    kind, delta = 2, d
        parent = self.blossomparent
        for b in range(2 * self.n):
            k = bestedge[b]
            if k != -1 and parent[b] == -1 and label[b] == _OUTER:
                d = slack(k) // 2
                if kind == -1 or d < delta:
                    best = (3, d, k, -1)
                    kind, delta = 3, d
        return best

    def _is_inner_top_blossom(self, b: int) -> bool:
        return self.blossombase[b] >= 0 and self.blossomparent[b] == -1 and self.label[b] == _INNER

    def _update_duals(self, delta: int) -> None:
        n = self.n
        label, inblossom, dualvar = self.label, self.inblossom, self.dualvar
        for v in range(n):
            lab = label[inblossom[v]]
            if lab == _OUTER:
                dualvar[v] -= delta
            elif lab == _INNER:
                dualvar[v] += delta
        for b in range(n, 2 * n):
            if self.blossombase[b] >= 0 and self.blossomparent[b] == -1:
                if label[b] == _OUTER:
                    dualvar[b] += delta
                elif label[b] == _INNER:
                    dualvar[b] -= delta

    def _assign_label(self, w: int, t: int, p: int) -> None:
        while True:
            b = self.inblossom[w]
            self.label[w] = self.label[b] = t
            self.labelend[w] = self.labelend[b] = p
            self.bestedge[w] = self.bestedge[b] = -1
            if t == _OUTER:
                self.queue.extend(self._leaves(b))
                return
            base = self.blossombase[b]
            w, t, p = self.endpoint[self.mate[base]], _OUTER, self.mate[base] ^ 1

    def _scan_blossom(self, v: int, w: int) -> int:
        path: list[int] = []
        base = -1
        while v != -1 or w != -1:
            b = self.inblossom[v]
            if self.label[b] & 4:
                base = self.blossombase[b]
                break
            path.append(b)
            self.label[b] = _BREADCRUMB
            if self.labelend[b] == -1:
                v = -1
            else:
                v = self.endpoint[self.labelend[b]]
                b = self.inblossom[v]
                v = self.endpoint[self.labelend[b]]
            if w != -1:
                v, w = w, v
        for b in path:
            self.label[b] = _OUTER
        return base

    def _add_blossom(self, base: int, k: int) -> None:
        v, w = self.endpoint[2 * k], self.endpoint[2 * k + 1]
        bb, bv, bw = self.inblossom[base], self.inblossom[v], self.inblossom[w]
        b = self.unusedblossoms.pop()
        self.blossombase[b] = base
        self.blossomparent[b] = -1
        self.blossomparent[bb] = b
        path: list[int] = []
        endps: list[int] = []
        while bv != bb:
            self.blossomparent[bv] = b
            path.append(bv)
            endps.append(self.labelend[bv])
            bv = self.inblossom[self.endpoint[self.labelend[bv]]]
        path.append(bb)
        path.reverse()
        endps.reverse()
        endps.append(2 * k)
        while bw != bb:
            self.blossomparent[bw] = b
            path.append(bw)
            endps.append(self.labelend[bw] ^ 1)
            bw = self.inblossom[self.endpoint[self.labelend[bw]]]
        self.blossomchilds[b] = path
        self.blossomendps[b] = endps
        self.leaves[b] = [leaf for child in path for leaf in self.leaves[child]]
        self.label[b] = _OUTER
        self.labelend[b] = self.labelend[bb]
        self.dualvar[b] = 0
        for leaf in self._leaves(b):
            if self.label[self.inblossom[leaf]] == _INNER:
                self.queue.append(leaf)
            self.inblossom[leaf] = b
        # The least-slack edges to other trees are only needed for a dual step, and most
        # stages end with an augmentation first: they are gathered then (_fresh_best_edges).
        self.bestedge[b] = -1
        self.blossombestedges[b] = None
        self.stale.append(b)

    def _fresh_best_edges(self) -> None:
        """Gather the least-slack edges of the outer blossoms made since the last dual step,
        children first, so that each merges its children's lists as the reference does."""
        pending = set(self.stale)
        for top in self.stale:
            if top not in pending or self.blossomparent[top] != -1 or self.label[top] != _OUTER:
                continue
            pending.discard(top)
            nested, stack = [], [top]
            while stack:
                b = stack.pop()
                nested.append(b)
                for child in self._childs(b):
                    if child in pending:
                        pending.discard(child)
                        stack.append(child)
            for b in reversed(nested):
                self._blossom_best_edges(b, self._childs(b), top)
        self.stale.clear()

    def _childs(self, b: int) -> list[int]:
        childs = self.blossomchilds[b]
        assert childs is not None
        return childs

    def _blossom_best_edges(self, b: int, path: list[int], top: int = -1) -> None:
        """The least-slack edge from ``b`` to each other outer blossom; ``top`` is the
        top-level blossom that contains ``b`` (``b`` itself by default): edges inside it are
        left out."""
        bestedgeto: dict[int, int] = {}
        for bv in path:
            stored = self.blossombestedges[bv]
            if stored is None:
                candidates = [p >> 1 for leaf in self.leaves[bv] for p in self.neighbend[leaf]]
            else:
                candidates = stored
            self._offer_best_edges(b if top < 0 else top, candidates, bestedgeto)
            self.blossombestedges[bv] = None
            self.bestedge[bv] = -1
        best = list(bestedgeto.values())
        self.blossombestedges[b] = best
        self.bestedge[b] = -1
        for k in best:
            if self.bestedge[b] == -1 or self._slack(k) < self._slack(self.bestedge[b]):
                self.bestedge[b] = k

    def _offer_best_edges(self, b: int, edges: list[int], bestedgeto: dict[int, int]) -> None:
        """For each outer blossom next to ``b``, the least-slack edge of ``edges`` to it."""
        tight, endpoint, inblossom, label, dualvar = (
            self.tight_at,
            self.endpoint,
            self.inblossom,
            self.label,
            self.dualvar,
        )
        slack_to: dict[int, int] = {}
        for k in edges:
            wk = tight[k]
            if not wk:
                continue
            i, j = endpoint[2 * k], endpoint[2 * k + 1]
            bj = inblossom[j]
            if bj == b:
                i, j = j, i
                bj = inblossom[j]
            if bj != b and label[bj] == _OUTER:
                slack = dualvar[i] + dualvar[j] - wk
                known = bestedgeto.get(bj)
                if known is None:
                    bestedgeto[bj] = k
                    slack_to[bj] = slack
                else:
                    known_slack = slack_to.get(bj)
                    if known_slack is None:
                        known_slack = slack_to[bj] = self._slack(known)
                    if slack < known_slack:
                        bestedgeto[bj] = k
                        slack_to[bj] = slack

    def _expand_blossom(self, b: int, endstage: bool) -> None:
        _unwind(self._expand_steps(b, endstage))

    def _expand_steps(self, b: int, endstage: bool) -> _Steps:
        """``_expand_blossom`` as steps: each nested blossom it yields is expanded (through
        :func:`_unwind`) before it resumes, as a recursive call would be."""
        childs = self.blossomchilds[b]
        assert childs is not None
        for s in childs:
            self.blossomparent[s] = -1
            if s < self.n:
                self.inblossom[s] = s
            elif endstage and self.dualvar[s] == 0:
                yield self._expand_steps(s, endstage)
            else:
                for v in self._leaves(s):
                    self.inblossom[v] = s
        if not endstage and self.label[b] == _INNER:
            self._relabel_expanded(b, childs)
        self._release_blossom(b)

    def _relabel_expanded(self, b: int, childs: list[int]) -> None:
        endps = self.blossomendps[b]
        assert endps is not None
        entrychild = self.inblossom[self.endpoint[self.labelend[b] ^ 1]]
        j = childs.index(entrychild)
        if j & 1:
            j -= len(childs)
            jstep, endptrick = 1, 0
        else:
            jstep, endptrick = -1, 1
        p = self.labelend[b]
        while j != 0:
            self.label[self.endpoint[p ^ 1]] = 0
            self.label[self.endpoint[endps[j - endptrick] ^ endptrick ^ 1]] = 0
            self._assign_label(self.endpoint[p ^ 1], _INNER, p)
            self._allow(endps[j - endptrick] // 2)
            j += jstep
            p = endps[j - endptrick] ^ endptrick
            self._allow(p // 2)
            j += jstep
        bv = childs[j]
        self.label[self.endpoint[p ^ 1]] = self.label[bv] = _INNER
        self.labelend[self.endpoint[p ^ 1]] = self.labelend[bv] = p
        self.bestedge[bv] = -1
        j += jstep
        while childs[j] != entrychild:
            self._relabel_child(childs[j])
            j += jstep

    def _relabel_child(self, bv: int) -> None:
        if self.label[bv] == _OUTER:
            return
        for v in self._leaves(bv):
            if self.label[v] != 0:
                self.label[v] = 0
                self.label[self.endpoint[self.mate[self.blossombase[bv]]]] = 0
                self._assign_label(v, _INNER, self.labelend[v])
                return

    def _augment_blossom(self, b: int, v: int) -> None:
        _unwind(self._augment_steps(b, v))

    def _augment_steps(self, b: int, v: int) -> _Steps:
        """``_augment_blossom`` as steps (see :func:`_unwind`): blossoms nest as deep as half
        the vertices (1,500 levels in a 3,000-player score group), past Python's recursion
        limit."""
        t = v
        while self.blossomparent[t] != b:
            t = self.blossomparent[t]
        if t >= self.n:
            yield self._augment_steps(t, v)
        childs = self.blossomchilds[b]
        endps = self.blossomendps[b]
        assert childs is not None and endps is not None
        i = j = childs.index(t)
        if i & 1:
            j -= len(childs)
            jstep, endptrick = 1, 0
        else:
            jstep, endptrick = -1, 1
        while j != 0:
            j += jstep
            t = childs[j]
            p = endps[j - endptrick] ^ endptrick
            if t >= self.n:
                yield self._augment_steps(t, self.endpoint[p])
            j += jstep
            t = childs[j]
            if t >= self.n:
                yield self._augment_steps(t, self.endpoint[p ^ 1])
            self.mate[self.endpoint[p]] = p ^ 1
            self.mate[self.endpoint[p ^ 1]] = p
        self.blossomchilds[b] = childs[i:] + childs[:i]
        self.blossomendps[b] = endps[i:] + endps[:i]
        self.blossombase[b] = self.blossombase[childs[i]]

    def _augment_matching(self, k: int) -> None:
        for s, p in ((self.endpoint[2 * k], 2 * k + 1), (self.endpoint[2 * k + 1], 2 * k)):
            self._augment_side(s, p)

    def _augment_side(self, s: int, p: int) -> None:
        while True:
            bs = self.inblossom[s]
            if bs >= self.n:
                self._augment_blossom(bs, s)
            self.mate[s] = p
            if self.labelend[bs] == -1:
                return
            t = self.endpoint[self.labelend[bs]]
            bt = self.inblossom[t]
            s = self.endpoint[self.labelend[bt]]
            j = self.endpoint[self.labelend[bt] ^ 1]
            if bt >= self.n:
                self._augment_blossom(bt, j)
            self.mate[j] = self.labelend[bt]
            p = self.labelend[bt] ^ 1


def max_weight_matching(size: int, edges: list[tuple[int, int, int]]) -> list[int]:
    """One-shot helper: a maximum-weight maximum-cardinality matching of a weighted graph."""
    solver = MaxWeightMatching(size)
    for v, w, weight in edges:
        solver.set_weight(v, w, weight)
    return solver.solve()
