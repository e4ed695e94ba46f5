"""Team standings (C.07 team tie-breaks): our time against gacrux's on the same TRF-2026 file.

Not a test: prints figures. A 200-team event (4 boards, 11 rounds, a fixed seed, the
generator's rates of board forfeits, forfeited matches and requested byes) is paired by our
C.04.6 engine and played to the end, then written as a TRF-2026 team file
(``formats/teams/trf.py``). Each list of tie-breaks is computed from that file by gacrux, as
the command line (``python -m gacrux.tiebreakchecker -i FILE -s -d T -t ...``, Python's
start-up and the file's reading included) and as its checker called in a process already
running (reading the file included), and by ours (reading the file with
``read_team_trf`` and ``team_standings``); every value must be the same. Each time is the
median of ``--runs`` runs; the machine's load is printed with them.

    .venv/bin/python bench/team_standings.py
    .venv/bin/python bench/team_standings.py --teams 100 --runs 3
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from formats.teams.pairing import pair_team_round  # noqa: E402
from formats.teams.tiebreaks import team_standings  # noqa: E402
from formats.teams.trf import read_team_trf, write_team_trf  # noqa: E402
from tests.formats.teams.pairing.generator import Case, Event, records  # noqa: E402
from tests.formats.teams.tiebreaks.oracle import TiebreakOracle, gacrux_code  # noqa: E402

T = TypeVar("T")
LISTS = {
    "values": ("MP", "GP", "EMGSB/C1", "BH:MP/C1", "BH:GP", "BC", "SSSC"),
    "olympiad": ("MP", "SSSC", "GP", "BC"),
    "in the tie": ("MP", "EDE", "TBR", "BBE"),
}


def _timed(action: Callable[[], T], runs: int) -> tuple[float, T]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        answer = action()
        times.append(time.perf_counter() - start)
    return statistics.median(times), answer


def _command_line(workdir: Path, source: Path, rounds: int, codes: tuple[str, ...]) -> None:
    subprocess.run(
        [sys.executable, "-m", "gacrux.tiebreakchecker", "-i", str(source), "-s", "-d", "T"]
        + ["-n", str(rounds), "-t", *(gacrux_code(code) for code in codes)],
        cwd=workdir,
        capture_output=True,
        check=True,
        timeout=3600,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--teams", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=11)
    parser.add_argument("--runs", type=int, default=2)
    options = parser.parse_args()
    case = Case(teams=options.teams, boards=4, rounds=options.rounds, seed=7)
    event, rng = Event.start(case), random.Random(case.seed)
    start = time.perf_counter()
    for round_no in range(1, case.rounds + 1):
        requested = event.requested_byes(rng)
        event.play(round_no, pair_team_round(event.request(round_no, requested)), requested, rng)
    played = time.perf_counter() - start
    trf = write_team_trf(records(event, case.rounds + 1))
    workdir = Path(tempfile.mkdtemp(prefix="team-standings-bench-"))
    source = workdir / "event.trf"
    source.write_text(trf, encoding="latin-1")
    oracle = TiebreakOracle(workdir)
    print(
        f"{case.id}: {len(trf.splitlines())} lines; {case.rounds} rounds paired in {played:.1f} s"
    )
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print("| tie-breaks | gacrux, command (s) | gacrux, running (s) | ours (s) | same |")
    print("|---|---|---|---|---|")
    for name, codes in LISTS.items():
        command, _ = _timed(
            lambda c=codes: _command_line(workdir, source, case.rounds, c), options.runs
        )  # type: ignore[misc]
        running, theirs = _timed(
            lambda c=codes: oracle.tiebreaks(trf, case.rounds, c), options.runs
        )  # type: ignore[misc]
        ours_time, standings = _timed(
            lambda c=codes: team_standings(read_team_trf(trf), c, after_round=case.rounds),  # type: ignore[misc]
            options.runs,
        )
        same = all(theirs[row.team] == row.values for row in standings.rows)
        listed = " ".join(codes)
        print(
            f"| {name}: {listed} | {command:.2f} | {running:.2f} | {ours_time:.3f} | "
            f"{'yes' if same else 'NO'} |",
            flush=True,
        )
    oracle.close()


if __name__ == "__main__":
    main()
