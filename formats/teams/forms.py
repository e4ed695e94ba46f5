"""Parsing what the team event's forms post: bounded, one-line refusals (events.limits)."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from typing import Any

from events.errors import UserError
from events.limits import whole_number
from formats.teams.services import SetupFields


def number(data: Mapping[str, str], key: str, label: str, digits: int = 4) -> int:
    value = whole_number((data.get(key) or "").strip(), digits=digits)
    if value is None:
        raise UserError(f"{label}: a whole number, please")
    return value


def _points(text: str, label: str) -> Decimal | None:
    text = text.strip()
    if not text:
        return None
    if len(text) > 12:
        raise UserError(f"{label}: at most 12 characters")
    # Digits and one point only: Decimal would also read 1_000, 1e999999999 and NaN.
    if not text.isascii() or not text.replace(".", "", 1).isdigit():
        raise UserError(f"{label}: a number such as 1 or 2.5")
    try:
        value = Decimal(text)
    except InvalidOperation as exc:
        raise UserError(f"{label}: a number such as 1 or 2.5") from exc
    if not value.is_finite():
        raise UserError(f"{label}: a number such as 1 or 2.5")
    return value


def setup_fields(data: Mapping[str, str]) -> SetupFields:
    return SetupFields(
        boards=number(data, "boards", "boards", 2),
        match_points=data.get("match_points", ""),
        primary=data.get("primary", ""),
        colour_preferences=data.get("colour_preferences", ""),
        tiebreaks=(data.get("tiebreaks") or "").strip()[:1000],
        min_board_games=(
            number(data, "min_board_games", "minimum games", 2)
            if (data.get("min_board_games") or "").strip()
            else None
        ),
        lineups_close=data.get("lineups_close", "pairing")[:20],
        board_prizes=(data.get("board_prizes") or "").strip()[:300],
        bye_match_points=_points(data.get("bye_match_points", ""), "the bye's match points"),
        bye_game_points=_points(data.get("bye_game_points", ""), "the bye's game points"),
    )


def lineup_boards(text: str, boards: int) -> list[int | None]:
    """Start numbers for boards 1, 2, ... separated by spaces or commas; ``-`` for an empty
    board."""
    words = text.replace(",", " ").split()
    if len(words) > boards:
        raise UserError(f"a line-up has at most {boards} boards, not {len(words)}")
    chosen: list[int | None] = []
    for word in words:
        if word == "-":
            chosen.append(None)
            continue
        value = whole_number(word, digits=4)
        if value is None:
            raise UserError(f"{word[:10]!r} is not a start number (or - for an empty board)")
        chosen.append(value)
    return chosen


# A board's result as people type it, the white team's player first: the draw as ``½-½``,
# ``=``, ``1/2`` or ``0.5-0.5``, dashes and minus signs of any kind, spaces anywhere.
_DRAWS = {"1/2-1/2", "½-½", "½", "=", "1/2", "0.5-0.5", ".5-.5", "0.5", "draw", "remis"}
_WORDS = {"1-0": "1-0", "0-1": "0-1", "+/-": "+/-", "-/+": "-/+", "-/-": "-/-"}
_WORDS |= {"+-": "+/-", "-+": "-/+", "--": "-/-", "1:0": "1-0", "0:1": "0-1", "1": "1-0"}
_WORDS |= {"0": "0-1"}


def board_result(text: str) -> str:
    """The stored result (``1-0``, ``1/2-1/2``, ``0-1``, ``+/-``, ``-/+``, ``-/-``, or ``""``
    for none) of a board's result as typed; refused in one line when it is none of them."""
    typed = text[:20]
    word = "".join(typed.split()).casefold()
    for dash in "–—−‐‒﹣－":  # noqa: RUF001 (the dashes people's keyboards and phones type)
        word = word.replace(dash, "-")
    if not word:
        return ""
    if word in _DRAWS:
        return "1/2-1/2"
    if word in _WORDS:
        return _WORDS[word]
    raise UserError(
        f"{typed!r} is not a result: 1-0, ½-½ (or =), 0-1; +/-, -/+ or -/- for a forfeit"
    )


def card_results(data: Mapping[str, str], boards: int) -> dict[int, str]:
    """The results of the boards the card names (``board1``, ``board2``, ...): a board it does
    not name keeps its result."""
    results = {}
    for board in range(1, boards + 1):
        if f"board{board}" in data:
            try:
                results[board] = board_result(data[f"board{board}"])
            except UserError as exc:
                raise UserError(f"board {board}: {exc}") from exc
    return results


def deadline(text: str) -> Any:
    """A ``datetime-local`` value (``2026-03-01T14:30``) in the site's time zone, or None for
    an empty field (no deadline)."""
    import datetime as dt

    from django.utils import timezone

    text = text.strip()
    if not text:
        return None
    try:
        moment = dt.datetime.fromisoformat(text)
    except ValueError as exc:
        raise UserError("the deadline: a date and time such as 2026-03-01 14:30") from exc
    if moment.tzinfo is None:
        moment = timezone.make_aware(moment)
    if not 2000 <= moment.year <= 2100:
        raise UserError("the deadline: a year from 2000 to 2100")
    return moment


def adjustment_fields(data: Mapping[str, str]) -> dict[str, Any]:
    """A score adjustment as typed: the team, the round it counts from, match and game points
    (signed; blank is 0), final standings only, the reason."""

    def signed(key: str, label: str) -> Decimal:
        text = (data.get(key) or "").strip().replace("−", "-")
        negative = text.startswith("-")
        value = _points(text.lstrip("+-"), label)
        value = Decimal(0) if value is None else value
        return -value if negative else value

    return {
        "team_no": number(data, "team", "team"),
        "round_no": number(data, "round", "round", 2),
        "match_points": signed("match_points", "the match points"),
        "game_points": signed("game_points", "the game points"),
        "standings_only": data.get("standings_only") == "on",
        "reason": (data.get("reason") or "")[:300],
    }
