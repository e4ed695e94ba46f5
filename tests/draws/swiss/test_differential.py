"""Differential tests: the engine gives exactly bbpPairings' pairing on generated tournaments.

Every round of each tournament is paired by both from the same data (the rounds before it and
the round's requested byes and absences); pairs, colours, board order and the bye must be
equal. The default run is a seeded subset; the full run is ``pytest -m pairing_full
tests/draws/swiss`` (``make test-pairing-full``). Each test checks that every round of its
tournament was compared, and the run prints and checks the totals (``conftest.py``).
Variants: plain, Baku acceleration (XXA records), forbidden pairs (XXP records), 3/1/0 scoring
(BBW/BBD records).
"""

from __future__ import annotations

import pytest

from tests.draws.swiss import bbp
from tests.draws.swiss.differential import TALLY, Case, Outcome, cases, run_case

DEFAULT_CASES = [
    *cases(40, seed=2025, sizes=(7, 40)),
    *cases(6, seed=7, sizes=(41, 90)),
    Case(players=7, rounds=5, seed=11, variant="plain"),
    Case(players=8, rounds=7, seed=12, variant="baku"),
    Case(players=120, rounds=9, seed=3, variant="plain"),
]
FULL_CASES = [
    *cases(250, seed=1, sizes=(7, 60)),
    *cases(40, seed=2, sizes=(61, 150)),
    *cases(10, seed=3, sizes=(151, 300)),
    *(Case(players=300, rounds=9, seed=seed) for seed in (1, 2)),
]


@pytest.fixture(scope="module")
def exe() -> str:
    return bbp.required_path()


@pytest.mark.parametrize("case", DEFAULT_CASES, ids=lambda case: case.id)
def test_same_pairing_as_bbppairings(exe: str, case: Case) -> None:
    _check(run_case(exe, case), case)


@pytest.mark.pairing_full
@pytest.mark.parametrize("case", FULL_CASES, ids=lambda case: case.id)
def test_same_pairing_as_bbppairings_full(exe: str, case: Case) -> None:
    _check(run_case(exe, case), case)


def _check(outcome: Outcome, case: Case) -> None:
    TALLY.record(outcome)
    assert outcome.rounds == case.rounds
    assert outcome.mismatches == []
