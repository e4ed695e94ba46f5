"""The exchange format's ``prizes`` key (design.md §4): the place prizes of the event; and the
extensions ``prize_settings`` (the director's split rule, rounding policy and unit) and
``prize_categories`` (category prizes, in their listing order), each written only when the
event has them.

A section of :mod:`events.exchange`, registered when the app starts (``PrizesConfig.ready``).
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from typing import Any

from django.utils.text import slugify

from events.errors import UserError
from events.exchange import (
    ImportContext,
    Invalid,
    Section,
    choice,
    decimal_text,
    positive,
    require,
    section_register,
    typed,
)
from events.models import Event
from prizes.models import CategoryPrize, PlacePrize, PrizeSettings
from prizes.selectors import category_parse
from prizes.services import prize_amounts_check
from prizes.split import ROUNDING_POLICIES, SPLIT_RULES, PrizeInputError


def prizes_export(event: Event) -> dict[str, Any]:
    document: dict[str, Any] = {
        "prizes": [
            {"place": p.place, "amount": decimal_text(p.amount)}
            for p in PlacePrize.objects.filter(event=event).order_by("place")
        ]
    }
    stored = PrizeSettings.objects.filter(event=event).first()
    if stored is not None and (stored.split_rule or stored.rounding or stored.unit is not None):
        document["prize_settings"] = {
            "split_rule": stored.split_rule,
            "rounding": stored.rounding,
            "unit": None if stored.unit is None else decimal_text(stored.unit),
        }
    categories = [
        {"code": c.code, "name": c.name, "conditions": c.conditions, "amounts": c.amounts}
        for c in CategoryPrize.objects.filter(event=event).order_by("position", "code")
    ]
    if categories:
        document["prize_categories"] = categories
    return document


def _prizes(doc: Mapping[str, Any]) -> list[tuple[int, Decimal]]:
    prizes = []
    seen: set[int] = set()
    for i, raw in enumerate(typed(doc.get("prizes", []), list, "prizes")):
        where = f"prizes[{i}]"
        typed(raw, dict, where)
        place = positive(require(raw, "place", int, f"{where}."), f"{where}.place")
        if place in seen:
            raise Invalid(f"{where}.place: place {place} is listed twice")
        seen.add(place)
        amount = require(raw, "amount", (str, int), f"{where}.")
        prizes.append((place, _amount(amount, f"{where}.amount")))
    return prizes


def _amount(value: Any, where: str) -> Decimal:
    try:
        amount = Decimal(str(typed(value, (str, int), where)))
    except InvalidOperation as exc:
        raise Invalid(f"{where}: {value!r} is not an amount") from exc
    if amount < 0 or not amount.is_finite():
        raise Invalid(f"{where}: must be a non-negative amount")
    return amount


def _settings(raw: Any) -> PrizeSettings | None:
    if raw is None:
        return None
    where = "prize_settings"
    typed(raw, dict, where)
    split_rule = typed(raw.get("split_rule", ""), str, f"{where}.split_rule")
    rounding = typed(raw.get("rounding", ""), str, f"{where}.rounding")
    if split_rule:
        choice(split_rule, list(SPLIT_RULES), f"{where}.split_rule")
    if rounding:
        choice(rounding, list(ROUNDING_POLICIES), f"{where}.rounding")
    unit = raw.get("unit")
    unit = None if unit is None else _amount(unit, f"{where}.unit")
    if unit is not None and unit <= 0:
        raise Invalid(f"{where}.unit: must be more than 0")
    return PrizeSettings(split_rule=split_rule, rounding=rounding, unit=unit)


def _categories(doc: Mapping[str, Any]) -> list[CategoryPrize]:
    categories = []
    rows = typed(doc.get("prize_categories", []), list, "prize_categories")
    for position, raw in enumerate(rows, 1):
        where = f"prize_categories[{position - 1}]"
        typed(raw, dict, where)
        code = require(raw, "code", str, f"{where}.")
        name = require(raw, "name", str, f"{where}.")
        amounts = require(raw, "amounts", list, f"{where}.")
        conditions = require(raw, "conditions", list, f"{where}.")
        if slugify(code) != code or not code or not name.strip():
            raise Invalid(f"{where}: a category needs a code (a slug) and a name")
        try:
            parsed = category_parse(code=code, name=name, conditions=conditions, amounts=amounts)
        except PrizeInputError as exc:
            raise Invalid(f"{where}: {exc}") from exc
        categories.append(
            CategoryPrize(
                code=code,
                name=name,
                position=position,
                conditions=conditions,
                amounts=[str(amount) for amount in parsed.prizes],  # as prize_category_save
            )
        )
    if len({c.code for c in categories}) < len(categories):
        raise Invalid("prize_categories: a code is used twice")
    return categories


def prizes_load(doc: Mapping[str, Any], event: Event, context: ImportContext) -> None:
    settings = _settings(doc.get("prize_settings"))
    categories = _categories(doc)
    PlacePrize.objects.bulk_create(
        PlacePrize(event=event, place=place, amount=amount) for place, amount in _prizes(doc)
    )
    if settings is not None:
        settings.event = event
        settings.save()
    for category in categories:
        category.event = event
    CategoryPrize.objects.bulk_create(categories)
    if settings is not None or categories:
        # As the set-up forms require once a director chose a unit or added a category; a
        # document with place prizes alone loads as it always did.
        try:
            prize_amounts_check(event=event)
        except UserError as exc:
            raise Invalid(f"prizes: {exc}") from exc


def register() -> None:
    section_register(Section("prizes", 10, prizes_export, prizes_load))
