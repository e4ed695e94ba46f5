"""What a backup keeps of a Cohen Chess event beside its exchange document (events.backup):
who advanced each stage, and when. The exchange document carries the stages themselves; an
import of it alone stamps each advanced stage with its own moment and no one."""

from __future__ import annotations

from typing import Any

from events.backup import Accounts, EventPart, account, event_part_register, username_of
from events.exchange import Invalid, moment_of, require, typed
from events.models import Event
from formats.cohen.models import CohenStage


def advancements_export(event: Event) -> list[dict[str, Any]] | None:
    rows = [
        {
            "stage": stage.name,
            "advanced_by": username_of(stage.advanced_by),
            "advanced_at": stage.advanced_at.isoformat(),
        }
        for stage in CohenStage.objects.filter(event=event, advanced_at__isnull=False)
        .select_related("advanced_by")
        .order_by("first_round", "name")
    ]
    return rows or None


def advancements_load(event: Event, raw: Any, accounts: Accounts) -> None:
    for i, row in enumerate(typed(raw, list, "cohen_advancements")):
        where = f"cohen_advancements[{i}]"
        typed(row, dict, where)
        name = require(row, "stage", str, f"{where}.")
        at = moment_of(require(row, "advanced_at", str, f"{where}."), f"{where}.advanced_at")
        updated = CohenStage.objects.filter(
            event=event, name=name, advanced_at__isnull=False
        ).update(
            advanced_by=account(accounts, row.get("advanced_by"), f"{where}.advanced_by"),
            advanced_at=at,
        )
        if not updated:
            raise Invalid(f"{where}.stage: the event has no advanced stage {name!r}")


def register() -> None:
    event_part_register(EventPart("cohen_advancements", advancements_export, advancements_load))
