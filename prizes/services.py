"""Writes for prizes (HackSoft style: ``noun_verb``, keyword-only, one transaction, one audit
entry, the event's results version bumped so cached pages refresh).

Every service locks the event row first, validates against the engines' registries before
writing anything, and raises :class:`~events.errors.UserError` (the database unchanged) with a
message that names the line or field at fault.

Approval (issue 6): :func:`prize_sheet_approve` freezes the sheet computed now as a JSON
snapshot at the event's results version. Any later write to the event (a corrected result, a
new fund) moves the version on, and the snapshot is then shown as *outdated*; it is never
recomputed in place. Approving again adds a new snapshot, so the history stays.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.db import transaction
from django.utils.text import slugify

from events.errors import UserError
from events.models import Event, Role
from events.selectors import user_role
from events.services import UserLike, audit_record, event_changed, event_version_bump
from prizes import selectors
from prizes.models import CategoryPrize, PlacePrize, PrizeSettings, PrizeSheetApproval, Series
from prizes.split import (
    ROUNDING_POLICIES,
    SPLIT_RULES,
    PrizeInputError,
    format_money,
    plain_decimal,
)

MAX_DECIMALS = 2  # PlacePrize.amount, PrizeSettings.unit
MAX_AMOUNT = Decimal("999999999999.99")


def _event_locked(event: Event) -> Event:
    return (
        Event.objects.select_for_update(of=("self",)).select_related("regulation").get(pk=event.pk)
    )


def _check_amount(amount: Decimal, what: str) -> None:
    exponent = amount.as_tuple().exponent
    if not isinstance(exponent, int) or amount < 0 or amount > MAX_AMOUNT:
        raise UserError(f"{what}: {amount} is not an amount")
    if exponent < -MAX_DECIMALS and amount != amount.quantize(Decimal("0.01")):
        raise UserError(f"{what}: {amount} has more than {MAX_DECIMALS} decimals")


def _check_whole_units(amounts: Iterable[tuple[str, Decimal]], unit: Decimal) -> None:
    """Every prize must be a whole number of rounding units (the engine's precondition, so
    the largest-remainder policy can pay the fund exactly)."""
    for what, amount in amounts:
        if (Fraction(amount) / Fraction(unit)).denominator != 1:
            raise UserError(f"{what} ({amount}) is not a whole number of the rounding unit {unit}")


def _fund_amounts(event: Event) -> list[tuple[str, Decimal]]:
    return [
        (f"the prize for place {place}", amount)
        for place, amount in PlacePrize.objects.filter(event=event).values_list("place", "amount")
    ]


def _category_amounts(event: Event, *, skip: str = "") -> list[tuple[str, Decimal]]:
    return [
        (f"category {record.code} prize {position}", Decimal(amount))
        for record in CategoryPrize.objects.filter(event=event).exclude(code=skip)
        for position, amount in enumerate(record.amounts, 1)
    ]


def prize_amounts_check(*, event: Event) -> None:
    """Every stored prize is a whole number of the effective rounding unit, as the set-up
    forms require: for an import, which writes them all at once."""
    unit = selectors.prize_settings_effective(event).unit
    _check_whole_units([*_fund_amounts(event), *_category_amounts(event)], unit)


def _fund_json(event: Event) -> list[dict[str, str | int]]:
    return [
        {"place": place, "amount": str(plain_decimal(amount))}
        for place, amount in PlacePrize.objects.filter(event=event)
        .order_by("place")
        .values_list("place", "amount")
    ]


@transaction.atomic
def prize_fund_set(
    *, event: Event, prizes: Sequence[tuple[int, Decimal]], user: UserLike
) -> list[PlacePrize]:
    """Replace the event's place prizes (the fund)."""
    event = _event_locked(event)
    places = [place for place, _ in prizes]
    duplicates = sorted({place for place in places if places.count(place) > 1})
    if duplicates:
        raise UserError(f"place {duplicates[0]} has two prizes")
    for place, amount in prizes:
        if place < 1:
            raise UserError(f"place {place}: places start at 1")
        _check_amount(amount, f"place {place}")
    unit = selectors.prize_settings_effective(event).unit
    _check_whole_units(((f"the prize for place {p}", a) for p, a in prizes), unit)
    before = _fund_json(event)
    PlacePrize.objects.filter(event=event).delete()
    created = PlacePrize.objects.bulk_create(
        PlacePrize(event=event, place=place, amount=amount) for place, amount in sorted(prizes)
    )
    total = sum((amount for _, amount in prizes), Decimal(0))
    event_changed(
        event=event,
        user=user,
        action="prizes.fund",
        summary=f"Prize fund set: {len(prizes)} place prizes, {format_money(total)} "
        f"{event.currency}",
        before=before,
        after=_fund_json(event),
    )
    return created


def _settings_json(stored: PrizeSettings | None) -> dict[str, Any]:
    if stored is None:
        return {"split_rule": "", "rounding": "", "unit": None}
    unit = None if stored.unit is None else str(plain_decimal(stored.unit))
    return {"split_rule": stored.split_rule, "rounding": stored.rounding, "unit": unit}


@transaction.atomic
def prize_settings_set(
    *, event: Event, split_rule: str, rounding: str, unit: Decimal | None, user: UserLike
) -> PrizeSettings:
    """Override the regulation's split rule, rounding policy and unit ("" / None: keep the
    regulation's). Codes come from the registries of :mod:`prizes.split` (house style 2)."""
    event = _event_locked(event)
    if split_rule and split_rule not in SPLIT_RULES:
        raise UserError(
            f"unknown split rule {split_rule!r}; choose one of {', '.join(SPLIT_RULES)}"
        )
    if rounding and rounding not in ROUNDING_POLICIES:
        known = ", ".join(ROUNDING_POLICIES)
        raise UserError(f"unknown rounding policy {rounding!r}; choose one of {known}")
    if unit is not None:
        _check_amount(unit, "rounding unit")
        if unit <= 0:
            raise UserError("rounding unit: must be more than 0")
    effective_unit = unit if unit is not None else selectors.DEFAULT_UNIT
    _check_whole_units([*_fund_amounts(event), *_category_amounts(event)], effective_unit)
    stored = PrizeSettings.objects.filter(event=event).first()
    before = _settings_json(stored)
    stored, _ = PrizeSettings.objects.update_or_create(
        event=event, defaults={"split_rule": split_rule, "rounding": rounding, "unit": unit}
    )
    after = _settings_json(stored)
    event_changed(
        event=event,
        user=user,
        action="prizes.settings",
        summary="Prize settings: "
        + ", ".join(f"{key} {value or 'as the regulation'}" for key, value in after.items()),
        before=before,
        after=after,
    )
    return stored


def _category_json(record: CategoryPrize | None) -> dict[str, Any] | None:
    if record is None:
        return None
    return {
        "code": record.code,
        "name": record.name,
        "conditions": record.conditions,
        "amounts": record.amounts,
    }


@transaction.atomic
def prize_category_save(
    *,
    event: Event,
    code: str,
    name: str,
    conditions: Any,
    amounts: Sequence[Any],
    user: UserLike,
) -> CategoryPrize:
    """Create or replace the category ``code`` (conditions validated by
    :mod:`prizes.categories`: known field, known operator, ISO dates, lists for ``in``)."""
    event = _event_locked(event)
    code = slugify(code)
    if not code or not name.strip():
        raise UserError("a category needs a code and a name")
    try:
        category = selectors.category_parse(
            code=code, name=name.strip(), conditions=conditions, amounts=amounts
        )
    except PrizeInputError as exc:
        raise UserError(str(exc)) from exc
    for position, amount in enumerate(category.prizes, 1):
        _check_amount(amount, f"category {code} prize {position}")
    unit = selectors.prize_settings_effective(event).unit
    _check_whole_units(
        ((f"category {code} prize {p}", a) for p, a in enumerate(category.prizes, 1)), unit
    )
    existing = CategoryPrize.objects.filter(event=event, code=code).first()
    before = _category_json(existing)
    last = CategoryPrize.objects.filter(event=event).order_by("-position").first()
    record, _ = CategoryPrize.objects.update_or_create(
        event=event,
        code=code,
        defaults={
            "name": category.name,
            "conditions": conditions,
            "amounts": [str(amount) for amount in category.prizes],
            "position": existing.position if existing else (last.position + 1 if last else 1),
        },
    )
    event_changed(
        event=event,
        user=user,
        action="prizes.category",
        summary=f"Category prize {category.name} ({code}) {'changed' if existing else 'added'}",
        before=before,
        after=_category_json(record),
    )
    return record


@transaction.atomic
def prize_category_delete(*, event: Event, code: str, user: UserLike) -> None:
    event = _event_locked(event)
    record = CategoryPrize.objects.filter(event=event, code=code).first()
    if record is None:
        raise UserError(f"there is no category {code!r}")
    before = _category_json(record)
    record.delete()
    event_changed(
        event=event,
        user=user,
        action="prizes.category_delete",
        summary=f"Category prize {record.name} ({code}) removed",
        before=before,
    )


@transaction.atomic
def prize_sheet_approve(
    *, event: Event, user: UserLike, seen_version: int | None = None
) -> PrizeSheetApproval:
    """Freeze the sheet as computed now. ``seen_version`` is the results version of the page
    the director approved from: if anything changed since, they have not seen this sheet, so
    the approval is refused (design.md §3: a clear conflict, never a silent overwrite)."""
    event = _event_locked(event)
    if seen_version is not None and seen_version != event.results_version:
        raise UserError(
            "the results or prizes changed since this page was loaded; review the sheet again "
            "before approving it"
        )
    document = selectors.sheet_document(selectors.prizes_allocate(event=event))
    # The approval itself changes the public page, so it bumps the version too; the snapshot
    # records the version *after* the bump, so it is current until the next write.
    event_version_bump(event=event)
    event.refresh_from_db(fields=["results_version"])
    document["results_version"] = event.results_version
    approval = PrizeSheetApproval.objects.create(
        event=event,
        results_version=event.results_version,
        snapshot=document,
        approved_by=user if user is not None and user.is_authenticated else None,
    )
    audit_record(
        event=event,
        user=user,
        action="prizes.approve",
        summary=f"Approved the prize sheet: {format_money(Decimal(document['total_paid']))} "
        f"{event.currency} paid from a fund of {format_money(Decimal(document['fund']))}",
        after={"approval": approval.pk, "results_version": event.results_version},
    )
    return approval


# --------------------------------------------------------------------------------------------
# Tour series (seed 000 §4)


def _directed_events(events: Sequence[Event], user: UserLike) -> list[Event]:
    if user is None or not user.is_authenticated:
        raise UserError("log in to build a series")
    for event in events:
        if user_role(event, user) != Role.DIRECTOR:
            raise UserError(f"you do not direct {event.name}, so you cannot add it to a series")
    return list(events)


def _unique_series_slug(name: str, slug: str) -> str:
    base = slugify(slug or name)[:80] or "series"
    if slug:
        if Series.objects.filter(slug=base).exists():
            raise UserError(f"a series with the slug {base!r} already exists")
        return base
    candidate, n = base, 2
    while Series.objects.filter(slug=candidate).exists():
        candidate, n = f"{base}-{n}", n + 1
    return candidate


SERIES_AUDIT = {
    "create": "Counts in the new tour series {name} ({slug})",
    "add": "Added to the tour series {name} ({slug})",
    "remove": "Taken out of the tour series {name} ({slug})",
}


def _audit_series(series: Series, events: Iterable[Event], user: UserLike, verb: str) -> None:
    """The audit log is per event: each member event records that it counts in the series."""
    for event in events:
        audit_record(
            event=event,
            user=user,
            action=f"series.{verb}",
            summary=SERIES_AUDIT[verb].format(name=series.name, slug=series.slug),
        )


@transaction.atomic
def series_create(*, name: str, events: Sequence[Event], user: UserLike, slug: str = "") -> Series:
    """A tour series from events the user directs."""
    if not name.strip():
        raise UserError("a series needs a name")
    members = _directed_events(events, user)
    series = Series.objects.create(
        name=name.strip(), slug=_unique_series_slug(name, slug), created_by=user
    )
    series.events.set(members)
    _audit_series(series, members, user, "create")
    return series


@transaction.atomic
def series_update(*, series: Series, name: str, events: Sequence[Event], user: UserLike) -> Series:
    """Rename the series and set its events; events already in it that the user does not
    direct stay (only their director may take them out)."""
    if not name.strip():
        raise UserError("a series needs a name")
    series = Series.objects.select_for_update().get(pk=series.pk)
    current = set(series.events.all())
    added = [event for event in events if event not in current]
    _directed_events(added, user)
    removed = [e for e in current if e not in events and user_role(e, user) == Role.DIRECTOR]
    series.name = name.strip()
    series.save(update_fields=["name"])
    series.events.add(*added)
    series.events.remove(*removed)
    _audit_series(series, added, user, "add")
    _audit_series(series, removed, user, "remove")
    return series
