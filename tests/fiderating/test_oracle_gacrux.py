"""FIDE TEC's calculator gacrux (``gacrux.rating``, ``gacrux.fidetables``) as the oracle of the
rating engine on generated events: every rated game's expected score, each player's sum of
expected scores, ARO and performance.

gacrux has FIDE's tables but not B.02's 400-point rule, so it is asked for the expected score
at the difference the rule leaves (the player's rating minus the difference used). The
generated events (tests/standings/generate.py) have byes, forfeits, games of under one move,
withdrawals and unrated players, Swiss and round robin, started in 2024 and 2026.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from fiderating.rating import STANDARD, Rules, event_ratings
from tests.standings.generate import generate

pytestmark = pytest.mark.oracle

gacrux_rating = pytest.importorskip("gacrux.rating")

SEEDS = range(120)


@pytest.mark.parametrize("seed", SEEDS)
def test_the_engine_agrees_with_gacrux(seed: int) -> None:
    table = generate(seed)
    rules = Rules.for_event(STANDARD, table.start_date)
    checked = 0
    for player in event_ratings(table, {}, rules):
        opponents = [g.opponent_rating for g in player.games]
        if player.rating:
            for game in player.games:
                seen = player.rating - game.difference.used
                oracle = gacrux_rating.ComputeExpectedScore(player.rating, seen)
                assert game.expected == oracle, (seed, player.start_no, game.round)
            oracle_sum = gacrux_rating.ComputeSumExpectedScore(
                player.rating, [player.rating - g.difference.used for g in player.games]
            )
            assert player.expected == oracle_sum
        assert player.aro == gacrux_rating.ComputeAverageRatingOpponents(opponents)
        assert player.performance == gacrux_rating.ComputeTournamentPerformanceRating(
            Decimal(player.halves) / 2, opponents
        )
        checked += len(player.games)
    assert checked > 0
