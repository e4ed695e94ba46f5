"""``manage.py rating_report SLUG [--format json|text]`` (design.md §4): the stable keys, every
figure of a real crosstable against a hand computation by FIDE's calculator (gacrux), a K set
by hand, and the one-line refusals."""

from __future__ import annotations

import json
from decimal import Decimal
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command

from events.models import Event
from events.records import PLAYED_CODES
from events.trf import parse_trf
from tests.conftest import TIEBREAK_DATA, refused_in_one_line

gacrux_rating = pytest.importorskip("gacrux.rating")

PLAYER_KEYS = {
    "start_no",
    "name",
    "fide_id",
    "rating",
    "k",
    "rated_games",
    "score",
    "expected",
    "rating_change",
    "performance",
    "aro",
    "norms",
}
SCORES = {"1": Decimal(1), "=": Decimal("0.5"), "0": Decimal(0)}


def run(*args: str) -> str:
    out = StringIO()
    call_command(*args, stdout=out, stderr=StringIO())
    return out.getvalue()


@pytest.fixture
def held5(db: Any) -> str:
    return run("import_trf", str(TIEBREAK_DATA / "held_swiss_5.trf"), "--slug", "held5").strip()


def _by_hand(start_no: int) -> dict[str, Any]:
    """The player's figures from the file itself and gacrux: the games over the board
    (forfeits, byes and the W/D/L codes are not rated, B.02 5.1), every opponent rated, a
    difference of more than 400 counted as 400 (8.3.1: nobody here is rated 2650)."""
    table = parse_trf((TIEBREAK_DATA / "held_swiss_5.trf").read_text()).crosstable
    ratings = {e.start_no: e.rating for e in table.entrants}
    me = next(e for e in table.entrants if e.start_no == start_no)
    games = [r for r in me.results if r.opponent and r.code in PLAYED_CODES - set("WDL")]
    opponents = [ratings[r.opponent] for r in games if r.opponent]
    score = sum((SCORES[r.code] for r in games), Decimal(0))
    seen = [min(me.rating + 400, max(me.rating - 400, rating)) for rating in opponents]
    expected = gacrux_rating.ComputeSumExpectedScore(me.rating, seen)
    k = 10 if me.rating >= 2400 else 20
    return {
        "rating": me.rating,
        "k": k,
        "rated_games": len(games),
        "score": score,
        "expected": Decimal(expected),
        "rating_change": k * (score - expected),
        "aro": gacrux_rating.ComputeAverageRatingOpponents(opponents),
        "performance": gacrux_rating.ComputeTournamentPerformanceRating(score, opponents),
    }


def test_the_json_report(held5: str) -> None:
    document = json.loads(run("rating_report", held5))
    assert set(document) >= {"event", "rating_type", "players"}
    # The exercise's file has a name, a start date and the games: FIDE's report lacks the rest.
    assert document["complete"] is False
    assert document["missing"][:4] == [
        "the city (record 022)",
        "the host federation (record 032)",
        "the end date (record 052)",
        "the chief arbiter, with their FIDE id (record 102)",
    ]
    assert "FIDE ids of players 1, 2, 3" in document["missing"][-1]
    assert (document["event"], document["rating_type"]) == (held5, "standard")
    assert [p["start_no"] for p in document["players"]] == list(range(1, 17))
    for player in document["players"]:
        assert set(player) == PLAYER_KEYS
        hand = _by_hand(player["start_no"])
        assert player["rating"] == hand["rating"]
        assert player["k"] == hand["k"]
        assert player["rated_games"] == hand["rated_games"]
        assert Decimal(player["score"]) == hand["score"]
        assert Decimal(player["expected"]) == hand["expected"]
        assert Decimal(player["rating_change"]) == hand["rating_change"]
        assert player["aro"] == hand["aro"]
        assert player["performance"] == hand["performance"]
    nick = document["players"][11]  # 12 Nick: a pairing bye, a forfeit win, two absences
    assert (nick["rated_games"], nick["score"]) == (1, "0")
    # Five rounds, nobody titled: no norm, and the first thing missing is the games (B.01).
    for player in document["players"]:
        assert [n["title"] for n in player["norms"]] == ["GM", "IM"]
        assert not any(n["achieved"] for n in player["norms"])
        assert all("more games" in n["missing"][0] for n in player["norms"])


def test_the_text_report(held5: str) -> None:
    text = run("rating_report", held5, "--format", "text")
    assert "standard rating report after round 5" in text
    assert "The report is not complete; it lacks the city (record 022);" in text
    assert "Bruno" in text and len(text.splitlines()) == 19


def test_a_k_set_by_hand_is_the_reports(held5: str) -> None:
    from fiderating.services import player_k_set

    event = Event.objects.get(slug=held5)
    player_k_set(event=event, start_no=2, k=40, user=None)
    bruno = json.loads(run("rating_report", held5))["players"][1]
    assert bruno["k"] == 40
    assert Decimal(bruno["rating_change"]) == 40 * (
        Decimal(bruno["score"]) - Decimal(bruno["expected"])
    )


@pytest.mark.slow
def test_an_unknown_event_is_refused_in_one_line(db: Any) -> None:
    assert "no event with the slug 'nowhere'" in refused_in_one_line("rating_report", "nowhere")
