"""The rating report as people read it: signed changes, the change rounded as B.02 8.3.4
rounds a period's, and each player's games with their terms ("why"). Pure: no Django."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from fiderating.norms import NormCheck
from fiderating.rating import PlayerRating, decimal_text, period_change
from fiderating.report import ReportRow


def signed(value: Decimal | None) -> str:
    """``+15.6``, ``−3``, ``0``; an em dash for none (an unrated player's change)."""
    if value is None:
        return "—"
    text = decimal_text(value)
    if text.startswith("-"):
        return "−" + text[1:]
    return text if text == "0" else f"+{text}"


@dataclass(frozen=True)
class Line:
    """One row of the report's table."""

    start_no: int
    name: str
    title: str
    federation: str
    fide_id: str
    rating: int
    k: int | None
    k_why: str  # where K comes from, to follow "K 20": "from the rating list", …
    games: int
    score: str
    expected: str
    change: str
    rounded: str  # the change rounded (8.3.4) with the rating it gives
    performance: int | None
    aro: int | None
    norms: str  # titles reached, "GM IM"
    first_rating: str  # an unrated player's Ru so far, or ""


def _rounded(rated: PlayerRating) -> str:
    change = rated.change
    if change is None:
        return ""
    whole = period_change(change)
    return f"{signed(Decimal(whole))} → {rated.rating + whole}"


def _first_rating(rated: PlayerRating) -> str:
    initial = rated.initial
    if initial is None or initial.rating is None:
        return ""
    return f"{initial.rating}" if initial.published else f"{initial.rating} (not yet)"


def line(row: ReportRow) -> Line:
    rated = row.rating
    expected = rated.expected
    return Line(
        start_no=row.start_no,
        name=row.name,
        title=row.title,
        federation=row.federation,
        fide_id=row.fide_id,
        rating=rated.rating,
        k=rated.k.value if rated.k else None,
        k_why=rated.k.why if rated.k else "",
        games=len(rated.games),
        score=decimal_text(rated.score),
        expected=decimal_text(expected) if expected is not None else "—",
        change=signed(rated.change),
        rounded=_rounded(rated),
        performance=rated.performance,
        aro=rated.aro,
        norms=" ".join(norm.title for norm in row.norms if norm.achieved),
        first_rating=_first_rating(rated),
    )


@dataclass(frozen=True)
class GameLine:
    round: int
    opponent: str
    rating: int
    difference: str  # "+200", "+400 (488 counted as 400, 8.3.1)"
    expected: str
    score: str
    delta: str
    term: str  # K x delta


def game_lines(row: ReportRow, names: dict[int, str]) -> list[GameLine]:
    rated = row.rating
    k = rated.k.value if rated.k else None
    lines = []
    for game in rated.games:
        used, actual = game.difference.used, game.difference.actual
        difference = f"{used:+d}".replace("-", "−")
        if game.difference.capped:
            difference += f" ({abs(actual)} counted as 400, 8.3.1)"
        lines.append(
            GameLine(
                round=game.round,
                opponent=f"{game.opponent}. {names.get(game.opponent, '')}",
                rating=game.opponent_rating,
                difference=difference if rated.rating else "",
                expected=decimal_text(game.expected) if rated.rating else "",
                score=decimal_text(game.score),
                delta=signed(game.delta) if rated.rating else "",
                term=signed(k * game.delta) if k else "",
            )
        )
    return lines


def norm_summary(norm: NormCheck) -> str:
    figures = []
    if norm.average is not None:
        figures.append(f"Ra {norm.average}")
    if norm.performance is not None:
        figures.append(f"Rp {norm.performance}")
    return " · ".join(figures)
