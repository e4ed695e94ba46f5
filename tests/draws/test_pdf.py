"""The printed pairing list's lines and blocks (draws/pdf.py), and the PDF's page breaks,
which fall only between two blocks of boards. No database: the games are plain records."""

from __future__ import annotations

import re
from io import BytesIO
from types import SimpleNamespace

from pypdf import PdfReader

from draws.pdf import (
    BOARDS_PER_BLOCK,
    PairingLine,
    find_board_lines,
    find_board_pdf,
    pairing_blocks,
    pairing_lines,
    pairings_pdf,
)
from events.models import ByeKind


def player(start_no: int, name: str) -> SimpleNamespace:
    return SimpleNamespace(start_no=start_no, name=name, rating=0, withdrawn_after_round=None)


def game(board: int, result: str = "") -> SimpleNamespace:
    return SimpleNamespace(
        board=board,
        white=player(2 * board - 1, f"White {board}"),
        black=player(2 * board, f"Black {board}"),
        result=result,
        get_result_display=lambda: {"1-0": "1-0", "1/2-1/2": "½-½"}[result],
    )


def test_lines_name_both_players_and_leave_the_result_blank_until_played():
    bye = SimpleNamespace(player=player(5, "Åsa Berg"), get_kind_display=lambda: "Half-point bye")
    lines = pairing_lines([game(1, "1/2-1/2"), game(2)], [bye])
    assert lines == [
        PairingLine("1", "1. White 1", "½-½", "2. Black 1"),
        PairingLine("2", "3. White 2", "", "4. Black 2"),
        PairingLine("", "5. Åsa Berg", "Half-point bye", ""),
    ]


def test_blocks_of_ten_boards():
    lines = pairing_lines([game(b) for b in range(1, 24)], [])
    assert [len(block) for block in pairing_blocks(lines)] == [10, 10, 3]
    assert pairing_blocks([]) == []


def test_a_pdf_page_ends_only_between_two_blocks_of_boards():
    lines = pairing_lines([game(b, "1-0") for b in range(1, 61)], [])
    content = pairings_pdf(
        event_name="Café Open",
        round_number=4,
        site="",
        lines=lines,
        public_url="https://chess.example.org/e/cafe-open/",
    )
    pages = PdfReader(BytesIO(content)).pages
    assert len(pages) > 1
    for page in pages[:-1]:
        boards = [int(b) for b in re.findall(r"White (\d+)", page.extract_text())]
        assert boards and max(boards) % BOARDS_PER_BLOCK == 0, boards
    assert "https://chess.example.org/e/cafe-open/" in pages[0].extract_text()


def test_every_kind_of_bye_is_printed_whole_on_both_sheets():
    """Issue 29: in the result column alone "Pairing-allocated bye" broke mid-word
    ("Pairing-a / llocated"); the kind now runs across the empty opponent's columns, as the
    HTML sheet's colspan does, and on the find-your-board list across Colour and Opponent."""
    byes = [
        SimpleNamespace(
            player=player(10 + i, f"Bye {i}"), get_kind_display=lambda label=label: label
        )
        for i, label in enumerate(ByeKind.labels)
    ]
    games = [game(1, "1-0")]
    common = {
        "event_name": "Café Open",
        "round_number": 3,
        "site": "",
        "public_url": "https://x.example/",
    }
    pairings = pairings_pdf(lines=pairing_lines(games, byes), **common)
    finder = find_board_pdf(lines=find_board_lines(games, byes), **common)
    for content in (pairings, finder):
        lines = PdfReader(BytesIO(content)).pages[0].extract_text().splitlines()
        for label in ByeKind.labels:
            assert label in [line.strip() for line in lines], (label, lines)
