"""The differential run: every round of a generated tournament, bbpPairings against us.

Shared by the tests (a seeded subset by default, the full set under ``pairing_full``) and by
``bench/pairing.py``. Test-only.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from fractions import Fraction

from draws.swiss.pairing import PairingImpossible, baku_acceleration, pair_round
from events.records import Crosstable, Scoring
from tests.draws.swiss import bbp
from tests.tallies import register

SCORING_310 = Scoring(
    win=Fraction(3),
    draw=Fraction(1),
    forfeit_win=Fraction(3),
    pairing_bye=Fraction(3),
    full_bye=Fraction(3),
    half_bye=Fraction(1),
)
VARIANTS = ("plain", "baku", "forbidden", "scoring310")


@dataclass(frozen=True)
class Case:
    players: int
    rounds: int
    seed: int
    variant: str = "plain"
    draw_percentage: int = 30

    @property
    def id(self) -> str:
        return f"{self.variant}-{self.players}p-{self.rounds}r-seed{self.seed}"

    def config(self) -> bbp.Config:
        scoring = self.variant == "scoring310"
        return bbp.Config(
            players=self.players,
            rounds=self.rounds,
            draw_percentage=self.draw_percentage,
            win="3.0" if scoring else "1.0",
            draw="1.0" if scoring else "0.5",
        )


@dataclass
class Outcome:
    rounds: int = 0
    mismatches: list[str] = field(default_factory=list)
    bbp_seconds: float = 0.0
    our_seconds: float = 0.0


@dataclass
class Tally:
    """What the differential run compared, against what the selected cases should give."""

    tournaments: int = 0
    rounds: int = 0
    expected_tournaments: int = 0
    expected_rounds: int = 0
    ran: bool = False

    def expect(self, case: Case) -> None:
        self.expected_tournaments += 1
        self.expected_rounds += case.rounds

    def record(self, outcome: Outcome) -> None:
        self.ran = True
        self.tournaments += 1
        self.rounds += outcome.rounds

    def complete(self) -> bool:
        return (self.tournaments, self.rounds) == (
            self.expected_tournaments,
            self.expected_rounds,
        )

    def summary(self) -> str:
        verdict = "as selected" if self.complete() else "MISSING some"
        return (
            f"differential against bbpPairings: {self.tournaments} tournaments, "
            f"{self.rounds} rounds compared (selected: {self.expected_tournaments} "
            f"tournaments, {self.expected_rounds} rounds; {verdict})"
        )


TALLY = register("swiss-pairing", Tally())


def cases(count: int, seed: int, sizes: tuple[int, int]) -> list[Case]:
    """``count`` tournaments drawn with a fixed seed: sizes, rounds, variants, draw rates."""
    rng = random.Random(seed)
    drawn = []
    for _ in range(count):
        players = rng.randint(*sizes)
        drawn.append(
            Case(
                players=players,
                rounds=min(rng.randint(5, 11), max(5, players - 3)),
                seed=rng.randint(1, 10**6),
                variant=rng.choice(VARIANTS),
                draw_percentage=rng.choice((0, 10, 30, 50)),
            )
        )
    return drawn


def _extras(
    case: Case, crosstable: Crosstable, round_no: int, total: int, rng: random.Random
) -> tuple[tuple[str, ...], dict[str, object]]:
    starts = sorted(e.start_no for e in crosstable.entrants)
    if case.variant == "scoring310":
        return ("BBW  3.0", "BBD  1.0", "BBU  3.0"), {}
    if case.variant == "baku":
        values: dict[int, list[Fraction]] = {s: [] for s in starts}
        history = []
        for r in range(1, round_no + 1):
            given = dict(baku_acceleration(starts, total, r))
            for s in starts:
                values[s].append(given.get(s, Fraction(0)))
                if r < round_no and s in given:
                    history.append((r, s, given[s]))
        now = tuple(baku_acceleration(starts, total, round_no))
        return bbp.xxa_lines(values), {
            "acceleration": now,
            "acceleration_history": tuple(history),
        }
    if case.variant == "forbidden":
        pairs = {frozenset(rng.sample(starts, 2)) for _ in range(max(1, len(starts) // 8))}
        lines = tuple(f"XXP {min(p)} {max(p)}" for p in sorted(pairs, key=sorted))
        return lines, {"forbidden_pairs": frozenset(pairs)}
    return (), {}


def _generate(exe: str, case: Case) -> str:
    """The generator gives up when a small field runs out of legal pairings; then the next
    seed is taken, so a case always names one tournament."""
    for attempt in range(50):
        try:
            return bbp.generate(exe, case.config(), case.seed + attempt * 1_000_003)
        except bbp.subprocess.CalledProcessError:
            continue
    raise RuntimeError(f"bbpPairings could not generate {case.id}")


def run_case(exe: str, case: Case) -> Outcome:
    """Pair every round of the tournament both ways and record the differences."""
    text = _generate(exe, case)
    scoring = SCORING_310 if case.variant == "scoring310" else None
    crosstable, total = bbp.parse(text, scoring)
    initial = bbp.infer_initial_colour(crosstable)
    rng = random.Random(case.seed)
    outcome = Outcome()
    for round_no in range(1, total + 1):
        extra_lines, extra_request = _extras(case, crosstable, round_no, total, rng)
        trf = bbp.round_trf(crosstable, round_no, total, initial, extra_lines)
        try:
            boards, bye, seconds = bbp.run_pairer(exe, trf)
            theirs: tuple[object, object] = (boards, bye)
        except bbp.NoPairing:
            theirs, seconds = ("impossible", None), 0.0
        outcome.bbp_seconds += seconds
        request = bbp.request_for(crosstable, round_no, total, initial, **extra_request)
        start = time.perf_counter()
        try:
            pairing = pair_round(bbp.crosstable_before(crosstable, round_no), request)
            ours: tuple[object, object] = (
                [(b.white, b.black) for b in pairing.boards],
                pairing.bye,
            )
        except PairingImpossible:
            ours = ("impossible", None)
        outcome.our_seconds += time.perf_counter() - start
        outcome.rounds += 1
        if ours != theirs:
            outcome.mismatches.append(f"round {round_no}: bbp {theirs} ours {ours}")
    return outcome
