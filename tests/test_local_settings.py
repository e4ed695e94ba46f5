"""``make run`` writes ``.env`` (DEBUG=1) and ``manage.py`` reads it, so the README's commands
work as printed after ``make run``; a production machine without that file still refuses to
start without a SECRET_KEY (issue 16, "Command line")."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys

import pytest

from tests.conftest import REPO


def _manage():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("manage_module", REPO / "manage.py")
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def test_the_file_fills_only_what_the_environment_lacks(tmp_path, monkeypatch) -> None:
    settings = tmp_path / "local.env"
    settings.write_text("# written by make run\nDEBUG=1\nTD_EXAMPLE = from-file\nnot a line\n")
    monkeypatch.delenv("DEBUG", raising=False)
    monkeypatch.delenv("SECRET_KEY", raising=False)  # development: no SECRET_KEY
    monkeypatch.setenv("TD_EXAMPLE", "from-environment")
    _manage().load_local_settings(str(settings))
    assert os.environ["DEBUG"] == "1"
    assert os.environ["TD_EXAMPLE"] == "from-environment"


def test_a_missing_file_changes_nothing(tmp_path, monkeypatch) -> None:
    monkeypatch.delenv("DEBUG", raising=False)
    _manage().load_local_settings(str(tmp_path / "absent.env"))
    assert "DEBUG" not in os.environ


@pytest.mark.slow
def test_production_without_a_secret_key_still_refuses_to_start() -> None:
    environment = {k: v for k, v in os.environ.items() if k != "SECRET_KEY"}
    environment.update(DEBUG="0", ALLOWED_HOSTS="example.org")
    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=REPO,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode != 0
    assert "SECRET_KEY must be set when DEBUG is off" in result.stderr


# -- Never on a server (issue 19) ----------------------------------------------------------------


def test_a_secret_key_in_the_environment_turns_the_file_off(tmp_path, monkeypatch) -> None:
    settings = tmp_path / "local.env"
    settings.write_text("DEBUG=1\n")
    monkeypatch.delenv("DEBUG", raising=False)
    monkeypatch.setenv("SECRET_KEY", "a-server-has-one")
    _manage().load_local_settings(str(settings))
    assert "DEBUG" not in os.environ


@pytest.fixture
def dotenv_in_checkout():  # type: ignore[no-untyped-def]
    """The checkout's own .env as ``make run`` writes it: the one manage.py reads. Made for the
    test when absent (and removed after); a developer's own is used as it is."""
    path = REPO / ".env"
    made = not path.exists()
    if made:
        path.write_text(
            "# Written by make run: development settings (never on a server).\nDEBUG=1\n"
        )
    elif "DEBUG=1" not in path.read_text():
        pytest.skip("this checkout's .env does not say DEBUG=1")
    yield path
    if made:
        path.unlink()


def _run(args: list[str], **variables: str) -> subprocess.CompletedProcess[str]:
    """A process as a server's shell starts it: no DEBUG, nor anything of the test run's."""
    environment = {
        k: v for k, v in os.environ.items() if k not in ("DEBUG", "SECRET_KEY", "SITE_URL")
    }
    environment.update(ALLOWED_HOSTS="chess.example.org", **variables)
    return subprocess.run(
        args, cwd=REPO, env=environment, capture_output=True, text=True, timeout=120, check=False
    )


PRINT_DEBUG = "from django.conf import settings; print('DEBUG', settings.DEBUG)"


@pytest.mark.slow
def test_manage_py_on_a_server_does_not_read_the_file(dotenv_in_checkout) -> None:  # type: ignore[no-untyped-def]
    server = _run([sys.executable, "manage.py", "shell", "-c", PRINT_DEBUG], SECRET_KEY="s" * 50)
    assert server.returncode == 0, server.stderr
    assert "DEBUG False" in server.stdout
    assert "development settings" not in server.stderr
    development = _run([sys.executable, "manage.py", "shell", "-c", PRINT_DEBUG])
    assert "DEBUG True" in development.stdout
    assert "manage.py: development settings from .env (DEBUG=1)" in development.stderr


@pytest.mark.slow
def test_the_wsgi_entry_never_reads_the_file(dotenv_in_checkout) -> None:  # type: ignore[no-untyped-def]
    """gunicorn config.wsgi: DEBUG as the environment says (off), whatever .env says; and
    without a SECRET_KEY it refuses to start rather than fall back to the file's DEBUG=1."""
    wsgi = f"import config.wsgi; {PRINT_DEBUG}"
    started = _run([sys.executable, "-c", wsgi], SECRET_KEY="s" * 50)
    assert started.returncode == 0, started.stderr
    assert "DEBUG False" in started.stdout
    refused = _run([sys.executable, "-c", wsgi])
    assert refused.returncode != 0
    assert "SECRET_KEY must be set when DEBUG is off" in refused.stderr


@pytest.mark.slow
def test_check_deploy_refuses_debug() -> None:
    result = _run(
        [sys.executable, "manage.py", "check", "--deploy"], DEBUG="1", SECRET_KEY="s" * 50
    )
    assert result.returncode != 0
    assert "config.E001" in result.stderr and "DEBUG is on" in result.stderr


PROBE = """
import django, json
django.setup()
from django.test import Client
client = Client(HTTP_HOST="chess.example.org", HTTP_X_FORWARDED_PROTO="https")
print(json.dumps([client.get(p).status_code for p in ("/", "/accounts/login/", "/healthz")]))
"""


@pytest.mark.slow
@pytest.mark.django_db
def test_collectstatic_with_debug_on_still_makes_a_working_production_start(tmp_path) -> None:
    """The deploy the issue describes: collectstatic under DEBUG=1 (from .env) used to write no
    manifest, and the production start then answered every page but /healthz with a 500."""
    from django.conf import settings

    database = settings.DATABASES["default"]
    url = (
        f"postgres://{database['USER']}:{database['PASSWORD']}@{database['HOST']}:"
        f"{database['PORT']}/{database['NAME']}"
    )
    static = str(tmp_path / "static")
    collected = _run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
        DEBUG="1",
        STATIC_ROOT=static,
    )
    assert collected.returncode == 0, collected.stderr
    assert (tmp_path / "static" / "staticfiles.json").exists()
    production = _run(
        [sys.executable, "-c", PROBE],
        DJANGO_SETTINGS_MODULE="config.settings",
        DEBUG="0",
        SECRET_KEY="s" * 50,
        STATIC_ROOT=static,
        DATABASE_URL=url,
        SECURE_COOKIES="1",
    )
    assert production.returncode == 0, production.stderr
    assert json.loads(production.stdout.strip().splitlines()[-1]) == [200, 200, 200]
