"""The exchange format's ``prizes`` key (design.md §4): the place prizes of the event.

A section of :mod:`events.exchange`, registered when the app starts (``PrizesConfig.ready``).
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from typing import Any

from events.exchange import (
    ImportContext,
    Invalid,
    Section,
    decimal_text,
    positive,
    require,
    section_register,
    typed,
)
from events.models import Event
from prizes.models import PlacePrize


def prizes_export(event: Event) -> dict[str, Any]:
    return {
        "prizes": [
            {"place": p.place, "amount": decimal_text(p.amount)}
            for p in PlacePrize.objects.filter(event=event).order_by("place")
        ]
    }


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
        try:
            amount = Decimal(str(require(raw, "amount", (str, int), f"{where}.")))
        except InvalidOperation as exc:
            raise Invalid(f"{where}.amount: {raw['amount']!r} is not an amount") from exc
        if amount < 0 or not amount.is_finite():
            raise Invalid(f"{where}.amount: must be a non-negative amount")
        prizes.append((place, amount))
    return prizes


def prizes_load(doc: Mapping[str, Any], event: Event, context: ImportContext) -> None:
    PlacePrize.objects.bulk_create(
        PlacePrize(event=event, place=place, amount=amount) for place, amount in _prizes(doc)
    )


def register() -> None:
    section_register(Section("prizes", 10, prizes_export, prizes_load))
