"""GNOT 2012 draws (seed 004): week one, week two, choice of opponents, Swiss repechage, and
every appendix entry size (16–32) played through all sessions with generated results."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from draws.lots import LotDrawer
from formats.gnot.bridge import WBF_25, score_match, triangle_entry_score, whist_entry_score
from formats.gnot.draw import (
    SESSIONS,
    ChoiceRefused,
    ChoiceState,
    GnotDrawError,
    Meetings,
    WhistTable,
    appeal_swap,
    choice_allowed,
    choice_apply,
    choice_by_lot,
    choice_draw,
    choice_forfeit,
    choice_start,
    cross_pairs,
    fewest_rematches,
    fold_pairs,
    meetings,
    pool_of_four_first_half,
    seed_sections,
    session_plan,
    swiss_first_round,
    swiss_round,
    week_one_draw,
    week_two_draw,
    whist_movement,
    whist_schedule,
)
from formats.gnot.rules import (
    Criterion,
    Match,
    MatchOutcome,
    PlayoffNeeded,
    PoolLine,
    decide_match,
    final_order,
    match_tie_rule,
    order_teams,
    pool_lines,
    pool_of_four_places,
    pool_standing,
    qualify,
    rank_across_pools,
    rank_droppers,
    rank_single_knockout,
    rank_winners,
    swiss_entry_score,
    swiss_lines,
    swiss_standing,
)

# --- week one ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("entries", "sizes"),
    [
        pytest.param(16, (8, 8, 0), id="3.4-16-top-8-middle-8"),
        pytest.param(20, (8, 8, 4), id="3.4-20-bottom-4"),
        pytest.param(21, (8, 8, 5), id="3.3.1-21-bottom-5"),
        pytest.param(23, (8, 8, 7), id="3.3.1-23-bottom-7"),
        pytest.param(24, (8, 8, 8), id="3.1.1-24-ideal"),
        pytest.param(25, (8, 9, 8), id="3.2.1-25-middle-9"),
        pytest.param(32, (8, 16, 8), id="3.2.1-32-middle-16"),
    ],
)
def test_seed_sections(entries: int, sizes: tuple[int, int, int]) -> None:
    sections = seed_sections(range(1, entries + 1))
    assert (len(sections.top), len(sections.middle), len(sections.bottom)) == sizes
    assert sections.top == tuple(range(1, 9))


@pytest.mark.parametrize("entries", [15, 33])
def test_entry_sizes_outside_the_appendix_are_refused(entries: int) -> None:
    with pytest.raises(GnotDrawError, match="16 to 32"):
        seed_sections(range(1, entries + 1))


@pytest.mark.parametrize(
    ("entries", "threes", "fours", "duels"),
    [pytest.param(n, n - 16, 0, 24 - n, id=f"3.4.1-{n}-teams") for n in range(16, 21)]
    + [pytest.param(n, n - 16, 0, 24 - n, id=f"3.3.2-{n}-teams") for n in range(21, 24)]
    + [pytest.param(24, 8, 0, 0, id="3.1.1-24-teams")]
    + [pytest.param(n, 32 - n, n - 24, 0, id=f"3.2.2-{n}-teams") for n in range(25, 33)],
)
def test_week_one_shape(entries: int, threes: int, fours: int, duels: int) -> None:
    draw = week_one_draw(range(1, entries + 1))
    assert (len(draw.pools_of_three), len(draw.pools_of_four), len(draw.head_to_heads)) == (
        threes,
        fours,
        duels,
    )
    sections = draw.sections
    seen = [t for p in (*draw.pools_of_three, *draw.pools_of_four) for t in p.teams]
    seen += [t for pair in draw.head_to_heads for t in pair]
    assert sorted(seen) == list(range(1, entries + 1))
    for pool in draw.pools_of_three:
        top, middle, bottom = pool.teams
        assert (top in sections.top, middle in sections.middle, bottom in sections.bottom) == (
            True,
            True,
            True,
        )
    for pool in draw.pools_of_four:
        assert pool.teams[0] in sections.top and pool.teams[3] in sections.bottom
        assert {pool.teams[1], pool.teams[2]} <= set(sections.middle)
    for top, middle in draw.head_to_heads:
        assert top in sections.top and middle in sections.middle
    # Every team reaches the DKO, SKO or Swiss: eight DKO places from week one.
    assert len(draw.pools_of_three) + len(draw.pools_of_four) + len(draw.head_to_heads) == 8


def test_pool_of_four_first_half_3_2_3() -> None:
    pool = week_one_draw(range(1, 26)).pools_of_four[0]
    assert pool_of_four_first_half(pool) == ((1, 18), (16, 17))


@pytest.mark.parametrize(
    ("entries", "session_2a", "triangles", "duels", "whist", "swiss_first_half"),
    [pytest.param(n, 0, n - 16, 20 - n, 0, 0, id=f"3.4.2-{n}") for n in range(16, 21)]
    + [pytest.param(n, 8 - 2 * (24 - n), 24 - n, 0, 0, 0, id=f"3.3.3-{n}") for n in (21, 22, 23)]
    + [pytest.param(24, 8, 0, 0, 0, 0, id="3.1.3-24")]
    + [pytest.param(25, 6, 0, 0, 5, 0, id="3.2.4.1-25")]
    + [pytest.param(n, 8, 0, 0, 0, n - 24, id=f"3.2.3-{n}") for n in range(26, 33)],
)
def test_week_two_shape(
    entries: int, session_2a: int, triangles: int, duels: int, whist: int, swiss_first_half: int
) -> None:
    week_one = week_one_draw(range(1, entries + 1))
    pools = (*week_one.pools_of_three, *week_one.pools_of_four)
    runners_up = [p.teams[1] for p in pools]
    thirds = [p.teams[-1] for p in pools]
    fourths = [p.teams[2] for p in week_one.pools_of_four]
    duel_losers = [middle for _top, middle in week_one.head_to_heads]
    met = meetings(pair for p in pools for pair in combinations(p.teams, 2))
    draw = week_two_draw(
        entries,
        runners_up=runners_up,
        thirds=thirds,
        duel_losers=duel_losers,
        fourths=fourths,
        met=met,
    )
    shape = (len(draw.session_2a), len(draw.triangles), len(draw.head_to_heads))
    assert shape == (session_2a, triangles, duels)
    assert (len(draw.whist), len(draw.swiss_first_half)) == (whist, swiss_first_half)
    # 1.10.1: no week-one pool meets again in week two.
    for pair in draw.session_2a:
        assert frozenset(pair) not in met
    # With one triangle its runner-up and third may share a pool: then the meeting is
    # unavoidable (3.4.2 sends all of them to the triangles).
    for triangle in draw.triangles if len(draw.triangles) > 1 else ():
        assert not any(frozenset(pair) in met for pair in combinations(triangle, 2))
    if 16 <= entries <= 20 and triangles:
        # 3.4.2: the lowest ranked head-to-head teams go to the triangles first.
        assert {t[0] for t in draw.triangles} == set(duel_losers[-triangles:])


# --- pairing helpers --------------------------------------------------------------------------


def test_cross_pairs_3_1_3_highest_runner_up_v_lowest_third_avoiding_rematch() -> None:
    assert cross_pairs([1, 2, 3], [11, 12, 13], frozenset()) == ((1, 13), (2, 12), (3, 11))
    met = meetings([(1, 13)])
    assert cross_pairs([1, 2, 3], [11, 12, 13], met) == ((1, 12), (2, 13), (3, 11))


def test_fold_pairs_highest_v_lowest() -> None:
    assert fold_pairs([1, 2, 3, 4], frozenset()) == ((1, 4), (2, 3))
    assert fold_pairs([1, 2, 3, 4], meetings([(1, 4)])) == ((1, 3), (2, 4))


# --- choice of opponents (1.10, 3.1.2–3.1.11) ------------------------------------------------


@pytest.mark.parametrize(
    ("code", "teams", "rules"),
    [
        pytest.param("2", 8, ((1, 4, 8), (2, 4, 8), (3, 4, 8)), id="3.1.2-session-2"),
        pytest.param("2b", 8, ((1, 3, 8), (2, 3, 8)), id="3.1.4-session-2b"),
        pytest.param("2b", 6, ((1, 3, 6), (2, 3, 6)), id="3.2.4.2-session-2b-of-six"),
        pytest.param("3a", 8, ((1, 3, 8), (2, 3, 8)), id="3.1.6-session-3a"),
        pytest.param("3", 4, ((1, 3, 4),), id="3.1.5-session-3"),
        pytest.param("3b", 4, ((1, 3, 4),), id="3.1.7-session-3b"),
        pytest.param("4a", 4, ((1, 3, 4),), id="3.1.9-session-4a"),
        pytest.param("4", 2, (), id="3.1.8-session-4"),
        pytest.param("4b", 2, (), id="3.1.10-session-4b"),
        pytest.param("5", 2, (), id="3.1.11-session-5"),
    ],
)
def test_session_plans(code: str, teams: int, rules: tuple[tuple[int, int, int], ...]) -> None:
    assert tuple((r.chooser, r.low, r.high) for r in session_plan(code, teams)) == rules


def test_session_2a_has_no_choice() -> None:
    with pytest.raises(GnotDrawError):
        session_plan("2a", 16)


DKO = (101, 102, 103, 104, 105, 106, 107, 108)


def test_session_2_choice_sequence_3_1_2() -> None:
    state = choice_start("2", DKO)
    assert state.next_chooser == 101
    assert choice_allowed(state) == (104, 105, 106, 107, 108)
    state = choice_apply(state, 108)
    assert state.next_chooser == 102
    assert choice_allowed(state) == (104, 105, 106, 107)
    state = choice_apply(state, 104)
    assert state.next_chooser == 103
    assert choice_allowed(state) == (105, 106, 107)
    state = choice_apply(state, 106)
    assert state.next_chooser is None
    assert choice_draw(state) == ((101, 108), (102, 104), (103, 106), (105, 107))


@pytest.mark.parametrize(
    ("opponent", "reason"),
    [
        pytest.param(102, "out of range", id="1.10-out-of-range"),
        pytest.param(101, "already been drawn", id="1.10-self"),
        pytest.param(999, "not in session", id="1.10-unknown-team"),
        pytest.param(105, r"avoidable \(1\.10\.1\)", id="1.10.1-rematch-refused"),
    ],
)
def test_choice_refusals(opponent: int, reason: str) -> None:
    state = choice_start("2", DKO, meetings([(101, 105)]))
    with pytest.raises(ChoiceRefused, match=reason):
        choice_apply(state, opponent)


def test_already_taken_is_refused() -> None:
    state = choice_apply(choice_start("2", DKO), 108)
    with pytest.raises(ChoiceRefused, match="already been drawn"):
        choice_apply(state, 108)


def test_choice_that_forces_a_later_rematch_is_refused_1_10_1() -> None:
    state = choice_start("3b", (1, 2, 3, 4), meetings([(2, 3)]))
    assert choice_allowed(state) == (3,)
    with pytest.raises(ChoiceRefused, match="force an avoidable rematch later"):
        choice_apply(state, 4)
    assert choice_draw(choice_apply(state, 3)) == ((1, 3), (2, 4))


def test_1_10_1_takes_precedence_over_the_range() -> None:
    state = choice_start("3", (1, 2, 3, 4), meetings([(1, 3), (1, 4)]))
    assert choice_allowed(state) == (2,)
    assert choice_draw(choice_apply(state, 2)) == ((1, 2), (3, 4))


def test_unavoidable_rematch_is_allowed() -> None:
    met = meetings(combinations((1, 2, 3, 4), 2))
    state = choice_start("3", (1, 2, 3, 4), met)
    assert choice_allowed(state) == (3, 4)


def test_forfeited_choice_is_the_directors_1_10_6() -> None:
    state = choice_forfeit(choice_start("2", DKO))
    with pytest.raises(ChoiceRefused, match="1.10.6"):
        choice_apply(state, 104)
    state = choice_apply(state, 104, by_director=True)
    assert state.choices[0].by_director
    with pytest.raises(ChoiceRefused, match="own choice"):
        choice_apply(state, 105, by_director=True)


def test_director_choice_by_lot_is_reproducible() -> None:
    state = choice_forfeit(choice_start("2", DKO))
    first = choice_by_lot(state, seed="s", purpose="forfeit")
    assert first == choice_by_lot(state, seed="s", purpose="forfeit")
    assert first.choices[0].opponent in (104, 105, 106, 107, 108)


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from([("2", 8), ("2b", 8), ("2b", 6), ("3", 4)]),
    st.lists(st.tuples(st.integers(1, 8), st.integers(1, 8)), max_size=14),
    st.randoms(use_true_random=False),
)
def test_any_sequence_of_allowed_choices_keeps_the_fewest_rematches(
    session: tuple[str, int], raw_met: list[tuple[int, int]], rng: object
) -> None:
    code, size = session
    teams = tuple(range(1, size + 1))
    met = meetings((a, b) for a, b in raw_met if a != b and a <= size and b <= size)
    state = choice_start(code, teams, met)
    while state.next_chooser is not None:
        allowed = choice_allowed(state)
        assert allowed
        state = choice_apply(state, rng.choice(allowed))  # type: ignore[attr-defined]
    draw = choice_draw(state)
    assert sorted(t for p in draw for t in p) == list(teams)
    assert sum(frozenset(p) in met for p in draw) == fewest_rematches(teams, met)


def test_draw_before_choosing_is_over_is_refused() -> None:
    with pytest.raises(GnotDrawError, match="still to choose"):
        choice_draw(choice_start("2", DKO))


def test_appeal_swaps_the_two_teams_1_10_7() -> None:
    draw = ((1, 8), (2, 7), (30, 31))
    assert appeal_swap(draw, 8, 31) == ((1, 31), (2, 7), (30, 8))


# --- Swiss repechage (1.8) ------------------------------------------------------------------


def test_swiss_first_round_is_a_recorded_lot_1_8_2() -> None:
    draw = swiss_first_round([1, 2, 3, 4, 5], seed="s", purpose="swiss-1")
    shuffled = LotDrawer("s", "swiss-1").shuffle([1, 2, 3, 4, 5])
    assert draw.bye == shuffled[-1]
    assert draw.pairings == ((shuffled[0], shuffled[1]), (shuffled[2], shuffled[3]))


def test_kth_swiss_team_meets_kth_dropper_1_8_5() -> None:
    draw = swiss_round([1, 2, 3, 4, 5, 6], [21, 22])
    assert draw.pairings[:2] == ((1, 21), (2, 22))
    assert draw.pairings[2:] == ((3, 4), (5, 6))


def test_greedy_trap_is_avoided() -> None:
    # Greedy top-v-top gives 1-2, 3-4, then 5-6 a rematch; a rematch-free pairing exists.
    met = meetings([(5, 6), (1, 3)])
    draw = swiss_round([1, 2, 3, 4, 5, 6], met=met)
    assert draw.rematches == ()
    assert sorted(t for p in draw.pairings for t in p) == [1, 2, 3, 4, 5, 6]


def test_knockout_meetings_are_not_swiss_rematches_1_8_6() -> None:
    # The caller passes only the Swiss meetings: two KO opponents may meet in the Swiss.
    assert swiss_round([1, 2]).pairings == ((1, 2),)


def test_odd_swiss_gives_the_lowest_a_bye() -> None:
    draw = swiss_round([1, 2, 3, 4, 5])
    assert draw.bye == 5
    draw = swiss_round([1, 2, 3, 4, 5], had_bye=frozenset({5}))
    assert draw.bye == 4


def test_unavoidable_swiss_rematch_is_reported() -> None:
    draw = swiss_round([1, 2], met=meetings([(1, 2)]))
    assert draw.rematches == ((1, 2),)


def rematch_free_exists(teams: Sequence[int], met: Meetings) -> bool:
    """Brute force: is there a perfect matching with no pair in ``met``?"""
    if not teams:
        return True
    first, rest = teams[0], teams[1:]
    return any(
        frozenset((first, other)) not in met
        and rematch_free_exists([t for t in rest if t != other], met)
        for other in rest
    )


@st.composite
def swiss_fields(draw: st.DrawFn) -> tuple[list[int], Meetings]:
    size = draw(st.integers(min_value=1, max_value=5)) * 2
    teams = list(range(1, size + 1))
    all_pairs = list(combinations(teams, 2))
    met = draw(st.lists(st.sampled_from(all_pairs), unique=True, max_size=len(all_pairs)))
    return teams, meetings(met)


@settings(max_examples=300, deadline=None)
@given(swiss_fields())
def test_swiss_never_forces_an_avoidable_rematch(field_: tuple[list[int], Meetings]) -> None:
    teams, met = field_
    draw = swiss_round(teams, met=met)
    assert sorted(t for p in draw.pairings for t in p) == teams
    if rematch_free_exists(teams, met):
        assert draw.rematches == ()
    assert len(draw.rematches) == fewest_rematches(teams, met)


# --- every entry size played through all sessions ---------------------------------------------

NETS = (-1430, -620, -420, -200, -100, -50, -20, 0, 0, 20, 50, 100, 200, 420, 620, 1430)


@dataclass
class Event:
    """A generated GNOT event: the test's director, using only the engines' public API."""

    entries: int
    seed: str
    lots: LotDrawer = field(init=False)
    ko_met: set[frozenset[int]] = field(default_factory=set)
    swiss_met: set[frozenset[int]] = field(default_factory=set)
    entering: dict[int, list[tuple[int, Fraction | None, int]]] = field(default_factory=dict)
    swiss_entries: dict[int, Fraction] = field(default_factory=dict)
    swiss_matches: list[Match] = field(default_factory=list)
    byes: dict[int, Fraction] = field(default_factory=dict)
    swiss_rounds: int = 0
    non_contending: set[int] = field(default_factory=set)
    choices_made: int = 0
    pool_matches: dict[str, list[Match]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.lots = LotDrawer(self.seed, f"results-{self.entries}")

    def boards(self, home: int, away: int, count: int) -> Match:
        nets = tuple(NETS[self.lots.below(len(NETS))] for _ in range(count))
        score = score_match(nets)
        return Match(home, away, score.home_imps, score.away_imps, nets)

    def play(
        self, pair: tuple[int, int], session: str, *, final_spot: bool = False
    ) -> MatchOutcome:
        spec = SESSIONS.get(session)
        boards = spec.boards if spec else 28
        rule = match_tie_rule(
            boards=boards,
            second_half=bool(spec and spec.half == "second"),
            final_spot=final_spot,
        )
        match = self.boards(*pair, boards)
        playoffs: list[Match] = []
        while True:
            outcome = decide_match(
                match, rule, playoffs=playoffs, seed=self.seed, purpose=f"tie-{session}-{pair}"
            )
            if isinstance(outcome, MatchOutcome):
                self.ko_met.add(frozenset(pair))
                return outcome
            playoffs.append(self.boards(*pair, outcome.boards))

    def pool(self, teams: Sequence[int], name: str) -> tuple[tuple[int, ...], dict[int, PoolLine]]:
        matches = [self.boards(a, b, 14) for a, b in combinations(teams, 2)]
        self.pool_matches[name] = matches
        self.ko_met.update(frozenset(m.teams) for m in matches)
        playoffs: list[Match] = []
        while True:
            standing = pool_standing(
                teams, matches, playoffs=playoffs, seed=self.seed, purpose=f"pool-{name}"
            )
            needed = standing.playoff_needed
            if needed is None:
                return standing.order, pool_lines(teams, matches)
            playoffs.extend(self.playoff_for(needed))

    def playoff_for(self, needed: PlayoffNeeded) -> list[Match]:
        return [self.boards(a, b, needed.boards) for a, b in combinations(needed.teams, 2)]

    def choose(self, session: str, ranking: Sequence[int]) -> tuple[tuple[int, int], ...]:
        state: ChoiceState = choice_start(session, ranking, frozenset(self.ko_met))
        while state.next_chooser is not None:
            allowed = choice_allowed(state)
            assert allowed, "a chooser always has an allowed opponent"
            if self.lots.below(5) == 0:
                state = choice_by_lot(choice_forfeit(state), seed=self.seed, purpose=session)
            else:
                state = choice_apply(state, self.lots.pick(allowed))
            self.choices_made += 1
        draw = choice_draw(state)
        teams = [t for p in draw for t in p]
        assert sorted(teams) == sorted(ranking)
        rematches = sum(frozenset(p) in self.ko_met for p in draw)
        assert rematches == fewest_rematches(ranking, frozenset(self.ko_met)), session
        return draw

    def drop(
        self, when: int, ranked: Sequence[int], entry: dict[int, Fraction] | None = None
    ) -> None:
        for team in ranked:
            override = None if entry is None else entry[team]
            self.entering.setdefault(when, []).append((team, override, len(self.entering)))


def rank_group(
    teams: Sequence[int], lines: dict[int, PoolLine], seed: str, purpose: str
) -> list[int]:
    return [r.team_no for r in rank_across_pools(lines, teams, seed=seed, purpose=purpose)]


def week_one(event: Event) -> dict[str, object]:
    draw = week_one_draw(range(1, event.entries + 1))
    lines: dict[int, PoolLine] = {}
    dko: list[int] = []
    runners_up: list[int] = []
    thirds: list[int] = []
    fourths: list[int] = []
    duel_outcomes: list[MatchOutcome] = []
    for pool in draw.pools_of_three:
        order, pool_line = event.pool(pool.teams, pool.name)
        lines.update(pool_line)
        dko.append(order[0])
        runners_up.append(order[1])
        thirds.append(order[2])
    for pool in draw.pools_of_four:
        first = [event.play(pair, "2a") for pair in pool_of_four_first_half(pool)]
        winners = (first[0].winner, first[1].winner)
        losers = (first[0].loser, first[1].loser)
        second = [event.play(winners, "2b"), event.play(losers, "2b")]
        places = pool_of_four_places(first, second)
        lines.update(pool_lines(pool.teams, [o.match for o in (*first, *second)]))
        dko.append(places.winner)
        runners_up.append(places.runner_up)
        thirds.append(places.third)
        fourths.append(places.fourth)
    for pair in draw.head_to_heads:
        outcome = event.play(pair, "2")
        duel_outcomes.append(outcome)
        lines.update(pool_lines(pair, [outcome.match]))
        dko.append(outcome.winner)
    seed = event.seed
    return {
        "dko": rank_group(dko, lines, seed, "rank-dko-2"),
        "runners_up": rank_group(runners_up, lines, seed, "rank-ru"),
        "thirds": rank_group(thirds, lines, seed, "rank-thirds"),
        "fourths": rank_group(fourths, lines, seed, "rank-fourths"),
        "duel_losers": [r.team_no for r in rank_droppers(duel_outcomes, seed=seed, purpose="d1")],
    }


def whist(event: Event, teams: Sequence[int]) -> tuple[int, list[int], dict[int, Fraction]]:
    """3.2.4.1: five teams, seven-board matches, VPs; the best enters 3a, the rest the Swiss."""
    vps = dict.fromkeys(teams, Fraction(0))
    for a, b in combinations(teams, 2):
        match = event.boards(a, b, 7)
        vps[a] += Fraction(WBF_25.victory_points(int(match.home_imps), int(match.away_imps), 8))
        vps[b] += Fraction(WBF_25.victory_points(int(match.away_imps), int(match.home_imps), 8))
    ranked = order_teams(
        teams, (Criterion("vps", lambda t: vps[t]),), seed=event.seed, purpose="whist"
    )
    order = [r.team_no for r in ranked]
    entry = {t: whist_entry_score(WBF_25, [vps[t]]) for t in order[1:]}
    return order[0], order[1:], entry


def week_two(event: Event, first: dict[str, list[int]]) -> dict[str, object]:
    entries = event.entries
    draw = week_two_draw(
        entries,
        runners_up=first["runners_up"],
        thirds=first["thirds"],
        duel_losers=first["duel_losers"],
        fourths=first["fourths"],
        met=frozenset(event.ko_met),
    )
    seed = event.seed
    session_2 = [event.play(pair, "2") for pair in event.choose("2", first["dko"])]
    event.drop(0, draw.swiss_first_half, dict.fromkeys(draw.swiss_first_half, Fraction(0)))
    after: list[int] = []
    if draw.whist:
        assert len(draw.whist) == 5
        best, rest, entry = whist(event, draw.whist)
        event.drop(1, rest, entry)
        after.append(best)
    outcomes_2a = [event.play(pair, "2a") for pair in draw.session_2a]
    event.drop(1, [r.team_no for r in rank_droppers(outcomes_2a, seed=seed, purpose="2a")])
    triangle_winners: list[int] = []
    triangle_others: dict[int, Fraction] = {}
    for index, triangle in enumerate(draw.triangles):
        order, lines = event.pool(triangle, f"week2-triangle-{index}")
        triangle_winners.append(order[0])
        for team in order[1:]:
            if entries >= 21:
                earned = _triangle_vps(event, f"week2-triangle-{index}", team)
                triangle_others[team] = triangle_entry_score(WBF_25, earned)
            else:
                triangle_others[team] = Fraction(0)  # 3.4.2: enter on a score of 0
    duels = [event.play(pair, "week2-h2h") for pair in draw.head_to_heads]
    sko_winners: list[MatchOutcome] = list(duels)
    if draw.session_2a:
        ranking_2b = [r.team_no for r in rank_winners(outcomes_2a, seed=seed, purpose="2b")]
        outcomes_2b = [event.play(pair, "2b") for pair in event.choose("2b", ranking_2b)]
        sko_winners += outcomes_2b
        droppers_2 = [*outcomes_2b, *duels]
    else:
        droppers_2 = duels
    ranked = [r.team_no for r in rank_droppers(droppers_2, seed=seed, purpose="drop-2")]
    event.drop(2, ranked)
    event.drop(2, list(triangle_others), triangle_others)
    return {
        "session_2": session_2,
        "sko_winners": sko_winners,
        "after": [*triangle_winners, *after],
    }


def _triangle_vps(event: Event, name: str, team: int) -> list[Fraction]:
    """VPs of a week-two triangle team's two matches on the Swiss scale (3.3.3)."""
    return [
        Fraction(WBF_25.victory_points(int(m.imps_for(team)), int(m.imps_against(team)), 14))
        for m in event.pool_matches[name]
        if team in m.teams
    ]


def swiss_half(event: Event, when: int) -> None:
    arrivals = event.entering.get(when, [])
    standing_before = [
        r.team_no
        for r in swiss_standing(
            swiss_lines(event.swiss_entries, event.swiss_matches, WBF_25, byes=event.byes),
            seed=event.seed,
            purpose=f"swiss-standing-{when}",
        )
    ]
    leader = max(
        swiss_lines(event.swiss_entries, event.swiss_matches, WBF_25, byes=event.byes).values(),
        key=lambda line: line.vps,
        default=None,
    )
    for team, override, _order in arrivals:
        if override is not None:
            event.swiss_entries[team] = override
        elif leader is None:
            event.swiss_entries[team] = Fraction(0)
        else:
            event.swiss_entries[team] = swiss_entry_score(
                WBF_25, matches_played=event.swiss_rounds, leader=leader.vps
            )
    droppers = [team for team, _o, _i in arrivals]
    if not standing_before and not droppers:
        return
    met = frozenset(event.swiss_met)
    if not standing_before:
        draw = swiss_first_round(droppers, seed=event.seed, purpose=f"swiss-round-{when}")
    else:
        had_bye = frozenset(event.byes)
        draw = swiss_round(standing_before, droppers, met=met, had_bye=had_bye)
        rest = [t for t in (*standing_before, *droppers) if t != draw.bye]
        rest = rest[2 * min(len(standing_before), len(droppers)) :]
        if rematch_free_exists(rest, met) if len(rest) <= 12 else True:
            assert draw.rematches == ()
    for home, away in draw.pairings:
        match = event.boards(home, away, 14)
        event.swiss_matches.append(match)
        event.swiss_met.add(frozenset((home, away)))
    if draw.bye is not None:
        event.byes[draw.bye] = event.byes.get(draw.bye, Fraction(0)) + 18
    event.swiss_rounds += 1


def later_weeks(event: Event, second: dict[str, object]) -> dict[str, int]:
    seed = event.seed
    session_2: list[MatchOutcome] = second["session_2"]  # type: ignore[assignment]
    ranking_3a = rank_single_knockout(
        session_2, second["sko_winners"], seed=seed, purpose="3a", after=second["after"]
    )
    assert len(ranking_3a) == 8, "session 3a always has eight teams"
    ranking_3 = [r.team_no for r in rank_winners(session_2, seed=seed, purpose="3")]
    session_3 = [event.play(p, "3") for p in event.choose("3", ranking_3)]
    outcomes_3a = [event.play(p, "3a") for p in event.choose("3a", [r.team_no for r in ranking_3a])]
    event.drop(3, [r.team_no for r in rank_droppers(outcomes_3a, seed=seed, purpose="d3a")])
    ranking_3b = [r.team_no for r in rank_winners(outcomes_3a, seed=seed, purpose="3b")]
    outcomes_3b = [event.play(p, "3b") for p in event.choose("3b", ranking_3b)]
    event.drop(4, [r.team_no for r in rank_droppers(outcomes_3b, seed=seed, purpose="d3b")])
    ranking_4a = [
        r.team_no for r in rank_single_knockout(session_3, outcomes_3b, seed=seed, purpose="4a")
    ]
    session_4 = [event.play(p, "4") for p in event.choose("4", [o.winner for o in session_3])]
    outcomes_4a = [event.play(p, "4a") for p in event.choose("4a", ranking_4a)]
    event.drop(5, [r.team_no for r in rank_droppers(outcomes_4a, seed=seed, purpose="d4a")])
    outcomes_4b = [event.play(p, "4b") for p in event.choose("4b", [o.winner for o in outcomes_4a])]
    event.drop(6, [outcomes_4b[0].loser])
    final = event.play((session_4[0].loser, outcomes_4b[0].winner), "5", final_spot=True)
    return {"dko": session_4[0].winner, "sko": final.winner, "sko_loser": final.loser}


@pytest.mark.parametrize(
    "entries",
    [pytest.param(n, id=f"appendix-3.4-{n}") for n in range(16, 21)]
    + [pytest.param(n, id=f"appendix-3.3-{n}") for n in range(21, 24)]
    + [pytest.param(24, id="appendix-3.1-24")]
    + [pytest.param(25, id="appendix-3.2.4-25")]
    + [pytest.param(n, id=f"appendix-3.2-{n}") for n in range(26, 33)],
)
@pytest.mark.parametrize("seed", ["gnot-a", "gnot-b"])
def test_every_entry_size_plays_through(entries: int, seed: str) -> None:
    event = Event(entries, seed)
    first = week_one(event)
    assert len(first["dko"]) == 8
    second = week_two(event, first)  # type: ignore[arg-type]
    finish = later_weeks(event, second)
    for when in range(8):
        if when == 6 and (len(event.swiss_entries) + len(event.entering.get(6, []))) % 2:
            # 3.1.8: the DKO winner may play the Swiss in week five as a non-contending team.
            event.drop(6, [finish["dko"]], {finish["dko"]: Fraction(0)})
            event.non_contending.add(finish["dko"])
        swiss_half(event, when)
    lines = swiss_lines(
        event.swiss_entries,
        event.swiss_matches,
        WBF_25,
        byes=event.byes,
        non_contending=frozenset(event.non_contending),
    )
    swiss = [r.team_no for r in swiss_standing(lines, seed=seed, purpose="swiss-final")]
    order = final_order(
        dko_winner=finish["dko"],
        sko_winner=finish["sko"],
        sko_final_loser=finish["sko_loser"],
        swiss=swiss,
        non_contending=event.non_contending,
    )
    assert sorted(order.order) == list(range(1, entries + 1))
    assert order.order[:3] == (finish["dko"], finish["sko"], finish["sko_loser"])
    qualification = qualify(order)
    assert len(qualification.national) == 2
    assert len(qualification.metropolitan) == -(-(entries - 2) // 7)
    assert event.choices_made > 0


# --- the American Whist group (3.2.4.1) -----------------------------------------------------


def test_whist_schedule_every_pair_once_and_one_match_a_round_3_2_4_1() -> None:
    teams = (21, 7, 13, 2, 25)
    schedule = whist_schedule(teams)
    pairs = [frozenset(pair) for _, pair in schedule]
    assert len(pairs) == 10 and set(pairs) == {frozenset(p) for p in combinations(teams, 2)}
    for round_no in {r for r, _ in schedule}:
        playing = [t for r, pair in schedule if r == round_no for t in pair]
        assert len(playing) == len(set(playing)) == 4  # one team sits out each round


@pytest.mark.parametrize("teams", [(1, 2, 3, 4), (1, 2, 3, 4, 4), (1, 2, 3, 4, 5, 6)])
def test_whist_schedule_needs_five_different_teams(teams: tuple[int, ...]) -> None:
    with pytest.raises(GnotDrawError, match="five different teams"):
        whist_schedule(teams)


def test_whist_movement_card_3_2_4_1() -> None:
    teams = (21, 7, 13, 2, 25)
    card = whist_movement(teams)
    assert len(card) == 20  # five tables, four rounds
    for table in range(1, 6):  # North-South pairs stay at their own table
        assert {t.ns_team for t in card if t.table == table} == {teams[table - 1]}
    for round_no in range(1, 5):  # every pair plays once a round, each set at one table
        at = [t for t in card if t.round == round_no]
        assert sorted(t.ns_team for t in at) == sorted(t.ew_team for t in at) == sorted(teams)
        assert len({t.board_set for t in at}) == 5
    # every match's two halves: a's NS v b's EW and b's NS v a's EW, on the same boards
    halves: dict[frozenset[int], list[WhistTable]] = {}
    for t in card:
        assert t.ns_team != t.ew_team
        halves.setdefault(frozenset((t.ns_team, t.ew_team)), []).append(t)
    assert set(halves) == {frozenset(p) for p in combinations(teams, 2)}
    for first, second in halves.values():
        assert (first.ns_team, first.ew_team) == (second.ew_team, second.ns_team)
        assert first.board_set == second.board_set and first.round != second.round
    assert sorted({t.board_set for t in card}) == list(range(1, 11))
    assert card[0].boards == (1, 7) and max(t.boards[1] for t in card) == 70


def test_whist_movement_needs_five_different_teams() -> None:
    with pytest.raises(GnotDrawError, match="five different teams"):
        whist_movement((1, 2, 3, 4, 4))
