"""Hand-made team events for the table-driven tests (test-only).

A past round is one line: ``"1-4:1= 2-5:== 3-6:++ bye:7 half:8 zero:9"`` is team 1 (White on
board 1) against team 4, team 1 scoring 1 and ½ on boards 1 and 2; team 2 against team 5, both
boards drawn; team 6 forfeiting the whole match to team 3; the pairing-allocated bye to team
7; team 8 on a requested half-point bye and team 9 on a zero-point bye. The history need not
be a pairing the rules would have made: it is only data. The same event is given to our
engine (as :class:`~formats.teams.pairing.model.TeamPairingRequest`) and to gacrux (as a
TRF-2026 team file), so each expected answer, reasoned by hand from the text, is checked
against both.
"""

from __future__ import annotations

from dataclasses import dataclass

from formats.teams.pairing import PairingImpossible, pair_team_round
from formats.teams.pairing import model as m
from formats.teams.pairing.model import TeamPairingRequest
from tests.formats.teams.pairing.generator import Case, Event, team_trf
from tests.formats.teams.pairing.oracle import Gacrux, OracleAnswer

Round = tuple[list[tuple[int, int, tuple[str, ...]]], int | None, dict[int, str]]


def parse_round(text: str) -> Round:
    matches: list[tuple[int, int, tuple[str, ...]]] = []
    bye = None
    requested: dict[int, str] = {}
    for token in text.split():
        head, _, tail = token.partition(":")
        if head == "bye":
            bye = int(tail)
        elif head in (m.BYE_HALF, m.BYE_ZERO):
            requested[int(tail)] = head
        else:
            white, _, black = head.partition("-")
            matches.append((int(white), int(black), tuple(tail)))
    return matches, bye, requested


@dataclass(frozen=True)
class Scripted:
    """An event with ``teams`` teams, its past ``rounds``, and the round to pair next."""

    teams: int
    rounds: tuple[str, ...] = ()
    total_rounds: int = 5
    boards: int = 2
    colours: str = m.TYPE_A
    scores: str = "mp+gp"
    win_points: int = 2
    initial_colour: str = m.WHITE
    requested: str = ""  # this round's requested byes, e.g. "half:3 zero:4"
    prohibited: tuple[tuple[int, int, int, int], ...] = ()  # first, last round, team, team

    @property
    def round(self) -> int:
        return len(self.rounds) + 1

    def case(self) -> Case:
        return Case(
            teams=self.teams,
            boards=self.boards,
            rounds=self.total_rounds,
            seed=0,
            colours=self.colours,
            scores=self.scores,
            win_points=self.win_points,
        )

    def event(self) -> Event:
        event = Event(self.case(), self.initial_colour, list(self.prohibited))
        event.history = {team: {} for team in range(1, self.teams + 1)}
        for round_no, text in enumerate(self.rounds, start=1):
            event.record(round_no, *parse_round(text))
        return event

    def requested_byes(self) -> dict[int, str]:
        return parse_round(self.requested)[2]

    def request(self) -> TeamPairingRequest:
        return self.event().request(self.round, self.requested_byes())

    def trf(self) -> str:
        return team_trf(self.event(), self.round, self.requested_byes())


def render(answer: OracleAnswer) -> str:
    """``"4-1 2-5 bye:3"``: the matches in table order, White first, then the bye."""
    if answer.impossible:
        return "impossible"
    text = " ".join(f"{white}-{black}" for white, black in answer.matches)
    return text + (f" bye:{answer.bye}" if answer.bye is not None else "")


def ours(script: Scripted) -> str:
    try:
        pairing = pair_team_round(script.request())
    except PairingImpossible:
        return render(OracleAnswer((), None, impossible=True))
    matches = tuple((match.white, match.black) for match in pairing.matches)
    return render(OracleAnswer(matches, pairing.pairing_bye))


def theirs(oracle: Gacrux, script: Scripted) -> str:
    return render(oracle.pair(script.trf(), script.round, script.case().method))
