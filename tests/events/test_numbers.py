"""events.numbers: numbers as a person reads them (issue 20); exact values stay exact in JSON."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest

from events.numbers import exact_title, number_text, points_text, readable, sheet_number, sheet_text


@pytest.mark.parametrize(
    ("value", "points", "number", "title", "sheet"),
    [
        pytest.param(
            Fraction(3, 2), "1½", "1.5", "", Decimal("1.5"), id="issue-20-pairing-review-3/2"
        ),
        pytest.param(Fraction(17, 2), "8½", "8.5", "", Decimal("8.5"), id="issue-20-cohen-17/2"),
        pytest.param(
            Fraction(331, 330),
            "1.003",
            "1.003",
            "331/330",
            Decimal("1.003"),
            id="issue-20-mso-331/330",
        ),
        pytest.param(
            Fraction(33, 2), "16½", "16.5", "", Decimal("16.5"), id="issue-20-tour-points-33/2"
        ),
        pytest.param("55/4", "13.75", "13.75", "", Decimal("13.75"), id="gct-addendum-tour-points"),
        pytest.param(
            Fraction(2, 3), "0.667", "0.667", "2/3", Decimal("0.667"), id="a-third-rounded-half-up"
        ),
        pytest.param(Fraction(-1, 2), "-½", "-0.5", "", Decimal("-0.5"), id="negative-half"),
        pytest.param(
            Decimal("12.50"), "12½", "12.5", "", Decimal("12.5"), id="decimal-trailing-zero"
        ),
        pytest.param(7, "7", "7", "", 7, id="whole"),
        pytest.param("–", "–", "–", "", "–", id="no-number-passes-through"),
    ],
)
def test_numbers_for_people(value, points, number, title, sheet) -> None:  # type: ignore[no-untyped-def]
    assert points_text(value) == points
    assert number_text(value) == number
    assert exact_title(value) == title
    assert sheet_number(value) == sheet
    assert sheet_text(value) == str(sheet)


def test_a_tiebreak_list_keeps_its_values_apart() -> None:
    assert number_text((Fraction(1, 2), Fraction(2))) == "0.5 2"
    assert exact_title((Fraction(1, 3), Fraction(2))) == "1/3 2"


def test_readable_rewrites_ratios_in_an_engines_sentence_but_not_dates() -> None:
    assert (
        readable("overall ranking: 17/2 points; ahead of 2 on PTS (17/2 to 15/2) on 2019/08/17")
        == "overall ranking: 8½ points; ahead of 2 on PTS (8½ to 7½) on 2019/08/17"
    )
