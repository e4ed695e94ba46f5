"""Invariants of any pairing the engine gives (hypothesis): no rematch, nobody twice, nobody
absent paired, forbidden pairs respected, everyone present paired but at most one, and the
bye only to a player who may receive it (C.04.3 (2025) C1, C2, C4; C.04.2)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from draws.swiss.pairing import PairingImpossible, PairingRequest, pair_round
from draws.swiss.pairing.players import bye_eligible, past_results
from events.records import Crosstable, Entrant, RoundResult


def _play(table: Crosstable, pairing_boards, bye, away, round_no, rng) -> Crosstable:
    results: dict[int, RoundResult] = {}
    for white, black in pairing_boards:
        code = rng.choice("10=")
        other = {"1": "0", "0": "1", "=": "="}[code]
        results[white] = RoundResult(round_no, black, "w", code)
        results[black] = RoundResult(round_no, white, "b", other)
    if bye is not None:
        results[bye] = RoundResult(round_no, None, "-", "U")
    for start_no in away:
        results[start_no] = RoundResult(round_no, None, "-", rng.choice("HZ"))
    entrants = tuple(
        Entrant(e.start_no, e.name, results=(*e.results, results[e.start_no]))
        for e in table.entrants
    )
    return Crosstable(name=table.name, rounds=round_no, entrants=entrants)


@settings(max_examples=40, deadline=None)
@given(
    players=st.integers(min_value=2, max_value=16),
    rounds=st.integers(min_value=1, max_value=6),
    seed=st.integers(min_value=0, max_value=10**6),
)
def test_pairings_respect_the_absolute_rules(players: int, rounds: int, seed: int) -> None:
    rng = random.Random(seed)
    table = Crosstable(
        name="property",
        rounds=0,
        entrants=tuple(Entrant(s, f"P{s}") for s in range(1, players + 1)),
    )
    for round_no in range(1, rounds + 1):
        away = frozenset(s for s in range(1, players + 1) if rng.random() < 0.1)
        forbidden = frozenset(
            frozenset(rng.sample(range(1, players + 1), 2)) for _ in range(rng.randint(0, 2))
        )
        request = PairingRequest(
            round=round_no,
            total_rounds=rounds,
            initial_colour=rng.choice("wb"),
            absent=away,
            forbidden_pairs=forbidden,
        )
        try:
            pairing = pair_round(table, request)
        except PairingImpossible:
            return
        boards = [(b.white, b.black) for b in pairing.boards]
        seen = [p for board in boards for p in board] + [pairing.bye] * (pairing.bye is not None)
        present = {s for s in range(1, players + 1)} - away
        assert sorted(seen) == sorted(present)  # everyone present once, nobody absent
        for white, black in boards:
            assert frozenset((white, black)) not in forbidden
            history = past_results(table.entrants[white - 1], round_no)
            assert all(not (r.played and r.opponent == black) for r in history)
        if pairing.bye is not None:
            entrant = table.entrants[pairing.bye - 1]
            assert bye_eligible(past_results(entrant, round_no), table.scoring)
        table = _play(table, boards, pairing.bye, away, round_no, rng)
