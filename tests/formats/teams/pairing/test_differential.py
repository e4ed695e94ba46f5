"""Differential tests: the engine gives exactly gacrux's pairing on generated team events.

Every round of each event is paired by both from the same data (the rounds before it, the
round's requested byes, prohibited pairs); the matches (White on board 1), their table order
and the pairing-allocated bye must be equal. The default run is a seeded subset; the full run
is ``pytest -m team_pairing_full tests/formats/teams/pairing`` (``make
test-team-pairing-full``). Each test checks that every round of its event was compared, and
the run prints and checks the totals (``conftest.py``). The events vary as C.04.6 lets a
competition vary: 8–40 teams (a few larger in the full run), 2–6 boards, 5–11 rounds, odd and
even fields, Type A, Type B and no colour preferences, match or game points as the primary
score with or without the other for colours, 2/1/0 or 3/1/0 match points, board forfeits,
forfeited matches, requested half and zero byes, prohibited pairs.
"""

from __future__ import annotations

import pytest

from formats.teams.pairing import model as m
from tests.formats.teams.pairing.differential import TALLY, Outcome, run_case
from tests.formats.teams.pairing.generator import Case, Event, cases, team_trf
from tests.formats.teams.pairing.oracle import Gacrux

DEFAULT_CASES = [
    *cases(10, seed=2026, sizes=(8, 40)),
    Case(teams=9, boards=4, rounds=5, seed=11, colours=m.TYPE_B, forfeit_percentage=8),
    Case(teams=16, boards=3, rounds=7, seed=12, colours=m.NO_PREFERENCES, scores="gp"),
    Case(teams=21, boards=6, rounds=9, seed=13, scores="gp+mp", win_points=3, prohibited=3),
]
FULL_CASES = [
    *cases(200, seed=1, sizes=(8, 40)),
    *cases(12, seed=2, sizes=(41, 80)),
]


@pytest.mark.oracle
@pytest.mark.parametrize("case", DEFAULT_CASES, ids=lambda case: case.id)
def test_same_pairing_as_gacrux(gacrux: Gacrux, case: Case) -> None:
    _check(run_case(gacrux, case), case)


@pytest.mark.oracle
@pytest.mark.team_pairing_full
@pytest.mark.parametrize("case", FULL_CASES, ids=lambda case: case.id)
def test_same_pairing_as_gacrux_full(gacrux: Gacrux, case: Case) -> None:
    _check(run_case(gacrux, case), case)


def _check(outcome: Outcome, case: Case) -> None:
    TALLY.record(outcome)
    assert outcome.rounds + outcome.skipped == case.rounds
    assert outcome.mismatches == []


@pytest.mark.oracle
def test_the_command_line_gives_what_the_driver_gives(gacrux: Gacrux, tmp_path) -> None:
    """The long-lived driver answers as ``python -m gacrux.pairingchecker`` itself does."""
    command_line = Gacrux(tmp_path, one_shot=True)
    case = Case(teams=11, boards=4, rounds=5, seed=5, colours=m.TYPE_B, bye_percentage=6)
    event = Event.start(case)
    event.record(1, [(1, 7, tuple("1=0+")), (8, 2, tuple("0000")), (3, 9, tuple("++++"))], 11, {})
    for round_no in (1, 2):
        trf = team_trf(event, round_no, {4: m.BYE_HALF})
        assert command_line.pair(trf, round_no, case.method) == gacrux.pair(
            trf, round_no, case.method
        )
