"""Plain-English reasons for a director: why these colours, who floated, what was given up.

Wording is for people; the article numbers in parentheses are C.04.3 (2025) criteria and
rules (C1–C21 as numbered in Art. 2 of the 2025 text). Players are named by their start number
("start no. 12", as on every list the director has); "pairing number" is said only of the
number the pairing used (C.04.3's, from the initial order: issue 29).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from draws.swiss.pairing.colours import (
    RULE_ABSOLUTE,
    RULE_ALTERNATE,
    RULE_BOTH,
    RULE_HIGHER,
    RULE_INITIAL,
    RULE_STRONG,
    ColourChoice,
)
from draws.swiss.pairing.dutch import BracketTrace, DutchResult
from draws.swiss.pairing.model import BracketReport
from draws.swiss.pairing.players import FLOAT_DOWN, FLOAT_UP, PlayerState


def points(value: Fraction) -> str:
    """½-style points: ``3½``, ``4``, ``0``; any other fraction exactly, as ``7/3``."""
    whole, rest = divmod(value, 1)
    if rest == 0:
        return str(whole)
    if rest == Fraction(1, 2):
        return f"{whole or ''}½"
    return f"{value.numerator}/{value.denominator}"


def _count(number: int, one: str, many: str) -> str:
    return f"{number} {one if number == 1 else many}"


_RULE_TEXT = {
    RULE_BOTH: "both players get their preferred colour (C.04.3 colour allocation, rule 1)",
    RULE_ABSOLUTE: "absolute colour preference of {by} (C.04.3 colour allocation, rule 2)",
    RULE_STRONG: "strong colour preference of {by} (C.04.3 colour allocation, rule 2)",
    RULE_ALTERNATE: (
        "same preference; colours alternate from the last round they differed "
        "(C.04.3 colour allocation, rule 3)"
    ),
    RULE_HIGHER: (
        "same preference; the higher-ranked player, {by}, gets theirs (C.04.3 colour allocation)"
    ),
    RULE_INITIAL: (
        "no preference; by the higher-ranked player's pairing number ({by}: {number}) and "
        "the initial colour "
        "(C.04.3 colour allocation, last rule)"
    ),
}


def board_reasons(white: PlayerState, black: PlayerState, choice: ColourChoice) -> tuple[str, ...]:
    """Why this board has these colours, and the floats it causes (C.04.3 Art. 1.4)."""
    by = next((p for p in (white, black) if p.start_no == choice.by), None)
    number = f"pairing number {by.rank + 1}" if by is not None else ""
    reasons = [_RULE_TEXT[choice.rule].format(by=f"start no. {choice.by}", number=number)]
    if white.pairing_score != black.pairing_score:
        higher, lower = (
            (white, black) if white.pairing_score > black.pairing_score else (black, white)
        )
        reasons.append(
            f"start no. {higher.start_no} floats down from the "
            f"{points(higher.pairing_score)}-point group"
        )
        reasons.append(
            f"start no. {lower.start_no} floats up from the "
            f"{points(lower.pairing_score)}-point group"
        )
    return tuple(reasons)


def _relaxed(trace: BracketTrace, by_start: Mapping[int, PlayerState]) -> tuple[str, ...]:
    relaxed = []
    if trace.downfloaters:
        count = len(trace.downfloaters)
        floats = _count(count, "player floats", "players float")
        relaxed.append(f"{floats} down to the next group (C.04.3 C5–C7)")
    unmet = strong = 0
    repeated = 0
    for a, b in trace.pairs:
        pa, pb = by_start[a], by_start[b]
        if pa.colour_preference and pa.colour_preference == pb.colour_preference:
            unmet += 1
            strong += pa.strong_preference and pb.strong_preference
        if pa.pairing_score != pb.pairing_score:
            high, low = (pa, pb) if pa.pairing_score > pb.pairing_score else (pb, pa)
            repeated += high.floats[0] == FLOAT_DOWN
            repeated += low.floats[0] == FLOAT_UP
    if unmet:
        each = "one of them does not" if unmet == 1 else "one in each does not"
        relaxed.append(
            f"in {_count(unmet, 'pair', 'pairs')} both want the same colour, so {each} get it "
            "(C.04.3 C12)"
        )
    if strong:
        relaxed.append(
            f"in {_count(strong, 'pair', 'pairs')} both have the same strong colour preference "
            "(C.04.3 C13)"
        )
    if repeated:
        relaxed.append(
            f"{_count(repeated, 'player floats', 'players float')} the same way as in the last "
            "round (C.04.3 C14, C15)"
        )
    return tuple(relaxed)


def bracket_reports(
    result: DutchResult, by_start: Mapping[int, PlayerState]
) -> tuple[BracketReport, ...]:
    return tuple(
        BracketReport(
            score=trace.score,
            residents=tuple(trace.residents),
            moved_down=tuple(trace.moved_down),
            downfloaters=tuple(trace.downfloaters),
            relaxed=_relaxed(trace, by_start),
        )
        for trace in result.brackets
        if trace.residents or trace.moved_down
    )


def notes_for(result: DutchResult, by_start: Mapping[int, PlayerState]) -> tuple[str, ...]:
    notes = []
    for report in bracket_reports(result, by_start):
        head = f"Score group {points(report.score)}"
        if report.moved_down:
            head += f" ({_count(len(report.moved_down), 'player', 'players')} moved down into it)"
        notes.append(f"{head}: " + ("; ".join(report.relaxed) or "paired with no concession"))
    if result.bye is not None:
        notes.append(
            f"Pairing-allocated bye: start no. {result.bye}, the lowest-ranked player who may "
            "receive it without worsening the pairing (C.04.3 C2, C4, C9)"
        )
    return tuple(notes)
