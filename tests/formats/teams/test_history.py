"""formats/teams/history.py: the pairing request built from a team event's records equals the
one the differential generator keeps by hand, round by round (C.04.6 1.2, 1.5, 1.6.1, 2.1.2),
over seeded events with forfeits, requested byes, MP or GP primary and every colour type."""

from __future__ import annotations

import random

import pytest

from formats.teams.history import pairing_request
from formats.teams.pairing import pair_team_round
from tests.formats.teams.pairing import generator

CASES = generator.cases(12, seed=2222, sizes=(7, 16))


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_request_from_records_equals_the_generators(case: generator.Case) -> None:
    event = generator.Event.start(case)
    rng = random.Random(case.seed)
    for round_no in range(1, case.rounds + 1):
        requested = event.requested_byes(rng)
        expected = event.request(round_no, requested)
        built = pairing_request(
            generator.records(event, round_no, requested),
            round_no=round_no,
            requested_byes=requested,
        )
        assert built == expected, f"round {round_no}"
        event.play(round_no, pair_team_round(expected), requested, rng)
