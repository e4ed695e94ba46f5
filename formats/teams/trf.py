"""TRF-2026 team files: writing and reading a :class:`~formats.teams.records.TeamEvent`.

The records, as FIDE's reference engine gacrux 1.11.65 reads them (its ``trf2json.py``;
columns are 1-based as in the TRF-2026 text):

* ``001`` a player: start number 5-8, sex 10, title 11-13, name 15-47, rating 49-52,
  federation 54-56, FIDE id 58-68, birth date 70-79, points 81-84, rank 86-89, then ten
  columns a round: opponent's start number, the player's colour (``w``/``b``), the result
  (``1 = 0`` played, ``+ -`` forfeits);
* ``012`` name, ``042`` start date (it picks the C.07 edition), ``142`` number of rounds,
  ``152`` the initial colour (C.04.6 4.1), ``162`` game points and ``362`` match points
  (``GW 1.0   GD 0.5   GL 0.0``), ``192`` the type (``FIDE_TEAM_TYPEA_MP_GP``, ...,
  ``FIDE_TEAM_ROUNDROBIN``), ``202`` the tie-breaks, ``352`` the colour of the first team's
  player on each board (``WBWB``);
* ``310`` a team: TPN 5-7, name 9-40, nickname 42-46, match points 55-60, game points 62-67,
  rank 69-71, then its players' start numbers in board order (74-77, 79-82, ...);
* ``240`` requested full-, half- and zero-point byes (``F``/``H``/``Z``, the round, the teams),
  ``320`` the pairing-allocated bye: its match and game points and, per round, the team that
  had it (0 for none); ``330`` a forfeited match (``+-``, ``-+``, ``--``, round, the two
  teams); ``300`` a line-up out of roster order (round, team, opponent, the players on boards
  1..B); ``260`` prohibited pairs; ``299`` adjustments (blank type, match points 8-11, game
  points 14-17, round 20-22, 999 for the final standings only, the teams).

A match's board of a player is the player's place among the team's players of that round in
roster order, unless a ``300`` record orders them. TRF has no table numbers: the reader
numbers a round's matches in the order of their first team's pairing number.

Every input is bounded (records :data:`MAX_LINES`, :data:`MAX_LINE`, the bounds of
:mod:`formats.teams.records`); anything else is refused with :class:`TeamTrfError`, one line
naming the line and the record.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

from formats.teams import records as r
from formats.teams import scoring as s
from formats.teams.tiebreaks import TeamTiebreakError, parse_code

MAX_BYTES = 20_000_000
MAX_LINES = 200_000
MAX_LINE = 2_000

_FIRST_CHAR = {
    r.WIN: ("1", "0"),
    r.DRAW: ("=", "="),
    r.LOSS: ("0", "1"),
    r.FORFEIT_WIN: ("+", "-"),
    r.FORFEIT_LOSS: ("-", "+"),
    r.DOUBLE_FORFEIT: ("-", "-"),
}
_FROM_CHARS = {pair: result for result, pair in _FIRST_CHAR.items()}
_BYE_CODES = {r.FULL_BYE: "F", r.HALF_BYE: "H", r.ZERO_BYE: "Z"}
_BYE_KINDS = {"F": r.FULL_BYE, "H": r.HALF_BYE, "Z": r.ZERO_BYE, " ": r.ZERO_BYE}
# A player's round without an opponent that is no board of a match: the team's pairing-allocated
# bye (``U``), its requested bye (``F``/``H``/``Z``), or a player left out of the line-up
# (``-``, blank), as FIDE's sample and gacrux write them. Which team-level record it agrees
# with is checked by :func:`_unpaired_rounds`.
_NO_BOARD = frozenset("UFHZ- ")
# Games of under one move (TRF16 ``W``/``D``/``L``) count as played games on a board.
_UNDER_ONE_MOVE = {"W": "1", "D": "=", "L": "0"}
_PREFERENCE_CODES = {"A": "TYPEA_", "B": "TYPEB_", "none": ""}
_SYSTEM_CODES = {
    r.ROUND_ROBIN: "FIDE_TEAM_ROUNDROBIN",
    r.DOUBLE_ROUND_ROBIN: "FIDE_TEAM_DOUBLEROUNDROBIN",
}


class TeamTrfError(r.TeamEventError):
    """A team file that cannot be written or read: one line for the user."""


# -- writing -----------------------------------------------------------------------------------


def _decimal(value: Fraction, width: int) -> str:
    """A point value in TRF's decimal notation (one decimal, two when needed)."""
    for places in (1, 2):
        scaled = value * 10**places
        if scaled.denominator == 1:
            text = f"{Decimal(int(scaled)).scaleb(-places):.{places}f}"
            if len(text) > width:
                raise TeamTrfError(f"the value {value} does not fit {width} columns")
            return text.rjust(width)
    raise TeamTrfError(f"the value {value} has no exact decimal of two places")


# Record 299 writes an adjustment's match and game points in four columns each.
ADJUSTMENT_COLUMNS = 4
ADJUSTMENT_BOUNDS = "from -9.9 to 99.9, two decimals where they fit (0.25, -0.5)"


def adjustment_refusal(value: Decimal, label: str) -> str:
    """Why ``value`` cannot be an adjustment's points, or "" when record 299 carries it: the
    TRF file writes each in four columns (:func:`_decimal`), so the teams page, the JSON import
    and the TRF import accept only what ``export_trf`` can write back (issue 28)."""
    return _columns_refusal(value, label, -10, ADJUSTMENT_BOUNDS, "299")


# Record 320 writes the pairing-allocated bye's match and game points in four columns each.
BYE_POINTS_BOUNDS = "from 0 to 99.9, two decimals where they fit (0.5, 2.25)"


def bye_points_refusal(value: Decimal, label: str) -> str:
    """Why ``value`` cannot be the pairing-allocated bye's points, or "" when record 320
    carries it (four columns, as record 299's adjustments)."""
    if value.is_finite() and value < 0:
        return f"{label}: {BYE_POINTS_BOUNDS}"
    return _columns_refusal(value, label, -1, BYE_POINTS_BOUNDS, "320")


def _columns_refusal(value: Decimal, label: str, below: int, bounds: str, record: str) -> str:
    said = f"{label}: {bounds} (record {record} of the TRF file has four columns)"
    if not value.is_finite() or not below < value < 100:  # no Fraction of 1e999999999 is made
        return said
    try:
        _decimal(Fraction(value), ADJUSTMENT_COLUMNS)
    except TeamTrfError:
        return said
    return ""


def _points_line(code: str, letter: str, win: Fraction, draw: Fraction, loss: Fraction) -> str:
    parts = [
        f"{letter}{kind}{_decimal(value, 4)}"
        for kind, value in (("W", win), ("D", draw), ("L", loss))
    ]
    return f"{code} " + "   ".join(parts)


def _type_code(event: r.TeamEvent) -> str:
    if event.system in _SYSTEM_CODES:
        return _SYSTEM_CODES[event.system]
    scoring = event.scoring
    other = r.GAME_POINTS if scoring.primary == r.MATCH_POINTS else r.MATCH_POINTS
    scores = scoring.primary + (f"_{other}" if scoring.secondary_for_colours else "")
    return f"FIDE_TEAM_{_PREFERENCE_CODES[event.colour_preferences]}{scores}"


@dataclass
class _Seat:
    """One player's round: what goes in the player's ten columns."""

    opponent: int
    colour: str
    result: str


def _lineups(event: r.TeamEvent, match: r.Match) -> tuple[list[int], list[int]]:
    first = [g.first_player for g in sorted(match.boards, key=lambda g: g.board) if g.first_player]
    second = [
        g.second_player for g in sorted(match.boards, key=lambda g: g.board) if g.second_player
    ]
    return first, second


def _seats(event: r.TeamEvent) -> dict[int, dict[int, _Seat]]:
    seats: dict[int, dict[int, _Seat]] = defaultdict(dict)
    pattern = event.colour_pattern
    for match in event.matches:
        for game in match.boards:
            first_colour = pattern[(game.board - 1) % len(pattern)].lower()
            second_colour = "b" if first_colour == "w" else "w"
            mine, theirs = _FIRST_CHAR[game.result]
            if game.first_player:
                seats[game.first_player][match.round] = _Seat(
                    game.second_player or 0, first_colour if game.second_player else "-", mine
                )
            if game.second_player:
                seats[game.second_player][match.round] = _Seat(
                    game.first_player or 0, second_colour if game.first_player else "-", theirs
                )
    return seats


def _player_line(
    player: r.TeamPlayer, seats: dict[int, _Seat], rounds: int, points: Fraction
) -> str:
    blocks = []
    for round_no in range(1, rounds + 1):
        seat = seats.get(round_no)
        blocks.append(
            "          " if seat is None else f"  {seat.opponent:4d} {seat.colour} {seat.result}"
        )
    rating = f"{player.rating:4d}" if player.rating else "    "
    fide_id = f"{player.fide_id:>11}"
    head = (
        f"001 {player.start_no:4d} {player.sex[:1]:1}{player.title[:3]:>3} {player.name[:33]:<33} "
        f"{rating} {player.federation[:3]:3} {fide_id[:11]} {player.birth_date[:10]:10} "
        f"{_decimal(points, 4)} {player.start_no:4d}"
    )
    return (head + "".join(blocks)).rstrip()


def _player_points(event: r.TeamEvent) -> dict[int, Fraction]:
    points: dict[int, Fraction] = defaultdict(Fraction)
    for match in event.matches:
        for game in match.boards:
            if game.first_player:
                points[game.first_player] += s.game_points(game.result, True, event.scoring)
            if game.second_player:
                points[game.second_player] += s.game_points(game.result, False, event.scoring)
    return points


def _team_line(team: r.Team, score: s.TeamScore, rank: int) -> str:
    players = " ".join(f"{number:4d}" for number in team.roster)
    standing = f"{_decimal(score.match_points, 6)} {_decimal(score.game_points, 6)} {rank:3d}"
    head = f"310 {team.tpn:3d} {team.name[:32]:<32} {team.nickname[:5]:5} {'':6}"
    return f"{head} {standing}  {players}".rstrip()


def _out_of_order_lines(event: r.TeamEvent) -> list[str]:
    """Record 300 for each line-up not in roster order, or with an empty board (gacrux needs
    one then: it cannot tell which board was left empty)."""
    lines = []
    for match in event.matches:
        first, second = _lineups(event, match)
        for team, opponent, lineup in (
            (match.white, match.black, first),
            (match.black, match.white, second),
        ):
            roster = event.team(team).roster
            ranked = sorted(
                lineup, key=lambda number: roster.index(number) if number in roster else len(roster)
            )
            short = bool(match.boards) and len(lineup) < event.boards
            if lineup != ranked or short:
                by_board = {
                    g.board: (g.first_player if team == match.white else g.second_player)
                    for g in match.boards
                }
                players = " ".join(f"{by_board.get(b) or 0:4d}" for b in range(1, event.boards + 1))
                lines.append(f"300 {match.round:3d} {team:3d} {opponent:3d} {players}")
    return lines


def _bye_lines(event: r.TeamEvent) -> list[str]:
    lines = []
    grouped: dict[tuple[int, str], list[int]] = defaultdict(list)
    for bye in event.byes:
        if bye.kind in _BYE_CODES:
            grouped[(bye.round, _BYE_CODES[bye.kind])].append(bye.team)
    for (round_no, code), teams in sorted(grouped.items()):
        lines.append(f"240 {code} {round_no:3d} " + " ".join(f"{t:4d}" for t in sorted(teams)))
    return lines


def _pairing_bye_line(event: r.TeamEvent) -> str:
    given = {bye.round: bye.team for bye in event.byes if bye.kind == r.PAIRING_BYE}
    points = s.bye_points(r.PAIRING_BYE, event)
    teams = " ".join(f"{given.get(n, 0):3d}" for n in range(1, event.last_round + 1))
    return (
        f"320 {_decimal(points.match_points, 4)} {_decimal(points.game_points, 4)} {teams}".rstrip()
    )


def _adjustment_line(adjustment: r.Adjustment) -> str:
    round_no = 999 if adjustment.standings_only else adjustment.round
    mp, gp = _decimal(adjustment.match_points, 4), _decimal(adjustment.game_points, 4)
    return f"299    {mp}  {gp}  {round_no:3d} {adjustment.team:4d}"


def write_team_trf(event: r.TeamEvent) -> str:
    """The event as a TRF-2026 team file (what gacrux's tie-break and pairing checkers read)."""
    check_event(event)
    scoring = event.scoring
    lines = [f"012 {event.name[: r.MAX_NAME]}"]
    if event.start_date is not None:
        lines.append(f"042 {event.start_date:%Y/%m/%d}")
    lines += [f"142 {event.rounds}"]
    if event.initial_colour:
        lines.append(f"152 {event.initial_colour}")
    lines += [
        _points_line("162", "G", scoring.game_win, scoring.game_draw, scoring.game_loss),
        f"192 {_type_code(event)}",
    ]
    if event.tiebreaks:
        lines.append("202 " + " ".join(event.tiebreaks))
    lines += [
        f"352 {event.colour_pattern}",
        _points_line("362", "T", scoring.match_win, scoring.match_draw, scoring.match_loss),
    ]
    seats, points = _seats(event), _player_points(event)
    last = event.last_round
    for player in sorted(event.players, key=lambda p: p.start_no):
        lines.append(
            _player_line(player, seats.get(player.start_no, {}), last, points[player.start_no])
        )
    played = event.played_rounds
    totals = s.scores(event, played)
    finals = s.adjustments(event, played, final=True)
    for team in sorted(event.teams, key=lambda t: t.tpn):
        total = totals[team.tpn]
        final = s.TeamScore(
            total.match_points + finals[team.tpn].match_points,
            total.game_points + finals[team.tpn].game_points,
        )
        lines.append(_team_line(team, final, team.tpn))
    lines += _out_of_order_lines(event)
    lines += _bye_lines(event)
    if last:
        lines.append(_pairing_bye_line(event))
    for match in sorted(event.matches, key=lambda m: (m.round, m.table)):
        if match.forfeit:
            lines.append(f"330 {match.forfeit} {match.round:3d} {match.white:3d} {match.black:3d}")
    for pair in event.prohibited:
        a, b = pair.teams
        lines.append(f"260 {pair.first_round:3d} {pair.last_round:3d} {a:4d} {b:4d}")
    lines += [_adjustment_line(adjustment) for adjustment in event.adjustments]
    return "\n".join(lines) + "\n"


# -- checking ----------------------------------------------------------------------------------


def check_event(event: r.TeamEvent) -> None:
    """:func:`formats.teams.records.check_event`, its refusal as a :class:`TeamTrfError`."""
    try:
        r.check_event(event)
    except r.TeamEventError as error:
        raise TeamTrfError(str(error)) from error


# -- reading -----------------------------------------------------------------------------------


def _int(text: str, what: str) -> int:
    text = text.strip()
    if not text:
        return 0
    if not text.isascii() or not text.isdigit():
        raise TeamTrfError(f"{what}: {text!r} is not a number")
    return int(text)


def _points(text: str, what: str) -> Fraction:
    text = text.strip()
    if not text:
        return Fraction(0)
    body = text.removeprefix("-")
    if not body or not body.replace(".", "", 1).isdigit() or not body.isascii() or len(body) > 8:
        raise TeamTrfError(f"{what}: {text!r} is not a number of points")
    return Fraction(text)


@dataclass
class _Reading:
    """What the reader has gathered so far."""

    name: str = ""
    start_date: dt.date | None = None
    rounds: int = 0
    initial_colour: str = ""
    type_code: str = ""
    tiebreaks: tuple[str, ...] = ()
    pattern: str = ""
    game: tuple[Fraction, Fraction, Fraction] | None = None
    match: tuple[Fraction, Fraction, Fraction] | None = None
    players: dict[int, r.TeamPlayer] = field(default_factory=dict)
    seats: dict[int, dict[int, _Seat]] = field(default_factory=dict)
    unpaired: dict[tuple[int, int], str] = field(default_factory=dict)  # (player, round) → code
    teams: dict[int, r.Team] = field(default_factory=dict)
    orders: dict[tuple[int, int], tuple[int, ...]] = field(default_factory=dict)
    byes: list[r.Bye] = field(default_factory=list)
    pairing_bye: tuple[Fraction, Fraction] | None = None
    forfeits: dict[tuple[int, int, int], str] = field(default_factory=dict)
    prohibited: list[r.ProhibitedPair] = field(default_factory=list)
    adjustments: list[r.Adjustment] = field(default_factory=list)
    declared: list[tuple[str, Fraction, Fraction, str]] = field(default_factory=list)
    unread: dict[str, int] = field(default_factory=dict)  # record → lines left out


def _read_player(reading: _Reading, line: str, where: str) -> None:
    number = _int(line[4:8], where + " start number")
    if number in reading.players:
        raise TeamTrfError(f"{where}: player {number} appears twice")
    rating = _int(line[48:52], where + " rating")
    reading.players[number] = r.TeamPlayer(
        start_no=number,
        name=line[14:47].strip(),
        rating=rating or None,
        federation=line[53:56].strip(),
        fide_id=line[57:68].strip(),
        title=line[10:13].strip(),
        sex=line[9:10].strip(),
        birth_date=line[69:79].strip(),
    )
    seats: dict[int, _Seat] = {}
    for round_no, start in enumerate(range(91, len(line), 10), start=1):
        block = line[start : start + 8]
        if not block.strip():
            continue
        opponent = _int(block[0:4], f"{where} round {round_no} opponent")
        colour, result = block[5:6].lower() or "-", block[7:8].upper() or " "
        result = _UNDER_ONE_MOVE.get(result, result) if opponent else result
        if opponent == 0 and result in _NO_BOARD:
            reading.unpaired[(number, round_no)] = result
            continue
        if result not in "10=+-" or colour not in "wb- ":
            raise TeamTrfError(
                f"{where} round {round_no}: result {result!r} is not one a team file's board takes"
            )
        seats[round_no] = _Seat(opponent, colour, result)
    reading.seats[number] = seats


def _read_team(reading: _Reading, line: str, where: str) -> None:
    tpn = _int(line[4:7], where + " team pairing number")
    if tpn in reading.teams or not 1 <= tpn <= r.MAX_TEAMS:
        raise TeamTrfError(f"{where}: team {tpn} appears twice or is out of 1 to {r.MAX_TEAMS}")
    roster = tuple(
        number
        for number in (
            _int(line[i - 4 : i], where + " player") for i in range(77, len(line) + 1, 5)
        )
        if number
    )
    reading.teams[tpn] = r.Team(tpn, line[8:40].strip(), roster, line[41:46].strip())


def _read_points_line(line: str, where: str) -> dict[str, Fraction]:
    values = {}
    for position in range(5, len(line) - 1, 9):
        values[line[position].upper()] = _points(line[position + 1 : position + 5], where)
    return values


def _read_byes(reading: _Reading, line: str, where: str) -> None:
    code = line[4:5].upper() or " "
    if code not in _BYE_KINDS:
        raise TeamTrfError(f"{where}: a bye is F, H or Z, not {code!r}")
    round_no = _int(line[6:9], where + " round")
    for i in range(14, len(line) + 1, 5):
        team = _int(line[i - 4 : i], where + " team")
        if team:
            reading.byes.append(r.Bye(round_no, team, _BYE_KINDS[code]))


def _read_pairing_byes(reading: _Reading, line: str, where: str) -> None:
    reading.pairing_bye = (_points(line[4:8], where), _points(line[9:13], where))
    for round_no, i in enumerate(range(17, len(line) + 1, 4), start=1):
        team = _int(line[i - 3 : i], where + " team")
        if team:
            reading.byes.append(r.Bye(round_no, team, r.PAIRING_BYE))


def _read_forfeit(reading: _Reading, line: str, where: str) -> None:
    code = line[4:6]
    aliases = {"10": "+-", "WL": "+-", "WZ": "+-", "01": "-+", "LW": "-+", "ZW": "-+"}
    aliases |= {"00": "--", "LL": "--", "ZZ": "--"}
    code = aliases.get(code.upper(), code)
    if code not in r.MATCH_FORFEITS:
        raise TeamTrfError(f"{where}: a forfeited match is +-, -+ or --, not {line[4:6]!r}")
    key = (_int(line[7:10], where + " round"), _int(line[11:14], where), _int(line[15:18], where))
    reading.forfeits[key] = code


def _read_out_of_order(reading: _Reading, line: str, where: str) -> None:
    key = (_int(line[4:7], where + " round"), _int(line[8:11], where + " team"))
    reading.orders[key] = tuple(
        _int(line[i - 4 : i], where + " player") for i in range(20, len(line) + 1, 5)
    )


def _read_prohibited(reading: _Reading, line: str, where: str) -> None:
    first = _int(line[4:7], where + " round")
    last = _int(line[8:11], where + " round") or first
    teams = [_int(line[i - 4 : i], where + " team") for i in range(16, len(line) + 1, 5)]
    for i, a in enumerate(teams):
        for b in teams[i + 1 :]:
            reading.prohibited.append(r.ProhibitedPair(first, last, (a, b)))


def _read_adjustment(reading: _Reading, line: str, where: str) -> None:
    """Record 299: an adjustment (blank type), or, with a result code and neither round nor
    team, the points that code scores (TRF-2026, as gacrux reads it: ``299 +    2.0   2.5``);
    those are checked against the event's scoring once the file is read
    (:func:`_check_declared_points`). A result code for one team's round would overrule the
    match its boards decided: refused."""
    code = line[4:5].strip().upper()
    mp, gp = _points(line[7:11], where), _points(line[13:17], where)
    round_no = _int(line[19:22], where + " round")
    if code:
        if round_no or line[22:].strip():
            raise TeamTrfError(
                f"{where}: points with a result code ({code}) for a team's round are not read: "
                "a match's result comes from its boards; enter the points as an adjustment"
            )
        reading.declared.append((code, mp, gp, where))
        return
    for i in range(27, len(line) + 1, 5):
        team = _int(line[i - 4 : i], where + " team")
        reading.adjustments.append(
            r.Adjustment(team, round_no % 999, mp, gp, standings_only=round_no >= 999)
        )


def _read_date(text: str, where: str) -> dt.date | None:
    text = text.strip().replace("/", "-").replace(".", "-")
    if not text:
        return None
    try:
        return dt.date.fromisoformat(text[:10])
    except ValueError as error:
        raise TeamTrfError(f"{where}: {text!r} is not a date (YYYY/MM/DD)") from error


def _read_line(reading: _Reading, code: str, line: str, where: str) -> None:
    value = line[4:].strip()
    simple = {
        "012": lambda: setattr(reading, "name", value[: r.MAX_NAME]),
        "042": lambda: setattr(reading, "start_date", _read_date(value, where)),
        "142": lambda: setattr(reading, "rounds", _int(value, where)),
        "152": lambda: setattr(reading, "initial_colour", value.upper()[:1]),
        "192": lambda: setattr(reading, "type_code", value.upper()),
        "202": lambda: setattr(reading, "tiebreaks", tuple(value.replace(",", " ").split())),
        "352": lambda: setattr(reading, "pattern", value.upper()),
        "162": lambda: _set_points(reading, "game", line, where),
        "362": lambda: _set_points(reading, "match", line, where),
    }
    readers = {
        "001": _read_player,
        "310": _read_team,
        "240": _read_byes,
        "320": _read_pairing_byes,
        "330": _read_forfeit,
        "300": _read_out_of_order,
        "260": _read_prohibited,
        "299": _read_adjustment,
    }
    if code in simple:
        simple[code]()
    elif code in readers:
        readers[code](reading, line, where)
    elif code not in _UNREAD_SILENT:
        reading.unread[code] = reading.unread.get(code, 0) + 1


# Records the team import leaves out without a word: comments, and the counts the event makes
# itself (062 players, 072 rated players, 082 teams).
_UNREAD_SILENT = frozenset({"###", "062", "072", "082"})


def _set_points(reading: _Reading, which: str, line: str, where: str) -> None:
    values = _read_points_line(line, where)
    defaults = (
        (Fraction(1), Fraction(1, 2), Fraction(0))
        if which == "game"
        else (Fraction(2), Fraction(1), Fraction(0))
    )
    chosen = tuple(values.get(key, default) for key, default in zip("WDL", defaults, strict=True))
    setattr(reading, which, chosen)


def _team_of(reading: _Reading) -> dict[int, int]:
    return {number: team.tpn for team in reading.teams.values() for number in team.roster}


Seated = list[tuple[int, int, _Seat]]  # (player, team, the player's round)


def _round_games(reading: _Reading, team_of: dict[int, int]) -> dict[tuple[int, int, int], Seated]:
    """Every seated player, grouped by match: (round, lower TPN, higher TPN). A player without
    an opponent (the other team's board was empty) joins the match their team played that
    round, known from the other boards or from record 330."""
    grouped: dict[tuple[int, int, int], Seated] = defaultdict(list)
    alone: list[tuple[int, int, int, _Seat]] = []
    for number, seats in reading.seats.items():
        for round_no, seat in seats.items():
            if number not in team_of:
                raise TeamTrfError(
                    f"player {number} plays in round {round_no} but is in no team (record 310)"
                )
            if seat.opponent == 0:
                alone.append((round_no, team_of[number], number, seat))
                continue
            if seat.opponent not in team_of:
                raise TeamTrfError(
                    f"player {number}, round {round_no}: opponent {seat.opponent} is in no team"
                )
            a, b = team_of[number], team_of[seat.opponent]
            grouped[(round_no, min(a, b), max(a, b))].append((number, a, seat))
    _seat_alone(reading, grouped, alone)
    return grouped


def _seat_alone(
    reading: _Reading,
    grouped: dict[tuple[int, int, int], Seated],
    alone: list[tuple[int, int, int, _Seat]],
) -> None:
    """Each board won by forfeit against an empty board joins its team's match. In a match
    forfeited as a whole (record 330, no board played) the players' ``0000 - +`` and
    ``0000 - -`` say only that: they are no boards of their own."""
    forfeited = {(n, min(w, b), max(w, b)) for n, w, b in reading.forfeits}
    keys = list(grouped) + sorted(forfeited)
    for round_no, team, number, seat in alone:
        found = [key for key in keys if key[0] == round_no and team in key[1:]]
        if found and found[0] in forfeited and found[0] not in grouped:
            continue
        if not found or seat.result != "+":
            raise TeamTrfError(
                f"player {number}, round {round_no}: a board without an opponent must be a "
                "forfeit win (+) in a match the team played"
            )
        grouped[found[0]].append((number, team, seat))


def _boards_of(reading: _Reading, round_no: int, team: int, players: list[int]) -> dict[int, int]:
    """Each player's board: by the 300 record, else by the roster's order."""
    order = reading.orders.get((round_no, team))
    if order is not None:
        return {number: order.index(number) + 1 for number in players if number in order}
    roster = reading.teams[team].roster
    return {number: i + 1 for i, number in enumerate(sorted(players, key=roster.index))}


def _first_team(
    by_board: dict[int, dict[int, tuple[int, _Seat]]], teams: tuple[int, int], pattern: str
) -> int:
    """The team with White on board 1: the one whose player has the pattern's colour on a board
    both teams played (record 352)."""
    for board, sides in sorted(by_board.items()):
        if len(sides) == 2 and board <= len(pattern):
            colour = sides[teams[0]][1].colour
            return teams[0] if colour == pattern[board - 1].lower() else teams[1]
    return teams[0]


def _board_game(
    board: int, sides: dict[int, tuple[int, _Seat]], first: int, second: int, where: str
) -> r.BoardGame:
    if first not in sides:  # the first team's board was empty
        number, seat = sides[second]
        return r.BoardGame(board, None, number, r.FORFEIT_LOSS)
    if second not in sides:
        number, seat = sides[first]
        return r.BoardGame(board, number, None, r.FORFEIT_WIN)
    (a, seat_a), (b, seat_b) = sides[first], sides[second]
    result = _FROM_CHARS.get((seat_a.result, seat_b.result))
    if result is None or seat_a.opponent != b or seat_b.opponent != a:
        raise TeamTrfError(f"{where}, players {a} and {b}: their records do not agree")
    return r.BoardGame(board, a, b, result)


def _build_match(
    reading: _Reading, key: tuple[int, int, int], seated: Seated, pattern: str
) -> r.Match:
    round_no, low, high = key
    boards = {
        team: _boards_of(reading, round_no, team, [n for n, t, _ in seated if t == team])
        for team in (low, high)
    }
    by_board: dict[int, dict[int, tuple[int, _Seat]]] = defaultdict(dict)
    for number, team, seat in seated:
        board = boards[team].get(number)
        if board is None or team in by_board[board]:
            raise TeamTrfError(
                f"round {round_no}, team {team}: player {number} has no board of their own"
            )
        by_board[board][team] = (number, seat)
    first = _first_team(by_board, (low, high), pattern)
    second = high if first == low else low
    where = f"round {round_no}"
    games = tuple(
        _board_game(b, sides, first, second, where) for b, sides in sorted(by_board.items())
    )
    forfeit = reading.forfeits.pop((round_no, first, second), "")
    return r.Match(round_no, 0, first, second, games, forfeit)


def _unpaired_rounds(
    reading: _Reading, team_of: dict[int, int], matched: set[tuple[int, int]]
) -> None:
    """What a player's round without an opponent says of the team (:data:`_NO_BOARD`). ``U``,
    ``F``, ``H``, ``Z`` in a round the team played no match are the team's bye of that kind:
    the one record 320 or 240 gives, or, where no record gives the team a bye that round, a bye
    read from its players (TRF16's way). ``-`` and blank are a player left out of the line-up,
    as is ``Z`` in a round the team played. Anything else contradicts the file's other records
    and is refused."""
    byes = {(bye.round, bye.team): bye.kind for bye in reading.byes}
    for (number, round_no), code in sorted(reading.unpaired.items()):
        team = team_of.get(number)
        if code in "- " or (code == "Z" and (round_no, team) in matched):
            continue
        kind = r.PAIRING_BYE if code == "U" else _BYE_KINDS[code]
        where = f"player {number}, round {round_no}: a bye ({code})"
        if team is None:
            raise TeamTrfError(f"{where} of a player in no team (record 310)")
        if (round_no, team) in matched:
            raise TeamTrfError(f"{where} in a round their team {team} played a match")
        given = byes.setdefault((round_no, team), kind)
        if given != kind:
            raise TeamTrfError(f"{where}, while the file gives team {team} a {given} bye")
    listed = {(bye.round, bye.team) for bye in reading.byes}
    reading.byes += [
        r.Bye(round_no, team, kind)
        for (round_no, team), kind in sorted(byes.items())
        if (round_no, team) not in listed
    ]


def _matches(reading: _Reading, pattern: str) -> list[r.Match]:
    team_of = _team_of(reading)
    grouped = _round_games(reading, team_of)
    matched = {(n, team) for n, low, high in grouped for team in (low, high)}
    matched |= {(n, team) for n, white, black in reading.forfeits for team in (white, black)}
    _unpaired_rounds(reading, team_of, matched)
    matches = [_build_match(reading, key, seated, pattern) for key, seated in grouped.items()]
    for (round_no, white, black), code in reading.forfeits.items():
        matches.append(r.Match(round_no, 0, white, black, (), code))
    by_round: dict[int, list[r.Match]] = defaultdict(list)
    for match in matches:
        by_round[match.round].append(match)
    numbered = []
    for round_no, listed in sorted(by_round.items()):
        for table, match in enumerate(sorted(listed, key=lambda m: m.white), start=1):
            numbered.append(
                r.Match(round_no, table, match.white, match.black, match.boards, match.forfeit)
            )
    return numbered


def _scoring(reading: _Reading, boards: int) -> r.Scoring:
    game = reading.game or (Fraction(1), Fraction(1, 2), Fraction(0))
    match = reading.match or (Fraction(2), Fraction(1), Fraction(0))
    code = reading.type_code
    primary = r.GAME_POINTS if "_GP" in code and "_MP_GP" not in code else r.MATCH_POINTS
    secondary = "_MP_GP" in code or "_GP_MP" in code or code in ("", "FIDE_TEAM", "FIDE_TEAM_BAKU")
    bye_mp, bye_gp = reading.pairing_bye or (None, None)
    return r.Scoring(
        match_win=match[0], match_draw=match[1], match_loss=match[2],
        game_win=game[0], game_draw=game[1], game_loss=game[2],
        primary=primary, secondary_for_colours=secondary,
        pairing_bye_match_points=bye_mp, pairing_bye_game_points=bye_gp,
    )  # fmt: skip


def _system(code: str) -> tuple[str, str]:
    if "DOUBLEROUNDROBIN" in code:
        return r.DOUBLE_ROUND_ROBIN, "none"
    if "ROUNDROBIN" in code:
        return r.ROUND_ROBIN, "none"
    preference = (
        "B"
        if "TYPEB" in code
        else ("A" if "TYPEA" in code or code in ("", "FIDE_TEAM", "FIDE_TEAM_BAKU") else "none")
    )
    return r.SWISS, preference


def _lines(text: str) -> Iterable[tuple[int, str]]:
    if len(text) > MAX_BYTES:
        raise TeamTrfError(f"a team file has at most {MAX_BYTES} characters")
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if len(lines) > MAX_LINES:
        raise TeamTrfError(f"a team file has at most {MAX_LINES} lines")
    for number, line in enumerate(lines, start=1):
        if len(line) > MAX_LINE:
            raise TeamTrfError(f"line {number} is longer than {MAX_LINE} characters")
        if len(line) >= 3:
            yield number, line.rstrip()


def read_team_trf(text: str) -> r.TeamEvent:
    """A TRF-2026 team file as a :class:`~formats.teams.records.TeamEvent`, or
    :class:`TeamTrfError` with the line at fault."""
    return read_team_trf_noted(text)[0]


def read_team_trf_noted(text: str) -> tuple[r.TeamEvent, tuple[str, ...]]:
    """:func:`read_team_trf` and what the reading left out, in words (the import's notes): the
    records it does not read, and the tie-breaks of record 202 the team standings do not
    compute (left out of the event's list)."""
    reading = _Reading()
    for number, line in _lines(text.lstrip("\ufeff")):
        code = line[:3]
        try:
            _read_line(reading, code, line, f"line {number} (record {code})")
        except TeamTrfError:
            raise
        except (ValueError, IndexError, ZeroDivisionError) as error:
            raise TeamTrfError(f"line {number} (record {code}) cannot be read: {error}") from error
    if not reading.teams:
        raise TeamTrfError("the file has no team (record 310): it is not a team file")
    boards = len(reading.pattern) or max(
        (len(team.roster) for team in reading.teams.values()), default=1
    )
    pattern = reading.pattern or ("WB" * boards)[:boards]
    matches = _matches(reading, pattern)
    played = max([m.round for m in matches] + [b.round for b in reading.byes], default=0)
    system, preference = _system(reading.type_code)
    event = r.TeamEvent(
        name=reading.name,
        rounds=reading.rounds or max(played, 1),
        boards=boards,
        teams=tuple(sorted(reading.teams.values(), key=lambda t: t.tpn)),
        players=tuple(sorted(reading.players.values(), key=lambda p: p.start_no)),
        matches=tuple(matches),
        byes=tuple(sorted(reading.byes, key=lambda b: (b.round, b.team))),
        adjustments=tuple(reading.adjustments),
        scoring=_scoring(reading, boards),
        system=system,
        colour_preferences=preference,
        initial_colour=reading.initial_colour,
        board_colours=reading.pattern,
        start_date=reading.start_date,
        tiebreaks=tuple(code for code in reading.tiebreaks if _computed(code)),
        prohibited=tuple(reading.prohibited),
    )
    check_event(event)
    _check_declared_points(reading.declared, event)
    return event, _notes(reading)


def _computed(code: str) -> bool:
    try:
        parse_code(code)
    except TeamTiebreakError:
        return False
    return True


def _lines_count(count: int) -> str:
    return f"{count} line" if count == 1 else f"{count} lines"


def _notes(reading: _Reading) -> tuple[str, ...]:
    """What the file says that the event does not take, one line each."""
    notes = []
    left_out = [code for code in reading.tiebreaks if not _computed(code)]
    if left_out:
        notes.append(
            "Tie-breaks of record 202 the team standings do not compute, left out of the "
            f"event's list: {', '.join(left_out)}."
        )
    if "250" in reading.unread:
        notes.append(
            f"Record 250 (acceleration, {_lines_count(reading.unread['250'])}) not read: the "
            "team Swiss here pairs without acceleration; the rounds played are as the file has "
            "them."
        )
    named = [
        f"{code} ({count} lines)" if count > 1 else code
        for code, count in sorted(reading.unread.items())
        if code != "250"
    ]
    if named:
        notes.append(f"Lines the import does not read, left out: {', '.join(named)}.")
    return tuple(notes)


# Record 299's result codes (gacrux's reading: ``+`` is a forfeit win, ``-`` a forfeit loss)
# → the kind of round whose points they state.
_DECLARED_KINDS = {
    "+": r.FULL_BYE, "F": r.FULL_BYE, "W": r.FULL_BYE,
    "H": r.HALF_BYE, "D": r.HALF_BYE,
    "-": r.ZERO_BYE, "Z": r.ZERO_BYE, "L": r.ZERO_BYE,
    "U": r.PAIRING_BYE, "P": r.PAIRING_BYE,
}  # fmt: skip


def _check_declared_points(
    declared: list[tuple[str, Fraction, Fraction, str]], event: r.TeamEvent
) -> None:
    """Each ``299`` result code's points must be what the event scores for it (a forfeit win
    and a full-point bye: a won match; a half-point bye: a drawn one; the pairing-allocated
    bye: record 320's points): read when they agree, refused in one line when they do not,
    since the product could not score the event as the file does."""
    for code, mp, gp, where in declared:
        kind = _DECLARED_KINDS.get(code)
        if kind is None:
            raise TeamTrfError(f"{where}: {code!r} is not a result code record 299 takes")
        score = s.bye_points(kind, event)
        if (mp, gp) != (score.match_points, score.game_points):
            raise TeamTrfError(
                f"{where}: {code} worth {mp} match points and {gp} game points; this event "
                f"scores it {score.match_points} and {score.game_points} (records 162, 320, 362)"
            )
