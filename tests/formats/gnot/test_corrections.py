"""Undoing a GNOT match's result and marking a final spot (issue 8; formats.gnot.corrections).

Services first (every refusal changes nothing: match rows, audit entries, results version),
then the match page through the test client with personas (house style 6). Case ids name the
clause where there is one; the two clauses numbered 1.9.3 are told apart by their text.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from draws.lots import LotDrawer
from events.errors import ResultConflict, UserError
from events.models import AuditEntry, Event
from events.services import access_grant
from formats.gnot import corrections, selectors, services
from formats.gnot.models import (
    ChoiceRecord,
    GnotSetup,
    MatchStatus,
    SwissEntry,
    Team,
    TeamMatch,
)
from tests.conftest import make_event
from tests.formats.gnot.helpers import gnot_event, play_pending, seeded

pytestmark = pytest.mark.django_db

ScoreInput = services.ScoreInput
TIED_ON_BOARDS = (420, 20, 20, 20, -620, 0, 0, 0, 0, 0, 0, 0, 0, 0)  # 12–12, home wins 4–1 BAM


def ko_match(event: Event, session: str, boards: int, half: str, teams=(1, 2), **extra):  # type: ignore[no-untyped-def]
    home, away = (Team.objects.get(event=event, team_no=n) for n in teams)
    table = TeamMatch.objects.filter(event=event, session=session).count() + 1
    return TeamMatch.objects.create(
        event=event,
        session=session,
        table=table,
        home=home,
        away=away,
        boards=boards,
        half=half,
        **extra,
    )


def record(event: Event, row: TeamMatch, user, *imps: int, nets=()) -> TeamMatch:  # type: ignore[no-untyped-def]
    return services.match_result_record(
        event=event, match_id=row.pk, score=ScoreInput(*imps, board_nets=tuple(nets)), user=user
    )


def playoff(event: Event, row: TeamMatch, user, *imps: int) -> TeamMatch:  # type: ignore[no-untyped-def]
    return services.match_playoff_record(
        event=event, match_id=row.pk, score=ScoreInput(*imps), user=user
    )


def latest(event: Event, action: str = "gnot.result") -> AuditEntry:
    entry = AuditEntry.objects.filter(event=event, action=action).order_by("-id").first()
    assert entry is not None
    return entry


def undo(event: Event, entry: AuditEntry, user, **extra: Any) -> AuditEntry:  # type: ignore[no-untyped-def]
    return corrections.match_result_undo(event=event, entry_id=entry.pk, user=user, **extra)


def state(event: Event) -> tuple[Any, ...]:
    """Everything a refused undo or mark must leave as it was."""
    event.refresh_from_db()
    matches = tuple(
        TeamMatch.objects.filter(event=event)
        .order_by("pk")
        .values_list(
            "pk", "home_imps", "away_imps", "playoffs", "status", "winner", "final_spot", "version"
        )
    )
    entries = tuple(AuditEntry.objects.filter(event=event).values_list("pk", "undone_by"))
    return matches, entries, event.results_version


def refused(event: Event, message: str, call, /, *args: Any, **kwargs: Any) -> None:  # type: ignore[no-untyped-def]
    before = state(event)
    with pytest.raises(UserError, match=message):
        call(*args, **kwargs)
    assert state(event) == before


@pytest.fixture
def event16(director):  # type: ignore[no-untyped-def]
    """16 registered teams, nothing drawn: knock-out matches are made by hand."""
    return gnot_event(director, teams=16)


@pytest.fixture
def week_one_played(director):  # type: ignore[no-untyped-def]
    event = seeded(director, teams=24)
    play_pending(event, director, LotDrawer("corrections", "week one"), "1")
    return event


# --- undo: success paths ----------------------------------------------------------------------


def test_undo_of_the_first_result_puts_the_match_back_to_be_played(event16, director):
    row = ko_match(event16, "2", 28, "full")
    record(event16, row, director, 52, 31)
    entry = latest(event16)
    version = Event.objects.get(pk=event16.pk).results_version
    done = undo(event16, entry, director)
    row.refresh_from_db()
    assert (row.status, row.home_imps, row.winner, row.version) == ("scheduled", None, None, 3)
    assert Event.objects.get(pk=event16.pk).results_version == version + 1
    assert done.action == "gnot.result.undo" and done.summary.startswith("Undid: session 2")
    assert done.before["match"] == done.after["match"] == row.pk
    assert done.before["home_imps"] == 52 and done.after["status"] == "scheduled"
    entry.refresh_from_db()
    assert entry.undone_by == done


def test_undoing_walks_back_through_corrections(event16, director):
    row = ko_match(event16, "2", 28, "full")
    record(event16, row, director, 52, 31)
    first = latest(event16)
    record(event16, row, director, 31, 52)
    undo(event16, latest(event16), director)
    row.refresh_from_db()
    assert (row.home_imps, row.away_imps, row.winner.team_no, row.decided_by) == (52, 31, 1, "imps")
    history = corrections.match_history(event16, row, selectors.match_rows(event16))
    assert [e.action for e in history] == ["gnot.result.undo", "gnot.result", "gnot.result"]
    changes = corrections.match_changes(event16, row, selectors.match_rows(event16))
    assert changes.undoable == first and not changes.blocked
    undo(event16, first, director)
    row.refresh_from_db()
    assert row.status == "scheduled"
    assert corrections.match_changes(event16, row, selectors.match_rows(event16)).undoable is None


def test_undo_of_playoff_boards_asks_for_the_playoff_again_1_9_3_28_board(event16, director):
    row = ko_match(event16, "3", 28, "full")
    record(event16, row, director, 40, 40)
    playoff(event16, row, director, 12, 2)
    done = undo(event16, latest(event16, "gnot.playoff"), director)
    row.refresh_from_db()
    assert done.action == "gnot.playoff.undo"
    assert (row.status, row.playoffs, row.playoff_boards, row.playoff_clause) == (
        "playoff_needed",
        [],
        2,
        "1.9.3-28-board",
    )
    assert row.winner is None
    undo(event16, latest(event16, "gnot.result"), director)  # and then the tied result
    row.refresh_from_db()
    assert row.status == "scheduled" and row.playoff_boards is None


def test_undo_of_the_second_playoff_keeps_the_first_1_9_3_final_spot(event16, director):
    row = ko_match(event16, "5", 28, "full", final_spot=True)
    record(event16, row, director, 9, 9)
    playoff(event16, row, director, 3, 3)
    playoff(event16, row, director, 0, 1)
    undo(event16, latest(event16, "gnot.playoff"), director)
    row.refresh_from_db()
    assert row.playoffs == [{"home_imps": 3, "away_imps": 3, "boards": []}]
    assert (row.status, row.playoff_boards) == ("playoff_needed", 1)


# --- undo: refusals -------------------------------------------------------------------------


def test_an_undone_change_is_not_undone_twice(event16, director):
    row = ko_match(event16, "2", 28, "full")
    record(event16, row, director, 52, 31)
    entry = latest(event16)
    done = undo(event16, entry, director)
    refused(event16, "already been undone", undo, event16, entry, director)
    refused(event16, "not undone in turn", undo, event16, done, director)


def test_a_later_change_must_be_undone_first(event16, director):
    row = ko_match(event16, "2", 28, "full")
    record(event16, row, director, 52, 31)
    older = latest(event16)
    record(event16, row, director, 50, 31)
    refused(
        event16, "later change of this match must be undone first", undo, event16, older, director
    )


def test_a_match_changed_without_an_entry_is_not_undone(event16, director):
    row = ko_match(event16, "2", 28, "full")
    record(event16, row, director, 52, 31)
    TeamMatch.objects.filter(pk=row.pk).update(home_imps=53)  # as an import would
    refused(
        event16,
        "changed since this entry; it now reads 53–31",
        undo,
        event16,
        latest(event16),
        director,
    )
    row.refresh_from_db()
    changes = corrections.match_changes(event16, row, selectors.match_rows(event16))
    assert changes.blocked and "changed since" in changes.blocked[0]


@pytest.mark.parametrize(
    ("entry_of", "message"),
    [
        ("unknown", "does not exist"),
        ("other_event", "does not exist"),
        ("teams", "only match results and playoff boards"),
        ("final_spot", "its own button"),
        ("other_match", "belongs to another match"),
    ],
)
def test_only_this_events_match_results_are_undone(event16, director, entry_of, message):
    row = ko_match(event16, "2", 28, "full")
    other = ko_match(event16, "2", 28, "full", teams=(3, 4))
    record(event16, row, director, 52, 31)
    corrections.match_final_spot_set(
        event=event16, match_id=other.pk, final_spot=True, user=director
    )
    elsewhere = gnot_event(director, teams=2, name="Elsewhere")
    entries = {
        "unknown": AuditEntry(pk=10**9),
        "other_event": AuditEntry.objects.filter(event=elsewhere).first(),
        "teams": latest(event16, "gnot.teams_register"),
        "final_spot": latest(event16, "gnot.final_spot"),
        "other_match": latest(event16),
    }
    extra = {"match_id": other.pk} if entry_of == "other_match" else {}
    refused(event16, message, undo, event16, entries[entry_of], director, **extra)


def test_a_chess_event_has_no_match_undo(director):
    chess = make_event(director, name="Chess")
    with pytest.raises(UserError, match="not a GNOT"):
        corrections.match_result_undo(event=chess, entry_id=1, user=director)


@pytest.mark.parametrize(
    ("session", "drawn"),
    [
        pytest.param("2", "3", id="3.1.4-winners"),
        pytest.param("2", "3a", id="3.1.4-losers"),
        pytest.param("2b", "3a", id="3.1.6"),
        pytest.param("3b", "4a", id="3.1.9"),
        pytest.param("4", "5", id="3.1.10"),
    ],
)
def test_refused_once_the_next_session_is_drawn(event16, director, session, drawn):
    row = ko_match(event16, session, 14 if session.endswith("b") else 28, "full")
    record(event16, row, director, 30, 12)
    ko_match(event16, drawn, 14, "first", teams=(5, 6))
    refused(event16, f"session {drawn} has been drawn", undo, event16, latest(event16), director)


def test_refused_once_the_choice_for_the_next_session_has_started_1_10(event16, director):
    row = ko_match(event16, "2", 28, "full")
    record(event16, row, director, 30, 12)
    teams = {t.team_no: t for t in Team.objects.filter(event=event16)}
    ChoiceRecord.objects.create(
        event=event16, session="3", seq=1, kind="choice", chooser=teams[1], chosen=teams[7]
    )
    refused(
        event16,
        "choice of opponents for session 3 has started",
        undo,
        event16,
        latest(event16),
        director,
    )


def test_refused_when_the_director_let_the_dko_winner_into_the_swiss_3_1_8(event16, director):
    if not hasattr(GnotSetup, "dko_winner_swiss"):
        pytest.skip("3.1.8's option is not in this version")
    row = ko_match(event16, "4", 28, "full")
    record(event16, row, director, 30, 12)
    GnotSetup.objects.update_or_create(event=event16, defaults={"dko_winner_swiss": True})
    refused(
        event16, "Double Knockout winner play the Swiss", undo, event16, latest(event16), director
    )


def test_a_week_one_result_is_refused_once_session_2a_is_drawn(week_one_played, director):
    event = week_one_played
    row = TeamMatch.objects.filter(event=event, session="1").order_by("pk").first()
    entry = next(e for e in corrections.match_history(event, row, selectors.match_rows(event)))
    services.session_draw(event=event, session="2a", user=director)
    refused(event, "session 2a has been drawn", undo, event, entry, director)


def test_a_week_one_result_is_refused_once_session_2s_choice_started(week_one_played, director):
    event = week_one_played
    view = selectors.choice_view(event, "2")
    services.choice_record(event=event, session="2", chosen=view.allowed[0], user=director)
    row = TeamMatch.objects.filter(event=event, session="1").order_by("pk").first()
    entry = corrections.match_history(event, row, selectors.match_rows(event))[0]
    refused(event, "choice of opponents for session 2 has started", undo, event, entry, director)


def test_refused_once_the_loser_entered_the_swiss_and_once_the_next_round_is_paired_1_8(
    week_one_played, director
):
    event = week_one_played
    services.session_draw(event=event, session="2a", user=director)
    play_pending(event, director, LotDrawer("corrections", "2a"), "2a")
    row = TeamMatch.objects.filter(event=event, session="2a").select_related("winner").first()
    entry = corrections.match_history(event, row, selectors.match_rows(event))[0]
    services.swiss_round_pair(event=event, user=director)
    loser = row.away if row.winner_id == row.home_id else row.home
    assert SwissEntry.objects.filter(event=event, team=loser, round=1).exists()
    refused(event, f"{loser.name} entered the Swiss in round 1", undo, event, entry, director)
    # a Swiss round-1 result: free until round 2 is paired
    play_pending(event, director, LotDrawer("corrections", "swiss"), "swiss")
    swiss = TeamMatch.objects.filter(event=event, session="swiss").order_by("pk").first()
    swiss_entry = corrections.match_history(event, swiss, selectors.match_rows(event))[0]
    assert not corrections.match_changes(event, swiss, selectors.match_rows(event)).blocked
    services.swiss_round_pair(event=event, user=director)
    refused(event, "Swiss round 2 has been paired", undo, event, swiss_entry, director)


# --- follow-ups: pool playoffs (3.1.1) and a pool of four's second half (3.2.3) -------------


def _tie_two_for_first(event: Event, user) -> dict[str, TeamMatch]:  # type: ignore[no-untyped-def]
    """Pool P1: the two best teams draw and both beat the third by 20: tied on wins, net IMPs
    and quotient, so 3.1.1 asks for a two-board playoff between them."""
    pool = list(TeamMatch.objects.filter(event=event, stage="P1").select_related("home", "away"))
    third = max(t.team_no for m in pool for t in (m.home, m.away))
    matches: dict[str, TeamMatch] = {}
    for row in pool:
        if third not in (row.home.team_no, row.away.team_no):
            record(event, row, user, 10, 10)
            matches["draw"] = row
        elif row.home.team_no == third:
            record(event, row, user, 10, 30)
        else:
            record(event, row, user, 30, 10)
    playoffs = TeamMatch.objects.filter(event=event, stage="P1", kind="playoff")
    assert playoffs.count() == 1 and playoffs[0].boards == 2
    matches["playoff"] = playoffs.select_related("home", "away")[0]
    return matches


def test_undo_removes_an_unplayed_pool_playoff_and_refuses_a_played_one_3_1_1(director):
    event = seeded(director, teams=24)
    pool = _tie_two_for_first(event, director)
    draw, first_playoff = pool["draw"], pool["playoff"]
    rows = selectors.match_rows(event)
    assert services._label(draw) == services._label(first_playoff)  # twins: told apart by state
    assert [e.action for e in corrections.match_history(event, first_playoff, rows)] == []
    changes = corrections.match_changes(event, draw, rows)
    assert changes.pending and not changes.blocked
    done = undo(event, changes.undoable, director)
    assert not TeamMatch.objects.filter(pk=first_playoff.pk).exists()
    assert done.after["follow_ups"]["removed"] == [corrections._describe(first_playoff)]
    assert "removed the pool playoff" in done.summary
    # entered again: the playoff is scheduled again; once played, the draw cannot be undone
    record(event, draw, director, 10, 10)
    again = TeamMatch.objects.get(event=event, stage="P1", kind="playoff")
    services.match_result_record(
        event=event, match_id=again.pk, score=ScoreInput(3, 1), user=director
    )
    rows = selectors.match_rows(event)
    assert [e.action for e in corrections.match_history(event, draw, rows)] == [
        "gnot.result",
        "gnot.result.undo",
        "gnot.result",
    ]
    assert len(corrections.match_history(event, again, rows)) == 1
    refused(
        event,
        "pool playoff .* has a result",
        undo,
        event,
        corrections.match_changes(event, draw, rows).undoable,
        director,
    )
    # the playoff itself can be undone, and then the draw
    undo(event, corrections.match_changes(event, again, rows).undoable, director)
    rows = selectors.match_rows(event)
    undo(event, corrections.match_changes(event, draw, rows).undoable, director)
    assert not TeamMatch.objects.filter(event=event, stage="P1", kind="playoff").exists()


def test_undo_reschedules_a_pool_of_fours_second_half_3_2_3(director):
    event = seeded(director, teams=26)
    first, other = TeamMatch.objects.filter(event=event, stage="P1").order_by("table")
    record(event, first, director, 40, 10)
    record(event, other, director, 5, 30)
    halves = TeamMatch.objects.filter(event=event, stage="P1", round=2)
    winners = {first.home_id, other.away_id}
    assert any({m.home_id, m.away_id} == winners for m in halves)
    # the first result was wrong: undo it, enter the right one; the second half follows
    done = undo(
        event, corrections.match_history(event, first, selectors.match_rows(event))[0], director
    )
    assert not TeamMatch.objects.filter(event=event, stage="P1", round=2).exists()
    assert len(done.after["follow_ups"]["removed"]) == 2
    record(event, first, director, 10, 40)
    halves = TeamMatch.objects.filter(event=event, stage="P1", round=2)
    assert any({m.home_id, m.away_id} == {first.away_id, other.away_id} for m in halves)
    # once the second half has a result, the first half is no longer undone
    record(event, halves[0], director, 20, 10)
    rows = selectors.match_rows(event)
    entry = corrections.match_history(event, first, rows)[0]
    refused(event, "second-half match .* has a result", undo, event, entry, director)


def test_re_entry_re_pairs_an_unplayed_second_half_3_2_3(director):
    """Correcting a first-half result by re-entry removes the second half the old result
    paired and pairs it again from the new one: winners v winners, losers v losers."""
    event = seeded(director, teams=26)
    first, other = TeamMatch.objects.filter(event=event, stage="P1").order_by("table")
    record(event, first, director, 40, 10)
    record(event, other, director, 5, 30)
    record(event, first, director, 10, 40)  # the other team of the first match now won
    second = TeamMatch.objects.filter(event=event, stage="P1", round=2)
    pairs = {frozenset((m.home_id, m.away_id)) for m in second}
    winners = {first.away_id, other.away_id}
    losers = {first.home_id, other.home_id}
    assert pairs == {frozenset(winners), frozenset(losers)}
    changes = corrections.match_changes(event, first, selectors.match_rows(event))
    assert len(changes.pending) == 2


def test_re_entry_is_refused_once_the_second_half_has_a_result(director):
    event = seeded(director, teams=26)
    first, other = TeamMatch.objects.filter(event=event, stage="P1").order_by("table")
    record(event, first, director, 40, 10)
    record(event, other, director, 5, 30)
    played = TeamMatch.objects.filter(event=event, stage="P1", round=2).first()
    record(event, played, director, 20, 10)
    with pytest.raises(UserError, match="has been played; undo its result first"):
        record(event, first, director, 10, 40)
    first.refresh_from_db()
    assert (first.home_imps, first.away_imps) == (40, 10)


def test_re_entry_after_the_draw_keeps_the_draw_1_10_7(week_one_played, director):
    """A correction entered after session 2a was drawn is saved (an appeal, 1.10.7); the draw
    stays as it was; the match page lists what was built on the result; no undo is offered."""
    event = week_one_played
    services.session_draw(event=event, session="2a", user=director)
    drawn = list(TeamMatch.objects.filter(event=event, session="2a").values_list("home", "away"))
    row = TeamMatch.objects.filter(event=event, session="1").order_by("pk").first()
    record(event, row, director, (row.home_imps or 0) + 1, row.away_imps or 0)
    assert (
        list(TeamMatch.objects.filter(event=event, session="2a").values_list("home", "away"))
        == drawn
    )
    changes = corrections.match_changes(event, row, selectors.match_rows(event))
    assert "session 2a has been drawn" in changes.dependents
    assert changes.blocked == changes.dependents


# --- the final spot (the second 1.9.3) -------------------------------------------------------


def test_marking_a_final_spot_changes_the_tie_rule_1_9_3_final_spot(event16, director):
    row = ko_match(event16, "4", 28, "full")
    version = Event.objects.get(pk=event16.pk).results_version
    saved = corrections.match_final_spot_set(
        event=event16, match_id=row.pk, final_spot=True, user=director, expected_version=1
    )
    assert saved.final_spot and saved.version == 2
    entry = latest(event16, "gnot.final_spot")
    assert (entry.before["final_spot"], entry.after["final_spot"], entry.after["match"]) == (
        False,
        True,
        row.pk,
    )
    assert "1.9.3-final-spot" in entry.summary
    assert Event.objects.get(pk=event16.pk).results_version == version + 1
    tied = record(event16, row, director, 20, 20)
    assert (tied.playoff_boards, tied.playoff_clause) == (4, "1.9.3-final-spot")


def test_a_tie_waiting_for_its_playoff_is_asked_for_the_other_rules_playoff(event16, director):
    row = ko_match(event16, "3", 28, "full")
    record(event16, row, director, 20, 20)
    marked = corrections.match_final_spot_set(
        event=event16, match_id=row.pk, final_spot=True, user=director
    )
    assert (marked.status, marked.playoff_boards, marked.playoff_clause) == (
        "playoff_needed",
        4,
        "1.9.3-final-spot",
    )
    assert "a 4-board playoff is needed" in latest(event16, "gnot.final_spot").summary
    back = corrections.match_final_spot_set(
        event=event16, match_id=row.pk, final_spot=False, user=director
    )
    assert (back.playoff_boards, back.playoff_clause) == (2, "1.9.3-28-board")


def test_a_match_won_on_imps_can_be_marked_its_result_stands(event16, director):
    row = ko_match(event16, "4", 28, "full")
    record(event16, row, director, 30, 12)
    marked = corrections.match_final_spot_set(
        event=event16, match_id=row.pk, final_spot=True, user=director
    )
    assert (marked.status, marked.winner.team_no, marked.decided_by) == ("decided", 1, "imps")


def test_the_same_mark_again_writes_nothing(event16, director):
    row = ko_match(event16, "4", 28, "full")
    before = state(event16)
    corrections.match_final_spot_set(
        event=event16, match_id=row.pk, final_spot=False, user=director
    )
    assert state(event16) == before


def _played_off(event: Event, user) -> TeamMatch:  # type: ignore[no-untyped-def]
    row = ko_match(event, "3", 28, "full")
    record(event, row, user, 20, 20)
    playoff(event, row, user, 5, 1)
    return row


def _rescored(event: Event, user) -> TeamMatch:  # type: ignore[no-untyped-def]
    row = ko_match(event, "3a", 14, "first")
    record(event, row, user, nets=TIED_ON_BOARDS)
    return row


def _pool_match(event: Event, user) -> TeamMatch:  # type: ignore[no-untyped-def]
    return ko_match(event, "1", 14, "full", stage="P1")


def _swiss_match(event: Event, user) -> TeamMatch:  # type: ignore[no-untyped-def]
    return ko_match(event, "swiss", 14, "full")


@pytest.mark.parametrize(
    ("make", "final_spot", "message"),
    [
        pytest.param(_played_off, True, "playoff boards have been played under 1.9.3-28-board"),
        pytest.param(_rescored, True, "decided by board-a-match under 1.9.1"),
        pytest.param(_pool_match, True, "may be drawn", id="3.1.1-pool"),
        pytest.param(_swiss_match, True, "may be drawn", id="1.8-swiss"),
    ],
)
def test_the_mark_is_refused_once_the_tie_is_decided_or_where_draws_stand(
    event16, director, make, final_spot, message
):
    row = make(event16, director)
    refused(
        event16,
        message,
        corrections.match_final_spot_set,
        event=event16,
        match_id=row.pk,
        final_spot=final_spot,
        user=director,
    )


def test_session_5_stays_marked(event16, director):
    row = ko_match(event16, "5", 28, "full", final_spot=True)
    refused(
        event16,
        "second National place",
        corrections.match_final_spot_set,
        event=event16,
        match_id=row.pk,
        final_spot=False,
        user=director,
    )


def test_unmarking_a_tie_that_1_9_1_must_rescore_needs_the_boards_1_9_1(event16, director):
    row = ko_match(event16, "3a", 14, "first", final_spot=True)
    record(event16, row, director, 10, 10)  # a 4-board playoff is asked: no boards needed
    refused(
        event16,
        "board by board",
        corrections.match_final_spot_set,
        event=event16,
        match_id=row.pk,
        final_spot=False,
        user=director,
    )


def test_a_stale_page_cannot_change_the_mark(event16, director):
    row = ko_match(event16, "4", 28, "full")
    record(event16, row, director, 30, 12)
    before = state(event16)
    with pytest.raises(ResultConflict):
        corrections.match_final_spot_set(
            event=event16, match_id=row.pk, final_spot=True, user=director, expected_version=1
        )
    assert state(event16) == before


def test_undo_refused_when_the_restored_tie_would_now_be_decided_otherwise(event16, director):
    row = _rescored(event16, director)  # 1.9.1: won on the board-a-match rescore
    record(event16, row, director, 30, 10)  # corrected
    corrections.match_final_spot_set(event=event16, match_id=row.pk, final_spot=True, user=director)
    correction = latest(event16)
    refused(event16, "change the final-spot mark back first", undo, event16, correction, director)
    corrections.match_final_spot_set(
        event=event16, match_id=row.pk, final_spot=False, user=director
    )
    undo(event16, correction, director)
    row.refresh_from_db()
    assert (row.winner.team_no, row.decided_by) == (1, "board-a-match")


def test_entries_naming_their_match_are_found_whatever_the_label(event16, director):
    """Entries that carry ``"match"`` (written here, and by gnot_services once its snapshot
    names the match) are tied to it by number, even after the teams' names change."""
    row = ko_match(event16, "2", 28, "full")
    record(event16, row, director, 52, 31)
    entry = latest(event16)
    entry.after = {**entry.after, "match": row.pk}
    entry.save(update_fields=["after"])
    Team.objects.filter(pk=row.home_id).update(name="Renamed")
    row.refresh_from_db()
    assert corrections.match_history(event16, row, selectors.match_rows(event16)) == [entry]
    undo(event16, entry, director)
    row.refresh_from_db()
    assert row.status == MatchStatus.SCHEDULED


# --- the match page (house style 6: director, arbiter, visitor, other arbiter, anonymous) -----


@pytest.fixture
def gnot(director, arbiter, other_arbiter):  # type: ignore[no-untyped-def]
    """16 teams; the arbiter has access; one 28-board match of session 2 with a result."""
    event = gnot_event(director, teams=16, name="GNOT Corrections")
    access_grant(event=event, username=arbiter.username, role="arbiter", user=director)
    other = make_event(director, name="Other Event")
    access_grant(event=other, username=other_arbiter.username, role="arbiter", user=director)
    row = ko_match(event, "2", 28, "full")
    record(event, row, director, 52, 31)
    return event


def pages(event: Event) -> dict[str, str]:
    row = TeamMatch.objects.get(event=event, session="2")
    entry = latest(event)
    slug = event.slug
    return {
        "match": reverse("gnot:match", args=[slug, row.pk]),
        "undo": reverse("gnot:match_undo", args=[slug, row.pk, entry.pk]),
        "final_spot": reverse("gnot:final_spot", args=[slug, row.pk]),
    }


def test_the_match_page_shows_the_rule_the_mark_and_the_changes(gnot, director, client_for):
    html = client_for(director).get(pages(gnot)["match"]).content.decode()
    assert "1.9.3 (28-board match)" in html and "Where a twenty-eight board match is tied" in html
    assert "Mark as deciding a final spot (1.9.3)" in html
    assert "successive one board playoffs" in html
    assert "52–31" in html and ">Undo</button>" in html


def test_the_arbiter_undoes_but_does_not_mark(gnot, arbiter, client_for):
    client = client_for(arbiter)
    urls = pages(gnot)
    html = client.get(urls["match"]).content.decode()
    assert ">Undo</button>" in html and "Mark as deciding" not in html
    assert client.post(urls["final_spot"], {"final_spot": "1"}).status_code == 403
    assert client.post(urls["undo"]).status_code == 302
    assert TeamMatch.objects.get(event=gnot, session="2").status == "scheduled"


def test_undo_without_javascript_redirects_to_the_match_page(gnot, director, client_for):
    client = client_for(director)
    urls = pages(gnot)
    response = client.post(urls["undo"], follow=True)
    html = response.content.decode()
    assert response.redirect_chain == [(urls["match"], 302)]
    assert "Undid: session 2" in html and "undone" in html
    again = client.post(urls["undo"], follow=True).content.decode()
    assert "already been undone" in again


def test_undo_for_htmx_answers_the_match_region(gnot, director, client_for):
    client = client_for(director)
    urls = pages(gnot)
    response = client.post(urls["undo"], HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert response.status_code == 200 and html.lstrip().startswith('<div id="match-form">')
    assert "<html" not in html and 'role="status">Undid: session 2' in html
    assert 'name="version" value="3"' in html  # the result form follows the undo
    refusal = client.post(urls["undo"], HTTP_HX_REQUEST="true").content.decode()
    assert 'role="alert">this change has already been undone' in refusal


def test_a_blocked_undo_says_why_and_offers_no_button(gnot, director, client_for):
    ko_match(gnot, "3", 28, "full", teams=(5, 6))
    html = client_for(director).get(pages(gnot)["match"]).content.decode()
    assert "Cannot be undone: session 3 has been drawn" in html and ">Undo</button>" not in html
    assert "Built on this result" in html


def test_the_director_marks_a_final_spot(gnot, director, client_for):
    client = client_for(director)
    urls = pages(gnot)
    response = client.post(
        urls["final_spot"], {"final_spot": "1", "version": "2"}, HTTP_HX_REQUEST="true"
    )
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="match-form">')
    assert "Saved: ties now go by 1.9.3 (final spot)" in html
    assert "<strong>1.9.3 (final spot)</strong>" in html and "Unmark" in html
    assert TeamMatch.objects.get(event=gnot, session="2").final_spot
    stale = client.post(urls["final_spot"], {"final_spot": "0", "version": "2"}, follow=True)
    assert "changed by someone else" in stale.content.decode()
    assert client.post(urls["final_spot"], {}, follow=True).status_code == 200
    assert TeamMatch.objects.get(event=gnot, session="2").final_spot


def test_a_result_saved_with_htmx_shows_in_the_changes(gnot, director, client_for):
    urls = pages(gnot)
    response = client_for(director).post(
        urls["match"],
        {"home_imps": "50", "away_imps": "31", "version": "2"},
        HTTP_HX_REQUEST="true",
        follow=True,  # as htmx follows the redirect, with its header
    )
    html = response.content.decode()
    assert "50–31" in html and html.count('<tr id="change-') == 2


@pytest.mark.parametrize("persona", ["visitor", "other_arbiter"])
def test_strangers_get_403(gnot, client_for, request, persona):
    client = client_for(request.getfixturevalue(persona))
    urls = pages(gnot)
    before = state(gnot)
    assert client.post(urls["undo"]).status_code == 403
    assert client.post(urls["final_spot"], {"final_spot": "1"}).status_code == 403
    assert state(gnot) == before


def test_anonymous_is_sent_to_log_in_and_get_is_not_allowed(gnot, client_for):
    client = client_for(None)
    urls = pages(gnot)
    before = state(gnot)
    for page in ("undo", "final_spot"):
        response = client.post(urls[page], {"final_spot": "1"})
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
        assert client.get(urls[page]).status_code == 405
    assert state(gnot) == before


def test_another_events_match_is_404(gnot, director, client_for):
    other = gnot_event(director, teams=2, name="Other GNOT")
    url = reverse("gnot:final_spot", args=[other.slug, TeamMatch.objects.get(event=gnot).pk])
    assert client_for(director).post(url, {"final_spot": "1"}).status_code == 404
