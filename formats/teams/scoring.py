"""Scoring a team event: match points, game points, byes, forfeits, adjustments (exact).

FIDE C.04.6 (2026) 1.2-1.4 and C.07 (2024/2026) art. 11, as FIDE's reference engine gacrux
reads them (``docs/teams.md``, "Team tie-breaks: the readings taken"):

* a board is ``game_win`` / ``game_draw`` / ``game_loss`` game points; a board forfeit gives the
  present player a win's points and the absent one nothing (C.07 11.1);
* a match is won by the team with more game points (C.07 11.2: match points, default 2/1/0 or
  3/1/0 by the competition); equal game points are a draw when both teams scored;
* a match is *played* when a board of it was played (or when both teams scored, which only a
  mixed all-forfeit match can do); a match not played is a forfeit: the team with more game
  points has a forfeit win, worth a win's match points; the other scores nothing, not even a
  loss's match points (C.07 16.2: a forfeit loss is a voluntary unplayed round);
* a whole match forfeited (``+-``, ``-+``, ``--``, TRF record 330): the present team gets a
  win's match points and a win on every board;
* the pairing-allocated bye (C.04.6 1.4): the competition's points, by default a drawn match
  (the draw's match points, half the boards' game points); a full-point bye a won match, a
  half-point bye a drawn one, a zero-point bye or an absence nothing;
* adjustments (record 299) are added from their round on; standings-only ones only to the
  final score.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from formats.teams import records as r

PLAYED = "played"
FORFEIT_WIN = "forfeit_win"
FORFEIT_LOSS = "forfeit_loss"
DOUBLE_FORFEIT = "double_forfeit"
ABSENT = "absent"  # no match and no bye in the round (C.07 16.2: a voluntary unplayed round)
BYE_ROUND_KINDS = {
    r.PAIRING_BYE: "pairing_bye",
    r.FULL_BYE: "full_bye",
    r.HALF_BYE: "half_bye",
    r.ZERO_BYE: "zero_bye",
}
# C.07 16.2: what the team chose not to play (forfeit losses, requested half and zero byes,
# absences); a forfeit win, a full-point bye and the pairing-allocated bye are not.
VOLUNTARY = frozenset({FORFEIT_LOSS, DOUBLE_FORFEIT, ABSENT, "half_bye", "zero_bye"})

_FIRST_POINTS = {
    r.WIN: ("win", "loss"),
    r.DRAW: ("draw", "draw"),
    r.LOSS: ("loss", "win"),
    r.FORFEIT_WIN: ("win", None),
    r.FORFEIT_LOSS: (None, "win"),
    r.DOUBLE_FORFEIT: (None, None),
}


@dataclass(frozen=True, slots=True)
class TeamRound:
    """One round of one team, scored.

    ``boards`` holds the game points the team is credited with on each board 1..B (what board
    count, TBR and BBE add up, C.07 art. 13); for a round without a played match they are the
    round's result spread over every board, the pairing-allocated bye counting as a win on
    each board as gacrux counts it.
    """

    round: int
    kind: str
    opponent: int | None
    white: bool
    match_points: Fraction
    game_points: Fraction
    boards: tuple[Fraction, ...]
    # The match's board games as (board, this team's game points), forfeited boards included;
    # empty for a bye and for a match forfeited as a whole (record 330 without boards).
    games: tuple[tuple[int, Fraction], ...] = ()
    # The boards of ``games`` played over the board (no board forfeit).
    played_boards: frozenset[int] = frozenset()

    @property
    def played(self) -> bool:
        return self.kind == PLAYED

    @property
    def voluntary_unplayed(self) -> bool:
        """C.07 16.2: a voluntary unplayed round (VUR)."""
        return self.kind in VOLUNTARY

    @property
    def has_opponent(self) -> bool:
        return self.opponent is not None


@dataclass(frozen=True, slots=True)
class TeamScore:
    match_points: Fraction
    game_points: Fraction


def game_points(result: str, first: bool, scoring: r.Scoring) -> Fraction:
    """A board's game points for the first (or second) team's player (C.07 11.1)."""
    outcome = _FIRST_POINTS[result][0 if first else 1]
    if outcome is None:
        return Fraction(0)
    return {"win": scoring.game_win, "draw": scoring.game_draw, "loss": scoring.game_loss}[outcome]


def _match_outcome(
    mine: Fraction, theirs: Fraction, played: bool, scoring: r.Scoring
) -> tuple[str, Fraction]:
    if mine > theirs:
        return (PLAYED if played else FORFEIT_WIN), scoring.match_win
    if mine == theirs and mine > 0 and theirs > 0:
        return PLAYED, scoring.match_draw
    if played:
        return PLAYED, scoring.match_loss
    return (DOUBLE_FORFEIT if mine == theirs else FORFEIT_LOSS), Fraction(0)


def _board_points(match: r.Match, first: bool, event: r.TeamEvent) -> tuple[Fraction, ...]:
    points = [Fraction(0)] * event.boards
    for game in match.boards:
        if 1 <= game.board <= event.boards:
            points[game.board - 1] += game_points(game.result, first, event.scoring)
    return tuple(points)


def _forfeited_rounds(match: r.Match, event: r.TeamEvent) -> tuple[TeamRound, TeamRound]:
    """A match forfeited as a whole (record 330): the present team a win on every board."""
    scoring = event.scoring
    sides = []
    for first, mark in ((True, match.forfeit[0]), (False, match.forfeit[1])):
        present = mark == "+"
        per_board = scoring.game_win if present else Fraction(0)
        kind = (
            FORFEIT_WIN if present else (DOUBLE_FORFEIT if match.forfeit == "--" else FORFEIT_LOSS)
        )
        opponent = match.black if first else match.white
        mp = scoring.match_win if present else Fraction(0)
        games = tuple((g.board, game_points(g.result, first, scoring)) for g in match.boards)
        sides.append(
            TeamRound(
                match.round, kind, opponent, first, mp, per_board * event.boards,
                (per_board,) * event.boards, games,
            )
        )  # fmt: skip
    return sides[0], sides[1]


def _match_rounds(match: r.Match, event: r.TeamEvent) -> tuple[TeamRound, TeamRound]:
    scoring = event.scoring
    if match.forfeit:
        return _forfeited_rounds(match, event)
    first_boards = _board_points(match, True, event)
    second_boards = _board_points(match, False, event)
    first_games = tuple((g.board, game_points(g.result, True, scoring)) for g in match.boards)
    second_games = tuple((g.board, game_points(g.result, False, scoring)) for g in match.boards)
    mine, theirs = sum(first_boards, Fraction(0)), sum(second_boards, Fraction(0))
    played = any(game.result in r.PLAYED_RESULTS for game in match.boards)
    played = played or (mine > 0 and theirs > 0)
    first_kind, first_mp = _match_outcome(mine, theirs, played, scoring)
    second_kind, second_mp = _match_outcome(theirs, mine, played, scoring)
    over_the_board = frozenset(g.board for g in match.boards if g.result in r.PLAYED_RESULTS)
    return (
        TeamRound(
            match.round, first_kind, match.black, True, first_mp, mine, first_boards,
            first_games, over_the_board,
        ),
        TeamRound(
            match.round, second_kind, match.white, False, second_mp, theirs, second_boards,
            second_games, over_the_board,
        ),
    )  # fmt: skip


def bye_points(kind: str, event: r.TeamEvent) -> TeamScore:
    """The points of a bye (C.04.6 1.4 for the pairing-allocated one)."""
    scoring, boards = event.scoring, event.boards
    if kind == r.PAIRING_BYE:
        mp = scoring.pairing_bye_match_points
        gp = scoring.pairing_bye_game_points
        return TeamScore(
            scoring.match_draw if mp is None else mp,
            scoring.game_draw * boards if gp is None else gp,
        )
    if kind == r.FULL_BYE:
        return TeamScore(scoring.match_win, scoring.game_win * boards)
    if kind == r.HALF_BYE:
        return TeamScore(scoring.match_draw, scoring.game_draw * boards)
    return TeamScore(Fraction(0), Fraction(0))


def _bye_round(bye: r.Bye, event: r.TeamEvent) -> TeamRound:
    score = bye_points(bye.kind, event)
    per_board = {
        r.PAIRING_BYE: event.scoring.game_win,  # gacrux: the bye's boards count as won
        r.FULL_BYE: event.scoring.game_win,
        r.HALF_BYE: event.scoring.game_draw,
    }.get(bye.kind, Fraction(0))
    kind = BYE_ROUND_KINDS[bye.kind]
    return TeamRound(
        bye.round,
        kind,
        None,
        False,
        score.match_points,
        score.game_points,
        (per_board,) * event.boards,
    )


def team_rounds(event: r.TeamEvent, after_round: int) -> dict[int, tuple[TeamRound, ...]]:
    """Every team's rounds 1..``after_round``, scored; a round with neither a match nor a bye
    is an absence (zero points, C.07 16.2)."""
    found: dict[int, dict[int, TeamRound]] = {team.tpn: {} for team in event.teams}
    for match in event.matches:
        if match.round <= after_round:
            first, second = _match_rounds(match, event)
            found[match.white][match.round] = first
            found[match.black][match.round] = second
    for bye in event.byes:
        if bye.round <= after_round and bye.round not in found[bye.team]:
            found[bye.team][bye.round] = _bye_round(bye, event)
    nothing = (Fraction(0),) * event.boards
    return {
        tpn: tuple(
            rounds.get(n) or TeamRound(n, ABSENT, None, False, Fraction(0), Fraction(0), nothing)
            for n in range(1, after_round + 1)
        )
        for tpn, rounds in found.items()
    }


def adjustments(event: r.TeamEvent, after_round: int, *, final: bool) -> dict[int, TeamScore]:
    """Each team's adjustments (record 299) of one kind: with ``final``, the standings-only
    ones, which the final score adds to :func:`scores`; else those of the rounds up to
    ``after_round``, which :func:`scores` holds already (so a regular adjustment is never
    counted twice)."""
    totals = {team.tpn: TeamScore(Fraction(0), Fraction(0)) for team in event.teams}
    for adjustment in event.adjustments:
        if final:
            counts = adjustment.standings_only
        else:
            counts = not adjustment.standings_only and adjustment.round <= after_round
        if counts:
            before = totals[adjustment.team]
            totals[adjustment.team] = TeamScore(
                before.match_points + adjustment.match_points,
                before.game_points + adjustment.game_points,
            )
    return totals


def scores(
    event: r.TeamEvent, after_round: int, rounds: Mapping[int, tuple[TeamRound, ...]] | None = None
) -> dict[int, TeamScore]:
    """Each team's match and game points after ``after_round``, with the adjustments that count
    for pairing and tie-breaks (not the standings-only ones)."""
    rounds = team_rounds(event, after_round) if rounds is None else rounds
    adjusted = adjustments(event, after_round, final=False)
    return {
        tpn: TeamScore(
            sum((one.match_points for one in team), Fraction(0)) + adjusted[tpn].match_points,
            sum((one.game_points for one in team), Fraction(0)) + adjusted[tpn].game_points,
        )
        for tpn, team in rounds.items()
    }


def primary(score: TeamScore, scoring: r.Scoring) -> Fraction:
    """The primary score (C.04.6 1.2): match points unless the competition says game points."""
    return score.match_points if scoring.primary == r.MATCH_POINTS else score.game_points


def secondary(score: TeamScore, scoring: r.Scoring) -> Fraction:
    return score.game_points if scoring.primary == r.MATCH_POINTS else score.match_points
