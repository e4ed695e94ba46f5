"""The exchange format's ``drawing_of_lots`` key (issue 19): the Varma drawing of lots of a
round-robin event (seed 001) as it was held, so that an export → import (and a backup) gives
back the ceremony, its public page and whether the schedule came from it.

``{"drawing_of_lots": {"mode": "computer" | "recorded", "seed": "...", "table": "9/10",
"status": "open" | "complete", "warnings": [...], "schedule_created": false,
"completed_at": ISO or null, "entries": [{"start_no": 4, "envelope": "C", "number": 1}, ...]}}``:
``entries`` in drawing order. On import the entries are replayed through the engine
(:func:`draws.selectors.ceremony_state`, seed 001 clauses 1–4), so a draw the rules do not
allow refuses the import. Written only for an event that has a ceremony.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from draws.models import CeremonyMode, CeremonyStatus, DrawCeremony, DrawEntry
from draws.selectors import ceremony_state, draw_players
from draws.varma import ENVELOPE_LABELS
from events.errors import UserError
from events.exchange import (
    ImportContext,
    Invalid,
    Section,
    choice,
    moment_of,
    positive,
    require,
    section_register,
    typed,
)
from events.models import Event, Player

KEY = "drawing_of_lots"


def ceremony_export(event: Event) -> dict[str, Any]:
    ceremony = DrawCeremony.objects.filter(event=event).first()
    if ceremony is None:
        return {}
    entries = DrawEntry.objects.filter(ceremony=ceremony).order_by("position")
    return {
        KEY: {
            "mode": ceremony.mode,
            "seed": ceremony.seed,
            "table": ceremony.table,
            "status": ceremony.status,
            "warnings": ceremony.warnings,
            "schedule_created": ceremony.schedule_created,
            "completed_at": ceremony.completed_at.isoformat() if ceremony.completed_at else None,
            "entries": [
                {"start_no": start_no, "envelope": envelope, "number": number}
                for start_no, envelope, number in entries.values_list(
                    "player__start_no", "envelope", "number"
                )
            ],
        }
    }


def _entries(raw: Any, players: dict[int, Player]) -> list[tuple[int, str, int]]:
    entries = []
    for i, item in enumerate(typed(raw, list, f"{KEY}.entries")):
        where = f"{KEY}.entries[{i}]"
        typed(item, dict, where)
        start_no = require(item, "start_no", int, f"{where}.")
        if start_no not in players:
            raise Invalid(f"{where}.start_no: there is no player with start number {start_no}")
        envelope = choice(item.get("envelope"), ENVELOPE_LABELS, f"{where}.envelope")
        number = positive(require(item, "number", int, f"{where}."), f"{where}.number")
        entries.append((start_no, envelope, number))
    return entries


def _warnings(raw: Any) -> list[dict[str, Any]]:
    """Each as :func:`draws.selectors.warning_record` writes it."""
    warnings = typed(raw, list, f"{KEY}.warnings")
    for i, item in enumerate(warnings):
        where = f"{KEY}.warnings[{i}]"
        typed(item, dict, where)
        require(item, "round", int, f"{where}.")
        require(item, "federation", str, f"{where}.")
        require(item, "message", str, f"{where}.")
        for key in ("start_nos", "numbers"):
            pair = require(item, key, list, f"{where}.")
            if len(pair) != 2 or not all(type(n) is int for n in pair):
                raise Invalid(f"{where}.{key}: expected two numbers")
    return list(warnings)


def _flag(raw: Mapping[str, Any], key: str) -> bool:
    value = raw.get(key, False)
    if not isinstance(value, bool):
        raise Invalid(f"{KEY}.{key}: expected true or false")
    return value


def ceremony_load(doc: Mapping[str, Any], event: Event, context: ImportContext) -> None:
    raw = doc.get(KEY)
    if raw is None:
        return
    typed(raw, dict, KEY)
    players = {p.start_no: p for p in Player.objects.filter(event=event)}
    entries = _entries(raw.get("entries", []), players)
    try:
        ceremony_state(draw_players(event), entries)
    except UserError as exc:
        raise Invalid(f"{KEY}.entries: {exc}") from exc
    status = choice(raw.get("status"), CeremonyStatus.values, f"{KEY}.status")
    complete = status == CeremonyStatus.COMPLETE
    if complete != (len(entries) == len(players)):
        raise Invalid(f"{KEY}.status: {status} with {len(entries)} of {len(players)} drawn")
    scheduled = _flag(raw, "schedule_created")
    if scheduled and not complete:
        raise Invalid(f"{KEY}.schedule_created: the schedule needs a complete draw")
    ceremony = DrawCeremony.objects.create(
        event=event,
        mode=choice(raw.get("mode"), CeremonyMode.values, f"{KEY}.mode"),
        seed=typed(raw.get("seed", ""), str, f"{KEY}.seed"),
        table=require(raw, "table", str, f"{KEY}."),
        status=status,
        warnings=_warnings(raw.get("warnings", [])),
        schedule_created=scheduled,
        completed_at=moment_of(raw.get("completed_at"), f"{KEY}.completed_at"),
    )
    DrawEntry.objects.bulk_create(
        DrawEntry(
            ceremony=ceremony,
            position=position,
            player=players[start_no],
            envelope=envelope,
            number=number,
        )
        for position, (start_no, envelope, number) in enumerate(entries, 1)
    )


def register() -> None:
    section_register(Section(KEY, 36, ceremony_export, ceremony_load))
