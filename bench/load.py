"""Load test (issue 9): spectators polling the live pages, directors entering results.

    .venv/bin/python bench/load.py [--duration 60] [--spectators 500] [--directors 10]

Runs everything on loopback and cleans up after itself: a scratch PostgreSQL database
(created on the server of ``DATABASE_URL``, default ``127.0.0.1:5432``, and dropped at the end),
Redis on ``127.0.0.1:6379`` under a key prefix of its own (deleted at the end), gunicorn on a
free port of 127.0.0.1, and locust (headless, a fixed number of users, a fixed run time) as the
load. Then it checks that every result a director submitted is stored exactly once with exactly
one audit entry, and measures the throughput of ``/healthz`` and of the cached standings at
saturation for comparison. It prints a Markdown report (``--report FILE`` also writes it).

The same file is the locustfile: locust imports it and finds the user classes below.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import itertools
import json
import os
import platform
import random
import re
import secrets
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
RESULTS = ("1-0", "0-1", "1/2-1/2")
POLL_SECONDS = 20  # standings/views.py POLL_SECONDS: how often the pages poll

if os.environ.get("LOAD_PLAN"):  # imported by locust: define the simulated people
    from locust import FastHttpUser, HttpUser, between, constant, task
    from locust.exception import StopUser

    PLAN = json.loads(Path(os.environ["LOAD_PLAN"]).read_text())
    LOG = Path(os.environ["LOAD_LOG"])
    SLUG = PLAN["slug"]
    _director_numbers = itertools.count()
    _spectator_numbers = itertools.count()

    class Spectator(FastHttpUser):
        """A phone on a public page: htmx polls it every 20 s with If-None-Match."""

        weight = 50
        wait_time = constant(POLL_SECONDS)

        def on_start(self) -> None:
            number = next(_spectator_numbers)
            self.path, self.name, self.htmx = [
                (f"/e/{SLUG}/standings/", "standings (htmx poll)", True),
                (f"/e/{SLUG}/rounds/{PLAN['current_round']}/", "pairings", False),
                (f"/e/{SLUG}/crosstable/", "crosstable", False),
            ][number % 3]
            self.etag = ""
            time.sleep(random.uniform(0, POLL_SECONDS))  # phones do not poll in step

        @task
        def poll(self) -> None:
            headers = {"If-None-Match": self.etag} if self.etag else {}
            if self.htmx:
                headers["HX-Request"] = "true"
            with self.client.get(
                self.path, headers=headers, name=self.name, catch_response=True
            ) as response:
                if response.status_code not in (200, 304):
                    response.failure(f"status {response.status_code}")
                    return
                self.etag = response.headers.get("ETag", self.etag)
                response.success()

    class Director(HttpUser):
        """Opens the round's result entry, enters the next of their games, and so on."""

        weight = 1
        fixed_count = int(os.environ.get("LOAD_DIRECTORS", "10"))
        wait_time = between(1, 2)

        def on_start(self) -> None:
            self.number = next(_director_numbers) % len(PLAN["directors"])
            account = PLAN["directors"][self.number]
            self.todo = list(account["games"])
            self.client.get("/accounts/login/", name="login page")
            response = self.client.post(
                "/accounts/login/",
                {
                    "username": account["username"],
                    "password": account["password"],
                    "csrfmiddlewaretoken": self.client.cookies.get("csrftoken", ""),
                },
                name="login",
                allow_redirects=False,
            )
            if response.status_code != 302:
                raise StopUser()

        @task
        def enter_next_result(self) -> None:
            if not self.todo:
                raise StopUser()
            round_no, game_id = self.todo[0]
            page = self.client.get(f"/e/{SLUG}/rounds/{round_no}/results/", name="result entry")
            found = re.search(
                rf'/games/{game_id}/result/".*?name="version" value="(\d+)"', page.text, re.S
            )
            if found is None:
                return
            result = RESULTS[game_id % 3]
            response = self.client.post(
                f"/e/{SLUG}/games/{game_id}/result/",
                {
                    "result": result,
                    "version": found.group(1),
                    "csrfmiddlewaretoken": self.client.cookies.get("csrftoken", ""),
                },
                name="result POST",
                allow_redirects=False,
            )
            with LOG.open("a") as log:
                log.write(f"{game_id} {result} {response.status_code}\n")
            if response.status_code == 302:
                self.todo.pop(0)

    class Healthz(FastHttpUser):
        """Saturation: Django's floor, a view that touches neither database nor cache."""

        wait_time = constant(0)

        @task
        def healthz(self) -> None:
            self.client.get("/healthz", name="/healthz")

    class StandingsUnchanged(FastHttpUser):
        """Saturation: the standings poll answered 304 (ETag from the results version)."""

        wait_time = constant(0)

        def on_start(self) -> None:
            response = self.client.get(
                f"/e/{SLUG}/standings/", headers={"HX-Request": "true"}, name="standings first"
            )
            self.etag = response.headers.get("ETag", "")

        @task
        def poll(self) -> None:
            headers = {"HX-Request": "true", "If-None-Match": self.etag}
            self.client.get(f"/e/{SLUG}/standings/", headers=headers, name="standings 304")

    class StandingsFromCache(FastHttpUser):
        """Saturation: the standings partial rendered in full from the cached table (200)."""

        wait_time = constant(0)

        @task
        def poll(self) -> None:
            self.client.get(
                f"/e/{SLUG}/standings/", headers={"HX-Request": "true"}, name="standings 200"
            )


# -- The orchestration (python bench/load.py) --------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def swiss(players: int, rounds: int, played: int) -> dict[str, Any]:
    """A Swiss whose round r pairs i with i + players/2 (rotated): nobody meets twice."""
    half = players // 2
    games = []
    for number in range(1, rounds + 1):
        for board in range(1, half + 1):
            black = half + (board - 1 + number - 1) % half + 1
            result = RESULTS[(board + number) % 3] if number <= played else None
            games.append(
                {"round": number, "board": board, "white": board, "black": black, "result": result}
            )
    return {
        "format": "tournament-event/1",
        "name": "Bench Open",
        "slug": "bench-open",
        "system": "swiss",
        "time_control": "classical",
        "rounds": rounds,
        "regulation": {"preset": "fide-2024"},
        "players": [
            {"start_no": n, "name": f"Player {n:03d}", "federation": "NOR", "rating": 2700 - n}
            for n in range(1, players + 1)
        ],
        "games": games,
    }


SETUP = """
import json, sys, django
django.setup()
from django.contrib.auth import get_user_model
from events.exchange import event_import_document
from events.models import Game
from events.services import access_grant
spec = json.loads(sys.stdin.read())
users = get_user_model().objects
owner = users.create_user("bench-owner", password=spec["password"])
event = event_import_document(text=json.dumps(spec["document"]), user=owner)
directors = []
for i in range(spec["directors"]):
    name = f"bench-director-{i}"
    users.create_user(name, password=spec["password"])
    access_grant(event=event, username=name, role="director", user=owner)
    games = Game.objects.filter(round__event=event, result="")
    mine = [(g.round.number, g.pk) for g in games.select_related("round").order_by(
        "round__number", "board") if g.board % spec["directors"] == i]
    directors.append({"username": name, "password": spec["password"], "games": mine})
print(json.dumps({"slug": event.slug, "directors": directors}))
"""


def django_env(database_url: str, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    env.update(
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="127.0.0.1",
        SECURE_COOKIES="0",
        DATABASE_URL=database_url,
        **extra,
    )
    return env


@contextlib.contextmanager
def scratch_database(server_url: str) -> Iterator[str]:
    import psycopg

    name = f"td_bench_{os.getpid()}"
    with psycopg.connect(server_url, autocommit=True) as link:
        link.execute(f'CREATE DATABASE "{name}"')
    try:
        yield server_url.rsplit("/", 1)[0] + "/" + name
    finally:
        with psycopg.connect(server_url, autocommit=True) as link:
            link.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextlib.contextmanager
def gunicorn(env: dict[str, str], workers: int) -> Iterator[str]:
    port = free_port()
    command = [
        sys.executable, "-m", "gunicorn", "config.wsgi", "--bind", f"127.0.0.1:{port}",
        "--workers", str(workers), "--backlog", "2048", "--timeout", "60",
    ]  # fmt: skip
    process = subprocess.Popen(command, cwd=REPO, env=env, stderr=subprocess.DEVNULL)
    host = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while not _answers(port):
            if process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit("gunicorn did not start")
            time.sleep(0.1)
        yield host
    finally:
        process.terminate()
        process.wait(60)


def _answers(port: int) -> bool:
    import http.client

    try:
        link = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
        link.request("GET", "/healthz", headers={"Host": "127.0.0.1"})
        return link.getresponse().status == 200
    except OSError:
        return False


def locust(host: str, plan: Path, log: Path, users: list[str], options: argparse.Namespace,
           count: int, seconds: int, prefix: str) -> list[dict[str, str]]:  # fmt: skip
    """One headless locust run: fixed users, fixed time, stops by itself; the CSV rows."""
    env = {**os.environ, "LOAD_PLAN": str(plan), "LOAD_LOG": str(log)}
    env["LOAD_DIRECTORS"] = str(options.directors)
    command = [
        sys.executable, "-m", "locust", "-f", __file__, "--headless", "--host", host,
        "--users", str(count), "--spawn-rate", str(max(count // 5, 1)),
        "--run-time", f"{seconds}s", "--stop-timeout", "10", "--csv", prefix,
        "--only-summary", "--loglevel", "WARNING", *users,
    ]  # fmt: skip
    subprocess.run(command, env=env, check=False, timeout=seconds + 120, cwd=REPO)
    with open(f"{prefix}_stats.csv", newline="") as stats:
        return list(csv.DictReader(stats))


def verify(database_url: str, slug: str, log: Path) -> dict[str, int]:
    """Every accepted submission is stored, once, with one audit entry; nothing else is."""
    import psycopg

    submitted = {}
    refused = 0
    for line in log.read_text().split("\n") if log.exists() else []:
        if line:
            game_id, result, status = line.split()
            if status == "302":
                submitted[int(game_id)] = result
            else:
                refused += 1
    with psycopg.connect(database_url) as link:
        stored = dict(
            link.execute(
                "SELECT g.id, g.result FROM events_game g JOIN events_round r ON r.id = g.round_id"
                " JOIN events_event e ON e.id = r.event_id WHERE e.slug = %s AND g.id = ANY(%s)",
                [slug, list(submitted)],
            ).fetchall()
        )
        audits = dict(
            link.execute(
                "SELECT game_id, count(*) FROM events_auditentry WHERE game_id = ANY(%s) "
                "AND action LIKE 'result.%%' GROUP BY game_id",
                [list(submitted)],
            ).fetchall()
        )
    wrong = sum(1 for game, result in submitted.items() if stored.get(game) != result)
    audit_wrong = sum(1 for game in submitted if audits.get(game) != 1)
    return {
        "accepted": len(submitted),
        "refused": refused,
        "stored_wrong": wrong,
        "audit_not_exactly_one": audit_wrong,
    }


def machine() -> str:
    model = next(
        (line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
         if line.startswith("model name")), platform.processor())  # fmt: skip
    memory = Path("/proc/meminfo").read_text().split("\n")[0].split()[1]
    return (
        f"{os.cpu_count()} cores ({model}), {int(memory) // 1024**2} GiB, "
        f"Python {platform.python_version()}, {platform.system()} {platform.release()}"
    )


def table(rows: list[dict[str, str]]) -> str:
    lines = [
        "| request | count | failures | req/s | p50 ms | p95 ms | p99 ms |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        lines.append(
            f"| {row['Name']} | {row['Request Count']} | {row['Failure Count']} | "
            f"{float(row['Requests/s']):.1f} | {row['50%']} | {row['95%']} | {row['99%']} |"
        )
    return "\n".join(lines)


def aggregate(rows: list[dict[str, str]]) -> dict[str, str]:
    return next(row for row in rows if row["Name"] == "Aggregated")


def run(options: argparse.Namespace) -> str:
    import redis

    prefix = f"td-bench-{secrets.token_hex(4)}"
    work = Path(tempfile.mkdtemp(prefix="td-load-"))
    report = [f"Machine: {machine()}; gunicorn --workers {options.workers} (sync)."]
    server = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
    with scratch_database(server) as database_url:
        env = django_env(
            database_url, REDIS_URL="redis://127.0.0.1:6379/0", CACHE_KEY_PREFIX=prefix
        )
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
            cwd=REPO, env=env, check=True,
        )  # fmt: skip
        spec = {
            "document": swiss(options.players, options.rounds, options.played),
            "directors": options.directors,
            "password": secrets.token_urlsafe(12),
        }
        created = subprocess.run(
            [sys.executable, "-c", SETUP], cwd=REPO, check=True, capture_output=True, text=True,
            input=json.dumps(spec), env={**env, "DJANGO_SETTINGS_MODULE": "config.settings"},
        )  # fmt: skip
        plan = json.loads(created.stdout.strip().splitlines()[-1])
        plan["current_round"] = options.played + 1
        plan_file, log = work / "plan.json", work / "submissions.log"
        plan_file.write_text(json.dumps(plan))
        try:
            with gunicorn(env, options.workers) as host:
                report += measure(host, plan_file, log, options, work)
        finally:
            keys = redis.Redis.from_url("redis://127.0.0.1:6379/0").keys(f"{prefix}:*")
            if keys:
                redis.Redis.from_url("redis://127.0.0.1:6379/0").delete(*keys)
        checked = verify(database_url, plan["slug"], log)
    report.append(
        f"\nResult check: {checked['accepted']} results accepted, {checked['refused']} refused; "
        f"stored wrong: {checked['stored_wrong']}; "
        f"audit entries not exactly one: {checked['audit_not_exactly_one']}."
    )
    return "\n".join(report)


def measure(host: str, plan: Path, log: Path, options: argparse.Namespace, work: Path) -> list[str]:
    users = options.spectators + options.directors
    mix = locust(host, plan, log, ["Spectator", "Director"], options, users, options.duration,
                 str(work / "mix"))  # fmt: skip
    lines = [
        f"\n### Mixed load: {options.spectators} spectators + {options.directors} directors, "
        f"{options.duration} s\n",
        table(mix),
    ]
    lines.append(f"\n### Saturation, {options.saturation_users} users, no think time, "
                 f"{options.saturation} s each\n")  # fmt: skip
    rows = []
    for user in ("Healthz", "StandingsUnchanged", "StandingsFromCache"):
        rows += [
            row
            for row in locust(
                host,
                plan,
                log,
                [user],
                options,
                options.saturation_users,
                options.saturation,
                str(work / user),
            )  # fmt: skip
            if row["Name"] != "Aggregated"
        ]
    lines.append(table(rows))
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=int, default=60, help="seconds of mixed load")
    parser.add_argument("--spectators", type=int, default=500)
    parser.add_argument("--directors", type=int, default=10)
    parser.add_argument("--workers", type=int, default=4, help="gunicorn workers")
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--played", type=int, default=4, help="rounds complete at the start")
    parser.add_argument("--saturation", type=int, default=15, help="seconds per saturation run")
    parser.add_argument("--saturation-users", type=int, default=32)
    parser.add_argument("--report", default="", help="also write the report to this file")
    options = parser.parse_args()
    for name in ("duration", "saturation"):
        if not 1 <= getattr(options, name) <= 600:
            parser.error(f"--{name} must be between 1 and 600 seconds")
    if options.spectators + options.directors > 2000:
        parser.error("at most 2000 simulated users")
    started = time.monotonic()
    text = run(options)
    text += f"\n\n(total wall time {time.monotonic() - started:.0f} s)"
    print(text)
    if options.report:
        Path(options.report).write_text(text + "\n")


if __name__ == "__main__":
    main()
