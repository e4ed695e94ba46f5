"""Test-only helpers around bbpPairings, the oracle (never imported by the product).

Builds it with ``shared/oracles/build-bbp.sh`` (g++ and make), generates tournaments with its
random generator, cuts a generated tournament into "the rounds before round r" TRF files the way
bbpPairings reads them (round r keeps only the entries of players who are not paired that round:
requested byes and absences, see its ``trf.cpp``), and runs its pairer.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from draws.swiss.pairing import PairingRequest
from events.records import PAIRING_BYE, Crosstable, Entrant, RoundResult, Scoring
from events.trf import parse_trf

REPO = Path(__file__).resolve().parents[3]
BUILD_SCRIPT = REPO.parent / "shared" / "oracles" / "build-bbp.sh"
_CACHE: dict[str, str | None] = {}


def bbp_path() -> str | None:
    """The bbpPairings executable, built once; None when it cannot be built here."""
    if "path" in _CACHE:
        return _CACHE["path"]
    path: str | None = None
    if os.environ.get("BBP_EXE"):
        path = os.environ["BBP_EXE"]
    elif BUILD_SCRIPT.exists() and shutil.which("g++") and shutil.which("make"):
        done = subprocess.run(
            ["bash", str(BUILD_SCRIPT)], capture_output=True, text=True, check=False
        )
        if done.returncode == 0:
            path = done.stdout.strip().splitlines()[-1]
    _CACHE["path"] = path
    return path


def required_path() -> str:
    """The executable for a test that needs it: skipped when it cannot be built here, except
    under ``make test`` (``REQUIRE_ORACLES=1``, scripts/test.sh), where a missing oracle is a
    failure, never a quiet skip that would let the differential tests pass without running."""
    import pytest

    path = bbp_path()
    if path is None:
        if os.environ.get("REQUIRE_ORACLES") == "1":
            pytest.fail(skip_reason())
        pytest.skip(skip_reason())
    return path


def skip_reason() -> str:
    if not BUILD_SCRIPT.exists():
        return f"bbpPairings source not found at {BUILD_SCRIPT.parent}"
    if not (shutil.which("g++") and shutil.which("make")):
        return "g++ and make are needed to build bbpPairings (apt-get install g++ make)"
    return "bbpPairings could not be built (see shared/oracles/build-bbp.sh)"


@dataclass(frozen=True)
class Config:
    players: int
    rounds: int
    draw_percentage: int = 30
    forfeit_rate: int = 20
    retired_rate: int = 20
    half_point_bye_rate: int = 20
    highest_rating: int = 2600
    lowest_rating: int = 1400
    win: str = "1.0"
    draw: str = "0.5"

    def text(self) -> str:
        return (
            f"PointsForWin={self.win}\nPointsForDraw={self.draw}\nPointsForPAB={self.win}\n"
            f"PlayersNumber={self.players}\nRoundsNumber={self.rounds}\n"
            f"DrawPercentage={self.draw_percentage}\nForfeitRate={self.forfeit_rate}\n"
            f"RetiredRate={self.retired_rate}\nHalfPointByeRate={self.half_point_bye_rate}\n"
            f"HighestRating={self.highest_rating}\nLowestRating={self.lowest_rating}\n"
        )


def generate(exe: str, config: Config, seed: int) -> str:
    with tempfile.TemporaryDirectory() as tmp:
        cfg = Path(tmp, "config.txt")
        cfg.write_text(config.text())
        out = Path(tmp, "out.trf")
        subprocess.run(
            [exe, "--dutch", "-g", str(cfg), "-o", str(out), "-s", str(seed)],
            check=True,
            capture_output=True,
        )
        return out.read_text()


def not_paired(result: RoundResult) -> bool:
    """An entry that bbpPairings reads as "not paired this round" (a bye requested or absent)."""
    return result.opponent is None and result.code not in (PAIRING_BYE, "+")


def infer_initial_colour(crosstable: Crosstable) -> str:
    """bbpPairings' ``inferFirstColor``: the first round with colours, the highest player who
    took part in a pairing by then, his colour (inverted for every such player skipped)."""
    rounds = [r.round for e in crosstable.entrants for r in e.results if r.colour in ("w", "b")]
    first = min(rounds)
    skipped = 0
    for entrant in sorted(crosstable.entrants, key=lambda e: e.start_no):
        took_part = any(not not_paired(r) for r in entrant.results if r.round <= first)
        if not took_part:
            continue
        colour = entrant.results[first - 1].colour
        if colour in ("w", "b"):
            if skipped % 2:
                return "b" if colour == "w" else "w"
            return colour
        skipped += 1
    return "w"


def _format_points(value: Fraction) -> str:
    return f"{float(value):4.1f}"


def _block(result: RoundResult) -> str:
    opponent = f"{result.opponent:4d}" if result.opponent else "0000"
    colour = result.colour if result.colour in ("w", "b") else "-"
    return f"{opponent} {colour} {result.code}"


def round_trf(
    crosstable: Crosstable,
    round_no: int,
    total_rounds: int,
    initial_colour: str,
    extra: tuple[str, ...] = (),
) -> str:
    """The TRF bbpPairings pairs round ``round_no`` from."""
    scoring = crosstable.scoring
    lines = ["012 differential", f"XXR {total_rounds}"]
    lines.append("XXC " + ("white1" if initial_colour == "w" else "black1"))
    lines.extend(extra)
    for entrant in sorted(crosstable.entrants, key=lambda e: e.start_no):
        before = [r for r in entrant.results if r.round < round_no]
        score = sum((scoring.points(r) for r in before), Fraction(0))
        head = (
            f"001 {entrant.start_no:4d}      {'Player' + str(entrant.start_no):<33} "
            f"{entrant.rating:4d}"
        ).ljust(80) + f"{_format_points(score)}{entrant.start_no:5d}"
        blocks = [_block(r) for r in before]
        current = [r for r in entrant.results if r.round == round_no]
        if current and not_paired(current[0]):
            blocks.append(_block(current[0]))
        lines.append(head + "".join(f"  {b}" for b in blocks))
    return "\n".join(lines) + "\n"


def run_pairer(exe: str, trf: str) -> tuple[list[tuple[int, int]], int | None, float]:
    """bbpPairings' pairing of the file: boards in its order, the bye, and its time."""
    import time

    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp, "in.trf")
        src.write_text(trf)
        out = Path(tmp, "out.txt")
        start = time.perf_counter()
        done = subprocess.run(
            [exe, "--dutch", str(src), "-p", str(out)], capture_output=True, text=True
        )
        elapsed = time.perf_counter() - start
        if done.returncode == 1:
            raise NoPairing(done.stderr)
        if done.returncode:
            raise RuntimeError(f"bbpPairings failed ({done.returncode}): {done.stderr}")
        numbers = out.read_text().split()
    count = int(numbers[0])
    boards: list[tuple[int, int]] = []
    bye = None
    for i in range(count):
        white, black = int(numbers[1 + 2 * i]), int(numbers[2 + 2 * i])
        if black == 0:
            bye = white
        else:
            boards.append((white, black))
    return boards, bye, elapsed


class NoPairing(Exception):
    """bbpPairings found no valid pairing (its exit code 1)."""


def xxa_lines(accelerations: dict[int, list[Fraction]]) -> tuple[str, ...]:
    """bbpPairings' per-player acceleration records, one value per round from round 1."""
    return tuple(
        f"XXA {start_no:4d}" + "".join(f" {float(value):4.1f}" for value in values)
        for start_no, values in sorted(accelerations.items())
    )


def crosstable_before(crosstable: Crosstable, round_no: int) -> Crosstable:
    entrants = tuple(
        Entrant(
            start_no=e.start_no,
            name=e.name,
            rating=e.rating,
            results=tuple(r for r in e.results if r.round < round_no),
        )
        for e in crosstable.entrants
    )
    return Crosstable(
        name=crosstable.name,
        rounds=round_no - 1,
        entrants=entrants,
        scoring=crosstable.scoring,
    )


def request_for(
    crosstable: Crosstable, round_no: int, total_rounds: int, initial_colour: str, **extra: object
) -> PairingRequest:
    absent: set[int] = set()
    byes: list[tuple[int, str]] = []
    for entrant in crosstable.entrants:
        current = [r for r in entrant.results if r.round == round_no]
        if current and not_paired(current[0]):
            if current[0].code in ("H", "Z", "F"):
                byes.append((entrant.start_no, current[0].code))
            else:
                absent.add(entrant.start_no)
    return PairingRequest(
        round=round_no,
        total_rounds=total_rounds,
        initial_colour=initial_colour,
        absent=frozenset(absent),
        requested_byes=tuple(byes),
        **extra,  # type: ignore[arg-type]
    )


def parse(text: str, scoring: Scoring | None = None) -> tuple[Crosstable, int]:
    parsed = parse_trf(text)
    crosstable = parsed.crosstable
    if scoring is not None:
        crosstable = Crosstable(
            name=crosstable.name,
            rounds=crosstable.rounds,
            entrants=crosstable.entrants,
            scoring=scoring,
        )
    return crosstable, parsed.rounds
