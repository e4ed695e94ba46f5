"""formats/teams/services.py on PostgreSQL: registering teams and rosters, line-ups (the rule,
the audited override, locked once paired), pair → review → publish, match cards (board
forfeits, forfeited matches, conflicts), and the closed-event guard."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db.models import Q

from events.errors import EventClosed, ResultConflict, UserError
from events.models import AuditEntry, Player, Round
from events.services import EventFields, event_close, event_create
from formats.teams import selectors, services
from formats.teams.models import BoardGame, LineUp, TeamBye, TeamMatch

pytestmark = pytest.mark.django_db


def team_event(
    director, *, teams: int = 5, boards: int = 4, system: str = "team_swiss", rounds: int = 5
):  # type: ignore[no-untyped-def]
    event = event_create(
        fields=EventFields(
            name="Team Cup",
            system=system,
            time_control="classical",
            rounds=rounds,
            start_date=dt.date(2026, 3, 1),
        ),
        director=director,
    )
    services.team_setup_update(
        event=event,
        fields=services.SetupFields(boards=boards),
        expected_version=None,
        user=director,
    )
    for t in range(1, teams + 1):
        roster = "\n".join(
            f"Player T{t}B{b},NOR,{2400 - 100 * t - 10 * b}" for b in range(1, boards + 2)
        )
        services.team_register(event=event, name=f"Team {t}", roster_text=roster, user=director)
    return event


def test_register_keeps_the_roster_order_and_numbers_the_players(director) -> None:  # type: ignore[no-untyped-def]
    event = team_event(director, teams=2)
    teams = selectors.teams_of(event)
    assert [row["team"].team_no for row in teams] == [1, 2]
    assert [p.name for p in teams[1]["roster"]] == [f"Player T2B{b}" for b in range(1, 6)]
    assert [p.start_no for p in teams[1]["roster"]] == [6, 7, 8, 9, 10]
    with pytest.raises(UserError, match="already a team called"):
        services.team_register(event=event, name="Team 1", user=director)


def test_lineup_rule_override_and_lock(director) -> None:  # type: ignore[no-untyped-def]
    event = team_event(director, teams=4)
    # team 1's roster is start numbers 1-5 (5 is the reserve)
    with pytest.raises(UserError, match="roster order"):
        services.lineup_set(event=event, team_no=1, round_no=1, boards=[2, 1, 3, 4], user=director)
    assert not LineUp.objects.exists()
    services.lineup_set(
        event=event, team_no=1, round_no=1, boards=[2, 1, 3, 4], override=True, user=director
    )
    assert AuditEntry.objects.filter(action="teams.lineup_override").count() == 1
    with pytest.raises(UserError, match="not on the team's roster"):
        services.lineup_set(
            event=event, team_no=1, round_no=1, boards=[6, 1], override=True, user=director
        )
    services.lineup_set(event=event, team_no=2, round_no=1, boards=[6, 8, 9, 10], user=director)
    services.team_round_pair(event=event, round_no=1, user=director)
    match = TeamMatch.objects.get(Q(white__team_no=2) | Q(black__team_no=2), round__number=1)
    side = "first_player" if match.white.team_no == 2 else "second_player"
    assert [getattr(g, side).start_no for g in match.games.order_by("board")] == [6, 8, 9, 10]
    with pytest.raises(UserError, match="locked"):
        services.lineup_set(event=event, team_no=2, round_no=1, boards=[6, 7, 8, 9], user=director)


def _seats(event, team_no: int, round_no: int) -> list[int | None]:  # type: ignore[no-untyped-def]
    """The start numbers a team's side of its match seats, board by board."""
    match = TeamMatch.objects.get(
        Q(white__team_no=team_no) | Q(black__team_no=team_no),
        round__event=event,
        round__number=round_no,
    )
    side = "first_player" if match.white.team_no == team_no else "second_player"
    return [
        getattr(game, side).start_no if getattr(game, side) else None
        for game in match.games.order_by("board")
    ]


def test_line_ups_after_the_pairing_until_the_deadline(director, arbiter) -> None:  # type: ignore[no-untyped-def]
    """issue 29: "Many competitions (FIDE's Olympiad and most team championships) take
    line-ups after the pairing is published and before the round starts"."""
    from django.utils import timezone

    event = team_event(director, teams=4)
    services.team_setup_update(
        event=event,
        fields=services.SetupFields(boards=4, lineups_close="deadline"),
        expected_version=None,
        user=director,
    )
    services.team_round_pair(event=event, round_no=1, user=director)
    services.team_round_publish(event=event, round_no=1, user=director)
    assert _seats(event, 1, 1) == [1, 2, 3, 4]  # the roster's first boards, none entered
    services.lineup_set(event=event, team_no=1, round_no=1, boards=[1, 2, 3, 5], user=arbiter)
    assert _seats(event, 1, 1) == [1, 2, 3, 5]  # the match seats the reserve
    # the deadline, set after the pairing too, closes them for the arbiter
    services.lineup_deadline_set(
        event=event,
        round_no=1,
        closes_at=timezone.now() - dt.timedelta(minutes=5),
        user=director,
    )
    with pytest.raises(UserError, match="closed at .*only the director can accept one now"):
        services.lineup_set(event=event, team_no=1, round_no=1, boards=[1, 2, 3, 4], user=arbiter)
    services.lineup_set(
        event=event, team_no=1, round_no=1, boards=[1, 2, 3, 4], override=True, user=director
    )
    assert _seats(event, 1, 1) == [1, 2, 3, 4]
    entry = AuditEntry.objects.filter(action="teams.lineup_override").latest("pk")
    assert "after the deadline" in entry.summary
    # once a result of the match is in, its line-ups are locked, even for the director
    match = TeamMatch.objects.get(Q(white__team_no=2) | Q(black__team_no=2), round__number=1)
    game = match.games.get(board=1)
    services.board_result_record(
        event=event, game_id=game.pk, result="1-0", expected_version=game.version, user=arbiter
    )
    with pytest.raises(UserError, match="the match of Team 2 has begun"):
        services.lineup_set(
            event=event, team_no=2, round_no=1, boards=[6, 7, 8, 10], override=True,
            user=director,
        )  # fmt: skip


def test_the_pairing_locks_the_line_ups_and_says_why(director) -> None:  # type: ignore[no-untyped-def]
    event = team_event(director, teams=4)  # the default rule: line-ups before the pairing
    services.team_round_pair(event=event, round_no=1, user=director)
    why = "Round 1 is paired, and this event takes line-ups before the pairing"
    with pytest.raises(UserError, match=why):
        services.lineup_set(
            event=event, team_no=1, round_no=1, boards=[1, 2, 3, 5], override=True, user=director
        )
    with pytest.raises(UserError, match=why):
        services.lineup_deadline_set(event=event, round_no=1, closes_at=None, user=director)
    assert not LineUp.objects.filter(event=event).exists()


def test_pair_review_publish_and_the_bye(director) -> None:  # type: ignore[no-untyped-def]
    event = team_event(director, teams=5)
    services.team_bye_request(event=event, team_no=3, round_no=2, kind="half", user=director)
    rnd = services.team_round_pair(event=event, round_no=1, user=director)
    assert not rnd.published
    assert TeamMatch.objects.filter(round=rnd).count() == 2
    assert TeamBye.objects.filter(round_no=1, kind="pairing").count() == 1
    assert rnd.team_notes.notes  # the engine's words for the review
    assert all(m.reasons for m in TeamMatch.objects.filter(round=rnd))
    with pytest.raises(UserError, match="no draft"):
        services.team_round_publish(event=event, round_no=2, user=director)
    services.team_round_publish(event=event, round_no=1, user=director)
    with pytest.raises(UserError, match="without a complete result"):
        services.team_round_pair(event=event, round_no=2, user=director)
    for match in TeamMatch.objects.filter(round=rnd):
        services.match_card_record(
            event=event,
            match_id=match.pk,
            results={1: "1-0", 2: "+/-", 3: "1/2-1/2", 4: "0-1"},
            expected_version=match.version,
            user=director,
        )
    bye_team = TeamBye.objects.get(round_no=1, kind="pairing").team.team_no
    services.team_round_pair(event=event, round_no=2, user=director)
    second = TeamBye.objects.filter(round_no=2).values_list("team__team_no", "kind")
    assert (3, "half") in second
    assert (bye_team, "pairing") not in second  # C.04.6 2.1.2: no second pairing bye
    met = {frozenset((m.white_id, m.black_id)) for m in TeamMatch.objects.filter(round__number=1)}
    for match in TeamMatch.objects.filter(round__number=2):
        assert frozenset((match.white_id, match.black_id)) not in met  # C1: no rematch
        assert 3 not in (match.white.team_no, match.black.team_no)


def test_match_card_forfeit_and_conflict(director) -> None:  # type: ignore[no-untyped-def]
    event = team_event(director, teams=4)
    services.team_round_pair(event=event, round_no=1, user=director)
    services.team_round_publish(event=event, round_no=1, user=director)
    match = TeamMatch.objects.filter(round__number=1).first()
    services.match_card_record(
        event=event,
        match_id=match.pk,
        results={1: "1-0"},
        forfeit="+-",
        expected_version=match.version,
        user=director,
    )
    assert set(BoardGame.objects.filter(match=match).values_list("result", flat=True)) == {"+/-"}
    with pytest.raises(ResultConflict):
        services.match_card_record(
            event=event,
            match_id=match.pk,
            results={1: "0-1"},
            expected_version=match.version,  # the version before the save above
            user=director,
        )
    match.refresh_from_db()
    assert match.forfeit == "+-"
    with pytest.raises(UserError, match="unknown result"):
        services.match_card_record(
            event=event,
            match_id=match.pk,
            results={1: "=SUM(A1)"},
            expected_version=match.version,
            user=director,
        )
    records = selectors.records_of(event)
    assert [m.forfeit for m in records.matches] == ["+-"]


def test_round_robin_follows_berger(director) -> None:  # type: ignore[no-untyped-def]
    event = team_event(director, teams=6, system="team_double_round_robin")
    services.team_round_pair(event=event, round_no=1, user=director)
    pairs = list(
        TeamMatch.objects.filter(round__number=1).values_list("white__team_no", "black__team_no")
    )
    assert pairs == [(1, 6), (2, 5), (3, 4)]  # the published Berger table for 6, round 1


def test_closed_event_refuses(director) -> None:  # type: ignore[no-untyped-def]
    event = team_event(director, teams=2)
    event_close(event=event, user=director)
    with pytest.raises(EventClosed):
        services.team_register(event=event, name="Late team", user=director)
    with pytest.raises(EventClosed):
        services.team_round_pair(event=event, round_no=1, user=director)
    assert not Round.objects.filter(event=event).exists()


def test_a_roster_line_with_a_fide_id_alone_comes_from_the_rating_list(director) -> None:  # type: ignore[no-untyped-def]
    from tests.ratings.conftest import EBBA, SMALL_LIST, import_list, registered_as

    event = team_event(director, teams=0, boards=2)
    roster = '24681012\n1503015\n"Vik, Ola",NOR,1800'
    with pytest.raises(UserError, match="needs a rating list, and none is loaded"):
        services.team_register(event=event, name="Oslo", roster_text=roster, user=director)
    import_list(SMALL_LIST, name="FIDE")
    with pytest.raises(UserError, match="line 2: FIDE id 99999999 is not on FIDE"):
        services.team_register(
            event=event, name="Oslo", roster_text="1503015\n99999999", user=director
        )
    assert not Player.objects.filter(event=event).exists()
    team = services.team_register(event=event, name="Oslo", roster_text=roster, user=director)
    players = [entry.player for entry in team.roster.order_by("position")]
    assert [p.name for p in players] == ["Lindqvist, Ebba", "Carlsen, Henrik", "Vik, Ola"]
    assert registered_as(players[0]) == EBBA  # the list's fields, the standard rating
    assert (players[1].fide_id, players[1].rating, players[1].federation) == (
        "1503015",
        2050,
        "NOR",
    )
