"""The C.07 team tie-breaks against gacrux (FIDE's reference engine) after every round of
generated team events: a seeded subset here, the full run (200+ events) under
``-m team_tiebreak_full`` (``make test-team-tiebreak-full``). Figures in docs/teams.md."""

from __future__ import annotations

import pytest

from tests.formats.teams.pairing.generator import Case, cases
from tests.formats.teams.tiebreaks.differential import (
    LISTS,
    TALLY,
    RoundRobinCase,
    round_robin_cases,
    run_case,
    run_round_robin,
)
from tests.formats.teams.tiebreaks.oracle import TiebreakOracle

pytestmark = pytest.mark.oracle

SUBSET = cases(6, seed=2207, sizes=(8, 16))
FULL_SET = cases(200, seed=2208, sizes=(8, 40)) + cases(10, seed=2209, sizes=(41, 60))


def _check(oracle: TiebreakOracle, case: Case) -> None:
    outcome = run_case(oracle, case)
    TALLY.record(outcome)
    assert outcome.rounds >= min(case.rounds, 3), f"{case.id}: only {outcome.rounds} rounds played"
    assert outcome.values > 0
    assert not outcome.mismatches, "\n".join(outcome.mismatches[:20])


@pytest.mark.parametrize("generated", SUBSET, ids=lambda generated: generated.id)
def test_every_team_tiebreak_equals_gacrux_after_every_round(
    tiebreak_oracle: TiebreakOracle, generated: Case
) -> None:
    _check(tiebreak_oracle, generated)


@pytest.mark.team_tiebreak_full
@pytest.mark.parametrize("generated", FULL_SET, ids=lambda generated: generated.id)
def test_full_run(tiebreak_oracle: TiebreakOracle, generated: Case) -> None:
    _check(tiebreak_oracle, generated)


ROUND_ROBINS = [
    RoundRobinCase(6, 4, True, 1),  # the 6-team double round robin
    RoundRobinCase(5, 3, False, 2),  # an odd field: a free round each round
]
FULL_ROUND_ROBINS = round_robin_cases(30, seed=2210)


@pytest.mark.parametrize("robin", ROUND_ROBINS, ids=lambda robin: robin.id)
def test_round_robin_team_tiebreaks_equal_gacrux(tiebreak_oracle: TiebreakOracle, robin) -> None:  # type: ignore[no-untyped-def]
    outcome = run_round_robin(tiebreak_oracle, robin)
    TALLY.record(outcome)
    assert outcome.values > 0
    assert not outcome.mismatches, "\n".join(outcome.mismatches[:20])


@pytest.mark.team_tiebreak_full
@pytest.mark.parametrize("robin", FULL_ROUND_ROBINS, ids=lambda robin: robin.id)
def test_round_robin_full_run(tiebreak_oracle: TiebreakOracle, robin) -> None:  # type: ignore[no-untyped-def]
    test_round_robin_team_tiebreaks_equal_gacrux(tiebreak_oracle, robin)


def test_the_lists_cover_every_registered_code() -> None:
    from formats.teams.tiebreaks import REGISTRY

    named = {code.split(":")[0].split("/")[0] for codes in LISTS for code in codes}
    assert named == set(REGISTRY)
