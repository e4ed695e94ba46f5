"""The rating report in the JSON exchange format (and so in the backup, which wraps it):
``fide_k`` (the K set by hand, B.02 8.3.3) and ``norm_conditions`` (docs/exchange-format.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from events.exchange import (
    ImportContext,
    Invalid,
    Section,
    choice,
    require,
    section_register,
    typed,
)
from events.models import Event, Player
from fiderating.models import EventKind, NormConditions, PlayerK
from fiderating.rating import K_LIMIT


def _export(event: Event) -> dict[str, Any]:
    document: dict[str, Any] = {}
    ks = PlayerK.objects.filter(player__event=event).order_by("player__start_no")
    if ks:
        document["fide_k"] = [
            {"start_no": start_no, "k": k}
            for start_no, k in ks.values_list("player__start_no", "k")
        ]
    conditions = NormConditions.objects.filter(event=event).first()
    if conditions is not None:
        document["norm_conditions"] = {
            "kind": conditions.kind,
            "standings_columns": conditions.standings_columns,
        }
    return document


def _load(doc: Mapping[str, Any], event: Event, context: ImportContext) -> None:
    players = {p.start_no: p for p in Player.objects.filter(event=event)}
    rows, seen = [], set()
    for i, entry in enumerate(typed(doc.get("fide_k", []), list, "fide_k")):
        where = f"fide_k[{i}]"
        typed(entry, dict, where)
        start_no = require(entry, "start_no", int, f"{where}.")
        if start_no not in players or start_no in seen:
            raise Invalid(f"{where}.start_no: no player {start_no}, or named twice")
        k = require(entry, "k", int, f"{where}.")
        if not 1 <= k <= K_LIMIT:
            raise Invalid(f"{where}.k: {k}; K is a whole number from 1 to {K_LIMIT}")
        seen.add(start_no)
        rows.append(PlayerK(player=players[start_no], k=k))
    PlayerK.objects.bulk_create(rows)
    conditions = doc.get("norm_conditions")
    if conditions is not None:
        typed(conditions, dict, "norm_conditions")
        columns = conditions.get("standings_columns", False)
        if not isinstance(columns, bool):
            raise Invalid("norm_conditions.standings_columns: expected true or false")
        NormConditions.objects.create(
            event=event,
            kind=choice(
                conditions.get("kind", "ordinary"), EventKind.values, "norm_conditions.kind"
            ),
            standings_columns=columns,
        )


def register() -> None:
    section_register(Section("fiderating", 85, _export, _load))
