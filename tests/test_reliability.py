"""Nothing is lost (design brief §3), tested for real (issue 9):

- two directors saving the same game at the same moment, on real PostgreSQL transactions;
- two app servers (gunicorn) on one database and one Redis: a result entered through one is
  visible through the other at once, and a login on one is a login on the other;
- a gunicorn worker killed with SIGKILL in the middle of a large import leaves nothing behind;
- the database restarted in the middle of a session: the request in flight and those during
  the restart get the 503 page, the next ones succeed, nothing committed is lost.

The last two run against a throwaway PostgreSQL cluster that the test starts (initdb/pg_ctl in
a temporary directory, as ``scripts/test.sh`` does), so stopping it disturbs nobody else.
Every wait is for a condition (a lock seen in ``pg_stat_activity``, a port that answers) with
a generous deadline, never a fixed sleep.
"""

from __future__ import annotations

import contextlib
import html
import http.client
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from django.conf import settings
from django.db import close_old_connections, connections, transaction

from events.errors import ResultConflict
from events.models import AuditEntry, Game
from events.services import game_result_record

REPO = Path(__file__).resolve().parent.parent
DEADLINE = 60.0  # seconds: generous for a busy 2-core machine, bounded all the same


def wait_for(condition: Callable[[], Any], what: str, timeout: float = DEADLINE) -> Any:
    """Polls ``condition`` until it returns something truthy; fails after ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(0.02)


# -- Two directors, one game ---------------------------------------------------------------------


def _waiting_on_a_lock() -> int:
    with connections["default"].cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity "
            "WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        return int(cursor.fetchone()[0])


def _in_thread(target: Callable[[], Any]) -> tuple[threading.Thread, dict[str, Any]]:
    """Runs ``target`` on its own thread (so: its own database connection)."""
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["value"] = target()
        except Exception as exc:  # noqa: BLE001 - the test inspects it
            outcome["error"] = exc
        finally:
            connections.close_all()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, outcome


@pytest.mark.django_db(transaction=True)
def test_a_save_that_waited_for_the_row_lock_gets_the_conflict(event, director, arbiter):
    """Dora's save holds the row lock; Arno's, started before hers commits, waits on it and
    then sees her version: a conflict with both values, never a silent overwrite."""
    game = Game.objects.get(round__event=event, board=1)
    dora_saved, dora_may_commit = threading.Event(), threading.Event()

    def dora() -> Game:
        with transaction.atomic():
            saved = game_result_record(
                game_id=game.pk, result="1-0", expected_version=1, user=director
            )
            dora_saved.set()
            assert dora_may_commit.wait(DEADLINE)
        return saved

    def arno() -> Game:
        return game_result_record(game_id=game.pk, result="0-1", expected_version=1, user=arbiter)

    dora_thread, dora_outcome = _in_thread(dora)
    assert dora_saved.wait(DEADLINE)
    arno_thread, arno_outcome = _in_thread(arno)
    wait_for(_waiting_on_a_lock, "Arno's save to wait on the row lock")
    dora_may_commit.set()
    for thread in (dora_thread, arno_thread):
        thread.join(DEADLINE)

    assert "error" not in dora_outcome, dora_outcome
    conflict = arno_outcome.get("error")
    assert isinstance(conflict, ResultConflict), arno_outcome
    assert (conflict.current, conflict.attempted, conflict.current_version) == ("1-0", "0-1", 2)
    game.refresh_from_db()
    assert (game.result, game.version) == ("1-0", 2)
    assert AuditEntry.objects.filter(game=game).count() == 1


@pytest.mark.django_db(transaction=True)
def test_simultaneous_saves_of_one_game_one_wins_one_conflicts(event, director, arbiter):
    """Both start at a barrier, ten times over: exactly one save wins each time."""
    game = Game.objects.get(round__event=event, board=2)
    for _ in range(10):
        stored = Game.objects.get(pk=game.pk)
        version = stored.version
        barrier = threading.Barrier(2, timeout=DEADLINE)
        # Two different results, neither already stored (saving the stored one is a no-op).
        first, second = [r for r in ("1-0", "0-1", "1/2-1/2") if r != stored.result][:2]
        wanted = {director: first, arbiter: second}
        runs = [
            _in_thread(lambda u=user, r=result, b=barrier, v=version: _save_at(b, game, u, r, v))
            for user, result in wanted.items()
        ]
        for thread, _ in runs:
            thread.join(DEADLINE)
        outcomes = [outcome for _, outcome in runs]
        winners = [o["value"] for o in outcomes if "value" in o]
        losers = [o["error"] for o in outcomes if "error" in o]
        assert len(winners) == 1 and len(losers) == 1, outcomes
        assert isinstance(losers[0], ResultConflict)
        stored = Game.objects.get(pk=game.pk)
        assert (stored.result, stored.version) == (winners[0].result, version + 1)
        assert losers[0].current == winners[0].result
    assert AuditEntry.objects.filter(game=game).count() == 10


def _save_at(barrier: threading.Barrier, game: Game, user: Any, result: str, version: int) -> Game:
    barrier.wait()
    return game_result_record(game_id=game.pk, result=result, expected_version=version, user=user)


# -- App servers in subprocesses -------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


Headers = dict[str, str]


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    text: str


@dataclass
class Visitor:
    """A browser's worth of HTTP: cookies kept, forms posted with their CSRF token."""

    port: int
    cookies: dict[str, str] = field(default_factory=dict)
    timeout: float = DEADLINE

    def request(
        self,
        method: str,
        path: str,
        body: bytes | None = None,
        headers: dict[str, str] | None = None,
    ) -> Reply:
        sent = {"Host": "127.0.0.1", **(headers or {})}
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        link = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
        try:
            link.request(method, path, body=body, headers=sent)
            response = link.getresponse()
            text = response.read().decode("utf-8", "replace")
            for header in response.headers.get_all("Set-Cookie") or []:
                for name, morsel in SimpleCookie(header).items():
                    self.cookies[name] = morsel.value
            return Reply(response.status, {k.lower(): v for k, v in response.getheaders()}, text)
        finally:
            link.close()

    def get(self, path: str, **headers: str) -> Reply:
        return self.request("GET", path, headers=headers)

    def post(self, path: str, form: dict[str, str], referer: str = "") -> Reply:
        token = self.cookies.get("csrftoken", "")
        body = urlencode({**form, "csrfmiddlewaretoken": token}).encode()
        headers = {"Content-Type": "application/x-www-form-urlencoded"}
        return self.request("POST", path, body, headers)

    def upload(self, path: str, filename: str, content: bytes) -> Reply:
        boundary = uuid.uuid4().hex
        parts = [
            f'--{boundary}\r\nContent-Disposition: form-data; name="csrfmiddlewaretoken"\r\n\r\n'
            f"{self.cookies.get('csrftoken', '')}\r\n".encode(),
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; '
            f'filename="{filename}"\r\nContent-Type: application/json\r\n\r\n'.encode()
            + content
            + b"\r\n",
            f"--{boundary}--\r\n".encode(),
        ]
        headers = {"Content-Type": f"multipart/form-data; boundary={boundary}"}
        return self.request("POST", path, b"".join(parts), headers)

    def login(self, username: str, password: str) -> None:
        self.get("/accounts/login/")
        reply = self.post("/accounts/login/", {"username": username, "password": password})
        assert reply.status == 302, reply.text[:500]


def database_url(name: str | None = None, port: int | None = None) -> str:
    database = settings.DATABASES["default"]
    return (
        f"postgres://{database['USER']}:{database['PASSWORD']}@{database['HOST'] or '127.0.0.1'}:"
        f"{port or database['PORT'] or 5432}/{name or database['NAME']}"
    )


def app_env(db_url: str, **extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("DJANGO_SETTINGS_MODULE", None)  # pytest's; manage.py and wsgi set their own
    env.update(
        DEBUG="0",
        DATABASE_URL=db_url,
        ALLOWED_HOSTS="127.0.0.1,localhost",
        SECURE_COOKIES="0",
        SECRET_KEY=settings.SECRET_KEY,
        PUBLIC_PAGE_STALE_SECONDS="0",  # spectators read the writes at once (tests/conftest.py)
        **extra,
    )
    return env


@contextlib.contextmanager
def gunicorn(
    env: dict[str, str], workers: int = 1
) -> Iterator[tuple[int, subprocess.Popen[bytes]]]:
    """A gunicorn on a free loopback port, serving once /healthz answers; stopped on exit."""
    port = free_port()
    command = [
        sys.executable, "-m", "gunicorn", "config.wsgi",
        "--bind", f"127.0.0.1:{port}", "--workers", str(workers), "--timeout", "120",
    ]  # fmt: skip
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(command, cwd=REPO, env=env, stdout=log, stderr=log)
        yield from _serving(port, process, log)


def _serving(port: int, process: subprocess.Popen[bytes], log: Any) -> Iterator[Any]:
    try:
        wait_for(lambda: _answers(port) or process.poll() is not None, "gunicorn to answer")
        if process.poll() is not None:
            log.seek(0)
            raise AssertionError(f"gunicorn exited: {log.read().decode()[-3000:]}")
        yield port, process
    finally:
        process.terminate()
        try:
            process.wait(DEADLINE)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(DEADLINE)


def _answers(port: int) -> bool:
    try:
        return Visitor(port, timeout=5).get("/healthz").status == 200
    except OSError:
        return False


def csrf_and_version(visitor: Visitor, slug: str, game: Game) -> tuple[str, str]:
    page = visitor.get(f"/e/{slug}/rounds/{game.round.number}/results/")
    assert page.status == 200, page.text[:300]
    action = f'action="/e/{slug}/games/{game.pk}/result/"'
    row = page.text[page.text.index(action) :]
    version = re.search(r'name="version" value="(\d+)"', row)
    assert version is not None
    return visitor.cookies["csrftoken"], version.group(1)


def enter_result(visitor: Visitor, slug: str, game: Game, result: str) -> Reply:
    _, version = csrf_and_version(visitor, slug, game)
    return visitor.post(
        f"/e/{slug}/games/{game.pk}/result/", {"result": result, "version": version}
    )


# -- Two app servers, one database, one Redis -------------------------------------------------


def _redis() -> Any:
    import redis

    client = redis.Redis.from_url("redis://127.0.0.1:6379/0", socket_connect_timeout=2)
    try:
        client.ping()
    except redis.RedisError:
        pytest.skip("no Redis on 127.0.0.1:6379 (the two-server test needs one)")
    return client


@pytest.mark.django_db(transaction=True)
def test_two_app_servers_share_sessions_and_cache_through_the_database_and_redis(event, director):
    redis_client = _redis()
    prefix = f"td-test-{uuid.uuid4().hex[:12]}"
    env = app_env(database_url(), REDIS_URL="redis://127.0.0.1:6379/0", CACHE_KEY_PREFIX=prefix)
    board1 = Game.objects.select_related("round").get(round__event=event, board=1)
    round_page = f"/e/{event.slug}/rounds/1/"
    try:
        with gunicorn(env) as (port_a, _), gunicorn(env) as (port_b, _):
            spectator = Visitor(port_b)
            first = spectator.get(round_page)
            assert first.status == 200 and first.headers.get("etag")
            standings = spectator.get(f"/e/{event.slug}/standings/", **{"HX-Request": "true"})
            assert standings.status == 200
            assert redis_client.keys(f"{prefix}:*"), "server B cached nothing in Redis"
            unchanged = spectator.get(round_page, **{"If-None-Match": first.headers["etag"]})
            assert unchanged.status == 304

            # Dora logs in on A and enters a result on B: the session lives in the database.
            dora = Visitor(port_a)
            dora.login(director.username, "pw-" + director.username)
            dora.port = port_b
            assert enter_result(dora, event.slug, board1, "1-0").status == 302

            # The spectator on A sees it at once: the results version changed the ETag.
            spectator.port = port_a
            fresh = spectator.get(round_page, **{"If-None-Match": first.headers["etag"]})
            assert fresh.status == 200
            assert fresh.headers["etag"] != first.headers["etag"]
            assert "<strong>1-0</strong>" in fresh.text
            # And B, whose cache entry for the old version is still in Redis, agrees.
            spectator.port = port_b
            again = spectator.get(round_page, **{"If-None-Match": first.headers["etag"]})
            assert again.status == 200 and "<strong>1-0</strong>" in again.text
    finally:
        keys = redis_client.keys(f"{prefix}:*")
        if keys:
            redis_client.delete(*keys)
        close_old_connections()
    board1.refresh_from_db()
    assert (board1.result, board1.version) == ("1-0", 2)
    assert AuditEntry.objects.filter(game=board1).count() == 1


# -- A throwaway PostgreSQL cluster ---------------------------------------------------------------


def _pg_bin() -> Path | None:
    candidates = [Path(shutil.which("initdb") or "/nonexistent").parent]
    candidates += sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True)
    for directory in candidates:
        if (directory / "initdb").exists() and (directory / "pg_ctl").exists():
            return directory
    return None


@dataclass
class Cluster:
    bin: Path
    root: Path
    port: int
    as_user: list[str]

    @property
    def data(self) -> Path:
        return self.root / "data"

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/postgres"

    def pg_ctl(self, *args: str) -> None:
        command = [*self.as_user, str(self.bin / "pg_ctl"), "-D", str(self.data), *args]
        subprocess.run(command, check=True, capture_output=True, timeout=120)

    def start(self) -> None:
        options = f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1"
        self.pg_ctl("-l", str(self.root / "server.log"), "-w", "-o", options, "start")

    def stop(self, mode: str = "immediate") -> None:
        self.pg_ctl("-m", mode, "-w", "stop")

    def restart(self, mode: str = "immediate") -> None:
        options = f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1"
        self.pg_ctl("-l", str(self.root / "server.log"), "-m", mode, "-w", "-o", options, "restart")

    def query(self, sql: str) -> list[tuple[Any, ...]]:
        import psycopg

        with psycopg.connect(self.url, connect_timeout=5, autocommit=True) as link:
            return link.execute(sql).fetchall()


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    """initdb + migrate once for the module; removed at the end."""
    pg_bin = _pg_bin()
    if pg_bin is None:
        pytest.skip("no PostgreSQL server binaries (apt-get install postgresql)")
    root = Path(tempfile.mkdtemp(prefix="td-reliability-"))
    as_user: list[str] = []
    if os.geteuid() == 0:  # initdb refuses to run as root
        shutil.chown(root, "postgres")
        as_user = ["runuser", "-u", "postgres", "--"]
    cluster = Cluster(pg_bin, root, free_port(), as_user)
    initdb = [*as_user, str(pg_bin / "initdb"), "-D", str(cluster.data), "-U", "postgres"]
    subprocess.run(
        [*initdb, "--auth=trust", "-E", "UTF8", "--no-sync"],
        check=True,
        capture_output=True,
        timeout=120,
    )
    cluster.start()
    try:
        migrate = [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"]
        subprocess.run(migrate, cwd=REPO, env=app_env(cluster.url), check=True, timeout=300)
        yield cluster
    finally:
        with contextlib.suppress(subprocess.SubprocessError):
            cluster.stop()
        shutil.rmtree(root, ignore_errors=True)


SETUP = """
import json, sys, django
django.setup()
from django.contrib.auth import get_user_model
from events.exchange import event_import_document
users = get_user_model().objects
director = users.filter(username="dora").first() or users.create_user("dora", password="pw-dora")
event = event_import_document(text=sys.stdin.read(), user=director, slug=sys.argv[1])
print(json.dumps({"slug": event.slug}))
"""


def cluster_setup(cluster: Cluster, slug: str, document: dict[str, Any]) -> None:
    """Creates Dora and an event in the throwaway database (a subprocess: another database)."""
    result = subprocess.run(
        [sys.executable, "-c", SETUP, slug],
        cwd=REPO,
        env=app_env(cluster.url, DJANGO_SETTINGS_MODULE="config.settings"),
        input=json.dumps(document),
        text=True,
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-3000:]


def swiss_document(players: int, rounds: int, *, results: bool) -> dict[str, Any]:
    """A Swiss whose round r pairs i with i + players/2 (rotated), so nobody meets twice."""
    half = players // 2
    games = []
    for number in range(1, rounds + 1):
        for board in range(1, half + 1):
            white, black = board, half + (board - 1 + number - 1) % half + 1
            result = ("1-0", "0-1", "1/2-1/2")[(board + number) % 3] if results else None
            games.append(
                {"round": number, "board": board, "white": white, "black": black, "result": result}
            )
    return {
        "format": "tournament-event/1",
        "name": "Big Open",
        "system": "swiss",
        "time_control": "classical",
        "rounds": rounds,
        "regulation": {"preset": "fide-2024"},
        "players": [
            {"start_no": n, "name": f"Player {n:04d}", "rating": 2600 - n}
            for n in range(1, players + 1)
        ],
        "games": games,
    }


def counts(cluster: Cluster, slug: str) -> tuple[int, int, int]:
    (row,) = cluster.query(
        "SELECT (SELECT count(*) FROM events_event WHERE slug = '" + slug + "'), "
        "(SELECT count(*) FROM events_player p JOIN events_event e ON e.id = p.event_id "
        "  WHERE e.slug = '" + slug + "'), "
        "(SELECT count(*) FROM events_game g JOIN events_round r ON r.id = g.round_id "
        "  JOIN events_event e ON e.id = r.event_id WHERE e.slug = '" + slug + "')"
    )
    return int(row[0]), int(row[1]), int(row[2])


def _busy_backends(cluster: Cluster) -> int:
    (row,) = cluster.query(
        "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
        "AND pid <> pg_backend_pid() AND xact_start IS NOT NULL"
    )
    return int(row[0])


def _import_writing_games(cluster: Cluster) -> bool:
    rows = cluster.query(
        "SELECT 1 FROM pg_locks l JOIN pg_class c ON c.oid = l.relation "
        "WHERE c.relname = 'events_game' AND l.mode = 'RowExclusiveLock' "
        "AND l.pid <> pg_backend_pid()"
    )
    return bool(rows)


def worker_pids(master: subprocess.Popen[bytes]) -> list[int]:
    children = Path(f"/proc/{master.pid}/task/{master.pid}/children").read_text().split()
    return [int(pid) for pid in children]


@pytest.mark.slow
def test_a_worker_killed_mid_import_leaves_nothing_half_written(cluster):
    cluster_setup(cluster, "seed-event", swiss_document(4, 1, results=False))
    document = json.dumps(swiss_document(300, 9, results=True)).encode()
    with gunicorn(app_env(cluster.url)) as (port, master):
        dora = Visitor(port)
        dora.login("dora", "pw-dora")
        dora.get("/events/import/")
        (worker,) = worker_pids(master)
        upload = _in_thread(lambda: dora.upload("/events/import/", "big.json", document))
        wait_for(lambda: _import_writing_games(cluster), "the import to be writing games")
        os.kill(worker, signal.SIGKILL)
        upload[0].join(DEADLINE)
        assert "error" in upload[1]  # the connection died with the worker: no answer at all
        wait_for(lambda: _busy_backends(cluster) == 0, "the killed import's transaction to end")
        assert counts(cluster, "big-open") == (0, 0, 0)

        # The master starts a new worker; the same upload then loads everything.
        wait_for(lambda: worker_pids(master) and worker_pids(master) != [worker], "a new worker")
        wait_for(lambda: _answers(port), "the new worker to answer")
        dora.get("/events/import/")
        reply = dora.upload("/events/import/", "big.json", document)
        assert reply.status == 302, reply.text[:500]
    assert counts(cluster, "big-open") == (1, 300, 150 * 9)


@pytest.mark.slow
def test_a_database_restart_mid_session_loses_nothing_committed(cluster):
    slug = "restart-cup"
    cluster_setup(cluster, slug, swiss_document(20, 1, results=False))
    (row,) = cluster.query(
        "SELECT array_agg(g.id ORDER BY g.board) FROM events_game g "
        "JOIN events_round r ON r.id = g.round_id JOIN events_event e ON e.id = r.event_id "
        f"WHERE e.slug = '{slug}'"
    )
    games = [_GameRef(pk, slug) for pk in row[0]]
    committed: dict[int, str] = {}
    # One worker, so that the connection that outlives the restart is certainly the one used.
    with gunicorn(app_env(cluster.url), workers=1) as (port, _):
        dora = Visitor(port)
        dora.login("dora", "pw-dora")
        for game in games[:4]:
            assert enter_result(dora, slug, game, "1-0").status == 302
            committed[game.pk] = "1-0"

        # A save in flight: it waits on a row lock we hold when the database goes down.
        in_flight = games[4]
        csrf, version = csrf_and_version(dora, slug, in_flight)
        import psycopg

        holder = psycopg.connect(cluster.url, connect_timeout=5)
        holder.execute("SELECT 1 FROM events_game WHERE id = %s FOR UPDATE", [in_flight.pk])
        post = _in_thread(
            lambda: dora.post(
                f"/e/{slug}/games/{in_flight.pk}/result/", {"result": "0-1", "version": version}
            )
        )
        wait_for(lambda: _lock_waiters(cluster), "the in-flight save to wait on the lock")
        cluster.stop("immediate")
        post[0].join(DEADLINE)
        with contextlib.suppress(psycopg.Error):
            holder.close()
        assert_unavailable(post[1]["value"])

        # While it is down: every request gets the same clear page, reads and writes alike.
        assert_unavailable(dora.get(f"/e/{slug}/standings/"))
        assert_unavailable(
            dora.post(f"/e/{slug}/games/{games[5].pk}/result/", {"result": "1-0", "version": "1"})
        )

        cluster.start()
        # The next requests succeed, with the same session (it is in the database).
        for game in games[4:8]:
            reply = enter_result(dora, slug, game, "0-1")
            assert reply.status == 302, reply.text[:300]
            committed[game.pk] = "0-1"

        # A restart between two requests: the worker's connection from before it is dead, and
        # is checked before reuse (CONN_HEALTH_CHECKS), so not even the first request fails.
        cluster.restart("immediate")
        for game in games[8:10]:
            reply = enter_result(dora, slug, game, "1/2-1/2")
            assert reply.status == 302, reply.text[:300]
            committed[game.pk] = "1/2-1/2"

    stored = dict(
        cluster.query(
            "SELECT g.id, g.result FROM events_game g JOIN events_round r ON r.id = g.round_id "
            f"JOIN events_event e ON e.id = r.event_id WHERE e.slug = '{slug}' AND g.result <> ''"
        )
    )
    assert stored == committed
    audit = cluster.query(
        "SELECT game_id, count(*) FROM events_auditentry WHERE game_id IS NOT NULL "
        "GROUP BY game_id HAVING count(*) <> 1"
    )
    assert audit == []  # exactly one audit entry per stored result, none for the lost save


@dataclass(frozen=True)
class _GameRef:
    """What ``csrf_and_version`` needs of a game that lives in the throwaway database."""

    pk: int
    slug: str

    @property
    def round(self) -> Any:
        return type("RoundRef", (), {"number": 1})()


def _lock_waiters(cluster: Cluster) -> bool:
    rows = cluster.query(
        "SELECT 1 FROM pg_stat_activity WHERE datname = current_database() "
        "AND wait_event_type = 'Lock'"
    )
    return bool(rows)


def assert_unavailable(reply: Reply) -> None:
    assert reply.status == 503, (reply.status, reply.text[:300])
    assert reply.headers.get("retry-after") == "5"
    assert "Back in a moment" in reply.text
    assert html.escape("what you sent just now was not saved") in reply.text
