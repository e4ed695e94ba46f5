"""The fields of a TRF file as real programs spell them (events/trf_fields.py, issue 28). No
database. Each case id names the file of tests/fixtures/trf/real (or the program) it comes from."""

from __future__ import annotations

import datetime as dt

import pytest

from events.trf_fields import (
    DateField,
    FieldNotes,
    dates_read,
    duplicated,
    federation_read,
    fide_id_read,
    rating_read,
    sex_read,
    title_read,
)

D = dt.date


def fields_of(start: str = "", end: str = "", rounds: tuple[str, ...] = ()) -> list[DateField]:
    return [
        DateField("record 042", start, "start"),
        DateField("record 052", end, "end"),
        *(DateField(f"record 132, round {n}", t, "round") for n, t in enumerate(rounds, 1)),
    ]


@pytest.mark.parametrize(
    ("start", "end", "rounds", "read", "note"),
    [
        pytest.param("2024/08/01", "2024-08-09", ("24/08/01", "", "24/08/03"),
                     (D(2024, 8, 1), D(2024, 8, 9), (D(2024, 8, 1), None, D(2024, 8, 3))), None,
                     id="TRF16 itself: no note"),
        pytest.param("May 29, 2020", "May 29, 2020", (), (D(2020, 5, 29), D(2020, 5, 29), ()),
                     "Dates with the month's name, read so: record 042 'May 29, 2020'",
                     id="lichess 2020_06"),
        pytest.param("28. 07. 2005", "31. 07. 2005", (), (D(2005, 7, 28), D(2005, 7, 31), ()),
                     "Dates written day, month, year, read so: record 042 '28. 07. 2005'",
                     id="Karl-Mala example1"),
        pytest.param("25.02.2011", "27.02.2011", ("11.25.02", "11.26.02", "11.27.02"),
                     (D(2011, 2, 25), D(2011, 2, 27),
                      (D(2011, 2, 25), D(2011, 2, 26), D(2011, 2, 27))),
                     "Dates written year, day, month, read so: record 132, round 1 '11.25.02'",
                     id="ICU bunratty_masters_2011: year, day, month"),
        pytest.param("10.09.13", "11.03.13", ("10.09.13", "10.09.25", "11.03.13"),
                     (D(2010, 9, 13), D(2011, 3, 13),
                      (D(2010, 9, 13), D(2010, 9, 25), D(2011, 3, 13))),
                     "Dates written year, month, day, read so: record 042 '10.09.13'",
                     id="ICU armstrong_2011: two-digit years"),
        pytest.param("08/04/2018", "10/06/2018", ("18/04/08", "18/05/27"),
                     (D(2018, 4, 8), D(2018, 6, 10), (D(2018, 4, 8), D(2018, 5, 27))),
                     "Dates written day, month, year, read so: record 042 '08/04/2018'",
                     id="San Viator test_demo: the round dates settle day/month"),
        pytest.param("24/09/2010", "02/10/2010", (), (D(2010, 9, 24), D(2010, 10, 2), ()),
                     "record 052 '02/10/2010' is 2010-10-02", id="JaVaFo manual gros-2010"),
        pytest.param("05/06/2020", "", (), (None, None, ()),
                     "record 042 '05/06/2020' (2020-05-06 or 2020-06-05)",
                     id="day or month first, nothing to tell: left empty"),
        pytest.param("09.04.2026", "", (), (D(2026, 4, 9), None, ()),
                     "record 042 '09.04.2026' is 2026-04-09", id="dots: the day first"),
        pytest.param("2026/04/01", "2026/03/01", (), (D(2026, 4, 1), None, ()),
                     "The end date (record 052) 2026-03-01 is before the start 2026-04-01",
                     id="end before start: the end left empty"),
        pytest.param("next week", "0000/00/00", (), (None, None, ()),
                     "Dates that are no dates, left empty: record 042 'next week'",
                     id="no date; a placeholder is none"),
    ],
)  # fmt: skip
def test_dates_are_read_together(
    start: str, end: str, rounds: tuple[str, ...], read: tuple[object, ...], note: str | None
) -> None:
    got = dates_read(fields_of(start, end, rounds))
    assert (got.start, got.end, got.rounds) == read
    if note is None:
        assert got.notes == ()
    else:
        assert any(note in line for line in got.notes), got.notes


@pytest.mark.parametrize(
    ("reader", "text", "value"),
    [
        (sex_read, "m", "m"),
        (sex_read, "M", "m"),  # bunratty_masters_2011, capo-dorso-2012
        (sex_read, "w", "w"),
        (sex_read, "F", "w"),  # bunratty_masters_2011 (FWFM), capo-dorso-2012
        (sex_read, "f", "w"),  # example1 (Karl-Mala)
        (sex_read, " ", ""),
        (sex_read, "x", None),
        (title_read, "g", "GM"),  # example1's title letters (TRF16's old spelling)
        (title_read, "wf", "WFM"),
        (title_read, "WFM", "WFM"),  # bunratty_masters_2011
        (title_read, "gm", "GM"),
        (title_read, "", ""),
        (title_read, "Dr.", None),
        (federation_read, "ESP", "ESP"),
        (federation_read, "kil", "KIL"),  # a club code of three letters reads as a code
        (federation_read, "C.C", None),  # bunratty_masters_2011: a club, no federation
        (federation_read, "", ""),
        (fide_id_read, "1503014", "1503014"),
        (fide_id_read, "00000000", ""),  # zeros only: no id
        (fide_id_read, "0", ""),
        (fide_id_read, "ESP-123", None),
        (rating_read, "0951", 951),  # irish_junior_champs_2011
        (rating_read, "", 0),
        (rating_read, "----", None),
    ],
    ids=lambda value: repr(value) if isinstance(value, str) else None,
)
def test_player_columns_as_real_files_spell_them(reader, text: str, value: object) -> None:  # type: ignore[no-untyped-def]
    assert reader(text) == value


def test_values_held_twice() -> None:
    held = [(1, "1503014"), (2, ""), (3, "1503014"), (4, "24547522"), (5, "")]
    assert duplicated(held) == {"1503014": [1, 3]}


def test_notes_name_eight_cases_and_count_the_rest() -> None:
    notes = FieldNotes()
    notes.line("First.")
    for number in range(1, 12):
        notes.add("Byes: {cases}.", str(number))
    assert notes.lines() == ("First.", "Byes: 1, 2, 3, 4, 5, 6, 7, 8 and 3 more.")
