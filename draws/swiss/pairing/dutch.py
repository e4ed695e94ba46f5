"""The FIDE (Dutch) system, 2025 rules (C.04.3, effective 1 July 2025): who plays whom.

The rules (Art. 3, the pairing process) pair the brackets from the top score down. In each
bracket they first decide how many players can be paired and which ones float down (criteria
C4–C9, with a look at the next bracket), then which pairing of the bracket is best (colour
criteria C10–C13, float criteria C14–C21), and between equally good pairings they take the
first one in the order of Art. 3 (MDPs by rank, exchanges as few and as close as possible,
S1 players matched with the first fitting S2 player).

As in bbpPairings, each of these questions is answered by a maximum-weight matching over all
players still to be paired: the weights (:mod:`draws.swiss.pairing.weights`) put completion of the
whole round first, then the current bracket's criteria, then the next bracket's; the ordering
rules of Art. 3 are settled one decision at a time by nudging the low bits of the weights and
solving again. Each step below names bbpPairings' step it mirrors; the differential tests
(tests/draws/swiss/test_differential.py) hold the two engines to the same answers. The
matchings themselves are computed on the bracket's window, with the rest of the field only
checked for completion (:mod:`draws.swiss.pairing.window`); that gives the same optimum.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from draws.swiss.pairing.completion import UNMATCHED, CompatibilityGraph
from draws.swiss.pairing.model import PairingImpossible
from draws.swiss.pairing.players import PlayerState
from draws.swiss.pairing.weights import (
    ByeContext,
    WeightContext,
    WeightTable,
    compatible,
)
from draws.swiss.pairing.window import GlobalMatching, WindowMatching


@dataclass
class BracketTrace:
    """What happened in one bracket, for the explanations (:mod:`draws.swiss.pairing.explain`)."""

    score: Fraction
    residents: list[int]
    moved_down: list[int]
    pairs: list[tuple[int, int]] = field(default_factory=list)
    downfloaters: list[int] = field(default_factory=list)


@dataclass
class DutchResult:
    pairs: list[tuple[int, int]]  # start numbers, unordered within the pair
    bye: int | None
    brackets: list[BracketTrace]
    bye_score: Fraction | None


def sort_players(players: Sequence[PlayerState]) -> list[PlayerState]:
    """C.04.3 (2025) Art. 1.2: by score (accelerated, C.04.5), then pairing number."""
    return sorted(players, key=lambda p: (-p.pairing_score, p.rank))


class _Engine:
    """One round's pairing; attribute names follow bbpPairings' ``computeMatching``."""

    def __init__(
        self, players: list[PlayerState], ctx: WeightContext, whole_graph: bool = False
    ) -> None:
        self.whole_graph = whole_graph
        self.players = players
        self.ctx = ctx
        self.n = len(players)
        self.dummy = self.n if self.n % 2 else -1
        self.scores = [p.pairing_score for p in players]
        self.computer: GlobalMatching | WindowMatching = GlobalMatching(self.n, self.scores)
        self.table = WeightTable(players, ctx)
        self.bye = ByeContext(Fraction(0), False, {})
        self.table.set_bye(self.bye)
        self.top_score = players[0].pairing_score if players else Fraction(0)
        self.matched = [False] * self.n
        self.partner: dict[int, int] = {}
        self.brackets: list[BracketTrace] = []

    # -- the matching computer --------------------------------------------------------------

    def set_weight(self, v: int, w: int, weight: int) -> None:
        self.computer.set_weight(v, w, weight)

    def solve(self) -> list[int]:
        return self.computer.solve()

    def weight(self, v: int, w: int, in_current: bool, in_next: bool) -> int:
        """bbpPairings' computeEdgeWeight(players[v], players[w]) with v ranked above w."""
        return self.table.weight(v, w, in_current, in_next, self.bye.single_downfloater_is_bye)

    def finalize(self, v: int, w: int) -> None:
        self.partner[v], self.partner[w] = w, v
        self.computer.finalize(v, w)

    # -- start: completability, the bye assignee's score, C9 ---------------------------------

    def start(self) -> None:
        """bbpPairings' first solve, answered by cardinality matching where that is enough:
        is the round pairable, what is the lowest score the bye can go to, and does C9 apply
        in the first bracket (only when everyone has the same score, here). When the bye falls
        in the top score group of several, or no pairing exists (the message needs the
        weighted solve), the whole graph is used as bbpPairings does."""
        if self.whole_graph:
            self._start_global()
            return
        graph = CompatibilityGraph(self.n, self.table.opponents, with_bye=self.dummy >= 0)
        mate = graph.maximum_matching(range(self.n), [True] * self.n + [False] * (self.dummy >= 0))
        exposed = [v for v in range(self.n) if mate[v] == UNMATCHED]
        if self.dummy >= 0:
            bye_vertex = self._lowest_bye(graph, mate, exposed)
            # The bye in the top score group puts C9's bits on every edge, those below the
            # window too, unless there is nobody below: one score group (round 1).
            one_group = self.scores[-1] == self.top_score
            if bye_vertex is None or (self.scores[bye_vertex] >= self.top_score and not one_group):
                self._start_global()
                return
            self.bye = self._bye_ranks(self.scores[bye_vertex], single=one_group)
            self.table.set_bye(self.bye)
            graph.set_bye_candidates([v for v in range(self.n) if not self.table.not_candidate[v]])
            mate[bye_vertex], mate[self.dummy] = self.dummy, bye_vertex
        elif exposed:
            self._start_global()
            return
        self.computer = WindowMatching(
            graph, mate, self.scores, self._initial_weight, self.table.top_shift
        )

    def _initial_weight(self, v: int, w: int) -> int:
        """The weight a pair got at the start and keeps while one of them is below the window
        (without C9's bits: the window is only used when they were off at the start)."""
        high, low = (v, w) if v < w else (w, v)
        return self.table.weight(high, low, False, False, False)

    def _lowest_bye(
        self, graph: CompatibilityGraph, mate: list[int], exposed: list[int]
    ) -> int | None:
        """The lowest-ranked bye-eligible player who can be left over in a complete pairing
        (the lowest score wins, as the first solve's weights make it); ``mate`` is changed to
        such a pairing."""
        if len(exposed) != 1:
            return None
        active = [True] * self.n + [False]
        for v in range(self.n - 1, -1, -1):
            if not self.players[v].bye_eligible:
                continue
            if v == exposed[0]:
                return v
            trial = list(mate)
            partner = trial[v]
            trial[v] = trial[partner] = UNMATCHED
            active[v] = False
            if graph.augment(partner, trial, active):
                mate[:] = trial
                return v
            active[v] = True
        return None

    def _bye_ranks(self, bye_score: Fraction, single: bool) -> ByeContext:
        counts = sorted(
            (p.played_games for p in self.players if p.pairing_score == bye_score), reverse=True
        )
        ranks: dict[int, int] = {}
        for rank, played in enumerate(counts):
            ranks[played] = rank
        return ByeContext(bye_score, single, ranks)

    def _start_global(self) -> None:
        self.computer = GlobalMatching(self.n, self.scores)
        if self.dummy >= 0:
            for v in range(self.n):
                self.set_weight(v, self.dummy, 1)
            self._odd_initial_weights()
        else:
            self._reset_all_weights()
        mate = self.solve()
        self._check_complete(mate)
        if self.dummy >= 0:
            self._bye_context(mate)
            self._reset_all_weights()

    def _reset_all_weights(self) -> None:
        for w in range(self.n):
            for v in range(w):
                self.set_weight(w, v, self.weight(v, w, False, False))

    def _odd_initial_weights(self) -> None:
        shifts, ctx = self.ctx.score_shifts, self.ctx
        for w in range(self.n):
            player = self.players[w]
            for v in range(w):
                opponent = self.players[v]
                weight = 0
                if compatible(player, opponent, ctx):
                    weight = 1 + (not player.bye_eligible) + (not opponent.bye_eligible)
                    weight = (weight << ctx.score_groups_shift) + (
                        shifts[player.pairing_score] + shifts[opponent.pairing_score]
                    )
                    weight = (weight << ctx.score_group_bits) + (
                        player.pairing_score >= self.top_score
                    )
                self.set_weight(w, v, weight)

    def _check_complete(self, mate: list[int]) -> None:
        unmatched = [v for v in range(self.n) if mate[v] == v]
        if len(unmatched) > 1 or any(not self.players[v].bye_eligible for v in unmatched):
            raise PairingImpossible(self._impossible_message(unmatched))

    def _impossible_message(self, unmatched: list[int]) -> str:
        names = ", ".join(str(self.players[v].start_no) for v in unmatched)
        if len(unmatched) == 1:
            return (
                f"no legal pairing: the only player who could be left without an opponent is "
                f"{names}, who may not receive the pairing-allocated bye (C.04.3 C2)"
            )
        blockers = [
            self._blocker(self.players[v], self.players[w])
            for i, v in enumerate(unmatched)
            for w in unmatched[i + 1 :]
        ]
        return (
            f"no legal pairing: players {names} cannot all be paired: "
            + "; ".join(blockers)
            + " (C.04.3 C1, C3, C4)"
        )

    def _blocker(self, a: PlayerState, b: PlayerState) -> str:
        if b.start_no in a.opponents:
            return f"{a.start_no} and {b.start_no} have met"
        if b.start_no in self.ctx.forbidden.get(a.start_no, ()):
            return f"{a.start_no}–{b.start_no} is a forbidden pair"
        if not compatible(a, b, self.ctx):
            return f"{a.start_no} and {b.start_no} both must have the same colour"
        return f"{a.start_no} and {b.start_no} could meet, but then others could not"

    def _bye_context(self, mate: list[int]) -> None:
        bye_vertex = next(v for v in range(self.n) if mate[v] == v)
        bye_score = self.players[bye_vertex].pairing_score
        single = bye_score >= self.top_score
        if single:
            for v, player in enumerate(self.players):
                if player.pairing_score < self.top_score:
                    break
                if self.players[mate[v]].pairing_score < self.top_score:
                    single = False
                    break
        self.bye = self._bye_ranks(bye_score, single)
        self.table.set_bye(self.bye)

    # -- the brackets ------------------------------------------------------------------------

    def score(self, v: int) -> Fraction:
        return self.players[v].pairing_score

    def run(self) -> DutchResult:
        self.start()
        n = self.n
        order: list[int] = []
        nxt = 0
        while nxt < n and self.score(nxt) >= self.top_score:
            order.append(nxt)
            nxt += 1
        movers, first_vertex = 0, 0
        while len(order) > 1 or nxt < n:
            group_start = nxt
            while nxt < n and self.score(nxt) >= self.score(group_start):
                order.append(nxt)
                nxt += 1
            bracket = _Bracket(self, order, movers, first_vertex, group_start)
            self.computer.begin_bracket(order, movers, nxt)
            bracket.pair()
            order, movers, first_vertex = bracket.carry_over()
        return self._result()

    def _result(self) -> DutchResult:
        pairs = [
            (self.players[v].start_no, self.players[w].start_no)
            for v, w in self.partner.items()
            if v < w
        ]
        unpaired = [v for v in range(self.n) if v not in self.partner]
        bye = self.players[unpaired[0]].start_no if unpaired else None
        bye_score = self.bye.bye_score if self.dummy >= 0 else None
        return DutchResult(pairs, bye, self.brackets, bye_score)


class _Bracket:
    """One pairing bracket: MDPs ``order[:movers]``, residents up to ``next_begin``, then the
    next score group (the look-ahead of C7/C8). Positions index ``order``; vertices index the
    engine's sorted players."""

    def __init__(
        self, engine: _Engine, order: list[int], movers: int, first_vertex: int, group_start: int
    ) -> None:
        self.e = engine
        self.order = order
        self.movers = movers
        self.next_begin = group_start - first_vertex + movers
        self.first_vertex = first_vertex
        self.next_vertex = group_start
        self.group_start = group_start
        self.base: list[list[int]] = []
        self.stable: list[int] = []
        self.trace = BracketTrace(
            score=engine.score(order[movers]) if movers < self.next_begin else Fraction(0),
            residents=[engine.players[v].start_no for v in order[movers : self.next_begin]],
            moved_down=[engine.players[v].start_no for v in order[:movers]],
        )

    def in_bracket(self, mate: int) -> bool:
        return self.first_vertex <= mate < self.next_vertex

    def pair(self) -> None:
        self._base_weights()
        self.stable = self.e.solve()
        self._choose_movers()
        self._pair_movers()
        self._pair_remainder()
        self.e.brackets.append(self.trace)

    def _base_weights(self) -> None:
        """bbpPairings' computeBaseEdgeWeights; the moved-down players' edges among
        themselves keep their weights from the brackets before."""
        e, order = self.e, self.order
        weight, c9 = e.table.weight, e.bye.single_downfloater_is_bye
        self.base = [[] for _ in order]
        for li in range(self.movers, len(order)):
            current, following = li < self.next_begin, li >= self.next_begin
            lower = order[li]
            self.base[li] = [weight(order[si], lower, current, following, c9) for si in range(li)]
        e.computer.set_rows(self.base, self.movers)

    # bbpPairings: "Choose the moved down players to pair in the current pairing bracket."
    def _choose_movers(self) -> None:
        e, order = self.e, self.order
        moved_score = Fraction(0)
        remaining = remaining_matched = 0
        for pi in range(self.movers):
            if not pi or e.score(order[pi]) < moved_score:
                moved_score = e.score(order[pi])
                remaining, remaining_matched = self._count_movers(pi, moved_score)
            if not remaining_matched:
                continue
            pv = order[pi]
            if remaining <= remaining_matched:
                e.matched[pv] = True
                continue
            remaining -= 1
            if self._try_mover(pi):
                remaining_matched -= 1

    def _count_movers(self, start: int, moved_score: Fraction) -> tuple[int, int]:
        remaining = matched = 0
        order = self.order
        mi = start
        while mi < len(order) and self.e.score(order[mi]) >= moved_score:
            remaining += 1
            matched += self.in_bracket(self.stable[order[mi]])
            mi += 1
        return remaining, matched

    def _try_mover(self, pi: int) -> bool:
        e, order, pv = self.e, self.order, self.order[pi]
        if not self.in_bracket(self.stable[pv]):
            for oi in range(self.movers, self.next_begin):
                weight = self.base[oi][pi]
                if weight:
                    e.set_weight(pv, order[oi], weight | 1)
            self.stable = e.solve()
        if not self.in_bracket(self.stable[pv]):
            return False
        e.matched[pv] = True
        for oi in range(self.movers, self.next_begin):
            weight = self.base[oi][pi]
            if weight:
                e.set_weight(pv, order[oi], (weight | (self.next_begin - self.movers)) + 1)
        return True

    # bbpPairings: "Choose the opponents of the moved down players."
    def _pair_movers(self) -> None:
        e, order = self.e, self.order
        for pi in range(self.movers):
            pv = order[pi]
            if not e.matched[pv]:
                continue
            addend = len(order)
            for oi in range(self.next_begin - 1, self.movers - 1, -1):
                ov = order[oi]
                weight = self.base[oi][pi]
                if e.matched[ov] or not weight:
                    continue
                e.set_weight(pv, ov, weight + addend)
                addend += 1
            self.stable = e.solve()
            mv = self.stable[pv]
            e.matched[mv] = True
            e.finalize(pv, mv)
            self.trace.pairs.append((e.players[pv].start_no, e.players[mv].start_no))

    def _pair_remainder(self) -> None:
        remainder, pairs = self._remainder()
        exchange_count = self._set_exchange_weights(remainder, pairs)
        self._exchange_from_s1(remainder, pairs, exchange_count)
        self._exchange_from_s2(remainder, pairs, exchange_count)
        self._fix_exchanges(remainder)
        self._pair_s1(remainder)

    def _remainder(self) -> tuple[list[int], int]:
        remainder: list[int] = []
        pairs = 0
        for pi in range(self.movers, self.next_begin):
            pv = self.order[pi]
            if self.stable[pv] < self.first_vertex:
                continue
            remainder.append(pi)
            pairs += self.stable[pv] < pv
        return remainder, pairs

    def exchange_weight(self, si: int, li: int, index: int, pairs: int) -> int:
        """bbpPairings' edgeWeightComputer: fewest exchanges, then the smallest differences."""
        weight = self.base[li][si]
        if weight:
            g = self.e.ctx.score_group_bits
            addend = ((int(index < pairs) << (2 * g)) - index) << 1
            weight += addend
        return weight

    def _set_exchange_weights(self, remainder: list[int], pairs: int) -> int:
        e, order = self.e, self.order
        for oi in remainder:
            for index, pi in enumerate(remainder):
                if oi <= pi:
                    break
                e.set_weight(order[pi], order[oi], self.exchange_weight(pi, oi, index, pairs))
        self.stable = e.solve()
        count = 0
        if remainder:
            boundary = remainder[pairs] if pairs < len(remainder) else len(order)
            for pi in remainder:
                if pi >= boundary:
                    break
                pv = order[pi]
                count += self.stable[pv] <= pv or self.stable[pv] >= self.next_vertex
        return count

    def _matched_down(self, pv: int) -> bool:
        return pv < self.stable[pv] < self.next_vertex

    # bbpPairings: "Select lower players from the higher group to be exchanged where possible."
    def _exchange_from_s1(self, remainder: list[int], pairs: int, count: int) -> None:
        e, order = self.e, self.order
        index = pairs
        it = pairs
        while it and count:
            index -= 1
            it -= 1
            pi = remainder[it]
            pv = order[pi]
            if self._matched_down(pv):
                for oi in remainder[it + 1 :]:
                    weight = self.exchange_weight(pi, oi, index, pairs)
                    if weight:
                        e.set_weight(pv, order[oi], weight - 1)
                self.stable = e.solve()
            exchange = not self._matched_down(pv)
            count -= exchange
            for oi in remainder[it + 1 :]:
                if exchange:
                    self.base[oi][pi] = 0
                e.set_weight(pv, order[oi], self.exchange_weight(pi, oi, index, pairs))

    # bbpPairings: "Select higher players from the lower group to be exchanged where possible."
    def _exchange_from_s2(self, remainder: list[int], pairs: int, count: int) -> None:
        index = pairs
        for it in range(pairs, len(remainder)):
            if count <= 1:
                break
            if self._try_s2_exchange(remainder, it, index, pairs):
                count -= 1
            index += 1

    def _try_s2_exchange(self, remainder: list[int], it: int, index: int, pairs: int) -> bool:
        e, order = self.e, self.order
        pi = remainder[it]
        pv = order[pi]
        already = self._matched_down(pv)
        if not already:
            for oi in remainder[it + 1 :]:
                weight = self.exchange_weight(pi, oi, index, pairs)
                if weight:
                    e.set_weight(pv, order[oi], weight + 1)
            self.stable = e.solve()
        exchange = self._matched_down(pv)
        if exchange:
            for oi in remainder[:it]:
                self.base[pi][oi] = 0
                e.set_weight(pv, order[oi], 0)
            for oi in range(self.next_begin, len(order)):
                self.base[oi][pi] = 0
                e.set_weight(pv, order[oi], 0)
        if not already:
            for oi in remainder[it + 1 :]:
                e.set_weight(pv, order[oi], self.exchange_weight(pi, oi, index, pairs))
        return exchange

    # bbpPairings: "Finalize which players will be exchanged, and reset the bits we used."
    def _fix_exchanges(self, remainder: list[int]) -> None:
        e, order = self.e, self.order
        for a, pi in enumerate(remainder):
            pv = order[pi]
            upper = self._matched_down(pv)
            for oi in remainder[a + 1 :]:
                ov = order[oi]
                if not upper or self._matched_down(ov):
                    self.base[oi][pi] = 0
                e.set_weight(pv, ov, self.base[oi][pi])

    # bbpPairings: "Choose the players to be paired with each of the players in the first group."
    def _pair_s1(self, remainder: list[int]) -> None:
        e, order = self.e, self.order
        for pi in remainder:
            pv = order[pi]
            if not self._matched_down(pv):
                continue
            addend, favourite = 0, -1
            for oi in reversed(remainder):
                ov = order[oi]
                if oi <= pi or e.matched[ov]:
                    continue
                weight = self.base[oi][pi]
                if weight:
                    e.set_weight(pv, ov, weight + addend)
                    favourite = ov
                addend += 1
            # Raising only pv's edges, by at most the favourite's addend, cannot make a
            # pairing that already gives pv the favourite suboptimal: no need to solve.
            if self.stable[pv] != favourite:
                self.stable = e.solve()
            mv = self.stable[pv]
            e.matched[pv] = e.matched[mv] = True
            e.finalize(pv, mv)
            self.trace.pairs.append((e.players[pv].start_no, e.players[mv].start_no))

    def carry_over(self) -> tuple[list[int], int, int]:
        """The next bracket's players: this bracket's downfloaters, then the next group."""
        e = self.e
        group_score = e.score(self.group_start) if self.group_start < e.n else None
        single = e.dummy >= 0 and group_score is not None and e.bye.bye_score >= group_score
        new_order: list[int] = []
        movers = 0
        for pi, pv in enumerate(self.order):
            if pi < self.next_begin and e.matched[pv]:
                continue
            new_order.append(pv)
            if pi < self.next_begin:
                movers += 1
                self.trace.downfloaters.append(e.players[pv].start_no)
        if single and group_score is not None:
            single = not e.computer.paired_below(new_order, self.stable, group_score)
        e.bye = ByeContext(e.bye.bye_score, single, e.bye.unplayed_ranks)
        return new_order, movers, self.next_vertex


def pair_players(
    players: Sequence[PlayerState], ctx: WeightContext, whole_graph: bool = False
) -> DutchResult:
    """Pair one round with the 2025 Dutch rules (players already filtered for absence).

    ``whole_graph`` solves every step on the whole field, as bbpPairings does, instead of the
    bracket's window (:mod:`draws.swiss.pairing.window`); the tests compare the two."""
    ordered = sort_players(players)
    if not ordered:
        return DutchResult([], None, [], None)
    return _Engine(ordered, ctx, whole_graph).run()
