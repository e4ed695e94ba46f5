"""A seeded team tournament generator for the differential run (test-only).

gacrux has no team tournament generator, so this one plays the events: every round is paired
by the caller (our engine), then board results are drawn (with board forfeits inside played
matches, whole matches forfeited, requested half and zero byes), and the event's history is
kept the way the engine takes it (:class:`~formats.teams.pairing.model.Team`) and the way the
TRF-2026 team file records it (:meth:`Event.records`, written by :mod:`formats.teams.trf`).

Scoring, as gacrux reads a TRF-2026 team file with its defaults: a board is 1, ½ or 0 game
points, a forfeited board 1 to the team present; a match is won by the team with more game
points (match points 2/1/0, or 3/1/0 by record 362); a forfeited match gives the winner the
match points of a win and a game point per board; the pairing-allocated bye is a drawn match
(C.04.6 1.4: the draw's match points, half the boards in game points; record 320); a
requested half-point bye is a draw too (gacrux's "H" and "HG"), a zero-point bye nothing.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from formats.teams import records as r
from formats.teams.pairing import model as m
from formats.teams.pairing.model import PastRound, Team, TeamPairing, TeamPairingRequest
from formats.teams.trf import write_team_trf
from tests.formats.teams.fide_rows import with_fide_rows

COLOUR_TYPES = (m.TYPE_A, m.TYPE_B, m.NO_PREFERENCES)
# The primary score, and the other one when the competition uses it for colours (1.2).
SCORE_SYSTEMS = ("mp+gp", "gp+mp", "mp", "gp")
BOARD_POINTS = {"1": Fraction(1), "=": Fraction(1, 2), "0": Fraction(0), "+": Fraction(1)}
BOARD_POINTS["-"] = Fraction(0)
OPPOSITE = {"1": "0", "0": "1", "=": "=", "+": "-", "-": "+"}


@dataclass(frozen=True)
class Case:
    """One generated event: its size, its rules and its seed."""

    teams: int
    boards: int
    rounds: int
    seed: int
    colours: str = m.TYPE_A
    scores: str = "mp+gp"
    win_points: int = 2  # match points of a win: 2/1/0 or 3/1/0
    draw_percentage: int = 30
    forfeit_percentage: int = 3  # per board and per match
    bye_percentage: int = 3  # a requested bye, per team and round
    prohibited: int = 0  # prohibited pairs (record 260)

    @property
    def id(self) -> str:
        colours = {m.TYPE_A: "typea", m.TYPE_B: "typeb", m.NO_PREFERENCES: "nocolor"}
        return (
            f"{self.teams}t-{self.boards}b-{self.rounds}r-{colours[self.colours]}-{self.scores}"
            f"-{self.win_points}10-seed{self.seed}"
        )

    @property
    def method(self) -> str:
        """gacrux's ``-m``: the system, the colour preferences, the scores."""
        colours = {m.TYPE_A: "typea", m.TYPE_B: "typeb", m.NO_PREFERENCES: "nocolor"}
        return f"fideteam-{colours[self.colours]}-{self.scores}"


def cases(count: int, seed: int, sizes: tuple[int, int]) -> list[Case]:
    """``count`` events drawn with a fixed seed: sizes, boards, rounds, rules, rates."""
    rng = random.Random(seed)
    drawn = []
    for _ in range(count):
        teams = rng.randint(*sizes)
        drawn.append(
            Case(
                teams=teams,
                boards=rng.randint(2, 6),
                rounds=min(rng.randint(5, 11), max(5, teams // 2 + 1)),
                seed=rng.randint(1, 10**6),
                colours=rng.choice(COLOUR_TYPES),
                scores=rng.choice(SCORE_SYSTEMS),
                win_points=rng.choice((2, 2, 3)),
                draw_percentage=rng.choice((10, 30, 50)),
                forfeit_percentage=rng.choice((0, 3, 8)),
                bye_percentage=rng.choice((0, 3, 6)),
                prohibited=rng.choice((0, 0, 1, 3)),
            )
        )
    return drawn


@dataclass(frozen=True)
class TeamRound:
    """One team's round as it happened: for the engine and for the TRF file."""

    kind: str
    opponent: int | None = None
    white: bool = False  # this team had (or was scheduled to have) White on board 1
    boards: tuple[str, ...] = ()  # this team's result on each board: 1 = 0 + -
    float: str = ""
    match_points: Fraction = Fraction(0)
    game_points: Fraction = Fraction(0)


@dataclass
class Event:
    """A generated event being played, round by round."""

    case: Case
    initial_colour: str
    prohibited: list[tuple[int, int, int, int]]  # first round, last round, team, team
    history: dict[int, dict[int, TeamRound]] = field(default_factory=dict)

    @classmethod
    def start(cls, case: Case) -> Event:
        rng = random.Random(case.seed)
        prohibited = []
        for _ in range(case.prohibited):
            a, b = rng.sample(range(1, case.teams + 1), 2)
            first = rng.randint(1, case.rounds)
            prohibited.append((first, rng.randint(first, case.rounds), min(a, b), max(a, b)))
        event = cls(case, rng.choice((m.WHITE, m.BLACK)), prohibited)
        event.history = {team: {} for team in range(1, case.teams + 1)}
        return event

    # -- scores ------------------------------------------------------------------------------

    def points(self, team: int, before: int) -> tuple[Fraction, Fraction]:
        """(match points, game points) of ``team`` from the rounds before ``before``."""
        rounds = [entry for r, entry in self.history[team].items() if r < before]
        return (
            sum((entry.match_points for entry in rounds), Fraction(0)),
            sum((entry.game_points for entry in rounds), Fraction(0)),
        )

    def scores(self, team: int, before: int) -> tuple[Fraction, Fraction]:
        """(primary, secondary) score (1.2)."""
        match, game = self.points(team, before)
        return (game, match) if self.case.scores.startswith("gp") else (match, game)

    # -- the engine's view -------------------------------------------------------------------

    def past_round(self, round_no: int, entry: TeamRound) -> PastRound:
        if entry.kind != m.PLAYED:
            return PastRound(round_no, entry.kind, opponent=entry.opponent)
        colour = m.WHITE if entry.white else m.BLACK
        return PastRound(round_no, m.PLAYED, entry.opponent, colour, entry.float)

    def request(self, round_no: int, requested: dict[int, str]) -> TeamPairingRequest:
        teams = []
        for team, rounds in sorted(self.history.items()):
            primary, secondary = self.scores(team, round_no)
            past = tuple(self.past_round(r, entry) for r, entry in sorted(rounds.items()))
            teams.append(Team(team, primary, secondary, past))
        prohibited = frozenset(
            frozenset((a, b)) for first, last, a, b in self.prohibited if first <= round_no <= last
        )
        return TeamPairingRequest(
            round=round_no,
            total_rounds=self.case.rounds,
            teams=tuple(teams),
            colour_preferences=self.case.colours,
            use_secondary_score="+" in self.case.scores,
            initial_colour=self.initial_colour,
            requested_byes=tuple(sorted(requested.items())),
            prohibited_pairs=prohibited,
        )

    # -- playing a round ---------------------------------------------------------------------

    def requested_byes(self, rng: random.Random) -> dict[int, str]:
        """Requested byes for the round: a few teams, half or zero."""
        chosen = {}
        for team in self.history:
            if rng.randrange(100) < self.case.bye_percentage:
                chosen[team] = rng.choice((m.BYE_HALF, m.BYE_ZERO))
        if len(chosen) > self.case.teams // 4:
            chosen = dict(sorted(chosen.items())[: self.case.teams // 4])
        return chosen

    def _board_result(self, rng: random.Random) -> str:
        if rng.randrange(100) < self.case.forfeit_percentage:
            return rng.choice("+-")
        if rng.randrange(100) < self.case.draw_percentage:
            return "="
        return rng.choice("10")

    def _match_boards(self, rng: random.Random) -> tuple[str, ...]:
        """The white team's board results: a whole match forfeited, or boards played with
        the odd board forfeited."""
        if rng.randrange(100) < self.case.forfeit_percentage:
            return (rng.choice("+-"),) * self.case.boards
        boards = [self._board_result(rng) for _ in range(self.case.boards)]
        if all(result in "+-" for result in boards):
            boards[0] = rng.choice("10=")  # a played match has a board played
        return tuple(boards)

    def _match_points(self, mine: Fraction, theirs: Fraction) -> Fraction:
        if mine > theirs:
            return Fraction(self.case.win_points)
        return Fraction(1) if mine == theirs else Fraction(0)

    def _side(
        self, round_no: int, team: int, opponent: int, white: bool, boards: tuple[str, ...]
    ) -> TeamRound:
        played = any(result in "10=" for result in boards)
        mine = sum((BOARD_POINTS[r] for r in boards), Fraction(0))
        theirs = sum((BOARD_POINTS[OPPOSITE[r]] for r in boards), Fraction(0))
        kind = m.PLAYED
        if not played:
            kind = m.FORFEIT_WIN if mine > theirs else m.FORFEIT_LOSS
        own, other = self.scores(team, round_no)[0], self.scores(opponent, round_no)[0]
        drift = "" if not played or own == other else (m.FLOAT_UP if own < other else m.FLOAT_DOWN)
        return TeamRound(
            kind=kind,
            opponent=opponent,
            white=white,
            boards=boards,
            float=drift,
            match_points=self._match_points(mine, theirs),
            game_points=mine,
        )

    def _bye(self, kind: str) -> TeamRound:
        boards = Fraction(self.case.boards)
        if kind == m.PAIRING_BYE or kind == m.HALF_BYE:
            return TeamRound(kind, match_points=Fraction(1), game_points=boards / 2)
        return TeamRound(kind)

    def record(
        self,
        round_no: int,
        matches: Sequence[tuple[int, int, tuple[str, ...]]],
        pairing_bye: int | None,
        requested: Mapping[int, str],
    ) -> None:
        """Add a round to the history: ``(white, black, white's board results)`` per match,
        the pairing-allocated bye, the requested byes."""
        entries: dict[int, TeamRound] = {}
        for white, black, boards in matches:
            theirs = tuple(OPPOSITE[result] for result in boards)
            entries[white] = self._side(round_no, white, black, True, boards)
            entries[black] = self._side(round_no, black, white, False, theirs)
        if pairing_bye is not None:
            entries[pairing_bye] = self._bye(m.PAIRING_BYE)
        for team, kind in requested.items():
            entries[team] = self._bye(m.HALF_BYE if kind == m.BYE_HALF else m.ZERO_BYE)
        for team, entry in entries.items():
            self.history[team][round_no] = entry

    def play(
        self,
        round_no: int,
        pairing: TeamPairing,
        requested: Mapping[int, str],
        rng: random.Random,
    ) -> None:
        """Draw the results of the round as paired and add them to the history."""
        matches = [(match.white, match.black, self._match_boards(rng)) for match in pairing.matches]
        self.record(round_no, matches, pairing.pairing_bye, requested)


# -- the event as team records (for formats.teams.trf and the tie-breaks) ---------------------

_BOARD_RESULTS = {"1": r.WIN, "=": r.DRAW, "0": r.LOSS, "+": r.FORFEIT_WIN, "-": r.FORFEIT_LOSS}
_BYES = {m.PAIRING_BYE: r.PAIRING_BYE, m.HALF_BYE: r.HALF_BYE, m.ZERO_BYE: r.ZERO_BYE}


def player_no(case: Case, team: int, board: int) -> int:
    """Player ``(team-1)*boards + board`` plays board ``board`` of ``team`` every round."""
    return (team - 1) * case.boards + board


def _match(case: Case, round_no: int, white: int, entry: TeamRound) -> r.Match:
    assert entry.opponent is not None
    games = tuple(
        r.BoardGame(
            board,
            player_no(case, white, board),
            player_no(case, entry.opponent, board),
            _BOARD_RESULTS[result],
        )
        for board, result in enumerate(entry.boards, start=1)
    )
    forfeit = {m.FORFEIT_WIN: "+-", m.FORFEIT_LOSS: "-+"}.get(entry.kind, "")
    return r.Match(round_no, 0, white, entry.opponent, games, forfeit)


def records(event: Event, before: int, requested: Mapping[int, str] | None = None) -> r.TeamEvent:
    """Rounds 1 .. before-1 of ``event`` as a :class:`~formats.teams.records.TeamEvent`, with
    the byes requested for round ``before``."""
    case = event.case
    matches, byes = [], []
    for round_no in range(1, before):
        for team, rounds in sorted(event.history.items()):
            entry = rounds.get(round_no)
            if entry is None:
                continue
            if entry.opponent is not None and entry.white:
                matches.append(_match(case, round_no, team, entry))
            elif entry.kind in _BYES:
                byes.append(r.Bye(round_no, team, _BYES[entry.kind]))
    for team, kind in sorted((requested or {}).items()):
        byes.append(r.Bye(before, team, r.HALF_BYE if kind == m.BYE_HALF else r.ZERO_BYE))
    primary = r.GAME_POINTS if case.scores.startswith("gp") else r.MATCH_POINTS
    return r.TeamEvent(
        name=f"Generated team event {case.id}",
        rounds=case.rounds,
        boards=case.boards,
        teams=tuple(
            r.Team(
                team,
                f"Team {team}",
                tuple(player_no(case, team, b) for b in range(1, case.boards + 1)),
            )
            for team in range(1, case.teams + 1)
        ),
        players=tuple(
            r.TeamPlayer(
                player_no(case, team, board),
                f"Player {team}.{board}",
                2000,
                "NOR",
                str(100000 + player_no(case, team, board)),
                sex="m",
                birth_date="1990/01/01",
            )
            for team in range(1, case.teams + 1)
            for board in range(1, case.boards + 1)
        ),  # fmt: skip
        matches=tuple(matches),
        byes=tuple(byes),
        scoring=r.Scoring(
            match_win=Fraction(case.win_points),
            primary=primary,
            secondary_for_colours="+" in case.scores,
        ),
        colour_preferences=case.colours,
        initial_colour=event.initial_colour.upper(),
        prohibited=tuple(
            r.ProhibitedPair(first, last, (a, b)) for first, last, a, b in event.prohibited
        ),
    )


def team_trf(event: Event, before: int, requested: Mapping[int, str] | None = None) -> str:
    """The event's TRF-2026 team file for pairing round ``before``: rounds 1 .. before-1 and
    the round's requested byes (:mod:`formats.teams.trf`), with the player rows FIDE's sample
    and gacrux write for rounds without a board (:mod:`tests.formats.teams.fide_rows`)."""
    played = records(event, before, requested)
    return with_fide_rows(write_team_trf(played), played)
