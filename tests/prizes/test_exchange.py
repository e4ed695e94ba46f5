"""The exchange format carries the prize side of an event (issue 19): the place prizes, the
director's prize settings and the category prizes; and whether the event is closed. Bad
values refuse the import, naming the key, and nothing is written."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from django.core.management.base import CommandError

from events.models import Event, EventStatus
from events.services import event_close
from prizes.models import CategoryPrize, PrizeSettings
from prizes.services import prize_category_save, prize_settings_set
from tests.conftest import export_document, import_copy
from tests.prizes.conftest import ADDENDUM_FUND, gct_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def set_up(tmp_path: Path, director: Any) -> Event:
    event = gct_event(tmp_path, "prize-keys", ADDENDUM_FUND, director=director)
    prize_settings_set(
        event=event, split_rule="hort", rounding="floor", unit=Decimal("10"), user=director
    )
    for code, name, field, value in (("women", "Best woman", "sex", "w"), ("u2705", "Under 2705",
                                     "rating", 2705)):  # fmt: skip
        prize_category_save(
            event=event,
            code=code,
            name=name,
            conditions=[{"field": field, "op": "eq" if field == "sex" else "lt", "value": value}],
            amounts=["500", "250"] if code == "women" else ["100"],
            user=director,
        )
    event_close(event=event, user=director)
    return event


def test_prize_settings_categories_and_the_closing_survive_export_and_import(
    set_up: Event, tmp_path: Path
) -> None:
    document = export_document(set_up.slug)
    assert document["prize_settings"] == {"split_rule": "hort", "rounding": "floor", "unit": "10"}
    assert [c["code"] for c in document["prize_categories"]] == ["women", "u2705"]
    assert document["prize_categories"][0]["amounts"] == ["500", "250"]
    assert document["closed"] is True
    copy = import_copy(document, tmp_path)
    settings = PrizeSettings.objects.get(event=copy)
    assert (settings.split_rule, settings.rounding, settings.unit) == ("hort", "floor", 10)
    categories = CategoryPrize.objects.filter(event=copy).order_by("position")
    assert [(c.code, c.name, c.position) for c in categories] == [
        ("women", "Best woman", 1),
        ("u2705", "Under 2705", 2),
    ]
    assert Event.objects.get(pk=copy.pk).status == EventStatus.FINISHED
    assert export_document(copy.slug) == {**document, "slug": "copy"}


def test_an_event_without_them_writes_none_of_the_keys(tmp_path: Path, director: Any) -> None:
    event = gct_event(tmp_path, "plain", ADDENDUM_FUND, director=director)
    document = export_document(event.slug)
    assert not {"prize_settings", "prize_categories", "closed"} & set(document)


@pytest.mark.parametrize(
    ("key", "value", "reason"),
    [
        ("prize_settings", {"split_rule": "lottery"}, "prize_settings.split_rule: 'lottery'"),
        ("prize_settings", {"unit": "0"}, "prize_settings.unit: must be more than 0"),
        ("prize_settings", {"unit": "ten"}, "prize_settings.unit: 'ten' is not an amount"),
        ("prize_categories", [{"code": "w", "name": "W", "conditions": [], "amounts": ["x"]}],
         "prize_categories[0]: amount: 'x' is not an amount"),
        ("prize_categories", [{"code": "w", "name": "W", "conditions": [{"field": "shoe",
          "op": "eq", "value": 1}], "amounts": []}], "prize_categories[0]: "),
        ("prize_categories", [{"code": "Not a slug", "name": "W", "conditions": [],
          "amounts": []}], "prize_categories[0]: a category needs a code"),
        ("prize_categories", [{"code": "w", "name": "W", "conditions": [], "amounts": ["255"]}],
         "prizes: category w prize 1 (255) is not a whole number of the rounding unit 10"),
        ("closed", "yes", 'closed: expected true or false, got "yes"'),
    ],
)  # fmt: skip
def test_a_bad_prize_key_refuses_the_import_naming_it(
    set_up: Event, tmp_path: Path, key: str, value: Any, reason: str
) -> None:
    document = {**export_document(set_up.slug), key: value}
    events = Event.objects.count()
    with pytest.raises(CommandError) as refusal:
        import_copy(document, tmp_path)
    assert reason in str(refusal.value)
    assert Event.objects.count() == events
