"""Every server error reaches the server's log with its traceback (config/settings.py LOGGING,
issue 19; docs/operations.md, "Logs"). Before, with DEBUG off, Django sent them to the mail
of ADMINS (none) and printed nothing: 0 of 3 appeared.

gunicorn runs the application with production settings on a database that was never
migrated, the commonest real 500 after a deployment ("relation does not exist"), and the test
reads what gunicorn's standard error received.
"""

from __future__ import annotations

import contextlib
import subprocess
import sys
import tempfile
from collections.abc import Iterator

import psycopg
import pytest
from django.conf import settings

from tests.conftest import REPO
from tests.test_reliability import Visitor, _serving, app_env, database_url, free_port

PAGES = ("/", "/e/no-such-event/", "/e/no-such-event/standings/")


@contextlib.contextmanager
def unmigrated_database() -> Iterator[str]:
    name = f"{settings.DATABASES['default']['NAME']}_unmigrated"
    with psycopg.connect(database_url("postgres"), autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
        admin.execute(f'CREATE DATABASE "{name}"')
        try:
            yield name
        finally:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.mark.slow
@pytest.mark.django_db
def test_every_500_reaches_the_server_log_with_its_traceback() -> None:
    with unmigrated_database() as name, tempfile.TemporaryFile() as log:
        port = free_port()
        command = [
            sys.executable, "-m", "gunicorn", "config.wsgi",
            "--bind", f"127.0.0.1:{port}", "--workers", "1",
        ]  # fmt: skip
        env = app_env(database_url(name))
        process = subprocess.Popen(command, cwd=REPO, env=env, stdout=log, stderr=log)
        for _ in _serving(port, process, log):
            statuses = [Visitor(port).get(page).status for page in PAGES]
        log.seek(0)
        text = log.read().decode("utf-8", "replace")
    assert statuses == [500, 500, 500]
    for page in PAGES:
        assert "ERROR django.request" in text and f"Internal Server Error: {page}\n" in text
    assert text.count("Traceback (most recent call last)") >= len(PAGES)
    assert text.count('relation "events_event" does not exist') >= len(PAGES)
