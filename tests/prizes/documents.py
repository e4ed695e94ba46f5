"""Events for the prize tests and the prize sheet benchmark as JSON exchange documents (the way
an organiser's file arrives). Pure: no Django, so that ``bench/prize_sheet.py`` imports it."""

from __future__ import annotations

from typing import Any


def round_robin_rounds(players: int) -> list[list[tuple[int, int]]]:
    """A round robin by the circle method (the pairings' colours do not matter here)."""
    field = list(range(1, players + 1))
    rounds = []
    for _ in range(players - 1):
        rounds.append([(field[i], field[players - 1 - i]) for i in range(players // 2)])
        field = [field[0], field[-1], *field[1:-1]]
    return rounds


def open_document(slug: str, *, woman_prizes: list[str], names: dict[int, str]) -> dict[str, Any]:
    """A 12-player round robin in EUR (fide-2024) where the higher start number wins every
    game: places 1, 2, 3 … are nos. 12, 11, 10 …, three place prizes (300, 200, 100) and a
    "Best woman" category for the women, nos. 10, 8, 6, 4 and 2 (issue 29's event pays 40 to
    each of three women: 120 EUR that only the page, the XLSX and the JSON carried)."""
    players = 12
    return {
        "format": "tournament-event/1",
        "name": f"Category Open {slug}",
        "slug": slug,
        "start_date": "2026-01-10",
        "system": "round_robin",
        "time_control": "classical",
        "rounds": players - 1,
        "regulation": {"preset": "fide-2024"},
        "currency": "EUR",
        "lots_seed": "prize-sheets",
        "players": [
            {
                "start_no": n,
                "name": names.get(n, f"Player {n}"),
                "federation": "NOR",
                "rating": 1500 + n,
                "sex": "w" if n % 2 == 0 and n <= 10 else "m",
            }
            for n in range(1, players + 1)
        ],
        "games": [
            {
                "round": number,
                "board": board,
                "white": w,
                "black": b,
                "result": "1-0" if w > b else "0-1",
            }
            for number, pairs in enumerate(round_robin_rounds(players), 1)
            for board, (w, b) in enumerate(pairs, 1)
        ],
        "prizes": [
            {"place": 1, "amount": "300"},
            {"place": 2, "amount": "200"},
            {"place": 3, "amount": "100"},
        ],
        "prize_categories": [
            {
                "code": "women",
                "name": "Best woman",
                "conditions": [{"field": "sex", "op": "eq", "value": "w"}],
                "amounts": woman_prizes,
            }
        ],
    }


def tie_document(players: int, slug: str) -> dict[str, Any]:
    """Issue 29's tie: ``players`` players, one round, every game drawn and no tie-breaks, so
    that all of them share first place and its three prizes (300, 200, 100 EUR)."""
    return {
        "format": "tournament-event/1",
        "name": f"A {players:,}-way tie",
        "slug": slug,
        "start_date": "2026-01-10",
        "system": "swiss",
        "time_control": "classical",
        "rounds": 1,
        "regulation": {"preset": "fide-2024", "tiebreaks": []},
        "currency": "EUR",
        "lots_seed": "tie",
        "players": [
            {"start_no": n, "name": f"Player {n}", "federation": "NOR", "rating": 1500}
            for n in range(1, players + 1)
        ],
        "games": [
            {"round": 1, "board": b, "white": 2 * b - 1, "black": 2 * b, "result": "1/2-1/2"}
            for b in range(1, players // 2 + 1)
        ],
        "byes": [{"round": 1, "start_no": players, "kind": "half"}] if players % 2 else [],
        "prizes": [
            {"place": 1, "amount": "300"},
            {"place": 2, "amount": "200"},
            {"place": 3, "amount": "100"},
        ],
    }
