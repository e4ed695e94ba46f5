"""The differential run: every round of a generated team event, gacrux against us.

Shared by the tests (a seeded subset by default, the full set under ``team_pairing_full``)
and by ``bench/team_pairing.py``. Test-only. For each round: the requested byes are drawn, the
event so far is written as a TRF-2026 team file and gacrux pairs the round from it; our engine
pairs the same round from the same history; the matches (White on board 1 first, in table
order) and the pairing-allocated bye must be equal. The round is then played as our engine
paired it, so one disagreement does not hide the rounds after it.
"""

from __future__ import annotations

import random
import re
import time
from collections import Counter
from dataclasses import dataclass, field

from formats.teams.pairing import PairingImpossible, TeamPairing, pair_team_round
from formats.teams.pairing import model as m
from tests.formats.teams.pairing.generator import Case, Event, team_trf
from tests.formats.teams.pairing.oracle import Gacrux, OracleAnswer
from tests.tallies import register


@dataclass
class Outcome:
    rounds: int = 0
    mismatches: list[str] = field(default_factory=list)
    skipped: int = 0  # rounds after one that both found impossible to pair (3.3.3)
    gacrux_seconds: float = 0.0
    our_seconds: float = 0.0
    exercised: Counter[str] = field(default_factory=Counter)


@dataclass
class Tally:
    """What the differential run compared, against what the selected cases should give."""

    events: int = 0
    rounds: int = 0
    expected_events: int = 0
    expected_rounds: int = 0
    ran: bool = False
    mismatched_rounds: int = 0
    skipped_rounds: int = 0
    exercised: Counter[str] = field(default_factory=Counter)

    def expect(self, case: Case) -> None:
        self.expected_events += 1
        self.expected_rounds += case.rounds

    def record(self, outcome: Outcome) -> None:
        self.ran = True
        self.events += 1
        self.rounds += outcome.rounds
        self.mismatched_rounds += len(outcome.mismatches)
        self.skipped_rounds += outcome.skipped
        self.exercised.update(outcome.exercised)

    def complete(self) -> bool:
        compared = (self.events, self.rounds + self.skipped_rounds)
        return compared == (self.expected_events, self.expected_rounds)

    def summary(self) -> str:
        verdict = "as selected" if self.complete() else "MISSING some"
        return (
            f"differential against gacrux (C.04.6): {self.events} events, {self.rounds} rounds "
            f"compared, {self.mismatched_rounds} differing, {self.skipped_rounds} not played "
            f"after a round both found impossible (selected: {self.expected_events} events, "
            f"{self.expected_rounds} rounds; {verdict}); exercised: "
            + ", ".join(f"{key} {count}" for key, count in sorted(self.exercised.items()))
        )


TALLY = register("team-pairing", Tally())


def _ours(
    event: Event, round_no: int, requested: dict[int, str]
) -> tuple[OracleAnswer, TeamPairing | None]:
    try:
        pairing = pair_team_round(event.request(round_no, requested))
    except PairingImpossible:
        return OracleAnswer((), None, impossible=True), None
    matches = tuple((match.white, match.black) for match in pairing.matches)
    return OracleAnswer(matches, pairing.pairing_bye), pairing


def exercised(pairing: TeamPairing, requested: dict[int, str]) -> Counter[str]:
    """What a round put to the test: the colour rules that decided, the criteria that cost
    something, upfloaters, byes."""
    seen: Counter[str] = Counter(match.colour_rule for match in pairing.matches)
    for group in pairing.score_groups:
        seen["brackets with upfloaters"] += bool(group.upfloaters)
        for concession in group.concessions:
            seen.update(re.findall(r"\((C\d+)\)", concession))
    seen["pairing-allocated byes"] += pairing.pairing_bye is not None
    seen["requested byes"] += len(requested)
    return seen


def _forfeits(event: Event, round_no: int) -> int:
    return sum(rounds[round_no].kind == m.FORFEIT_WIN for rounds in event.history.values())


def run_case(oracle: Gacrux, case: Case) -> Outcome:
    """Play ``case`` round by round, pairing each round both ways."""
    event = Event.start(case)
    rng = random.Random(case.seed * 7919 + 1)
    outcome = Outcome()
    for round_no in range(1, case.rounds + 1):
        requested = event.requested_byes(rng)
        start = time.perf_counter()
        theirs = oracle.pair(team_trf(event, round_no, requested), round_no, case.method)
        outcome.gacrux_seconds += time.perf_counter() - start
        start = time.perf_counter()
        ours, pairing = _ours(event, round_no, requested)
        outcome.our_seconds += time.perf_counter() - start
        outcome.rounds += 1
        if ours != theirs:
            outcome.mismatches.append(f"round {round_no}: gacrux {theirs} ours {ours}")
        if pairing is None or theirs.impossible:
            outcome.skipped = case.rounds - round_no  # nothing can be played after it
            break
        outcome.exercised.update(exercised(pairing, requested))
        event.play(round_no, pairing, requested, rng)
        outcome.exercised["forfeited matches"] += _forfeits(event, round_no)
    return outcome
