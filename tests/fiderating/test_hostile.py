"""Hostile input for the rating report's command and pages (issue 30, "Proof"): the largest
event the application holds (events.limits: 5,000 players) answers whole by the command and the
pages; one more player is refused at the door in one line. (K of 10^9, ratings of −5 and
10,000: test_rating.py for the engine, test_views.py and test_k_from_list.py for the pages,
tests/events/test_exchange.py and test_exchange.py here for the documents, and
tests/ratings/test_parsers.py for the lists.)"""

from __future__ import annotations

import json
import time
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from events.models import Event
from events.trf import write_trf
from tests.conftest import refused_in_one_line
from tests.standings.generate import generate_large_swiss

PLAYERS, ROUNDS = 5000, 12  # events.limits: MAX_PLAYERS, and 60,000 players x rounds


@pytest.fixture(scope="module")
def largest_trf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("largest") / "largest.trf"
    path.write_text(write_trf(generate_large_swiss(PLAYERS, ROUNDS)))
    return path


@pytest.mark.slow
def test_an_event_of_5000_players_by_the_command_and_the_pages(
    db: Any, largest_trf: Path, client_for: Any
) -> None:
    call_command("import_trf", str(largest_trf), "--slug", "largest", stdout=StringIO())
    start = time.perf_counter()
    out = StringIO()
    call_command("rating_report", "largest", "--format", "json", stdout=out)
    seconds = time.perf_counter() - start
    players = json.loads(out.getvalue())["players"]
    assert len(players) == PLAYERS
    assert sum(p["rated_games"] for p in players) == 2 * (PLAYERS // 2) * ROUNDS
    assert seconds < 60, f"{seconds:.1f} s"  # loose: the test machine is shared
    page = client_for(None).get("/e/largest/rating/")
    assert page.status_code == 200
    assert page.content.decode().count('<tr id="player-') == PLAYERS
    last = client_for(None).get(f"/e/largest/rating/players/{PLAYERS}/")
    assert last.status_code == 200
    assert Event.objects.filter(slug="largest").count() == 1


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_one_player_more_is_refused_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "too-many.trf"
    path.write_text(write_trf(generate_large_swiss(PLAYERS + 1, 1)))
    line = refused_in_one_line("import_trf", str(path), "--slug", "too-many")
    assert "more than 5,000 players" in line
    assert not Event.objects.filter(slug="too-many").exists()
