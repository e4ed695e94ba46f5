"""A team file's player rows as FIDE's TRF-2026 team sample and gacrux write them (test-only).

:func:`formats.teams.trf.write_team_trf` writes a player's round only where the player sat at
a board. FIDE's team sample (TEC's *Grandmommy's Cup*) and gacrux's TRF writer
(``trf2json.output_trf_player``: ``U`` for a pairing-allocated bye) also write the rounds
in which the player had no board:

* the pairing-allocated bye as ``0000 - U`` on every board of the bye team (its first B
  players: a bye has no line-up);
* a requested bye of the team (record 240) as ``0000 - F``, ``0000 - H``, ``0000 - Z`` on every
  board;
* a match forfeited as a whole (record 330) as ``0000 - +`` for the present team's boards and
  ``0000 - -`` for the absent team's;
* a player of a team that played but who was not in its line-up as ``0000 - -``.

:func:`with_fide_rows` adds these to a file, so that the reader and the oracles are given the
file as those programs write it; the team-level records (310, 320, 240, 330) stay as they are.
"""

from __future__ import annotations

from fractions import Fraction

from formats.teams import records as r

_BYE_CODES = {r.PAIRING_BYE: "U", r.FULL_BYE: "F", r.HALF_BYE: "H", r.ZERO_BYE: "Z"}
_HEAD = 89  # a 001 line's columns before its first round (the rank ends in column 89)


def _forfeit_code(match: r.Match, team: int) -> str:
    first_present = match.forfeit[0] == "+"
    second_present = match.forfeit[1] == "+"
    return "+" if (first_present if team == match.white else second_present) else "-"


def _team_rounds(event: r.TeamEvent, played: int) -> dict[tuple[int, int], dict[int, str]]:
    """(team, round) → {player: code} for every player row the file leaves blank."""
    codes: dict[tuple[int, int], dict[int, str]] = {}
    rosters = {team.tpn: team.roster for team in event.teams}
    for bye in event.byes:
        if bye.round <= played:
            boards = rosters[bye.team][: event.boards]
            codes[(bye.team, bye.round)] = dict.fromkeys(boards, _BYE_CODES[bye.kind])
    for match in event.matches:
        for team in (match.white, match.black):
            if match.forfeit:
                boards = rosters[team][: event.boards]
                codes[(team, match.round)] = dict.fromkeys(boards, _forfeit_code(match, team))
                continue
            seated = {g.first_player for g in match.boards} | {
                g.second_player for g in match.boards
            }
            absent = [number for number in rosters[team] if number not in seated]
            codes[(team, match.round)] = dict.fromkeys(absent, "-")
    return codes


def with_fide_rows(trf: str, event: r.TeamEvent) -> str:
    """``trf`` (written from ``event``) with the player rounds FIDE's sample and gacrux write."""
    played = event.played_rounds  # requested byes of the round about to be paired: 240 only
    by_player: dict[int, dict[int, str]] = {}
    for (_team, round_no), players in _team_rounds(event, played).items():
        for number, code in players.items():
            by_player.setdefault(number, {})[round_no] = code
    scoring = event.scoring
    # What each code adds to the player's points (columns 81-84), as gacrux counts them when it
    # checks that column: a pairing-allocated bye, a full-point bye and a forfeit win score a
    # game's win, a half-point bye a draw (its score system's defaults, record 162).
    worth = {"U": scoring.game_win, "F": scoring.game_win, "+": scoring.game_win}
    worth |= {"H": scoring.game_draw, "Z": Fraction(0), "-": Fraction(0)}
    lines = []
    for line in trf.splitlines():
        number = int(line[4:8]) if line.startswith("001 ") else 0
        if number in by_player:
            line = line.ljust(_HEAD + 10 * played)
            points = Fraction(line[80:84].strip() or "0")
            for round_no, code in sorted(by_player[number].items()):
                start = _HEAD + 10 * (round_no - 1)
                if not line[start : start + 10].strip():
                    line = line[:start] + f"  0000 - {code}" + line[start + 10 :]
                    points += worth[code]
            line = (line[:80] + f"{float(points):4.1f}" + line[84:]).rstrip()
        lines.append(line)
    return "\n".join(lines) + "\n"
