"""formats/teams/forms.py: a board's result as people type it on a match card (issue 29: "Match
cards accept only 1/2-1/2 (½-½ and = refused), one error wipes the card"). Pure: no database."""

from __future__ import annotations

import pytest

from events.errors import UserError
from formats.teams.forms import board_result, card_results

TYPED = [
    ("1/2-1/2", "1/2-1/2"),
    ("½-½", "1/2-1/2"),
    ("=", "1/2-1/2"),
    (" ½ - ½ ", "1/2-1/2"),
    ("0.5-0.5", "1/2-1/2"),
    ("½", "1/2-1/2"),
    ("1-0", "1-0"),
    ("1–0", "1-0"),  # noqa: RUF001 (an en dash, as phones type it)
    ("0−1", "0-1"),  # noqa: RUF001 (a minus sign)
    ("1", "1-0"),
    ("0", "0-1"),
    ("+/-", "+/-"),
    ("+/−", "+/-"),  # noqa: RUF001
    ("-/+", "-/+"),
    ("--", "-/-"),
    ("-/-", "-/-"),
    ("", ""),
    ("  ", ""),
]


@pytest.mark.parametrize(("typed", "stored"), TYPED, ids=[f"issue 29: {t!r}" for t, _ in TYPED])
def test_a_board_result_as_typed_is_the_stored_one(typed: str, stored: str) -> None:
    assert board_result(typed) == stored


REFUSED = ["2-0", "1-1", "½-1", "white wins", "x" * 500]


@pytest.mark.parametrize("typed", REFUSED, ids=[f"issue 29: {t[:12]!r}" for t in REFUSED])
def test_anything_else_is_refused_in_one_short_line(typed: str) -> None:
    with pytest.raises(UserError) as refused:
        board_result(typed)
    message = str(refused.value)
    assert "\n" not in message and len(message) < 150
    assert "½-½ (or =)" in message  # the refusal says what is understood


def test_a_card_names_its_boards_and_the_others_keep_their_results() -> None:
    """issue 29: a card posting boards 1 and 3 changes those; board 2 is not touched."""
    assert card_results({"board1": "½-½", "board3": "=", "version": "4"}, 4) == {
        1: "1/2-1/2",
        3: "1/2-1/2",
    }
    with pytest.raises(UserError, match="^board 2: '2-0' is not a result"):
        card_results({"board1": "1-0", "board2": "2-0"}, 4)
