"""Events for the prize tests, built through the JSON exchange format and ``import_event`` (the
way an organiser's file arrives), plus the playoff results that decide them."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from events.models import Event
from events.services import access_grant
from playoffs.selectors import event_playoff
from tests.prizes.documents import round_robin_rounds

ADDENDUM_FUND = ["90000", "60000", "40000", "30000"]  # seed 000, Addendum, step 1
LEADERS = (1, 2, 3, 4)


def leaders_result(white: int, black: int) -> str:
    """1–4 draw among themselves and beat 5 and 6, who draw: 1–4 tie on 3½, 5–6 on ½."""
    white_leads, black_leads = white in LEADERS, black in LEADERS
    if white_leads == black_leads:
        return "1/2-1/2"
    return "1-0" if white_leads else "0-1"


def gct_document(
    slug: str,
    prizes: list[str],
    *,
    playoff_games: list[dict[str, Any]] | None = None,
    time_control: str = "classical",
    preset: str = "gct-2019-classical",
    names: dict[int, str] | None = None,
    fide_ids: dict[int, str] | None = None,
) -> dict[str, Any]:
    names = names or {}
    fide_ids = fide_ids or {}
    games = [
        {"round": number, "board": board, "white": w, "black": b, "result": leaders_result(w, b)}
        for number, pairs in enumerate(round_robin_rounds(6), 1)
        for board, (w, b) in enumerate(pairs, 1)
    ]
    return {
        "format": "tournament-event/1",
        "name": f"GCT test {slug}",
        "slug": slug,
        "start_date": "2019-08-17",
        "system": "round_robin",
        "time_control": time_control,
        "rounds": 5,
        "regulation": {"preset": preset},
        "currency": "USD",
        "lots_seed": "prize-tests",
        "players": [
            {
                "start_no": n,
                "name": names.get(n, f"Player {n}"),
                "federation": "USA",
                "rating": 2700 + n,
                "fide_id": fide_ids.get(n, ""),
                "sex": "w" if n == 4 else "m",
            }
            for n in range(1, 7)
        ],
        "games": games,
        "prizes": [{"place": i, "amount": amount} for i, amount in enumerate(prizes, 1)],
        "playoff_games": playoff_games or [],
    }


def import_document(tmp_path: Path, document: dict[str, Any]) -> Event:
    path = tmp_path / f"{document['slug']}.json"
    path.write_text(json.dumps(document))
    out = StringIO()
    call_command("import_event", str(path), stdout=out)
    return Event.objects.get(slug=out.getvalue().strip().splitlines()[-1])


_PAIRINGS: dict[str, list[tuple[int, int, int]]] = {}


def playoff_won_by(tmp_path: Path, winner: int) -> list[dict[str, Any]]:
    """Playoff games in which ``winner`` wins every rapid game and the others draw (the
    pairings come from the playoff engine via a probe import with the same lots seed)."""
    return [
        {"stage": 1, "round": number, "white": white, "black": black, "result": result}
        for number, white, black in _rapid_round_robin_pairings(tmp_path)
        for result in ["1-0" if white == winner else "0-1" if black == winner else "1/2-1/2"]
    ]


def _rapid_round_robin_pairings(tmp_path: Path) -> list[tuple[int, int, int]]:
    """(round, White, Black) of the playoff's first stage; the same for every test, since the
    lots seed and the tied players are (one probe import per test session)."""
    if "stage-1" in _PAIRINGS:
        return _PAIRINGS["stage-1"]
    probe = import_document(tmp_path, gct_document("playoff-probe", ADDENDUM_FUND))
    plan = event_playoff(probe)
    assert plan is not None and plan.status != "decided"
    probe.delete()
    _PAIRINGS["stage-1"] = [(game.round, *game.players) for game in plan.stages[0].games]
    return _PAIRINGS["stage-1"]


def gct_event(
    tmp_path: Path,
    slug: str,
    prizes: list[str],
    *,
    winner: int | None = 3,
    director: Any = None,
    **options: Any,
) -> Event:
    """An imported GCT event (playoff won by ``winner``), directed by ``director`` if given."""
    games = playoff_won_by(tmp_path, winner) if winner else []
    event = import_document(tmp_path, gct_document(slug, prizes, playoff_games=games, **options))
    if director is not None:
        access_grant(event=event, username=director.username, role="director", user=None)
    return event


@pytest.fixture
def addendum_event(tmp_path: Path, director: Any, arbiter: Any) -> Event:
    """Seed 000, Addendum: a tie for 1st–4th in a GCT Classical event, playoff won by no. 3;
    directed by the ``director`` persona, with the ``arbiter`` persona as its arbiter."""
    event = gct_event(tmp_path, "gct-addendum", ADDENDUM_FUND, director=director)
    access_grant(event=event, username=arbiter.username, role="arbiter", user=None)
    event.refresh_from_db()
    return event
