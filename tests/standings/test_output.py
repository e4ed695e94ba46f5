"""Standings output (standings/output.py): the command's JSON text is exactly what
``json.dumps(to_json(table), indent=2, ensure_ascii=False)`` writes (design brief §4 fixes the
format; ``json_text`` only writes it faster)."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from standings.compute import StandingsTable
from standings.output import exact_text, json_text, to_json
from standings.ranking import Standing


def standard(table: StandingsTable) -> str:
    return json.dumps(to_json(table), indent=2, ensure_ascii=False)


def row(start_no: int, name: str = "Player", **kwargs: object) -> Standing:
    fields: dict[str, object] = {
        "rank": start_no,
        "shared": False,
        "points": Fraction(7, 2),
        "values": {},
        "decided_by": "PTS",
        **kwargs,
    }
    return Standing(start_no=start_no, name=name, **fields)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "table",
    [
        pytest.param(StandingsTable("empty", 0, (), ()), id="no-rows-no-tiebreaks"),
        pytest.param(StandingsTable("codes-only", 3, ("BH", "SB"), ()), id="no-rows"),
        pytest.param(StandingsTable("plain", 1, (), (row(1), row(2))), id="no-tiebreaks"),
        pytest.param(
            StandingsTable(
                "held5",
                5,
                ("BH/C1", "BH", "DE"),
                (
                    row(2, 'Émile "the" Ø\\', values={"BH/C1": Fraction(25, 2)}),
                    row(1, "Ann\u2028\t\x07", shared=True, decided_by=None),
                    row(3, "趙", points=Fraction(25, 3), values={"DE": (Fraction(1), Fraction(0))}),
                ),
            ),
            id="quotes-control-characters-missing-values-tuples",
        ),
    ],
)
def test_json_text_is_the_standard_encoders_text(table: StandingsTable) -> None:
    assert json_text(table) == standard(table)


CODES = st.lists(st.sampled_from(["BH/C1", "BH", "SB", "PS", "DE", "ARO", "STRONG"]), unique=True)
VALUES = st.fractions(min_value=-100, max_value=100, max_denominator=12)


@st.composite
def tables(draw: st.DrawFn) -> StandingsTable:
    codes = tuple(draw(CODES))
    rows = []
    for start_no in range(1, draw(st.integers(0, 6)) + 1):
        values = {
            code: draw(st.one_of(VALUES, st.tuples(VALUES, VALUES)))
            for code in codes
            if draw(st.booleans())
        }
        rows.append(
            row(
                start_no,
                draw(st.text()),
                rank=draw(st.integers(1, 9)),
                shared=draw(st.booleans()),
                points=draw(VALUES),
                values=values,
                decided_by=draw(st.sampled_from([None, "PTS", *codes])),
            )
        )
    return StandingsTable(draw(st.text(min_size=1)), draw(st.integers(0, 11)), codes, tuple(rows))


@settings(max_examples=300, deadline=None)
@given(table=tables())
def test_json_text_matches_the_standard_encoder_on_any_table(table: StandingsTable) -> None:
    assert json_text(table) == standard(table)


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (Fraction(4), "4"),
        (Fraction(25, 2), "12.5"),
        (Fraction(-1, 4), "-0.25"),
        (Fraction(25, 3), "25/3"),
    ],
)
def test_exact_text(value: Fraction, text: str) -> None:
    assert exact_text(value) == text
