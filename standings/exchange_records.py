"""The exchange format's Cohen Chess ``stages`` and MSO ``multi_games`` keys (design brief §4:
"other formats … extend this format in the same style"), read and written for
:mod:`events.exchange`. Documented in ``docs/exchange-format.md`` and its JSON Schema.

- ``stages``: ``[{"name": "first_round", "pools": {"A": [1, 4], "B": [2, 3]},
  "first_round": 1, "advanced": [..] or null, "lot_order": [..] (optional)}]``. The games
  are ordinary ``games`` rows. On import every advanced stage is ranked again
  (:mod:`standings.cohen`) from the imported games and its recorded lot: the decisions and
  reasons are rebuilt, and a document whose ``advanced`` list the results do not give is
  refused, as playoff rows that do not fit the playoff are.
- ``multi_games``: ``[{"round": 1, "board": 1, "scores": [{"start_no": 3, "score": "12"}]}]``,
  seats in order; ``score`` an exact decimal string (integers accepted), or null for every
  seat of a table not played yet.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Mapping
from decimal import Decimal
from fractions import Fraction
from typing import Any

from events.errors import ImportFailed, UserError
from events.models import CohenStage, CohenStageName, Event, MultiGame, MultiGameScore
from events.selectors import event_crosstable
from standings.cohen import CohenTieError
from standings.output import exact_text


class Invalid(ImportFailed):
    pass


def _typed(value: Any, kind: type, where: str) -> Any:
    if isinstance(value, bool) or not isinstance(value, kind):
        raise Invalid(f"{where}: expected {kind.__name__}, got {json.dumps(value)[:40]}")
    return value


def _start_nos(value: Any, where: str) -> list[int]:
    items = _typed(value, list, where)
    if not all(isinstance(n, int) and not isinstance(n, bool) for n in items):
        raise Invalid(f"{where}: expected start numbers")
    return list(items)


# -- Cohen Chess stages ------------------------------------------------------------------------


def stages_export(event: Event) -> list[dict[str, Any]]:
    from standings.cohen_selectors import cohen_stages

    rows = []
    for stage in cohen_stages(event):
        row: dict[str, Any] = {
            "name": stage.name,
            "pools": stage.pools,
            "first_round": stage.first_round,
            "advanced": stage.advanced,
        }
        if stage.lot_order is not None:
            row["lot_order"] = stage.lot_order
        rows.append(row)
    return rows


def _stage_from(raw: Any, where: str, start_nos: set[int]) -> dict[str, Any]:
    _typed(raw, dict, where)
    name = raw.get("name")
    if name not in CohenStageName.values:
        raise Invalid(f"{where}.name: {name!r} is not one of {', '.join(CohenStageName.values)}")
    pools = _typed(raw.get("pools"), dict, f"{where}.pools")
    expected = {"A", "B"} if name in ("first_round", "elite_eight") else {"single"}
    if set(pools) != expected:
        raise Invalid(f"{where}.pools: expected the pools {sorted(expected)}")
    members = [n for pool in pools for n in _start_nos(pools[pool], f"{where}.pools.{pool}")]
    unknown = sorted(set(members) - start_nos)
    if unknown or len(set(members)) != len(members):
        raise Invalid(f"{where}.pools: unknown or repeated start numbers {unknown or members}")
    first_round = _typed(raw.get("first_round"), int, f"{where}.first_round")
    advanced = raw.get("advanced")
    lot = raw.get("lot_order")
    return {
        "name": name,
        "pools": {pool: list(pools[pool]) for pool in pools},
        "first_round": first_round,
        "advanced": None if advanced is None else _start_nos(advanced, f"{where}.advanced"),
        "lot_order": None if lot is None else _start_nos(lot, f"{where}.lot_order"),
    }


def stages_import(doc: Mapping[str, Any], event: Event, start_nos: set[int]) -> None:
    """Create the stages, then rank every advanced one again (module docstring)."""
    from standings.cohen_selectors import (
        decision_records,
        previous_ranks,
        stage_advancement,
        stage_schedule,
    )

    raws = _typed(doc.get("stages", []), list, "stages")
    if raws and event.system != "cohen":
        raise Invalid("stages: only a Cohen Chess event (system 'cohen') has stages")
    crosstable = None
    for i, raw in enumerate(raws):
        where = f"stages[{i}]"
        fields = _stage_from(raw, where, start_nos)
        try:
            schedule = stage_schedule(fields["name"], fields["pools"], fields["first_round"])
        except ValueError as exc:
            raise Invalid(f"{where}: {exc}") from exc
        stage = CohenStage(
            event=event,
            name=fields["name"],
            pools=fields["pools"],
            first_round=fields["first_round"],
            slots=schedule.slots,
            lot_order=fields["lot_order"],
            lot_source="" if fields["lot_order"] is None else "entered",
        )
        if fields["advanced"] is not None:
            crosstable = crosstable or event_crosstable(event)
            try:
                advancement = stage_advancement(
                    stage, crosstable, previous_ranks(event), stage.lot_order
                )
            except (CohenTieError, UserError) as exc:
                raise Invalid(f"{where}.advanced: {exc}") from exc
            if list(advancement.advanced) != fields["advanced"]:
                raise Invalid(
                    f"{where}.advanced: the results give {list(advancement.advanced)}, "
                    f"not {fields['advanced']}"
                )
            stage.status, stage.advanced = "advanced", fields["advanced"]
            stage.decisions = decision_records(advancement)
            stage.advanced_at = dt.datetime.now(dt.UTC)
        if CohenStage.objects.filter(event=event, name=stage.name).exists():
            raise Invalid(f"{where}.name: the stage {stage.name} is listed twice")
        stage.save()


# -- multi-player tables -----------------------------------------------------------------------


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
    from standings.multiplayer_services import TableInput

    _typed(raw, dict, where)
    number = _typed(raw.get("round"), int, f"{where}.round")
    board = _typed(raw.get("board"), int, f"{where}.board")
    scores = _typed(raw.get("scores"), list, f"{where}.scores")
    players, texts = [], []
    for j, seat in enumerate(scores):
        _typed(seat, dict, f"{where}.scores[{j}]")
        players.append(_typed(seat.get("start_no"), int, f"{where}.scores[{j}].start_no"))
        score = seat.get("score")
        if score is not None and (isinstance(score, bool) or not isinstance(score, str | int)):
            raise Invalid(f"{where}.scores[{j}].score: expected a decimal string")
        texts.append(score)
    if any(t is None for t in texts) and not all(t is None for t in texts):
        raise Invalid(f"{where}.scores: give every seat's score, or none (not played yet)")
    recorded = tuple(str(t) for t in texts) if texts and texts[0] is not None else ()
    return number, TableInput(board=board, players=tuple(players), scores=recorded)


def multi_games_import(doc: Mapping[str, Any], event: Event) -> None:
    from standings.multiplayer_services import multi_tables_import

    by_round: dict[int, list[Any]] = {}
    for i, raw in enumerate(_typed(doc.get("multi_games", []), list, "multi_games")):
        number, table = _table_from(raw, f"multi_games[{i}]")
        by_round.setdefault(number, []).append(table)
    for number, tables in sorted(by_round.items()):
        try:
            multi_tables_import(event=event, round_no=number, tables=tables)
        except ImportFailed:
            raise
        except UserError as exc:
            raise Invalid(f"multi_games: {exc}") from exc
