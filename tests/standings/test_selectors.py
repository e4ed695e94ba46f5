"""standings.selectors.event_standings: ranked once per results version, and once per inputs.

While round N + 1 is played, each of its results is a new results version but the same
standings after round N: those are not ranked again (issue 24). Anything the ranking reads
(a result of a complete round, the regulation) still gives a new table.
"""

from __future__ import annotations

from typing import Any

import pytest

from events.models import Event, Game
from events.services import PairingInput, game_result_record, round_pairings_set
from standings import selectors as standings_selectors
from standings.selectors import event_standings

pytestmark = pytest.mark.django_db


@pytest.fixture
def rankings(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many times the ranking engine runs."""
    runs: list[int] = []
    real = standings_selectors.compute_standings

    def counted(*args: Any, **kwargs: Any) -> Any:
        runs.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(standings_selectors, "compute_standings", counted)
    return runs


def record(event: Event, round_no: int, board: int, result: str, director: Any) -> None:
    game = Game.objects.get(round__event=event, round__number=round_no, board=board)
    game_result_record(game_id=game.pk, result=result, expected_version=None, user=director)


def current(event: Event) -> Event:
    return Event.objects.select_related("regulation").get(pk=event.pk)


@pytest.fixture
def round_two_in_play(event, director):  # type: ignore[no-untyped-def]
    """Round 1 complete (1 and 3 won), round 2 paired with no result yet."""
    record(event, 1, 1, "1-0", director)
    record(event, 1, 2, "1-0", director)
    round_pairings_set(
        event=event,
        round_no=2,
        pairings=[PairingInput(1, 1, 3), PairingInput(2, 2, 4)],
        user=director,
    )
    return event


def test_results_of_the_round_in_play_do_not_rank_the_previous_round_again(
    round_two_in_play, director, rankings
):
    before = event_standings(current(round_two_in_play))
    assert before.after_round == 1 and len(rankings) == 1
    record(round_two_in_play, 2, 1, "1/2-1/2", director)
    after = event_standings(current(round_two_in_play))
    assert after == before
    assert len(rankings) == 1


def test_a_change_the_standings_read_ranks_them_again(round_two_in_play, director, rankings):
    before = event_standings(current(round_two_in_play))
    record(round_two_in_play, 1, 1, "0-1", director)  # a correction in the complete round
    after = event_standings(current(round_two_in_play))
    assert len(rankings) == 2
    assert [row.start_no for row in after.rows][:2] != [row.start_no for row in before.rows][:2]
    # The round in play completed: the standings move on to it.
    record(round_two_in_play, 2, 1, "1-0", director)
    record(round_two_in_play, 2, 2, "1-0", director)
    assert event_standings(current(round_two_in_play)).after_round == 2
    assert len(rankings) == 3


def test_other_options_are_other_tables(round_two_in_play, rankings):
    event = current(round_two_in_play)
    plain = event_standings(event)
    other = event_standings(event, codes=["SB"])
    assert plain.tiebreaks != other.tiebreaks
    assert len(rankings) == 2
