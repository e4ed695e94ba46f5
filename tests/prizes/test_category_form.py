"""Category prizes from form fields (issue 20): a rating band, an age by birth date on a
reference date or by birth year, sex, federations, unrated players; stored as the conditions
the prize engine reads, the JSON still there for advanced use."""

from __future__ import annotations

import datetime as dt

import pytest

from prizes.categories import Category, Condition
from prizes.forms import CategoryForm
from prizes.models import CategoryPrize
from prizes.split import PlacedPlayer

BASE = {"code": "cat", "name": "Category", "amounts": "100 50"}


@pytest.mark.parametrize(
    ("fields", "conditions"),
    [
        pytest.param(
            {"rating_max": "1999"}, [{"field": "rating", "op": "le", "value": 1999}], id="u2000"
        ),
        pytest.param(
            {"rating_min": "1600", "rating_max": "1799"},
            [
                {"field": "rating", "op": "ge", "value": 1600},
                {"field": "rating", "op": "le", "value": 1799},
            ],
            id="rating-band",
        ),
        pytest.param(
            {"rated": "unrated"}, [{"field": "rated", "op": "eq", "value": False}], id="unrated"
        ),
        pytest.param(
            # Under 18 on 1 Jan 2025: born after 1 Jan 2007.
            {"age_under": "18", "age_on": "2025-01-01"},
            [{"field": "birth_date", "op": "gt", "value": "2007-01-01"}],
            id="juniors-u18-by-date",
        ),
        pytest.param(
            # 65 or older on 29 Feb 2024: born on or before 28 Feb 1959.
            {"age_from": "65", "age_on": "2024-02-29"},
            [{"field": "birth_date", "op": "le", "value": "1959-02-28"}],
            id="seniors-leap-day",
        ),
        pytest.param(
            {"born_from": "2009"}, [{"field": "birth_year", "op": "ge", "value": 2009}], id="year"
        ),
        pytest.param(
            {"sex": "w", "federations": "nor, swe"},
            [
                {"field": "sex", "op": "eq", "value": "w"},
                {"field": "federation", "op": "in", "value": ["NOR", "SWE"]},
            ],
            id="women-of-two-federations",
        ),
        pytest.param(
            {"federations": "NOR", "conditions": '[{"field": "sex", "op": "ne", "value": "m"}]'},
            [
                {"field": "federation", "op": "eq", "value": "NOR"},
                {"field": "sex", "op": "ne", "value": "m"},
            ],
            id="fields-and-advanced-json",
        ),
    ],
)
def test_the_fields_become_the_engines_conditions(fields, conditions) -> None:  # type: ignore[no-untyped-def]
    form = CategoryForm({**BASE, **fields})
    assert form.is_valid(), form.errors
    assert form.cleaned_data == {
        "code": "cat",
        "name": "Category",
        "amounts": ["100", "50"],
        "conditions": conditions,
    }


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        pytest.param({}, "say who the category is for", id="nothing-said"),
        pytest.param({"age_under": "18"}, "needs the reference date", id="age-without-date"),
        pytest.param({"rating_min": "2000", "rating_max": "1500"}, "is empty", id="empty-band"),
        pytest.param({"federations": "NORWAY"}, "three-letter federation", id="bad-federation"),
        pytest.param({"rating_max": "99999"}, "less than or equal to 4000", id="bounded"),
    ],
)
def test_a_category_that_says_nothing_or_nonsense_is_refused(fields, message) -> None:  # type: ignore[no-untyped-def]
    form = CategoryForm({**BASE, **fields})
    assert not form.is_valid()
    assert message in str(form.errors)


def test_the_engine_reads_unrated_and_birth_year() -> None:
    unrated = PlacedPlayer(1, "A", 1, rating=None, birth_year=2010)
    rated = PlacedPlayer(2, "B", 2, rating=1500, birth_date=dt.date(2008, 5, 1), birth_year=2008)
    category = Category(
        "u",
        "Unrated juniors",
        (Condition("rated", "eq", False), Condition("birth_year", "ge", 2009)),
        (),
    )
    assert category.admits(unrated) and not category.admits(rated)


@pytest.mark.django_db
def test_the_director_saves_a_category_from_the_fields(event, director, client_for) -> None:  # type: ignore[no-untyped-def]
    response = client_for(director).post(
        f"/e/{event.slug}/prizes/setup/",
        {"form": "category", **BASE, "rating_max": "1999", "sex": "w"},
    )
    assert response.status_code in (200, 302)
    record = CategoryPrize.objects.get(event=event, code="cat")
    assert record.conditions == [
        {"field": "rating", "op": "le", "value": 1999},
        {"field": "sex", "op": "eq", "value": "w"},
    ]
    page = client_for(director).get(f"/e/{event.slug}/prizes/setup/").content.decode()
    assert "Rating at most" in page and "More conditions (JSON, advanced)" in page
    assert "rating ≤ 1999 · sex = w" in page  # the list says it in words, the JSON behind it
