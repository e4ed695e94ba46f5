"""The TRF writer keeps every field's text in its columns (issue 28, "A name with a line break
becomes records of its own"), as a property: whatever text the fields hold (line breaks, tabs,
NUL, escape, Unicode's line separators, text longer than its columns), every line of the file
is one record of a kind the writer writes, the player records are the players in their
columns, and the file reads back to the same players and results. Pure: no database."""

from __future__ import annotations

import datetime as dt

from hypothesis import given, settings
from hypothesis import strategies as st

from events.limits import on_one_line
from events.records import Crosstable, Entrant, RoundResult
from events.trf import TournamentRecords, parse_trf, write_trf

RECORDS = {"001", "012", "022", "032", "042", "052", "062", "072", "082", "092", "102", "112"}
RECORDS |= {"122", "132", "XXR"}

# Any text, and text made mostly of what breaks lines.
hostile = st.text(max_size=60) | st.text(
    alphabet=st.sampled_from("\n\r\t\x00\x0b\x0c\x1b\x1c\x85\u2028\u2029 ab,Ø012"), max_size=60
)


@st.composite
def crosstables(draw: st.DrawFn) -> Crosstable:
    count = draw(st.integers(min_value=2, max_value=6))
    entrants = []
    for start_no in range(1, count + 1):
        # One round: 1-2, 3-4, ... and a pairing-allocated bye for an odd last player.
        opponent = start_no + 1 if start_no % 2 else start_no - 1
        if opponent > count:
            result = RoundResult(1, None, "-", "U")
        else:
            white = start_no % 2 == 1
            result = RoundResult(1, opponent, "w" if white else "b", "1" if white else "0")
        entrants.append(
            Entrant(
                start_no=start_no,
                name=draw(hostile),
                rating=draw(st.integers(min_value=0, max_value=4000)),
                federation=draw(hostile),
                fide_id=draw(hostile),
                title=draw(hostile),
                sex=draw(hostile),
                birth_date=dt.date(1990, 1, 2),
                results=(result,),
            )
        )
    return Crosstable(name=draw(hostile), rounds=1, entrants=tuple(entrants))


@settings(max_examples=100, deadline=None)
@given(table=crosstables(), site=hostile, kind=hostile, arbiter=hostile, deputy=hostile)
def test_every_line_is_a_record_whatever_the_text(
    table: Crosstable, site: str, kind: str, arbiter: str, deputy: str
) -> None:
    text = write_trf(
        table,
        site=site,
        tournament_type=kind or None,
        records=TournamentRecords(chief_arbiter=arbiter, deputy_arbiters=(deputy,)),
    )
    lines = text.split("\n")
    assert lines.pop() == ""
    assert all(line[:3] in RECORDS and (len(line) == 3 or line[3] == " ") for line in lines)
    players = [line for line in lines if line.startswith("001")]
    assert [int(line[4:8]) for line in players] == [e.start_no for e in table.entrants]
    read = parse_trf(text).crosstable
    for entrant, back in zip(table.entrants, read.entrants, strict=True):
        assert back.name == on_one_line(entrant.name)[:33].strip()
        assert back.rating == entrant.rating
        assert back.birth_date == entrant.birth_date
        assert back.results == entrant.results
