"""Team Swiss pairing engine (C.04.6): our time against gacrux's on the same TRF-2026 file.

Not a test: prints figures. A 200-team event (4 boards, 11 rounds, a fixed seed, the
generator's rates of forfeits and requested byes) is played round by round by our engine;
the chosen rounds are also written as a TRF-2026 team file and paired by gacrux from it, and
the two answers must be the same. gacrux is timed twice: as the command line
(``python -m gacrux.pairingchecker -i FILE -p -n ROUND -m METHOD``, Python's start-up and
the file's reading included), and as its pairing checker called in a process already running
(reading the file included, start-up not). Ours is ``pair_team_round`` on the records in
memory. Each is the median of ``--runs`` runs; the machine's load is printed with them,
since other work on it slows both sides alike.

    .venv/bin/python bench/team_pairing.py                          # 200 teams, Type A
    .venv/bin/python bench/team_pairing.py --colours B --rounds 1 5  # Type B, rounds 1 and 5
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from formats.teams.pairing import model as m  # noqa: E402
from formats.teams.pairing import pair_team_round  # noqa: E402
from tests.formats.teams.pairing.generator import Case, Event, team_trf  # noqa: E402
from tests.formats.teams.pairing.oracle import Gacrux, OracleAnswer  # noqa: E402

COLOURS = {"A": m.TYPE_A, "B": m.TYPE_B, "none": m.NO_PREFERENCES}
T = TypeVar("T")


def _timed(action: Callable[[], T], runs: int) -> tuple[float, T]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        answer = action()
        times.append(time.perf_counter() - start)
    return statistics.median(times), answer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--teams", type=int, default=200)
    parser.add_argument("--rounds", type=int, nargs="*", default=[1, 2, 5, 9])
    parser.add_argument("--colours", choices=sorted(COLOURS), default="A")
    parser.add_argument("--scores", choices=("mp+gp", "gp+mp", "mp", "gp"), default="mp+gp")
    parser.add_argument("--runs", type=int, default=2)
    options = parser.parse_args()
    case = Case(
        teams=options.teams,
        boards=4,
        rounds=11,
        seed=7,
        colours=COLOURS[options.colours],
        scores=options.scores,
    )
    workdir = Path(tempfile.mkdtemp(prefix="team-pairing-bench-"))
    command, running = Gacrux(workdir, one_shot=True), Gacrux(workdir)
    event, rng = Event.start(case), random.Random(case.seed)
    print(f"{case.id}; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print("| round | gacrux, command (s) | gacrux, running (s) | ours (s) | same |")
    print("|---|---|---|---|---|")
    for round_no in range(1, max(options.rounds) + 1):
        requested = event.requested_byes(rng)
        request = event.request(round_no, requested)
        ours_time, pairing = _timed(partial(pair_team_round, request), options.runs)
        if round_no in options.rounds:
            trf = team_trf(event, round_no, requested)
            theirs_command, answer = _timed(
                partial(command.pair, trf, round_no, case.method), options.runs
            )
            theirs_running, _ = _timed(
                partial(running.pair, trf, round_no, case.method), options.runs
            )
            ours = OracleAnswer(
                tuple((x.white, x.black) for x in pairing.matches), pairing.pairing_bye
            )
            print(
                f"| {round_no} | {theirs_command:.2f} | {theirs_running:.2f} | "
                f"{ours_time:.3f} | {'yes' if answer == ours else 'NO'} |",
                flush=True,
            )
        event.play(round_no, pairing, requested, rng)
    running.close()


if __name__ == "__main__":
    main()
