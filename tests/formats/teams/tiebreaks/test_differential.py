"""The C.07 team tie-breaks against gacrux (FIDE's reference engine) after every round of
generated team events: a seeded subset here, the full run (200+ events) under
``-m team_tiebreak_full`` (``make test-team-tiebreak-full``). Figures in docs/teams.md."""

from __future__ import annotations

import pytest

from tests.formats.teams.pairing.generator import Case, cases
from tests.formats.teams.tiebreaks.differential import LISTS, run_case
from tests.formats.teams.tiebreaks.oracle import TiebreakOracle

pytestmark = pytest.mark.oracle

SUBSET = cases(6, seed=2207, sizes=(8, 16))
FULL_SET = cases(200, seed=2208, sizes=(8, 40)) + cases(10, seed=2209, sizes=(41, 60))


def _check(oracle: TiebreakOracle, case: Case) -> None:
    outcome = run_case(oracle, case)
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


def test_the_lists_cover_every_registered_code() -> None:
    from formats.teams.tiebreaks import REGISTRY

    named = {code.split(":")[0].split("/")[0] for codes in LISTS for code in codes}
    assert named == set(REGISTRY)
