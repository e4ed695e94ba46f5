"""The rating report as records, and its two renderings for the ``rating_report`` command
(design.md §4: the JSON keys are a stable interface). Pure: no Django.

``score`` and ``expected`` are over the rated games only (fiderating.rating); every
fractional number is an exact decimal string; ``rating_change`` is K x (score - expected),
exact, and null for an unrated player, whose ``expected`` and ``k`` are null too.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from typing import Any

from events.records import Crosstable
from fiderating.norms import NormCheck, NormEvent
from fiderating.rating import PlayerRating, decimal_text


@dataclass(frozen=True)
class ReportRow:
    """One player of the report: who they are and what their rated games give."""

    start_no: int
    name: str
    fide_id: str
    title: str
    federation: str
    rating: PlayerRating
    norms: tuple[NormCheck, ...] = ()


@dataclass(frozen=True)
class RatingReport:
    slug: str
    name: str
    rating_type: str
    after_round: int  # the last round with a published result (0: none yet)
    rows: tuple[ReportRow, ...]
    # What the report was computed from (for the next round's hypothetical games).
    table: Crosstable | None = field(default=None, compare=False, repr=False)
    norm_event: NormEvent | None = None
    missing: tuple[str, ...] = ()  # what FIDE's rating officer would still lack

    @property
    def complete(self) -> bool:
        return not self.missing

    def row(self, start_no: int) -> ReportRow | None:
        return next((row for row in self.rows if row.start_no == start_no), None)


@dataclass(frozen=True)
class ReportRecords:
    """What FIDE's rating report (the TRF with its tournament records, B.02 9.1) carries
    besides the games: the records 012-132 and the players' FIDE ids."""

    name: str
    city: str  # 022
    federation: str  # 032
    start: dt.date | None  # 042
    end: dt.date | None  # 052
    chief_arbiter: str  # 102
    deputy_arbiters: tuple[str, ...]  # 112
    rate_of_play: str  # 122
    round_dates: tuple[dt.date | None, ...]  # 132
    rounds: int
    complete_rounds: int  # the last round of the unbroken run of complete rounds
    without_fide_id: tuple[int, ...]  # start numbers


_FIDE_ID = re.compile(r"\b\d{4,12}\b")


def _numbers(numbers: tuple[int, ...], limit: int = 10) -> str:
    shown = ", ".join(str(n) for n in numbers[:limit])
    return shown + (f" and {len(numbers) - limit} more" if len(numbers) > limit else "")


def _arbiters_missing(records: ReportRecords) -> list[str]:
    missing = []
    if not records.chief_arbiter.strip():
        missing.append("the chief arbiter, with their FIDE id (record 102)")
    elif not _FIDE_ID.search(records.chief_arbiter):
        missing.append(
            f"the chief arbiter's FIDE id (record 102 reads {records.chief_arbiter!r}; "
            "write it after the name)"
        )
    for number, deputy in enumerate(records.deputy_arbiters, start=1):
        if not _FIDE_ID.search(deputy):
            missing.append(f"deputy arbiter {number}'s FIDE id (record 112: {deputy!r})")
    return missing


def report_missing(records: ReportRecords) -> tuple[str, ...]:
    """Every record FIDE requires that the report lacks, in words, naming the record; empty
    when the report is complete. Record 092 (the type) is always written, from the system."""
    missing = [
        text
        for absent, text in (
            (not records.name.strip(), "the event's name (record 012)"),
            (not records.city.strip(), "the city (record 022)"),
            (not records.federation, "the host federation (record 032)"),
            (records.start is None, "the start date (record 042)"),
            (records.end is None, "the end date (record 052)"),
        )
        if absent
    ]
    missing += _arbiters_missing(records)
    if not records.rate_of_play.strip():
        missing.append("the time control (record 122)")
    dates = records.round_dates
    undated = tuple(
        n for n in range(1, records.rounds + 1) if n > len(dates) or dates[n - 1] is None
    )
    if undated:
        missing.append(f"the dates of rounds {_numbers(undated)} (record 132)")
    if records.complete_rounds < records.rounds:
        first = records.complete_rounds + 1
        which = f"round {first}" if first == records.rounds else f"rounds {first}-{records.rounds}"
        missing.append(f"the results of {which}")
    if records.without_fide_id:
        missing.append(
            f"FIDE ids of players {_numbers(records.without_fide_id)} (FIDE rates players by "
            "their id)"
        )
    return tuple(missing)


def _player(row: ReportRow) -> dict[str, Any]:
    rated = row.rating
    expected, change = rated.expected, rated.change
    return {
        "start_no": row.start_no,
        "name": row.name,
        "fide_id": row.fide_id,
        "rating": rated.rating or None,
        "k": rated.k.value if rated.k else None,
        "rated_games": len(rated.games),
        "score": decimal_text(rated.score),
        "expected": decimal_text(expected) if expected is not None else None,
        "rating_change": decimal_text(change) if change is not None else None,
        "performance": rated.performance,
        "aro": rated.aro,
        "norms": [
            {"title": norm.title, "achieved": norm.achieved, "missing": list(norm.missing)}
            for norm in row.norms
        ],
    }


def report_document(report: RatingReport) -> dict[str, Any]:
    """The ``rating_report --format json`` document."""
    return {
        "event": report.slug,
        "rating_type": report.rating_type,
        "complete": report.complete,
        "missing": list(report.missing),
        "players": [_player(row) for row in report.rows],
    }


def _signed(text: str | None) -> str:
    if text is None:
        return "-"
    return text if text.startswith("-") or text == "0" else f"+{text}"


def report_text(report: RatingReport) -> str:
    """The report as a plain table for a terminal."""
    state = "complete" if report.complete else "not complete; it lacks " + "; ".join(report.missing)
    lines = [
        f"{report.name}: {report.rating_type} rating report after round {report.after_round}",
        f"The report is {state}.",
        f"{'No':>4}  {'Name':<28} {'Rtg':>4} {'K':>3} {'N':>3} {'Score':>5} {'Exp':>6} "
        f"{'Change':>7} {'Perf':>5} {'ARO':>5}  Norms",
    ]
    for row in report.rows:
        doc = _player(row)
        lines.append(
            f"{row.start_no:>4}  {row.name[:28]:<28} {doc['rating'] or '-':>4} "
            f"{doc['k'] or '-':>3} {doc['rated_games']:>3} {doc['score']:>5} "
            f"{doc['expected'] or '-':>6} {_signed(doc['rating_change']):>7} "
            f"{doc['performance'] or '-':>5} {doc['aro'] or '-':>5}  "
            + " ".join(norm.title for norm in row.norms if norm.achieved)
        )
    return "\n".join(lines)
