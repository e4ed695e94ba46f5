"""TEMPORARY: a small TRF-2026 team file writer for the differential run (test-only).

The TRF-2026 team writer proper is ``formats/teams/trf.py`` (branch ``teamtb``); this one is
here only until that is merged, and is replaced then. It writes what gacrux's reader needs to
pair the next round of a generated event (:mod:`tests.formats.teams.pairing.generator`):

* 012, 142 (the number of rounds: C.04.6 needs it for "the last two rounds" and Type B's
  last round), 152 (the initial colour, 4.1), 192 (the tournament type), 352 (the board
  colour pattern; board 1 sets the team's colour, 1.6.1), 362 (match points);
* 001 for every player (player ``(team-1)*boards + board`` plays board ``board`` of ``team``
  every round): opponent, colour and result for a match, forfeits as ``+``/``-``, nothing for
  a bye;
* 310 for every team: its TPN, match points, game points and its players in board order;
* 240 (requested half and zero byes, the round being paired included), 320 (the
  pairing-allocated bye's points, and who had it in each round), 330 (forfeited matches),
  260 (prohibited pairs).
"""

from __future__ import annotations

from fractions import Fraction

from formats.teams.pairing import model as m
from tests.formats.teams.pairing.generator import BOARD_POINTS, Event, TeamRound

TYPE_CODES = {m.TYPE_A: "TYPEA_", m.TYPE_B: "TYPEB_", m.NO_PREFERENCES: ""}
SCORE_CODES = {"mp+gp": "MP_GP", "gp+mp": "GP_MP", "mp": "MP", "gp": "GP"}
BYE_CODES = {m.HALF_BYE: "H", m.ZERO_BYE: "Z"}


def player_no(event: Event, team: int, board: int) -> int:
    return (team - 1) * event.case.boards + board


def board_pattern(boards: int) -> str:
    """Record 352: White on board 1 for the team with White, then alternating."""
    return ("WB" * boards)[:boards]


def _round_block(event: Event, entry: TeamRound | None, board: int) -> str:
    """The ten columns of one round of a 001 record."""
    if entry is None or entry.opponent is None:
        return " " * 10
    white_board = board_pattern(event.case.boards)[board - 1] == "W"
    colour = "w" if white_board == entry.white else "b"
    opponent = player_no(event, entry.opponent, board)
    return f"  {opponent:4d} {colour} {entry.boards[board - 1]}"


def _player_line(event: Event, team: int, board: int, before: int) -> str:
    number = player_no(event, team, board)
    rounds = [event.history[team].get(r) for r in range(1, before)]
    points = sum(
        (BOARD_POINTS[e.boards[board - 1]] for e in rounds if e is not None and e.boards),
        Fraction(0),
    )
    head = (
        f"001 {number:4d} m    {f'Player {team}.{board}':<33} 2000 NOR "
        f"{100000 + number:11d} 1990/01/01 {float(points):4.1f} {number:4d}"
    )
    return (head + "".join(_round_block(event, e, board) for e in rounds)).rstrip()


def _team_line(event: Event, team: int, before: int) -> str:
    match, game = event.points(team, before)
    players = " ".join(f"{player_no(event, team, b):4d}" for b in range(1, event.case.boards + 1))
    name = f"Team {team}"
    # No nickname, no strength factor; the standing; the rank (here the TPN); the players.
    standing = f"{float(match):6.1f} {float(game):6.1f} {team:3d}"
    return f"310 {team:3d} {name:<32} {'':5} {'':6} {standing}  {players}"


def _bye_lines(event: Event, before: int, requested: dict[int, str]) -> list[str]:
    lines = []
    for round_no in range(1, before + 1):
        for kind, code in BYE_CODES.items():
            if round_no < before:
                teams = [
                    t for t, rs in event.history.items() if rs.get(round_no, _NONE).kind == kind
                ]
            else:
                wanted = m.BYE_HALF if code == "H" else m.BYE_ZERO
                teams = [t for t, k in requested.items() if k == wanted]
            if teams:
                listed = " ".join(f"{t:4d}" for t in sorted(teams))
                lines.append(f"240 {code} {round_no:3d} {listed}")
    return lines


_NONE = TeamRound(kind="")


def _pab_line(event: Event, before: int) -> str:
    teams = []
    for round_no in range(1, before):
        given = [
            t for t, rs in event.history.items() if rs.get(round_no, _NONE).kind == m.PAIRING_BYE
        ]
        teams.append(given[0] if given else 0)
    boards = Fraction(event.case.boards)
    return f"320 {1.0:4.1f} {float(boards / 2):4.1f} " + " ".join(f"{t:3d}" for t in teams)


def _forfeit_lines(event: Event, before: int) -> list[str]:
    lines = []
    for round_no in range(1, before):
        for team, rounds in sorted(event.history.items()):
            entry = rounds.get(round_no)
            if entry is None or entry.kind != m.FORFEIT_WIN:
                continue
            white, black = (team, entry.opponent) if entry.white else (entry.opponent, team)
            code = "+-" if entry.white else "-+"
            lines.append(f"330 {code} {round_no:3d} {white:3d} {black:3d}")
    return lines


def team_trf(event: Event, before: int, requested: dict[int, str]) -> str:
    """The event's file for pairing round ``before``: rounds 1 .. before-1 and the round's
    requested byes."""
    case = event.case
    lines = [
        f"012 Generated team event {case.id}",
        f"142 {case.rounds}",
        f"152 {event.initial_colour.upper()}",
        f"192 FIDE_TEAM_{TYPE_CODES[case.colours]}{SCORE_CODES[case.scores]}",
        f"352 {board_pattern(case.boards)}",
        f"362 TW{case.win_points:4.1f}   TD{1:4.1f}   TL{0:4.1f}",
    ]
    for team in range(1, case.teams + 1):
        for board in range(1, case.boards + 1):
            lines.append(_player_line(event, team, board, before))
    lines += [_team_line(event, team, before) for team in range(1, case.teams + 1)]
    lines += _bye_lines(event, before, requested)
    if before > 1:
        lines.append(_pab_line(event, before))
    lines += _forfeit_lines(event, before)
    for first, last, a, b in event.prohibited:
        lines.append(f"260 {first:3d} {last:3d} {a:4d} {b:4d}")
    return "\n".join(lines) + "\n"
