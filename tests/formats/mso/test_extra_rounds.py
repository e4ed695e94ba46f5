"""MSO extra rounds for several perfect scores (seed 003, "Perfect Scores"): real tournament
rounds, paired by lot among the perfect scorers, counted in the standings."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command

from events.errors import UserError
from events.models import AuditEntry, Bye, Event, Game
from events.services import (
    EventFields,
    PairingInput,
    PlayerFields,
    event_create,
    game_result_record,
    players_register_many,
    round_pairings_set,
)
from formats.mso.extra_rounds import extra_round_needed, mso_extra_round_schedule

pytestmark = pytest.mark.django_db


EIGHT = {1: [(1, 8), (2, 7), (3, 6), (4, 5)], 2: [(1, 5), (2, 6), (3, 7), (4, 8)]}
SIX = {1: [(1, 6), (2, 5), (3, 4)], 2: [(1, 4), (2, 6), (3, 5)]}


def mso_event(director, *, players: int = 8, pairings=EIGHT) -> Event:
    """Two rounds in which White wins every game: 1–4 (of 8) or 1–3 (of 6) stay perfect."""
    event = event_create(
        fields=EventFields(
            name="MSO Open",
            system="swiss",
            time_control="rapid",
            rounds=2,
            preset="mso-2021-two-player",
        ),
        director=director,
    )
    players_register_many(
        event=event,
        players=[PlayerFields(name=f"P{n}") for n in range(1, players + 1)],
        user=director,
    )
    for number, boards in pairings.items():
        round_pairings_set(
            event=event,
            round_no=number,
            pairings=[PairingInput(b, w, bl) for b, (w, bl) in enumerate(boards, start=1)],
            user=director,
        )
        for game in Game.objects.filter(round__event=event, round__number=number):
            game_result_record(game_id=game.pk, result="1-0", expected_version=None, user=director)
    event.refresh_from_db()
    return event


def standings(slug: str) -> dict:
    out = StringIO()
    call_command("standings", slug, "--format", "json", stdout=out)
    return json.loads(out.getvalue())


def test_extra_rounds_are_real_rounds_until_one_perfect_score_remains(director):
    event = mso_event(director)
    assert extra_round_needed(event) == (1, 2, 3, 4)
    number = mso_extra_round_schedule(event=event, user=director)
    event.refresh_from_db()
    assert (number, event.rounds) == (3, 3)
    games = list(Game.objects.filter(round__event=event, round__number=3))
    assert {frozenset((g.white.start_no, g.black.start_no)) for g in games} <= {
        frozenset(pair) for pair in [(1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)]
    }
    assert sorted(p for g in games for p in (g.white.start_no, g.black.start_no)) == [1, 2, 3, 4]
    assert AuditEntry.objects.filter(event=event, action="mso.extra_round").count() == 1
    with pytest.raises(UserError, match="no extra round is due"):  # round 3 not played yet
        mso_extra_round_schedule(event=event, user=director)
    for game in games:
        game_result_record(game_id=game.pk, result="1-0", expected_version=None, user=director)
    event.refresh_from_db()
    winners = extra_round_needed(event)
    assert len(winners) == 2  # the two winners of round 3 are still perfect
    mso_extra_round_schedule(event=event, user=director)
    final = Game.objects.get(round__event=event, round__number=4)
    game_result_record(game_id=final.pk, result="0-1", expected_version=None, user=director)
    event.refresh_from_db()
    assert extra_round_needed(event) == ()
    table = standings(event.slug)
    assert table["after_round"] == 4  # the extra rounds count as tournament rounds
    assert table["rows"][0]["start_no"] == final.black.start_no
    assert table["rows"][0]["points"] == "4"


def test_an_odd_number_of_perfect_scores_gives_a_bye_by_lot_that_keeps_it_perfect(director):
    event = mso_event(director, players=6, pairings=SIX)
    scorers = extra_round_needed(event)
    assert scorers == (1, 2, 3)
    mso_extra_round_schedule(event=event, user=director)
    bye = Bye.objects.get(round__event=event, round__number=3)
    assert bye.kind == "pairing" and bye.player.start_no in scorers


def test_the_director_pairs_the_extra_round_from_the_event_page(director, arbiter, client_for):
    event = mso_event(director)
    page = client_for(director).get(f"/e/{event.slug}/").content.decode()
    assert "Pair the extra round" in page
    assert client_for(arbiter).post(f"/e/{event.slug}/extra-round/").status_code == 403
    response = client_for(director).post(f"/e/{event.slug}/extra-round/")
    assert response.status_code == 302 and response["Location"].endswith("/rounds/3/results/")
    event.refresh_from_db()
    assert event.rounds == 3
