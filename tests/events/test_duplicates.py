"""The duplicate rules (events/duplicates.py, issue 20), table-driven and without a database.

Each case names the situation a director met: the issue's "the same name and FIDE id went in
twice through the form, twice from one pasted list and once more as a late entry".
"""

from __future__ import annotations

import datetime as dt

import pytest

from events.duplicates import Entry, duplicates_find, name_key

CARLSEN = Entry("2. Carlsen, Magnus", "Carlsen, Magnus", "1503014", dt.date(1990, 11, 30))


@pytest.mark.parametrize(
    ("registered", "new", "refusals", "warnings"),
    [
        pytest.param(
            [CARLSEN],
            [Entry("line 1", "Magnus Carlsen", "1503014")],
            ["line 1: FIDE id 1503014 is already 2. Carlsen, Magnus's"],
            [],
            id="issue-20-same-fide-id-as-a-registered-player-refused",
        ),
        pytest.param(
            [CARLSEN],
            [Entry("line 1", "Someone Else", " 1503014 ")],
            ["line 1: FIDE id 1503014 is already 2. Carlsen, Magnus's"],
            [],
            id="fide-id-decides-whatever-the-name",
        ),
        pytest.param(
            [],
            [Entry("line 1", "A", "123"), Entry("line 2", "B"), Entry("line 3", "C", "123")],
            ["line 3: FIDE id 123 is also on line 1"],
            [],
            id="issue-20-twice-in-one-pasted-list-refused-with-its-lines",
        ),
        pytest.param(
            [],
            [Entry("line 1", "A", "0"), Entry("line 2", "B", "0"), Entry("line 3", "C", "000")],
            [],
            [],
            id="trf-zero-fide-id-is-no-id",
        ),
        pytest.param(
            [CARLSEN],
            [Entry("line 4", "carlsen magnus", birth_date=dt.date(1990, 11, 30))],
            [],
            [
                "line 4: carlsen magnus, born 1990-11-30 may be the same person as "
                "2. Carlsen, Magnus, born 1990-11-30"
            ],
            id="same-name-same-birth-date-warned",
        ),
        pytest.param(
            [CARLSEN],
            [Entry("line 4", "Carlsen, Magnus", birth_year=1990)],
            [],
            [
                "line 4: Carlsen, Magnus, born 1990 may be the same person as "
                "2. Carlsen, Magnus, born 1990-11-30"
            ],
            id="same-name-year-against-date-warned",
        ),
        pytest.param(
            [CARLSEN],
            [Entry("line 4", "Carlsen, Magnus")],
            [],
            [
                "line 4: Carlsen, Magnus may be the same person as 2. Carlsen, Magnus, born "
                "1990-11-30"
            ],
            id="same-name-no-birth-data-warned",
        ),
        pytest.param(
            [CARLSEN],
            [Entry("line 4", "Carlsen, Magnus", birth_date=dt.date(2001, 1, 2))],
            [],
            [],
            id="same-name-different-birth-date-two-people",
        ),
        pytest.param(
            [CARLSEN],
            [Entry("line 4", "Carlsen, Magnus", birth_year=1991)],
            [],
            [],
            id="same-name-different-year-two-people",
        ),
        pytest.param(
            [],
            [Entry("line 1", "Øye, Åsmund"), Entry("line 2", "Asmund Oye")],
            [],
            ["line 2: Asmund Oye may be the same person as line 1"],
            id="accents-case-and-word-order-ignored",
        ),
        pytest.param(
            [Entry("3. Berg, Ola", "Berg, Ola", "555", key=3)],
            [Entry("3. Berg, Ola", "Berg, Ola", "555", key=3)],
            [],
            [],
            id="an-edited-player-is-not-their-own-duplicate",
        ),
    ],
)
def test_duplicates(registered, new, refusals, warnings) -> None:  # type: ignore[no-untyped-def]
    found = duplicates_find(registered, new)
    assert list(found.refusals) == refusals
    assert list(found.warnings) == warnings


def test_a_name_key_is_the_words_without_case_accents_or_order() -> None:
    assert name_key("Øye, Åsmund") == name_key("asmund  OYE") == ("asmund", "oye")
    assert name_key("Carlsen, Magnus") != name_key("Carlsen, Magnus Jr")
