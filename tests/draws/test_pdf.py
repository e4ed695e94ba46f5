"""The printed pairing list's lines and blocks (draws/pdf.py), and the PDF's page breaks,
which fall only between two blocks of boards. No database: the games are plain records."""

from __future__ import annotations

import re
from io import BytesIO
from types import SimpleNamespace

from pypdf import PdfReader

from draws.pdf import BOARDS_PER_BLOCK, PairingLine, pairing_blocks, pairing_lines, pairings_pdf


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
