"""The GNOT bridge-teams event in the product (seed 004): seeding, results under the tie rules
of 1.9, the choice ceremony (1.10), the Swiss repechage (1.8), qualification (1.11) and the
exchange format. Case ids name the clause; the two clauses numbered 1.9.3 are told apart by
their text ("1.9.3-28-board", "1.9.3-final-spot").
"""

from __future__ import annotations

import json
from fractions import Fraction
from math import ceil

import jsonschema
import pytest

from draws.lots import LotDrawer
from events.errors import ImportFailed, ResultConflict, UserError
from events.exchange import event_export_document, event_import_document
from events.models import AuditEntry, Event
from formats.gnot import selectors, services
from formats.gnot.bridge import WBF_25
from formats.gnot.models import (
    ChoiceRecord,
    GnotSetup,
    MatchStatus,
    SwissEntry,
    Team,
    TeamMatch,
    TeamMatchSlot,
)
from formats.gnot.rules import swiss_entry_score
from tests.conftest import REPO
from tests.events.test_schema import SCHEMA
from tests.formats.gnot.helpers import (
    choose_all,
    gnot_event,
    play_pending,
    play_through,
    seeded,
)

pytestmark = pytest.mark.django_db

ScoreInput = services.ScoreInput


# --- seeding and week one ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("entries", "threes", "fours", "duels"),
    [
        pytest.param(16, 0, 0, 8, id="3.4.1-16"),
        pytest.param(20, 4, 0, 4, id="3.4.1-20"),
        pytest.param(21, 5, 0, 3, id="3.3.2-21"),
        pytest.param(23, 7, 0, 1, id="3.3.2-23"),
        pytest.param(24, 8, 0, 0, id="3.1.1-24"),
        pytest.param(25, 7, 1, 0, id="3.2.2-25"),
        pytest.param(28, 4, 4, 0, id="3.2.2-28"),
        pytest.param(32, 0, 8, 0, id="3.2.2-32"),
    ],
)
def test_seeding_draws_week_one_for_each_entry_band(director, entries, threes, fours, duels):
    event = seeded(director, teams=entries)
    rows = selectors.match_rows(event)
    first = selectors.week_one(rows, event.lots_seed)
    kinds = [p.kind for p in first.pools]
    assert (kinds.count("three"), kinds.count("four"), kinds.count("head-to-head")) == (
        threes,
        fours,
        duels,
    )
    assert len(rows) == 3 * threes + 2 * fours + duels  # pools of four: first half only
    assert {r.boards for r in rows if r.stage.startswith("H")} <= {28}
    teams = Team.objects.filter(event=event)
    assert sorted(t.seed for t in teams) == list(range(1, entries + 1))
    top = [t.team_no for t in teams if t.section == "top"]
    assert top == list(range(1, 9))  # 3.1.1, 3.2.1, 3.3.1: the eight best seeds
    assert all(t.pool for t in teams)
    assert not first.complete


def test_seeding_outside_the_appendix_is_refused_and_changes_nothing(director):
    event = gnot_event(director, teams=15)
    with pytest.raises(UserError, match="16 to 32"):
        services.teams_seed(event=event, order=list(range(1, 16)), user=director)
    assert not TeamMatch.objects.filter(event=event).exists()
    assert not Team.objects.filter(event=event, seed__isnull=False).exists()


def test_seeding_must_list_every_team_once(director):
    event = gnot_event(director, teams=16)
    with pytest.raises(UserError, match="exactly once"):
        services.teams_seed(event=event, order=[*range(1, 16), 1], user=director)


def test_pool_of_four_second_half_is_drawn_from_the_first_3_2_3(director):
    event = seeded(director, teams=25)
    pool = TeamMatch.objects.filter(event=event, stage="P1").select_related("home", "away")
    assert len(pool) == 2
    for row, imps in zip(pool, ((40, 10), (5, 30)), strict=True):
        services.match_result_record(
            event=event, match_id=row.pk, score=ScoreInput(*imps), user=director
        )
    second = TeamMatch.objects.filter(event=event, stage="P1", round=2).select_related(
        "home", "away"
    )
    pairs = {frozenset((m.home.team_no, m.away.team_no)) for m in second}
    first_rows = list(pool)
    winners = frozenset((first_rows[0].home.team_no, first_rows[1].away.team_no))
    assert winners in pairs and len(pairs) == 2
    assert {m.half for m in second} == {"second"}


def test_a_team_plays_once_per_session_round_in_the_database(director):
    event = seeded(director, teams=24)
    row = TeamMatch.objects.filter(event=event, session="1").first()
    assert TeamMatchSlot.objects.filter(match=row).count() == 2
    with pytest.raises(UserError, match="already plays"):
        services._match_create(
            event,
            session="1",
            pair=(row.home, Team.objects.get(event=event, team_no=24)),
            round=row.round,
            table=99,
            boards=14,
        )


# --- results and the tie rules of 1.9 --------------------------------------------------------


def ko_match(event: Event, session: str, boards: int, half: str, **extra) -> TeamMatch:  # type: ignore[no-untyped-def]
    home, away = Team.objects.filter(event=event).order_by("team_no")[:2]
    match = TeamMatch.objects.create(
        event=event,
        session=session,
        table=1,
        home=home,
        away=away,
        boards=boards,
        half=half,
        **extra,
    )
    return match


def test_imps_decide_a_match(director):
    event = gnot_event(director, teams=16)
    row = ko_match(event, "2", 28, "full")
    saved = services.match_result_record(
        event=event, match_id=row.pk, score=ScoreInput(52, 31), user=director
    )
    assert (saved.status, saved.winner.team_no, saved.decided_by) == ("decided", 1, "imps")
    assert AuditEntry.objects.filter(event=event, action="gnot.result").exists()


def test_28_board_tie_needs_a_two_board_playoff_1_9_3_28_board(director):
    event = gnot_event(director, teams=16)
    row = ko_match(event, "2", 28, "full")
    saved = services.match_result_record(
        event=event, match_id=row.pk, score=ScoreInput(40, 40), user=director
    )
    assert (saved.status, saved.playoff_boards, saved.playoff_clause) == (
        "playoff_needed",
        2,
        "1.9.3-28-board",
    )
    decided = services.match_playoff_record(
        event=event, match_id=row.pk, score=ScoreInput(board_nets=(-50, 620)), user=director
    )
    assert (decided.status, decided.winner.team_no, decided.decided_by) == (
        "decided",
        1,
        "playoff",
    )
    assert decided.playoffs == [{"home_imps": 12, "away_imps": 2, "boards": [-50, 620]}]


def test_first_half_tie_is_rescored_board_a_match_1_9_1(director):
    event = gnot_event(director, teams=16)
    row = ko_match(event, "2a", 14, "first")
    with pytest.raises(UserError, match="board by board"):
        services.match_result_record(
            event=event, match_id=row.pk, score=ScoreInput(10, 10), user=director
        )
    row.refresh_from_db()
    assert row.status == "scheduled" and row.home_imps is None  # nothing saved
    # 12 IMPs each way, but the home team wins more boards (1.9.1 board-a-match).
    nets = (420, 20, 20, 20, -620, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    saved = services.match_result_record(
        event=event, match_id=row.pk, score=ScoreInput(board_nets=nets), user=director
    )
    assert (saved.home_imps, saved.away_imps) == (saved.away_imps, saved.home_imps)
    assert (saved.winner.team_no, saved.decided_by) == (1, "board-a-match")


def test_second_half_tie_needs_a_one_board_playoff_1_9_2(director):
    event = gnot_event(director, teams=16)
    row = ko_match(event, "2b", 14, "second")
    saved = services.match_result_record(
        event=event, match_id=row.pk, score=ScoreInput(7, 7), user=director
    )
    assert (saved.playoff_boards, saved.playoff_clause) == (1, "1.9.2")


def test_final_spot_tie_plays_four_boards_then_one_1_9_3_final_spot(director):
    event = gnot_event(director, teams=16)
    row = ko_match(event, "5", 28, "full", final_spot=True)
    services.match_result_record(
        event=event, match_id=row.pk, score=ScoreInput(9, 9), user=director
    )
    tied = services.match_playoff_record(
        event=event, match_id=row.pk, score=ScoreInput(3, 3), user=director
    )
    assert (tied.playoff_boards, tied.playoff_clause) == (1, "1.9.3-final-spot")
    done = services.match_playoff_record(
        event=event, match_id=row.pk, score=ScoreInput(0, 1), user=director
    )
    assert (done.winner.team_no, done.decided_by) == (2, "playoff")


def test_a_stale_version_is_a_conflict_and_saves_nothing(director, arbiter):
    event = gnot_event(director, teams=16)
    row = ko_match(event, "2", 28, "full")
    services.match_result_record(
        event=event, match_id=row.pk, score=ScoreInput(30, 20), user=director, expected_version=1
    )
    with pytest.raises(ResultConflict) as caught:
        services.match_result_record(
            event=event, match_id=row.pk, score=ScoreInput(20, 30), user=arbiter, expected_version=1
        )
    assert caught.value.current == "30–20" and caught.value.current_version == 2
    row.refresh_from_db()
    assert (row.home_imps, row.away_imps) == (30, 20)


@pytest.mark.parametrize(
    ("score", "message"),
    [
        (ScoreInput(board_nets=(10, 20)), "enter 28 board scores"),
        (ScoreInput(home_imps=3), "both teams"),
        (ScoreInput(5, 0, (420,) + (0,) * 27), "give 9–0 IMPs"),
    ],
)
def test_bad_scores_are_refused(director, score, message):
    event = gnot_event(director, teams=16)
    row = ko_match(event, "2", 28, "full")
    with pytest.raises(UserError, match=message):
        services.match_result_record(event=event, match_id=row.pk, score=score, user=director)


def test_pool_tie_for_first_schedules_a_two_board_playoff_3_1_1(director):
    event = seeded(director, teams=24)
    pool = list(TeamMatch.objects.filter(event=event, stage="P1").select_related("home", "away"))
    # A beats B, B beats C, C beats A, all by 10 IMPs: a three-way tie → one-board triangle.
    for row in pool:
        services.match_result_record(
            event=event, match_id=row.pk, score=ScoreInput(20, 10), user=director
        )
    playoffs = TeamMatch.objects.filter(event=event, stage="P1", kind="playoff")
    view = next(p for p in selectors.pools(selectors.match_rows(event), "1", "x") if p.name == "P1")
    if view.playoff_needed is not None:  # the three teams are tied: a one-board triangle
        assert view.playoff_needed.boards == 1 and playoffs.count() == 3
    for row in playoffs:
        services.match_result_record(
            event=event, match_id=row.pk, score=ScoreInput(3, 0), user=director
        )
    first = selectors.pools(selectors.match_rows(event), "1", event.lots_seed)[0]
    assert first.complete and len(first.order) == 3


# --- a whole event through the services ---------------------------------------------------


ENTRY_SIZES = [
    pytest.param(n, id=f"{clause}-{n}")
    for clause, sizes in (
        ("3.4", range(16, 21)),
        ("3.3", range(21, 24)),
        ("3.1", (24,)),
        ("3.2.4", (25,)),
        ("3.2", range(26, 33)),
    )
    for n in sizes
]


@pytest.mark.parametrize("teams", ENTRY_SIZES)
def test_an_event_plays_through_to_qualification_1_11(director, teams):
    """Every entry size of the appendix, from week one to the qualification list."""
    event = play_through(director, teams)
    view = selectors.qualification_view(event)
    assert view.result is not None, view.waiting
    assert sorted(view.final.order) == list(range(1, teams + 1))
    assert len(view.result.national) == 2
    assert len(view.result.metropolitan) == ceil(Fraction(teams - 2, 7))
    swiss = selectors.swiss_view(event)
    assert list(view.final.order[3:]) == list(swiss.order)
    # every team outside sessions 4 and 5 ended in the Swiss, entered once
    assert len(swiss.order) == teams - 3
    assert not swiss.waiting
    # 1.11.3: a qualifier opts out, the next team replaces it
    declined = view.result.national[0]
    services.team_decline_set(event=event, team_no=declined, declined=True, user=director)
    after = selectors.qualification_view(event)
    assert declined not in after.result.national + after.result.metropolitan
    assert after.result.replacements or after.result.vacant_metropolitan


def test_dko_winner_plays_the_swiss_as_non_contending_3_1_8(director):
    event = play_through(director, 24, dko_winner_in_swiss=True)
    dko = selectors.decided_outcome(selectors.match_rows(event), "4")
    entry = SwissEntry.objects.get(event=event, team__team_no=dko.winner)
    # it enters the first Swiss round paired after the director's decision (round 5 here)
    assert entry.non_contending and entry.round == 5
    assert entry.entry_rank == SwissEntry.objects.filter(event=event, round=5).count()
    swiss = selectors.swiss_view(event)
    row = next(r for r in swiss.table if r.team_no == dko.winner)
    assert row.non_contending and row.played == 3
    assert len(swiss.order) == 24 - 2  # the guest is in the table
    view = selectors.qualification_view(event)
    # 1.11.1 (a): the winner keeps first place; the Swiss order below leaves it out
    assert view.final.order[0] == dko.winner
    assert dko.winner not in view.final.swiss
    assert list(view.final.order[3:]) == [t for t in swiss.order if t != dko.winner]
    assert view.result.national[0] == dko.winner
    # once it has entered, the option cannot be withdrawn; nothing changes
    with pytest.raises(UserError, match="already entered the Swiss"):
        services.dko_winner_swiss_set(event=event, joins=False, user=director)
    assert GnotSetup.objects.get(event=event).dko_winner_swiss


def test_dko_winner_option_needs_a_decided_session_4_3_1_8(director, week_one_played):
    with pytest.raises(UserError, match="session 4 is not decided"):
        services.dko_winner_swiss_set(event=week_one_played, joins=True, user=director)
    assert not GnotSetup.objects.filter(event=week_one_played, dko_winner_swiss=True).exists()


def test_export_import_export_of_a_played_event_is_identical(director):
    event = play_through(director, 24)
    first = event_export_document(event)
    Event.objects.filter(pk=event.pk).delete()
    again = event_import_document(text=json.dumps(first), user=director)
    assert event_export_document(again) == first
    assert selectors.qualification_view(again).result is not None


# --- the choice ceremony (1.10) -----------------------------------------------------------


@pytest.fixture
def week_one_played(director):  # type: ignore[no-untyped-def]
    event = seeded(director, teams=24)
    play_pending(event, director, LotDrawer("results", "ceremony"), "1")
    return event


def test_choice_ceremony_of_session_2_3_1_2(director, week_one_played):
    event = week_one_played
    view = selectors.choice_view(event, "2")
    ranking = view.entrants.order
    assert len(ranking) == 8 and view.next_chooser == ranking[0]
    assert (view.next_rule.low, view.next_rule.high) == (4, 8)
    # out of range: nothing saved and the reason in the seed's words
    with pytest.raises(UserError, match="out of range: the team ranked 1 chooses from the teams"):
        services.choice_record(event=event, session="2", chosen=ranking[1], user=director)
    assert not ChoiceRecord.objects.filter(event=event).exists()
    # 1.10.6: no representative present, the director chooses (by lot here)
    services.choice_record(event=event, session="2", chosen=view.allowed[0], user=director)
    services.choice_forfeit_record(event=event, session="2", user=director)
    with pytest.raises(UserError, match="forfeited its choice"):
        services.choice_record(event=event, session="2", chosen=ranking[7], user=director)
    services.choice_lot_record(event=event, session="2", user=director)
    view = selectors.choice_view(event, "2")
    assert view.next_chooser == ranking[2]
    services.choice_record(event=event, session="2", chosen=view.allowed[0], user=director)
    matches = TeamMatch.objects.filter(event=event, session="2")
    assert matches.count() == 4 and {m.boards for m in matches} == {28}
    with pytest.raises(UserError, match="already been drawn"):
        services.choice_record(event=event, session="2", chosen=ranking[4], user=director)
    kinds = list(ChoiceRecord.objects.filter(event=event).values_list("kind", "by_lot"))
    assert kinds == [("choice", False), ("forfeit", False), ("choice", True), ("choice", False)]


def test_session_2a_pairs_runners_up_with_thirds_3_1_3(director, week_one_played):
    event = week_one_played
    services.session_draw(event=event, session="2a", user=director)
    first = selectors.week_one(selectors.match_rows(event), event.lots_seed)
    rows = TeamMatch.objects.filter(event=event, session="2a").select_related("home", "away")
    assert len(rows) == 8
    assert {r.home.team_no for r in rows} == set(first.runners_up)
    assert {r.away.team_no for r in rows} == set(first.thirds)


def test_appeal_swaps_positions_in_the_draw_1_10_7(director, week_one_played):
    event = week_one_played
    services.session_draw(event=event, session="2a", user=director)
    row = TeamMatch.objects.filter(event=event, session="2a").select_related("home", "away")[0]
    other = TeamMatch.objects.filter(event=event, session="2a").select_related("away")[1]
    a, b = row.home.team_no, other.away.team_no
    services.appeal_swap_record(event=event, session="2a", first=a, second=b, user=director)
    row.refresh_from_db()
    assert row.home.team_no == b
    assert ChoiceRecord.objects.get(event=event, kind="appeal_swap").chooser.team_no == a


# --- the Swiss repechage (1.8) -------------------------------------------------------------


def test_swiss_entry_scores_and_kth_v_kth_1_8_3_1_8_5(director, week_one_played):
    event = week_one_played
    lots = LotDrawer("results", "swiss")
    services.session_draw(event=event, session="2a", user=director)
    choose_all(event, director, "2")
    play_pending(event, director, lots, "2a")
    services.swiss_round_pair(event=event, user=director)  # 2a losers, round 1 by lot
    assert TeamMatch.objects.filter(event=event, session="swiss", round=1).count() == 4
    with pytest.raises(UserError, match="not complete"):
        services.swiss_round_pair(event=event, user=director)
    play_pending(event, director, lots, "swiss")
    choose_all(event, director, "2b")
    play_pending(event, director, lots, "2b")
    before = selectors.swiss_view(event)
    leader = before.leader_vps
    services.swiss_round_pair(event=event, user=director)
    view = selectors.swiss_view(event)
    entered = [row for row in view.table if row.entered_round == 2]
    assert len(entered) == 4
    expected = swiss_entry_score(WBF_25, matches_played=1, leader=leader)
    assert expected == min(max(Fraction(20), leader), leader + 5)
    assert {row.entry_score for row in entered} == {expected}
    droppers = list(
        TeamMatch.objects.filter(event=event, session="swiss", round=2)
        .order_by("table")
        .select_related("home", "away")
    )[:4]
    entering = [e.team.team_no for e in event.swiss_entries.filter(round=2).order_by("entry_rank")]
    assert [m.away.team_no for m in droppers] == entering
    assert [m.home.team_no for m in droppers] == list(before.order[:4])


def test_swiss_table_orders_by_vps_then_net_imps_1_9_4(director):
    event = play_through(director, 24)
    table = selectors.swiss_view(event).table
    keys = [(row.vps, row.net_imps) for row in table]
    assert keys == sorted(keys, reverse=True)
    assert len(table) == 21


# --- the worked example --------------------------------------------------------------------


def test_the_worked_example_imports_and_replays(director):
    text = (REPO / "examples" / "gnot-2012.json").read_text()
    event = event_import_document(text=text, user=director)
    assert Team.objects.filter(event=event).count() == 24
    first = selectors.week_one(selectors.match_rows(event), event.lots_seed)
    assert first.complete
    assert selectors.choice_view(event, "2").drawn
    assert TeamMatch.objects.filter(event=event, status=MatchStatus.SCHEDULED).exists()
    assert event_export_document(event) == json.loads(text)


# --- exactly 25 teams: the American Whist group (3.2.4, 3.2.4.1, 3.2.4.2) ------------------


def test_25_teams_play_the_american_whist_group_3_2_4_1(director):
    event = seeded(director, teams=25)
    lots = LotDrawer("results", "whist")
    play_pending(event, director, lots, "1")
    first = selectors.week_one(selectors.match_rows(event), event.lots_seed)
    services.session_draw(event=event, session="2a", user=director)
    rows = selectors.match_rows(event)
    whist_rows = [r for r in rows if r.stage == "W"]
    # the two bottom runners-up, the two bottom thirds and the fourth: ten 7-board matches
    group = {*first.runners_up[-2:], *first.thirds[-2:], *first.fourths}
    assert {t for r in whist_rows for t in (r.home.team_no, r.away.team_no)} == group
    assert len(whist_rows) == 10 and {r.boards for r in whist_rows} == {7}
    assert len([r for r in rows if r.session == "2a" and not r.stage]) == 6
    # nobody waits alone in the Swiss in the first half of week two (3.2.4)
    assert not selectors.swiss_view(event).waiting
    choose_all(event, director, "2")
    play_pending(event, director, lots, "2")
    play_pending(event, director, lots, "2a")
    # 3.2.4.2: six teams in session 2b; the two highest ranked choose from the other four
    view = selectors.choice_view(event, "2b")
    assert len(view.entrants.order) == 6
    assert [(r.chooser, r.low, r.high) for r in view.state.rules] == [(1, 3, 6), (2, 3, 6)]
    choose_all(event, director, "2b")
    play_pending(event, director, lots, "2b")
    # the whist winner enters session 3a as the bottom-ranked team
    rows = selectors.match_rows(event)
    scoring = selectors.whist_scoring(event)
    whist = selectors.whist_group(rows, event.lots_seed, scoring)
    assert whist.complete
    entrants = selectors.choice_view(event, "3a").entrants
    assert len(entrants.order) == 8 and entrants.order[-1] == whist.order[0]
    # the other four enter the Swiss on a quarter of their whist VPs
    lines = selectors.whist_lines(whist, scoring)
    waiting = {d.team_no: d for d in selectors.swiss_view(event).waiting}
    for team in whist.order[1:]:
        assert waiting[team].fixed_entry == lines[team].vps / 4


def test_whist_scale_is_chosen_before_results_3_2_4_1(director):
    event = seeded(director, teams=25)
    services.gnot_whist_scale_set(event=event, scale="wbf-2013-20", boards=8, user=director)
    scoring = selectors.whist_scoring(event)
    assert (scoring.scale.code, scoring.boards, scoring.swiss.code) == (
        "wbf-2013-20",
        8,
        "wbf-25",
    )
    with pytest.raises(UserError, match="unknown VP scale"):
        services.gnot_whist_scale_set(event=event, scale="nswba-9", boards=8, user=director)
    play_pending(event, director, LotDrawer("results", "whist-scale"), "1")
    services.session_draw(event=event, session="2a", user=director)
    row = TeamMatch.objects.filter(event=event, stage="W").first()
    services.match_result_record(
        event=event, match_id=row.pk, score=ScoreInput(home_imps=10, away_imps=3), user=director
    )
    with pytest.raises(UserError, match="American Whist group has results"):
        services.gnot_whist_scale_set(event=event, scale="", boards=8, user=director)
    assert GnotSetup.objects.get(event=event).whist_vp_scale == "wbf-2013-20"


def test_whist_settings_and_guest_travel_in_the_exchange_format(director):
    event = play_through(director, 25, dko_winner_in_swiss=True)
    services_setup = GnotSetup.objects.get(event=event)
    services_setup.whist_scale_boards = 9  # not the default, so it is written
    services_setup.save()
    first = event_export_document(event)
    jsonschema.validate(json.loads(json.dumps(first)), SCHEMA)
    assert first["whist_scale"] == {"scale": "", "boards": 9}
    assert first["dko_winner_swiss"] is True
    assert sum(1 for e in first["swiss_entries"] if e.get("non_contending")) == 1
    Event.objects.filter(pk=event.pk).delete()
    again = event_import_document(text=json.dumps(first), user=director)
    assert event_export_document(again) == first


# --- the event's own band table ---------------------------------------------------------------

BANDS_TEXT = """# the director's printed scale
14 0 15 15
14 3 16 14
14 10 20 10
14 40 25 5
8 0 15 15
8 5 20 10
"""


def test_event_band_table_is_stored_chosen_and_used(director):
    event = seeded(director, teams=25)
    tables = services.parse_band_lines(BANDS_TEXT)
    services.gnot_bands_set(event=event, tables=tables, user=director)
    services.gnot_setup_set(event=event, vp_scale="event-bands", user=director)
    scale = selectors.scale_of(event)
    assert scale.code == "event-bands" and scale.victory_points(13, 0, 14) == 20
    # the whist group on the same table takes its 8-board bands
    assert selectors.whist_scoring(event).scale.victory_points(5, 0, 8) == 20
    assert AuditEntry.objects.filter(event=event, action="gnot.vp_bands").count() == 1


@pytest.mark.parametrize(
    ("text", "message"),
    [
        pytest.param("14 0 15", "BOARDS MARGIN WINNER LOSER", id="three-numbers"),
        pytest.param("14 x 15 15", "whole numbers", id="not-a-number"),
        pytest.param("14 0 15 15\n14 3 14 16", "at least the loser's", id="not-a-scale"),
        pytest.param("0 0 15 15", "boards start at 1", id="no-boards"),
    ],
)
def test_a_bad_band_table_is_refused_with_the_line_and_changes_nothing(director, text, message):
    event = seeded(director, teams=16)
    with pytest.raises(UserError, match=message):
        services.gnot_bands_set(event=event, tables=services.parse_band_lines(text), user=director)
    assert not GnotSetup.objects.filter(event=event).exclude(vp_bands={}).exists()


def test_event_bands_cannot_be_chosen_before_they_are_entered(director):
    event = seeded(director, teams=16)
    with pytest.raises(UserError, match="enter the event's band table first"):
        services.gnot_setup_set(event=event, vp_scale="event-bands", user=director)


def test_scale_and_band_table_lock_once_the_swiss_has_entries_1_8_3(director):
    event = play_through(director, 16)
    with pytest.raises(UserError, match="can no longer change"):
        services.gnot_setup_set(event=event, vp_scale="wbf-2013-20", user=director)
    assert selectors.vp_scale_code(event) == "wbf-25"
    tables = services.parse_band_lines(BANDS_TEXT)
    services.gnot_bands_set(event=event, tables=tables, user=director)  # not in use: allowed
    with pytest.raises(UserError, match="can no longer change"):
        services.gnot_setup_set(event=event, vp_scale="event-bands", user=director)


def test_band_table_travels_in_the_exchange_format(director):
    event = seeded(director, teams=16)
    tables = services.parse_band_lines(BANDS_TEXT)
    services.gnot_bands_set(event=event, tables=tables, user=director)
    services.gnot_setup_set(event=event, vp_scale="event-bands", user=director)
    first = event_export_document(event)
    assert first["vp_scale"] == "event-bands" and first["vp_bands"]["8"][1] == [5, "20", "10"]
    jsonschema.validate(json.loads(json.dumps(first)), SCHEMA)
    Event.objects.filter(pk=event.pk).delete()
    again = event_import_document(text=json.dumps(first), user=director)
    assert event_export_document(again) == first
    # a document whose table is not a scale is refused, naming the key, and nothing is created
    broken = {**first, "slug": "broken-bands", "vp_bands": {"14": [[1, "15", "15"]]}}
    with pytest.raises(ImportFailed, match="vp_bands"):
        event_import_document(text=json.dumps(broken), user=director)
    assert not Event.objects.filter(slug="broken-bands").exists()


def test_the_25_team_demo_imports_with_its_whist_group_and_guest(director):
    """examples/gnot-2012-25.json (loaded by ``make run``), made with
    ``play_through(director, 25, dko_winner_in_swiss=True)``."""
    event = event_import_document(
        text=(REPO / "examples" / "gnot-2012-25.json").read_text(), user=director
    )
    rows = selectors.match_rows(event)
    whist = selectors.whist_group(rows, event.lots_seed, selectors.whist_scoring(event))
    assert whist is not None and whist.complete
    view = selectors.qualification_view(event)
    assert view.result is not None and len(view.final.order) == 25
    guest = SwissEntry.objects.get(event=event, non_contending=True)
    assert view.final.order[0] == guest.team.team_no


def test_swiss_scale_locks_once_the_whist_group_that_follows_it_has_results(director):
    event = seeded(director, teams=25)
    play_pending(event, director, LotDrawer("results", "whist-lock"), "1")
    services.session_draw(event=event, session="2a", user=director)
    row = TeamMatch.objects.filter(event=event, stage="W").first()
    services.match_result_record(
        event=event, match_id=row.pk, score=ScoreInput(home_imps=10, away_imps=3), user=director
    )
    with pytest.raises(UserError, match="uses the Swiss scale, has results"):
        services.gnot_setup_set(event=event, vp_scale="wbf-2013-20", user=director)
    assert selectors.vp_scale_code(event) == "wbf-25"
