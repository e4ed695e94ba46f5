"""``make run`` writes ``.env`` (DEBUG=1) and ``manage.py`` reads it, so the README's commands
work as printed after ``make run``; a production machine without that file still refuses to
start without a SECRET_KEY (issue 16, "Command line")."""

from __future__ import annotations

import importlib.util
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
