"""Standings benchmark (issue 3): the engine, the ``standings`` command and FIDE's gacrux.

For 100, 500, 1000 and 2000 players × 11 rounds of a generated Swiss it prints:
- the pure engine's time to rank with PTS, BH/C1, BH, SB, PS (best of 3, collector off),
- the ``standings`` command's wall time in a fresh process against PostgreSQL (event imported
  once from the same TRF), and
- gacrux's wall time on the same TRF with the same tie-breaks.

With ``--runs N`` the command and gacrux run N times each, alternately, and the medians are
printed (gacrux's time varies with the machine's load). The project's modules are compiled to
bytecode first, as gacrux's were when pip installed it: with PYTHONDONTWRITEBYTECODE set, the
command would otherwise compile them again in every run.

It prints figures; it asserts nothing. Usage (PostgreSQL on 127.0.0.1:5432, or DATABASE_URL):

    .venv/bin/python bench/standings.py [--sizes 100,500] [--runs 5] [--no-gacrux]
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from events.trf import write_trf  # noqa: E402
from standings import catalogue  # noqa: E402
from standings.ranking import rank  # noqa: E402
from tests.standings.generate import generate_large_swiss  # noqa: E402

CODES = ["BH/C1", "BH", "SB", "PS"]
PACKAGES = ["config", "events", "standings", "playoffs", "prizes", "draws"]
ROUNDS = 11


def best_of(runs: int, action) -> float:  # type: ignore[no-untyped-def]
    """The best of ``runs``, with the cyclic garbage collector off, as the ``standings``
    command runs (manage.py): otherwise the collector's passes over this process's own
    objects (growing with every size benchmarked) land in the larger sizes' figures."""
    times = []
    for _ in range(runs):
        gc.collect()
        gc.disable()
        try:
            start = time.perf_counter()
            action()
            times.append(time.perf_counter() - start)
        finally:
            gc.enable()
    return min(times)


def wall(cmd: list[str], env: dict[str, str], cwd: Path) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, env=env, cwd=cwd, check=True, capture_output=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="100,500,1000,2000")
    parser.add_argument("--runs", type=int, default=1, help="runs of the command and gacrux")
    parser.add_argument("--no-gacrux", action="store_true")
    args = parser.parse_args()
    catalogue.load()
    env = {
        **os.environ,
        "DATABASE_URL": os.environ.get(
            "DATABASE_URL", "postgres://postgres@127.0.0.1:5432/tournament_bench"
        ),
        "DEBUG": "1",
    }
    ensure_database(env)
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", *PACKAGES, "manage.py"],
        cwd=REPO,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    python = sys.executable
    print(
        f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}"
    )
    print(f"tie-breaks: PTS, {', '.join(CODES)}; {ROUNDS} rounds")
    print(
        f"{'players':>8} {'engine s':>9} {'µs/player':>10} {'command s':>10} {'gacrux s':>9} "
        f"{'gacrux/cmd':>10}"
    )
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        for size in (int(s) for s in args.sizes.split(",")):
            table = generate_large_swiss(size, ROUNDS)
            # A copy each time: the tie-breaks keep their precomputation per crosstable object.
            engine = best_of(3, lambda t=table: rank(replace(t), CODES, edition="2024"))
            trf_path = workdir / f"bench-{size}.trf"
            trf_path.write_text(write_trf(table))
            slug = f"bench-{size}-{int(time.time())}"
            subprocess.run(
                [python, "manage.py", "import_trf", str(trf_path), "--slug", slug],
                env=env,
                cwd=REPO,
                check=True,
                capture_output=True,
            )
            command_cmd = [
                python,
                "manage.py",
                "standings",
                slug,
                "--tiebreaks",
                ",".join(CODES),
                "--format",
                "json",
            ]
            gacrux_cmd = [
                python,
                "-m",
                "gacrux.tiebreakchecker",
                "-i",
                str(trf_path),
                "-s",
                "-t",
                "PTS",
                *CODES,
                "-d",
                "T",
            ]
            commands, gacruxes = [], []
            for _ in range(args.runs):
                commands.append(wall(command_cmd, env, REPO))
                if not args.no_gacrux:
                    gacruxes.append(wall(gacrux_cmd, env, workdir))
            command = statistics.median(commands)
            gacrux = statistics.median(gacruxes) if gacruxes else float("nan")
            print(
                f"{size:>8} {engine:>9.3f} {engine / size * 1e6:>10.1f} {command:>10.2f} "
                f"{gacrux:>9.2f} {gacrux / command:>10.1f}"
            )


def ensure_database(env: dict[str, str]) -> None:
    """Create the bench database on the local server if it is missing, and migrate it."""
    url = env["DATABASE_URL"]
    if url.startswith("postgres") and url.rsplit("/", 1)[-1] == "tournament_bench":
        import psycopg

        admin = url.rsplit("/", 1)[0] + "/postgres"
        with psycopg.connect(admin, autocommit=True) as conn:
            exists = conn.execute(
                "SELECT 1 FROM pg_database WHERE datname = 'tournament_bench'"
            ).fetchone()
            if not exists:
                conn.execute("CREATE DATABASE tournament_bench")
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], env=env, cwd=REPO, check=True)


if __name__ == "__main__":
    main()
