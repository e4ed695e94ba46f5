"""FIDE C.07 team tie-breaks (2024 and 2026 editions, arts. 11-16) as a pure engine.

``team_standings(event, codes, after_round=..., edition=...)`` ranks the teams by the codes in
order, as FIDE's reference engine gacrux 1.11.65 does (``docs/teams.md`` lists each reading):
every code is computed for every team, then the teams still tied on everything before it are
ordered by it. Values are exact :class:`~fractions.Fraction` (SSSC is rounded half up to two
decimals, as gacrux prints it).

Codes (a registry, :data:`REGISTRY`), TRF-2026 notation, ``:MP`` / ``:GP`` choosing the score
an individual tie-break is computed on (default: the primary score, C.07 11.3), modifiers
``/Cn`` (cut the n lowest), ``/Mn`` (median), ``/V1`` / ``/V2`` (the 2024 or 2026 edition):

* ``MP``, ``GP`` (art. 11: match points, game points), ``PTS`` (the primary score, with the
  standings-only adjustments), ``MPVGP`` (art. 12.1: the other score, MP when GP is primary
  and GP when MP is);
* ``EMMSB``, ``EMGSB``, ``EGMSB``, ``EGGSB`` (art. 12.2, extended Sonneborn-Berger: the first
  letter is the opponents' score, the second this team's result in the match) with ``/C1``;
* ``BC`` (art. 13.1 board count: the sum of board number times the game points scored on that
  board, lower is better), ``TBR`` (13.2 top board result: board 1's points, then board 2's,
  ...), ``BBE`` (13.3 bottom board elimination: boards 1..B-1, then 1..B-2, ...);
* ``EDE`` (art. 14 extended direct encounter: primary, then secondary score among the tied
  teams, recursively), ``EDET`` / ``EDEB`` (then, for two teams, TBR / BBE on their matches),
  ``EDEBT`` / ``EDEBB`` (then board count, then TBR / BBE); EDE, TBR and BBE are *ranks
  inside the tie* (1, 2, ...; 0 when the tie stays or there was none), lower is better;
* ``SSSC`` (art. 15 score-strength combination: the secondary score plus Buchholz divided by
  the divisor of 15.2);
* ``BH``, ``SB`` (with ``:MP`` / ``:GP``, ``/C1``, ``/M1``...), ``PS``: the individual
  tie-breaks on a team score, with art. 16's unplayed rounds;
* ``WIN`` (art. 7.1: wins, a bye or a forfeit that scored a win's points included) and ``WON``
  (7.2: over the board), counted as gacrux counts them: matches on ``:MP``, boards on ``:GP``.

Art. 16, as for individuals (``standings/tiebreaks.py``) with "points" meaning the score the
tie-break is computed on: a voluntary unplayed round (VUR) is a forfeit loss, a requested
half- or zero-point bye or an absence; seen from the opponents, a team's unplayed rounds after
its last round that was not a VUR count as a draw (a drawn match's points: the draw's match
points, or half the boards' game points); for the team's own Buchholz each unplayed round is
a dummy opponent with the team's own score, capped in the 2026 edition at the forfeiting
opponent's score (16.4.1) or at a draw's points times the rounds (16.4.2); a cut removes a
VUR first.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from formats.teams import records as r
from formats.teams import scoring as s

# The edition rule is the individual engine's (by the start date; the 2026 text without one).
from standings.tiebreaks import EDITION_2026_START, EDITIONS, edition_for  # noqa: F401

_CODE = re.compile(r"^(?P<name>[A-Z]+)(?::(?P<score>MP|GP))?(?P<modifiers>(?:/[A-Z][0-9]*)*)$")
MAX_CODES = 20


class TeamTiebreakError(ValueError):
    """A tie-break list that cannot be computed: one line for the user."""


@dataclass(frozen=True, slots=True)
class TeamTiebreak:
    """A registered team tie-break: its code, what it is, and whether higher is better."""

    code: str
    description: str
    higher_is_better: bool
    article: str


REGISTRY: dict[str, TeamTiebreak] = {
    entry.code: entry
    for entry in (
        TeamTiebreak("PTS", "primary score", True, "C.07 11"),
        TeamTiebreak("MP", "match points", True, "C.07 11.2"),
        TeamTiebreak("GP", "game points", True, "C.07 11.1"),
        TeamTiebreak("MPVGP", "the score that is not primary", True, "C.07 12.1"),
        TeamTiebreak("EMMSB", "extended SB: opponents' MP x own MP", True, "C.07 12.2"),
        TeamTiebreak("EMGSB", "extended SB: opponents' MP x own GP", True, "C.07 12.2"),
        TeamTiebreak("EGMSB", "extended SB: opponents' GP x own MP", True, "C.07 12.2"),
        TeamTiebreak("EGGSB", "extended SB: opponents' GP x own GP", True, "C.07 12.2"),
        TeamTiebreak("BC", "board count", False, "C.07 13.1"),
        TeamTiebreak("TBR", "top board result", False, "C.07 13.2"),
        TeamTiebreak("BBE", "bottom board elimination", False, "C.07 13.3"),
        TeamTiebreak("EDE", "extended direct encounter", False, "C.07 14"),
        TeamTiebreak("EDET", "extended direct encounter, then TBR", False, "C.07 14"),
        TeamTiebreak("EDEB", "extended direct encounter, then BBE", False, "C.07 14"),
        TeamTiebreak("EDEBT", "extended direct encounter, BC, then TBR", False, "C.07 14"),
        TeamTiebreak("EDEBB", "extended direct encounter, BC, then BBE", False, "C.07 14"),
        TeamTiebreak("SSSC", "score-strength combination", True, "C.07 15"),
        TeamTiebreak("BH", "Buchholz", True, "C.07 8.1, 16"),
        TeamTiebreak("SB", "Sonneborn-Berger", True, "C.07 9.1, 16"),
        TeamTiebreak("PS", "progressive score", True, "C.07 7.5"),
        TeamTiebreak(
            "WIN", "wins (byes and forfeits that scored a win included)", True, "C.07 7.1"
        ),
        TeamTiebreak("WON", "wins over the board", True, "C.07 7.2"),
    )
}

# Presets: common lists, by name.
PRESETS: dict[str, tuple[str, ...]] = {
    "olympiad": ("MP", "SSSC", "GP", "BC"),
    "team-swiss-mp": ("MP", "GP", "EDE", "EMGSB/C1", "BH:MP/C1", "BC"),
    "team-swiss-gp": ("GP", "MP", "EDE", "EGGSB/C1", "BH:GP/C1", "BC"),
    "team-round-robin": ("MP", "GP", "EDE", "EMGSB", "BC"),
}

# Codes whose value is a rank inside the tie the codes before them left (C.07 13.2, 13.3, 14).
RANKS_INSIDE_THE_TIE = frozenset({"EDE", "EDET", "EDEB", "EDEBT", "EDEBB", "TBR", "BBE"})
_SB_FAMILY = {
    "EMMSB": ("MP", "MP"),
    "EMGSB": ("MP", "GP"),
    "EGMSB": ("GP", "MP"),
    "EGGSB": ("GP", "GP"),
}


@dataclass(frozen=True, slots=True)
class TiebreakCode:
    """A parsed code: the name, the score it is on (None: primary), its modifiers."""

    text: str
    name: str
    score: str | None
    cut_low: int = 0
    cut_high: int = 0
    edition: str | None = None
    divisor: int = 0  # SSSC /K: a fixed divisor


@dataclass
class _Modifiers:
    low: int = 0
    high: int = 0
    edition: str | None = None
    divisor: int = 0


def _modifier(text: str, modifier: str, parts: _Modifiers) -> None:
    """One modifier into ``parts``: ``/Cn`` cut, ``/Mn`` median, ``/V1``/``/V2`` edition,
    ``/Kn`` SSSC's divisor; anything else is refused."""
    letter, number = modifier[0], modifier[1:]
    value = int(number) if number.isdigit() else -1
    if letter in "CM" and 0 <= value <= r.MAX_ROUNDS:
        parts.low = value
        parts.high = value if letter == "M" else parts.high
    elif letter == "V" and number in ("1", "2"):
        parts.edition = "2024" if number == "1" else "2026"
    elif letter == "K" and 0 < value <= 10_000:
        parts.divisor = value
    else:
        raise TeamTiebreakError(f"{text}: unknown modifier /{modifier}")


def parse_code(text: str) -> TiebreakCode:
    """``BH:MP/C1`` -> its parts, or :class:`TeamTiebreakError`."""
    upper = text.strip().upper()
    match = _CODE.match(upper) if len(upper) <= 30 else None
    if match is None or match["name"] not in REGISTRY:
        raise TeamTiebreakError(
            f"unknown team tie-break {text[:30]!r}; known: {', '.join(REGISTRY)}"
        )
    parts = _Modifiers()
    for modifier in filter(None, match["modifiers"].split("/")):
        _modifier(text, modifier, parts)
    return TiebreakCode(
        upper, match["name"], match["score"], parts.low, parts.high, parts.edition, parts.divisor
    )


@dataclass(frozen=True, slots=True)
class TeamStandingRow:
    team: int
    rank: int
    values: tuple[Fraction | None, ...]


@dataclass(frozen=True, slots=True)
class TeamStandings:
    after_round: int
    codes: tuple[str, ...]
    edition: str
    rows: tuple[TeamStandingRow, ...]  # in ranking order, then by TPN

    def value(self, team: int, code: str) -> Fraction | None:
        index = self.codes.index(code)
        return next(row.values[index] for row in self.rows if row.team == team)


# -- the field: every team's rounds and scores -------------------------------------------------


@dataclass
class _Field:
    event: r.TeamEvent
    rounds: int
    edition: str
    teams: list[int]
    played: dict[int, tuple[s.TeamRound, ...]]
    totals: dict[int, dict[str, Fraction]]  # team -> MP/GP with the pairing adjustments
    finals: dict[int, dict[str, Fraction]]  # the standings-only adjustments
    max_board: int
    rank: dict[int, int] = field(default_factory=dict)
    order: list[int] = field(default_factory=list)

    def points(self, one: s.TeamRound, score: str) -> Fraction:
        return one.match_points if score == "MP" else one.game_points

    def draw(self, score: str) -> Fraction:
        """A drawn match's points (C.07 16.3, C.04.6 1.4)."""
        scoring = self.event.scoring
        return scoring.match_draw if score == "MP" else scoring.game_draw * self.event.boards

    def win(self, score: str) -> Fraction:
        scoring = self.event.scoring
        return scoring.match_win if score == "MP" else scoring.game_win

    @property
    def primary(self) -> str:
        return self.event.scoring.primary

    @property
    def secondary(self) -> str:
        return "GP" if self.primary == "MP" else "MP"


def _field(event: r.TeamEvent, after_round: int, edition: str) -> _Field:
    played = s.team_rounds(event, after_round)
    scores = s.scores(event, after_round, played)
    finals = s.adjustments(event, after_round, final=True)
    boards = [g.board for m in event.matches if m.round <= after_round for g in m.boards]
    teams = sorted(played)
    return _Field(
        event=event,
        rounds=after_round,
        edition=edition,
        teams=teams,
        played=played,
        totals={t: {"MP": scores[t].match_points, "GP": scores[t].game_points} for t in teams},
        finals={t: {"MP": finals[t].match_points, "GP": finals[t].game_points} for t in teams},
        max_board=max(boards, default=0),
        rank=dict.fromkeys(teams, 1),
        order=list(teams),
    )


# -- art. 16: the adjusted score seen from the opponents, the dummy opponent ------------------


def _last_not_voluntary(rounds: Sequence[s.TeamRound]) -> int:
    return max((one.round for one in rounds if not one.voluntary_unplayed), default=0)


@dataclass(frozen=True, slots=True)
class _Scaled:
    """One score (MP or GP) as integers: every value times ``scale``, the least common
    denominator of the event's values, so that Buchholz and Sonneborn-Berger sums run on
    integers (exact, and several times faster than on fractions)."""

    scale: int
    rounds: dict[int, list[int]]  # team -> the round's points, rounds 1..R
    totals: dict[int, int]  # team -> the score with the adjustments that count for tie-breaks
    draw: int


def _scaled(f: _Field, score: str) -> _Scaled:
    values = {t: [f.points(one, score) for one in f.played[t]] for t in f.teams}
    every = [v for team in values.values() for v in team]
    every += [f.totals[t][score] for t in f.teams] + [f.draw(score)]
    scale = math.lcm(*(value.denominator for value in every)) if every else 1
    return _Scaled(
        scale=scale,
        rounds={t: [int(v * scale) for v in team] for t, team in values.items()},
        totals={t: int(f.totals[t][score] * scale) for t in f.teams},
        draw=int(f.draw(score) * scale),
    )


def _adjusted(f: _Field, team: int, scaled: _Scaled) -> int:
    """C.07 16.3: the team's score as its opponents' Buchholz sees it: its unplayed rounds
    after its last non-VUR round count as a draw (in a round robin, as nothing)."""
    rounds = f.played[team]
    last = _last_not_voluntary(rounds)
    unplayed = 0 if f.event.round_robin else scaled.draw
    points = scaled.rounds[team]
    return sum(
        points[i] if one.round <= last or one.has_opponent else unplayed
        for i, one in enumerate(rounds)
    )


@dataclass(frozen=True, slots=True)
class _Item:
    voluntary: bool
    value: int
    score: int


def _cut(items: list[_Item], low: int, high: int, rounds: int) -> list[_Item]:
    """C.07 art. 16.5: cut the lowest contribution, a VUR's first when it is not higher."""
    low = min(low, rounds)
    high = min(high, rounds - low)
    for _ in range(low):
        if not items:
            break
        lowest = sorted(items, key=lambda i: (i.score, i.value))[0]
        voluntary = sorted(items, key=lambda i: (-i.voluntary, i.value, i.score))[0]
        chosen = lowest if not voluntary.voluntary or lowest.value > voluntary.value else voluntary
        items.remove(chosen)
    for _ in range(high):
        if not items:
            break
        items.remove(sorted(items, key=lambda i: (-i.score, -i.value))[0])
    return items


def _opponent_sum(
    f: _Field, code: TiebreakCode, opponent_score: str, own_score: str | None
) -> dict[int, Fraction]:
    """Buchholz (``own_score`` None) or Sonneborn-Berger on the given scores (C.07 8, 9, 12.2,
    16.4)."""
    scaled = _scaled(f, opponent_score)
    own_scaled = _scaled(f, own_score) if own_score else scaled
    adjusted = {team: _adjusted(f, team, scaled) for team in f.teams}
    edition = code.edition or f.edition
    divisor = scaled.scale * (own_scaled.scale if own_score else 1)
    values = {}
    for team in f.teams:
        own = scaled.totals[team]
        results = own_scaled.rounds[team]
        items = []
        for i, one in enumerate(f.played[team]):
            if (one.played or f.event.round_robin) and one.opponent is not None:
                score, voluntary = adjusted[one.opponent], False
            elif not f.event.round_robin:
                score, voluntary = own, one.voluntary_unplayed
                if edition == "2026":  # 16.4.1 and 16.4.2
                    cap = scaled.draw * f.rounds if one.opponent is None else adjusted[one.opponent]
                    score = min(score, cap)
            else:
                continue
            value = score * results[i] if own_score else score
            items.append(_Item(voluntary, value, score))
        kept = _cut(items, code.cut_low, code.cut_high, f.rounds)
        values[team] = Fraction(sum(item.value for item in kept), divisor)
    return values


# -- the computations --------------------------------------------------------------------------


def _score_of(f: _Field, code: TiebreakCode) -> str:
    return code.score or f.primary


def _pts(f: _Field, code: TiebreakCode) -> dict[int, Fraction | None]:
    score = _score_of(f, code)
    return {t: f.totals[t][score] + f.finals[t][score] for t in f.teams}


def _fixed(score: str) -> Callable[[_Field, TiebreakCode], dict[int, Fraction | None]]:
    """MP and GP (C.07 11): the total, standings-only adjustments included (as PTS)."""

    def compute(f: _Field, code: TiebreakCode) -> dict[int, Fraction | None]:
        return {t: f.totals[t][score] + f.finals[t][score] for t in f.teams}

    return compute


def _other(f: _Field, code: TiebreakCode) -> dict[int, Fraction | None]:
    return {t: f.totals[t][f.secondary] for t in f.teams}


def _extended_sb(f: _Field, code: TiebreakCode) -> dict[int, Fraction | None]:
    opponents, own = _SB_FAMILY[code.name]
    return dict(_opponent_sum(f, code, opponents, own))


def _buchholz(f: _Field, code: TiebreakCode) -> dict[int, Fraction | None]:
    return dict(_opponent_sum(f, code, _score_of(f, code), None))


def _sonneborn_berger(f: _Field, code: TiebreakCode) -> dict[int, Fraction | None]:
    score = _score_of(f, code)
    return dict(_opponent_sum(f, code, score, score))


def _progressive(f: _Field, code: TiebreakCode) -> dict[int, Fraction | None]:
    score = _score_of(f, code)
    values: dict[int, Fraction | None] = {}
    for team in f.teams:
        running, total = Fraction(0), Fraction(0)
        for one in f.played[team]:
            running += f.points(one, score)
            if one.round > code.cut_low:
                total += running
        values[team] = total
    return values


def _board_totals(f: _Field, team: int) -> list[Fraction]:
    totals = [Fraction(0)] * max(f.event.boards, f.max_board)
    for one in f.played[team]:
        for board, points in enumerate(one.boards):
            totals[board] += points
    return totals


def _board_count(f: _Field, code: TiebreakCode) -> dict[int, Fraction | None]:
    return {
        t: sum((b * p for b, p in enumerate(_board_totals(f, t), start=1)), Fraction(0))
        for t in f.teams
    }


def _round_wins(f: _Field, one: s.TeamRound, score: str, over_the_board: bool) -> int:
    """A round's wins as gacrux counts them. On match points: the match, when it scored a
    win's match points (WON: a match played). On game points: each board that scored a
    game's win; a round without a played match counts its result on every board (the
    pairing-allocated bye as a win on each, ``scoring.TeamRound.boards``), and has no board
    won over the board."""
    scoring = f.event.scoring
    if score == "MP":
        won = one.match_points == scoring.match_win
        return int(won and (one.played or not over_the_board))
    if one.played:
        return sum(
            points == scoring.game_win and (board in one.played_boards or not over_the_board)
            for board, points in one.games
        )
    if over_the_board:
        return 0
    return sum(points == scoring.game_win for points in one.boards)


def _wins(f: _Field, code: TiebreakCode) -> dict[int, Fraction | None]:
    """C.07 7.1 WIN (byes and forfeit wins that scored a win count) and 7.2 WON (over the board
    only), counted on the code's score: matches on MP, boards on GP."""
    score = _score_of(f, code)
    over_the_board = code.name == "WON"
    return {
        team: Fraction(sum(_round_wins(f, one, score, over_the_board) for one in f.played[team]))
        for team in f.teams
    }


def _sssc(f: _Field, code: TiebreakCode) -> dict[int, Fraction | None]:
    """C.07 15 as gacrux computes it: the secondary score plus the primary-score Buchholz
    divided by floor(MP of a win x rounds / (GP of a win x boards)) (MP primary), or by
    floor(GP of a win x rounds x boards / MP of a win) (GP primary); rounded to 0.01."""
    buchholz = _opponent_sum(
        f, TiebreakCode("BH", "BH", None, edition=code.edition), f.primary, None
    )
    scoring = f.event.scoring
    if code.divisor:
        divisor = code.divisor
    elif f.primary == "MP":
        divisor = math.floor(scoring.match_win * f.rounds / scoring.game_win / max(f.max_board, 1))
    else:
        divisor = math.floor(scoring.game_win * f.rounds * f.max_board / scoring.match_win)
    if divisor <= 0:
        raise TeamTiebreakError(
            f"SSSC after round {f.rounds}: its divisor is 0 (C.07 15.2); give one with /K"
        )
    values: dict[int, Fraction | None] = {}
    for team in f.teams:
        exact = f.totals[team][f.secondary] + buchholz[team] / divisor
        rounded = Decimal(exact.numerator) / Decimal(exact.denominator)
        values[team] = Fraction(rounded.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))
    return values


# -- ranks inside a tie: EDE, TBR, BBE (C.07 13.2, 13.3, 14) ------------------------------------


@dataclass
class _Tie:
    """The state of a rank-inside-the-tie computation, as gacrux runs it."""

    value: dict[int, int]
    more: dict[int, bool]
    functions: str = ""
    swap: int = 0
    changed: list[bool] = field(default_factory=list)
    changes: int = 0
    loop: int = 0


def _groups(order: list[int], key: Callable[[int], int]) -> list[list[int]]:
    groups: list[list[int]] = []
    for team in order:
        if groups and key(groups[-1][0]) == key(team):
            groups[-1].append(team)
        else:
            groups.append([team])
    return groups


def _recursive(
    f: _Field, tie: _Tie, run: Callable[[_Tie, list[int], int], bool]
) -> dict[int, Fraction | None]:
    """gacrux's compute_recursive_if_tied: run on every group still tied until none moves,
    then each group of the earlier ranking gets its ranks from 1 (0 when it did not split)."""
    order = sorted(f.teams, key=lambda t: (f.rank[t], t))
    more = run(tie, order, 0)
    loop = 0
    while more:
        more = False
        loop += 1
        for group in _groups(order, lambda t: tie.value[t]):
            if not tie.more[group[0]]:
                continue
            if len(group) == 1:
                tie.more[group[0]] = False
                continue
            again = run(tie, group, loop)
            for team in group:
                tie.more[team] = again
            more = more or again
        more = run(tie, [], loop) or more
        order = sorted(order, key=lambda t: (f.rank[t], tie.value[t], t))
    values: dict[int, Fraction | None] = {}
    for group in _groups(order, lambda t: f.rank[t]):
        first, last = tie.value[group[0]], tie.value[group[-1]]
        offset = first - (1 if first != last else 0)
        for team in group:
            values[team] = Fraction(tie.value[team] - offset)
    return values


def _rank_within(tie: _Tie, group: list[int], key: Callable[[int], tuple[Fraction, ...]]) -> None:
    ordered = sorted(group, key=lambda t: (key(t), t))
    start = tie.value[group[0]]
    current = start
    for position, team in enumerate(ordered):
        if key(team) != key(ordered[position - 1]):
            current = start + position
        tie.value[team] = current


def _boards(f: _Field, code: TiebreakCode) -> dict[int, Fraction | None]:
    """TBR and BBE (C.07 13.2, 13.3): board 1, board 2, ... (TBR) or boards 1..B-1, 1..B-2,
    ... (BBE) compared in turn inside each tie."""
    totals = {t: _board_totals(f, t) for t in f.teams}
    tie = _Tie(value={t: f.rank[t] for t in f.teams}, more=dict.fromkeys(f.teams, True))

    def run(state: _Tie, group: list[int], loop: int) -> bool:
        if loop == 0:
            return True
        if not group:
            return False
        if code.name == "TBR":
            _rank_within(state, group, lambda t: (-_at(totals[t], loop - 1),))
        else:
            _rank_within(
                state,
                group,
                lambda t: (-sum(totals[t][: max(f.max_board - loop, 0)], Fraction(0)),),
            )
        return loop < f.max_board

    return _recursive(f, tie, run)


def _at(values: list[Fraction], index: int) -> Fraction:
    return values[index] if 0 <= index < len(values) else Fraction(0)


def _ede_functions(name: str, boards: int) -> str:
    """What EDE and its board variants compare in turn (C.07 14): P primary score, S secondary
    score, C board count, T one board (TBR), B the top boards (BBE)."""
    return {
        "EDE": "PS",
        "EDET": "PS" + "T" * boards,
        "EDEB": "PS" + "B" * (boards - 1),
        "EDEBT": "PSC" + "T" * boards,
        "EDEBB": "PSC" + "B" * (boards - 1),
    }[name]


def _weighted(f: _Field, function: str, position: int) -> Callable[[s.TeamRound], Fraction]:
    boards = f.event.boards
    if function == "C":
        weights = [Fraction(-b) for b in range(1, boards + 1)]
    elif function == "T":
        weights = [Fraction(1 if b == position else 0) for b in range(boards)]
    else:
        weights = [Fraction(1 if b < boards - 1 - position else 0) for b in range(boards)]

    def points(one: s.TeamRound) -> Fraction:
        return sum(
            (weights[board - 1] * p for board, p in one.games if 1 <= board <= boards), Fraction(0)
        )

    return points


def _encounter_results(
    f: _Field,
    tie: _Tie,
    team: int,
    group: tuple[set[int], int],
    points: Callable[[s.TeamRound], Fraction],
) -> dict[int, list[Fraction]]:
    """``team``'s results against each other team of the group (its members and their current
    value) still at that value."""
    members, current = group
    results: dict[int, list[Fraction]] = {}
    for one in f.played[team]:
        counts = one.played or f.event.round_robin
        if one.opponent in members and counts and tie.value[one.opponent] == current:
            results.setdefault(one.opponent, []).append(points(one))
    return results


def _rank_when_all_met(tie: _Tie, group: list[int], scored: dict[int, Fraction]) -> int:
    """Every pair of the group met: the average results place them, equal ones stay tied."""
    ordered = sorted(group, key=lambda t: (-scored[t], t))
    rank = crank = tie.value[group[0]]
    previous = scored[ordered[0]]
    changes = 0
    for team in ordered[1:]:
        rank += 1
        if scored[team] != previous:
            crank = rank
            previous = scored[team]
            changes += 1
        tie.value[team] = crank
    return changes


def _rank_with_unmet(
    tie: _Tie, group: list[int], scored: dict[int, Fraction], maximum: dict[int, Fraction]
) -> int:
    """Some pairs did not meet (a Swiss): a team is placed only while no result of the missing
    matches could change it, from the top down."""
    ordered = sorted(group, key=lambda t: (-scored[t], -maximum[t], t))
    rank = crank = tie.value[group[0]]
    previous = scored[ordered[0]]
    unique = True
    changes = 0
    for i, team in enumerate(ordered[1:], start=1):
        rank += 1
        if unique and previous > max(maximum[t] for t in ordered[i:]):
            crank = rank
            changes += 1
        else:
            unique = False
        previous = scored[team]
        tie.value[team] = crank
    return changes


def _encounter(
    f: _Field,
    tie: _Tie,
    group: list[int],
    points: Callable[[s.TeamRound], Fraction],
    best: Fraction,
) -> int:
    """C.07 14 (and 6 for the direct encounter): the average result against each other team of
    the group, the unmet ones counted as wins in a Swiss (a team is placed only when no result
    of the missing matches could change it). Returns the number of changes."""
    level = (set(group), tie.value[group[0]])
    scored, maximum = {}, {}
    met_all = True
    for team in group:
        results = _encounter_results(f, tie, team, level, points)
        scored[team] = sum((sum(v, Fraction(0)) / len(v) for v in results.values()), Fraction(0))
        missing = len(group) - 1 - len(results)
        maximum[team] = scored[team]
        if not f.event.round_robin and missing > 0:
            met_all = False
            maximum[team] += missing * best
    if met_all:
        return _rank_when_all_met(tie, group, scored)
    return _rank_with_unmet(tie, group, scored, maximum)


def _direct_encounter(f: _Field, code: TiebreakCode) -> dict[int, Fraction | None]:
    functions = _ede_functions(code.name, f.event.boards)
    tie = _Tie(
        value={t: f.rank[t] for t in f.teams},
        more=dict.fromkeys(f.teams, True),
        functions=functions,
    )
    tie.changed = [True] * len(functions)
    primary, secondary = f.primary, f.secondary

    def run(state: _Tie, group: list[int], loop: int) -> bool:
        if loop == 0:
            return True
        if state.loop != loop:
            state.loop, state.changes = loop, 0
        if not group:
            state.changed[state.swap] = state.changes > 0
            more = any(state.changed)
            if state.changes == 0:
                state.swap = (state.swap + 1) % len(functions)
                for team in f.teams:
                    state.more[team] = True
            else:
                state.changed = [True] * len(functions)
            return more and loop < 30
        function = functions[state.swap]
        changes = 0
        if function in "PS":
            score = primary if function == "P" else secondary
            best = f.win(score) * (f.event.boards if score == "GP" else 1)
            changes = _encounter(f, state, group, lambda one: f.points(one, score), best)
        elif len(group) == 2:
            position = functions[: state.swap].count(function)
            changes = _encounter(
                f, state, group, _weighted(f, function, position), f.win(secondary)
            )
        state.changes += changes
        return bool(changes) and loop < 30

    return _recursive(f, tie, run)


_COMPUTE: dict[str, Callable[[_Field, TiebreakCode], dict[int, Fraction | None]]] = {
    "PTS": _pts,
    "MP": _fixed("MP"),
    "GP": _fixed("GP"),
    "MPVGP": _other,
    "EMMSB": _extended_sb,
    "EMGSB": _extended_sb,
    "EGMSB": _extended_sb,
    "EGGSB": _extended_sb,
    "BC": _board_count,
    "TBR": _boards,
    "BBE": _boards,
    "EDE": _direct_encounter,
    "EDET": _direct_encounter,
    "EDEB": _direct_encounter,
    "EDEBT": _direct_encounter,
    "EDEBB": _direct_encounter,
    "SSSC": _sssc,
    "BH": _buchholz,
    "SB": _sonneborn_berger,
    "PS": _progressive,
    "WIN": _wins,
    "WON": _wins,
}


def _rerank(f: _Field, values: dict[int, Fraction | None], higher_is_better: bool) -> None:
    """gacrux's ranking after each code: teams still tied are ordered by the new value."""
    sign = -1 if higher_is_better else 1
    order = sorted(
        f.order,
        key=lambda t: (
            f.rank[t],
            (values[t] is None) != (not higher_is_better),
            sign * (values[t] or 0),
            t,
        ),
    )
    rank = 1
    for i in range(1, len(order)):
        rank += 1
        team, previous = order[i], order[i - 1]
        if f.rank[team] == rank or values[team] != values[previous]:
            f.rank[team] = rank
        else:
            f.rank[team] = f.rank[previous]
    f.order = order


def team_standings(
    event: r.TeamEvent,
    codes: Sequence[str],
    *,
    after_round: int | None = None,
    edition: str | None = None,
) -> TeamStandings:
    """The teams ranked by ``codes`` after ``after_round`` (default: the last played)."""
    if len(codes) > MAX_CODES:
        raise TeamTiebreakError(f"at most {MAX_CODES} tie-breaks")
    parsed = [parse_code(code) for code in codes]
    try:
        r.check_event(event)
    except r.TeamEventError as error:
        raise TeamTiebreakError(str(error)) from error
    last = event.played_rounds if after_round is None else after_round
    if not 0 <= last <= event.rounds:
        raise TeamTiebreakError(f"after round {after_round}: the event has {event.rounds} rounds")
    if edition is not None and edition not in EDITIONS:
        raise TeamTiebreakError(f"the edition is 2024 or 2026, not {edition!r}")
    f = _field(event, last, edition or edition_for(event.start_date))
    columns = []
    for code in parsed:
        entry = REGISTRY[code.name]
        values = _COMPUTE[code.name](f, code)
        columns.append(values)
        _rerank(f, values, entry.higher_is_better)
    rows = tuple(
        TeamStandingRow(team, f.rank[team], tuple(column[team] for column in columns))
        for team in sorted(f.teams, key=lambda t: (f.rank[t], t))
    )
    return TeamStandings(last, tuple(code.text for code in parsed), f.edition, rows)


def preset(name: str) -> tuple[str, ...]:
    if name not in PRESETS:
        raise TeamTiebreakError(f"unknown preset {name!r}; known: {', '.join(PRESETS)}")
    return PRESETS[name]
