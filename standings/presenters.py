"""Shape standings for the page: display texts computed once, not per template lookup."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from events.numbers import exact_title, number_text, points_text
from standings.compute import StandingsTable
from standings.output import place_labels
from standings.ranking import RankingError, Standing, explain


@dataclass(frozen=True)
class Row:
    place: str
    start_no: int
    name: str
    points: str
    values: list[str]
    decided_by: str
    next_start_no: int | None
    exact: tuple[str, ...] = ()  # per value: the exact value when the text is rounded, else ""
    withdrawn: int | None = None  # the round after which the player withdrew

    @property
    def cells(self) -> list[tuple[str, str]]:
        """(text shown, exact value for the tooltip or "") per tie-break."""
        exact = self.exact or ("",) * len(self.values)
        return list(zip(self.values, exact, strict=True))

    @property
    def marked_name(self) -> str:
        """The name with the withdrawal, where only text goes (the PDF)."""
        if self.withdrawn is None:
            return self.name
        return f"{self.name} (withdrawn after round {self.withdrawn})"


def standings_rows(
    table: StandingsTable, limit: int | None = None, withdrawn: Mapping[int, int] | None = None
) -> list[Row]:
    """The rows of the table, or its first ``limit`` (the leaders, the hall screen): the
    places count the whole field, the texts are made only for the rows shown. ``withdrawn``
    (``events.selectors.withdrawals``) marks the players who withdrew (issue 20)."""
    withdrawn = withdrawn or {}
    places = place_labels(table.rows)
    rows = []
    for i, standing in enumerate(table.rows[:limit]):
        below = table.rows[i + 1].start_no if i + 1 < len(table.rows) else None
        rows.append(
            Row(
                place=places[i],
                start_no=standing.start_no,
                name=standing.name,
                points=points_text(standing.points),
                values=[number_text(standing.values.get(code)) or "–" for code in table.tiebreaks],
                decided_by=standing.decided_by or ("tied" if standing.shared else ""),
                next_start_no=below,
                exact=tuple(exact_title(standing.values.get(code)) for code in table.tiebreaks),
                withdrawn=withdrawn.get(standing.start_no),
            )
        )
    return rows


# An upright A4 sheet: place, No., name and points take 111 mm of 186 mm; a tie-break column
# 15 mm (standings.pdf). The printed standings show the first five tie-breaks, in the
# regulation's order, and name the others (issue 20: "the tie-break columns that fit").
PRINTED_TIEBREAKS = 5


@dataclass(frozen=True)
class PrintedStandings:
    codes: tuple[str, ...]
    left_out: tuple[str, ...]
    rows: list[Row]

    @property
    def note(self) -> str:
        if not self.left_out:
            return ""
        return f"Not printed for want of width: {', '.join(self.left_out)} (on the standings page)."


def printed_standings(
    table: StandingsTable, withdrawn: Mapping[int, int] | None = None, *, reserved: int = 0
) -> PrintedStandings:
    """The rows of an upright A4 sheet: the tie-break columns that fit, in order, beside the
    ``reserved`` columns of the same width that other apps add (the rating change and
    performance, when the director shows them: events.contributions)."""
    shown = len(table.tiebreaks[: max(0, PRINTED_TIEBREAKS - reserved)])
    rows = [
        replace(row, values=row.values[:shown], exact=row.exact[:shown])
        for row in standings_rows(table, withdrawn=withdrawn)
    ]
    return PrintedStandings(tuple(table.tiebreaks[:shown]), tuple(table.tiebreaks[shown:]), rows)


def explanation(rows: Sequence[Standing], a: int, b: int) -> dict[str, Any]:
    """Each criterion compared in turn for two adjacent players, up to the one that decided;
    ``rows`` are the standings around them (``standings.selectors.standings_around``)."""
    try:
        comparisons = explain(rows, a, b)
    except RankingError as exc:
        raise ValueError(str(exc)) from exc
    by_no = {row.start_no: row for row in rows if row.start_no in (a, b)}
    steps = [
        {
            "code": c.code,
            "a": number_text(c.value_a),
            "b": number_text(c.value_b),
            "a_exact": exact_title(c.value_a),
            "b_exact": exact_title(c.value_b),
            "separated": c.separated,
            "among": c.among,
        }
        for c in comparisons
    ]
    decided = next((s["code"] for s in steps if s["separated"]), None)
    return {"upper": by_no[a], "lower": by_no[b], "steps": steps, "decided": decided}
