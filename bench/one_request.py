"""What one request can make a worker do at the largest event accepted (issue 29, the red team).

    .venv/bin/python bench/one_request.py [--players 5000] [--rounds 12] [--only NAME ...]

A Swiss of ``--players`` players (default 5,000 × 12 rounds: the 60,000 results of
``events/limits.py``, the largest event accepted), eleven rounds played and the twelfth paired,
every player's private link issued, in a scratch PostgreSQL database (dropped at the end), with
production settings (``DEBUG=0``, cached templates) and a per-process cache. Each request runs
in a process of its own through Django's test client, after a warm-up, and is measured: its
status, the bytes of its answer, its wall and CPU time, and how far it raised the process's
resident memory above what it held before (``VmHWM`` after, reset with ``/proc/self/clear_refs``
before, less ``VmRSS`` before). A process that runs past ``--timeout`` is killed and said so,
as gunicorn's timeout would.

Requests: the director's player cards (the page and its PDF, first and last page of cards),
the standings' explanation of two adjacent players (ten new pairs, the table already kept, and
ten refused ones, as an anonymous visitor), and a rating list manager's upload of a zipped CSV
of 3 million one-field lines (2.6 MB; every line a name).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import string
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import load  # noqa: E402  (bench/load.py: the event, the scratch database, the settings)

SETUP = """
import json, sys, django
django.setup()
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from events.exchange import event_import_document
from playerpage.services import player_links_issue
spec = json.loads(sys.stdin.read())
director = get_user_model().objects.create_user("bench-director", password=None)
director.user_permissions.add(Permission.objects.get(codename="manage_rating_lists"))
event = event_import_document(text=json.dumps(spec["document"]), user=director)
player_links_issue(event=event, user=director)
print(json.dumps({"slug": event.slug}))
"""

MEASURE = """
import json, random, re, sys, time
import django
django.setup()
from django.contrib.auth import get_user_model
from django.test import Client
from django.test.utils import setup_test_environment
setup_test_environment()
spec = json.loads(sys.stdin.read())

def kb(field):
    with open("/proc/self/status") as status:
        return int(re.search(field + r":\\s+(\\d+)", status.read()).group(1))

client = Client()
if spec["login"]:
    client.force_login(get_user_model().objects.get(username=spec["login"]))
for path in spec["warm"]:
    client.get(path)

def measured(path, data=None):
    with open("/proc/self/clear_refs", "w") as clear:
        clear.write("5")  # the peak (VmHWM) starts again from what the process holds now
    before = kb("VmRSS")
    wall, cpu = time.perf_counter(), time.process_time()
    if data is None:
        response = client.get(path)
    else:
        response = client.post(path, data)
    body = b"".join(response) if response.streaming else response.content
    return {
        "status": response.status_code,
        "bytes": len(body),
        "wall": time.perf_counter() - wall,
        "cpu": time.process_time() - cpu,
        "peak_mb": (kb("VmHWM") - before) / 1024,
        "said": re.findall(rb'role="alert"[^>]*>([^<]*)', body)[:1],
    }

if spec.get("pairs"):
    from events.selectors import event_get
    from standings.selectors import event_standings
    rows = event_standings(event_get(spec["slug"])).rows
    picks = random.Random(29).sample(range(len(rows) - 1), spec["pairs"])
    results = []
    for i in picks:
        a, b = rows[i].start_no, rows[i + 1].start_no
        if spec["refused"]:
            b = rows[(i + 2) % len(rows)].start_no  # not adjacent: refused (400)
        results.append(measured(f"/e/{spec['slug']}/standings/explain/?a={a}&b={b}"))
else:
    upload = spec.get("upload")
    if upload:
        with open(upload["file"], "rb") as handle:
            results = [measured(spec["path"], {**upload["fields"], "file": handle})]
    else:
        results = [measured(spec["path"])]
for result in results:
    result["said"] = [text.decode() for text in result["said"]]
print(json.dumps(results))
"""


def three_million_names(path: Path, lines: int = 3_000_001) -> None:
    """A national list as a CSV: a header and a one-letter name a line, zipped (2.6 MB)."""
    rng = random.Random(29)
    text = "name\n" + "".join(rng.choice(string.ascii_letters) + "\n" for _ in range(lines))
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("list.csv", text)


CARDS_PER_PAGE = 240  # playerpage.selectors.CARDS_PER_PAGE


def requests(slug: str, players: int, work: Path, only: list[str]) -> dict[str, dict[str, Any]]:
    cards = f"/e/{slug}/players/cards/"
    last = f"?page={-(-players // CARDS_PER_PAGE)}"
    director = {"login": "bench-director", "warm": [f"/e/{slug}/players/links/"]}
    visitor = {"login": "", "warm": [f"/e/{slug}/standings/"], "slug": slug}
    attack = work / "names.zip"
    three_million_names(attack)
    upload = {
        "file": str(attack),
        "fields": {"csv": "on", "column_name": "name", "name": "Bench names", "import": "1"},
    }
    every = {
        "cards page (first)": {**director, "path": cards},
        "cards page (last)": {**director, "path": cards + last},
        "cards PDF (first)": {**director, "path": f"/e/{slug}/players/cards.pdf"},
        "cards PDF (last)": {**director, "path": f"/e/{slug}/players/cards.pdf{last}"},
        "links page": {
            **director,
            "path": f"/e/{slug}/players/links/",
            "warm": ["/accounts/password_change/"],
        },
        "explain a new pair": {**visitor, "pairs": 10, "refused": False},
        "explain a refused pair": {**visitor, "pairs": 10, "refused": True},
        "3 million one-field lines, zipped (2.6 MB)": {
            **director,
            "warm": ["/rating-lists/"],
            "path": "/rating-lists/",
            "upload": upload,
        },
    }
    return {name: spec for name, spec in every.items() if not only or name in only}


def run_one(spec: dict[str, Any], env: dict[str, str], timeout: float) -> list[dict[str, Any]]:
    started = time.perf_counter()
    try:
        done = subprocess.run(
            [sys.executable, "-c", MEASURE], cwd=load.REPO, capture_output=True, text=True,
            input=json.dumps(spec), env=env, timeout=timeout, check=False,
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        return [{"killed": time.perf_counter() - started}]
    if done.returncode != 0:
        raise SystemExit(done.stderr[-3000:])
    results: list[dict[str, Any]] = json.loads(done.stdout.strip().splitlines()[-1])
    return results


def line(name: str, results: list[dict[str, Any]]) -> str:
    if "killed" in results[0]:
        return f"| {name} | killed after {results[0]['killed']:.0f} s | | | | |"
    if len(results) > 1:  # pairs: the first (it may keep what the others read), then the rest
        first, rest = results[0], results[1:]
        walls = sorted(r["wall"] for r in rest)
        cpus = sorted(r["cpu"] for r in rest)
        statuses = sorted({r["status"] for r in results})
        return (
            f"| {name}: the first | {statuses} | {first['bytes']:,} | {first['wall']:.3f} | "
            f"{first['cpu']:.3f} | {first['peak_mb']:.0f} |\n"
            f"| {name}: {len(rest)} more, median (max) | {statuses} | {rest[0]['bytes']:,} | "
            f"{walls[len(walls) // 2]:.3f} ({walls[-1]:.3f}) | "
            f"{cpus[len(cpus) // 2]:.3f} ({cpus[-1]:.3f}) | "
            f"{max(r['peak_mb'] for r in rest):.0f} |"
        )
    r = results[0]
    said = f" {r['said'][0][:90]}" if r["said"] else ""
    return (
        f"| {name} | {r['status']}{said} | {r['bytes']:,} | {r['wall']:.2f} | {r['cpu']:.2f} | "
        f"{r['peak_mb']:.0f} |"
    )


def prepare(env: dict[str, str], options: argparse.Namespace) -> str:
    """Migrate, collect the static files, import the event, issue the links: its slug."""
    for command in (["migrate", "--noinput"], ["collectstatic", "--noinput"]):
        subprocess.run(
            [sys.executable, "manage.py", *command, "-v", "0"], cwd=load.REPO, env=env, check=True
        )
    document = load.swiss(options.players, options.rounds, options.rounds - 1)
    for player in document["players"]:  # 2800 down to 800, whatever the field
        player["rating"] = 2800 - player["start_no"] * 2000 // options.players
    made = subprocess.run(
        [sys.executable, "-c", SETUP], cwd=load.REPO, env=env, check=False,
        capture_output=True, text=True, input=json.dumps({"document": document}),
    )  # fmt: skip
    if made.returncode != 0:
        raise SystemExit(made.stderr[-3000:])
    return str(json.loads(made.stdout.strip().splitlines()[-1])["slug"])


def measure(database_url: str, work: Path, options: argparse.Namespace) -> list[str]:
    env = load.django_env(database_url, STATIC_ROOT=str(work / "static"))
    env.update(ALLOWED_HOSTS="testserver", REDIS_URL="", MEDIA_ROOT=str(work / "media"))
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"
    if options.database:  # prepared by an earlier --keep run
        subprocess.run(
            [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
            cwd=load.REPO, env=env, check=True,
        )  # fmt: skip
        slug = "bench-open"
    else:
        slug = prepare(env, options)
    rows = []
    for name, spec in requests(slug, options.players, work, options.only).items():
        rows.append(line(name, run_one(spec, env, options.timeout)))
        print(rows[-1], file=sys.stderr)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--timeout", type=float, default=120, help="seconds, as gunicorn's")
    parser.add_argument("--only", nargs="*", default=[], help="measure only these requests")
    parser.add_argument("--keep", action="store_true", help="keep the scratch database")
    parser.add_argument("--database", default="", help="the URL of a kept scratch database")
    options = parser.parse_args()
    if not 4 <= options.players <= 5000 or not 2 <= options.rounds <= 99:
        parser.error("4 to 5,000 players, 2 to 99 rounds")
    server = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
    with tempfile.TemporaryDirectory(prefix="td-one-") as scratch:
        if options.database:
            rows = measure(options.database, Path(scratch), options)
        elif options.keep:
            name = f"td_bench_one_{os.getpid()}"
            import psycopg

            with psycopg.connect(server, autocommit=True) as link:
                link.execute(f'CREATE DATABASE "{name}"')
            kept = server.rsplit("/", 1)[0] + "/" + name
            print(f"kept: --database {kept}", file=sys.stderr)
            rows = measure(kept, Path(scratch), options)
        else:
            with load.scratch_database(server) as database_url:
                rows = measure(database_url, Path(scratch), options)
    print(
        f"{options.players} players × {options.rounds} rounds; {load.machine()}; load average "
        f"{load.load_average()}; {time.strftime('%Y-%m-%d %H:%M')}\n"
    )
    print(
        "| request | status | bytes | wall s | CPU s | memory MB |\n|---|---|---:|---:|---:|---:|"
    )
    print("\n".join(rows))


if __name__ == "__main__":
    main()
