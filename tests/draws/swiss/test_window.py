"""The window solve (draws/swiss/pairing/window.py) against the whole-graph solve, and the
fast weights (``WeightTable``) against ``edge_weight``, on simulated tournaments; no oracle needed.

Each tournament is played round by round with the engine's own pairings and random results,
absences and forbidden pairs, so the states have colour preferences, floats and byes."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from draws.swiss.pairing import PairingImpossible, PairingRequest, pair_round
from draws.swiss.pairing.dutch import pair_players, sort_players
from draws.swiss.pairing.engine import weight_context
from draws.swiss.pairing.players import PlayerState, field_state
from draws.swiss.pairing.weights import ByeContext, WeightContext, WeightTable, edge_weight
from events.records import Crosstable, Entrant, RoundResult


def _tournament(
    players: int, rounds: int, seed: int
) -> Iterator[tuple[list[PlayerState], WeightContext]]:
    """Each round's sorted players and weight context, before the round is paired."""
    rng = random.Random(seed)
    table = Crosstable(
        name="window",
        rounds=0,
        entrants=tuple(Entrant(s, f"P{s}") for s in range(1, players + 1)),
    )
    for round_no in range(1, rounds + 1):
        away = frozenset(s for s in range(1, players + 1) if rng.random() < 0.08)
        request = PairingRequest(
            round=round_no,
            total_rounds=rounds,
            initial_colour=rng.choice("wb"),
            absent=away,
            forbidden_pairs=frozenset(
                frozenset(rng.sample(range(1, players + 1), 2)) for _ in range(rng.randint(0, 3))
            ),
        )
        state = field_state(table, request)
        yield sort_players(state.players), weight_context(table, request, state)
        try:
            pairing = pair_round(table, request)
        except PairingImpossible:
            return
        results: dict[int, RoundResult] = {}
        for board in pairing.boards:
            code = rng.choice("10==" if rng.random() < 0.9 else "+-")
            other = {"1": "0", "0": "1", "=": "=", "+": "-", "-": "+"}[code]
            results[board.white] = RoundResult(round_no, board.black, "w", code)
            results[board.black] = RoundResult(round_no, board.white, "b", other)
        if pairing.bye is not None:
            results[pairing.bye] = RoundResult(round_no, None, "-", "U")
        for start_no in away:
            results[start_no] = RoundResult(round_no, None, "-", rng.choice("HZ"))
        table = Crosstable(
            name=table.name,
            rounds=round_no,
            entrants=tuple(
                Entrant(e.start_no, e.name, results=(*e.results, results[e.start_no]))
                for e in table.entrants
            ),
        )


TOURNAMENTS = [
    (random.Random(seed).randint(6, 36), random.Random(-seed).randint(5, 9), seed)
    for seed in range(16)
]
IDS = [f"simulated-{players}p-{rounds}r-seed{seed}" for players, rounds, seed in TOURNAMENTS]


@pytest.mark.parametrize(("players", "rounds", "seed"), TOURNAMENTS, ids=IDS)
def test_window_gives_the_whole_graphs_pairing(players: int, rounds: int, seed: int) -> None:
    for players_now, ctx in _tournament(players, rounds, seed):
        try:
            whole = pair_players(players_now, ctx, whole_graph=True)
        except PairingImpossible:
            with pytest.raises(PairingImpossible):
                pair_players(players_now, ctx)
            continue
        window = pair_players(players_now, ctx)
        assert sorted(map(sorted, window.pairs)) == sorted(map(sorted, whole.pairs))
        assert window.bye == whole.bye


@pytest.mark.parametrize(("players", "rounds", "seed"), TOURNAMENTS[:6], ids=IDS[:6])
def test_weight_table_gives_edge_weight(players: int, rounds: int, seed: int) -> None:
    rng = random.Random(seed)
    for players_now, ctx in _tournament(players, rounds, seed):
        table = WeightTable(players_now, ctx)
        for single in (False, True):
            score = rng.choice(players_now).pairing_score
            bye = ByeContext(score, single, {games: rng.randint(0, 5) for games in range(12)})
            table.set_bye(bye)
            for w, low in enumerate(players_now):
                for v, high in enumerate(players_now[:w]):
                    for flags in ((True, False), (False, True), (False, False)):
                        expected = edge_weight(high, low, *flags, bye, ctx)
                        assert table.weight(v, w, *flags, single) == expected
