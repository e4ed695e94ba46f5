"""TRF import benchmark (issue 19): ``manage.py import_trf`` of a large open, time and peak memory.

For each size it writes a deterministic TRF (``tests.standings.generate.generate_large_swiss``:
a Swiss-like event, neighbours in the score order paired), imports it with ``manage.py
import_trf`` in a fresh process against PostgreSQL and prints the wall time and that process's
peak resident memory (its own high-water mark: ``bench/measure.py``). The default sizes are the
largest real open (3,000 players, 11 rounds: the promise is under 10 s and under 300 MB), the
largest event accepted (5,000 players x 12 rounds: 60,000 results, ``events.limits``), and
two files past the caps, which must be refused at once (the 9,999 players a TRF can number,
and 5,000 players x 13 rounds).

It prints figures; it asserts nothing. Usage (PostgreSQL on 127.0.0.1:5432, or DATABASE_URL):

    .venv/bin/python bench/trf_import.py [--sizes 3000x11,5000x12] [--runs 3]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.measure import manage_measured  # noqa: E402
from bench.standings import ensure_database  # noqa: E402
from events.trf import write_trf  # noqa: E402
from tests.standings.generate import generate_large_swiss  # noqa: E402

SIZES = "3000x11,5000x12,9999x11,5000x13"


def measure(args: list[str], env: dict[str, str]) -> tuple[float, float, float, int, str]:
    """(wall seconds, CPU seconds, peak resident MB, exit status, last line of stderr) of one
    ``manage.py`` process. CPU time is the steadier figure when other work shares the machine."""
    run = manage_measured(*args, env=env)
    last = run.stderr.strip().splitlines()[-1] if run.stderr.strip() else ""
    return run.seconds, run.cpu_seconds, run.peak_mb, run.status, last


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default=SIZES, help="PLAYERSxROUNDS, comma-separated")
    parser.add_argument("--runs", type=int, default=1, help="imports per size (medians)")
    args = parser.parse_args()
    env = {
        **os.environ,
        "DATABASE_URL": os.environ.get(
            "DATABASE_URL", "postgres://postgres@127.0.0.1:5432/tournament_bench"
        ),
        "DEBUG": "1",
    }
    ensure_database(env)
    print(
        f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, load average {os.getloadavg()[0]:.1f}"
    )
    print(
        f"{'players':>8} {'rounds':>6} {'TRF MB':>7} {'wall s':>7} {'CPU s':>6} {'peak MB':>8}"
        "  outcome"
    )
    with tempfile.TemporaryDirectory() as tmp:
        for size in args.sizes.split(","):
            players, rounds = (int(part) for part in size.split("x"))
            path = Path(tmp) / f"open-{players}x{rounds}.trf"
            path.write_text(write_trf(generate_large_swiss(players, rounds)))
            runs = []
            for run in range(args.runs):
                slug = f"bench-trf-{players}x{rounds}-{int(time.time())}-{run}"
                runs.append(measure(["import_trf", str(path), "--slug", slug], env))
            wall, cpu, peak = (statistics.median(r[i] for r in runs) for i in range(3))
            status, reason = runs[-1][3], runs[-1][4]
            outcome = "imported" if status == 0 else f"refused: {reason}"
            megabytes = path.stat().st_size / 2**20
            print(
                f"{players:>8} {rounds:>6} {megabytes:>7.2f} {wall:>7.2f} {cpu:>6.2f} "
                f"{peak:>8.0f}  {outcome}"
            )


if __name__ == "__main__":
    main()
