"""What a backup keeps of the prize side beside the exchange document (events.backup): the
approved prize sheets (the frozen snapshot, who approved it, when, at which results version)
and the tour series, which belong to no single event.

Without them a restore loses the public ``sheet.csv`` (404 until someone approves again) and
``/series/``. Accounts go by username (:func:`events.backup.account`).
"""

from __future__ import annotations

from typing import Any

from events.backup import (
    Accounts,
    EventPart,
    WholePart,
    account,
    event_part_register,
    username_of,
    whole_part_register,
)
from events.exchange import Invalid, moment_of, positive, require, typed
from events.models import Event
from prizes.exports import sheet_csv
from prizes.models import PrizeSheetApproval, Series


def approvals_export(event: Event) -> list[dict[str, Any]] | None:
    approvals = [
        {
            "results_version": approval.results_version,
            "approved_by": username_of(approval.approved_by),
            "approved_at": approval.approved_at.isoformat(),
            "snapshot": approval.snapshot,
        }
        for approval in PrizeSheetApproval.objects.filter(event=event)
        .select_related("approved_by")
        .order_by("approved_at", "id")
    ]
    return approvals or None


def approvals_load(event: Event, raw: Any, accounts: Accounts) -> None:
    """Oldest first, as exported: the last one is the sheet the public sees."""
    for i, record in enumerate(typed(raw, list, "prize_approvals")):
        where = f"prize_approvals[{i}]"
        typed(record, dict, where)
        version = require(record, "results_version", int, f"{where}.")
        approved_by = account(accounts, record.get("approved_by"), f"{where}.approved_by")
        approval = PrizeSheetApproval.objects.create(
            event=event,
            results_version=positive(version, f"{where}.results_version"),
            snapshot=_sheet(require(record, "snapshot", dict, f"{where}."), f"{where}.snapshot"),
            approved_by=approved_by,
        )
        at = moment_of(require(record, "approved_at", str, f"{where}."), f"{where}.approved_at")
        # ``approved_at`` is auto_now_add: set it afterwards, as it was.
        PrizeSheetApproval.objects.filter(pk=approval.pk).update(approved_at=at)


def _sheet(snapshot: dict[str, Any], where: str) -> dict[str, Any]:
    """A snapshot the public sheet and its downloads can show (they render it as stored)."""
    try:
        sheet_csv(snapshot)
    except (KeyError, TypeError, ValueError, ArithmeticError) as exc:
        raise Invalid(f"{where}: not a prize sheet ({type(exc).__name__}: {exc})") from exc
    return snapshot


def series_export() -> list[dict[str, Any]] | None:
    series = [
        {
            "name": record.name,
            "slug": record.slug,
            "events": sorted(record.events.values_list("slug", flat=True)),
            "created_by": username_of(record.created_by),
            "created_at": record.created_at.isoformat(),
        }
        for record in Series.objects.select_related("created_by").order_by("slug")
    ]
    return series or None


def series_load(raw: Any, accounts: Accounts) -> None:
    for i, record in enumerate(typed(raw, list, "series")):
        where = f"series[{i}]"
        typed(record, dict, where)
        slug = require(record, "slug", str, f"{where}.")
        if Series.objects.filter(slug=slug).exists():
            raise Invalid(f"{where}.slug: a series {slug!r} exists already")
        slugs = require(record, "events", list, f"{where}.")
        events = list(Event.objects.filter(slug__in=[s for s in slugs if isinstance(s, str)]))
        missing = sorted(set(map(str, slugs)) - {event.slug for event in events})
        if missing:
            raise Invalid(f"{where}.events: there is no event {missing[0]!r}")
        series = Series.objects.create(
            name=require(record, "name", str, f"{where}."),
            slug=slug,
            created_by=account(accounts, record.get("created_by"), f"{where}.created_by"),
        )
        series.events.set(events)
        at = moment_of(require(record, "created_at", str, f"{where}."), f"{where}.created_at")
        Series.objects.filter(pk=series.pk).update(created_at=at)


def register() -> None:
    event_part_register(EventPart("prize_approvals", approvals_export, approvals_load))
    whole_part_register(WholePart("series", series_export, series_load))
