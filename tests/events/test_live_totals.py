"""Live totals (issue 20): while a round is in progress the crosstable's points count its
results so far and the standings count complete rounds only. The crosstable marks its totals
as live and provisional and says what the standings count; the standings say the round is in
progress and where the live totals are. Once the round is complete, neither says so."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from events.models import Game
from events.services import game_result_record

pytestmark = pytest.mark.django_db


def _text(path: str) -> str:
    html = Client().get(path).content.decode()
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def _pts_of_player_1(path: str) -> str:
    html = Client().get(path).content.decode()
    row = re.search(r"<tr><td class=\"num\">1</td>.*?</tr>", html, re.S)
    assert row is not None
    return re.findall(r"<strong>([^<]*)</strong>", row.group(0))[-1]


def test_a_round_in_progress_is_marked_live_on_the_crosstable_and_named_on_the_standings(
    event, director
) -> None:  # type: ignore[no-untyped-def]
    board_1, board_2 = Game.objects.filter(round__event=event).order_by("board")
    game_result_record(
        game_id=board_1.pk, result="1-0", expected_version=board_1.version, user=director
    )
    crosstable = _text(f"/e/{event.slug}/crosstable/")
    assert (
        "Pts* are live and provisional: they count round 1's 1 result so far (1 of 2)" in crosstable
    )
    assert "The standings count no round until round 1 is complete" in crosstable
    assert _pts_of_player_1(f"/e/{event.slug}/crosstable/") == "1"
    standings = _text(f"/e/{event.slug}/standings/")
    assert (
        "Round 1 is in progress (1 of 2 results): these standings count the complete rounds only"
        in standings
    )
    assert "Pts* provisional: round 1 in progress (1 of 2 results)" in _text(
        f"/e/{event.slug}/crosstable/print/"
    )

    game_result_record(
        game_id=board_2.pk, result="0-1", expected_version=board_2.version, user=director
    )
    for path in ("crosstable/", "standings/", "crosstable/print/"):
        assert "provisional" not in _text(f"/e/{event.slug}/{path}")
        assert "in progress" not in _text(f"/e/{event.slug}/{path}")
