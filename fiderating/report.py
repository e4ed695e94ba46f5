"""The rating report as records, and its two renderings for the ``rating_report`` command
(design.md §4: the JSON keys are a stable interface). Pure: no Django.

``score`` and ``expected`` are over the rated games only (fiderating.rating); every
fractional number is an exact decimal string; ``rating_change`` is K x (score - expected),
exact, and null for an unrated player, whose ``expected`` and ``k`` are null too.
"""

from __future__ import annotations

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

    def row(self, start_no: int) -> ReportRow | None:
        return next((row for row in self.rows if row.start_no == start_no), None)


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
        "players": [_player(row) for row in report.rows],
    }


def _signed(text: str | None) -> str:
    if text is None:
        return "-"
    return text if text.startswith("-") or text == "0" else f"+{text}"


def report_text(report: RatingReport) -> str:
    """The report as a plain table for a terminal."""
    lines = [
        f"{report.name}: {report.rating_type} rating report after round {report.after_round}",
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
