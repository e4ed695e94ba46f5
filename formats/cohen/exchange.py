"""The exchange format's Cohen Chess ``stages`` key (design brief §4: "other formats … extend
this format in the same style"), a section of :mod:`events.exchange`. Documented in
``docs/exchange-format.md`` and its JSON Schema.

``stages``: ``[{"name": "first_round", "pools": {"A": [1, 4], "B": [2, 3]}, "first_round": 1,
"advanced": [..] or null, "lot_order": [..] (optional)}]``. The games are ordinary ``games``
rows. On import every advanced stage is ranked again (:mod:`formats.cohen.rules`) from the
imported games and its recorded lot: the decisions and reasons are rebuilt, and a document whose
``advanced`` list the results do not give is refused, as playoff rows that do not fit the
playoff are.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from events.errors import UserError
from events.exchange import ImportContext, Invalid, Section, section_register, typed
from events.models import Event
from events.selectors import event_crosstable
from formats.cohen.models import CohenStage, CohenStageName
from formats.cohen.rules import CohenTieError
from formats.cohen.selectors import (
    cohen_stages,
    decision_records,
    previous_ranks,
    stage_advancement,
    stage_schedule,
)


def _start_nos(value: Any, where: str) -> list[int]:
    items = typed(value, list, where)
    if not all(isinstance(n, int) and not isinstance(n, bool) for n in items):
        raise Invalid(f"{where}: expected start numbers")
    return list(items)


def stages_export(event: Event) -> list[dict[str, Any]]:
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
    typed(raw, dict, where)
    name = raw.get("name")
    if name not in CohenStageName.values:
        raise Invalid(f"{where}.name: {name!r} is not one of {', '.join(CohenStageName.values)}")
    pools = typed(raw.get("pools"), dict, f"{where}.pools")
    expected = {"A", "B"} if name in ("first_round", "elite_eight") else {"single"}
    if set(pools) != expected:
        raise Invalid(f"{where}.pools: expected the pools {sorted(expected)}")
    members = [n for pool in pools for n in _start_nos(pools[pool], f"{where}.pools.{pool}")]
    unknown = sorted(set(members) - start_nos)
    if unknown or len(set(members)) != len(members):
        raise Invalid(f"{where}.pools: unknown or repeated start numbers {unknown or members}")
    first_round = typed(raw.get("first_round"), int, f"{where}.first_round")
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
    raws = typed(doc.get("stages", []), list, "stages")
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


def stages_section_export(event: Event) -> dict[str, Any]:
    stages = stages_export(event)
    return {"stages": stages} if stages else {}


def stages_load(doc: Mapping[str, Any], event: Event, context: ImportContext) -> None:
    stages_import(doc, event, set(context.start_nos))


def register() -> None:
    section_register(Section("stages", 30, stages_section_export, stages_load))
