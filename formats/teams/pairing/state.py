"""Each team's pairing state before the round, read off its past rounds.

C.04.6 (2026) 1.5 (floaters), 1.6 (colour, colour difference), 1.7 (colour preferences, Type A
and Type B), 2.1 (the absolute criteria C1 and C2), and C.04.2 3.4 (only played matches count
where the colour sequence matters) and 3.5 (teams whose match was not played may meet again).
Also the validation of the request: every input is bounded and a refusal is one line.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from formats.teams.pairing.model import (
    BLACK,
    FLOAT_DOWN,
    FLOAT_UP,
    FORFEIT_WIN,
    FULL_BYE,
    MAX_ROUNDS,
    MAX_SCORE,
    MAX_SCORE_DENOMINATOR,
    MAX_TEAMS,
    NO_PREFERENCES,
    PAIRING_BYE,
    PLAYED,
    PREFERENCE_TYPES,
    REQUESTED_BYE_KINDS,
    ROUND_KINDS,
    TYPE_B,
    WHITE,
    PastRound,
    Team,
    TeamPairingError,
    TeamPairingRequest,
)

# C.04.6 2.1.2 [C2]: "a team that has already received a pairing-allocated bye or won a match
# by forfeit (or been given a FIDE-deprecated full-point bye) shall not receive" another.
BARS_THE_BYE = frozenset({PAIRING_BYE, FORFEIT_WIN, FULL_BYE})


@dataclass(frozen=True, slots=True)
class TeamState:
    """A team to be paired, as C.04.6 sees it before the round."""

    number: int  # TPN (1.1)
    score: Fraction  # primary score (1.2): score groups, upfloaters, table order
    secondary_score: Fraction  # 4.2.2
    colours: tuple[str, ...]  # board 1's colour in each played match, oldest first (1.6.1)
    preference: str  # WHITE, BLACK or "" (1.7)
    strong: bool  # a simple (Type A) or strong (Type B) preference, not a mild one
    opponents: frozenset[int]  # teams met in played matches (C1; C.04.2 3.5)
    bye_barred: bool  # C2
    floated: bool  # a floater in the previous round (1.5; C7, C10)

    @property
    def colour_difference(self) -> int:
        """1.6.2: matches with White minus matches with Black."""
        return self.colours.count(WHITE) - self.colours.count(BLACK)

    @property
    def played_matches(self) -> int:
        """3.4.3 counts the matches played: a forfeited match is not one (1.6.1)."""
        return len(self.colours)


def colour_preference(
    colours: tuple[str, ...], preference_type: str, last_round: bool
) -> tuple[str, bool]:
    """C.04.6 1.7: the colour preference and whether it is simple/strong (True) or mild.

    1.7.1 (Type A), simple: White when the colour difference is below −1, or it is 0 or −1
    and the last two played matches were with Black; Black symmetrically; otherwise none.
    1.7.2 (Type B): the same conditions give a strong preference; otherwise a mild one for
    White at a difference of −1, or at 0 with Black last "if it is not the last round"
    (Black symmetrically); none before the first played match, or at 0 in the last round.
    Where the strong and the last-round clauses overlap (a difference of 0 and the same
    colour twice, last round), the strong preference stands: the "no preference" sentence
    closes the mild clauses only (gacrux's reading; docs/teams.md, A1).
    """
    if preference_type == NO_PREFERENCES or not colours:
        return "", False
    difference = colours.count(WHITE) - colours.count(BLACK)
    last_two = colours[-2:]
    if difference < -1 or (difference in (0, -1) and last_two == (BLACK, BLACK)):
        return WHITE, True
    if difference > 1 or (difference in (0, 1) and last_two == (WHITE, WHITE)):
        return BLACK, True
    if preference_type != TYPE_B:
        return "", False
    if difference == -1:
        return WHITE, False
    if difference == 1:
        return BLACK, False
    if not last_round:
        return (WHITE if colours[-1] == BLACK else BLACK), False
    return "", False


def team_state(team: Team, request: TeamPairingRequest) -> TeamState:
    """The team's state for round ``request.round`` (its history holds earlier rounds only)."""
    played = [past for past in team.history if past.kind == PLAYED]
    colours = tuple(past.colour for past in played)
    preference, strong = colour_preference(
        colours, request.colour_preferences, request.round == request.total_rounds
    )
    previous = next((past for past in team.history if past.round == request.round - 1), None)
    return TeamState(
        number=team.number,
        score=team.score,
        secondary_score=team.secondary_score,
        colours=colours,
        preference=preference,
        strong=strong,
        opponents=frozenset(past.opponent for past in played if past.opponent is not None),
        bye_barred=any(past.kind in BARS_THE_BYE for past in team.history),
        # 1.5: a floater plays an opponent with a different score; a bye is no match.
        floated=previous is not None and previous.kind == PLAYED and bool(previous.float),
    )


# -- validation ---------------------------------------------------------------------------


def _refuse(message: str) -> TeamPairingError:
    return TeamPairingError(message)


def _check_score(value: object, what: str) -> None:
    if not isinstance(value, Fraction):
        raise _refuse(f"{what} must be an exact Fraction, not {type(value).__name__}")
    if value < 0 or value > MAX_SCORE or value.denominator > MAX_SCORE_DENOMINATOR:
        raise _refuse(f"{what} {value} is outside 0..{MAX_SCORE} in steps of 1/100 or coarser")


def _check_past_round(past: PastRound, team: int, numbers: set[int], round_no: int) -> None:
    where = f"team {team}, round {past.round}"
    if not 1 <= past.round < round_no:
        raise _refuse(f"{where}: a past round must be before round {round_no}")
    if past.kind not in ROUND_KINDS:
        raise _refuse(f"{where}: unknown kind {past.kind!r}")
    has_opponent = past.kind in (PLAYED, FORFEIT_WIN) or past.opponent is not None
    if has_opponent and (past.opponent not in numbers or past.opponent == team):
        raise _refuse(f"{where}: the opponent {past.opponent} is not another team of the event")
    if (past.kind == PLAYED) != (past.colour in (WHITE, BLACK)):
        raise _refuse(f"{where}: a colour (w/b) is given for a played match and only then")
    if past.float not in ("", FLOAT_UP, FLOAT_DOWN) or (past.float and past.kind != PLAYED):
        raise _refuse(f"{where}: a float (up/down) belongs to a played match only")


def _check_team(team: Team, numbers: set[int], round_no: int) -> None:
    _check_score(team.score, f"team {team.number}'s score")
    _check_score(team.secondary_score, f"team {team.number}'s secondary score")
    if len(team.history) >= round_no:
        raise _refuse(f"team {team.number} has more past rounds than rounds before {round_no}")
    seen: set[int] = set()
    for past in team.history:
        _check_past_round(past, team.number, numbers, round_no)
        if past.round in seen:
            raise _refuse(f"team {team.number} has round {past.round} twice")
        seen.add(past.round)


def _check_numbers(teams: Iterable[Team]) -> set[int]:
    numbers = [team.number for team in teams]
    if not 2 <= len(numbers) <= MAX_TEAMS:
        raise _refuse(f"a team event needs 2 to {MAX_TEAMS} teams, not {len(numbers)}")
    if sorted(numbers) != list(range(1, len(numbers) + 1)):
        # 1.1.1: "each team must have a different TPN, from 1 to the [...] number of teams".
        raise _refuse("team pairing numbers must be 1 to the number of teams, each once (1.1.1)")
    return set(numbers)


def _check_round(request: TeamPairingRequest) -> None:
    if not 1 <= request.total_rounds <= MAX_ROUNDS:
        raise _refuse(f"the number of rounds must be 1 to {MAX_ROUNDS}")
    if not 1 <= request.round <= request.total_rounds:
        raise _refuse(f"round {request.round} is outside 1..{request.total_rounds}")
    if request.colour_preferences not in PREFERENCE_TYPES:
        raise _refuse(f"colour preferences must be one of {', '.join(PREFERENCE_TYPES)}")
    if request.initial_colour not in (WHITE, BLACK):
        raise _refuse("the initial colour must be 'w' or 'b'")


def _check_requests(request: TeamPairingRequest, numbers: set[int]) -> None:
    requested = [team for team, _ in request.requested_byes]
    if len(set(requested)) != len(requested):
        raise _refuse("a team has more than one requested bye this round")
    for team, kind in request.requested_byes:
        if team not in numbers or kind not in REQUESTED_BYE_KINDS:
            raise _refuse(f"requested bye ({team}, {kind!r}): a team and 'half' or 'zero'")
    if not request.absent <= numbers:
        raise _refuse("an absent team is not a team of the event")
    for pair in request.prohibited_pairs:
        if len(pair) != 2 or not pair <= numbers:
            raise _refuse(f"prohibited pair {sorted(pair)} does not name two teams")


def validate(request: TeamPairingRequest) -> None:
    """Refuse a malformed or out-of-bounds request with a one-line reason."""
    _check_round(request)
    numbers = _check_numbers(request.teams)
    for team in request.teams:
        _check_team(team, numbers, request.round)
    _check_requests(request, numbers)
