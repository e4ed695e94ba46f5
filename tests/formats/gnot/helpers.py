"""Helpers for the GNOT event tests: create an event, register and seed teams, play results.

Results come from a :class:`draws.lots.LotDrawer`, so every run plays the same event.
"""

from __future__ import annotations

import datetime as dt

from draws.lots import LotDrawer
from events.models import Event
from events.services import EventFields, event_create
from formats.gnot import selectors, services
from formats.gnot.models import MatchStatus, TeamMatch

NETS = (-1430, -620, -420, -200, -100, -50, -20, 0, 0, 20, 50, 100, 200, 420, 620, 1430)


def gnot_event(director, *, teams: int = 24, name: str = "GNOT Test", seed: str = "gnot-seed"):  # type: ignore[no-untyped-def]
    event = event_create(
        fields=EventFields(
            name=name,
            system="gnot",
            time_control="classical",
            rounds=5,
            start_date=dt.date(2012, 3, 6),
            preset="gnot-2012",
            lots_seed=seed,
        ),
        director=director,
    )
    if teams:
        services.teams_register(
            event=event,
            teams=[
                services.TeamFields(f"Team {i}", f"North {i}, South {i}")
                for i in range(1, teams + 1)
            ],
            user=director,
        )
    return event


def seeded(director, *, teams: int = 24, **kwargs) -> Event:  # type: ignore[no-untyped-def]
    event = gnot_event(director, teams=teams, **kwargs)
    services.teams_seed(event=event, order=list(range(1, teams + 1)), user=director)
    return event


def nets(lots: LotDrawer, count: int) -> tuple[int, ...]:
    return tuple(NETS[lots.below(len(NETS))] for _ in range(count))


def play_pending(event: Event, user, lots: LotDrawer, session: str) -> None:  # type: ignore[no-untyped-def]
    """Enter board scores for every unplayed match (and playoff) of a session until none is
    left (results schedule pool halves and playoffs on their own)."""
    while True:
        rows = [
            r
            for r in TeamMatch.objects.filter(event=event, session=session).order_by("id")
            if r.status in (MatchStatus.SCHEDULED, MatchStatus.PLAYOFF_NEEDED)
        ]
        if not rows:
            return
        for row in rows:
            if row.status == MatchStatus.SCHEDULED:
                services.match_result_record(
                    event=event,
                    match_id=row.pk,
                    score=services.ScoreInput(board_nets=nets(lots, row.boards)),
                    user=user,
                )
            else:
                services.match_playoff_record(
                    event=event,
                    match_id=row.pk,
                    score=services.ScoreInput(board_nets=nets(lots, row.playoff_boards or 1)),
                    user=user,
                )


def choose_all(event: Event, user, session: str) -> None:  # type: ignore[no-untyped-def]
    """Each chooser takes its first allowed opponent; the draw is stored with the last one."""
    while True:
        view = selectors.choice_view(event, session)
        if view.drawn:
            return
        if view.next_chooser is None:
            services.session_draw(event=event, session=session, user=user)
            return
        services.choice_record(event=event, session=session, chosen=view.allowed[0], user=user)


def play_through(director, teams: int, *, dko_winner_in_swiss: bool = False) -> Event:  # type: ignore[no-untyped-def]
    """Week one to session 5 and seven Swiss rounds, every choice the first allowed one.

    With ``dko_winner_in_swiss`` the director lets the Double Knockout winner play the Swiss
    on week five as a non-contending team (3.1.8).
    """
    event = seeded(director, teams=teams)
    lots = LotDrawer("results", str(teams))
    play_pending(event, director, lots, "1")
    services.session_draw(event=event, session="2a", user=director)
    choose_all(event, director, "2")
    play_pending(event, director, lots, "2")
    play_pending(event, director, lots, "2a")
    if teams >= 21:
        choose_all(event, director, "2b")
    steps = (("2b",), ("3", "3a"), ("3b",), ("4", "4a"), ("4b",), ("5",))
    for sessions in steps:
        services.swiss_round_pair(event=event, user=director)
        play_pending(event, director, lots, "swiss")
        for session in sessions:
            if session == "2b" and teams < 21:
                continue  # 3.4.2: with 16–20 teams week two has no session 2b
            if not TeamMatch.objects.filter(event=event, session=session).exists():
                choose_all(event, director, session)
            play_pending(event, director, lots, session)
            if session == "4" and dko_winner_in_swiss:
                services.dko_winner_swiss_set(event=event, joins=True, user=director)
    services.swiss_round_pair(event=event, user=director)
    play_pending(event, director, lots, "swiss")
    return event
