"""Edge weights: the 2025 Dutch criteria as one lexicographic integer per possible pair.

C.04.3 (2025) Art. 2 orders the criteria: the absolute ones (C1 no rematch and forbidden pairs,
C2 bye eligibility, C3 no two non-topscorers with the same absolute colour preference) are
hard; then completion (C4); then the quality criteria from C5 down to C21, each one only
breaking ties left by the ones before. A pairing is a matching on the players, so the best
pairing is a maximum-weight matching when each pair's weight is a bit string with one field per
criterion, most important first, each field wide enough that the sum over all pairs cannot
overflow into the next. This is the encoding bbpPairings uses (``computeEdgeWeight`` in its
``dutch.cpp``); the field order and widths below are the same, field for field, so the two
engines choose among equally good pairings the same way.

Fields, most significant first (``higher`` is the better-ranked player of the pair):

1. completion and bye candidacy (C4, C2): 1 + one per player who could not take the bye;
2. pairs in the current bracket (C5), then the scores of the MDPs so paired (C6);
3. pairs in the next bracket and their scores (C7, C8: the choice of floaters must let the
   next bracket pair as well as possible);
4. the bye assignee's unplayed games, when the bracket decides who gets the bye (C9);
5. colours in the current bracket: topscorers' colour difference (C10), topscorers' third
   colour in a row (C11), preferences met (C12), strong preferences met (C13);
6. floats: repeated downfloats and upfloats from the last round (C14, C15) and the one
   before (C16, C17), then the scores involved (C18–C21);
7. room for the tie-breaks of the bracket procedure (Art. 3: which MDPs, exchanges, order).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from draws.swiss.pairing.players import FLOAT_DOWN, FLOAT_UP, PlayerState


def bits(value: int) -> int:
    """How many binary digits ``value`` needs (0 for 0)."""
    return value.bit_length()


@dataclass(frozen=True)
class WeightContext:
    """What every weight computation of one round shares."""

    played_rounds: int
    total_rounds: int
    max_game_points: Fraction  # max(win, draw)
    score_group_bits: int  # bits for the largest score group
    score_groups_shift: int  # total width of a per-score-group field
    score_shifts: Mapping[Fraction, int]  # offset of each score group within such a field
    forbidden: Mapping[int, frozenset[int]]  # by start number: rematches and forbidden pairs

    def last_round(self) -> bool:
        return self.played_rounds >= self.total_rounds - 1

    def topscorer(self, player: PlayerState) -> bool:
        """C.04.3 (2025) Art. 1.7: more than half the maximum score, when pairing the last
        round (bbpPairings' threshold: played rounds times the most points a game gives, /2)."""
        return player.pairing_score * 2 > self.played_rounds * self.max_game_points


def compatible(a: PlayerState, b: PlayerState, ctx: WeightContext) -> bool:
    """Absolute criteria C1 (no rematch, no forbidden pair) and C3 (two players with the same
    absolute colour preference do not meet, unless one is a topscorer in the last round)."""
    if b.start_no in ctx.forbidden.get(a.start_no, ()):
        return False
    if not (a.absolute_preference and b.absolute_preference):
        return True
    if a.colour_preference != b.colour_preference:
        return True
    return ctx.last_round() and (ctx.topscorer(a) or ctx.topscorer(b))


def bye_candidate(player: PlayerState, bye_score: Fraction) -> bool:
    return player.bye_eligible and player.pairing_score <= bye_score


def _preferences_compatible(a: str, b: str) -> bool:
    return a != b or not a or not b


def _repeated_colour_differs(low: PlayerState, high: PlayerState) -> bool:
    """C11's last clause: with equal imbalances, the two did not play the same colour twice in
    a row; else the player with the smaller imbalance did not repeat the colour the other
    player's preference is against."""
    if low.colour_imbalance == high.colour_imbalance:
        return not low.repeated_colour or low.repeated_colour != high.repeated_colour
    smaller = high if low.colour_imbalance > high.colour_imbalance else low
    opposite = "b" if low.colour_preference == "w" else "w" if low.colour_preference else ""
    return smaller.repeated_colour != opposite


def _mild(player: PlayerState) -> bool:
    """Neither a strong nor an absolute colour preference (C13)."""
    return not player.strong_preference and not player.absolute_preference


def _colour_flags(low: PlayerState, high: PlayerState) -> tuple[bool, bool, bool, bool]:
    """C10–C13 for one pair, as bbpPairings' ``insertColorBits`` (True = criterion met)."""
    same = low.colour_preference == high.colour_preference
    both_absolute = low.absolute_preference and high.absolute_preference
    c10 = not (low.absolute_imbalance and high.absolute_imbalance and same)
    c11 = not both_absolute or not same or _repeated_colour_differs(low, high)
    c12 = _preferences_compatible(low.colour_preference, high.colour_preference)
    c13 = _mild(low) or _mild(high) or both_absolute or not same
    return c10, c11, c12, c13


@dataclass(frozen=True)
class ByeContext:
    """Who may take the bye this round and whether C9 applies in the bracket at hand."""

    bye_score: Fraction
    single_downfloater_is_bye: bool
    unplayed_ranks: Mapping[int, int]


def _c9(high: PlayerState, low: PlayerState, bye: ByeContext) -> int:
    if not bye.single_downfloater_is_bye:
        return 0
    value = 0
    for player in (high, low):
        if player.pairing_score == bye.bye_score:
            value += bye.unplayed_ranks[player.played_games]
    return value


def _float_fields(
    high: PlayerState, low: PlayerState, back: int, in_current: bool
) -> tuple[int, int]:
    """C14/C16 (downfloats) and C15/C17 (upfloats) ``back`` rounds ago."""
    if not in_current:
        return 0, 0
    i = back - 1
    down = int(low.floats[i] == FLOAT_DOWN) + int(
        high.pairing_score <= low.pairing_score and high.floats[i] == FLOAT_DOWN
    )
    up = int(not (high.pairing_score > low.pairing_score and low.floats[i] == FLOAT_UP))
    return down, up


def _float_score_fields(
    high: PlayerState, low: PlayerState, back: int, in_current: bool, ctx: WeightContext
) -> tuple[int, int]:
    """C18/C20 and C19/C21: the scores of repeated floaters ``back`` rounds ago."""
    if not in_current:
        return 0, 0
    i = back - 1
    shifts = ctx.score_shifts
    down = (int(low.floats[i] == FLOAT_DOWN) << shifts[low.pairing_score]) + (
        int(high.floats[i] == FLOAT_DOWN) << shifts[high.pairing_score]
    )
    up = 0
    if not (low.floats[i] == FLOAT_UP and high.pairing_score > low.pairing_score):
        up = 1 << shifts[high.pairing_score]
    return down, up


def edge_weight(
    high: PlayerState,
    low: PlayerState,
    in_current: bool,
    in_next: bool,
    bye: ByeContext,
    ctx: WeightContext,
) -> int:
    """bbpPairings' ``computeEdgeWeight``: 0 when the pair breaks an absolute criterion."""
    if not compatible(high, low, ctx):
        return 0
    g, s = ctx.score_group_bits, ctx.score_groups_shift
    shift_high = ctx.score_shifts[high.pairing_score]
    weight = 1 + (not bye_candidate(high, bye.bye_score)) + (not bye_candidate(low, bye.bye_score))
    weight = (weight << g) + in_current
    weight = (weight << s) + ((1 << shift_high) if in_current else 0)
    weight = (weight << g) + in_next
    weight = (weight << s) + ((1 << shift_high) if in_next else 0)
    weight = (weight << (2 * g)) + _c9(high, low, bye)
    flags = _colour_flags(low, high) if in_current else (False, False, False, False)
    for flag in flags:
        weight = (weight << g) + flag
    return _float_part(weight, high, low, in_current, ctx) << (3 * g + 1)


def _float_part(
    weight: int, high: PlayerState, low: PlayerState, in_current: bool, ctx: WeightContext
) -> int:
    g, s = ctx.score_group_bits, ctx.score_groups_shift
    backs = [back for back in (1, 2) if ctx.played_rounds >= back]
    for back in backs:
        down, up = _float_fields(high, low, back, in_current)
        weight = (((weight << g) + down) << g) + up
    for back in backs:
        down, up = _float_score_fields(high, low, back, in_current, ctx)
        weight = (((weight << s) + down) << s) + up
    return weight


def completion_shift(ctx: WeightContext) -> int:
    """Where the completion field (the top one) starts in :func:`edge_weight`: the width of
    every field below it."""
    g, s = ctx.score_group_bits, ctx.score_groups_shift
    backs = min(ctx.played_rounds, 2)
    return (g + s) * 2 + 2 * g + 4 * g + backs * 2 * (g + s) + 3 * g + 1


def _layout(ctx: WeightContext) -> dict[str, int]:
    """Each field's offset in :func:`edge_weight`, counted from the least significant bit."""
    g, s = ctx.score_group_bits, ctx.score_groups_shift
    backs = [1, 2][: min(ctx.played_rounds, 2)]
    fields = [("top", 0), ("c5", g), ("c6", s), ("c7", g), ("c8", s), ("c9", 2 * g)]
    fields += [(f"c{n}", g) for n in (10, 11, 12, 13)]
    fields += [(f"{kind}{back}", g) for back in backs for kind in ("down", "up")]
    fields += [(f"{kind}_score{back}", s) for back in backs for kind in ("down", "up")]
    fields.append(("room", 3 * g + 1))
    offsets: dict[str, int] = {}
    offset = 0
    for name, width in reversed(fields):
        offsets[name] = offset
        offset += width
    return offsets


class WeightTable:
    """:func:`edge_weight` for one round's sorted players, computed from small integers.

    The weights are the same integers, field for field (the tests compare the two); what is
    per player (score offsets, bye candidacy, floats, colour state) is read once, and what
    depends on a pair of player kinds (the colour and float fields) is computed once per kind.
    """

    def __init__(self, players: list[PlayerState], ctx: WeightContext) -> None:
        self.players = players
        self.ctx = ctx
        self.offsets = _layout(ctx)
        self.top_shift = self.offsets["top"]
        vertex = {p.start_no: v for v, p in enumerate(players)}
        self.forbidden = [
            {vertex[s] for s in ctx.forbidden.get(p.start_no, ()) if s in vertex} for p in players
        ]
        self.absolute = [p.colour_preference if p.absolute_preference else "" for p in players]
        self.exempt = [ctx.last_round() and ctx.topscorer(p) for p in players]
        self.shift = [ctx.score_shifts[p.pairing_score] for p in players]
        colour_kinds: dict[tuple[str, int, str, bool], int] = {}
        self.colour_kind = [
            colour_kinds.setdefault(
                (p.colour_preference, p.colour_imbalance, p.repeated_colour, p.strong_preference),
                len(colour_kinds),
            )
            for p in players
        ]
        float_kinds: dict[tuple[tuple[str, str], int], int] = {}
        self.float_kind = [
            float_kinds.setdefault((p.floats, self.shift[v]), len(float_kinds))
            for v, p in enumerate(players)
        ]
        self._colour_bits: dict[tuple[int, int], int] = {}
        self._float_bits: dict[tuple[int, int], int] = {}
        self.not_candidate = [0] * len(players)
        self.unplayed = [0] * len(players)

    def set_bye(self, bye: ByeContext) -> None:
        """Bye candidacy (C2 and the bye assignee's score) and C9's ranks."""
        for v, player in enumerate(self.players):
            self.not_candidate[v] = int(not bye_candidate(player, bye.bye_score))
            at_bye_score = player.pairing_score == bye.bye_score and bye.unplayed_ranks
            self.unplayed[v] = bye.unplayed_ranks[player.played_games] if at_bye_score else 0

    def compatible(self, v: int, w: int) -> bool:
        """:func:`compatible` for vertices."""
        if w in self.forbidden[v]:
            return False
        own = self.absolute[v]
        return not own or own != self.absolute[w] or self.exempt[v] or self.exempt[w]

    def opponents(self, v: int) -> list[int]:
        """Every vertex ``v`` is compatible with."""
        barred, own, everyone = self.forbidden[v], self.absolute[v], range(len(self.players))
        if not own or self.exempt[v]:
            return [w for w in everyone if w != v and w not in barred]
        absolute, exempt = self.absolute, self.exempt
        return [
            w for w in everyone if w != v and w not in barred and (absolute[w] != own or exempt[w])
        ]

    def weight(self, v: int, w: int, in_current: bool, in_next: bool, c9: bool) -> int:
        """``edge_weight(players[v], players[w], ...)`` with ``v`` ranked above ``w``."""
        if not self.compatible(v, w):
            return 0
        offsets = self.offsets
        weight = (1 + self.not_candidate[v] + self.not_candidate[w]) << self.top_shift
        if in_current:
            weight += (1 << offsets["c5"]) + (1 << (offsets["c6"] + self.shift[v]))
            weight += self._colours(v, w) + self._floats(v, w)
        elif in_next:
            weight += (1 << offsets["c7"]) + (1 << (offsets["c8"] + self.shift[v]))
        if c9:
            weight += (self.unplayed[v] + self.unplayed[w]) << offsets["c9"]
        return weight

    def _colours(self, v: int, w: int) -> int:
        key = (self.colour_kind[v], self.colour_kind[w])
        bits = self._colour_bits.get(key)
        if bits is None:
            flags = _colour_flags(self.players[w], self.players[v])
            bits = sum(
                int(flag) << self.offsets[f"c{n}"]
                for n, flag in zip((10, 11, 12, 13), flags, strict=True)
            )
            self._colour_bits[key] = bits
        return bits

    def _floats(self, v: int, w: int) -> int:
        key = (self.float_kind[v], self.float_kind[w])
        bits = self._float_bits.get(key)
        if bits is None:
            high, low, offsets = self.players[v], self.players[w], self.offsets
            bits = 0
            for back in (1, 2)[: min(self.ctx.played_rounds, 2)]:
                down, up = _float_fields(high, low, back, True)
                bits += (down << offsets[f"down{back}"]) + (up << offsets[f"up{back}"])
                down, up = _float_score_fields(high, low, back, True, self.ctx)
                bits += (down << offsets[f"down_score{back}"]) + (up << offsets[f"up_score{back}"])
            self._float_bits[key] = bits
        return bits
