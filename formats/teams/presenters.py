"""A team event as its public sheets show it: the team standings, the crosstable, a round's
matches board by board and the board ranking, each one :class:`events.pdf.Sheet` that the
printable page (``teams/sheet_print.html``) and the PDF (``events.pdf.sheet_pdf``) both
render, so the page on the wall and the file never differ; and the hall screen's panels."""

from __future__ import annotations

from itertools import groupby
from typing import Any

from events.models import Event
from events.numbers import readable
from events.pdf import LANDSCAPE_MM, PORTRAIT_MM, Column, Sheet, wall_chart_landscape
from formats.teams import selectors

HALL_STANDINGS = 40  # the rest of the field is on the phones that scan the QR code
HALL_BLOCK = 10  # rows per column block, as on the chess hall screen
HALL_TIEBREAKS = 3  # tie-break columns beside MP and GP on the wall
HALL_BOARD_LEADERS = 3  # each board's leaders on the wall


def standings_sheet(event: Event, table: dict[str, Any]) -> Sheet:
    """Rank, team, MP, GP and the tie-breaks (MP and GP once: ``selectors.SCORE_CODES``)."""
    return Sheet(
        title=event.name,
        subtitle=(
            f"Team standings after round {table['after_round']} of {event.rounds} · "
            f"tie-breaks {', '.join(table['codes'])} (FIDE C.07)"
        ),
        columns=[
            Column("Rk", 12),
            Column("No.", 11, numeric=True),
            Column("Team", 62),
            Column("MP", 13, numeric=True),
            Column("GP", 13, numeric=True),
            *(Column(code, 17, numeric=True) for code in table["shown"]),
        ],
        rows=[
            (
                f"{row['rank']}{'=' if row['shared'] else ''}",
                str(row["team_no"]),
                row["name"],
                row["mp_text"],
                row["gp_text"],
                *row["shown_text"],
            )
            for row in table["rows"]
        ],
    )


def crosstable_sheet(event: Event, table: dict[str, Any]) -> Sheet:
    """Each team's rounds: opponent, board 1's colour and the game points."""
    landscape = wall_chart_landscape(len(table["rounds"]))
    width = (LANDSCAPE_MM if landscape else PORTRAIT_MM) - 11 - 50
    cell = max(14.0, width / max(1, len(table["rounds"])))
    return Sheet(
        title=event.name,
        subtitle=f"Team crosstable after round {table['after_round']} of {event.rounds}",
        columns=[
            Column("No.", 11, numeric=True),
            Column("Team", 50),
            *(Column(f"R{n}", cell, centred=True) for n in table["rounds"]),
        ],
        rows=[(str(row["team_no"]), row["name"], *row["cells"]) for row in table["rows"]],
        landscape=landscape,
        font_size=8,
        notes=["A cell: the opponent's number, board 1's colour (w/b), the game points."],
    )


def round_sheet(event: Event, paired: dict[str, Any], public_url: str) -> Sheet:
    """A round's matches, each a block: the match line (table, teams, score) and its boards
    (the white team's player first), with the QR code of the event's page."""
    rows: list[tuple[str, ...]] = []
    for card in paired["cards"]:
        match = card.match
        rows.append(
            (
                str(match.table),
                "",
                f"{match.white.team_no}. {match.white.name}",
                card.score,
                f"{match.black.team_no}. {match.black.name}",
            )
        )
        rows.extend(
            (
                "",
                str(game.board),
                _seat(game.first_player),
                readable(game.result),
                _seat(game.second_player),
            )
            for game in card.games
        )
    byes = [
        f"{bye.team.team_no}. {bye.team.name}: {bye.get_kind_display()}" for bye in paired["byes"]
    ]
    boards = len(paired["cards"][0].games) if paired["cards"] else 0
    return Sheet(
        title=event.name,
        subtitle=f"Round {paired['round'].number}: matches and board results",
        columns=[
            Column("Tbl", 11, numeric=True),
            Column("Bd", 9, numeric=True),
            Column("White on board 1", 62),
            Column("Result", 22, centred=True),
            Column("Black on board 1", 62),
        ],
        rows=rows,
        notes=[f"Byes: {', '.join(byes)}"] if byes else [],
        qr_url=public_url,
        block=boards + 1,
    )


def _seat(player: Any) -> str:
    return f"{player.start_no}. {player.name}" if player is not None else "(empty)"


def boards_sheet(event: Event, ranking: list[dict[str, Any]], minimum: int) -> Sheet:
    """The board ranking: each board's players, best percentage first, those who can no
    longer play the games a board prize needs after the others (marked)."""
    return Sheet(
        title=event.name,
        subtitle="Board ranking (forfeits are not games)",
        columns=[
            Column("Bd", 9, numeric=True),
            Column("Player", 62),
            Column("Games", 15, numeric=True),
            Column("Pts", 12, numeric=True),
            Column("%", 12, numeric=True),
            Column("Opp.", 15, numeric=True),
            Column("Perf.", 15, numeric=True),
        ],
        rows=[
            (
                str(row["board"]),
                row["player"].name + ("" if row["in_running"] else " *"),
                str(row["games"]),
                row["points"],
                str(row["percent"]),
                str(row["average"] or ""),
                str(row["performance"] or ""),
            )
            for row in ranking
        ],
        notes=[board_minimum_note(minimum)],
    )


def board_minimum_note(minimum: int) -> str:
    if not minimum:
        return "Every player with a game is in the running for a board prize."
    return (
        f"A board prize needs {minimum} game{'s' if minimum != 1 else ''}; * marks a player who "
        "can no longer play them. Performance: the opponents' average rating + dp (FIDE B.02)."
    )


def sheet_blocks(sheet: Sheet) -> list[list[list[tuple[str, str]]]]:
    """The sheet's rows for the printable page, in its blocks (a match and its boards): each
    cell with the class that aligns it as its column is aligned."""
    classes = ["num" if c.numeric else "result" if c.centred else "" for c in sheet.columns]
    rows = [list(zip(row, classes, strict=True)) for row in sheet.rows]
    size = sheet.block or max(1, len(rows))
    return [rows[i : i + size] for i in range(0, len(rows), size)]


def hall_context(event: Event) -> dict[str, Any]:
    """The hall screen's panels: the round on the boards (each match's score and board
    results), the standings (MP, GP, the first tie-breaks) and each board's leaders."""
    number = selectors.current_round_number(event)
    try:
        table = selectors.standings_of(event)
    except ValueError:  # tie-breaks the event's rounds refuse: said on the standings page
        table = {"codes": (), "shown": [], "rows": [], "after_round": 0, "rounds": []}
    rows = [
        {**row, "hall_values": row["shown_text"][:HALL_TIEBREAKS]}
        for row in table["rows"][:HALL_STANDINGS]
    ]
    ranking = selectors.board_ranking(event)
    leaders = [
        (board, list(rows_of_board)[:HALL_BOARD_LEADERS])
        for board, rows_of_board in groupby(ranking, key=lambda row: row["board"])
    ]
    return {
        "current": selectors.round_of(event, number) if number else None,
        "table": table,
        "codes": table["shown"][:HALL_TIEBREAKS],
        "standings": [rows[i : i + HALL_BLOCK] for i in range(0, len(rows), HALL_BLOCK)],
        "leaders": leaders,
    }


def match_lines(paired: dict[str, Any]) -> list[dict[str, Any]]:
    """A round's matches in a line each, for the event page: table, teams and score."""
    return [
        {
            "table": card.match.table,
            "white": card.match.white,
            "black": card.match.black,
            "score": card.score if card.entered or card.match.forfeit else "–",
            "decided": card.decided,
        }
        for card in paired["cards"]
    ]


def panel_context(event: Event) -> dict[str, Any]:
    """The team event's block on the event page: its size, the round on the boards (each
    match's score), the line-ups' window for the round to come (its deadline, for the
    captains) and the public pages."""

    number = selectors.current_round_number(event)
    current = selectors.round_of(event, number) if number else None
    return {
        **selectors.panel_of(event),
        "current": current,
        "lines": match_lines(current) if current else [],
        "windows": _deadlines_ahead(event, number),
    }


def _deadlines_ahead(event: Event, current: int | None) -> list[selectors.LineUpWindow]:
    """The line-up deadlines still to come, of the round on the boards and the next one."""
    from events.models import Round

    following = Round.objects.filter(event=event).count() + 1
    rounds = {n for n in (current, following) if n and n <= event.rounds}
    windows = [selectors.lineup_window(event, n) for n in sorted(rounds)]
    return [w for w in windows if w.deadline and not w.late and not w.locked]
