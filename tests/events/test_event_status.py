"""The event page says what is true of every kind of event (issue 20, "Pages that say what is
true"): its status line and the director's "Next" card come from the event's format through the
seam (``events.formats``: ``status``, ``steps``), from the apps (``events.contributions``) and
from the foundation for ordinary chess events.

The demo (``load_demo``) is loaded once for the module; each case names a demo event and checks
the page against what the database says of it (which matches are undecided, which rounds are
scored), not against a copy of the code's wording. Events the demo does not hold (a knock-out,
an empty Swiss) are built through the services. A last test makes sure every registered format
has a case here.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client

from events.errors import UserError
from events.formats import FORMATS
from events.models import Event, Game
from events.services import PairingInput, event_close, game_result_record, round_pairings_set
from tests.conftest import make_event


def _page(client: Client, slug: str) -> tuple[str, list[str], bool]:
    """(status line, the Next card's steps, whether "Close the event" is offered)."""
    html = client.get(f"/e/{slug}/").content.decode()
    status = re.search(r'id="event-status">([^<]*)<', html)
    card = re.search(r'id="next-card".*?</section>', html, re.S)
    assert status is not None and card is not None, html[:2000]
    steps = [
        re.sub(r"\s+", " ", s).strip()
        # A step is a link, or a button that does it at once (pair the next round).
        for s in re.findall(
            r"<li>(?:<a [^>]*>|<form [^>]*>.*?<button [^>]*>)([^<]*)</", card.group(0)
        )
    ]
    steps = [s.replace("&#x27;", "'") for s in steps]
    return status.group(1), steps, "Close the event" in card.group(0)


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker) -> Iterator[dict[str, Any]]:  # type: ignore[no-untyped-def]
    with django_db_blocker.unblock():
        call_command("load_demo", stdout=io.StringIO())
        client = Client()
        client.force_login(get_user_model().objects.get(username="director"))
        arbiter = Client()
        arbiter.force_login(get_user_model().objects.get(username="arbiter"))
        yield {"director": client, "arbiter": arbiter}
        call_command("flush", interactive=False, verbosity=0)


# -- GNOT bridge teams ------------------------------------------------------------------------


def _undecided_sessions(slug: str) -> dict[str, int]:
    from formats.gnot.models import MatchStatus, TeamMatch

    found: dict[str, int] = {}
    for session in TeamMatch.objects.filter(
        event__slug=slug, status__in=(MatchStatus.SCHEDULED, MatchStatus.PLAYOFF_NEEDED)
    ).values_list("session", flat=True):
        found[session] = found.get(session, 0) + 1
    return found


def test_gnot_half_way_names_the_session_in_play_and_the_results_to_enter(demo) -> None:  # type: ignore[no-untyped-def]
    from formats.gnot.selectors import SESSION_TITLES

    status, steps, can_close = _page(demo["director"], "gnot-2012")
    pending = _undecided_sessions("gnot-2012")
    assert pending, "the demo is half-way through the knock-outs"
    assert not status.startswith("Registration")
    knockout = [code for code in pending if code != "swiss"]
    assert SESSION_TITLES[knockout[0]] in status
    for code, missing in pending.items():
        assert f"Enter {SESSION_TITLES[code]}'s results: {missing} missing" in steps
    assert not can_close
    # The arbiter enters results too, but draws nothing.
    _, arbiter_steps, _ = _page(demo["arbiter"], "gnot-2012")
    assert all(step.startswith("Enter ") for step in arbiter_steps) and arbiter_steps


def test_gnot_played_to_the_end_says_the_qualification_list_is_final(demo) -> None:  # type: ignore[no-untyped-def]
    status, steps, _ = _page(demo["director"], "gnot-2012-25")
    assert _undecided_sessions("gnot-2012-25") == {}
    assert "qualification list is final" in status
    assert not any(step.startswith("Enter ") for step in steps)


# -- MSO multi-player tables --------------------------------------------------------------------


def test_mso_tables_all_scored_is_complete_and_offers_no_dutch_pairing(demo) -> None:  # type: ignore[no-untyped-def]
    from formats.mso.models import MultiGameScore

    event = Event.objects.get(slug="mso-settlers-2021")
    assert not MultiGameScore.objects.filter(round__event=event, score=None).exists()
    status, steps, can_close = _page(demo["director"], event.slug)
    assert status == f"Round {event.rounds} of {event.rounds} complete"
    assert not any(step.startswith("Pair round") for step in steps)
    assert can_close


def test_mso_a_table_without_scores_is_a_round_in_progress_with_its_step(demo) -> None:  # type: ignore[no-untyped-def]
    from formats.mso.models import MultiGameScore

    event = Event.objects.get(slug="mso-settlers-2021")
    seat = MultiGameScore.objects.filter(round__event=event, round__number=3).order_by("pk").first()
    before = seat.score
    MultiGameScore.objects.filter(game_id=seat.game_id).update(score=None)
    try:
        status, steps, can_close = _page(demo["director"], event.slug)
        tables = len(
            set(
                MultiGameScore.objects.filter(round__number=3, round__event=event).values_list(
                    "game_id", flat=True
                )
            )
        )
        assert (
            status
            == f"Round 3 of {event.rounds} in progress: {tables - 1} of {tables} tables scored"
        )
        assert f"Enter round 3's table scores: 1 of {tables} tables missing" in steps
        assert not can_close
    finally:
        MultiGameScore.objects.filter(game_id=seat.game_id).update(score=before)
        seat.refresh_from_db()


# -- Cohen Chess, the GCT round robins, the Swisses ------------------------------------------------


def test_cohen_played_through_every_stage_has_its_final_places(demo) -> None:  # type: ignore[no-untyped-def]
    status, steps, can_close = _page(demo["director"], "cohen-club-night")
    assert status == "Final places decided"
    assert can_close
    # No prize is set: the one thing left before closing is said, not "Nothing is waiting".
    assert steps == ["Enter the prize fund (if the event pays prizes)"]


@pytest.mark.parametrize("slug", ["demo-classical", "demo-rapid-blitz"])
def test_a_running_playoff_is_the_status_and_the_event_cannot_be_closed(demo, slug) -> None:  # type: ignore[no-untyped-def]
    status, steps, can_close = _page(demo["director"], slug)
    assert status == "Playoff in progress"
    assert "Enter the playoff's results" in steps
    assert not can_close
    event = Event.objects.get(slug=slug)
    with pytest.raises(UserError, match="playoff"):
        event_close(event=event, user=get_user_model().objects.get(username="director"))
    event.refresh_from_db()
    assert event.status != "finished"


def test_the_swiss_half_way_offers_the_next_round(demo) -> None:  # type: ignore[no-untyped-def]
    status, steps, can_close = _page(demo["director"], "swiss-open")
    assert status == "Round 4 of 7 complete"
    assert "Pair round 5" in steps and not can_close


def test_a_finished_swiss_without_prizes_says_so_instead_of_nothing(demo) -> None:  # type: ignore[no-untyped-def]
    status, steps, can_close = _page(demo["director"], "demo-swiss")
    assert status == "Round 9 of 9 complete"
    assert steps == ["Enter the prize fund (if the event pays prizes)"] and can_close


# -- Built through the services ---------------------------------------------------------------


@pytest.mark.django_db
def test_an_empty_event_asks_for_its_players(director, client_for) -> None:  # type: ignore[no-untyped-def]
    event = make_event(director, players=0)
    status, steps, _ = _page(client_for(director), event.slug)
    assert status == "Registration"
    assert steps == ["Register the players"]


@pytest.mark.django_db
def test_a_knockout_is_paired_by_hand_round_after_round(director, client_for) -> None:  # type: ignore[no-untyped-def]
    event = make_event(director, system="knockout", rounds=2, players=4)
    client = client_for(director)
    status, steps, _ = _page(client, event.slug)
    assert status == "Registration" and "Pair round 1" in steps
    round_pairings_set(
        event=event,
        round_no=1,
        pairings=[PairingInput(1, 1, 4), PairingInput(2, 2, 3)],
        user=director,
    )
    status, steps, _ = _page(client, event.slug)
    assert status == "Round 1 of 2 in progress"
    assert "Pair round 2" not in steps and "Enter round 1's results: 2 missing" in steps
    for game in Game.objects.filter(round__event=event):
        game_result_record(
            game_id=game.pk, result="1-0", expected_version=game.version, user=director
        )
    status, steps, _ = _page(client, event.slug)
    assert status == "Round 1 of 2 complete" and "Pair round 2" in steps
    assert not any(step.startswith("Enter round") for step in steps)


@pytest.mark.django_db
def test_mso_two_player_perfect_scores_ask_for_the_extra_round(director, client_for) -> None:  # type: ignore[no-untyped-def]
    event = make_event(director, rounds=1, players=4, preset="mso-2021-two-player")
    client = client_for(director)
    round_pairings_set(
        event=event,
        round_no=1,
        pairings=[PairingInput(1, 1, 2), PairingInput(2, 3, 4)],
        user=director,
    )
    games = list(Game.objects.filter(round__event=event).order_by("board"))
    game_result_record(
        game_id=games[0].pk, result="1-0", expected_version=games[0].version, user=director
    )
    assert "Pair the extra round for the perfect scores" not in _page(client, event.slug)[1]
    game_result_record(
        game_id=games[1].pk, result="1-0", expected_version=games[1].version, user=director
    )
    status, steps, _ = _page(client, event.slug)
    assert status == "Round 1 of 1 complete"
    assert "Pair the extra round for the perfect scores" in steps


@pytest.mark.django_db
def test_a_team_swiss_walks_from_registration_to_the_match_cards(director, client_for) -> None:  # type: ignore[no-untyped-def]
    from formats.teams import services as teams
    from formats.teams.models import BoardGame, Team, TeamMatch
    from tests.formats.teams.test_services import team_event

    event = team_event(director, teams=0, boards=2)
    client = client_for(director)
    assert _page(client, event.slug)[:2] == ("Registration, 0 teams", ["Register the teams"])
    event = team_event(director, teams=4, boards=2)
    status, steps, _ = _page(client, event.slug)
    assert status == "Registration, 4 teams" and steps == ["Pair round 1"]
    teams.team_round_pair(event=event, round_no=1, user=director)
    status, steps, _ = _page(client, event.slug)
    assert status == "Round 1 of 5 paired: a draft to review and publish"
    assert steps == ["Review and publish round 1"]
    teams.team_round_publish(event=event, round_no=1, user=director)
    matches = list(TeamMatch.objects.filter(round__event=event).order_by("table"))
    assert len(matches) == 2 == Team.objects.filter(event=event).count() // 2
    status, steps, can_close = _page(client, event.slug)
    assert status == "Round 1 of 5: 0 of 2 matches decided"
    assert steps == ["Enter round 1's match cards: 2 missing"] and not can_close
    teams.match_card_record(
        event=event,
        match_id=matches[0].pk,
        results={1: "1-0"},
        expected_version=matches[0].version,
        user=director,
    )
    # one board of two entered: the match still waits for its card
    assert _page(client, event.slug)[0] == "Round 1 of 5: 0 of 2 matches decided"
    first = TeamMatch.objects.get(pk=matches[0].pk)
    teams.match_card_record(
        event=event,
        match_id=first.pk,
        results={1: "1-0", 2: "1/2-1/2"},
        expected_version=first.version,
        user=director,
    )
    teams.match_card_record(
        event=event,
        match_id=matches[1].pk,
        results={},
        forfeit="+-",
        expected_version=matches[1].version,
        user=director,
    )
    assert not BoardGame.objects.filter(match=first, result="").exists()
    status, steps, _ = _page(client, event.slug)
    assert status == "Round 1 of 5 complete" and steps == ["Pair round 2"]
    # a visitor is offered nothing to do
    visitor_page = client_for(None).get(f"/e/{event.slug}/").content.decode()
    assert "Round 1 of 5 complete" in visitor_page and 'id="next-card"' not in visitor_page


# -- Every format the registry lists has a case above ----------------------------------------

COVERED = {
    "gnot": "gnot-2012",
    "cohen": "cohen-club-night",
    "mso-multi-player": "mso-settlers-2021",
    "mso-two-player": "test_mso_two_player_perfect_scores_ask_for_the_extra_round",
    "chess-teams": "test_a_team_swiss_walks_from_registration_to_the_match_cards",
}


def test_every_registered_format_has_a_case() -> None:
    assert set(FORMATS.keys()) <= set(COVERED)
