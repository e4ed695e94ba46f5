"""The cardinality matching behind the completion check, against exhaustive search."""

from __future__ import annotations

import itertools
import random

import pytest

from draws.swiss.pairing.completion import UNMATCHED, CompatibilityGraph


def _largest(edges: list[tuple[int, int]]) -> int:
    def grow(i: int, used: frozenset[int]) -> int:
        best = 0
        for j in range(i, len(edges)):
            a, b = edges[j]
            if a not in used and b not in used:
                best = max(best, 1 + grow(j + 1, used | {a, b}))
        return best

    return grow(0, frozenset())


@pytest.mark.parametrize("seed", range(60))
def test_maximum_matching(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randint(2, 11)
    density = rng.random()
    edges = [e for e in itertools.combinations(range(n), 2) if rng.random() < density]
    linked = set(edges) | {(b, a) for a, b in edges}
    graph = CompatibilityGraph(n, lambda v: [w for w in range(n) if (v, w) in linked], False)
    order = list(range(n))
    rng.shuffle(order)
    mate = graph.maximum_matching(order, [True] * n)
    pairs = [(v, mate[v]) for v in range(n) if mate[v] > v]
    assert all(mate[w] == v and (v, w) in linked for v, w in pairs)
    assert len(pairs) == _largest(edges)


def test_bye_vertex_joins_only_the_candidates() -> None:
    # A path 0-1-2: one player is left over; only 2 may take the bye.
    rows = {0: [1], 1: [0, 2], 2: [1]}
    graph = CompatibilityGraph(3, rows.__getitem__, True)
    graph.set_bye_candidates([2])
    mate = graph.maximum_matching(range(4), [True] * 4)
    assert mate[2] == 3 and mate[0] == 1
    assert UNMATCHED not in mate
