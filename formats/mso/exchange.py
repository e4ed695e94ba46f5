"""The exchange format's MSO ``multi_games`` key (design brief §4: "other formats … extend this
format in the same style"), a section of :mod:`events.exchange`. Documented in
``docs/exchange-format.md`` and its JSON Schema.

``multi_games``: ``[{"round": 1, "board": 1, "scores": [{"start_no": 3, "score": "12"}]}]``,
seats in order; ``score`` an exact decimal string (integers accepted), or null for every seat of
a table not played yet.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from fractions import Fraction
from typing import Any

from events.errors import ImportFailed, UserError
from events.exchange import ImportContext, Invalid, Section, section_register, typed
from events.models import Event
from formats.mso.models import MultiGame, MultiGameScore
from formats.mso.services import TableInput, multi_tables_import
from standings.output import exact_text


def _score_text(score: Decimal | None) -> str | None:
    return None if score is None else exact_text(Fraction(score))


def multi_games_export(event: Event) -> list[dict[str, Any]]:
    seats: dict[int, list[dict[str, Any]]] = {}
    for game_id, start_no, score in (
        MultiGameScore.objects.filter(round__event=event)
        .order_by("game_id", "seat")
        .values_list("game_id", "player__start_no", "score")
    ):
        seats.setdefault(game_id, []).append({"start_no": start_no, "score": _score_text(score)})
    return [
        {"round": number, "board": board, "scores": seats.get(game_id, [])}
        for game_id, number, board in MultiGame.objects.filter(round__event=event)
        .order_by("round__number", "board")
        .values_list("id", "round__number", "board")
    ]


def _table_from(raw: Any, where: str) -> tuple[int, Any]:
    typed(raw, dict, where)
    number = typed(raw.get("round"), int, f"{where}.round")
    board = typed(raw.get("board"), int, f"{where}.board")
    scores = typed(raw.get("scores"), list, f"{where}.scores")
    players, texts = [], []
    for j, seat in enumerate(scores):
        typed(seat, dict, f"{where}.scores[{j}]")
        players.append(typed(seat.get("start_no"), int, f"{where}.scores[{j}].start_no"))
        score = seat.get("score")
        if score is not None and (isinstance(score, bool) or not isinstance(score, str | int)):
            raise Invalid(f"{where}.scores[{j}].score: expected a decimal string")
        texts.append(score)
    if any(t is None for t in texts) and not all(t is None for t in texts):
        raise Invalid(f"{where}.scores: give every seat's score, or none (not played yet)")
    recorded = tuple(str(t) for t in texts) if texts and texts[0] is not None else ()
    return number, TableInput(board=board, players=tuple(players), scores=recorded)


def multi_games_import(doc: Mapping[str, Any], event: Event) -> None:
    by_round: dict[int, list[Any]] = {}
    for i, raw in enumerate(typed(doc.get("multi_games", []), list, "multi_games")):
        number, table = _table_from(raw, f"multi_games[{i}]")
        by_round.setdefault(number, []).append(table)
    for number, tables in sorted(by_round.items()):
        try:
            multi_tables_import(event=event, round_no=number, tables=tables)
        except ImportFailed:
            raise
        except UserError as exc:
            raise Invalid(f"multi_games: {exc}") from exc


def multi_games_section_export(event: Event) -> dict[str, Any]:
    tables = multi_games_export(event)
    return {"multi_games": tables} if tables else {}


def multi_games_load(doc: Mapping[str, Any], event: Event, context: ImportContext) -> None:
    multi_games_import(doc, event)


def register() -> None:
    section_register(Section("multi_games", 31, multi_games_section_export, multi_games_load))
