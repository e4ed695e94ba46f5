"""TRF import benchmark (issues 19 and 28): ``manage.py import_trf`` of a large open, time and
peak memory, and how the import's work grows with the players.

For each size it writes a deterministic TRF (``tests.standings.generate.generate_large_swiss``:
a Swiss-like event, neighbours in the score order paired), imports it with ``manage.py
import_trf`` in a fresh process against PostgreSQL and prints the wall time, that process's
CPU time and peak resident memory (its own high-water mark: ``bench/measure.py``). Then it
imports the same file once more inside ``manage.py shell``, around the import alone (no
start-up), and prints the CPU time of that process and of the PostgreSQL server process that
served it (``/proc/PID/stat`` of ``pg_backend_pid()``: the server must run on this machine):
their sum is what the import costs on a quiet machine, whatever else is running (on the shared
2-core machine the wall time is mostly waiting for a core). The default sizes show the growth
(1,000 to 5,000 players, 12 rounds; 5,000 x 12 is the largest event accepted, 60,000 results:
the promise is under 10 s), the largest real open (3,000 x 11), and two files past the caps,
which must be refused at once (the 9,999 players a TRF can number, and 5,000 x 13).

It prints figures; it asserts nothing. Usage (PostgreSQL on 127.0.0.1:5432, or DATABASE_URL):

    .venv/bin/python bench/trf_import.py [--sizes 3000x11,5000x12] [--runs 3]
"""

from __future__ import annotations

import argparse
import json
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

SIZES = "1000x12,2000x12,3000x12,4000x12,5000x12,3000x11,9999x11,5000x13"

# Run by ``manage.py shell``: the import alone, its CPU and its PostgreSQL backend's CPU.
IN_PROCESS = """
import json, os, sys, time
from django.db import connection
from events.imports import event_import_trf

def server_cpu(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

text = open(os.environ["BENCH_TRF"], encoding="utf-8").read()
with connection.cursor() as cursor:
    cursor.execute("SELECT pg_backend_pid()")
    pid = cursor.fetchone()[0]
server, wall, cpu = server_cpu(pid), time.perf_counter(), time.process_time()
event_import_trf(text=text, user=None, slug=os.environ["BENCH_SLUG"])
print(json.dumps({"wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu,
                  "server": server_cpu(pid) - server}))
"""


def measure(args: list[str], env: dict[str, str]) -> tuple[float, float, float, int, str]:
    """(wall seconds, CPU seconds, peak resident MB, exit status, last line of stderr) of one
    ``manage.py`` process. CPU time is the steadier figure when other work shares the machine."""
    run = manage_measured(*args, env=env)
    last = run.stderr.strip().splitlines()[-1] if run.stderr.strip() else ""
    return run.seconds, run.cpu_seconds, run.peak_mb, run.status, last


def import_work(path: Path, slug: str, env: dict[str, str]) -> dict[str, float] | None:
    """The import alone, in-process: wall, its CPU and the database server's CPU (seconds)."""
    run = manage_measured(
        "shell", "-c", IN_PROCESS, env={**env, "BENCH_TRF": str(path), "BENCH_SLUG": slug}
    )
    if run.status != 0:
        return None
    return dict(json.loads(run.stdout.strip().splitlines()[-1]))


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
        f"  {'import alone: wall s':>20} {'CPU s':>6} {'DB CPU s':>8}  outcome"
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
            work = import_work(path, f"bench-trf-{players}x{rounds}-{time.time_ns()}", env)
            alone = (
                f"{work['wall']:>20.2f} {work['cpu']:>6.2f} {work['server']:>8.2f}"
                if work
                else f"{'-':>20} {'-':>6} {'-':>8}"
            )
            print(
                f"{players:>8} {rounds:>6} {megabytes:>7.2f} {wall:>7.2f} {cpu:>6.2f} "
                f"{peak:>8.0f}  {alone}  {outcome}"
            )


if __name__ == "__main__":
    main()
