"""Events whose final standings tie for first, and helpers to play a playoff through the
services (seed 000 §2–3)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

import pytest

from events.models import Event
from events.services import PairingInput, access_grant, round_pairings_set
from playoffs import rules, selectors, services
from tests.conftest import make_event

# A single round robin of four (Berger, C.05 Annex 1): 1, 2 and 3 beat 4 and draw each other,
# so 1, 2 and 3 tie for first on 2 points.
THREE_TIED = {
    1: [(1, 4, "1-0"), (2, 3, "1/2-1/2")],
    2: [(4, 3, "0-1"), (1, 2, "1/2-1/2")],
    3: [(2, 4, "1-0"), (3, 1, "1/2-1/2")],
}
# 1 and 2 draw each other and beat 3 and 4: a tie of two.
TWO_TIED = {
    1: [(1, 4, "1-0"), (2, 3, "1-0")],
    2: [(4, 3, "1/2-1/2"), (1, 2, "1/2-1/2")],
    3: [(2, 4, "1-0"), (3, 1, "0-1")],
}


def gct_event(
    director,  # type: ignore[no-untyped-def]
    *,
    preset: str = "gct-2019-classical",
    rounds: dict[int, list[tuple[int, int, str]]] | None = None,
    name: str = "GCT Cup",
) -> Event:
    event = make_event(
        director, name=name, rounds=3, players=4, system="round_robin", preset=preset
    )
    for number, games in (rounds or THREE_TIED).items():
        round_pairings_set(
            event=event,
            round_no=number,
            pairings=[
                PairingInput(board, white, black, result)
                for board, (white, black, result) in enumerate(games, start=1)
            ],
            user=director,
        )
    event.refresh_from_db()
    return event


@pytest.fixture
def classical(director, arbiter, other_arbiter):  # type: ignore[no-untyped-def]
    """A GCT Classical event, three tied for first; arbiter has access, other_arbiter has
    access to another event only."""
    event = gct_event(director)
    access_grant(event=event, username=arbiter.username, role="arbiter", user=director)
    other = make_event(director, name="Other Event")
    access_grant(event=other, username=other_arbiter.username, role="arbiter", user=director)
    return event


def confirm(event: Event, user) -> None:  # type: ignore[no-untyped-def]
    if selectors.playoff_rule(event) == rules.GCT_RAPID_BLITZ:
        end = dt.datetime(2019, 8, 14, 18, 30, tzinfo=dt.UTC)
        services.playoff_confirm(event=event, user=user, last_game_end=end)
    else:
        services.playoff_confirm(event=event, user=user, last_round_date=dt.date(2019, 8, 28))


def plan_of(event: Event) -> rules.PlayoffPlan:
    playoff = selectors.event_playoff(Event.objects.get(pk=event.pk))
    assert playoff is not None
    return playoff


def play_current_stage(
    event: Event,
    user,  # type: ignore[no-untyped-def]
    result_for: Callable[[rules.Stage, rules.PlayoffGame], str],
) -> rules.Stage:
    """Enter a result for every game of the current stage (tossing first where needed: the
    lower start number wins the toss and takes White)."""
    stage = plan_of(event).stages[-1]
    for game in stage.games:
        if game.colours_pending:
            services.coin_toss_record(
                event=event,
                stage=stage.number,
                game=game.number,
                toss_winner=min(game.players),
                choice="white",
                user=user,
            )
    stage = plan_of(event).stages[-1]
    for game in stage.games:
        services.playoff_result_record(
            event=event,
            stage=stage.number,
            game=game.number,
            result=result_for(stage, game),
            expected_version=None,
            user=user,
        )
    return stage


def drawn(stage: rules.Stage, game: rules.PlayoffGame) -> str:
    return "1/2-1/2"
