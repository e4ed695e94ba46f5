"""The player's page reads one player's rows (``events.selectors.player_crosstable``, issue 21,
docs/performance.md): for every player the entrant must be the one the whole event's table
gives, byes, forfeits, a game without a result and a round under review included."""

from __future__ import annotations

import pytest

from events.models import Round
from events.selectors import event_crosstable, player_crosstable
from events.services import ByeInput, PairingInput, round_pairings_set
from tests.conftest import make_event

pytestmark = pytest.mark.django_db


def test_each_players_rows_are_those_of_the_whole_table(director) -> None:  # type: ignore[no-untyped-def]
    event = make_event(director, players=7, rounds=4)
    rounds = {
        1: ([(1, 1, 2, "1-0"), (2, 3, 4, "1/2-1/2"), (3, 5, 6, "+/-")], [(7, "pairing")]),
        2: ([(1, 7, 1, "0-1"), (2, 2, 3, "-/+"), (3, 4, 6, "")], [(5, "half")]),
        3: ([(1, 1, 3, "1-0"), (2, 6, 7, "0-1")], [(2, "zero")]),
    }
    for number, (games, byes) in rounds.items():
        round_pairings_set(
            event=event,
            round_no=number,
            pairings=[PairingInput(b, w, k, result) for b, w, k, result in games],
            byes=[ByeInput(no, kind) for no, kind in byes],
            user=director,
        )
    Round.objects.filter(event=event, number=3).update(published=False)  # under review
    for published_only in (True, False):
        whole = {
            e.start_no: e for e in event_crosstable(event, published_only=published_only).entrants
        }
        for player in event.players.all():
            own = player_crosstable(event, player, published_only=published_only)
            mine = next(e for e in own.entrants if e.start_no == player.start_no)
            assert mine == whole[player.start_no], (published_only, player.start_no)
            assert own.scoring == event_crosstable(event).scoring
