"""Shared fixtures: personas (director, arbiter, arbiter of another event, visitor) and events.

House style 6: view tests use personas and check the full page, the htmx partial, and the
403/404 for the wrong person.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from events.models import Event
from events.services import (
    EventFields,
    PairingInput,
    PlayerFields,
    access_grant,
    event_create,
    players_register_many,
    round_pairings_set,
)

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"
TIEBREAK_DATA = SHARED / "data" / "tiebreaks"


@pytest.fixture(scope="session", autouse=True)
def _quick_password_hashing() -> Any:
    """For the whole session, module fixtures' personas included (tests/hashers.py)."""
    from django.test.utils import override_settings

    with override_settings(PASSWORD_HASHERS=["tests.hashers.OneIterationPBKDF2PasswordHasher"]):
        yield


@pytest.fixture(autouse=True)
def _fresh_cache():  # type: ignore[no-untyped-def]
    """Tests share one process-wide cache; each starts with an empty one."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def _public_pages_current(settings):  # type: ignore[no-untyped-def]
    """Tests read their own writes as anonymous visitors, so a public page is never answered
    with a rendering older than the current version here (events.caching); the staleness
    window that production allows is tested on its own in tests/events/test_caching.py."""
    settings.PUBLIC_PAGE_STALE_SECONDS = 0


@pytest.fixture(autouse=True)
def _static_files_looked_up_per_request(settings):  # type: ignore[no-untyped-def]
    """Each test ``Client`` loads the middleware anew, and WhiteNoise's would scan the 1,000
    collected static files each time (85 ms a client, minutes over the suite). Looked up per
    request instead, as WhiteNoise does in development; production scans once per worker."""
    settings.WHITENOISE_AUTOREFRESH = True


def _user(username: str):  # type: ignore[no-untyped-def]
    return get_user_model().objects.create_user(username=username, password="pw-" + username)


@pytest.fixture
def director(db):  # type: ignore[no-untyped-def]
    return _user("dora-director")


@pytest.fixture
def arbiter(db):  # type: ignore[no-untyped-def]
    return _user("arno-arbiter")


@pytest.fixture
def other_arbiter(db):  # type: ignore[no-untyped-def]
    return _user("otto-other")


@pytest.fixture
def visitor(db):  # type: ignore[no-untyped-def]
    return _user("vera-visitor")


def make_event(
    director,
    *,
    name: str = "Spring Open",
    rounds: int = 3,
    players: int = 4,  # type: ignore[no-untyped-def]
    system: str = "swiss",
    preset: str = "fide-2024",
) -> Event:
    event = event_create(
        fields=EventFields(
            name=name,
            system=system,
            time_control="classical",
            rounds=rounds,
            start_date=dt.date(2025, 5, 1),
            preset=preset,
        ),
        director=director,
    )
    players_register_many(
        event=event,
        players=[
            PlayerFields(name=f"Player {i}", rating=2000 - 10 * i, federation="NOR")
            for i in range(1, players + 1)
        ],
        user=director,
    )
    return event


def swiss_round_played(event: Event, *, round_no: int, user) -> None:  # type: ignore[no-untyped-def]
    """The Swiss round paired and published by the engine, White winning every board."""
    from draws.swiss import services as swiss_services
    from events.models import Game
    from events.services import game_result_record

    swiss_services.swiss_round_pair(event=event, round_no=round_no, user=user)
    swiss_services.swiss_round_publish(event=event, round_no=round_no, user=user)
    for game in Game.objects.filter(round__event=event, round__number=round_no):
        game_result_record(game_id=game.pk, result="1-0", expected_version=None, user=user)


@pytest.fixture
def event(director, arbiter, other_arbiter):  # type: ignore[no-untyped-def]
    """A 4-player Swiss with round 1 paired (1-2 on board 1, 3-4 on board 2), no results."""
    event = make_event(director)
    access_grant(event=event, username=arbiter.username, role="arbiter", user=director)
    other = make_event(director, name="Other Event")
    access_grant(event=other, username=other_arbiter.username, role="arbiter", user=director)
    round_pairings_set(
        event=event,
        round_no=1,
        pairings=[PairingInput(1, 1, 2), PairingInput(2, 3, 4)],
        user=director,
    )
    event.refresh_from_db()
    return event


@pytest.fixture
def client_for():  # type: ignore[no-untyped-def]
    def login(user) -> Client:  # type: ignore[no-untyped-def]
        client = Client()
        if user is not None:
            client.force_login(user)
        return client

    return login


def manage_environment(env: dict[str, str] | None = None) -> dict[str, str]:
    """The environment of a ``manage.py`` process against the test database: production
    settings (DEBUG off), then ``env`` (which may point ``DATABASE_URL`` elsewhere)."""
    from django.db import connection

    settings = connection.settings_dict
    credentials = settings["USER"] + (f":{settings['PASSWORD']}" if settings["PASSWORD"] else "")
    environment = {
        **os.environ,
        "DATABASE_URL": f"postgres://{credentials}@{settings['HOST']}:{settings['PORT']}/"
        f"{settings['NAME']}",
        "DEBUG": "0",
        "PYTHONIOENCODING": "utf-8",
        **(env or {}),
    }
    environment.setdefault("SECRET_KEY", "test-secret-key-not-for-production")
    environment.setdefault("ALLOWED_HOSTS", "localhost")
    return environment


def manage_process(
    *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``manage.py ARGS`` as its own process against the test database, as an organiser runs
    it (exit status, stdout and stderr as UTF-8 text)."""
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=REPO,
        env=manage_environment(env),
        capture_output=True,
        encoding="utf-8",
        timeout=120,
        check=False,
    )


def export_document(slug: str) -> dict[str, Any]:
    """``manage.py export_event SLUG`` as a dict."""
    from django.core.management import call_command

    out = StringIO()
    call_command("export_event", slug, stdout=out)
    return dict(json.loads(out.getvalue()))


def import_copy(document: dict[str, Any], tmp_path: Path, slug: str = "copy") -> Event:
    """``manage.py import_event`` of ``document`` under another slug."""
    from django.core.management import call_command

    path = tmp_path / f"{slug}.json"
    path.write_text(json.dumps({**document, "slug": slug}))
    call_command("import_event", str(path), stdout=StringIO())
    return Event.objects.get(slug=slug)


def refused_in_one_line(*args: str) -> str:
    """``manage.py ARGS`` refused as design brief §4 says: a non-zero exit and one line on
    stderr (no traceback); returns that line."""
    result = manage_process(*args)
    assert result.returncode != 0, result.stdout[-500:]
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr, result.stderr
    return result.stderr


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The slow tests first (a minute and more each: servers, a fresh machine, the whole demo
    backed up and restored). Started last they would keep one worker busy while the other has
    finished; started first, work stealing gives the other worker the rest meanwhile."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


# -- The differential runs' tallies, over pytest-xdist's workers (tests/tallies.py) -----------


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    from tests import tallies

    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:  # a worker: the controller adds the tallies up
        workeroutput["tallies"] = tallies.worker_states()
    elif tallies.incomplete() and exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: Any) -> None:
    from tests import tallies

    tallies.add_worker_states(getattr(node, "workeroutput", {}).get("tallies", {}))


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    from tests import tallies

    for line in tallies.summaries():
        terminalreporter.write_line(line)
