"""Standings as JSON, CSV and text (design brief §4). Pure: no Django.

In JSON, numbers that can be fractional are strings that ``fractions.Fraction`` parses
exactly: a terminating decimal where there is one ("12.5", "8.25"), else a ratio ("25/3").
The CSV and the text are for people and spreadsheets (issue 20): decimals a spreadsheet can
add ("16.5"; "8.333" for 25/3, rounded as on the page: :mod:`events.numbers`). The CSV goes
through :mod:`events.spreadsheet`: a name typed as a formula stays text.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from events.numbers import number_text, points_text, sheet_text
from events.spreadsheet import csv_text
from standings.compute import StandingsTable
from standings.ranking import Standing
from standings.registry import TiebreakValue


def exact_text(value: Fraction) -> str:
    """Shortest exact text: "4", "12.5", "-0.25", "25/3"."""
    if value.denominator == 1:
        return str(value.numerator)
    denominator = value.denominator
    twos = fives = 0
    while denominator % 2 == 0:
        denominator //= 2
        twos += 1
    while denominator % 5 == 0:
        denominator //= 5
        fives += 1
    if denominator != 1:
        return f"{value.numerator}/{value.denominator}"
    places = max(twos, fives)
    scaled = abs(value.numerator) * 10**places // value.denominator
    sign = "-" if value < 0 else ""
    whole, fraction = divmod(scaled, 10**places)
    return f"{sign}{whole}.{str(fraction).rjust(places, '0').rstrip('0')}"


def value_text(value: TiebreakValue | None) -> str:
    if value is None:
        return ""
    if isinstance(value, tuple):
        return " ".join(exact_text(v) for v in value)
    return exact_text(value)


def points_display(value: Fraction) -> str:
    """For people: 3½ rather than 3.5; other fractions as decimals (events.numbers)."""
    return points_text(value)


def place_labels(rows: Sequence[Standing]) -> list[str]:
    """Each row's place: "3", or for a place shared by three players "3–5"."""
    sizes = Counter(row.rank for row in rows)
    return [
        f"{row.rank}–{row.rank + sizes[row.rank] - 1}" if sizes[row.rank] > 1 else str(row.rank)
        for row in rows
    ]


def to_json(table: StandingsTable) -> dict[str, Any]:
    return {
        "event": table.event,
        "after_round": table.after_round,
        "tiebreaks": list(table.tiebreaks),
        "rows": [
            {
                "rank": row.rank,
                "shared": row.shared,
                "start_no": row.start_no,
                "name": row.name,
                "points": exact_text(row.points),
                "tiebreaks": {code: value_text(row.values.get(code)) for code in table.tiebreaks},
                "decided_by": row.decided_by,
            }
            for row in table.rows
        ],
    }


# What json.dumps writes for a string with ensure_ascii=False (the C encoder).
_json_string = json.JSONEncoder(ensure_ascii=False).encode


def json_text(table: StandingsTable) -> str:
    """``json.dumps(to_json(table), indent=2, ensure_ascii=False)``, written directly.

    The standard library indents in pure Python: for 2000 players that took a third as long
    as ranking them (docs/performance.md). Values repeat across a field (the engine makes
    one Fraction per distinct value), so each distinct value's text is made once. Tests hold
    the two texts equal.
    """
    texts: dict[TiebreakValue | None, str] = {}

    def quoted(value: TiebreakValue | None) -> str:
        text = texts.get(value)
        if text is None:
            text = texts[value] = _json_string(value_text(value))
        return text

    keys = [f"        {_json_string(code)}: " for code in table.tiebreaks]
    rows = [_json_row(row, table.tiebreaks, keys, quoted) for row in table.rows]
    lines = [
        "{",
        f'  "event": {_json_string(table.event)},',
        f'  "after_round": {table.after_round},',
        f'  "tiebreaks": {_json_list([_json_string(code) for code in table.tiebreaks], 1)},',
        f'  "rows": {_json_list(rows, 1)}',
        "}",
    ]
    return "\n".join(lines)


def _json_row(
    row: Standing,
    codes: tuple[str, ...],
    keys: list[str],
    quoted: Callable[[TiebreakValue | None], str],
) -> str:
    values = "{}"
    if codes:
        get = row.values.get
        pairs = ",\n".join(key + quoted(get(code)) for key, code in zip(keys, codes, strict=True))
        values = "{\n" + pairs + "\n      }"
    decided_by = "null" if row.decided_by is None else _json_string(row.decided_by)
    return (
        "{\n"
        f'      "rank": {row.rank},\n'
        f'      "shared": {"true" if row.shared else "false"},\n'
        f'      "start_no": {row.start_no},\n'
        f'      "name": {_json_string(row.name)},\n'
        f'      "points": {quoted(row.points)},\n'
        f'      "tiebreaks": {values},\n'
        f'      "decided_by": {decided_by}\n'
        "    }"
    )


def _json_list(items: list[str], depth: int) -> str:
    if not items:
        return "[]"
    inner = "\n" + "  " * (depth + 1)
    return "[" + inner + ("," + inner).join(items) + "\n" + "  " * depth + "]"


def to_csv(table: StandingsTable) -> str:
    header = ["rank", "shared", "start_no", "name", "points", *table.tiebreaks, "decided_by"]
    rows = [
        [
            row.rank,
            "yes" if row.shared else "",
            row.start_no,
            row.name,
            sheet_text(row.points),
            *(sheet_text(row.values.get(code)) for code in table.tiebreaks),
            row.decided_by or "",
        ]
        for row in table.rows
    ]
    return csv_text([header, *rows])


def to_text(table: StandingsTable) -> str:
    header = ["Place", "No", "Name", "Pts", *table.tiebreaks, "Decided by"]
    places = place_labels(table.rows)
    body = [
        [
            places[i],
            str(row.start_no),
            row.name,
            points_display(row.points),
            *(number_text(row.values.get(code)) for code in table.tiebreaks),
            row.decided_by or "",
        ]
        for i, row in enumerate(table.rows)
    ]
    widths = [max(len(line[c]) for line in [header, *body]) for c in range(len(header))]
    lines = [f"{table.event} – standings after round {table.after_round}"]
    lines += [
        "  ".join(cell.ljust(width) for cell, width in zip(line, widths, strict=True)).rstrip()
        for line in [header, *body]
    ]
    lines += [f"Note: {note}" for note in table.notes]
    return "\n".join(lines) + "\n"
