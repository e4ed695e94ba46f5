"""A team event's data as frozen records: teams, players, matches, byes, adjustments, scoring.

Pure Python (house style 1): the scoring (:mod:`formats.teams.scoring`), the TRF-2026 team file
(:mod:`formats.teams.trf`) and the C.07 team tie-breaks (:mod:`formats.teams.tiebreaks`) take
a :class:`TeamEvent`; the Django side will build one from its models.

A match is written from the side of its *first* team, the team with White on board 1 (C.04.6
1.6.1: a team's colour is board 1's). Each board's result is "first team's player - second
team's player", in the exchange format's notation (``1-0``, ``1/2-1/2``, ``0-1``, forfeits
``+/-``, ``-/+``, ``-/-``). A whole match forfeited is ``forfeit`` ``+-``, ``-+`` or ``--``
(TRF-2026 record 330) and has no boards.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from fractions import Fraction

# Board results, first team's player first.
WIN = "1-0"
DRAW = "1/2-1/2"
LOSS = "0-1"
FORFEIT_WIN = "+/-"
FORFEIT_LOSS = "-/+"
DOUBLE_FORFEIT = "-/-"
BOARD_RESULTS = (WIN, DRAW, LOSS, FORFEIT_WIN, FORFEIT_LOSS, DOUBLE_FORFEIT)
PLAYED_RESULTS = frozenset({WIN, DRAW, LOSS})
REVERSED = {
    WIN: LOSS,
    LOSS: WIN,
    DRAW: DRAW,
    FORFEIT_WIN: FORFEIT_LOSS,
    FORFEIT_LOSS: FORFEIT_WIN,
    DOUBLE_FORFEIT: DOUBLE_FORFEIT,
}

# A whole match forfeited (TRF-2026 record 330): first team's side first.
MATCH_FORFEITS = ("+-", "-+", "--")

# Byes (C.04.6 1.4 for the pairing-allocated one; the others are requested, C.07 16.2).
PAIRING_BYE = "pairing"
FULL_BYE = "full"
HALF_BYE = "half"
ZERO_BYE = "zero"
BYE_KINDS = (PAIRING_BYE, FULL_BYE, HALF_BYE, ZERO_BYE)

SWISS = "swiss"
ROUND_ROBIN = "round_robin"
DOUBLE_ROUND_ROBIN = "double_round_robin"
SYSTEMS = (SWISS, ROUND_ROBIN, DOUBLE_ROUND_ROBIN)

MATCH_POINTS = "MP"
GAME_POINTS = "GP"

# Bounds on every input: a refusal names the one exceeded.
MAX_TEAMS = 999  # record 310: three digits
MAX_PLAYERS = 9999  # record 001: four digits
MAX_BOARDS = 99
MAX_ROUNDS = 99
MAX_POINTS = Fraction(1000)  # points of one result, one bye or one adjustment
MAX_NAME = 200


class TeamEventError(ValueError):
    """A team event that breaks a bound or names what does not exist: one line, for the user."""


@dataclass(frozen=True, slots=True)
class Scoring:
    """The competition's scoring (C.04.6 1.2-1.4, C.07 art. 11): all stored per event.

    ``pairing_bye_*`` None means the default of C.04.6 1.4, a drawn match: the draw's match
    points and half the boards' game points. A forfeited match gives the present team a win's
    match points and a win on every board; a half-point bye a draw, a full-point bye a win.
    """

    match_win: Fraction = Fraction(2)
    match_draw: Fraction = Fraction(1)
    match_loss: Fraction = Fraction(0)
    game_win: Fraction = Fraction(1)
    game_draw: Fraction = Fraction(1, 2)
    game_loss: Fraction = Fraction(0)
    primary: str = MATCH_POINTS  # the primary score (C.04.6 1.2): MP or GP
    secondary_for_colours: bool = True  # 1.2.1: the other score is used for colours
    pairing_bye_match_points: Fraction | None = None
    pairing_bye_game_points: Fraction | None = None

    def __post_init__(self) -> None:
        values: tuple[Fraction, ...] = (self.match_win, self.match_draw, self.match_loss)
        values += (self.game_win, self.game_draw, self.game_loss)
        for value in values:
            if not 0 <= value <= MAX_POINTS:
                raise TeamEventError(f"a point value must be 0 to {MAX_POINTS}, not {value}")
        if not self.match_win > self.match_draw >= self.match_loss:
            raise TeamEventError(
                "match points must rank a win above a draw, a draw not below a loss"
            )
        if not self.game_win > self.game_draw >= self.game_loss:
            raise TeamEventError(
                "game points must rank a win above a draw, a draw not below a loss"
            )
        if self.primary not in (MATCH_POINTS, GAME_POINTS):
            raise TeamEventError(f"the primary score is MP or GP, not {self.primary!r}")


@dataclass(frozen=True, slots=True)
class TeamPlayer:
    """A player of a team's roster (TRF record 001)."""

    start_no: int
    name: str
    rating: int | None = None
    federation: str = ""
    fide_id: str = ""
    title: str = ""
    sex: str = ""
    birth_date: str = ""


@dataclass(frozen=True, slots=True)
class Team:
    """A team: its pairing number (TPN, set by the competition, C.04.6 1.1), name and roster
    in board order, reserves after the regular boards (TRF record 310)."""

    tpn: int
    name: str
    roster: tuple[int, ...] = ()
    nickname: str = ""


@dataclass(frozen=True, slots=True)
class BoardGame:
    """One board of a match: the two players (None for an empty board) and the result, first
    team's player first."""

    board: int
    first_player: int | None
    second_player: int | None
    result: str


@dataclass(frozen=True, slots=True)
class Match:
    """One match of a round; ``white`` has White on board 1 (C.04.6 1.6.1)."""

    round: int
    table: int
    white: int
    black: int
    boards: tuple[BoardGame, ...] = ()
    forfeit: str = ""  # "+-", "-+" or "--": the whole match forfeited (record 330)


@dataclass(frozen=True, slots=True)
class Bye:
    """A team without a match in a round: the pairing-allocated bye (C.04.6 1.4) or a
    requested full-, half- or zero-point bye (record 240 / 320)."""

    round: int
    team: int
    kind: str


@dataclass(frozen=True, slots=True)
class Adjustment:
    """Points added to (or taken from) a team by the arbiter (TRF record 299). From round
    ``round`` on they count in the score used for pairing and tie-breaks; ``standings_only``
    ones (round 999 in the file) count in the final score only, not in tie-breaks."""

    team: int
    round: int
    match_points: Fraction
    game_points: Fraction
    standings_only: bool = False


@dataclass(frozen=True, slots=True)
class ProhibitedPair:
    """Two teams that may not meet in rounds ``first_round`` to ``last_round`` (record 260)."""

    first_round: int
    last_round: int
    teams: tuple[int, int]


@dataclass(frozen=True, slots=True)
class TeamEvent:
    """A team event as far as it has been played (and the byes requested ahead)."""

    name: str
    rounds: int  # scheduled (record 142)
    boards: int
    teams: tuple[Team, ...]
    players: tuple[TeamPlayer, ...] = ()
    matches: tuple[Match, ...] = ()
    byes: tuple[Bye, ...] = ()
    adjustments: tuple[Adjustment, ...] = ()
    scoring: Scoring = field(default_factory=Scoring)
    system: str = SWISS
    colour_preferences: str = "A"  # C.04.6 1.7: "A", "B" or "none"
    initial_colour: str = ""  # C.04.6 4.1: "W" or "B" once drawn
    board_colours: str = ""  # record 352; "" = WBWB... (board 1 White for the first team)
    start_date: dt.date | None = None
    tiebreaks: tuple[str, ...] = ()  # record 202, in order
    prohibited: tuple[ProhibitedPair, ...] = ()

    @property
    def colour_pattern(self) -> str:
        """Record 352: which colour the first team's player has on each board."""
        return self.board_colours or ("WB" * self.boards)[: self.boards]

    @property
    def last_round(self) -> int:
        """The last round with a match or a bye in it (0 before round 1)."""
        rounds = [match.round for match in self.matches] + [bye.round for bye in self.byes]
        return max(rounds, default=0)

    @property
    def played_rounds(self) -> int:
        """The last round with a match or a pairing-allocated bye: byes requested for the
        round about to be paired lie beyond it."""
        rounds = [match.round for match in self.matches]
        rounds += [bye.round for bye in self.byes if bye.kind == PAIRING_BYE]
        return max(rounds, default=0)

    @property
    def round_robin(self) -> bool:
        return self.system != SWISS

    def team(self, tpn: int) -> Team:
        for team in self.teams:
            if team.tpn == tpn:
                return team
        raise TeamEventError(f"there is no team {tpn}")


# -- checking: every bound, every reference --------------------------------------------------


def _check_bounds(event: TeamEvent) -> None:
    if not 1 <= event.rounds <= MAX_ROUNDS:
        raise TeamEventError(f"the number of rounds must be 1 to {MAX_ROUNDS}, not {event.rounds}")
    if not 1 <= event.boards <= MAX_BOARDS:
        raise TeamEventError(f"the number of boards must be 1 to {MAX_BOARDS}, not {event.boards}")
    if not 2 <= len(event.teams) <= MAX_TEAMS:
        raise TeamEventError(f"a team event has 2 to {MAX_TEAMS} teams, not {len(event.teams)}")
    if len(event.players) > MAX_PLAYERS:
        raise TeamEventError(f"a team file holds at most {MAX_PLAYERS} players")
    if len(event.colour_pattern) != event.boards or set(event.colour_pattern) - {"W", "B"}:
        raise TeamEventError("record 352 needs one W or B for each board")
    if len(event.name) > MAX_NAME or any(len(team.name) > MAX_NAME for team in event.teams):
        raise TeamEventError(f"a name has at most {MAX_NAME} characters")


def _check_match(event: TeamEvent, match: Match, tpns: set[int], starts: set[int]) -> None:
    if not 1 <= match.round <= event.rounds:
        raise TeamEventError(f"a match of round {match.round}: the event has {event.rounds} rounds")
    if match.white not in tpns or match.black not in tpns or match.white == match.black:
        raise TeamEventError(f"round {match.round}: a match must be between two teams of the event")
    if match.forfeit and match.forfeit not in MATCH_FORFEITS:
        raise TeamEventError(f"round {match.round}: a forfeited match is +-, -+ or --")
    boards = [game.board for game in match.boards]
    if len(set(boards)) != len(boards) or any(not 1 <= b <= event.boards for b in boards):
        raise TeamEventError(
            f"round {match.round}: each board of a match is 1 to {event.boards}, once"
        )
    for game in match.boards:
        where = f"round {match.round}, board {game.board}"
        if game.result not in BOARD_RESULTS:
            raise TeamEventError(f"{where}: unknown result {game.result[:10]!r}")
        if {game.first_player, game.second_player} - {None} - starts:
            raise TeamEventError(f"{where}: a player who is not a player of the event")


def _check_matches(event: TeamEvent, tpns: set[int], starts: set[int]) -> None:
    seen: set[tuple[int, int]] = set()
    for match in event.matches:
        _check_match(event, match, tpns, starts)
        for team in (match.white, match.black):
            if (match.round, team) in seen:
                raise TeamEventError(f"round {match.round}: team {team} has two matches")
            seen.add((match.round, team))
    for bye in event.byes:
        if bye.kind not in BYE_KINDS or bye.team not in tpns or not 1 <= bye.round <= event.rounds:
            raise TeamEventError(
                f"round {bye.round}: a bye must name a team of the event and a kind"
            )
        if (bye.round, bye.team) in seen:
            raise TeamEventError(
                f"round {bye.round}: team {bye.team} has two matches or a match and a bye"
            )
        seen.add((bye.round, bye.team))


def check_event(event: TeamEvent) -> None:
    """Refuse an event that breaks a bound or names a team or player it does not have."""
    _check_bounds(event)
    tpns = {team.tpn for team in event.teams}
    if tpns != set(range(1, len(event.teams) + 1)):
        raise TeamEventError(
            "the teams' pairing numbers must be 1 to the number of teams, each once"
        )
    starts = {player.start_no for player in event.players}
    if len(starts) != len(event.players) or any(not 1 <= n <= MAX_PLAYERS for n in starts):
        raise TeamEventError(f"players' start numbers must be 1 to {MAX_PLAYERS}, each once")
    rostered = [number for team in event.teams for number in team.roster]
    if len(set(rostered)) != len(rostered) or not set(rostered) <= starts:
        raise TeamEventError(
            "each player of a roster must be a player of the event, in one team only"
        )
    _check_matches(event, tpns, starts)
    for adjustment in event.adjustments:
        if (
            adjustment.team not in tpns
            or abs(adjustment.match_points) > MAX_POINTS
            or abs(adjustment.game_points) > MAX_POINTS
        ):
            raise TeamEventError(
                f"an adjustment must name a team of the event and at most {MAX_POINTS} points"
            )
