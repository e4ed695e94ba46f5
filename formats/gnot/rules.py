"""GNOT bridge teams (seed 004, NSWBA GNOT 2012): results, tie rules, rankings, qualification.

Pure: no Django. Inputs and outputs are frozen dataclasses; teams are identified by their
``team_no`` (an ``int``, like a start number). IMPs are ``int`` or ``Fraction``; every quotient
and score is exact (no floats). Every lot is drawn with :class:`draws.lots.LotDrawer` from the
event's recorded seed and a ``purpose`` named by the caller, so it can be re-run and verified.

What lives here:

- :class:`Match` (each team's IMPs and, optionally, each board's net score) and
  :class:`MatchOutcome` (who won and how).
- The match tie rules of 1.9 (:func:`match_tie_rule`, :func:`decide_match`): board-a-match
  rescore, total points, lot; the one-, two- and four-board playoffs.
- Pools of three (3.1.1, :func:`pool_standing`) and of four (3.2.3, :func:`pool_of_four_places`);
  the American Whist group of a 25-team entry (3.2.4.1, :func:`whist_standing`).
- The ranking for choice of opponents (1.10.2–1.10.4, :func:`rank_winners`,
  :func:`rank_losers`, :func:`rank_single_knockout`) and of teams dropping into the Swiss
  (1.8.4, :func:`rank_droppers`).
- The Swiss: entry scores (1.8.3, :func:`swiss_entry_score`), standings (1.9.4,
  :func:`swiss_standing`).
- The final order and qualification (1.11, :func:`final_order`, :func:`qualify`).

The seed has two clauses numbered 1.9.3; they are cited by text: "1.9.3 (28-board match)" for
the two-board playoff and "1.9.3 (final spot)" for the four-board playoff.

Decisions where the seed is silent or ambiguous (each is repeated where it is implemented):

1. A tie that decides a spot in the National *or* Metropolitan final uses 1.9.3 (final spot)
   whatever the match length; the caller says whether the match decides such a spot.
2. A drawn pool match counts as half a win to each team (3.1.1 (a)); pool matches are not
   played off, since 3.1.1 has its own procedure for teams tied in the pool.
3. Rescoring "considering all thirty boards played" (3.1.1) compares each tied team's own
   boards: all its pool boards and the playoff boards, scored board-a-match (then total points)
   from its own side. A two-way tie for second place is rescored the same way over the pool
   boards (1.9.1 applied to the pool).
4. The one-board triangle (3.1.1) ranks the three teams by triangle wins then triangle net
   IMPs; whoever is still tied goes on to the board-a-match rescore, total points and lot.
   The criteria are applied in order (no restart for a pair separated from the third).
5. IMP quotient is own IMPs ÷ opponents' IMPs; x/0 is infinite (above every finite quotient)
   and 0/0 is 1. A loser's "smallest IMP quotient (winning score / losing score)" is the same
   order as the largest own quotient, so one key serves winners and losers.
6. A loss after playoff boards were played (decided by the playoff or by the rescore after it)
   is a "loss of a play-off" (1.8.4 (a), 1.10.3). Such losers rank among themselves by the
   playoff's margin, then quotient. A playoff winner's match margin is 0, so it ranks after
   every winner by a margin; playoff winners rank among themselves by the playoff's margin.
7. Replacement (1.11.3): "above the middle-ranked team of the Swiss field" means a Swiss
   position strictly better than (S + 1) / 2 for a field of S teams (the top half). The number
   of qualifiers is fixed from the contending field before any team declines.
8. The American Whist group (3.2.4.1): three or more teams tied for first on VPs and matches
   won each play two boards against each other, then rank by playoff wins and playoff net
   IMPs before the 1.9.1 rescore over each team's own boards.
9. Only the whist group's first place has consequences; ties below it are ordered by net IMPs,
   then lot, without a playoff.
10. A whist team's Swiss entry score (a quarter of its whist VPs) is rescaled to the Swiss
    scale when the two scales have different maxima.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from functools import cmp_to_key
from itertools import groupby
from math import ceil
from typing import Any

from draws.lots import LotDrawer
from events.sources import GNOT_2012, cite
from formats.gnot.bridge import (
    VPScale,
    board_a_match,
    match_vps,
    on_scale,
    share_of_available,
)

Imps = int | Fraction


class GnotError(ValueError):
    """An input a director can fix (missing board scores, a team not in the match, …)."""


class MissingBoardScores(GnotError):
    """A rescore (1.9.1) needs every board's net score and a match does not have them."""


# --- matches ---------------------------------------------------------------------------------


@dataclass(frozen=True, order=True, slots=True)
class Quotient:
    """An IMP quotient: ``infinite`` for x/0 (x > 0), compared exactly (decision 5)."""

    infinite: bool
    value: Fraction

    @classmethod
    def of(cls, scored: Imps, conceded: Imps) -> Quotient:
        """``scored / conceded``; x/0 is infinite and 0/0 is 1."""
        if conceded == 0:
            return cls(False, Fraction(1)) if scored == 0 else cls(True, Fraction(0))
        return cls(False, Fraction(scored) / Fraction(conceded))

    def __str__(self) -> str:
        return "inf" if self.infinite else str(self.value)


@dataclass(frozen=True, slots=True)
class Match:
    """A match (or playoff) between two teams.

    ``boards`` are the net scores of each board for the home team (both tables together); they
    are optional, but a board-a-match or total-points rescore (1.9.1) needs them.
    """

    home: int
    away: int
    home_imps: Imps
    away_imps: Imps
    boards: tuple[Fraction | int, ...] = ()

    @property
    def teams(self) -> tuple[int, int]:
        """Home, then away."""
        return (self.home, self.away)

    def _check(self, team: int) -> None:
        if team not in self.teams:
            raise GnotError(f"team {team} did not play match {self.home}–{self.away}")

    def opponent(self, team: int) -> int:
        """The other team."""
        self._check(team)
        return self.away if team == self.home else self.home

    def imps_for(self, team: int) -> Imps:
        """IMPs scored by ``team``."""
        self._check(team)
        return self.home_imps if team == self.home else self.away_imps

    def imps_against(self, team: int) -> Imps:
        """IMPs scored by ``team``'s opponents."""
        return self.imps_for(self.opponent(team))

    def margin(self, team: int) -> Fraction:
        """``team``'s IMPs minus its opponents' (negative for a loss)."""
        return Fraction(self.imps_for(team)) - Fraction(self.imps_against(team))

    def quotient(self, team: int) -> Quotient:
        """``team``'s IMP quotient in this match."""
        return Quotient.of(self.imps_for(team), self.imps_against(team))

    def nets(self, team: int) -> tuple[Fraction, ...]:
        """Each board's net score seen from ``team``; raises if the boards were not entered."""
        self._check(team)
        if not self.boards:
            raise MissingBoardScores(
                f"match {self.home}–{self.away} needs its board scores for a rescore (1.9.1)"
            )
        sign = 1 if team == self.home else -1
        return tuple(Fraction(net) * sign for net in self.boards)

    @property
    def imp_winner(self) -> int | None:
        """The team with more IMPs, or None when the IMPs are level."""
        if self.home_imps == self.away_imps:
            return None
        return self.home if self.home_imps > self.away_imps else self.away


def bam_total(team: int, matches: Iterable[Match]) -> Fraction:
    """``team``'s board-a-match score over every board of ``matches`` it played (1.9.1)."""
    return sum((board_a_match(net) for match in matches for net in match.nets(team)), Fraction(0))


def total_points(team: int, matches: Iterable[Match]) -> Fraction:
    """``team``'s total-point score (the sum of its net scores) over ``matches`` (1.9.1)."""
    return sum((net for match in matches for net in match.nets(team)), Fraction(0))


# --- the match tie rules of 1.9 ------------------------------------------------------------


class TieRule(StrEnum):
    """Which clause of 1.9 breaks a tied match."""

    RESCORE = "1.9.1"
    ONE_BOARD = "1.9.2"
    TWO_BOARDS = "1.9.3-28-board"
    FINAL_SPOT = "1.9.3-final-spot"


def match_tie_rule(*, boards: int, second_half: bool = False, final_spot: bool = False) -> TieRule:
    """The rule for a tied match.

    1.9.3 (final spot) "Where a tie occurs which determines a spot in either the National or
    Metropolitan final" wins over the others (decision 1); a match of more than 14 boards is
    the 28-board case of 1.9.3; a 14-board match uses 1.9.2 in the second half of the evening
    and 1.9.1 in the first.
    """
    if final_spot:
        return TieRule.FINAL_SPOT
    if boards > 14:
        return TieRule.TWO_BOARDS
    return TieRule.ONE_BOARD if second_half else TieRule.RESCORE


@dataclass(frozen=True, slots=True)
class PlayoffNeeded:
    """The director must have ``teams`` play ``boards`` more boards (a triangle for three)."""

    teams: tuple[int, ...]
    boards: int
    clause: str


@dataclass(frozen=True, slots=True)
class MatchOutcome:
    """A decided match: ``decided_by`` is ``imps``, ``playoff``, ``board-a-match``,
    ``total-points`` or ``lot``; ``playoffs`` are the playoff boards played, in order."""

    match: Match
    winner: int
    decided_by: str
    playoffs: tuple[Match, ...] = ()

    @property
    def loser(self) -> int:
        """The other team."""
        return self.match.opponent(self.winner)

    @property
    def after_playoff(self) -> bool:
        """True when playoff boards were played (decision 6: a loser "lost a play-off")."""
        return bool(self.playoffs)


def _rescore(
    teams: tuple[int, int], matches: Sequence[Match], seed: str, purpose: str
) -> tuple[int, str]:
    """1.9.1: board-a-match, then total points, then lot, over ``matches``."""
    first, second = teams
    for code, score in (("board-a-match", bam_total), ("total-points", total_points)):
        mine, theirs = score(first, matches), score(second, matches)
        if mine != theirs:
            return (first if mine > theirs else second), code
    return LotDrawer(seed, purpose).pick(sorted(teams)), "lot"


def _playoff_winner(teams: tuple[int, int], playoff: Match) -> int | None:
    if set(playoff.teams) != set(teams):
        raise GnotError(f"playoff {playoff.home}–{playoff.away} is not between {teams}")
    return playoff.imp_winner


def _successive(
    match: Match, playoffs: Sequence[Match], sizes: Sequence[int], clause: str
) -> int | PlayoffNeeded | None:
    """Play the playoffs of ``sizes`` in turn: the winner, a request, or None when all tied.

    The last size repeats for ever when ``clause`` is 1.9.3 (final spot).
    """
    for index, playoff in enumerate(playoffs):
        expected = sizes[min(index, len(sizes) - 1)]
        if len(playoff.boards) not in (0, expected):
            raise GnotError(
                f"playoff {index + 1} should have {expected} boards ({cite(GNOT_2012, clause)})"
            )
        winner = _playoff_winner(match.teams, playoff)
        if winner is not None:
            return winner
    if len(playoffs) < len(sizes) or clause == TieRule.FINAL_SPOT:
        return PlayoffNeeded(match.teams, sizes[min(len(playoffs), len(sizes) - 1)], clause)
    return None


_PLAYOFF_SIZES: Mapping[TieRule, tuple[int, ...]] = {
    TieRule.RESCORE: (),
    TieRule.ONE_BOARD: (1,),
    TieRule.TWO_BOARDS: (2,),
    TieRule.FINAL_SPOT: (4, 1),
}


def decide_match(
    match: Match,
    rule: TieRule,
    *,
    playoffs: Sequence[Match] = (),
    seed: str,
    purpose: str,
) -> MatchOutcome | PlayoffNeeded:
    """Decide a match by IMPs, or by the tie rule of 1.9 when the IMPs are level.

    - 1.9.1: rescore board-a-match, then total points, then lot.
    - 1.9.2: a one-board playoff; if still tied the fifteen boards are rescored as per 1.9.1.
    - 1.9.3 (28-board match): a two-board playoff; if still tied all thirty boards as 1.9.1.
    - 1.9.3 (final spot): a four-board playoff, then successive one-board playoffs.

    Returns :class:`PlayoffNeeded` while the next playoff has not been entered.
    """
    if match.imp_winner is not None:
        return MatchOutcome(match, match.imp_winner, "imps")
    sizes = _PLAYOFF_SIZES[rule]
    played = tuple(playoffs)
    if sizes:
        decided = _successive(match, played, sizes, str(rule))
        if isinstance(decided, PlayoffNeeded):
            return decided
        if decided is not None:
            return MatchOutcome(match, decided, "playoff", played)
    winner, code = _rescore(match.teams, (match, *played), seed, purpose)
    return MatchOutcome(match, winner, code, played)


# --- ordering with criteria and a recorded lot ---------------------------------------------


@dataclass(frozen=True, slots=True)
class Criterion:
    """A named key; larger values rank higher."""

    code: str
    key: Callable[[int], Any]


@dataclass(frozen=True, slots=True)
class RankedTeam:
    """A team's place; ``decided_by`` is the criterion that put it above the next team
    (``lot`` when only the lot did; None for the last team)."""

    team_no: int
    rank: int
    decided_by: str | None
    # The criteria compared with the next team, up to the deciding one: (code, value).
    values: tuple[tuple[str, str], ...] = ()


def order_teams(
    teams: Iterable[int], criteria: Sequence[Criterion], *, seed: str, purpose: str
) -> tuple[RankedTeam, ...]:
    """Order by the criteria lexicographically; teams equal on every criterion by lot (1.10.4).

    A criterion is evaluated only when the ones before it leave two teams level, so a rescore
    that needs board scores (1.9.1) is asked for only when it decides something. The lot
    shuffles each still-tied run (listed by team number first) with
    ``LotDrawer(seed, f"{purpose}-{first team of the run}")``, so one run never shifts another.
    """
    key = _LazyKeys(criteria)
    ordered: list[int] = []
    run: list[int] = []
    for team in sorted(sorted(teams), key=cmp_to_key(key.compare)):
        if run and key.compare(run[0], team) != 0:
            ordered.extend(_by_lot(run, seed, purpose))
            run = []
        run.append(team)
    ordered.extend(_by_lot(run, seed, purpose))
    return _ranked(ordered, criteria, key)


def _by_lot(run: list[int], seed: str, purpose: str) -> list[int]:
    members = sorted(run)
    if len(members) > 1:
        members = LotDrawer(seed, f"{purpose}-{members[0]}").shuffle(members)
    return members


class _LazyKeys:
    """Each team's criterion values, computed on first use and kept."""

    def __init__(self, criteria: Sequence[Criterion]) -> None:
        self.criteria = criteria
        self.cache: dict[tuple[int, int], Any] = {}

    def value(self, team: int, index: int) -> Any:
        if (team, index) not in self.cache:
            self.cache[team, index] = self.criteria[index].key(team)
        return self.cache[team, index]

    def first_difference(self, a: int, b: int) -> int | None:
        """The index of the first criterion on which ``a`` and ``b`` differ."""
        for index in range(len(self.criteria)):
            if self.value(a, index) != self.value(b, index):
                return index
        return None

    def compare(self, a: int, b: int) -> int:
        """Negative when ``a`` ranks above ``b`` (larger values rank higher)."""
        index = self.first_difference(a, b)
        if index is None:
            return 0
        return -1 if self.value(a, index) > self.value(b, index) else 1


def _ranked(
    ordered: Sequence[int], criteria: Sequence[Criterion], key: _LazyKeys
) -> tuple[RankedTeam, ...]:
    result = []
    for index, team in enumerate(ordered):
        decided_by: str | None = None
        compared = 0
        if index + 1 < len(ordered):
            found = key.first_difference(team, ordered[index + 1])
            decided_by = "lot" if found is None else criteria[found].code
            compared = len(criteria) if found is None else found + 1
        values = tuple((c.code, str(key.value(team, i))) for i, c in enumerate(criteria[:compared]))
        result.append(RankedTeam(team, index + 1, decided_by, values))
    return tuple(result)


# --- pools (3.1.1, 3.2.3) -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PoolLine:
    """A team's pool record: wins (½ for a drawn match, decision 2), IMPs, net, quotient."""

    team_no: int
    wins: Fraction
    imps_for: Fraction
    imps_against: Fraction

    @property
    def net_imps(self) -> Fraction:
        """IMPs scored minus conceded."""
        return self.imps_for - self.imps_against

    @property
    def quotient(self) -> Quotient:
        """IMPs scored ÷ conceded."""
        return Quotient.of(self.imps_for, self.imps_against)


def pool_lines(teams: Iterable[int], matches: Sequence[Match]) -> dict[int, PoolLine]:
    """Each team's record over the matches it played."""
    lines = {}
    for team in teams:
        played = [m for m in matches if team in m.teams]
        wins = sum((_match_points(m, team) for m in played), Fraction(0))
        scored = sum((Fraction(m.imps_for(team)) for m in played), Fraction(0))
        conceded = sum((Fraction(m.imps_against(team)) for m in played), Fraction(0))
        lines[team] = PoolLine(team, wins, scored, conceded)
    return lines


def _match_points(match: Match, team: int) -> Fraction:
    winner = match.imp_winner
    if winner is None:
        return Fraction(1, 2)
    return Fraction(1) if winner == team else Fraction(0)


def pool_criteria(lines: Mapping[int, PoolLine]) -> tuple[Criterion, ...]:
    """3.1.1 (a) wins, (b) net IMPs, (c) IMP quotient."""
    return (
        Criterion("wins", lambda t: lines[t].wins),
        Criterion("net-imps", lambda t: lines[t].net_imps),
        Criterion("imp-quotient", lambda t: lines[t].quotient),
    )


@dataclass(frozen=True, slots=True)
class PoolStanding:
    """A pool's places, or the playoff the director must hold first (``playoff_needed``)."""

    places: tuple[RankedTeam, ...]
    playoff_needed: PlayoffNeeded | None = None

    @property
    def order(self) -> tuple[int, ...]:
        """Team numbers, first place first."""
        return tuple(place.team_no for place in self.places)


def _between(matches: Iterable[Match], teams: Iterable[int]) -> list[Match]:
    wanted = set(teams)
    return [m for m in matches if set(m.teams) <= wanted]


def _rescore_criteria(boards: Sequence[Match]) -> tuple[Criterion, ...]:
    """1.9.1 over each team's own boards (decision 3)."""
    return (
        Criterion("board-a-match", lambda t: bam_total(t, [m for m in boards if t in m.teams])),
        Criterion("total-points", lambda t: total_points(t, [m for m in boards if t in m.teams])),
    )


def _tie_for_first(
    group: tuple[int, ...], matches: Sequence[Match], playoffs: Sequence[Match]
) -> tuple[Criterion, ...] | PlayoffNeeded:
    """3.1.1: two teams tied for first play two boards; then 1.9.1 over all thirty boards."""
    held = _between(playoffs, group)
    if not held:
        return PlayoffNeeded(group, 2, "3.1.1")
    lines = pool_lines(group, held)
    return (
        Criterion("playoff", lambda t: lines[t].net_imps),
        *_rescore_criteria([*matches, *held]),
    )


def _three_way(
    group: tuple[int, ...], matches: Sequence[Match], playoffs: Sequence[Match]
) -> tuple[Criterion, ...] | PlayoffNeeded:
    """3.1.1: all three tied play a one-board triangle; then 1.9.1 over all thirty boards."""
    return _playoff_round_robin(group, matches, playoffs, PlayoffNeeded(group, 1, "3.1.1 triangle"))


def _playoff_round_robin(
    group: tuple[int, ...],
    matches: Sequence[Match],
    playoffs: Sequence[Match],
    needed: PlayoffNeeded,
    prefix: str = "triangle",
) -> tuple[Criterion, ...] | PlayoffNeeded:
    """Tied teams play each other (``needed`` until every pair has): playoff wins, playoff net
    IMPs, then 1.9.1 over each team's own boards, playoffs included."""
    held = _between(playoffs, group)
    if len(held) < len(group) * (len(group) - 1) // 2:
        return needed
    lines = pool_lines(group, held)
    return (
        Criterion(f"{prefix}-wins", lambda t: lines[t].wins),
        Criterion(f"{prefix}-net-imps", lambda t: lines[t].net_imps),
        *_rescore_criteria([*matches, *held]),
    )


def _group_criteria(
    group: tuple[int, ...], start: int, matches: Sequence[Match], playoffs: Sequence[Match]
) -> tuple[Criterion, ...] | PlayoffNeeded:
    if len(group) == 3:
        return _three_way(group, matches, playoffs)
    if start == 0:
        return _tie_for_first(group, matches, playoffs)
    return _rescore_criteria(matches)


def pool_standing(
    teams: Sequence[int],
    matches: Sequence[Match],
    *,
    playoffs: Sequence[Match] = (),
    seed: str,
    purpose: str,
) -> PoolStanding:
    """Rank a pool of three (3.1.1): wins, net IMPs, IMP quotient, then the pool tie rules.

    Two teams tied for first: two-board playoff, then 1.9.1 over all thirty boards. Two tied
    for second: 1.9.1. All three tied: one-board triangle, then 1.9.1 over all thirty boards
    (decisions 3 and 4). ``playoffs`` holds the playoff boards played so far as matches.
    """
    base = pool_criteria(pool_lines(teams, matches))

    def tied(group: tuple[int, ...], start: int) -> tuple[Criterion, ...] | PlayoffNeeded:
        return _group_criteria(group, start, matches, playoffs)

    return _standing(teams, base, tied, seed=seed, purpose=purpose)


GroupRule = Callable[[tuple[int, ...], int], "tuple[Criterion, ...] | PlayoffNeeded"]


def _standing(
    teams: Sequence[int],
    base: tuple[Criterion, ...],
    tied: GroupRule,
    *,
    seed: str,
    purpose: str,
) -> PoolStanding:
    """Order by ``base``; each run still level goes to ``tied(group, start)`` (``start``: the
    number of teams placed above it), which gives more criteria or the playoff to hold."""
    first_pass = order_teams(teams, base, seed=seed, purpose=f"{purpose}-unused")
    ordered = [place.team_no for place in first_pass]
    final: list[int] = []
    criteria_for: dict[int, tuple[Criterion, ...]] = {}
    for _, run in groupby(ordered, key=lambda t: tuple(c.key(t) for c in base)):
        group = tuple(run)
        extra: tuple[Criterion, ...] = ()
        if len(group) > 1:
            found = tied(tuple(sorted(group)), len(final))
            if isinstance(found, PlayoffNeeded):
                return PoolStanding(first_pass, found)
            extra = found
            group = tuple(p.team_no for p in order_teams(group, extra, seed=seed, purpose=purpose))
        for team in group:
            criteria_for[team] = (*base, *extra)
        final.extend(group)
    return PoolStanding(_pool_places(final, criteria_for))


def _pool_places(
    ordered: Sequence[int], criteria_for: Mapping[int, tuple[Criterion, ...]]
) -> tuple[RankedTeam, ...]:
    # Teams of different tied groups already differ on 3.1.1's own criteria, which come first.
    places = []
    for index, team in enumerate(ordered):
        decided_by: str | None = None
        if index + 1 < len(ordered):
            follower = ordered[index + 1]
            decided_by = next(
                (c.code for c in criteria_for[team] if c.key(team) != c.key(follower)), "lot"
            )
        places.append(RankedTeam(team, index + 1, decided_by))
    return tuple(places)


@dataclass(frozen=True, slots=True)
class PoolOfFourPlaces:
    """3.2.3: won both → DKO; won, lost → runner-up; lost, won → third; lost both → fourth."""

    winner: int
    runner_up: int
    third: int
    fourth: int


def pool_of_four_places(
    first_half: Sequence[MatchOutcome], second_half: Sequence[MatchOutcome]
) -> PoolOfFourPlaces:
    """The places of a pool of four from its four decided matches (3.2.3)."""
    teams = {t for o in first_half for t in o.match.teams}
    if len(teams) != 4 or {t for o in second_half for t in o.match.teams} != teams:
        raise GnotError("a pool of four plays two matches in each half between the same teams")
    first_winners = {o.winner for o in first_half}
    second_winners = {o.winner for o in second_half}
    records = {t: (t in first_winners, t in second_winners) for t in teams}
    return PoolOfFourPlaces(
        winner=_team_with_record(records, (True, True)),
        runner_up=_team_with_record(records, (True, False)),
        third=_team_with_record(records, (False, True)),
        fourth=_team_with_record(records, (False, False)),
    )


def _team_with_record(records: Mapping[int, tuple[bool, bool]], record: tuple[bool, bool]) -> int:
    """The one team of a pool of four whose (first half won, second half won) is ``record``."""
    (team,) = [t for t, won in records.items() if won == record]
    return team


def rank_across_pools(
    lines: Mapping[int, PoolLine], teams: Iterable[int], *, seed: str, purpose: str
) -> tuple[RankedTeam, ...]:
    """Teams of the same place in different pools (3.1.2, 3.1.3): 3.1.1's criteria, then lot
    (1.10.4; the in-pool playoffs of 3.1.1 do not apply across pools)."""
    return order_teams(teams, pool_criteria(lines), seed=seed, purpose=purpose)


# --- the American Whist group of a 25-team entry (3.2.4.1) ----------------------------------


@dataclass(frozen=True, slots=True)
class WhistLine:
    """A whist team's record: VPs, matches won (½ for a drawn match) and net IMPs."""

    team_no: int
    vps: Fraction
    wins: Fraction
    net_imps: Fraction


def whist_lines(
    teams: Iterable[int], matches: Sequence[Match], scale: VPScale, *, scale_boards: int
) -> dict[int, WhistLine]:
    """Each team's VPs over its seven-board matches, every match converted "using the NSWBA
    scale for 8 board butler matches" (3.2.4.1): the table of ``scale`` for ``scale_boards``
    boards, whatever the number of boards played."""
    lines = {}
    for team in teams:
        played = [m for m in matches if team in m.teams]
        vps = Fraction(0)
        for m in played:
            scored, conceded = int(m.imps_for(team)), int(m.imps_against(team))
            won, _ = match_vps(scale, scored, conceded, scale_boards)
            vps += Fraction(won)
        wins = sum((_match_points(m, team) for m in played), Fraction(0))
        net = sum((m.margin(team) for m in played), Fraction(0))
        lines[team] = WhistLine(team, vps, wins, net)
    return lines


def _whist_tie_for_first(
    group: tuple[int, ...], matches: Sequence[Match], playoffs: Sequence[Match]
) -> tuple[Criterion, ...] | PlayoffNeeded:
    """3.2.4.1 "the tied teams will play a two board playoff, then if still tied the tie will be
    broken in accordance with 1.9.1 above considering all thirty boards played".

    Decision 8: three or more teams tied play two boards against each other (each pair), and
    rank by playoff wins, then playoff net IMPs, before the 1.9.1 rescore.
    """
    needed = PlayoffNeeded(group, 2, "3.2.4.1")
    return _playoff_round_robin(group, matches, playoffs, needed, prefix="playoff")


def whist_standing(
    teams: Sequence[int],
    matches: Sequence[Match],
    scale: VPScale,
    *,
    scale_boards: int = 8,
    playoffs: Sequence[Match] = (),
    seed: str,
    purpose: str,
) -> PoolStanding:
    """Rank the American Whist group (3.2.4.1): VPs, then "the team which won most matches";
    a tie for first then goes to the two-board playoff and 1.9.1 (:func:`_whist_tie_for_first`).

    Only the first place decides anything (it enters session 3a); decision 9: teams tied
    lower down are ordered by net IMPs, then lot, with no playoff (their Swiss entry scores
    come from their own VPs).
    """
    lines = whist_lines(teams, matches, scale, scale_boards=scale_boards)
    base = (
        Criterion("vps", lambda t: lines[t].vps),
        Criterion("wins", lambda t: lines[t].wins),
    )

    def tied(group: tuple[int, ...], start: int) -> tuple[Criterion, ...] | PlayoffNeeded:
        if start:
            return (Criterion("net-imps", lambda t: lines[t].net_imps),)
        return _whist_tie_for_first(group, matches, playoffs)

    return _standing(teams, base, tied, seed=seed, purpose=purpose)


def whist_swiss_entry(vps: Fraction, whist_scale: VPScale, swiss_scale: VPScale) -> Fraction:
    """3.2.4.1: the other four teams "enter the Swiss repechage on a score equal to one-quarter
    of the VPs earned in the American Whist movement".

    Decision 10: when the whist scale and the Swiss scale have different maxima, the quarter is
    rescaled to the Swiss scale (a quarter of four matches is one match's worth of VPs).
    """
    ratio = Fraction(swiss_scale.match_maximum) / Fraction(whist_scale.match_maximum)
    return Fraction(vps) / 4 * ratio


# --- ranking for choice (1.10) and teams dropping into the Swiss (1.8.4) ---------------------


def _knockout_criteria(results: Mapping[int, MatchOutcome], losers: bool) -> tuple[Criterion, ...]:
    """Margins and quotients seen from each team (decisions 5 and 6)."""

    def playoff_total(team: int) -> Match | None:
        outcome = results[team]
        if not outcome.playoffs:
            return None
        home = outcome.match.home
        return Match(
            home,
            outcome.match.away,
            sum((Fraction(p.imps_for(home)) for p in outcome.playoffs), Fraction(0)),
            sum((Fraction(p.imps_against(home)) for p in outcome.playoffs), Fraction(0)),
        )

    def playoff_margin(team: int) -> Fraction:
        total = playoff_total(team)
        return total.margin(team) if total else Fraction(0)

    def playoff_quotient(team: int) -> Quotient:
        total = playoff_total(team)
        return total.quotient(team) if total else Quotient.of(0, 0)

    criteria = [
        Criterion("imp-margin", lambda t: results[t].match.margin(t)),
        Criterion("playoff-margin", playoff_margin),
        Criterion("imp-quotient", lambda t: results[t].match.quotient(t)),
        Criterion("playoff-quotient", playoff_quotient),
    ]
    if losers:
        criteria.insert(0, Criterion("lost-playoff", lambda t: results[t].after_playoff))
    return tuple(criteria)


def rank_winners(
    outcomes: Iterable[MatchOutcome], *, seed: str, purpose: str
) -> tuple[RankedTeam, ...]:
    """Winners by largest IMP margin (1.10.2), then IMP quotient, then lot (1.10.4)."""
    results = {o.winner: o for o in outcomes}
    return order_teams(results, _knockout_criteria(results, False), seed=seed, purpose=purpose)


def rank_losers(
    outcomes: Iterable[MatchOutcome], *, seed: str, purpose: str
) -> tuple[RankedTeam, ...]:
    """Losers: a lost playoff first, then smallest IMP margin, then smallest quotient (the
    winner's over the loser's), then lot (1.10.3, 1.10.4; the same order is 1.8.4)."""
    results = {o.loser: o for o in outcomes}
    return order_teams(results, _knockout_criteria(results, True), seed=seed, purpose=purpose)


def rank_droppers(
    outcomes: Iterable[MatchOutcome], *, seed: str, purpose: str
) -> tuple[RankedTeam, ...]:
    """1.8.4: teams entering the Swiss by the loss suffered: (a) loss of a play-off, (b)
    smallest IMP difference, (c) smallest IMP quotient (winning / losing score), (d) lot."""
    return rank_losers(outcomes, seed=seed, purpose=purpose)


def rank_single_knockout(
    dko_losers: Iterable[MatchOutcome],
    sko_winners: Iterable[MatchOutcome],
    *,
    seed: str,
    purpose: str,
    after: Sequence[int] = (),
) -> tuple[RankedTeam, ...]:
    """1.10.3: the teams that lost in the Double Knockout first (smallest loss first), then the
    Single Knockout winners (largest margin first); ``after`` are teams that enter below them
    all in the order given (the American Whist winner, 3.2.4.1; triangle winners, 3.3.3)."""
    losers = rank_losers(dko_losers, seed=seed, purpose=f"{purpose}-dko-losers")
    winners = rank_winners(sko_winners, seed=seed, purpose=f"{purpose}-sko-winners")
    # Between the three groups the entry route decides, not a criterion.
    groups = [
        [(r.team_no, r.decided_by or "section") for r in losers],
        [(r.team_no, r.decided_by or "entry-route") for r in winners],
        [(team, "entry-route") for team in after],
    ]
    flat = [entry for group in groups for entry in group]
    return tuple(
        RankedTeam(team, index + 1, decided if index + 1 < len(flat) else None)
        for index, (team, decided) in enumerate(flat)
    )


# --- the Swiss repechage (1.8, 1.9.4) -------------------------------------------------------


def swiss_entry_score(scale: VPScale, *, matches_played: int, leader: Fraction) -> Fraction:
    """1.8.3: the greater of 80 % of the available VPs and the leader's score, but no more
    than 5 VPs above the leader (5 VPs on the 25-VP scale, rescaled on another scale)."""
    entry = max(share_of_available(scale, matches_played), Fraction(leader))
    return min(entry, Fraction(leader) + on_scale(5, scale))


@dataclass(frozen=True, slots=True)
class SwissLine:
    """A Swiss team's score: entry score plus VPs, and net IMPs (1.9.4)."""

    team_no: int
    vps: Fraction
    net_imps: Fraction
    non_contending: bool = False


def swiss_lines(
    entries: Mapping[int, Fraction],
    matches: Sequence[Match],
    scale: VPScale,
    *,
    boards: int = 14,
    byes: Mapping[int, Fraction] | None = None,
    non_contending: frozenset[int] = frozenset(),
) -> dict[int, SwissLine]:
    """Every Swiss team's VPs (entry score + match VPs on ``scale`` + bye VPs) and net IMPs."""
    vps = {team: Fraction(score) for team, score in entries.items()}
    net = dict.fromkeys(entries, Fraction(0))
    for match in matches:
        home_vps, away_vps = match_vps(scale, int(match.home_imps), int(match.away_imps), boards)
        for team, won in ((match.home, home_vps), (match.away, away_vps)):
            if team not in vps:
                raise GnotError(f"team {team} played in the Swiss without an entry score")
            vps[team] += Fraction(won)
            net[team] += match.margin(team)
    for team, extra in (byes or {}).items():
        vps[team] += extra
    return {team: SwissLine(team, vps[team], net[team], team in non_contending) for team in vps}


def swiss_standing(
    lines: Mapping[int, SwissLine], *, seed: str, purpose: str
) -> tuple[RankedTeam, ...]:
    """Swiss order: VPs, then net IMPs (1.9.4 "Other ties in the Swiss"), then lot."""
    return order_teams(
        lines,
        (
            Criterion("vps", lambda t: lines[t].vps),
            Criterion("net-imps", lambda t: lines[t].net_imps),
        ),
        seed=seed,
        purpose=purpose,
    )


# --- final order and qualification (1.11) ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class FinalOrder:
    """1.11.1: the field in order; ``swiss`` is the Swiss finishing order on its own."""

    order: tuple[int, ...]
    swiss: tuple[int, ...]
    non_contending: frozenset[int] = field(default_factory=frozenset)


def final_order(
    *,
    dko_winner: int,
    sko_winner: int,
    sko_final_loser: int,
    swiss: Sequence[int],
    non_contending: Iterable[int] = (),
) -> FinalOrder:
    """1.11.1 (a) DKO winners, (b) SKO winners, (c) SKO final losers, (d) the Swiss in order.

    A team already placed (the DKO winner playing the Swiss as a non-contending team, 3.1.8)
    keeps its first place in the order.
    """
    order: list[int] = []
    for team in (dko_winner, sko_winner, sko_final_loser, *swiss):
        if team not in order:
            order.append(team)
    placed = {dko_winner, sko_winner, sko_final_loser}
    swiss_only = tuple(team for team in swiss if team not in placed)
    # A team placed under (a)–(c) contends there even if it played the Swiss as a guest.
    return FinalOrder(tuple(order), swiss_only, frozenset(non_contending) - placed)


@dataclass(frozen=True, slots=True)
class Qualification:
    """1.11.2–1.11.3: the National and Metropolitan qualifiers, and spots left vacant."""

    national: tuple[int, ...]
    metropolitan: tuple[int, ...]
    vacant_national: int
    vacant_metropolitan: int
    replacements: tuple[int, ...]


def qualifier_counts(contending: int) -> tuple[int, int]:
    """1.11.2: two to the National final, then ⌈(rest)/7⌉ to the Metropolitan final."""
    national = min(2, contending)
    return national, ceil(Fraction(contending - national, 7))


def _replacement_allowed(final: FinalOrder, team: int) -> bool:
    """1.11.3: a replacement must have finished above the middle-ranked team of the Swiss
    field (decision 7: a position better than (S + 1) / 2), or come from (a)–(c)."""
    if team not in final.swiss:
        return True
    position = final.swiss.index(team) + 1
    return position < Fraction(len(final.swiss) + 1, 2)


def qualify(final: FinalOrder, *, declined: Iterable[int] = ()) -> Qualification:
    """Qualifiers in order, skipping non-contending teams and teams that opt out (1.11.3).

    The numbers of spots come from the contending field (1.11.2). A team below the originally
    qualified ones fills a spot only if 1.11.3 allows it as a replacement; otherwise the spot
    stays vacant (and so do the ones after it, the Swiss order being monotone).
    """
    contending = [team for team in final.order if team not in final.non_contending]
    national_spots, metro_spots = qualifier_counts(len(contending))
    originally = set(contending[: national_spots + metro_spots])
    refused = set(declined)
    chosen: list[int] = []
    replacements: list[int] = []
    for team in contending:
        if len(chosen) == national_spots + metro_spots:
            break
        if team in refused:
            continue
        if team not in originally:
            if not _replacement_allowed(final, team):
                break
            replacements.append(team)
        chosen.append(team)
    national = tuple(chosen[:national_spots])
    metropolitan = tuple(chosen[national_spots:])
    return Qualification(
        national,
        metropolitan,
        national_spots - len(national),
        metro_spots - len(metropolitan),
        tuple(replacements),
    )
