"""The printed pairing list of a round (issue: paper and the hall): the same lines on the HTML
sheet (templates/draws/pairings_print.html) and in the PDF, in blocks of boards that a page
break never splits, with the QR code of the event's public page.

The pairing list shows each player's rating and points before the round; the alphabetical
list ("find your board", issue 20) gives every player's board, colour and opponent by name.

No ORM: the lines are made from the games and byes the view has already read.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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
    white_rating: str = ""
    white_points: str = ""  # before the round: what a player looks for on the wall
    black_rating: str = ""
    black_points: str = ""


def _rating(player: Any) -> str:
    return str(player.rating) if player.rating else ""


def _named(player: Any) -> str:
    """``7. Name``, and the withdrawal when the player withdrew (issue 20)."""
    named = f"{player.start_no}. {player.name}"
    withdrawn = getattr(player, "withdrawn_after_round", None)
    if withdrawn is not None:
        named += f" (withdrawn after round {withdrawn})"
    return named


def pairing_lines(
    games: Sequence[Any], byes: Sequence[Any], points: Mapping[int, str] | None = None
) -> list[PairingLine]:
    """Board by board, then the byes (games and byes as ``events.selectors.round_games``);
    ``points`` is each player's score before the round, by start number, as printed."""
    before = points or {}
    lines = [
        PairingLine(
            str(game.board),
            _named(game.white),
            game.get_result_display() if game.result else "",
            _named(game.black),
            _rating(game.white),
            before.get(game.white.start_no, ""),
            _rating(game.black),
            before.get(game.black.start_no, ""),
        )
        for game in games
    ]
    lines += [
        PairingLine(
            "",
            _named(bye.player),
            bye.get_kind_display(),
            "",
            _rating(bye.player),
            before.get(bye.player.start_no, ""),
        )
        for bye in byes
    ]
    return lines


@dataclass(frozen=True)
class FindLine:
    """One line of the alphabetical list ("find your board"): a player, where they sit."""

    name: str
    start_no: int
    board: str  # empty for a bye
    colour: str  # "White", "Black", or the bye's kind
    opponent: str  # "12. Name", empty for a bye


def find_board_lines(games: Sequence[Any], byes: Sequence[Any]) -> list[FindLine]:
    """Every player of the round by name (case and accents as typed, compared casefolded),
    with their board, colour and opponent: the list pinned up at the entrance."""
    lines = []
    for game in games:
        for player, colour, opponent in (
            (game.white, "White", game.black),
            (game.black, "Black", game.white),
        ):
            lines.append(
                FindLine(
                    player.name,
                    player.start_no,
                    str(game.board),
                    colour,
                    f"{opponent.start_no}. {opponent.name}",
                )
            )
    lines += [
        FindLine(bye.player.name, bye.player.start_no, "", bye.get_kind_display(), "")
        for bye in byes
    ]
    return sorted(lines, key=lambda line: (line.name.casefold(), line.start_no))


def pairing_blocks(lines: Sequence[PairingLine]) -> list[Sequence[PairingLine]]:
    return [lines[i : i + BOARDS_PER_BLOCK] for i in range(0, len(lines), BOARDS_PER_BLOCK)]


def pairings_pdf(
    *, event_name: str, round_number: int, site: str, lines: Sequence[PairingLine], public_url: str
) -> bytes:
    """Portrait A4: board, White (rating, points before the round), result, Black (points,
    rating); the QR code of ``public_url`` at the top."""
    columns = [
        Column("Bd", 9, numeric=True),
        Column("White", 57),
        Column("Rtg", 11, numeric=True),
        Column("Pts", 9, numeric=True),
        Column("Result", 18, centred=True),
        Column("Pts", 9, numeric=True),
        Column("Rtg", 11, numeric=True),
        Column("Black", 57),
    ]
    subtitle = f"Round {round_number} · pairings" + (f" · {site}" if site else "")
    sheet = Sheet(
        title=event_name,
        subtitle=subtitle,
        columns=columns,
        rows=[
            (
                line.board,
                line.white,
                line.white_rating,
                line.white_points,
                line.result,
                line.black_points,
                line.black_rating,
                line.black,
            )
            for line in lines
        ],
        qr_url=public_url,
        block=BOARDS_PER_BLOCK,
        # A bye's kind runs across Result, Pts, Rtg and Black, as on the HTML sheet: in the
        # result column alone "Pairing-allocated bye" broke mid-word.
        spans=[(i, 4, 7) for i, line in enumerate(lines) if not line.black],
    )
    return sheet_pdf(sheet)


def find_board_pdf(
    *, event_name: str, round_number: int, site: str, lines: Sequence[FindLine], public_url: str
) -> bytes:
    """Portrait A4, alphabetical: name, No., board, colour, opponent."""
    columns = [
        Column("Name", 62),
        Column("No.", 12, numeric=True),
        Column("Bd", 12, numeric=True),
        Column("Colour", 30),
        Column("Opponent", 60),
    ]
    subtitle = f"Round {round_number} · find your board" + (f" · {site}" if site else "")
    sheet = Sheet(
        title=event_name,
        subtitle=subtitle,
        columns=columns,
        rows=[
            (line.name, str(line.start_no), line.board, line.colour, line.opponent)
            for line in lines
        ],
        qr_url=public_url,
        spans=[(i, 3, 4) for i, line in enumerate(lines) if not line.opponent],  # a bye's kind
    )
    return sheet_pdf(sheet)
