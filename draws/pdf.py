"""The printed pairing list of a round (issue: paper and the hall): the same lines on the HTML
sheet (templates/draws/pairings_print.html) and in the PDF, in blocks of boards that a page
break never splits, with the QR code of the event's public page.

No ORM: the lines are made from the games and byes the view has already read.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from events.pdf import Column, Sheet, sheet_pdf

# A block of boards stays on one page; a hall's tables come in tens, and so do its signs.
BOARDS_PER_BLOCK = 10


@dataclass(frozen=True)
class PairingLine:
    board: str  # empty for a bye
    white: str  # "12. Name"
    result: str  # empty until played: the arbiter writes it in; for a bye, its kind
    black: str  # empty for a bye


def _named(player: Any) -> str:
    """``7. Name``, and the withdrawal when the player withdrew (issue 20)."""
    named = f"{player.start_no}. {player.name}"
    withdrawn = getattr(player, "withdrawn_after_round", None)
    if withdrawn is not None:
        named += f" (withdrawn after round {withdrawn})"
    return named


def pairing_lines(games: Sequence[Any], byes: Sequence[Any]) -> list[PairingLine]:
    """Board by board, then the byes (games and byes as ``events.selectors.round_games``)."""
    lines = [
        PairingLine(
            str(game.board),
            _named(game.white),
            game.get_result_display() if game.result else "",
            _named(game.black),
        )
        for game in games
    ]
    lines += [PairingLine("", _named(bye.player), bye.get_kind_display(), "") for bye in byes]
    return lines


def pairing_blocks(lines: Sequence[PairingLine]) -> list[Sequence[PairingLine]]:
    return [lines[i : i + BOARDS_PER_BLOCK] for i in range(0, len(lines), BOARDS_PER_BLOCK)]


def pairings_pdf(
    *, event_name: str, round_number: int, site: str, lines: Sequence[PairingLine], public_url: str
) -> bytes:
    """Portrait A4: board, White, result, Black; the QR code of ``public_url`` at the top."""
    columns = [
        Column("Bd", 12, numeric=True),
        Column("White", 72),
        Column("Result", 26, centred=True),
        Column("Black", 72),
    ]
    subtitle = f"Round {round_number} · pairings" + (f" · {site}" if site else "")
    sheet = Sheet(
        title=event_name,
        subtitle=subtitle,
        columns=columns,
        rows=[(line.board, line.white, line.result, line.black) for line in lines],
        qr_url=public_url,
        block=BOARDS_PER_BLOCK,
    )
    return sheet_pdf(sheet)
