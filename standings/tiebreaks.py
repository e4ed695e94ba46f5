"""FIDE tie-breaks (Handbook C.07, 2024 and 2026 editions) as a pure engine.

Importing this module registers every FIDE code in :mod:`standings.registry`. Values are exact
(:class:`fractions.Fraction`); rating-based values are integers rounded half up (C.07 Art. 10,
B.02 tables), AOB is rounded half up to the precision FIDE's calculator uses.

How unplayed rounds are treated (rules-notes "FIDE tie-breaks"):

* Round robins (``crosstable.round_robin``, C.07 Art. 15.2): every paired game counts as played
  with its actual result, forfeits included, except for the rating tie-breaks, which use games
  played over the board only. Rounds without an opponent (the free round of an odd field) are
  left out of opponent-based tie-breaks.
* Swiss (Art. 16): a *voluntary unplayed round* (VUR) is a requested half- or zero-point bye or
  a forfeit loss (codes ``H``, ``Z``, ``-``); pairing-allocated byes (``U``), requested
  full-point byes (``F``) and forfeit wins (``+``) are not (16.2). Seen from the opponents
  (16.3) an unplayed round counts at the points awarded, except byes after the player's last
  non-VUR round, which count as a draw. For the player's own Buchholz/SB (16.4) each unplayed
  round is a game against a dummy whose score is the player's own score; the 2026 edition caps
  it at the scheduled opponent's adjusted score (forfeits, 16.4.1) or at a draw's points times
  the number of rounds (byes, 16.4.2). Cut-1 removes a VUR first (16.5); for SB the higher of
  the lowest VUR contribution and the lowest-scoring opponent's contribution is cut.

All arithmetic inside the engine is done on integers: every score is multiplied by the least
common denominator of the scoring system, so Sonneborn-Berger products and sums stay exact and
fast; results are converted back to :class:`Fraction` at the end.

The computations are precomputed once per crosstable and edition (:class:`_Field`) and shared
by every code, so a whole table costs time linear in players x rounds.
"""

from __future__ import annotations

import datetime as dt
import math
import operator
import re
from bisect import bisect_left
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import NamedTuple

from events.records import Crosstable, RoundResult
from standings.registry import (
    REGISTRY,
    TiebreakDefinition,
    TiebreakNotAllowed,
    TiebreakRequest,
    TiebreakSpec,
    TiebreakValue,
    UnknownTiebreak,
    parse_code,
    register,
)

EDITIONS = ("2024", "2026")
EDITION_2026_START = dt.date(2026, 3, 1)

# Codes whose value is a rating figure and that need every player to have a rating (Art. 10).
RATING_CODES = frozenset({"ARO", "TPR", "PTP", "APRO", "APPO", "RTNG"})
# The Buchholz family, forbidden in round robins by the 2026 edition.
BUCHHOLZ_FAMILY = frozenset({"BH", "FB", "AOB"})
# Codes (and modifiers) that only the 2026 edition defines.
NEW_IN_2026 = frozenset({"STD", "TPN", "RTNG"})

_PLAYED = frozenset("1=0WDLU")  # FIDE's calculator: over the board, or a pairing-allocated bye
_NOT_VOLUNTARY = frozenset("+F")  # unplayed rounds that are not VURs (C.07 16.2)
_RATING_HALVES = {"1": 2, "W": 2, "=": 1, "D": 1}

# FIDE B.02 table 8.1(b): the largest rating difference giving each expected score of the
# higher-rated player, 50 % to 99 %; above 735 the expected score is 100 %.
_PD_UPPER_DIFF = (
    3, 10, 17, 25, 32, 39, 46, 53, 61, 68, 76, 83, 91, 98, 106, 113, 121, 129, 137, 145,
    153, 162, 170, 179, 188, 197, 206, 215, 225, 235, 245, 256, 267, 278, 290, 302, 315, 328,
    344, 357, 374, 391, 411, 432, 456, 484, 517, 559, 619, 735,
)  # fmt: skip
# FIDE B.02 table 8.1(a): rating difference dp for a percentage score of 50 % .. 100 %
# (below 50 % the table is symmetric: dp(p) = -dp(100 - p)).
_DP_UPPER_HALF = (
    0, 7, 14, 21, 29, 36, 43, 50, 57, 65, 72, 80, 87, 95, 102, 110, 117, 125, 133, 141, 149,
    158, 166, 175, 184, 193, 202, 211, 220, 230, 240, 251, 262, 273, 284, 296, 309, 322, 336,
    351, 366, 383, 401, 422, 444, 470, 501, 538, 589, 677, 800,
)  # fmt: skip


def expected_percent(rating_difference: int) -> int:
    """Expected score in percent of the higher-rated player for a rating difference (B.02)."""
    difference = min(abs(rating_difference), 800)
    return 50 + bisect_left(_PD_UPPER_DIFF, difference)


def rating_difference_for(percent: int) -> int:
    """dp for a percentage score 0..100 (B.02 table 8.1(a))."""
    if percent >= 50:
        return _DP_UPPER_HALF[percent - 50]
    return -_DP_UPPER_HALF[50 - percent]


def edition_for(start_date: dt.date | None) -> str:
    """The C.07 edition in force at an event's start (the 2026 text from 1 March 2026)."""
    if start_date is None or start_date >= EDITION_2026_START:
        return "2026"
    return "2024"


class RatingTiebreakDropped(TiebreakNotAllowed):
    """A rating tie-break cannot be used: an unrated player is present and the regulation sets
    no rating for unrated players (C.07 Art. 10, rules-notes "Counting")."""


# ---------------------------------------------------------------------------------------------
# Rounding helpers (C.07: "rounded half up")


def _half_up(numerator: int, denominator: int) -> int:
    """Round numerator/denominator (denominator > 0) half up to an integer."""
    return (2 * numerator + denominator) // (2 * denominator)


def _quantize_half_up(value: Fraction, decimals: int) -> Fraction:
    scale = 10**decimals
    return Fraction(_half_up(value.numerator * scale, value.denominator), scale)


# ---------------------------------------------------------------------------------------------
# The precomputed field


class _Round(NamedTuple):
    """One player's round in engine terms; scores are integers in units of 1/``unit``.

    A NamedTuple rather than a frozen dataclass: the field builds one per player and round, and
    tuple construction is several times cheaper (the 2000 x 11 benchmark)."""

    opponent: int  # index into the field, -1 for none
    points: int
    played: bool  # over the board, or a pairing-allocated bye (counts as played, 16.2.1)
    vur: bool  # voluntary unplayed round (16.2.5)
    black: bool
    rating_halves: int  # 2 / 1 / 0 for a rated win / draw / loss over the board
    code: str


_POINTS = operator.itemgetter(1)  # _Round.points, without the property lookup
_new_tuple = tuple.__new__


def _last_present_and_paired(rounds: Sequence[_Round]) -> tuple[int, int]:
    """The last round the player did not skip (16.3), and the last round with an opponent or
    a game; 0 for none."""
    present = paired = 0
    for round_no, rnd in enumerate(rounds, start=1):
        if not rnd.vur:
            present = round_no
        if rnd.opponent >= 0 or rnd.played:
            paired = round_no
    return present, paired


class _Field:
    """Everything the tie-breaks share, computed once per (crosstable, edition)."""

    __slots__ = (
        "crosstable", "edition", "rr", "rounds", "start_nos", "index", "ratings", "unit",
        "win", "draw", "table", "points", "last_present", "last_paired", "adjusted", "cache",
        "fractions",
    )  # fmt: skip

    def __init__(self, crosstable: Crosstable, edition: str) -> None:
        if edition not in EDITIONS:
            raise ValueError(f"unknown C.07 edition {edition!r}; use one of {EDITIONS}")
        self.crosstable = crosstable
        self.edition = edition
        self.rr = crosstable.round_robin
        self.rounds = crosstable.rounds
        self.start_nos = [entrant.start_no for entrant in crosstable.entrants]
        self.index = {start_no: i for i, start_no in enumerate(self.start_nos)}
        self.ratings = [entrant.rating for entrant in crosstable.entrants]
        self.cache: dict[object, object] = {}
        self.fractions: dict[tuple[int, int], Fraction] = {}
        scores = _scaled_scores(crosstable)
        self.unit, self.win, self.draw = scores.unit, scores.win, scores.draw
        templates = _templates(crosstable, scores.by_result)
        in_order = list(range(1, self.rounds + 1))
        self.table = [self._rounds_of(i, templates, in_order) for i in range(len(self.start_nos))]
        self.points: list[int] = [sum(map(_POINTS, rounds)) for rounds in self.table]
        self.last_present: list[int] = []  # the last round the player did not skip (16.3)
        self.last_paired: list[int] = []  # the last round with an opponent or a game
        for rounds in self.table:
            present, paired = _last_present_and_paired(rounds)
            self.last_present.append(present)
            self.last_paired.append(paired)
        self.adjusted = [self._adjusted(i) for i in range(len(self.table))]

    def _rounds_of(
        self, i: int, templates: dict[tuple[str, str, str], _Round], in_order: list[int]
    ) -> list[_Round]:
        results = self.crosstable.entrants[i].results
        if [r.round for r in results] != in_order:
            by_round = {r.round: r for r in results}
            results = tuple(by_round.get(n) or RoundResult(n, None, "-", "Z") for n in in_order)
        index_of = self.index.get
        rounds = []
        for result in results:
            template = templates[(result.code, result.colour, result.time_control)]
            opponent = result.opponent
            if opponent:
                # tuple.__new__ straight away: _Round(...) and _Round._make are Python-level
                # calls, once per player and round (the 2000 x 11 benchmark).
                template = _new_tuple(_Round, (index_of(opponent, -1), *template[1:]))
            rounds.append(template)
        return rounds

    def _adjusted(self, i: int) -> int:
        """The player's score as their opponents see it (16.3): byes after the last round the
        player was present count as draws in a Swiss (nothing in a round robin)."""
        last = self.last_present[i]
        if last == len(self.table[i]):
            return self.points[i]  # present to the end: no round after it
        bye_value = 0 if self.rr else self.draw
        return sum(
            rnd.points if (round_no <= last or rnd.opponent >= 0) else bye_value
            for round_no, rnd in enumerate(self.table[i], start=1)
        )

    def value(self, scaled: int, power: int = 1) -> Fraction:
        # Tie-break values repeat a lot across a field; one Fraction per distinct value.
        key = (scaled, power)
        cached = self.fractions.get(key)
        if cached is None:
            cached = self.fractions[key] = Fraction(scaled, self.unit**power)
        return cached


@dataclass(frozen=True, slots=True)
class _ScaledScores:
    unit: int
    win: int
    draw: int
    by_result: Mapping[tuple[str, str], int]


def _scaled_scores(crosstable: Crosstable) -> _ScaledScores:
    """Points per (code, time control) as integers over a common denominator."""
    scoring = crosstable.scoring
    keys = {(r.code, r.time_control) for e in crosstable.entrants for r in e.results}
    keys |= {("Z", "")}
    values = {key: scoring.points(RoundResult(1, None, "-", key[0], key[1])) for key in keys}
    unit = math.lcm(
        scoring.win.denominator,
        scoring.draw.denominator,
        *(value.denominator for value in values.values()),
    )
    return _ScaledScores(
        unit=unit,
        win=int(scoring.win * unit),
        draw=int(scoring.draw * unit),
        by_result={key: int(value * unit) for key, value in values.items()},
    )


def _templates(
    crosstable: Crosstable, by_result: Mapping[tuple[str, str], int]
) -> dict[tuple[str, str, str], _Round]:
    """A ready _Round (without opponent) per distinct (code, colour, time control)."""
    keys = {(r.code, r.colour, r.time_control) for e in crosstable.entrants for r in e.results}
    keys.add(("Z", "-", ""))
    templates = {}
    for code, colour, time_control in keys:
        played = code in _PLAYED
        templates[(code, colour, time_control)] = _Round(
            opponent=-1,
            points=by_result[(code, time_control)],
            played=played,
            vur=not played and code not in _NOT_VOLUNTARY,
            black=colour == "b",
            rating_halves=_RATING_HALVES.get(code, 0),
            code=code,
        )
    return templates


_FIELD_CACHE: list[_Field] = []


def _field(crosstable: Crosstable, edition: str) -> _Field:
    """The shared precomputation; the last few are kept (by identity) so that every code of a
    standings table and every tied group reuse one."""
    for field in _FIELD_CACHE:
        if field.crosstable is crosstable and field.edition == edition:
            return field
    field = _Field(crosstable, edition)
    _FIELD_CACHE.insert(0, field)
    del _FIELD_CACHE[4:]
    return field


# ---------------------------------------------------------------------------------------------
# Modifiers


@dataclass(frozen=True, slots=True)
class _Modifiers:
    cut_low: int = 0
    cut_high: int = 0
    fore: bool = False
    forfeits_count: bool = False
    reverse: bool = False
    limit_percent: Fraction = Fraction(50)
    limit_offset: Fraction = Fraction(0)


_CUT = re.compile(r"([CM])(\d+)")
_LIMIT = re.compile(r"L([+-])(\d+(?:\.\d+)?)|L(\d+)")


def _cut_modifier(modifier: str, *, median: bool) -> bool:
    match = _CUT.fullmatch(modifier)
    if match is None:
        return False
    return (median or match.group(1) == "C") and int(match.group(2)) > 0


def _read_modifiers(spec: TiebreakSpec) -> _Modifiers:
    values: dict[str, object] = {}
    for modifier in spec.modifiers:
        cut = _CUT.fullmatch(modifier)
        limit = _LIMIT.fullmatch(modifier)
        if cut:
            size = int(cut.group(2))
            values["cut_low"] = size
            values["cut_high"] = size if cut.group(1) == "M" else 0
        elif limit:
            values.update(_limit_values(limit))
        else:
            flag = {"F": "fore", "P": "forfeits_count", "R": "reverse"}.get(modifier)
            if flag:
                values[flag] = True
    return _Modifiers(**values)  # type: ignore[arg-type]


def _limit_values(match: re.Match[str]) -> dict[str, Fraction]:
    """KS/L: ``L+k``/``L-k`` move the limit by k half-points (``L+1.5`` by 1.5 points);
    ``Lnn`` sets the limit to nn % of the maximum score (C.07 Art. 9.3)."""
    if match.group(3):
        return {"limit_percent": Fraction(int(match.group(3)))}
    amount = Fraction(match.group(2))
    if "." not in match.group(2):
        amount /= 2
    return {"limit_offset": amount if match.group(1) == "+" else -amount}


# ---------------------------------------------------------------------------------------------
# Counting tie-breaks (C.07 Art. 7)


def _count(field: _Field, predicate: Callable[[_Round], bool]) -> list[int]:
    return [sum(1 for rnd in rounds if predicate(rnd)) for rounds in field.table]


def _points(field: _Field, modifiers: _Modifiers) -> list[Fraction]:
    return [field.value(points) for points in field.points]


def _wins(field: _Field, modifiers: _Modifiers) -> list[Fraction]:
    """WIN (7.1): rounds that scored a win's points, byes and forfeits included."""
    return [Fraction(n) for n in _count(field, lambda r: r.points == field.win)]


def _won(field: _Field, modifiers: _Modifiers) -> list[Fraction]:
    """WON (7.2): games won over the board."""
    return [
        Fraction(n)
        for n in _count(field, lambda r: r.points == field.win and r.played and r.opponent >= 0)
    ]


def _black_played(field: _Field, modifiers: _Modifiers) -> list[Fraction]:
    """BPG (7.3): games played over the board with black."""
    return [Fraction(n) for n in _count(field, lambda r: r.black and r.played)]


def _black_won(field: _Field, modifiers: _Modifiers) -> list[Fraction]:
    """BWG (7.4): games won over the board with black."""
    return [
        Fraction(n) for n in _count(field, lambda r: r.black and r.played and r.points == field.win)
    ]


def _elected_to_play(field: _Field, modifiers: _Modifiers) -> list[Fraction]:
    """REP (7.5): rounds the player elected to play: games, pairing-allocated byes and every
    round that scored a win's points (forfeit wins, full-point byes)."""
    return [Fraction(n) for n in _count(field, lambda r: r.played or r.points == field.win)]


def _standard_points(field: _Field, modifiers: _Modifiers) -> list[Fraction]:
    """STD (2026): each round rescored 1 / ½ / 0 by whether it beat, equalled or fell short
    of a draw's points."""
    values = []
    for rounds in field.table:
        halves = sum(
            2 if r.points > field.draw else 1 if r.points == field.draw else 0 for r in rounds
        )
        values.append(Fraction(halves, 2))
    return values


def _start_number(field: _Field, modifiers: _Modifiers) -> list[Fraction]:
    """TPN (2026): the tournament pairing number; lower is better."""
    return [Fraction(start_no) for start_no in field.start_nos]


def _progressive(field: _Field, modifiers: _Modifiers) -> list[Fraction]:
    """PS (Art. 7.6): the sum of the running scores; /Ck leaves out the first k rounds."""
    values = []
    for rounds in field.table:
        running = total = 0
        for round_no, rnd in enumerate(rounds, start=1):
            running += rnd.points
            if round_no > modifiers.cut_low:
                total += running
        values.append(field.value(total))
    return values


def _koya(field: _Field, modifiers: _Modifiers) -> list[Fraction]:
    """KS (Art. 9.3): points scored against opponents who made at least the limit (50 % of the
    maximum by default; /L moves it). In a round robin the maximum leaves out the free round
    and opponents who never played."""
    games = field.rounds
    if field.rr:
        entrants = len(field.table)
        if field.rounds % entrants == 0:
            games -= field.rounds // entrants
        games -= sum(1 for last in field.last_paired if last == 0)
    limit = modifiers.limit_percent * field.win * games / 100 + modifiers.limit_offset * field.unit
    values = []
    for rounds in field.table:
        total = sum(
            rnd.points
            for rnd in rounds
            if rnd.opponent >= 0 and field.points[rnd.opponent] >= limit
        )
        values.append(field.value(total))
    return values


# ---------------------------------------------------------------------------------------------
# Buchholz family and Sonneborn-Berger (C.07 Art. 8, 9.1, 16)


class _Contribution(NamedTuple):
    """One round's part in a Buchholz/SB: the opponent's (or dummy's) score, the SB product
    (score x own result) and whether the round was a VUR (for Cut-1, 16.5)."""

    score: int
    product: int
    vur: bool


def _fore_scores(field: _Field) -> tuple[list[int], list[int]]:
    """Fore Buchholz (Art. 8.3): each player who is paired in the last round is scored as if
    that game were drawn; returns (scores as opponents see them, own scores)."""
    cached = field.cache.get("fore")
    if cached is None:
        seen, own = list(field.adjusted), list(field.points)
        for i, rounds in enumerate(field.table):
            if field.rounds == 0 or field.last_paired[i] != field.rounds:
                continue
            # Paired in the last round: every round then counts at its actual points.
            seen[i] = own[i] = field.points[i]
            if rounds[-1].opponent >= 0:
                shift = field.draw - rounds[-1].points
                seen[i] += shift
                own[i] += shift
        cached = field.cache["fore"] = (seen, own)
    return cached  # type: ignore[return-value]


def _dummy_score(field: _Field, own: int, rnd: _Round, seen: list[int]) -> int:
    """The dummy opponent of an unplayed round (16.4): the player's own score, capped in the
    2026 edition at the scheduled opponent's score (forfeits) or a draw per round (byes)."""
    if field.edition != "2026":
        return own
    if rnd.opponent >= 0:
        return min(own, seen[rnd.opponent])
    return min(own, field.draw * field.rounds)


def _contributions(field: _Field, fore: bool) -> list[list[_Contribution]]:
    key = ("contributions", fore)
    cached = field.cache.get(key)
    if cached is None:
        seen, own = _fore_scores(field) if fore else (field.adjusted, field.points)
        cached = [
            _player_contributions(field, i, seen, own[i], fore) for i in range(len(field.table))
        ]
        field.cache[key] = cached
    return cached  # type: ignore[return-value]


def _player_contributions(
    field: _Field, i: int, seen: list[int], own: int, fore: bool
) -> list[_Contribution]:
    contributions = []
    rr, last = field.rr, field.rounds
    for round_no, rnd in enumerate(field.table[i], start=1):
        # Round robin: every pairing is a game (15.2); FB: the last round is a game (8.3).
        as_game = rnd.played or rr or (fore and round_no == last)
        if rnd.opponent >= 0 and as_game:
            score, vur = seen[rnd.opponent], False
        elif not rr:
            score, vur = _dummy_score(field, own, rnd, seen), rnd.vur
        else:
            continue  # the free round of a round robin has no opponent to count
        # tuple.__new__ rather than _Contribution(...): one Python-level call fewer per
        # player and round (the 2000 x 11 benchmark).
        contributions.append(_new_tuple(_Contribution, (score, score * rnd.points, vur)))
    return contributions


def _cut_lowest(items: list[tuple[int, int, bool]]) -> None:
    """Remove one (score, value, vur) item for Cut-1 (16.5): a VUR first, unless the
    lowest-scoring opponent's value is higher than the lowest VUR value (for Buchholz the
    value is the score, so a VUR always goes first; for SB it is the product). Among equals,
    the first in round order goes."""
    keys = [(score, value) for score, value, _ in items]
    weakest = keys.index(min(keys))
    vurs = [(value, score, k) for k, (score, value, vur) in enumerate(items) if vur]
    if vurs:
        lowest_vur = min(vurs)[2]
        if not items[weakest][1] > items[lowest_vur][1]:
            weakest = lowest_vur
    del items[weakest]


_SCORE = operator.itemgetter(0)  # _Contribution.score
_PRODUCT = operator.itemgetter(1)  # _Contribution.product


def _cut_total(
    contributions: list[_Contribution], modifiers: _Modifiers, rounds: int, sb: bool
) -> int:
    """The sum after /Ck (lowest) and /Mk (lowest and highest) cuts (C.07 Art. 14, 16.5)."""
    low = min(modifiers.cut_low, rounds)
    high = min(modifiers.cut_high, rounds - low)
    if low == high == 0:
        return sum(map(_PRODUCT if sb else _SCORE, contributions))
    items = [(c.score, c.product if sb else c.score, c.vur) for c in contributions]
    for _ in range(low):
        if not items:
            break
        _cut_lowest(items)
    for _ in range(high):
        if not items:
            break
        keys = [(score, value) for score, value, _ in items]
        del items[keys.index(max(keys))]
    return sum(value for _, value, _ in items)


def _buchholz_scaled(field: _Field, modifiers: _Modifiers, sb: bool) -> list[int]:
    contributions = _contributions(field, modifiers.fore)
    return [_cut_total(items, modifiers, field.rounds, sb) for items in contributions]


def _buchholz(field: _Field, modifiers: _Modifiers) -> list[Fraction]:
    """BH (Art. 8.1) with /Ck (Cut) and /Mk (Median), unplayed rounds per Art. 16."""
    return [field.value(v) for v in _buchholz_scaled(field, modifiers, sb=False)]


def _fore_buchholz(field: _Field, modifiers: _Modifiers) -> list[Fraction]:
    """FB (Art. 8.3): Buchholz with every last-round game scored as a draw."""
    fore = _Modifiers(cut_low=modifiers.cut_low, cut_high=modifiers.cut_high, fore=True)
    return [field.value(v) for v in _buchholz_scaled(field, fore, sb=False)]


def _sonneborn_berger(field: _Field, modifiers: _Modifiers) -> list[Fraction]:
    """SB (Art. 9.1): the sum of opponent score x own result; /Ck cuts the product of the
    lowest-scoring opponent (not the smallest product), VURs first (16.5)."""
    return [field.value(v, 2) for v in _buchholz_scaled(field, modifiers, sb=True)]


def _aob_decimals(rounds: int) -> int:
    # FIDE's calculator keeps enough decimals to separate averages of up to this many rounds.
    return 2 if rounds < 9 else 3 if rounds < 27 else 4 if rounds < 73 else 5


def _average_of_buchholz(field: _Field, modifiers: _Modifiers) -> list[Fraction]:
    """AOB (Art. 8.4; /F averages Fore Buchholz, 2026): the average Buchholz of the opponents
    met over the board, rounded half up; 0 for a player who played no game."""
    buchholz = _buchholz_scaled(field, _Modifiers(fore=modifiers.fore), sb=False)
    decimals = _aob_decimals(field.rounds)
    values = []
    for rounds in field.table:
        met = [buchholz[r.opponent] for r in rounds if r.played and r.opponent >= 0]
        average = Fraction(sum(met), len(met) * field.unit) if met else Fraction(0)
        values.append(_quantize_half_up(average, decimals))
    return values


# ---------------------------------------------------------------------------------------------
# Rating tie-breaks (C.07 Art. 10)


def _unrated_rating(options: Mapping[str, object]) -> int | None:
    value = options.get("unrated_rating")
    return None if value is None else int(value)  # type: ignore[call-overload]


def _ratings(field: _Field, options: Mapping[str, object]) -> list[int]:
    """Every player's rating for rating tie-breaks, or RatingTiebreakDropped."""
    unrated = _unrated_rating(options)
    missing = [s for s, rating in zip(field.start_nos, field.ratings, strict=True) if not rating]
    if missing and unrated is None:
        listed = ", ".join(str(s) for s in missing[:10]) + (" ..." if len(missing) > 10 else "")
        raise RatingTiebreakDropped(
            f"rating tie-breaks are dropped: player(s) {listed} are unrated and the regulation "
            "sets no rating for unrated players (C.07 Art. 10)"
        )
    return [rating or unrated or 0 for rating in field.ratings]


@dataclass(frozen=True, slots=True)
class _Performance:
    """The over-the-board opponents that count after cuts: their ratings and the score."""

    ratings: tuple[int, ...]
    halves: int  # score in half points


def _performances(
    field: _Field, modifiers: _Modifiers, options: Mapping[str, object]
) -> list[_Performance]:
    ratings = _ratings(field, options)
    low = min(modifiers.cut_low, field.rounds)
    high = min(modifiers.cut_high, field.rounds - low)
    performances = []
    for rounds in field.table:
        games = sorted(
            (
                (ratings[r.opponent], r.rating_halves)
                for r in rounds
                if r.played and r.opponent >= 0
            ),
            key=lambda game: game[0],
        )
        # Cuts remove the lowest- and highest-rated opponents (Art. 14, ARO/C1, ARO/M1).
        games = games[low : max(low, len(games) - high)]
        performances.append(
            _Performance(tuple(rating for rating, _ in games), sum(h for _, h in games))
        )
    return performances


def average_rating(ratings: Sequence[int]) -> int:
    """The average of ratings rounded half up to a whole number: ARO (C.07 10.1), the
    average of a norm's opponents (B.01 1.4.7). ``ratings`` must not be empty."""
    return _half_up(sum(ratings), len(ratings))


def percentage_score(halves: int, games: int) -> int:
    """A score (in half points) over ``games`` games as a whole percentage, 0.5 % rounded up
    (B.01 1.4.9, C.07 10.2): the row of table 8.1.1 (B.02) to read dp from."""
    return _half_up(halves * 50, games)


def performance_rating(ratings: Sequence[int], halves: int) -> int | None:
    """TPR (C.07 10.2) and the performance of B.02 and B.01 1.4.8: Ra + dp(p), Ra the
    opponents' average rounded half up, p the percentage score rounded half up (B.02 table
    8.1.1); None without a game. The one implementation: the rating report
    (``fiderating``) and the tie-break call this."""
    if not ratings:
        return None
    return average_rating(ratings) + rating_difference_for(percentage_score(halves, len(ratings)))


def _tournament_performance(performance: _Performance) -> int | None:
    """TPR (10.2): ARO + dp(p), p the percentage score rounded half up (B.02 8.1(a))."""
    return performance_rating(performance.ratings, performance.halves)


def _expected_percent_total(rating: int, opponents: tuple[int, ...]) -> int:
    total = 0
    for opponent in opponents:
        chance = expected_percent(rating - opponent)
        total += chance if rating >= opponent else 100 - chance
    return total


def _perfect_performance(performance: _Performance) -> int | None:
    """PTP (10.3): the lowest rating whose expected score (B.02 8.1(b)) reaches the score;
    a zero score gives the lowest opponent rating - 800."""
    opponents = performance.ratings
    if not opponents:
        return None
    if performance.halves == 0:
        return min(opponents) - 800
    target = performance.halves * 50  # the score in percent points
    if target > 100 * len(opponents):
        return max(opponents) + 800
    low, high = min(opponents) - 800, max(opponents) + 800  # expected 0 and all wins
    while high - low > 1:
        middle = (low + high) // 2
        if _expected_percent_total(middle, opponents) >= target:
            high = middle
        else:
            low = middle
    return high


def _rating_values(field: _Field, spec_key: str, values: list[int | None]) -> list[Fraction]:
    # No over-the-board game means no value; 0 ranks such a player last, as FIDE's calculator
    # does with its empty value.
    return [Fraction(v) if v is not None else Fraction(0) for v in values]


def _aro(field: _Field, modifiers: _Modifiers, options: Mapping[str, object]) -> list[Fraction]:
    """ARO (10.1): average rating of the opponents met over the board, rounded half up."""
    values = [
        average_rating(p.ratings) if p.ratings else None
        for p in _performances(field, modifiers, options)
    ]
    return _rating_values(field, "ARO", values)


def _tpr(field: _Field, modifiers: _Modifiers, options: Mapping[str, object]) -> list[Fraction]:
    values = [_tournament_performance(p) for p in _performances(field, modifiers, options)]
    return _rating_values(field, "TPR", values)


def _ptp(field: _Field, modifiers: _Modifiers, options: Mapping[str, object]) -> list[Fraction]:
    values = [_perfect_performance(p) for p in _performances(field, modifiers, options)]
    return _rating_values(field, "PTP", values)


def _opponent_average(field: _Field, values: list[int | None]) -> list[Fraction]:
    """The average of a value over the opponents met over the board, rounded half up."""
    averages = []
    for rounds in field.table:
        met = [values[r.opponent] for r in rounds if r.played and r.opponent >= 0]
        known = [v for v in met if v is not None]
        averages.append(Fraction(_half_up(sum(known), len(known))) if known else Fraction(0))
    return averages


def _apro(field: _Field, modifiers: _Modifiers, options: Mapping[str, object]) -> list[Fraction]:
    """APRO (10.4): the average of the opponents' TPRs."""
    performances = _performances(field, modifiers, options)
    return _opponent_average(field, [_tournament_performance(p) for p in performances])


def _appo(field: _Field, modifiers: _Modifiers, options: Mapping[str, object]) -> list[Fraction]:
    """APPO (10.5): the average of the opponents' PTPs."""
    performances = _performances(field, modifiers, options)
    return _opponent_average(field, [_perfect_performance(p) for p in performances])


def _rtng(field: _Field, modifiers: _Modifiers, options: Mapping[str, object]) -> list[Fraction]:
    """RTNG (2026): the player's own rating (the regulation's rating for unrated players)."""
    return [Fraction(rating) for rating in _ratings(field, options)]


# ---------------------------------------------------------------------------------------------
# Direct encounter (C.07 Art. 6)


@dataclass(frozen=True, slots=True)
class _Encounters:
    score: Fraction  # sum over tied opponents met of the average result against them
    best: Fraction  # the score if every tied opponent not met yet were beaten
    met_all: bool


def _encounters(field: _Field, i: int, group: frozenset[int], forfeits_count: bool) -> _Encounters:
    results: dict[int, list[int]] = {}
    for rnd in field.table[i]:
        counts = rnd.played or field.rr or forfeits_count
        if rnd.opponent >= 0 and counts and rnd.opponent in group:
            results.setdefault(rnd.opponent, []).append(rnd.points)
    # Repeated games against one opponent are averaged (6.1).
    score = sum((Fraction(sum(r), len(r) * field.unit) for r in results.values()), Fraction(0))
    missing = len(group) - 1 - len(results)
    best = score + missing * field.value(field.win)
    return _Encounters(score, best, missing == 0)


def _direct_encounter(request: TiebreakRequest) -> dict[int, TiebreakValue]:
    """DE (Art. 6) for one tied group: each player's score against the others in the group.

    Forfeited games are left out unless /P (in a round robin every pairing counts, 15.2). In a
    Swiss where not everyone in the group has met, a player is placed only if no result of the
    missing games could change it: walking down the group by score, a player is placed above
    the rest only while their score exceeds the best the rest could still reach; from the
    first player for whom that fails, everyone left is tied. Encoding: placed players get their
    DE score, the unplaced remainder all get the highest score among them, which is below
    every placed player's score (so the ranking engine sees a tie and recurses on it).
    """
    field = _field(request.crosstable, request.edition)
    modifiers = _read_modifiers(request.spec)
    members = sorted(field.index[s] for s in request.group)
    group = frozenset(members)
    encounters = {i: _encounters(field, i, group, modifiers.forfeits_count) for i in members}
    if field.rr or all(e.met_all for e in encounters.values()):
        return {field.start_nos[i]: encounters[i].score for i in members}
    order = sorted(
        members, key=lambda i: (-encounters[i].score, -encounters[i].best, field.start_nos[i])
    )
    values: dict[int, TiebreakValue] = {}
    best_below = _suffix_maxima([encounters[i].best for i in order])
    for position, i in enumerate(order):
        if position + 1 < len(order) and encounters[i].score > best_below[position + 1]:
            values[field.start_nos[i]] = encounters[i].score
            continue
        # Nobody from here down can be placed yet: they share the first one's score.
        for j in order[position:]:
            values[field.start_nos[j]] = encounters[i].score
        break
    return values


def _suffix_maxima(values: list[Fraction]) -> list[Fraction]:
    maxima = list(values)
    for k in range(len(maxima) - 2, -1, -1):
        maxima[k] = max(maxima[k], maxima[k + 1])
    return maxima


# ---------------------------------------------------------------------------------------------
# Registration

_Plain = Callable[[_Field, _Modifiers], list[Fraction]]
_Rated = Callable[[_Field, _Modifiers, Mapping[str, object]], list[Fraction]]


def _field_values(
    field: _Field, spec: TiebreakSpec, options: Mapping[str, object]
) -> list[Fraction]:
    """Every player's value of a group-independent code, cached per field and code."""
    key = ("values", spec.code, _unrated_rating(options) if spec.base in RATING_CODES else None)
    cached = field.cache.get(key)
    if cached is None:
        modifiers = _read_modifiers(spec)
        if spec.base in _RATED:
            cached = _RATED[spec.base](field, modifiers, options)
        else:
            cached = _PLAIN[spec.base](field, modifiers)
        if modifiers.reverse:
            cached = [-value for value in cached]
        field.cache[key] = cached
    return cached  # type: ignore[return-value]


def _compute(request: TiebreakRequest) -> dict[int, TiebreakValue]:
    field = _field(request.crosstable, request.edition)
    values = _field_values(field, request.spec, request.options)
    if len(request.group) == len(values):
        return dict(zip(field.start_nos, values, strict=True))
    return {s: values[field.index[s]] for s in request.group}


_PLAIN: dict[str, _Plain] = {
    "PTS": _points,
    "WIN": _wins,
    "WON": _won,
    "BPG": _black_played,
    "BWG": _black_won,
    "REP": _elected_to_play,
    "STD": _standard_points,
    "TPN": _start_number,
    "PS": _progressive,
    "KS": _koya,
    "BH": _buchholz,
    "FB": _fore_buchholz,
    "SB": _sonneborn_berger,
    "AOB": _average_of_buchholz,
}
_RATED: dict[str, _Rated] = {
    "ARO": _aro,
    "TPR": _tpr,
    "PTP": _ptp,
    "APRO": _apro,
    "APPO": _appo,
    "RTNG": _rtng,
}


def _no_modifiers(modifier: str) -> bool:
    return False


def _cuts(modifier: str) -> bool:
    return _cut_modifier(modifier, median=False)


def _cuts_and_medians(modifier: str) -> bool:
    return _cut_modifier(modifier, median=True)


def _reverse(modifier: str) -> bool:
    return modifier == "R"


def _koya_limit(modifier: str) -> bool:
    return bool(_LIMIT.fullmatch(modifier))


@dataclass(frozen=True, slots=True)
class _Entry:
    base: str
    name: str
    accepts: Callable[[str], bool]
    higher_is_better: bool = True


_ENTRIES = (
    _Entry("PTS", "Points", _no_modifiers),
    _Entry("WIN", "Number of wins", _no_modifiers),
    _Entry("WON", "Number of games won", _no_modifiers),
    _Entry("BPG", "Number of games played with black", _no_modifiers),
    _Entry("BWG", "Number of games won with black", _no_modifiers),
    _Entry("REP", "Rounds one elected to play", _no_modifiers),
    _Entry("STD", "Standard points (1 / ½ / 0)", _no_modifiers),
    _Entry("TPN", "Tournament pairing number", _reverse, higher_is_better=False),
    _Entry("PS", "Progressive scores", _cuts),
    _Entry("KS", "Koya system", _koya_limit),
    _Entry("BH", "Buchholz", _cuts_and_medians),
    _Entry("FB", "Fore Buchholz", _cuts_and_medians),
    _Entry("SB", "Sonneborn-Berger", _cuts),
    _Entry("AOB", "Average of opponents' Buchholz", lambda m: m == "F"),
    _Entry("ARO", "Average rating of opponents", _cuts_and_medians),
    _Entry("TPR", "Tournament performance rating", _no_modifiers),
    _Entry("PTP", "Perfect tournament performance", _no_modifiers),
    _Entry("APRO", "Average performance rating of opponents", _no_modifiers),
    _Entry("APPO", "Average perfect performance of opponents", _no_modifiers),
    _Entry("RTNG", "Rating", _reverse),
)


def _register_all() -> None:
    for entry in _ENTRIES:
        if entry.base in REGISTRY:
            continue  # a re-import (e.g. importlib.reload) keeps the first registration
        function = _PLAIN.get(entry.base) or _RATED.get(entry.base)
        register(
            TiebreakDefinition(
                base=entry.base,
                name=entry.name,
                compute=_compute,
                higher_is_better=entry.higher_is_better,
                allowed_modifiers=entry.accepts,
                description=(function.__doc__ or "").strip().split("\n\n")[0],
            )
        )
    if "DE" not in REGISTRY:
        register(
            TiebreakDefinition(
                base="DE",
                name="Direct encounter",
                compute=_direct_encounter,
                group_dependent=True,
                allowed_modifiers=lambda m: m == "P",
                description="Score against the other tied players (C.07 Art. 6).",
            )
        )


_register_all()


# ---------------------------------------------------------------------------------------------
# Public API


def _as_spec(spec: TiebreakSpec | str) -> TiebreakSpec:
    return parse_code(spec) if isinstance(spec, str) else spec


def check_allowed(
    spec: TiebreakSpec | str,
    *,
    round_robin: bool,
    edition: str,
    crosstable: Crosstable | None = None,
    options: Mapping[str, object] | None = None,
) -> None:
    """Raise :class:`TiebreakNotAllowed` when C.07 forbids ``spec`` here.

    * the Buchholz family (BH, FB, AOB) in a round robin under the 2026 edition;
    * STD, TPN, RTNG and AOB/F, which only the 2026 edition defines, under the 2024 edition;
    * given a ``crosstable``: rating tie-breaks when an unrated player is present and
      ``options`` sets no ``unrated_rating`` (:class:`RatingTiebreakDropped`).
    """
    spec = _as_spec(spec)
    if edition not in EDITIONS:
        raise ValueError(f"unknown C.07 edition {edition!r}; use one of {EDITIONS}")
    if round_robin and edition == "2026" and spec.base in BUCHHOLZ_FAMILY:
        raise TiebreakNotAllowed(
            f"{spec.code} is not allowed in a round robin under the 2026 tie-break rules: "
            "C.07 (2026) forbids the Buchholz family there"
        )
    if edition == "2024" and (spec.base in NEW_IN_2026 or (spec.base == "AOB" and spec.modifiers)):
        raise TiebreakNotAllowed(
            f"{spec.code} exists only in the 2026 edition of the FIDE tie-break rules (C.07); "
            "choose the 2026 edition or another tie-break"
        )
    if crosstable is not None and spec.base in RATING_CODES:
        _ratings(_field(crosstable, edition), options or {})


def compute_all(
    crosstable: Crosstable,
    specs: Iterable[TiebreakSpec | str],
    edition: str,
    options: Mapping[str, object] | None = None,
) -> dict[str, dict[int, TiebreakValue]]:
    """Values of every group-independent code for the whole field: ``{code: {start_no: v}}``.

    Group-dependent codes (DE) are left out: they depend on the tied group, which only the
    ranking engine knows. Rating codes that are dropped because of unrated players raise
    :class:`RatingTiebreakDropped`; call :func:`check_allowed` with the crosstable first to
    filter them. One precomputation serves every code.
    """
    options = options or {}
    field = _field(crosstable, edition)
    result: dict[str, dict[int, TiebreakValue]] = {}
    for item in specs:
        spec = _as_spec(item)
        if REGISTRY[spec.base].group_dependent:
            continue
        values = _field_values(field, spec, options)
        result[spec.code] = dict(zip(field.start_nos, values, strict=True))
    return result


def compute(
    crosstable: Crosstable,
    spec: TiebreakSpec | str,
    edition: str,
    group: Iterable[int] | None = None,
    options: Mapping[str, object] | None = None,
) -> dict[int, TiebreakValue]:
    """Convenience: one code for ``group`` (default: the whole field), via the registry."""
    spec = _as_spec(spec)
    field = _field(crosstable, edition)
    members = frozenset(field.start_nos if group is None else group)
    points = dict(zip(field.start_nos, (field.value(p) for p in field.points), strict=True))
    request = TiebreakRequest(
        crosstable=crosstable,
        spec=spec,
        edition=edition,
        points=points,
        group=members,
        options=options or {},
    )
    return dict(REGISTRY[spec.base].compute(request))


__all__ = [
    "BUCHHOLZ_FAMILY",
    "EDITIONS",
    "RATING_CODES",
    "RatingTiebreakDropped",
    "TiebreakNotAllowed",
    "UnknownTiebreak",
    "average_rating",
    "check_allowed",
    "compute",
    "compute_all",
    "edition_for",
    "expected_percent",
    "percentage_score",
    "performance_rating",
    "rating_difference_for",
]
