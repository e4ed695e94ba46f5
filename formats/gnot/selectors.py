"""GNOT bridge teams (seed 004): reads. Load the event's rows in a fixed number of queries, turn
them into the engines' records and re-run the pure engines (:mod:`formats.gnot.rules`,
:mod:`formats.gnot.draw`). Nothing computed here is stored; every lot comes from the event's
``lots_seed`` with a purpose named after stable data (session, round, table, pool), so an
exported and re-imported event gives the same answers.

Decisions where the seed is silent (listed in docs/gnot.md):

1. Session 2's eight teams (pool winners, pool-of-four winners and, with 16–23 teams, the
   week-one head-to-head winners) are ranked together by 3.1.1's criteria over their week-one
   matches (3.1.2 "ranked according to the same criteria as in 3.1.1"), then lot.
2. A team's route after a match follows :data:`formats.gnot.draw.SESSIONS`; week-two triangles and
   head-to-heads (3.3.3, 3.4.2, stored in session 2a with a stage name) send their winners to
   session 3a and everyone else to the Swiss.
3. A session is ready when every session that feeds it has been drawn and decided; session 2b
   feeds session 3a only when session 2a has ordinary matches (21 or more teams).
4. The knock-out meetings that 1.10.1 avoids are every week-one and knock-out match, pool
   playoffs included; Swiss matches are not (1.8.6).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from itertools import groupby

from events.formats import Step
from events.models import Event
from formats.gnot import draw as draw_engine
from formats.gnot import rules as engine
from formats.gnot.bridge import (
    EVENT_BANDS,
    BandRow,
    VPScale,
    event_band_scale,
    match_vps,
    triangle_entry_score,
    vp_scale,
)
from formats.gnot.draw import ChoiceRefused, ChoiceState, Meetings
from formats.gnot.models import (
    ChoiceKind,
    ChoiceRecord,
    GnotSetup,
    Half,
    MatchKind,
    MatchStatus,
    SwissBye,
    SwissEntry,
    Team,
    TeamMatch,
)
from formats.gnot.rules import Match, MatchOutcome, PlayoffNeeded, RankedTeam

DEFAULT_VP_SCALE = "wbf-25"
WHIST_STAGE = "W"
POOL_SESSIONS = ("1", "2a")  # where stages are pools, triangles or the whist group
WHIST_BOARDS = 7  # 3.2.4.1 "playing seven board matches"
KNOCKOUT_ORDER = ("2", "2a", "2b", "3", "3a", "3b", "4", "4a", "4b", "5")
SESSION_TITLES = {
    "1": "Week one: pools",
    "2": "Session 2 (Double KO)",
    "2a": "Session 2a (Single KO)",
    "2b": "Session 2b (Single KO)",
    "3": "Session 3 (Double KO)",
    "3a": "Session 3a (Single KO)",
    "3b": "Session 3b (Single KO)",
    "4": "Session 4 (Double KO final)",
    "4a": "Session 4a (Single KO)",
    "4b": "Session 4b (Single KO)",
    "5": "Session 5 (Single KO final)",
    "swiss": "Swiss repechage",
}
# Decision (formats.gnot.draw decision 5 leaves a bye's VPs to the regulation): a bye scores 18 VPs
# on the 25-VP scale, 12 on the 20-VP scale (the WBF's usual bye scores).
BYE_VPS = {"wbf-25": Fraction(18), "wbf-2013-20": Fraction(12)}


def vp_scale_code(event: Event) -> str:
    setup = GnotSetup.objects.filter(event=event).first()
    return setup.vp_scale if setup else DEFAULT_VP_SCALE


def band_rows(setup: GnotSetup | None) -> dict[int, list[BandRow]]:
    """The event's own band tables as the engine reads them (see ``GnotSetup.vp_bands``)."""
    stored = setup.vp_bands if setup else {}
    return {
        int(boards): [(int(m), Decimal(str(w)), Decimal(str(lo))) for m, w, lo in rows]
        for boards, rows in (stored or {}).items()
    }


def scale_for(code: str, setup: GnotSetup | None) -> VPScale:
    """A registry scale, or the event's own band table for ``event-bands``."""
    if code == EVENT_BANDS:
        return event_band_scale(band_rows(setup))
    return vp_scale(code)


def setup_scale(setup: GnotSetup | None) -> VPScale:
    """The event's VP scale: its setup's, else the default."""
    return scale_for(setup.vp_scale if setup else DEFAULT_VP_SCALE, setup)


def scale_of(event: Event) -> VPScale:
    return setup_scale(GnotSetup.objects.filter(event=event).first())


@dataclass(frozen=True)
class WhistScoring:
    """3.2.4.1: the scale the American Whist matches are converted on and the board count of
    its table ("the NSWBA scale for 8 board butler matches"), and the Swiss scale."""

    scale: VPScale
    boards: int
    swiss: VPScale


def whist_scoring(event: Event) -> WhistScoring:
    return whist_scoring_of(GnotSetup.objects.filter(event=event).first())


def whist_scoring_of(setup: GnotSetup | None) -> WhistScoring:
    """:func:`whist_scoring` from the event's setup row, already loaded."""
    swiss = setup_scale(setup)
    if setup is None:
        return WhistScoring(swiss, 8, swiss)
    scale = scale_for(setup.whist_vp_scale, setup) if setup.whist_vp_scale else swiss
    return WhistScoring(scale, setup.whist_scale_boards, swiss)


def bye_vps(scale: VPScale) -> Fraction:
    from formats.gnot.bridge import on_scale

    return BYE_VPS.get(scale.code, on_scale(18, scale))


def teams_of(event: Event) -> list[Team]:
    return list(Team.objects.filter(event=event).order_by("team_no"))


def match_rows(event: Event) -> list[TeamMatch]:
    return list(
        TeamMatch.objects.filter(event=event)
        .select_related("home", "away", "winner")
        .order_by("session", "round", "table")
    )


# --- rows → engine records ------------------------------------------------------------------


def engine_match(row: TeamMatch) -> Match:
    return Match(
        row.home.team_no,
        row.away.team_no,
        row.home_imps or 0,
        row.away_imps or 0,
        tuple(row.board_nets or ()),
    )


def engine_playoffs(row: TeamMatch) -> tuple[Match, ...]:
    return tuple(
        Match(
            row.home.team_no,
            row.away.team_no,
            p["home_imps"],
            p["away_imps"],
            tuple(p.get("boards") or ()),
        )
        for p in row.playoffs or ()
    )


def needs_winner(row: TeamMatch) -> bool:
    """Knock-out matches, week-one head-to-heads and pool-of-four matches must have a winner;
    pool-of-three, triangle, American Whist and Swiss matches may be drawn (3.1.1, 3.2.4.1,
    1.8)."""
    if row.kind != MatchKind.MATCH or row.session == "swiss":
        return False
    if row.session == "1":
        return row.stage.startswith("H") or row.half != Half.FULL
    return not row.stage.startswith(("T", WHIST_STAGE))


def tie_rule(row: TeamMatch) -> engine.TieRule:
    return engine.match_tie_rule(
        boards=row.boards, second_half=row.half == Half.SECOND, final_spot=row.final_spot
    )


def lot_purpose(row: TeamMatch) -> str:
    return f"gnot-match-{row.session}-{row.round}-{row.table}"


def outcome_of(row: TeamMatch) -> MatchOutcome | None:
    if row.status != MatchStatus.DECIDED or row.winner is None:
        return None
    return MatchOutcome(engine_match(row), row.winner.team_no, row.decided_by, engine_playoffs(row))


def knockout_meetings(rows: Iterable[TeamMatch]) -> Meetings:
    """Decision 4: week one and the knock-out sections, not the Swiss (1.10.1, 1.8.6)."""
    return draw_engine.meetings(
        (r.home.team_no, r.away.team_no) for r in rows if r.session != "swiss"
    )


# --- week one (3.1.1, 3.2.3, 3.3.2) and week-two triangles (3.3.3, 3.4.2) --------------------


@dataclass(frozen=True)
class PoolTable:
    """A pool of three or four, a triangle or a head-to-head, with its places when complete."""

    name: str
    session: str
    kind: str  # "three", "four", "head-to-head"
    teams: tuple[int, ...]
    matches: tuple[TeamMatch, ...]
    playoffs: tuple[TeamMatch, ...]
    order: tuple[int, ...] = ()
    places: tuple[RankedTeam, ...] = ()
    playoff_needed: PlayoffNeeded | None = None
    lines: dict[int, engine.PoolLine] = field(default_factory=dict)

    @property
    def complete(self) -> bool:
        return bool(self.order)


def _pool_kind(stage: str, matches: Sequence[TeamMatch]) -> str:
    if stage.startswith("H"):
        return "head-to-head"
    return "four" if any(m.half != Half.FULL for m in matches) else "three"


def _played(rows: Iterable[TeamMatch]) -> list[TeamMatch]:
    return [r for r in rows if r.status != MatchStatus.SCHEDULED]


def _pool_three(base: PoolTable, seed: str) -> PoolTable:
    played = _played(base.matches)
    matches = [engine_match(r) for r in played]
    lines = engine.pool_lines(base.teams, matches)
    if len(played) < 3:
        return _with(base, lines=lines)
    standing = engine.pool_standing(
        base.teams,
        matches,
        playoffs=[engine_match(r) for r in _played(base.playoffs)],
        seed=seed,
        purpose=f"gnot-pool-{base.session}-{base.name}",
    )
    if standing.playoff_needed is not None:
        return _with(base, lines=lines, playoff_needed=standing.playoff_needed)
    return _with(base, lines=lines, order=standing.order, places=standing.places)


def _round_outcomes(matches: Sequence[TeamMatch], round_no: int) -> list[MatchOutcome]:
    """The decided outcomes of one round of a pool of four (3.1.1, 3.2.3)."""
    return [o for r in matches if r.round == round_no if (o := outcome_of(r))]


def _pool_four(base: PoolTable) -> PoolTable:
    outcomes = [outcome_of(r) for r in base.matches]
    lines = engine.pool_lines(base.teams, [engine_match(r) for r in _played(base.matches)])
    if len(outcomes) < 4 or any(o is None for o in outcomes):
        return _with(base, lines=lines)
    first = _round_outcomes(base.matches, 1)
    second = _round_outcomes(base.matches, 2)
    places = engine.pool_of_four_places(first, second)
    order = (places.winner, places.runner_up, places.third, places.fourth)
    return _with(base, lines=lines, order=order)


def _head_to_head(base: PoolTable) -> PoolTable:
    lines = engine.pool_lines(base.teams, [engine_match(r) for r in _played(base.matches)])
    outcome = outcome_of(base.matches[0]) if base.matches else None
    if outcome is None:
        return _with(base, lines=lines)
    return _with(base, lines=lines, order=(outcome.winner, outcome.loser))


def _with(base: PoolTable, **changes: object) -> PoolTable:
    from dataclasses import replace

    return replace(base, **changes)  # type: ignore[arg-type]


def _pool_parts(
    members: Sequence[TeamMatch],
) -> tuple[tuple[TeamMatch, ...], tuple[TeamMatch, ...], tuple[int, ...]]:
    """A pool's matches, its playoffs and its teams (the teams its matches name)."""
    matches = tuple(m for m in members if m.kind == MatchKind.MATCH)
    playoffs = tuple(m for m in members if m.kind == MatchKind.POOL_PLAYOFF)
    teams = tuple(sorted({t.team_no for m in matches for t in (m.home, m.away)}))
    return matches, playoffs, teams


def _ranked_pool(base: PoolTable, seed: str) -> PoolTable:
    """A pool ranked by its own kind's rule: of three (3.1.1), of four (3.2.3), a duel."""
    if base.kind == "three":
        return _pool_three(base, seed)
    if base.kind == "four":
        return _pool_four(base)
    return _head_to_head(base)


def pools(rows: Sequence[TeamMatch], session: str, seed: str) -> list[PoolTable]:
    """The pools of week one (session "1") or the week-two triangles and head-to-heads (2a);
    the American Whist group is :func:`whist_group`."""
    staged = [r for r in rows if r.session == session and r.stage and r.stage != WHIST_STAGE]
    result = []
    for stage, group in groupby(
        sorted(staged, key=lambda r: (r.stage, r.round, r.table)), key=lambda r: r.stage
    ):
        matches, playoffs, teams = _pool_parts(list(group))
        base = PoolTable(stage, session, _pool_kind(stage, matches), teams, matches, playoffs)
        result.append(_ranked_pool(base, seed))
    return sorted(result, key=lambda p: (p.name[0] != "P", len(p.name), p.name))


def whist_group(rows: Sequence[TeamMatch], seed: str, scoring: WhistScoring) -> PoolTable | None:
    """The American Whist group of a 25-team entry (3.2.4.1), ranked once every match is in;
    None for any other entry."""
    members = [r for r in rows if r.session == "2a" and r.stage == WHIST_STAGE]
    if not members:
        return None
    members.sort(key=lambda r: (r.round, r.table))
    matches, playoffs, teams = _pool_parts(members)
    base = PoolTable(WHIST_STAGE, "2a", "whist", teams, matches, playoffs)
    played = _played(matches)
    if len(played) < len(matches):
        return base
    standing = engine.whist_standing(
        teams,
        [engine_match(r) for r in played],
        scoring.scale,
        scale_boards=scoring.boards,
        playoffs=[engine_match(r) for r in _played(playoffs)],
        seed=seed,
        purpose="gnot-whist",
    )
    if standing.playoff_needed is not None:
        return _with(base, playoff_needed=standing.playoff_needed)
    return _with(base, order=standing.order, places=standing.places)


def whist_lines(view: PoolTable, scoring: WhistScoring) -> dict[int, engine.WhistLine]:
    """The whist table so far (VPs, matches won, net IMPs)."""
    played = [engine_match(r) for r in _played(view.matches)]
    return engine.whist_lines(view.teams, played, scoring.scale, scale_boards=scoring.boards)


@dataclass(frozen=True)
class WeekOne:
    pools: list[PoolTable]
    complete: bool
    winners: tuple[RankedTeam, ...] = ()
    runners_up: tuple[int, ...] = ()
    thirds: tuple[int, ...] = ()
    fourths: tuple[int, ...] = ()
    duel_losers: tuple[int, ...] = ()
    duel_outcomes: tuple[MatchOutcome, ...] = ()


def _places_across_pools(pool_views: Sequence[PoolTable]) -> dict[int, list[int]]:
    """The teams of each place below first in the pools (not the head-to-heads), pool by pool:
    the runners-up, the thirds and the fourths that 3.1.2 and 3.1.3 rank across pools."""
    by_place: dict[int, list[int]] = defaultdict(list)
    for pool in pool_views:
        if pool.kind == "head-to-head":
            continue
        for place, team in enumerate(pool.order[1:], start=1):
            by_place[place].append(team)
    return by_place


def _duel_outcomes(pool_views: Sequence[PoolTable]) -> tuple[MatchOutcome, ...]:
    """The outcomes of week one's head-to-heads (16–23 teams)."""
    return tuple(
        o for p in pool_views if p.kind == "head-to-head" if (o := outcome_of(p.matches[0]))
    )


def week_one(rows: Sequence[TeamMatch], seed: str) -> WeekOne:
    """Week one's places, ranked across pools for week two (3.1.2, 3.1.3; decision 1)."""
    pool_views = pools(rows, "1", seed)
    if not pool_views or not all(p.complete for p in pool_views):
        return WeekOne(pool_views, False)
    lines: dict[int, engine.PoolLine] = {}
    for pool in pool_views:
        lines.update(pool.lines)
    winners = [p.order[0] for p in pool_views]
    by_place = _places_across_pools(pool_views)

    def ranked(teams: list[int], purpose: str) -> tuple[int, ...]:
        order = engine.rank_across_pools(lines, teams, seed=seed, purpose=purpose)
        return tuple(r.team_no for r in order)

    duels = _duel_outcomes(pool_views)
    duel_losers = engine.rank_droppers(duels, seed=seed, purpose="gnot-week1-duel-losers")
    return WeekOne(
        pool_views,
        True,
        winners=engine.rank_across_pools(lines, winners, seed=seed, purpose="gnot-week1-winners"),
        runners_up=ranked(by_place[1], "gnot-week1-runners-up"),
        thirds=ranked(by_place[2], "gnot-week1-thirds"),
        fourths=ranked(by_place[3], "gnot-week1-fourths"),
        duel_losers=tuple(r.team_no for r in duel_losers),
        duel_outcomes=duels,
    )


# --- knock-out sessions (3.1.2–3.1.11, 1.10) -----------------------------------------------


def _route(row: TeamMatch) -> tuple[str, str]:
    """Where the winner and the loser go (decision 2)."""
    if row.session == "2a" and row.stage:
        return "3a", "swiss"
    spec = draw_engine.SESSIONS[row.session]
    return spec.winners_to, spec.losers_to


def _ko_rows(rows: Iterable[TeamMatch]) -> list[TeamMatch]:
    return [
        r
        for r in rows
        if r.session in draw_engine.SESSIONS
        and r.kind == MatchKind.MATCH
        and not r.stage.startswith(("T", WHIST_STAGE))
    ]


@dataclass(frozen=True)
class SessionEntrants:
    """The teams of a session, best first, or why they are not known yet."""

    code: str
    ranking: tuple[RankedTeam, ...] = ()
    waiting: str = ""

    @property
    def ready(self) -> bool:
        return not self.waiting

    @property
    def order(self) -> tuple[int, ...]:
        return tuple(r.team_no for r in self.ranking)


def _feeders(code: str, rows: Sequence[TeamMatch]) -> list[str]:
    feeding = [
        spec.code
        for spec in draw_engine.SESSIONS.values()
        if code in (spec.winners_to, spec.losers_to)
    ]
    has_2a_pairs = any(r.session == "2a" and not r.stage for r in rows)
    if code == "3a":
        feeding.append("2a")
        if not has_2a_pairs:
            feeding.remove("2b")
    return feeding


def _whist_group_winner(
    rows: Sequence[TeamMatch], seed: str, whist: WhistScoring | None
) -> tuple[int, ...] | str:
    """The American Whist group's winner (3.2.4.1), none without the group, or what is still
    missing."""
    if not any(r.session == "2a" and r.stage == WHIST_STAGE for r in rows):
        return ()
    if whist is None:
        raise ValueError("the American Whist group needs its scoring")
    group = whist_group(rows, seed, whist)
    if group is None or not group.complete:
        return "the American Whist group (3.2.4.1) is not complete"
    return (group.order[0],)


def _week_two_group_winners(
    rows: Sequence[TeamMatch], seed: str, whist: WhistScoring | None
) -> tuple[int, ...] | str:
    """The winners of the week-two triangles (3.3.3, 3.4.2) and of the American Whist group
    (3.2.4.1), who enter session 3a below everyone else; or what is still missing."""
    triangles = [p for p in pools(rows, "2a", seed) if p.kind == "three"]
    if not all(p.complete for p in triangles):
        return "the week-two triangles are not complete"
    whist_winner = _whist_group_winner(rows, seed, whist)
    if isinstance(whist_winner, str):
        return whist_winner
    return tuple(p.order[0] for p in triangles) + whist_winner


def _feeding_outcomes(
    code: str, rows: Sequence[TeamMatch]
) -> tuple[list[MatchOutcome], list[MatchOutcome]] | str:
    """The outcomes that send teams to ``code``: (double-KO losers, winners), or what is
    still missing (decision 3)."""
    ko = _ko_rows(rows)
    losers: list[MatchOutcome] = []
    winners: list[MatchOutcome] = []
    for feeder in _feeders(code, rows):
        if not any(r.session == feeder for r in rows):
            return f"session {feeder} has not been drawn"
        for row in (r for r in ko if r.session == feeder):
            outcome = outcome_of(row)
            if outcome is None:
                return f"session {feeder} is not decided"
            winners_to, losers_to = _route(row)
            if winners_to == code:
                winners.append(outcome)
            elif losers_to == code:
                losers.append(outcome)
    return losers, winners


def session_entrants(
    code: str,
    rows: Sequence[TeamMatch],
    seed: str,
    first: WeekOne | None = None,
    whist: WhistScoring | None = None,
) -> SessionEntrants:
    """Who plays session ``code`` and their rank for choice (1.10.2–1.10.4)."""
    if code == "2":
        first = first or week_one(rows, seed)
        if not first.complete:
            return SessionEntrants(code, waiting="week one is not complete")
        return SessionEntrants(code, first.winners)
    found = _feeding_outcomes(code, rows)
    if isinstance(found, str):
        return SessionEntrants(code, waiting=found)
    losers, winners = found
    purpose = f"gnot-rank-{code}"
    if draw_engine.SESSIONS[code].section == "double":
        return SessionEntrants(code, engine.rank_winners(winners, seed=seed, purpose=purpose))
    after: tuple[int, ...] = ()
    if code == "3a":
        group_winners = _week_two_group_winners(rows, seed, whist)
        if isinstance(group_winners, str):
            return SessionEntrants(code, waiting=group_winners)
        after = group_winners
    ranking = engine.rank_single_knockout(losers, winners, seed=seed, purpose=purpose, after=after)
    if not ranking:
        return SessionEntrants(code, waiting=f"no team plays session {code} with this entry")
    return SessionEntrants(code, ranking)


@dataclass(frozen=True)
class ChoiceStep:
    """A session's choice ceremony: the state replayed from the recorded steps."""

    code: str
    entrants: SessionEntrants
    drawn: bool
    state: ChoiceState | None = None
    allowed: tuple[int, ...] = ()
    records: tuple[ChoiceRecord, ...] = ()
    problem: str = ""

    @property
    def next_chooser(self) -> int | None:
        return self.state.next_chooser if self.state else None

    @property
    def forfeited(self) -> bool:
        chooser = self.next_chooser
        return chooser is not None and self.state is not None and chooser in self.state.forfeited

    @property
    def next_rule(self) -> draw_engine.ChoiceRule | None:
        return self.state.next_rule if self.state else None


def choice_records(event: Event, code: str) -> list[ChoiceRecord]:
    return list(
        ChoiceRecord.objects.filter(event=event, session=code)
        .select_related("chooser", "chosen")
        .order_by("seq")
    )


def _replay(state: ChoiceState, records: Iterable[ChoiceRecord]) -> ChoiceState:
    for record in records:
        if record.kind == ChoiceKind.FORFEIT:
            state = draw_engine.choice_forfeit(state)
        elif record.kind == ChoiceKind.CHOICE and record.chosen is not None:
            state = draw_engine.choice_apply(
                state, record.chosen.team_no, by_director=record.by_director
            )
    return state


def choice_view(event: Event, code: str, rows: Sequence[TeamMatch] | None = None) -> ChoiceStep:
    rows = match_rows(event) if rows is None else rows
    whist = whist_scoring(event) if code == "3a" else None
    entrants = session_entrants(code, rows, event.lots_seed, whist=whist)
    drawn = any(r.session == code for r in rows)
    records = tuple(choice_records(event, code))
    if code == "2a" or not entrants.ready:
        return ChoiceStep(code, entrants, drawn, records=records)
    try:
        state = draw_engine.choice_start(code, entrants.order, knockout_meetings(rows))
        state = _replay(state, records)
    except ChoiceRefused as exc:
        return ChoiceStep(code, entrants, drawn, records=records, problem=exc.reason)
    except draw_engine.GnotDrawError as exc:
        return ChoiceStep(code, entrants, drawn, records=records, problem=str(exc))
    allowed = () if drawn else draw_engine.choice_allowed(state)
    return ChoiceStep(code, entrants, drawn, state, allowed, records)


# --- the Swiss repechage (1.8, 1.9.4) -------------------------------------------------------


@dataclass(frozen=True)
class Dropper:
    """A team waiting to enter the Swiss: how it lost (for 1.8.4) or a fixed entry score;
    ``non_contending`` for the Double Knockout winner playing the Swiss as a guest (3.1.8)."""

    team_no: int
    outcome: MatchOutcome | None = None
    fixed_entry: Fraction | None = None
    non_contending: bool = False


def _triangle_droppers(
    rows: Sequence[TeamMatch], seed: str, scale: VPScale, entries: int
) -> list[Dropper]:
    """3.3.3: 7 + ⅓ of the two triangle matches' VPs; 3.4.2: a score of 0 (16–20 teams)."""
    found = []
    for pool in pools(rows, "2a", seed):
        if pool.kind != "three" or not pool.complete:
            continue
        for team in pool.order[1:]:
            earned = [
                match_vps(scale, *_imps_for(m, team), m.boards)[0]
                for m in pool.matches
                if team in (m.home.team_no, m.away.team_no)
            ]
            entry = triangle_entry_score(scale, earned) if entries >= 21 else Fraction(0)
            found.append(Dropper(team, fixed_entry=entry))
    return found


def _imps_for(row: TeamMatch, team: int) -> tuple[int, int]:
    home, away = row.home_imps or 0, row.away_imps or 0
    return (home, away) if row.home.team_no == team else (away, home)


def _whist_droppers(rows: Sequence[TeamMatch], seed: str, whist: WhistScoring) -> list[Dropper]:
    """3.2.4.1: the four teams below the whist group's winner, on a quarter of their whist
    VPs (formats.gnot.rules decision 10 when the scales differ)."""
    group = whist_group(rows, seed, whist)
    if group is None or not group.complete:
        return []
    lines = whist_lines(group, whist)
    entry = engine.whist_swiss_entry
    return [
        Dropper(team, fixed_entry=entry(lines[team].vps, whist.scale, whist.swiss))
        for team in group.order[1:]
    ]


def swiss_droppers(
    rows: Sequence[TeamMatch],
    seed: str,
    scale: VPScale,
    entries: int,
    *,
    whist: WhistScoring | None = None,
    dko_winner_swiss: bool = False,
) -> list[Dropper]:
    """Every team whose route so far leads into the Swiss (entered or not), and the Double
    Knockout winner when the director has it play the Swiss as a non-contending team (3.1.8).

    With exactly 25 teams the fourth-placed team plays the American Whist group instead of
    waiting in the Swiss (3.2.4); a 24-team entry has no fourths.
    """
    found = [
        Dropper(o.loser, outcome=o)
        for r in _ko_rows(rows)
        if _route(r)[1] == "swiss" and (o := outcome_of(r)) is not None
    ]
    if entries != 25:
        first = week_one(rows, seed)
        found += [Dropper(team, fixed_entry=Fraction(0)) for team in first.fourths]
    elif whist is not None:
        found += _whist_droppers(rows, seed, whist)
    if dko_winner_swiss and (dko := decided_outcome(rows, "4")) is not None:
        found.append(Dropper(dko.winner, non_contending=True))
    return found + _triangle_droppers(rows, seed, scale, entries)


@dataclass(frozen=True)
class SwissRow:
    rank: int
    team_no: int
    name: str
    entry_score: Fraction
    entered_round: int
    vps: Fraction
    net_imps: Fraction
    played: int
    decided_by: str | None
    non_contending: bool = False


@dataclass(frozen=True)
class DkoGuest:
    """3.1.8: the Double Knockout winner, whether the director lets it play the Swiss as a
    non-contending team, and whether it has entered."""

    team_no: int
    name: str
    joins: bool
    entered: bool


@dataclass(frozen=True)
class SwissTable:
    scale: VPScale
    table: tuple[SwissRow, ...]
    order: tuple[int, ...]
    rounds: dict[int, list[TeamMatch]]
    byes: dict[int, SwissBye]
    waiting: tuple[Dropper, ...]
    next_round: int
    round_complete: bool
    lines: dict[int, engine.SwissLine]
    guest: DkoGuest | None = None

    @property
    def leader_vps(self) -> Fraction:
        return max((line.vps for line in self.lines.values()), default=Fraction(0))


def _swiss_lines(
    entries: dict[int, SwissEntry],
    played: list[Match],
    byes: dict[int, SwissBye],
    scale: VPScale,
    guests: frozenset[int],
) -> dict[int, engine.SwissLine]:
    bye_points: dict[int, Fraction] = defaultdict(Fraction)
    for bye in byes.values():
        bye_points[bye.team.team_no] += Fraction(bye.vps)
    return engine.swiss_lines(
        {team: Fraction(e.entry_score) for team, e in entries.items()},
        played,
        scale,
        byes=bye_points,
        non_contending=guests,
    )


def _swiss_table_rows(
    standing: Sequence[RankedTeam],
    entries: dict[int, SwissEntry],
    lines: dict[int, engine.SwissLine],
    names: dict[int, str],
    played: list[Match],
    guests: frozenset[int],
) -> tuple[SwissRow, ...]:
    games: dict[int, int] = defaultdict(int)
    for match in played:
        for team in match.teams:
            games[team] += 1
    return tuple(
        SwissRow(
            r.rank,
            r.team_no,
            names.get(r.team_no, "?"),
            Fraction(entries[r.team_no].entry_score),
            entries[r.team_no].round,
            lines[r.team_no].vps,
            lines[r.team_no].net_imps,
            games[r.team_no],
            r.decided_by,
            r.team_no in guests,
        )
        for r in standing
    )


def _dko_guest(
    rows: Sequence[TeamMatch],
    setup: GnotSetup | None,
    names: dict[int, str],
    entries: dict[int, SwissEntry],
) -> DkoGuest | None:
    """The double knock-out's winner, who may join the Swiss as a guest (session 4)."""
    dko = decided_outcome(rows, "4")
    if dko is None:
        return None
    joins = bool(setup and setup.dko_winner_swiss)
    return DkoGuest(dko.winner, names.get(dko.winner, "?"), joins, dko.winner in entries)


def _swiss_waiting(
    rows: Sequence[TeamMatch],
    setup: GnotSetup | None,
    scale: VPScale,
    seed: str,
    names: dict[int, str],
    entries: dict[int, SwissEntry],
) -> tuple[Dropper, ...]:
    """The teams dropped from the knock-outs that have not entered the Swiss yet."""
    droppers = swiss_droppers(
        rows,
        seed,
        scale,
        len(names),
        whist=whist_scoring_of(setup) if len(names) == 25 else None,
        dko_winner_swiss=bool(setup and setup.dko_winner_swiss),
    )
    return tuple(d for d in droppers if d.team_no not in entries)


def _swiss_entries_and_byes(
    event: Event,
) -> tuple[dict[int, SwissEntry], dict[int, SwissBye]]:
    """Who entered the Swiss (by team number) and the byes (by round)."""
    entries = SwissEntry.objects.filter(event=event).select_related("team")
    byes = SwissBye.objects.filter(event=event).select_related("team")
    return {e.team.team_no: e for e in entries}, {b.round: b for b in byes}


def _swiss_rounds(
    swiss_rows: list[TeamMatch], byes: dict[int, SwissBye]
) -> tuple[dict[int, list[TeamMatch]], int, bool]:
    """The Swiss matches by round, the last round and whether it is complete."""
    by_round: dict[int, list[TeamMatch]] = defaultdict(list)
    for row in swiss_rows:
        by_round[row.round].append(row)
    last = max((*by_round, *byes), default=0)
    complete = all(r.status != MatchStatus.SCHEDULED for r in by_round.get(last, []))
    return dict(by_round), last, complete


def swiss_view(event: Event, rows: Sequence[TeamMatch] | None = None) -> SwissTable:
    rows = match_rows(event) if rows is None else rows
    setup = GnotSetup.objects.filter(event=event).first()
    scale = setup_scale(setup)
    entries, byes = _swiss_entries_and_byes(event)
    swiss_rows = [r for r in rows if r.session == "swiss"]
    played = [engine_match(r) for r in swiss_rows if r.status != MatchStatus.SCHEDULED]
    guests = frozenset(team for team, e in entries.items() if e.non_contending)
    lines = _swiss_lines(entries, played, byes, scale, guests)
    standing = engine.swiss_standing(lines, seed=event.lots_seed, purpose="gnot-swiss-standing")
    names = {t.team_no: t.name for t in teams_of(event)}
    by_round, last, complete = _swiss_rounds(swiss_rows, byes)
    return SwissTable(
        scale,
        _swiss_table_rows(standing, entries, lines, names, played, guests),
        tuple(r.team_no for r in standing),
        by_round,
        byes,
        _swiss_waiting(rows, setup, scale, event.lots_seed, names, entries),
        last + 1,
        complete,
        lines,
        _dko_guest(rows, setup, names, entries),
    )


# --- qualification (1.11) -------------------------------------------------------------------


@dataclass(frozen=True)
class QualificationList:
    waiting: str = ""
    final: engine.FinalOrder | None = None
    result: engine.Qualification | None = None
    names: dict[int, str] = field(default_factory=dict)
    declined: frozenset[int] = frozenset()


def decided_outcome(rows: Sequence[TeamMatch], code: str) -> MatchOutcome | None:
    """The outcome of a one-match session (4, 5) once it is decided."""
    found = [r for r in rows if r.session == code and r.kind == MatchKind.MATCH]
    return outcome_of(found[0]) if len(found) == 1 else None


def qualification_view(event: Event) -> QualificationList:
    """1.11.1 order and 1.11.2–1.11.3 qualifiers, once sessions 4 and 5 are decided."""
    rows = match_rows(event)
    teams = teams_of(event)
    names = {t.team_no: t.name for t in teams}
    declined = frozenset(t.team_no for t in teams if t.declined)
    dko, sko = decided_outcome(rows, "4"), decided_outcome(rows, "5")
    if dko is None or sko is None:
        return QualificationList("sessions 4 and 5 are not decided yet", names=names)
    swiss = swiss_view(event, rows)
    final = engine.final_order(
        dko_winner=dko.winner,
        sko_winner=sko.winner,
        sko_final_loser=sko.loser,
        swiss=swiss.order,
    )
    result = engine.qualify(final, declined=declined)
    return QualificationList("", final, result, names, declined)


# --- the whole event at a glance -------------------------------------------------------------


@dataclass(frozen=True)
class SessionSummary:
    code: str
    title: str
    matches: list[TeamMatch]
    entrants: SessionEntrants | None


def sessions_overview(event: Event, rows: Sequence[TeamMatch]) -> list[SessionSummary]:
    seed = event.lots_seed
    first = week_one(rows, seed)
    summaries = []
    for code in KNOCKOUT_ORDER:
        matches = [r for r in rows if r.session == code]
        whist = whist_scoring(event) if code == "3a" else None
        entrants = None if code == "2a" else session_entrants(code, rows, seed, first, whist)
        summaries.append(SessionSummary(code, SESSION_TITLES[code], matches, entrants))
    return summaries


def _pool_match(row: TeamMatch) -> bool:
    """A match (not a playoff) of a pool, a triangle or the whist group."""
    return row.session in POOL_SESSIONS and bool(row.stage) and row.kind == MatchKind.MATCH


def _pool_mates(row: TeamMatch, rows: Sequence[TeamMatch]) -> list[TeamMatch]:
    """The other matches and playoffs of ``row``'s pool."""
    return [r for r in rows if (r.session, r.stage) == (row.session, row.stage) and r.pk != row.pk]


def follow_ups(row: TeamMatch, rows: Sequence[TeamMatch]) -> list[TeamMatch]:
    """The matches this match's result can schedule on its own: its pool's (triangle's, whist
    group's) playoffs and, for a pool of four's first half, the second half (3.1.1, 3.2.3)."""
    if not _pool_match(row):
        return []
    pool = _pool_mates(row, rows)
    found = [r for r in pool if r.kind == MatchKind.POOL_PLAYOFF]
    if row.half == Half.FIRST:
        found += [r for r in pool if r.kind == MatchKind.MATCH and r.half == Half.SECOND]
    return found


# --- the event page's status and next steps (events.formats, ``status`` / ``steps``) ---------
#
# Decisions (issue 20, "Pages that say what is true"): the status names the earliest session
# (in playing order: week one, the knock-out sessions, the Swiss) that still has a match to
# decide, else the last one played; once sessions 4 and 5 are decided, the qualification list
# is. The Swiss repechage has no fixed number of rounds (1.8): its next round is suggested
# while teams wait to enter it, and while the knock-outs still run.

PLAY_ORDER = ("1", *KNOCKOUT_ORDER, "swiss")


def _undecided(row: TeamMatch) -> bool:
    return row.status in (MatchStatus.SCHEDULED, MatchStatus.PLAYOFF_NEEDED)


def _session_url(event: Event, code: str) -> str:
    from django.urls import reverse

    if code == "1":
        return reverse("gnot:overview", args=[event.slug])
    if code == "swiss":
        return reverse("gnot:swiss", args=[event.slug])
    return reverse("gnot:session", args=[event.slug, code])


def _by_session(rows: Sequence[TeamMatch]) -> dict[str, list[TeamMatch]]:
    found: dict[str, list[TeamMatch]] = defaultdict(list)
    for row in rows:
        found[row.session].append(row)
    return found


def _knockouts_decided(rows: Sequence[TeamMatch]) -> bool:
    """Sessions 4 and 5 decided: the qualification list is final."""
    return decided_outcome(rows, "4") is not None and decided_outcome(rows, "5") is not None


def _teams_count(teams: int) -> str:
    return f"{teams} team{'s' if teams != 1 else ''}"


def _first_undecided_session(
    played: Sequence[str], sessions: dict[str, list[TeamMatch]]
) -> str | None:
    """The earliest session, in playing order, with a match still to decide."""
    return next((c for c in played if any(_undecided(r) for r in sessions[c])), None)


def gnot_status(event: Event) -> str:
    """What is true of a GNOT event now (the decisions above)."""
    rows = match_rows(event)
    if not rows:
        return f"Registration, {_teams_count(len(teams_of(event)))}"
    if _knockouts_decided(rows):
        return "Knock-outs decided: the qualification list is final"
    sessions = _by_session(rows)
    played = [code for code in PLAY_ORDER if sessions.get(code)]
    current = _first_undecided_session(played, sessions)
    if current is None:
        return f"{SESSION_TITLES[played[-1]]} complete"
    matches = sessions[current]
    done = sum(1 for r in matches if not _undecided(r))
    return f"{SESSION_TITLES[current]}: {done} of {len(matches)} matches decided"


def gnot_steps(event: Event, role: str | None) -> list[Step]:
    """Results to enter (director and arbiters); for the director the registration, the
    seeding, the sessions ready to draw and the next Swiss round."""
    rows = match_rows(event)
    if not rows:
        if role != "director":
            return []
        from django.urls import reverse

        text = "Seed the field and draw week one" if teams_of(event) else "Register the teams"
        return [Step(text, reverse("gnot:teams", args=[event.slug]))]
    sessions = _by_session(rows)
    steps = []
    for code in PLAY_ORDER:
        missing = sum(1 for r in sessions.get(code, ()) if _undecided(r))
        if missing:
            title = SESSION_TITLES[code]
            steps.append(
                Step(f"Enter {title}'s results: {missing} missing", _session_url(event, code))
            )
    if role == "director":
        steps += _draw_steps(event, rows, sessions)
    return steps


def _session_draw_steps(event: Event, rows: Sequence[TeamMatch]) -> list[Step]:
    """The knock-out sessions whose entrants are known and that are not drawn yet (session 2a
    once week one is complete)."""
    steps = []
    first = week_one(rows, event.lots_seed)
    for summary in sessions_overview(event, rows):
        ready = (
            first.complete
            if summary.code == "2a"
            else bool(summary.entrants and summary.entrants.ready)
        )
        if ready and not summary.matches:
            steps.append(Step(f"Draw {summary.title}", _session_url(event, summary.code)))
    return steps


def _swiss_step(event: Event, rows: Sequence[TeamMatch]) -> list[Step]:
    """The next Swiss round, while teams wait to enter it or the knock-outs still run (1.8)."""
    swiss = swiss_view(event, rows)
    if not swiss.round_complete:
        return []
    if not (swiss.waiting or (swiss.order and not _knockouts_decided(rows))):
        return []
    waiting = f": {len(swiss.waiting)} teams waiting to enter" if swiss.waiting else ""
    return [Step(f"Pair Swiss round {swiss.next_round}{waiting}", _session_url(event, "swiss"))]


def _draw_steps(
    event: Event, rows: Sequence[TeamMatch], sessions: dict[str, list[TeamMatch]]
) -> list[Step]:
    return _session_draw_steps(event, rows) + _swiss_step(event, rows)
