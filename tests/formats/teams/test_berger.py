"""Team round robins on the Berger tables (FIDE C.05 Annex 1), single and double.

The published tables, read with team pairing numbers: the 10-team round 2 as printed, the
free round of an odd field, every pair meeting once (twice, once with each colour, in a double
round robin), and gacrux's Berger pairing of the same events, round by round.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Iterator
from itertools import combinations

import pytest

from formats.teams import records as r
from formats.teams.berger import BYE_FREE, rounds_of, team_round_robin_round
from formats.teams.pairing.model import TeamBye, TeamPairingError
from formats.teams.trf import write_team_trf
from tests.formats.teams.pairing import oracle
from tests.formats.teams.pairing.generator import Case, Event, records


def _matches(teams: int, round_no: int, double: bool = False) -> list[tuple[int, int, int]]:
    pairing = team_round_robin_round(teams, round_no, double)
    return [(match.table, match.white, match.black) for match in pairing.matches]


def test_ten_teams_round_2_as_published() -> None:
    # C.05 Annex 1, the table for 9/10: round 2 is 10-6 7-5 8-4 9-3 1-2.
    assert _matches(10, 2) == [(1, 10, 6), (2, 7, 5), (3, 8, 4), (4, 9, 3), (5, 1, 2)]


def test_an_odd_field_uses_the_next_table_and_one_team_sits_out() -> None:
    pairing = team_round_robin_round(9, 1)
    assert _matches(9, 1) == [(1, 2, 9), (2, 3, 8), (3, 4, 7), (4, 5, 6)]
    assert pairing.byes == (TeamBye(1, BYE_FREE),)
    assert pairing.matches[0].reasons == ("Berger table for 10 (C.05 Annex 1), round 1",)


@pytest.mark.parametrize("teams", range(2, 21))
def test_every_pair_meets_once(teams: int) -> None:
    met = Counter(
        frozenset((white, black))
        for round_no in range(1, rounds_of(teams) + 1)
        for _, white, black in _matches(teams, round_no)
    )
    assert set(met) == {frozenset(pair) for pair in combinations(range(1, teams + 1), 2)}
    assert set(met.values()) == {1}


@pytest.mark.parametrize("teams", range(2, 21))
def test_a_double_round_robin_meets_twice_once_with_each_colour(teams: int) -> None:
    games = Counter(
        (white, black)
        for round_no in range(1, rounds_of(teams, double=True) + 1)
        for _, white, black in _matches(teams, round_no, double=True)
    )
    for a, b in combinations(range(1, teams + 1), 2):
        assert games[(a, b)] == games[(b, a)] == 1


@pytest.mark.parametrize(
    ("teams", "round_no", "double"),
    [(1, 1, False), (4, 0, False), (4, 4, False), (4, 7, True), (1000, 1, False)],
)
def test_out_of_range_is_refused(teams: int, round_no: int, double: bool) -> None:
    with pytest.raises(TeamPairingError):
        team_round_robin_round(teams, round_no, double)


# -- gacrux's Berger pairing of the same events -----------------------------------------------


@pytest.fixture(scope="module")
def gacrux(tmp_path_factory: pytest.TempPathFactory) -> Iterator[oracle.Gacrux]:
    runner = oracle.started(tmp_path_factory.mktemp("gacrux-berger"))
    yield runner
    runner.close()


@pytest.mark.oracle
@pytest.mark.parametrize(("teams", "double"), [(6, False), (7, False), (6, True), (5, True)])
def test_gacrux_pairs_every_round_the_same(gacrux: oracle.Gacrux, teams: int, double: bool) -> None:
    total = rounds_of(teams, double)
    event = Event(Case(teams=teams, boards=2, rounds=total, seed=3), "w", [])
    event.history = {team: {} for team in range(1, teams + 1)}
    system = r.DOUBLE_ROUND_ROBIN if double else r.ROUND_ROBIN
    method = "berger-fide-double" if double else "berger"
    rng = random.Random(teams)
    for round_no in range(1, total + 1):
        ours = team_round_robin_round(teams, round_no, double)
        trf = write_team_trf(dataclasses.replace(records(event, round_no), system=system))
        theirs = gacrux.pair(trf, round_no, method)
        assert theirs.matches == tuple((match.white, match.black) for match in ours.matches)
        assert ([TeamBye(theirs.bye, BYE_FREE)] if theirs.bye else []) == list(ours.byes)
        results = [
            (match.white, match.black, (rng.choice("10="), rng.choice("10=")))
            for match in ours.matches
        ]
        event.record(round_no, results, None, {})
