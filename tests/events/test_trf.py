"""TRF16 / TRF-2026 reader and TRF16 writer (events/trf.py). No database."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from events.records import Crosstable, Entrant, RoundResult
from events.trf import (
    TournamentRecords,
    TrfError,
    format_points,
    parse_date,
    parse_trf,
    write_trf,
)
from tests.standings.generate import generate

DATA = Path("/work/shared/data/tiebreaks")

HEADER = "012 Test Open\n042 2024-08-01\nXXR 2\n"


def player(start_no: int, rounds: str, *, name: str = "", rating: int = 1500) -> str:
    """A 001 record with the TRF16 columns; ``rounds`` is the text from column 92 on."""
    head = (
        f"001 {start_no:4d} m    {name or f'Player {start_no}':<33} {rating:4d} NOR "
        f"{'':>11} {'1990/01/01':<10} {'1.0':>4} {start_no:4d}"
    )
    return f"{head}  {rounds}"


GOOD = HEADER + "\n".join(
    [
        player(1, "   2 w 1  0000 - H"),
        player(2, "   1 b 0     3 w +"),
        player(3, "0000 - U     2 b -"),
    ]
)


def test_reads_the_fide_fixtures() -> None:
    parsed = parse_trf((DATA / "held_swiss_5.trf").read_text())
    assert parsed.name == "FIDE C.07 2023 Tie-Break Exercises"
    assert parsed.start_date == dt.date(2024, 8, 1)
    assert parsed.rounds == parsed.crosstable.rounds == 5
    david = parsed.crosstable.entrant(4)
    assert (david.name, david.rating, david.federation) == ("David", 2050, "NOR")
    assert david.birth_date == dt.date(1990, 1, 1)
    assert david.results[1] == RoundResult(2, None, "-", "H")
    assert david.results[0] == RoundResult(1, 12, "b", "1")


def test_reads_trf_2026_header_and_unrated_players() -> None:
    parsed = parse_trf((DATA / "swiss_with_many_unplayed_rounds.trf").read_text())
    assert parsed.start_date == dt.date(2026, 2, 28)
    assert parsed.round_robin is False  # record 092 says "Swiss System"
    assert parsed.crosstable.entrant(6).rating == 0
    assert parsed.crosstable.entrant(1).title == "FM"
    assert any(record.startswith("062") for record in parsed.other_records)


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"], ids=["LF", "CRLF", "CR"])
def test_line_endings_and_trailing_spaces(newline: str) -> None:
    text = newline.join(line + "   " for line in GOOD.split("\n")) + newline
    parsed = parse_trf(text)
    assert parsed.crosstable == parse_trf(GOOD).crosstable
    assert [e.start_no for e in parsed.crosstable.entrants] == [1, 2, 3]


def test_every_result_code() -> None:
    codes = ["1", "=", "0", "+", "-", "W", "D", "L", "U", "F", "H", "Z"] + [" "]
    assert {c for c in codes if c != " "} | {"Z"} == set("10=+-WDLUFHZ")
    text = HEADER + "\n".join(
        [
            player(1, "   2 w 1     2 b =     2 w W     2 b D     2 w +     2 b -"),
            player(2, "   1 b 0     1 w =     1 b L     1 w D     1 b -     1 w -"),
            player(3, "0000 - U  0000 - F  0000 - H  0000 - Z  0000 -   "),
        ]
    )
    parsed = parse_trf(text)
    assert [r.code for r in parsed.crosstable.entrant(1).results] == list("1=WD+-")
    assert [r.code for r in parsed.crosstable.entrant(3).results] == list("UFHZZZ")


def test_round_robin_flag_from_record_092() -> None:
    parsed = parse_trf("092 Individual: Round Robin\n" + GOOD)
    assert parsed.round_robin is True and parsed.crosstable.round_robin


def test_unreliable_rank_and_points_columns_are_ignored() -> None:
    text = GOOD.replace(" 1.0    1  ", " 9.5   77  ")
    assert parse_trf(text).crosstable == parse_trf(GOOD).crosstable


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (HEADER + player(1, "   2 w 1") + "\n" + player(2, "   1 b 0  0000 - Q"),
         r"line 5: round 2: unknown result code 'Q'"),
        (HEADER + player(1, "   2 w 1") + "\n" + player(1, "   1 b 0"),
         r"line 5: start number 1 already used on line 4"),
        (HEADER + player(1, "   9 w 1"), r"line 4: round 1: opponent 9 is not a player"),
        (HEADER + player(1, "   2 w 1") + "\n" + player(2, "   3 b 0") + "\n"
         + player(3, "   2 w 1"), r"line 4: round 1: asymmetric pairing: 1 meets 2, but 2 has 3"),
        (HEADER + player(1, "   3 w 1") + "\n" + player(2, "   3 b 0") + "\n"
         + player(3, "   1 b 0"), r"line 5: round 1: player 3 appears twice in the round"),
        (HEADER + player(1, "   2 w 1") + "\n" + player(2, "   1 b 1"),
         r"line 4: round 1: results '1' \(1\) and '1' \(2\) do not belong to one game"),
        (HEADER + "001   x1 m    Bad", r"line 4: start number 'x1' is not a number"),
        (HEADER + "001", r"line 4: player record without a start number"),
        (HEADER + player(1, "  ab w 1"), r"line 4: round 1: opponent 'ab' is not a number"),
        (HEADER + player(1, "   1 w 1"), r"paired against themself"),
        (HEADER, r"no player records"),
    ],
    ids=[
        "unknown result code",
        "duplicate start number",
        "opponent who does not exist",
        "asymmetric pairing",
        "player twice in a round",
        "results of two winners",
        "malformed start number",
        "malformed short line",
        "malformed opponent",
        "paired against self",
        "no players",
    ],
)  # fmt: skip
def test_errors_name_the_line(text: str, message: str) -> None:
    with pytest.raises(TrfError, match=message):
        parse_trf(text)


def test_trf_error_is_a_value_error() -> None:
    assert issubclass(TrfError, ValueError)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2024-08-01", dt.date(2024, 8, 1)),
        ("2026/02/28", dt.date(2026, 2, 28)),
        ("01.08.2024", dt.date(2024, 8, 1)),
        ("0000/00/00", None),
        ("", None),
    ],
)
def test_parse_date(text: str, expected: dt.date | None) -> None:
    assert parse_date(text) == expected


def test_format_points() -> None:
    from fractions import Fraction

    assert [format_points(Fraction(n, 2)) for n in (0, 1, 8, 25)] == ["0.0", "0.5", "4.0", "12.5"]
    with pytest.raises(ValueError):
        format_points(Fraction(1, 3))


# ---------------------------------------------------------------------------------------------
# Round trip


@pytest.mark.parametrize("name", sorted(p.name for p in DATA.glob("*.trf")))
def test_round_trip_of_fixtures(name: str) -> None:
    crosstable = parse_trf((DATA / name).read_text()).crosstable
    assert parse_trf(write_trf(crosstable)).crosstable == crosstable


def test_written_columns_follow_trf16() -> None:
    crosstable = parse_trf((DATA / "held_swiss_5.trf").read_text()).crosstable
    lines = write_trf(crosstable).splitlines()
    record = next(line for line in lines if line.startswith("001    4"))
    assert record[14:47].strip() == "David"
    assert record[48:52] == "2050"
    assert record[80:84] == " 3.5"
    assert record[91:99] == "  12 b 1"
    assert "042 2024/08/01" in lines and "XXR 5" in lines  # TRF16: YYYY/MM/DD


_names = st.text(alphabet=st.characters(min_codepoint=65, max_codepoint=122), max_size=33).map(
    lambda s: re.sub(r"[^A-Za-z, ]", "", s).strip()
)


@st.composite
def crosstables(draw: st.DrawFn) -> Crosstable:
    base = generate(draw(st.integers(min_value=0, max_value=5000)))
    entrants = tuple(
        Entrant(
            start_no=e.start_no,
            name=draw(_names),
            rating=draw(st.integers(min_value=0, max_value=3000)),
            federation=draw(st.sampled_from(["", "NOR", "GER", "IND"])),
            fide_id=draw(st.sampled_from(["", "1503014", "12345678901"])),
            title=draw(st.sampled_from(["", "GM", "IM", "WGM", "FM"])),
            sex=draw(st.sampled_from(["", "m", "w"])),
            birth_date=draw(st.none() | st.dates(dt.date(1920, 1, 1), dt.date(2020, 12, 31))),
            results=e.results,
        )
        for e in base.entrants
    )
    name = draw(_names)
    return Crosstable(name, base.rounds, entrants, base.start_date, base.round_robin)


@settings(max_examples=60, deadline=None)
@given(crosstable=crosstables())
def test_round_trip_property(crosstable: Crosstable) -> None:
    assert parse_trf(write_trf(crosstable)).crosstable == crosstable


# -- Issue 20: continuing an event paired elsewhere, and the tournament records ---------------

# Round 1 played; round 2 lists only the players who will not be paired in it.
AFTER_ROUND_1 = "\n".join(
    [
        player(1, "   2 w 1  0000 - H"),
        player(2, "   1 b 0"),
        player(3, "   4 w =  0000 - Z"),
        player(4, "   3 b ="),
        player(5, "0000 - U  0000 - -"),
    ]
)


@pytest.mark.parametrize(
    ("header", "rounds", "scheduled"),
    [("XXR 7\n", 7, 7), ("142 7\n", 7, 7), ("", 2, None), ("XXR 0\n", 2, None)],
    ids=["XXR", "TRF-2026 142", "no record: the rounds the file holds", "XXR 0: not given"],
)
def test_the_last_round_with_nobody_paired_is_the_next_rounds_byes(
    header: str, rounds: int, scheduled: int | None
) -> None:
    parsed = parse_trf("012 Cut\n" + header + AFTER_ROUND_1)
    assert parsed.crosstable.rounds == 1
    assert all(len(e.results) == 1 for e in parsed.crosstable.entrants)
    assert parsed.next_round_byes == ((1, "H"), (3, "Z"), (5, "Z"))
    assert (parsed.rounds, parsed.scheduled_rounds) == (rounds, scheduled)


@pytest.mark.parametrize(
    "last_round",
    [
        ["0000 - H", "0000 - Z", "0000 - Z", "0000 - H", "0000 - Z"],  # every player listed
        ["0000 - H", "", "0000 - U", "", ""],  # a pairing-allocated bye: a round was paired
        ["0000 - H", "", "0000 - +", "", ""],  # a forfeit win: the player was paired
    ],
    ids=["everyone has a bye", "pairing-allocated bye", "forfeit win"],
)
def test_a_last_round_someone_was_paired_in_stays_a_round(last_round: list[str]) -> None:
    firsts = ["   2 w 1", "   1 b 0", "   4 w =", "   3 b =", "0000 - U"]
    lines = [
        player(n, f"{first}  {last}".rstrip())
        for n, (first, last) in enumerate(zip(firsts, last_round, strict=True), start=1)
    ]
    parsed = parse_trf("012 Played\nXXR 5\n" + "\n".join(lines))
    assert (parsed.crosstable.rounds, parsed.next_round_byes) == (2, ())


@pytest.mark.parametrize(
    ("records", "colour", "file_order"),
    [
        ("XXC white1\n", "w", False),
        ("XXC black1\n", "b", False),
        ("XXC rank white1\n", "w", True),
        ("152 B\n", "b", False),
        ("", "", False),
    ],
    ids=["XXC white1", "XXC black1", "XXC rank", "TRF-2026 152", "not given"],
)
def test_initial_colour_and_pairing_order_records(
    records: str, colour: str, file_order: bool
) -> None:
    pairing = parse_trf(records + GOOD).pairing
    assert pairing is not None
    assert (pairing.initial_colour, pairing.file_order) == (colour, file_order)


def test_bbppairings_records_acceleration_forbidden_pairs_and_points() -> None:
    text = "XXA    1  1.0  0.5\nXXP 1 3\nBBW  3.0\nBBD  1.0\n192 FIDE_DUTCH_2025_BAKU\n" + GOOD
    pairing = parse_trf(text).pairing
    assert pairing is not None
    assert pairing.accelerations == ((1, (Fraction(1), Fraction(1, 2))),)
    assert pairing.forbidden == ((1, 3),) and pairing.baku
    assert dict(pairing.scoring) == {
        "win": 3, "forfeit_win": 3, "full_bye": 3, "pairing_bye": 3, "draw": 1, "half_bye": 1,
    }  # fmt: skip
    assert dict(parse_trf("BBU  1.0\nBBW  3.0\n" + GOOD).pairing.scoring)["pairing_bye"] == 1  # type: ignore[union-attr]


def round_dates_line(*dates: str) -> str:
    """Record 132: each round's date in the columns of its round block (TRF16)."""
    return "132" + " " * 88 + "".join(f"{d:<8}  " for d in dates).rstrip()


def test_tournament_records_are_read() -> None:
    text = (
        "012 Tromsø Open\n022 Tromsø\n032 NOR\n042 2026/04/01\n052 2026/04/09\n"
        "092 Individual: Swiss-System\n102 IA Kari Nordmann\n112 FA Ola Nordmann\n"
        "112 Per Hansen\n122 90'/40+30'+30\"\n"
        + round_dates_line("26/04/01", "", "26/04/03")
        + "\n"
        + GOOD
    )
    parsed = parse_trf(text)
    assert parsed.records is not None
    assert parsed.records == type(parsed.records)(
        site="Tromsø",
        federation="NOR",
        end_date=dt.date(2026, 4, 9),
        tournament_type="Individual: Swiss-System",
        chief_arbiter="IA Kari Nordmann",
        deputy_arbiters=("FA Ola Nordmann", "Per Hansen"),
        rate_of_play="90'/40+30'+30\"",
        round_dates=(dt.date(2026, 4, 1), None, dt.date(2026, 4, 3)),
    )


@pytest.mark.parametrize(
    ("record", "message"),
    [
        ("152 X", r"line 1: record 152: 'X' is neither W nor B"),
        ("BBW three", r"line 1: record BBW: 'three' is not a number of points"),
        ("XXP 4", r"line 1: XXP lists 2 to"),
    ],
    ids=["152", "BBW", "XXP"],
)
def test_bad_pairing_records_are_refused_with_the_line(record: str, message: str) -> None:
    """Records the next pairing depends on are read or refused, never guessed."""
    with pytest.raises(TrfError, match=message):
        parse_trf(record + "\n" + GOOD)


@pytest.mark.parametrize(
    ("record", "read", "note"),
    [
        ("042 2026/13/01", {"start_date": None}, "record 042 '2026/13/01' (no such day)"),
        ("052 next week", {"end_date": None}, "Dates that are no dates, left empty: record 052"),
        (round_dates_line("26/04/01", "26/02/30"), {},
         "record 132, round 2 '26/02/30' (2030-02-26, or neither)"),
        ("\n".join(["112 Deputy"] * 21), {},
         "Deputy arbiters past the 20 an event keeps, left out: line 21."),
        ("032 Lichess", {"federation": ""}, "Record 032 'Lichess' is not a federation code"),
    ],
    ids=["start date", "end date", "round date", "deputies", "federation"],
)  # fmt: skip
def test_bad_informational_records_are_set_aside_with_a_note(
    record: str, read: dict[str, object], note: str
) -> None:
    """Issue 28: an informational record that does not read is left empty, one line each."""
    parsed = parse_trf(record + "\n" + GOOD.replace("042 2024-08-01\n", ""))
    assert {key: getattr(parsed, key) for key in read} == read
    assert any(note in line for line in parsed.notes), parsed.notes


@pytest.mark.parametrize("placeholder", ["0000/00/00", "00/00/00", "", "0000-00-00"])
def test_placeholder_dates_are_no_date(placeholder: str) -> None:
    text = GOOD.replace("042 2024-08-01", f"042 {placeholder}")
    assert parse_trf(text).start_date is None


def test_written_records_read_back_the_same() -> None:
    crosstable = parse_trf(GOOD).crosstable
    records = TournamentRecords(
        chief_arbiter="IA Kari Nordmann",
        deputy_arbiters=("FA Ola Nordmann", "Per Hansen"),
        rate_of_play="90'/40+30'+30\"",
        round_dates=(dt.date(2024, 8, 1), None, dt.date(2024, 8, 3)),
    )
    text = write_trf(
        crosstable,
        tournament_type="Individual: Swiss-System",
        site="Tromsø",
        federation="NOR",
        end_date=dt.date(2024, 8, 9),
        scheduled_rounds=7,
        records=records,
        next_round_byes=[(2, "H"), (3, "Z")],
    )
    lines = text.splitlines()
    assert lines[:13] == [
        "012 Test Open", "022 Tromsø", "032 NOR", "042 2024/08/01", "052 2024/08/09", "062 3",
        "072 0", "082 0", "092 Individual: Swiss-System", "102 IA Kari Nordmann",
        "112 FA Ola Nordmann", "112 Per Hansen", "122 90'/40+30'+30\"",
    ]  # fmt: skip
    assert lines[13][91:99] == "24/08/01" and lines[13][111:119] == "24/08/03"
    again = parse_trf(text)
    assert again.records == replace(
        records,
        site="Tromsø",
        federation="NOR",
        end_date=dt.date(2024, 8, 9),
        tournament_type="Individual: Swiss-System",
    )
    assert again.crosstable == crosstable
    assert (again.rounds, again.next_round_byes) == (7, ((2, "H"), (3, "Z")))


def test_a_line_break_in_a_record_does_not_start_another_record() -> None:
    text = write_trf(parse_trf(GOOD).crosstable, records=TournamentRecords(chief_arbiter="A\n001"))
    assert "102 A 001" in text.splitlines()


# -- Issue 28: files as real programs write them --------------------------------------------


@pytest.mark.parametrize(
    ("block", "code", "note"),
    [
        ("0000 - =", "H", "Draws written against no one, read as half-point byes: 3 in round 2."),
        ("0000 - +", "F", "Wins written against no one, read as full-point byes: 3 in round 2."),
        ("0000 - -", "Z", "Losses written against no one, read as zero-point byes (absent): 3"),
        ("0000 -  ", "Z", "Rounds with neither opponent nor result, read as zero-point byes"),
        ("     -  ", "Z", "Rounds with neither opponent nor result"),  # ICU: '-' as colour
        ("       -", "Z", "Losses written against no one"),  # lichess: no opponent, '-'
        ("0000 - 1", "F", "Wins written against no one"),
        ("       H", "H", None),  # lichess: a half-point bye without 0000
        ("       U", "U", None),
        ("0000 - Z", "Z", None),
    ],
    ids=["0000 - = (national programs)", "0000 - + (ICU armstrong_2011)", "0000 - -",
         "blank result (ICU irish_junior_champs_2011)", "ICU bunratty absent",
         "lichess absent", "0000 - 1", "lichess H", "lichess U", "TRF16 Z"],
)  # fmt: skip
def test_a_result_against_no_one_is_the_bye_it_stands_for(
    block: str, code: str, note: str | None
) -> None:
    """Issue 28: as gacrux and bbpPairings read them, named in the notes (TRF16's own byes
    say nothing)."""
    text = HEADER + "\n".join(
        [
            player(1, "   2 w 1     2 b 0"),
            player(2, "   1 b 0     1 w 1"),
            player(3, f"0000 - U  {block}"),
        ]
    )
    parsed = parse_trf(text)
    assert parsed.crosstable.entrant(3).results[1] == RoundResult(2, None, "-", code)
    if note is None:
        assert not any("against no one" in n or "neither opponent" in n for n in parsed.notes)
    else:
        assert any(n.startswith(note) for n in parsed.notes), parsed.notes


def test_what_a_file_has_beyond_the_results_is_named_in_the_notes() -> None:
    """The points column, a second 012, a column ruler, a template line and team records
    (ICU armstrong_2011) are named; nothing of them is read into the event."""
    text = (
        "012 Test Open\n012 45678901234567890123456\nXXR 2\n013 Team A    1    2\n"
        "DDD SSSS sTTT NNNN\n" + "0123456789" * 12 + "\n"
        + "\n".join([player(1, "   2 w 1"), player(2, "   1 b 0"), player(3, "0000 - U")])
    )  # fmt: skip
    parsed = parse_trf(text)
    assert parsed.name == "Test Open"
    notes = parsed.notes
    assert "Record 012 is given twice (line 2): the first name is kept." in notes
    assert "Lines the import does not read, left out: DDD, column ruler." in notes
    assert "Records 013 (1 team) were not read as a team event" in " ".join(notes)
    # player() writes 1.0 in every points column: players 2 and 3 score 0 and 1 here
    assert (
        "The points column disagrees with the results for 1 player; the results count: "
        "2 (file 1.0, results 0.0)." in notes
    )


def test_a_players_columns_that_do_not_read_are_left_empty_one_line_each() -> None:
    line = player(1, "   2 w 1")
    odd = line[:9] + "X" + line[10:53] + "C.C" + line[56:57] + "  ESP-12345" + line[68:]
    parsed = parse_trf(HEADER + odd + "\n" + player(2, "   1 b 0"))
    first = parsed.crosstable.entrant(1)
    assert (first.sex, first.federation, first.fide_id) == ("", "", "")
    assert "Players' federation column, not read (left empty): 1 'C.C'." in parsed.notes
    assert "Players' FIDE id column, not read (left empty): 1 'ESP-12345'." in parsed.notes
    assert "Players' sex column, not read (left empty): 1 'X'." in parsed.notes
