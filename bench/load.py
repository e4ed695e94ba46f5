"""Load test (issues 9 and 24): a live round, spectators alone and then while results come in.

    .venv/bin/python bench/load.py [--quiet 60] [--entry 150] [--spectators 600] [--directors 10]

The scenario of issue 24, both phases in one run against one server: a 300-player Swiss with
rounds 1-4 played and round 5 paired; 600 spectators, each loading two of the event page, the
standings, round 5's pairings, the crosstable and the hall screen every 15-25 s (half of them
revalidating with the ETag of their last answer, as the pages' htmx polling does, half arriving
fresh with a full page load). First the spectators alone (``--quiet`` seconds), then the same
spectators while 10 directors enter round 5's results through the result entry page and its
form, spread over ``--entry`` seconds. A watcher loads round 5's pairings every second, as a
newcomer would, and notes when each result first shows.

It prints, per page and phase, p50/p95 of the spectators' requests, the worst page's p95 in
each phase and their ratio, the directors' result POST and result entry page, the errors, how
long a saved result took to reach the public pages, and checks in the database that every
result a director saved is stored exactly once with exactly one audit entry. ``--saturation
SECONDS`` adds issue 9's throughput runs (``/healthz``, the standings poll answered 304 and 200).

``--phones 300`` adds the players of issue 21: that many players poll their private page
(``/p/TOKEN/``) every 20 s as its htmx poll does (ETag, HX-Request), and from the entry phase on
both players of the first ``--phones/4`` boards report the same result from their page (150
reporters for 300 phones), a second or two apart, as a normal form POST with the CSRF token;
the directors enter the other boards. The check then also holds each reported game to its
result stored once, exactly one result audit entry and two report entries.

Everything runs on loopback and is cleaned up: a scratch PostgreSQL database (on the server of
``DATABASE_URL``, default ``127.0.0.1:5432``; dropped at the end), Redis on ``127.0.0.1:6379``
under a key prefix of its own (deleted at the end), gunicorn on a free port of 127.0.0.1 with
``DEBUG=0``, and locust (headless, fixed users, fixed run time). The same file is the
locustfile: locust imports it and finds the user classes below.
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
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
RESULTS = ("1-0", "0-1", "1/2-1/2")
SHOWN = {"1-0": "1-0", "0-1": "0-1", "1/2-1/2": "½-½"}  # Game.get_result_display
POLL_SECONDS = 20  # standings/views.py POLL_SECONDS: how often the pages poll
SPECTATOR_WAIT = (15, 25)  # seconds between two loads of a spectator's pages
WARM_UP = 25  # seconds: users start, directors log in, first loads spread; not measured
TAIL = 15  # seconds after the entry phase, so that the watcher can see the last results
PAGES = ("event page", "standings", "pairings", "crosstable", "hall")
POLLED = {"event page", "standings", "hall"}  # their htmx polls fetch a partial (HX-Request)
PHASES = ("quiet", "entry")


def phase_of(moment: float, phases: list[float]) -> str:
    """Which phase a moment falls in, given when the quiet phase, the result entry and the end
    begin (the warm-up before, the tail after are not measured)."""
    quiet_at, entry_at, end_at = phases
    if moment < quiet_at:
        return "warm-up"
    if moment < entry_at:
        return "quiet"
    return "entry" if moment < end_at else "tail"


if os.environ.get("LOAD_PLAN"):  # imported by locust: define the simulated people
    from locust import FastHttpUser, HttpUser, between, constant, constant_pacing, events, task
    from locust.exception import StopUser

    PLAN = json.loads(Path(os.environ["LOAD_PLAN"]).read_text())
    LOG = Path(os.environ["LOAD_LOG"])
    SLUG = PLAN["slug"]
    ROUND = PLAN["current_round"]
    _, ENTRY_AT, END_AT = PLAN["phases"]
    PATHS = {
        "event page": f"/e/{SLUG}/",
        "standings": f"/e/{SLUG}/standings/",
        "pairings": f"/e/{SLUG}/rounds/{ROUND}/",
        "crosstable": f"/e/{SLUG}/crosstable/",
        "hall": f"/e/{SLUG}/hall/",
    }
    PAIRS = list(itertools.combinations(PAGES, 2))
    _director_numbers = itertools.count()
    _spectator_numbers = itertools.count()
    _phone_numbers = itertools.count()
    _samples: list[tuple[str, str, float, str]] = []

    @events.request.add_listener
    def _sample(name: str, response_time: float, exception: Any, start_time: float, **_: Any):  # type: ignore[no-untyped-def]
        """Every request's own time, to compute exact percentiles per phase afterwards."""
        error = type(exception).__name__ if exception else ""
        _samples.append((phase_of(start_time, PLAN["phases"]), name, response_time, error))

    @events.test_stop.add_listener
    def _dump(**_: Any) -> None:
        Path(os.environ["LOAD_SAMPLES"]).write_text(json.dumps(_samples))

    class Spectator(FastHttpUser):
        """A phone on two public pages. Revalidating: the page's own htmx poll with the last
        ETag; fresh: a newcomer's full page load, no ETag."""

        fixed_count = int(os.environ.get("LOAD_SPECTATORS", "600"))
        wait_time = between(*SPECTATOR_WAIT)

        def on_start(self) -> None:
            number = next(_spectator_numbers)
            self.kind = "revalidating" if number % 2 == 0 else "fresh"
            self.pages = PAIRS[(number // 2) % len(PAIRS)]
            self.etags: dict[str, str] = {}
            time.sleep(random.uniform(0, SPECTATOR_WAIT[1]))  # phones do not load in step

        @task
        def load(self) -> None:
            for page in self.pages:
                headers = {}
                if self.kind == "revalidating" and page in self.etags:
                    headers["If-None-Match"] = self.etags[page]
                    if page in POLLED:
                        headers["HX-Request"] = "true"
                with self.client.get(
                    PATHS[page], headers=headers, name=f"{page}|{self.kind}", catch_response=True
                ) as response:
                    if response.status_code not in (200, 304):
                        response.failure(f"status {response.status_code}")
                        continue
                    self.etags[page] = response.headers.get("ETag", "")
                    response.success()

    class Watcher(FastHttpUser):
        """Loads round 5's pairings every second as a newcomer and logs when each result
        first shows: how long a saved result takes to reach the spectators."""

        fixed_count = 1
        wait_time = constant(1)

        def on_start(self) -> None:
            self.seen: set[int] = set()

        @task
        def look(self) -> None:
            response = self.client.get(PATHS["pairings"], name="watcher")
            shown = re.findall(
                r'<td class="num">(\d+)</td><td>[^<]*</td><td><strong>([^<]*)</strong>',
                response.text or "",
            )
            now = time.time()
            with LOG.with_suffix(".seen").open("a") as log:
                for board, result in shown:
                    if result in SHOWN.values() and int(board) not in self.seen:
                        self.seen.add(int(board))
                        log.write(f"{board} {result} {now:.3f}\n")

    class Director(HttpUser):
        """Logs in during the warm-up; from the entry phase on, opens round 5's result entry
        page, reads the game's version and saves the result as the page's form does (htmx),
        paced so that the round's results are spread over the phase."""

        fixed_count = int(os.environ.get("LOAD_DIRECTORS", "10"))
        pace = float(os.environ.get("LOAD_PACE", "10"))
        wait_time = constant_pacing(pace)

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
            # Directors start one by one over the first pacing interval, as arbiters do.
            self.start_at = ENTRY_AT + self.number * self.pace / len(PLAN["directors"])

        @task
        def enter_next_result(self) -> None:
            time.sleep(max(0.0, self.start_at - time.time()))
            if not self.todo or time.time() >= END_AT:
                raise StopUser()
            game_id = self.todo[0]
            page = self.client.get(f"/e/{SLUG}/rounds/{ROUND}/results/", name="result entry")
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
                headers={"HX-Request": "true"},
                name="result POST",
            )
            stored = response.status_code == 200 and 'role="alert"' not in response.text
            outcome = "stored" if stored else f"refused-{response.status_code}"
            with LOG.open("a") as log:
                log.write(f"{game_id} {result} {outcome} {time.time():.3f}\n")
            if stored:
                self.todo.pop(0)

    class Phone(HttpUser):
        """A player's phone on their private page: the page's own poll (ETag, HX-Request);
        a reporter also reports the game's result once the entry phase has begun."""

        fixed_count = int(os.environ.get("LOAD_PHONES", "0"))
        wait_time = constant(POLL_SECONDS)

        def on_start(self) -> None:
            phones = PLAN["phones"]
            self.phone = phones[next(_phone_numbers) % len(phones)]
            self.path = f"/p/{self.phone['token']}/"
            self.etag = ""
            self.reported = self.phone.get("result") is None
            response = self.client.get(self.path, name="player page")
            self.etag = response.headers.get("ETag", "")
            time.sleep(random.uniform(0, POLL_SECONDS))

        @task
        def poll(self) -> None:
            if not self.reported and time.time() >= self.phone["report_at"]:
                self.report()
            headers = {"HX-Request": "true", "If-None-Match": self.etag}
            with self.client.get(
                self.path, headers=headers, name="player page poll", catch_response=True
            ) as response:
                if response.status_code not in (200, 304):
                    response.failure(f"status {response.status_code}")
                    return
                self.etag = response.headers.get("ETag", self.etag)
                response.success()

        def report(self) -> None:
            self.reported = True
            response = self.client.post(
                self.path,
                {
                    "result": self.phone["result"],
                    "csrfmiddlewaretoken": self.client.cookies.get("csrftoken", ""),
                },
                name="player report",
                allow_redirects=False,
            )
            outcome = "stored" if response.status_code == 302 else f"refused-{response.status_code}"
            with LOG.with_suffix(".reports").open("a") as log:
                log.write(f"{self.phone['game']} {self.phone['result']} {outcome}\n")

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
        """Saturation: the standings partial answered in full from the page cache (200)."""

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


def swiss(players: int, rounds: int, played: int, paired: int | None = None) -> dict[str, Any]:
    """A Swiss whose round r pairs i with i + players/2 (rotated): nobody meets twice. Rounds
    up to ``played`` have results; rounds up to ``paired`` (default: all) have games."""
    half = players // 2
    games = []
    for number in range(1, (rounds if paired is None else paired) + 1):
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
games = Game.objects.filter(round__event=event, round__number=spec["round"]).order_by("board")
boards = {g.pk: g.board for g in games}
phones, reported = [], set()
if spec["phones"]:
    from playerpage.models import PlayerLink
    from playerpage.services import player_links_issue
    player_links_issue(event=event, user=owner)
    tokens = dict(PlayerLink.objects.filter(player__event=event).values_list("player_id", "token"))
    for game in games:
        for player_id in (game.white_id, game.black_id):
            if len(phones) < spec["phones"]:
                reporter = game.board <= spec["phones"] // 4
                phones.append({"token": tokens[player_id], "game": game.pk, "board": game.board,
                               "result": spec["results"][game.pk % 3] if reporter else None})
                if reporter:
                    reported.add(game.pk)
directors = []
for i in range(spec["directors"]):
    name = f"bench-director-{i}"
    users.create_user(name, password=spec["password"])
    access_grant(event=event, username=name, role="director", user=owner)
    mine = [pk for pk, board in boards.items()
            if board % spec["directors"] == i and pk not in reported]
    directors.append({"username": name, "password": spec["password"], "games": mine})
print(json.dumps({"slug": event.slug, "directors": directors, "boards": boards,
                  "phones": phones}))
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
def gunicorn(
    env: dict[str, str], workers: int, access_log: Path | None = None
) -> Iterator[tuple[str, int]]:
    port = free_port()
    command = [
        sys.executable, "-m", "gunicorn", "config.wsgi", "--bind", f"127.0.0.1:{port}",
        "--workers", str(workers), "--backlog", "2048", "--timeout", "60",
    ]  # fmt: skip
    if access_log is not None:  # when, what, and the time the server spent (microseconds)
        command += ["--access-logfile", str(access_log), "--access-logformat", ACCESS_FORMAT]
    process = subprocess.Popen(command, cwd=REPO, env=env, stderr=subprocess.DEVNULL)
    host = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while not _answers(port):
            if process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit("gunicorn did not start")
            time.sleep(0.1)
        yield host, process.pid
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


def locust(host: str, work: Path, users: list[str], count: int, seconds: float, name: str,
           **env_extra: str) -> list[dict[str, str]]:  # fmt: skip
    """One headless locust run: fixed users, fixed time, stops by itself; the CSV rows."""
    env = {**os.environ, **env_extra, "LOAD_PLAN": str(work / "plan.json")}
    env.update(LOAD_LOG=str(work / "submissions.log"), LOAD_SAMPLES=str(work / f"{name}.json"))
    command = [
        sys.executable, "-m", "locust", "-f", __file__, "--headless", "--host", host,
        "--users", str(count), "--spawn-rate", str(max(count // 5, 1)),
        "--run-time", f"{int(seconds)}s", "--stop-timeout", "10", "--csv", str(work / name),
        "--only-summary", "--loglevel", "WARNING", *users,
    ]  # fmt: skip
    subprocess.run(command, env=env, check=False, timeout=seconds + 120, cwd=REPO)
    with open(work / f"{name}_stats.csv", newline="") as stats:
        return list(csv.DictReader(stats))


def submissions(log: Path) -> tuple[dict[int, tuple[str, float]], int]:
    """The director's log: {game id: (result, when saved)} of the stored ones, and the refusals."""
    stored: dict[int, tuple[str, float]] = {}
    refused = 0
    for line in log.read_text().splitlines() if log.exists() else []:
        game_id, result, outcome, moment = line.split()
        if outcome == "stored":
            stored[int(game_id)] = (result, float(moment))
        else:
            refused += 1
    return stored, refused


def verify(database_url: str, slug: str, log: Path) -> dict[str, int]:
    """Every accepted submission is stored, once, with one audit entry; nothing else is."""
    import psycopg

    submitted, refused = submissions(log)
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
    wrong = sum(1 for game, (result, _) in submitted.items() if stored.get(game) != result)
    audit_wrong = sum(1 for game in submitted if audits.get(game) != 1)
    return {
        "accepted": len(submitted),
        "refused": refused,
        "stored_wrong": wrong,
        "audit_not_exactly_one": audit_wrong,
    }


def freshness(log: Path, boards: dict[str, int]) -> tuple[list[float], int]:
    """Seconds from each result's save to the watcher first seeing it, and how many it never
    saw (a result changes once here, so the first sighting is that result)."""
    saved, _ = submissions(log)
    seen_log = log.with_suffix(".seen")
    seen = {}
    for line in seen_log.read_text().splitlines() if seen_log.exists() else []:
        board, _, moment = line.split()
        seen[int(board)] = float(moment)
    delays, missing = [], 0
    for game_id, (_, moment) in saved.items():
        board = boards[str(game_id)]
        if board in seen:
            delays.append(max(0.0, seen[board] - moment))
        else:
            missing += 1
    return sorted(delays), missing


def machine() -> str:
    model = next(
        (line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
         if line.startswith("model name")), platform.processor())  # fmt: skip
    memory = Path("/proc/meminfo").read_text().split("\n")[0].split()[1]
    return (
        f"{os.cpu_count()} cores ({model}), {int(memory) // 1024**2} GiB, "
        f"Python {platform.python_version()}, {platform.system()} {platform.release()}"
    )


class CpuMeter:
    """CPU seconds spent by the app server (gunicorn's workers) and by the database (the
    PostgreSQL backends connected to the scratch database) in each phase: a figure that the
    other processes on a shared machine change much less than they change response times.
    Sampled every second from /proc; a backend that comes and goes between two samples is
    missed (the workers keep their connections for 60 s)."""

    def __init__(self, master: int, database_url: str, work: Path) -> None:
        self.master, self.database_url, self.work = master, database_url, str(work)
        self.phases: list[float] = []
        self.seen: dict[tuple[str, int], list[tuple[str, float]]] = {}
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    @staticmethod
    def cpu(pid: int) -> float | None:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return None
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def processes(self) -> list[tuple[str, int]]:
        """gunicorn's workers, and locust (whose command line names the work directory)."""
        found = []
        for stat in Path("/proc").glob("[0-9]*/stat"):
            with contextlib.suppress(OSError, IndexError):
                if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == self.master:
                    found.append(("app", int(stat.parent.name)))
                elif self.work in (stat.parent / "cmdline").read_text():
                    found.append(("load generator", int(stat.parent.name)))
        return found

    def run(self) -> None:
        import psycopg

        with psycopg.connect(self.database_url, autocommit=True) as link:
            while not self.stop.wait(1.0):
                phase = phase_of(time.time(), self.phases)
                backends = link.execute(
                    "SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
                    "AND pid <> pg_backend_pid()"
                ).fetchall()
                pids = self.processes()
                pids += [("database", pid) for (pid,) in backends]
                for kind, pid in pids:
                    used = self.cpu(pid)
                    if used is not None:
                        self.seen.setdefault((kind, pid), []).append((phase, used))

    def seconds(self, kind: str, phase: str) -> float:
        """CPU seconds of one kind of process in one phase: for each process, its last sample
        in the phase less its last sample before it (0 for one that started in the phase)."""
        total = 0.0
        for (which, _), samples in self.seen.items():
            inside = [i for i, (name, _) in enumerate(samples) if name == phase]
            if which == kind and inside:
                start = samples[inside[0] - 1][1] if inside[0] > 0 else 0.0
                total += samples[inside[-1]][1] - start
        return total


def load_average() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


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


def percentile(times: list[float], share: float) -> float:
    """Nearest rank on the sorted times (0 for none)."""
    if not times:
        return 0.0
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered) + 0.5) - 1))]


def by_phase(samples: list[list[Any]]) -> dict[tuple[str, str], list[float]]:
    """Spectators' times per (phase, page), fresh and revalidating together."""
    times: dict[tuple[str, str], list[float]] = {}
    for phase, name, elapsed, _ in samples:
        page = name.split("|")[0]
        if phase in PHASES and page in PAGES:
            times.setdefault((phase, page), []).append(elapsed)
    return times


def spectators_table(samples: list[list[Any]]) -> tuple[list[str], dict[str, float]]:
    """The side-by-side table and each phase's worst-page p95."""
    times = by_phase(samples)
    lines = [
        "| page | quiet: n | p50 ms | p95 ms | with result entry: n | p50 ms | p95 ms | p95 × |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    worst = dict.fromkeys(PHASES, 0.0)
    for page in PAGES:
        cells = []
        for phase in PHASES:
            sample = times.get((phase, page), [])
            worst[phase] = max(worst[phase], percentile(sample, 0.95))
            cells += [f"{len(sample)}", f"{percentile(sample, 0.5):.0f}"]
            cells.append(f"{percentile(sample, 0.95):.0f}")
        quiet, entry = (percentile(times.get((p, page), []), 0.95) for p in PHASES)
        ratio = f"{entry / quiet:.1f}" if quiet else "–"
        lines.append(f"| {page} | {' | '.join(cells)} | {ratio} |")
    return lines, worst


def cpu_line(meter: CpuMeter, options: argparse.Namespace) -> str:
    spent = {
        (kind, phase): meter.seconds(kind, phase) * 1000 / getattr(options, phase)
        for kind in ("app", "database", "load generator")
        for phase in PHASES
    }
    return (
        f"\nCPU per second of the phase (ms/s), alone and during result entry: app server "
        f"(gunicorn workers) {spent['app', 'quiet']:.0f} and {spent['app', 'entry']:.0f}; "
        f"database {spent['database', 'quiet']:.0f} and {spent['database', 'entry']:.0f}; "
        f"load generator (locust) {spent['load generator', 'quiet']:.0f} and "
        f"{spent['load generator', 'entry']:.0f}."
    )


def directors_lines(samples: list[list[Any]]) -> list[str]:
    lines = ["| director's or player's request | n | p50 ms | p95 ms | max ms |"]
    lines.append("|---|---:|---:|---:|---:|")
    names = ("result entry", "result POST", "login", "player page", "player page poll")
    for name in (*names, "player report"):
        if name.startswith("player") and not any(n == name for _, n, _, _ in samples):
            continue
        sample = [elapsed for _, n, elapsed, _ in samples if n == name]
        lines.append(
            f"| {name} | {len(sample)} | {percentile(sample, 0.5):.0f} | "
            f"{percentile(sample, 0.95):.0f} | {max(sample, default=0):.0f} |"
        )
    return lines


def errors_line(samples: list[list[Any]], rows: list[dict[str, str]]) -> str:
    per_phase = {phase: 0 for phase in ("warm-up", *PHASES, "tail")}
    for phase, _, _, error in samples:
        per_phase[phase] += bool(error)
    failures = sum(int(row["Failure Count"]) for row in rows if row["Name"] != "Aggregated")
    counts = ", ".join(f"{phase} {n}" for phase, n in per_phase.items())
    return f"Errors: {failures} failed requests in all ({counts})."


ACCESS_FORMAT = "%(t)s %(m)s %(U)s %(s)s %(D)s"


def server_times(access_log: Path, plan: dict[str, Any]) -> dict[tuple[str, str], list[float]]:
    """The time gunicorn spent on each request (from its access log), per (phase, page): what
    the server did, apart from the load generator's own delays on a busy machine."""
    import datetime as dt

    slug, round_no = plan["slug"], plan["current_round"]
    pages = {
        f"/e/{slug}/": "event page",
        f"/e/{slug}/standings/": "standings",
        f"/e/{slug}/rounds/{round_no}/": "pairings",
        f"/e/{slug}/crosstable/": "crosstable",
        f"/e/{slug}/hall/": "hall",
        f"/e/{slug}/rounds/{round_no}/results/": "result entry",
    }
    times: dict[tuple[str, str], list[float]] = {}
    for line in access_log.read_text().splitlines() if access_log.exists() else []:
        stamp, method, path, _, micros = line.rsplit(" ", 4)
        moment = dt.datetime.strptime(stamp.strip("[]"), "%d/%b/%Y:%H:%M:%S %z").timestamp()
        page = "result POST" if method == "POST" and "/games/" in path else pages.get(path)
        if page is not None:
            key = (phase_of(moment, plan["phases"]), page)
            times.setdefault(key, []).append(int(micros) / 1000)
    return times


def server_lines(times: dict[tuple[str, str], list[float]]) -> list[str]:
    lines = [
        "| in the server (gunicorn's access log) | quiet: p50 ms | p95 ms | with result entry: "
        "p50 ms | p95 ms |",
        "|---|---:|---:|---:|---:|",
    ]
    for page in (*PAGES, "result entry", "result POST"):
        cells = []
        for phase in PHASES:
            sample = times.get((phase, page), [])
            cells += [f"{percentile(sample, 0.5):.0f}", f"{percentile(sample, 0.95):.0f}"]
        lines.append(f"| {page} | {' | '.join(cells)} |")
    return lines


def report_live_round(samples: list[list[Any]], rows: list[dict[str, str]], work: Path,
                      plan: dict[str, Any], options: argparse.Namespace) -> list[str]:  # fmt: skip
    spectators, worst = spectators_table(samples)
    ratio = worst["entry"] / worst["quiet"] if worst["quiet"] else float("inf")
    delays, missing = freshness(work / "submissions.log", plan["boards"])
    lines = [
        f"\n### A live round: {options.spectators} spectators, {options.quiet} s alone, then "
        f"{options.entry} s while {options.directors} directors enter round "
        f"{plan['current_round']}'s results\n",
        *spectators,
        f"\n**Spectators' worst-page p95: {worst['quiet']:.0f} ms alone, {worst['entry']:.0f} ms "
        f"during result entry: {ratio:.1f}×.**\n",
        *directors_lines(samples),
        "",
        *server_lines(server_times(work / "access.log", plan)),
        "",
        errors_line(samples, rows),
        f"\nA saved result reached a newcomer's pairings page (watched every second) after "
        f"p50 {percentile(delays, 0.5):.1f} s, p95 {percentile(delays, 0.95):.1f} s, "
        f"max {max(delays, default=0):.1f} s; never seen: {missing}.",
    ]
    return lines


def prepare(env: dict[str, str], work: Path, options: argparse.Namespace) -> dict[str, Any]:
    """Migrate, collect the static files, import the event, make the directors: the plan."""
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=REPO, env=env, check=True,
    )  # fmt: skip
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
        cwd=REPO, env=env, check=True,
    )  # fmt: skip
    round_no = options.played + 1
    spec = {
        "document": swiss(options.players, options.rounds, options.played, paired=round_no),
        "directors": options.directors,
        "password": secrets.token_urlsafe(12),
        "round": round_no,
        "phones": options.phones,
        "results": RESULTS,
    }
    created = subprocess.run(
        [sys.executable, "-c", SETUP], cwd=REPO, check=True, capture_output=True, text=True,
        input=json.dumps(spec), env={**env, "DJANGO_SETTINGS_MODULE": "config.settings"},
    )  # fmt: skip
    plan: dict[str, Any] = json.loads(created.stdout.strip().splitlines()[-1])
    plan["current_round"] = round_no
    return plan


def run(options: argparse.Namespace) -> str:
    """The whole run in a scratch directory (static files, logs, locust's figures), removed at
    the end: the report has what matters."""
    with tempfile.TemporaryDirectory(prefix="td-load-") as scratch:
        return run_in(options, Path(scratch))


def run_in(options: argparse.Namespace, work: Path) -> str:
    import redis

    prefix = f"td-bench-{secrets.token_hex(4)}"
    report = [
        f"Machine: {machine()}; gunicorn --workers {options.workers} (sync); "
        f"load average at the start {load_average()}."
    ]
    server = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
    with scratch_database(server) as database_url:
        env = django_env(
            database_url,
            REDIS_URL="redis://127.0.0.1:6379/0",
            CACHE_KEY_PREFIX=prefix,
            STATIC_ROOT=str(work / "static"),
        )
        plan = prepare(env, work, options)
        try:
            with gunicorn(env, options.workers, work / "access.log") as (host, master):
                report += measure(host, plan, options, work, CpuMeter(master, database_url, work))
        finally:
            keys = redis.Redis.from_url("redis://127.0.0.1:6379/0").keys(f"{prefix}:*")
            if keys:
                redis.Redis.from_url("redis://127.0.0.1:6379/0").delete(*keys)
        checked = verify(database_url, plan["slug"], work / "submissions.log")
        phones = (
            verify_reports(database_url, work / "submissions.reports") if options.phones else None
        )
    games = sum(len(account["games"]) for account in plan["directors"])
    report.append(
        f"\nResult check: {checked['accepted']} of round {plan['current_round']}'s {games} "
        f"results accepted, {checked['refused']} refused; stored wrong: "
        f"{checked['stored_wrong']}; audit entries not exactly one: "
        f"{checked['audit_not_exactly_one']}. Load average at the end {load_average()}."
    )
    if phones is not None:
        report.append(
            f"Players' reports ({options.phones} phones polling): {phones['reports']} reports "
            f"sent, {phones['refused']} refused; {phones['games']} games reported by both "
            f"players: stored wrong {phones['stored_wrong']}, result audit entries not exactly "
            f"one {phones['audit_wrong']}, report entries not two {phones['report_entries_wrong']}."
        )
    return "\n".join(report)


def measure(host: str, plan: dict[str, Any], options: argparse.Namespace, work: Path,
            meter: CpuMeter) -> list[str]:  # fmt: skip
    start = time.time() + WARM_UP
    plan["phases"] = meter.phases = [
        start,
        start + options.quiet,
        start + options.quiet + options.entry,
    ]
    _schedule_reports(plan, options)
    (work / "plan.json").write_text(json.dumps(plan))
    meter.thread.start()
    per_director = max(len(account["games"]) for account in plan["directors"])
    users = options.spectators + options.directors + 1 + options.phones
    rows = locust(
        host, work, ["Spectator", "Director", "Watcher", *(["Phone"] if options.phones else [])],
        users, WARM_UP + options.quiet + options.entry + TAIL, "live",
        LOAD_SPECTATORS=str(options.spectators), LOAD_DIRECTORS=str(options.directors),
        LOAD_PACE=str(options.entry / max(per_director, 1)), LOAD_PHONES=str(options.phones),
    )  # fmt: skip
    meter.stop.set()
    meter.thread.join()
    samples = json.loads((work / "live.json").read_text())
    lines = report_live_round(samples, rows, work, plan, options)
    lines.append(cpu_line(meter, options))
    if options.saturation:
        lines += saturation(host, work, options)
    return lines


def _schedule_reports(plan: dict[str, Any], options: argparse.Namespace) -> None:
    """Each reported game's two players report over the entry phase, a second or two apart
    (the second of the two enters the result, the first waits)."""
    _, entry_at, end_at = plan["phases"]
    rng = random.Random(7)
    at: dict[int, float] = {}
    for phone in plan["phones"]:
        if phone["result"] is None:
            continue
        first = at.setdefault(phone["game"], entry_at + rng.uniform(0, (end_at - entry_at) * 0.8))
        phone["report_at"] = first + rng.uniform(0, 2)


def verify_reports(database_url: str, log: Path) -> dict[str, int]:
    """Every game both players reported: the result stored, with exactly one result audit
    entry (the entry the second report made) and two report entries."""
    import psycopg

    lines = [line.split() for line in log.read_text().splitlines()] if log.exists() else []
    sent = {int(game): result for game, result, outcome in lines if outcome == "stored"}
    refused = sum(1 for *_, outcome in lines if outcome != "stored")
    games = list(sent)
    with psycopg.connect(database_url) as link:
        stored = dict(
            link.execute(
                "SELECT id, result FROM events_game WHERE id = ANY(%s)", [games]
            ).fetchall()
        )
        counts = link.execute(
            "SELECT game_id, count(*) FILTER (WHERE action LIKE 'result.%%'), "
            "count(*) FILTER (WHERE action = 'report.submit') FROM events_auditentry "
            "WHERE game_id = ANY(%s) GROUP BY game_id",
            [games],
        ).fetchall()
    audits = {game: (results, reports) for game, results, reports in counts}
    return {
        "reports": len(lines),
        "refused": refused,
        "games": len(games),
        "stored_wrong": sum(1 for game, result in sent.items() if stored.get(game) != result),
        "audit_wrong": sum(1 for game in games if audits.get(game, (0, 0))[0] != 1),
        "report_entries_wrong": sum(1 for game in games if audits.get(game, (0, 0))[1] != 2),
    }


def saturation(host: str, work: Path, options: argparse.Namespace) -> list[str]:
    lines = [
        f"\n### Saturation, {options.saturation_users} users, no think time, "
        f"{options.saturation} s each\n"
    ]
    rows = []
    for user in ("Healthz", "StandingsUnchanged", "StandingsFromCache"):
        found = locust(host, work, [user], options.saturation_users, options.saturation, user)
        rows += [row for row in found if row["Name"] != "Aggregated"]
    lines.append(table(rows))
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quiet", type=int, default=60, help="seconds of spectators alone")
    parser.add_argument("--entry", type=int, default=150, help="seconds of result entry")
    parser.add_argument("--spectators", type=int, default=600)
    parser.add_argument("--directors", type=int, default=10)
    parser.add_argument("--workers", type=int, default=4, help="gunicorn workers")
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--played", type=int, default=4, help="rounds complete at the start")
    parser.add_argument("--saturation", type=int, default=0, help="seconds per saturation run")
    parser.add_argument("--saturation-users", type=int, default=32)
    parser.add_argument("--report", default="", help="also write the report to this file")
    parser.add_argument(
        "--phones", type=int, default=0,
        help="players polling their private page; both players of the first quarter report",
    )  # fmt: skip
    options = parser.parse_args()
    for name in ("quiet", "entry"):
        if not 10 <= getattr(options, name) <= 600:
            parser.error(f"--{name} must be between 10 and 600 seconds")
    if not 0 <= options.saturation <= 600:
        parser.error("--saturation must be between 0 and 600 seconds")
    if options.spectators + options.directors > 2000 or not 1 <= options.directors <= 50:
        parser.error("at most 2000 simulated users, and 1 to 50 directors")
    if not 0 <= options.phones <= options.players:
        parser.error("--phones: 0 up to the number of players")
    if not 2 <= options.players <= 1000 or not options.played < options.rounds <= 20:
        parser.error("2 to 1000 players; --played must leave a round to enter (20 rounds at most)")
    started = time.monotonic()
    text = run(options)
    text += f"\n\n(total wall time {time.monotonic() - started:.0f} s)"
    print(text)
    if options.report:
        Path(options.report).write_text(text + "\n")


if __name__ == "__main__":
    main()
