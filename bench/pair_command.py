"""``manage.py pair`` as a whole process against bbpPairings' process (issue 20, "Speed").

Not a test: prints figures. For each field size it takes the 9-round tournament that
bbpPairings' generator makes (``bench/pairing.py``'s, cached), imports rounds 1 to R-1 into
PostgreSQL with ``manage.py import_trf`` (the file another program exports after round R-1:
``XXR`` with the scheduled rounds, ``XXC`` with the initial colour), then times, alternating,
``manage.py pair SLUG --dry-run`` (Django's start, the database read, the engine, the JSON
printed) and ``bbpPairings.exe --dutch FILE -p`` on the same file (its start, reading, pairing,
writing). Wall time is what a director waits; the CPU time of each child process is printed
beside it, being much less disturbed when other work shares the machine. The last column says
whether both gave the same boards and bye.

Then the director's "Pair round R" button on the same event, in a process of its own with
production settings: the POST (pairing and storing the round as a draft) and the review page
the browser is sent to, each timed, the round discarded again (a rolled-back transaction)
between runs.

    .venv/bin/python bench/pair_command.py                 # 300 and 1,000 players, round 5
    .venv/bin/python bench/pair_command.py 300 --runs 7 --round 9
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.pairing import tournament  # noqa: E402
from bench.standings import ensure_database  # noqa: E402
from tests.draws.swiss import bbp  # noqa: E402


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(command: list[str], env: dict[str, str] | None = None) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds, stdout) of one process."""
    cpu = _children_cpu()
    start = time.perf_counter()
    done = subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - start
    if done.returncode:
        raise SystemExit(f"{' '.join(command[:4])}: {done.stderr.strip().splitlines()[-1:]}")
    return wall, _children_cpu() - cpu, done.stdout


def ours_pairs(document: str) -> tuple[list[tuple[int, int]], int | None]:
    pairing = json.loads(document)
    boards = [(board["white"], board["black"]) for board in pairing["boards"]]
    bye = next((b["start_no"] for b in pairing["byes"] if b["kind"] == "pairing"), None)
    return boards, bye


def measure(exe: str, players: int, round_no: int, runs: int, env: dict[str, str]) -> str:
    crosstable, total = bbp.parse(tournament(exe, players))
    initial = bbp.infer_initial_colour(crosstable)
    trf = bbp.round_trf(crosstable, round_no, total, initial)
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch, "cut.trf")
        path.write_text(trf)
        slug = f"bench-pair-{players}-{round_no}-{int(time.time())}"
        manage = [sys.executable, "manage.py"]
        timed([*manage, "import_trf", str(path), "--slug", slug], env)
        theirs, ours, theirs_cpu, ours_cpu = [], [], [], []
        same = True
        for _ in range(runs):
            wall, cpu, _ = timed([exe, "--dutch", str(path), "-p", str(Path(scratch, "out"))])
            theirs.append(wall)
            theirs_cpu.append(cpu)
            wall, cpu, document = timed([*manage, "pair", slug, "--dry-run"], env)
            ours.append(wall)
            ours_cpu.append(cpu)
            boards, bye, _ = bbp.run_pairer(exe, trf)
            same &= ours_pairs(document) == (boards, bye)
        post, review = button(slug, round_no, runs, env)
    t, o = statistics.median(theirs), statistics.median(ours)
    tc, oc = statistics.median(theirs_cpu), statistics.median(ours_cpu)
    return (
        f"| {players} | {round_no} | {t:.3f} | {o:.3f} | {o / t:.2f} | {tc:.3f} | {oc:.3f} "
        f"| {oc / tc:.2f} | {'yes' if same else 'NO'} | {post:.3f} | {review:.3f} |"
    )


BUTTON = """
import os, statistics, sys, time
import django
django.setup()
from django.contrib.auth import get_user_model
from django.db import transaction
from django.test import Client
slug, round_no, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
user, _ = get_user_model().objects.get_or_create(
    username="bench-director", defaults={"is_superuser": True, "is_staff": True}
)
client = Client()
client.force_login(user)
posts, reviews = [], []
for _ in range(runs):
    with transaction.atomic():
        start = time.perf_counter()
        answer = client.post(f"/e/{slug}/swiss/rounds/{round_no}/pair/")
        posts.append(time.perf_counter() - start)
        assert answer.status_code == 302 and "/rounds/" in answer["Location"], answer
        start = time.perf_counter()
        page = client.get(answer["Location"])
        reviews.append(time.perf_counter() - start)
        assert page.status_code == 200
        transaction.set_rollback(True)
print(f"{statistics.median(posts):.3f} {statistics.median(reviews):.3f}")
"""


def button(slug: str, round_no: int, runs: int, env: dict[str, str]) -> tuple[float, float]:
    """(POST seconds, review page seconds), medians, inside one warm process."""
    child = {**env, "DJANGO_SETTINGS_MODULE": "config.settings"}
    _, _, out = timed([sys.executable, "-c", BUTTON, slug, str(round_no), str(runs)], child)
    post, review = (float(x) for x in out.split())
    return post, review


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sizes", nargs="*", type=int, default=[300, 1000])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--round", type=int, default=5, dest="round_no")
    args = parser.parse_args(argv)
    exe = bbp.bbp_path()
    if exe is None:
        raise SystemExit(bbp.skip_reason())
    env = {
        **os.environ,
        "DATABASE_URL": os.environ.get(
            "DATABASE_URL", "postgres://postgres@127.0.0.1:5432/tournament_bench"
        ),
        "DEBUG": "0",
        "SECRET_KEY": "bench-only-not-a-secret",
        "ALLOWED_HOSTS": "localhost,testserver",
        "SECURE_COOKIES": "0",
    }
    ensure_database(env)
    # The pages use the static files' manifest, as in production: collected once, here.
    static = Path(tempfile.mkdtemp(prefix="pair-bench-static-"))
    env["STATIC_ROOT"] = str(static)
    timed([sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"], env)
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}, load average {os.getloadavg()[0]:.1f}; "
        f"median of {args.runs} runs"
    )
    print(
        "| players | round | bbpPairings s | pair s | ratio | bbp CPU s | pair CPU s "
        "| CPU ratio | same | button POST s | review page s |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    try:
        for players in args.sizes:
            print(measure(exe, players, args.round_no, args.runs, env), flush=True)
    finally:
        shutil.rmtree(static, ignore_errors=True)


if __name__ == "__main__":
    main(sys.argv[1:])
