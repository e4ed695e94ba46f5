"""GNOT bridge teams draws (seed 004, NSWBA GNOT 2012): week one, the knock-out sessions with
choice of opponents, and the Swiss repechage.

Pure: no Django. Teams are ``team_no`` integers; rankings come from :mod:`formats.gnot.rules`;
every lot is a :class:`draws.lots.LotDrawer` draw from the event's seed and a named purpose.

Structure (seed 004 appendix, 3.1–3.4):

- :func:`seed_sections` and :func:`week_one_draw`: the seeded field split into top, middle and
  bottom sections and into pools by entry size: 24 → eight pools of three (3.1.1); 25–32 →
  one pool of four per team above 24 (3.2.1–3.2.3); 21–23 → one 28-board head-to-head (top v
  middle) per team missing from 24 (3.3.1–3.3.2); 16–20 → the same week one (3.4.1).
- :func:`week_two_draw`: the Single Knockout of week two: session 2a (runners-up v third-placed
  teams, 3.1.3), the triangles (3.3.3, 3.4.2), the 28-board head-to-heads (3.4.2), the American
  Whist group for exactly 25 teams (3.2.4.1), and the teams that are in the Swiss from the first
  half (fourth-placed teams, 3.2.3).
- :data:`SESSIONS` and :func:`session_plan`: sessions 2–5 (3.1.2–3.1.11) with their choice
  rules; :class:`ChoiceState` and :func:`choice_apply` run choice of opponents as a state
  machine (1.10.1, 1.10.5–1.10.6); :func:`appeal_swap` is 1.10.7.
- :func:`swiss_first_round` (1.8.2) and :func:`swiss_round` (1.8.5–1.8.6).

Decisions where the seed is silent (documented here and listed for the director):

1. Pools take the sections serpentine: pool i gets top team i, middle team 9 − i, bottom team
   i. With 25–32 teams pools 1..k (k = entries − 24) are the pools of four and take a second
   middle team, 8 + i. With 16–23 teams the head-to-heads are the lowest top-section teams
   against the highest middle-section teams (T8–M1, T7–M2, …: the closest seeds); the pools
   take the remaining teams serpentine.
2. Week-two triangles (3.3.3, 3.4.2): the head-to-head losers (the lowest ranked first, 3.4.2)
   are placed one per triangle in rank order; triangle j then takes the j-th of the runners-up
   assigned to triangles and, of the third-placed teams assigned, the one giving no rematch
   (1.10.1), preferring the lowest ranked for the highest triangle. Week-two head-to-heads pair
   the remaining losers highest against lowest. With 16–20 teams the runners-up and thirds all
   go to triangles (there are exactly as many triangles as pools).
3. Session 2b with four teams (22 entries) works like session 3b: the first chooses between the
   third and fourth. With two teams they play each other.
4. Choice (1.10.1 takes precedence over all others): a choice is allowed when it keeps the
   fewest rematches that any draw of the session could still have; if no opponent in the
   chooser's range does, the range widens to every opponent that does. A team whose choice is
   forfeited (1.10.6) has the director choose for it under the same constraints.
5. A Swiss round with an odd number of teams gives a bye to the lowest-ranked team that has not
   had one (and that leaves the fewest rematches). Its VPs are the regulation set's business.
   When more teams drop into the Swiss than are already there, the droppers left over are
   paired after the Swiss teams in their own order (top against top).
6. Rematches in the Swiss are meetings in the Swiss only (1.8.6: knock-out meetings do not
   count; 3.2.4.1 and 3.3.3: triangle and whist teams are "deemed not to have played each
   other"). The caller passes exactly the Swiss meetings.
7. The American Whist group (3.2.4.1) is stored as its ten team-against-team matches,
   numbered by the Berger table for five (:func:`whist_schedule`).
8. The American Whist movement card (:func:`whist_movement`): North–South pairs stationary,
   East–West pairs down one table a round, ten sets of seven boards, each played at two
   tables so that every match's two halves share their boards.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from draws.berger import single_round_robin
from draws.lots import LotDrawer

Pair = tuple[int, int]
Meetings = frozenset[frozenset[int]]


class GnotDrawError(ValueError):
    """An input a director can fix: an entry size outside 16–32, a wrong number of teams."""


class ChoiceRefused(GnotDrawError):
    """A choice of opponents the rules do not allow; ``reason`` says why in the seed's words."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def meetings(pairs: Iterable[Iterable[int]]) -> Meetings:
    """The set of pairs of teams that have met, from any iterable of pairs."""
    return frozenset(frozenset(pair) for pair in pairs)


# --- pairing with the fewest rematches ------------------------------------------------------

Preference = Callable[[int, tuple[int, ...]], tuple[int, ...]]


def _search(
    teams: tuple[int, ...],
    prefer: Preference,
    met: Meetings,
    budget: int,
    failed: set[tuple[tuple[int, ...], int]],
) -> tuple[Pair, ...] | None:
    """Pair ``teams``: the first takes its first acceptable candidate, backtracking when the rest
    cannot be paired within ``budget`` rematches (so greedy traps are avoided)."""
    if not teams:
        return ()
    if (teams, budget) in failed:
        return None
    first, rest = teams[0], teams[1:]
    for candidate in prefer(first, rest):
        cost = int(frozenset((first, candidate)) in met)
        if cost > budget:
            continue
        remaining = tuple(team for team in rest if team != candidate)
        found = _search(remaining, prefer, met, budget - cost, failed)
        if found is not None:
            return ((first, candidate), *found)
    failed.add((teams, budget))
    return None


def pair_fewest_rematches(
    teams: Sequence[int], prefer: Preference, met: Meetings
) -> tuple[Pair, ...]:
    """The preferred pairing among those with the fewest rematches (1.10.1, 1.8.6)."""
    ordered = tuple(teams)
    if len(ordered) % 2:
        raise GnotDrawError(f"cannot pair an odd number of teams ({len(ordered)})")
    for budget in range(len(ordered) // 2 + 1):
        found = _search(ordered, prefer, met, budget, set())
        if found is not None:
            return found
    raise GnotDrawError("these teams cannot be paired")


def fewest_rematches(teams: Iterable[int], met: Meetings) -> int:
    """The fewest rematches of any pairing of ``teams``."""
    pairs = pair_fewest_rematches(tuple(teams), _in_order, met)
    return sum(frozenset(pair) in met for pair in pairs)


def _in_order(_team: int, rest: tuple[int, ...]) -> tuple[int, ...]:
    """Top against top: the next-ranked team first (1.8.5's "the rest")."""
    return rest


def _from_bottom(_team: int, rest: tuple[int, ...]) -> tuple[int, ...]:
    """Highest against lowest (3.1.3, 3.1.4)."""
    return tuple(reversed(rest))


def fold_pairs(ranked: Sequence[int], met: Meetings) -> tuple[Pair, ...]:
    """Highest ranked against lowest ranked, after considering 1.10.1."""
    return pair_fewest_rematches(ranked, _from_bottom, met)


def cross_pairs(high: Sequence[int], low: Sequence[int], met: Meetings) -> tuple[Pair, ...]:
    """3.1.3: the highest of ``high`` meets the lowest of ``low``, etc., after 1.10.1."""
    if len(high) != len(low):
        raise GnotDrawError("session 2a needs as many runners-up as third-placed teams")
    low_side = set(low)

    def prefer(team: int, rest: tuple[int, ...]) -> tuple[int, ...]:
        if team in low_side:
            return ()
        return tuple(t for t in reversed(rest) if t in low_side)

    return pair_fewest_rematches((*high, *low), prefer, met)


# --- week one (3.1.1, 3.2, 3.3, 3.4.1) -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Sections:
    """The seeded field in three sections, each in seeding order."""

    top: tuple[int, ...]
    middle: tuple[int, ...]
    bottom: tuple[int, ...]


def seed_sections(seeded: Sequence[int]) -> Sections:
    """3.1.1, 3.2.1, 3.3.1: top 8 and middle 8 (16–24 teams, the rest bottom) or top 8 and
    bottom 8 (25–32 teams, the rest middle)."""
    teams = tuple(seeded)
    if not 16 <= len(teams) <= 32:
        raise GnotDrawError(f"the GNOT appendix covers 16 to 32 teams, not {len(teams)}")
    if len(set(teams)) != len(teams):
        raise GnotDrawError("a team is seeded twice")
    if len(teams) <= 24:
        return Sections(teams[:8], teams[8:16], teams[16:])
    return Sections(teams[:8], teams[8:-8], teams[-8:])


@dataclass(frozen=True, slots=True)
class Pool:
    """A week-one pool: top-section team first, then middle, then bottom (3.1.1, 3.2.2)."""

    name: str
    teams: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class WeekOneDraw:
    """Week one for an entry size: pools of three and four, and 28-board head-to-heads."""

    entries: int
    sections: Sections
    pools_of_three: tuple[Pool, ...]
    pools_of_four: tuple[Pool, ...]
    head_to_heads: tuple[Pair, ...]


def week_one_draw(seeded: Sequence[int]) -> WeekOneDraw:
    """The week-one draw for 16–32 seeded teams (decision 1 for who goes where)."""
    sections = seed_sections(seeded)
    top, middle, bottom = sections.top, sections.middle, sections.bottom
    entries = len(seeded)
    if entries >= 24:
        fours = entries - 24
        pools = []
        for i in range(1, 9):
            second_middle = (middle[7 + i],) if i <= fours else ()
            teams = (top[i - 1], middle[8 - i], *second_middle, bottom[i - 1])
            pools.append(Pool(f"P{i}", teams))
        return WeekOneDraw(
            entries,
            sections,
            tuple(p for p in pools if len(p.teams) == 3),
            tuple(p for p in pools if len(p.teams) == 4),
            (),
        )
    pools_count = entries - 16
    duels = 8 - pools_count
    head_to_heads = tuple((top[7 - j], middle[j]) for j in range(duels))
    pool_middle = middle[duels:]
    threes = tuple(
        Pool(f"P{i}", (top[i - 1], pool_middle[pools_count - i], bottom[i - 1]))
        for i in range(1, pools_count + 1)
    )
    return WeekOneDraw(entries, sections, threes, (), head_to_heads)


def pool_of_four_first_half(pool: Pool) -> tuple[Pair, Pair]:
    """3.2.3: the top team plays the bottom team; the two middle teams play each other."""
    top, middle_a, middle_b, bottom = pool.teams
    return (top, bottom), (middle_a, middle_b)


def pool_of_four_second_half(winners: Pair, losers: Pair) -> tuple[Pair, Pair]:
    """3.2.3: the two first-half winners play each other, and so do the two losers."""
    return winners, losers


# --- week two, Single Knockout (3.1.3, 3.2.4, 3.3.3, 3.4.2) ---------------------------------


@dataclass(frozen=True, slots=True)
class WeekTwoDraw:
    """The Single Knockout of week two and the teams already in the Swiss."""

    session_2a: tuple[Pair, ...]
    triangles: tuple[tuple[int, int, int], ...]
    head_to_heads: tuple[Pair, ...]
    whist: tuple[int, ...]
    swiss_first_half: tuple[int, ...]


def _triangles(
    duel_losers: Sequence[int], runners_up: Sequence[int], thirds: Sequence[int], met: Meetings
) -> tuple[tuple[int, int, int], ...]:
    """Decision 2: one head-to-head loser per triangle; runners-up in order; thirds matched
    without rematches (1.10.1), the lowest ranked preferred for the highest triangle."""
    pairs = cross_pairs(runners_up, thirds, met)
    third_of = dict(pairs)
    return tuple(
        (loser, runner_up, third_of[runner_up])
        for loser, runner_up in zip(duel_losers, runners_up, strict=True)
    )


def week_two_draw(
    entries: int,
    *,
    runners_up: Sequence[int],
    thirds: Sequence[int],
    duel_losers: Sequence[int] = (),
    fourths: Sequence[int] = (),
    met: Meetings = frozenset(),
) -> WeekTwoDraw:
    """Week two's Single Knockout; every list is ranked best first (3.1.3's criteria for the
    runners-up and thirds, 1.10.3 for the head-to-head losers, pool criteria for fourths)."""
    if entries >= 26 or entries == 24:
        return WeekTwoDraw(cross_pairs(runners_up, thirds, met), (), (), (), tuple(fourths))
    if entries == 25:
        whist = (*runners_up[-2:], *thirds[-2:], *fourths)
        session = cross_pairs(runners_up[:-2], thirds[:-2], met)
        return WeekTwoDraw(session, (), (), whist, ())
    if entries >= 21:
        missing = 24 - entries
        triangles = _triangles(duel_losers, runners_up[-missing:], thirds[:missing], met)
        session = cross_pairs(runners_up[:-missing], thirds[missing:], met)
        return WeekTwoDraw(session, triangles, (), (), ())
    count = entries - 16
    to_triangles = tuple(reversed(duel_losers[len(duel_losers) - count :])) if count else ()
    triangles = _triangles(to_triangles, runners_up, thirds, met) if count else ()
    duels = fold_pairs(duel_losers[: len(duel_losers) - count], met)
    return WeekTwoDraw((), triangles, duels, (), ())


def whist_schedule(teams: Sequence[int]) -> tuple[tuple[int, Pair], ...]:
    """3.2.4.1: the five teams of the American Whist movement each play a seven-board match
    against every other team: ten matches, as ``(round, (home, away))``.

    Decision 7: the matches are numbered by the Berger table for five teams (each team sits out
    one of five rounds), so no team is in two matches of one round; which pair sits at which
    table of the movement in each of its four rounds is the movement card's business, not the
    results'.
    """
    group = tuple(teams)
    if len(group) != 5 or len(set(group)) != 5:
        raise GnotDrawError("the American Whist movement of 3.2.4.1 needs five different teams")
    schedule = []
    for round_no, pairings in enumerate(single_round_robin(5), start=1):
        for white, black in pairings:
            if max(white, black) <= 5:
                schedule.append((round_no, (group[white - 1], group[black - 1])))
    return tuple(schedule)


WHIST_BOARDS_PER_MATCH = 7  # 3.2.4.1 "playing seven board matches"


@dataclass(frozen=True, slots=True)
class WhistTable:
    """One table of one round of the American Whist movement: a team's North–South pair at
    its own table against another team's East–West pair, on a set of seven boards."""

    round: int
    table: int
    ns_team: int
    ew_team: int
    board_set: int

    @property
    def boards(self) -> tuple[int, int]:
        """The first and last board of the set (set k holds boards 7k − 6 to 7k)."""
        last = self.board_set * WHIST_BOARDS_PER_MATCH
        return last - WHIST_BOARDS_PER_MATCH + 1, last


def whist_movement(teams: Sequence[int]) -> tuple[WhistTable, ...]:
    """3.2.4.1 "a five table American Whist movement (playing seven board matches)".

    Decision 8: the seed names the movement, not its card, so this one is built to the
    movement's requirements. Team i (1–5, in the order given) keeps its North–South pair at
    table i; in round r (1–4) the East–West pair of team i + r (counted round the five) sits
    there, so each East–West pair moves down one table a round and every pair meets each other
    team once. The seven-board match between teams a and b is played at two tables (a's
    North–South against b's East–West in round r, b's North–South against a's East–West in
    round 5 − r) on the same set of boards: ten sets, sets 1–5 first played in round 1,
    sets 6–10 in round 2, each replayed (at the other table) in round 4 or 3.
    """
    group = tuple(teams)
    if len(group) != 5 or len(set(group)) != 5:
        raise GnotDrawError("the American Whist movement of 3.2.4.1 needs five different teams")
    set_of: dict[frozenset[int], int] = {}
    for first_round in (1, 2):
        for table in range(1, 6):
            set_of[frozenset((table, (table - 1 + first_round) % 5 + 1))] = len(set_of) + 1
    return tuple(
        WhistTable(
            round_no,
            table,
            group[table - 1],
            group[(table - 1 + round_no) % 5],
            set_of[frozenset((table, (table - 1 + round_no) % 5 + 1))],
        )
        for round_no in range(1, 5)
        for table in range(1, 6)
    )


# --- sessions 2–5 and choice of opponents (3.1.2–3.1.11, 1.10) ------------------------------


@dataclass(frozen=True, slots=True)
class SessionSpec:
    """A knock-out session: where its winners and losers go (``None``: the event's end)."""

    code: str
    section: str
    boards: int
    week: int
    half: str
    winners_to: str
    losers_to: str


SESSIONS: Mapping[str, SessionSpec] = {
    spec.code: spec
    for spec in (
        SessionSpec("2", "double", 28, 2, "full", "3", "3a"),
        SessionSpec("2a", "single", 14, 2, "first", "2b", "swiss"),
        SessionSpec("2b", "single", 14, 2, "second", "3a", "swiss"),
        SessionSpec("3", "double", 28, 3, "full", "4", "4a"),
        SessionSpec("3a", "single", 14, 3, "first", "3b", "swiss"),
        SessionSpec("3b", "single", 14, 3, "second", "4a", "swiss"),
        SessionSpec("4", "double", 28, 4, "full", "dko-winner", "5"),
        SessionSpec("4a", "single", 14, 4, "first", "4b", "swiss"),
        SessionSpec("4b", "single", 14, 4, "second", "5", "swiss"),
        SessionSpec("5", "single", 28, 5, "full", "sko-winner", "sko-final-loser"),
    )
}


@dataclass(frozen=True, slots=True)
class ChoiceRule:
    """The team ranked ``chooser`` chooses among the teams ranked ``low`` to ``high``."""

    chooser: int
    low: int
    high: int


def session_plan(code: str, teams: int) -> tuple[ChoiceRule, ...]:
    """The choice rules of a session with ``teams`` teams (the rest: highest v lowest).

    3.1.2 (session 2): first, second and third choose from 4th–8th. 3.1.4, 3.1.6 (2b, 3a),
    3.2.4.2 (2b of six): first and second choose from 3rd to last. 3.1.5, 3.1.7, 3.1.9 (four
    teams): the first chooses between 3rd and 4th (decision 3 for a 2b of four). Two teams
    (3.1.8, 3.1.10, 3.1.11) simply play.
    """
    if code not in SESSIONS or code == "2a":
        raise GnotDrawError(f"session {code!r} has no choice of opponents")
    if teams not in (2, 4, 6, 8):
        raise GnotDrawError(f"session {code} cannot have {teams} teams")
    if teams == 2:
        return ()
    if teams == 4:
        return (ChoiceRule(1, 3, 4),)
    if code == "2":
        return tuple(ChoiceRule(rank, 4, 8) for rank in (1, 2, 3))
    return (ChoiceRule(1, 3, teams), ChoiceRule(2, 3, teams))


@dataclass(frozen=True, slots=True)
class Choice:
    """A recorded choice; ``by_director`` when the team forfeited it (1.10.6)."""

    chooser: int
    opponent: int
    by_director: bool = False


@dataclass(frozen=True, slots=True)
class ChoiceState:
    """Choice of opponents in progress for one session (1.10.5: as soon as possible)."""

    session: str
    ranking: tuple[int, ...]
    rules: tuple[ChoiceRule, ...]
    met: Meetings
    choices: tuple[Choice, ...] = ()
    forfeited: frozenset[int] = frozenset()

    @property
    def drawn(self) -> frozenset[int]:
        """Teams already in a match of this session."""
        return frozenset(t for c in self.choices for t in (c.chooser, c.opponent))

    def rank_of(self, team: int) -> int:
        """1-based rank of ``team`` in the session."""
        return self.ranking.index(team) + 1

    @property
    def next_rule(self) -> ChoiceRule | None:
        """The rule of the next team to choose; a chooser already drawn (chosen by a higher
        team when 1.10.1 widened its range) has no choice left."""
        for rule in self.rules:
            if self.ranking[rule.chooser - 1] not in self.drawn:
                return rule
        return None

    @property
    def next_chooser(self) -> int | None:
        """The team that chooses next, or None when choosing is over."""
        rule = self.next_rule
        return None if rule is None else self.ranking[rule.chooser - 1]


def choice_start(code: str, ranking: Sequence[int], met: Meetings = frozenset()) -> ChoiceState:
    """Start choice for a session; ``ranking`` is best first (1.10.2–1.10.4), ``met`` every
    meeting in the knock-out sections so far (week one included, 1.10.1)."""
    teams = tuple(ranking)
    if len(set(teams)) != len(teams):
        raise GnotDrawError("a team is ranked twice")
    return ChoiceState(code, teams, session_plan(code, len(teams)), met)


def _undrawn(state: ChoiceState) -> tuple[int, ...]:
    return tuple(team for team in state.ranking if team not in state.drawn)


def _cost(state: ChoiceState, chooser: int, opponent: int) -> int:
    """Rematches of the best whole draw once ``chooser`` has taken ``opponent``."""
    rest = tuple(t for t in _undrawn(state) if t not in (chooser, opponent))
    return int(frozenset((chooser, opponent)) in state.met) + _fewest(rest, state.met)


@lru_cache(maxsize=4096)
def _fewest(teams: tuple[int, ...], met: Meetings) -> int:
    return fewest_rematches(teams, met)


def choice_allowed(state: ChoiceState) -> tuple[int, ...]:
    """The opponents the next chooser may take, in rank order (decision 4)."""
    rule = state.next_rule
    if rule is None:
        return ()
    chooser = state.ranking[rule.chooser - 1]
    cheapest = _fewest_rematches_choices(state, chooser)
    in_range = [t for t in cheapest if rule.low <= state.rank_of(t) <= rule.high]
    return tuple(in_range or cheapest)


def _fewest_rematches_choices(state: ChoiceState, chooser: int) -> list[int]:
    """The undrawn teams whose choice leaves the fewest rematches in the whole draw (1.10.1),
    in rank order."""
    candidates = [t for t in _undrawn(state) if t != chooser]
    costs = {t: _cost(state, chooser, t) for t in candidates}
    best = min(costs.values())
    return [t for t in candidates if costs[t] == best]


def _refusal(state: ChoiceState, rule: ChoiceRule, opponent: int) -> str:
    chooser = state.ranking[rule.chooser - 1]
    if opponent not in state.ranking:
        return f"team {opponent} is not in session {state.session}"
    if opponent == chooser or opponent in state.drawn:
        return f"team {opponent} has already been drawn"
    if not rule.low <= state.rank_of(opponent) <= rule.high:
        return (
            f"out of range: the team ranked {rule.chooser} chooses from the teams ranked "
            f"{rule.low} to {rule.high}"
        )
    if frozenset((chooser, opponent)) in state.met:
        return f"teams {chooser} and {opponent} have met; the rematch is avoidable (1.10.1)"
    return "this choice would force an avoidable rematch later in the draw (1.10.1)"


def choice_apply(state: ChoiceState, opponent: int, *, by_director: bool = False) -> ChoiceState:
    """Record the next chooser's choice, or raise :class:`ChoiceRefused` with the reason."""
    rule = state.next_rule
    if rule is None:
        raise ChoiceRefused(f"choosing is over in session {state.session}")
    chooser = state.ranking[rule.chooser - 1]
    if by_director != (chooser in state.forfeited):
        raise ChoiceRefused(
            f"team {chooser} forfeited its choice; the director chooses (1.10.6)"
            if chooser in state.forfeited
            else f"team {chooser} has its own choice; the director chooses only after a forfeit"
        )
    if opponent not in choice_allowed(state):
        raise ChoiceRefused(_refusal(state, rule, opponent))
    return replace(state, choices=(*state.choices, Choice(chooser, opponent, by_director)))


def choice_forfeit(state: ChoiceState) -> ChoiceState:
    """1.10.6: the next chooser had no representative present; the director will choose."""
    chooser = state.next_chooser
    if chooser is None:
        raise ChoiceRefused(f"choosing is over in session {state.session}")
    return replace(state, forfeited=state.forfeited | {chooser})


def choice_draw(state: ChoiceState) -> tuple[Pair, ...]:
    """The session's matches once choosing is over: the choices, then the rest highest
    against lowest after 1.10.1 (3.1.2 "the two unchosen teams play each other")."""
    if state.next_chooser is not None:
        raise GnotDrawError(f"team {state.next_chooser} has still to choose")
    chosen = tuple((c.chooser, c.opponent) for c in state.choices)
    return (*chosen, *fold_pairs(_undrawn(state), state.met))


def choice_by_lot(state: ChoiceState, *, seed: str, purpose: str) -> ChoiceState:
    """The director's choice for a forfeited team made by lot among the allowed opponents."""
    allowed = choice_allowed(state)
    pick = LotDrawer(seed, f"{purpose}-{state.next_chooser}").pick(allowed)
    return choice_apply(state, pick, by_director=True)


def appeal_swap(draw: Sequence[Pair], first: int, second: int) -> tuple[Pair, ...]:
    """1.10.7: an appeal changes a result after the draw: the draw stands, the two teams of the
    appealed match swap positions (in every match of ``draw``)."""
    swap = {first: second, second: first}
    return tuple((swap.get(a, a), swap.get(b, b)) for a, b in draw)


# --- the Swiss repechage (1.8.2, 1.8.5, 1.8.6) -----------------------------------------------


@dataclass(frozen=True, slots=True)
class SwissDraw:
    """A Swiss round: matches (higher-ranked team first), a bye, and any rematch forced."""

    pairings: tuple[Pair, ...]
    bye: int | None
    rematches: tuple[Pair, ...]


def swiss_first_round(teams: Sequence[int], *, seed: str, purpose: str) -> SwissDraw:
    """1.8.2: the first round is drawn at random; with an odd field the last drawn has a bye."""
    drawn = LotDrawer(seed, purpose).shuffle(sorted(teams))
    bye = drawn.pop() if len(drawn) % 2 else None
    pairs = tuple((drawn[i], drawn[i + 1]) for i in range(0, len(drawn), 2))
    return SwissDraw(pairs, bye, ())


def _choose_bye(rest: Sequence[int], met: Meetings, had_bye: frozenset[int]) -> int:
    """Decision 5: the lowest ranked without a bye, among those leaving the fewest rematches."""
    candidates = [t for t in reversed(rest) if t not in had_bye] or list(reversed(rest))
    cost = {t: _fewest(tuple(x for x in rest if x != t), met) for t in candidates}
    best = min(cost.values())
    return next(t for t in candidates if cost[t] == best)


def swiss_round(
    standing: Sequence[int],
    droppers: Sequence[int] = (),
    *,
    met: Meetings = frozenset(),
    had_bye: frozenset[int] = frozenset(),
) -> SwissDraw:
    """A Swiss round after the first: the k-th team of the Swiss meets the k-th team dropping
    in (1.8.5); the rest play top against top without a rematch in the Swiss whenever a
    rematch-free pairing exists (a backtracking search, never greedy)."""
    standing, droppers = tuple(standing), tuple(droppers)
    met_pairs = len(set(standing) | set(droppers)) != len(standing) + len(droppers)
    if met_pairs:
        raise GnotDrawError("a team is both in the Swiss and dropping into it")
    entering = min(len(standing), len(droppers))
    first = tuple(zip(standing[:entering], droppers[:entering], strict=True))
    rest = (*standing[entering:], *droppers[entering:])
    bye = _choose_bye(rest, met, had_bye) if len(rest) % 2 else None
    rest = tuple(t for t in rest if t != bye)
    pairs = (*first, *pair_fewest_rematches(rest, _in_order, met))
    return SwissDraw(pairs, bye, tuple(p for p in pairs if frozenset(p) in met))
