"""``make test`` does all its own set-up on a fresh machine (issue 23): PostgreSQL, Chromium and
the Swiss pairing oracle, or one line saying what it could not set up, and no test run.

There is no container engine here, so a "fresh machine" is made of what ``scripts/test.sh``
looks at: a clone of the repository in a temporary directory (with the working tree's changes
to tracked files, so the change being made is the one tested), a PATH from which Chromium, the
PostgreSQL binaries, g++, make and apt-get are hidden, an empty build cache and Playwright
folder, and ``TEST_PG=wheel``, which passes over the local server and Debian's binaries (they
are found outside PATH). A stand-in for apt-get records its calls and "installs" a package by
putting the machine's real program on PATH, so what the script does after an install is real.
The inner runs pick their tests by name, never this module (and fail it if they did).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest

from tests.conftest import REPO, SHARED

pytestmark = pytest.mark.slow

INNER = "TD_MAKE_TEST_INNER"
HIDDEN = {
    "chromium",
    "chromium-browser",
    "google-chrome",
    "initdb",
    "pg_ctl",
    "postgres",
    "pg_ctlcluster",
    "g++",
    "c++",
    "make",
    "apt-get",
    "apt",
}
# The variables the outer make test set for itself; an inner run must find its own.
OUTER = {
    "DATABASE_URL",
    "TEST_DATABASE_NAME",
    "TEST_CHROMIUM",
    "BBP_EXE",
    "REQUIRE_ORACLES",
    "STATIC_ROOT",
    "TEST_PG",
    "TEST_PG_USER",
    "DJANGO_ALLOW_ASYNC_UNSAFE",
    "PYTEST_ADDOPTS",
    "PYTEST_CURRENT_TEST",
}
A_DATABASE_TEST = (
    "tests/events/test_services.py::test_result_is_recorded_audited_and_bumps_the_version"
)
A_BROWSER_TEST = "tests/browser/test_hostile_input.py::test_public_pages_show_hostile_names_as_text"
as_root = pytest.mark.skipif(os.geteuid() != 0, reason="apt-get installs only as root")


@pytest.fixture(autouse=True)
def _no_recursion() -> None:
    if os.environ.get(INNER):
        pytest.fail("an inner make test run selected tests/test_make_test.py", pytrace=False)


def path_without_tools(folder: Path) -> str:
    """A PATH of links to every program on today's PATH except the HIDDEN ones."""
    folder.mkdir()
    for directory in os.environ["PATH"].split(os.pathsep):
        if not os.path.isdir(directory):
            continue
        for program in Path(directory).iterdir():
            link = folder / program.name
            if program.name not in HIDDEN and not link.exists() and os.access(program, os.X_OK):
                link.symlink_to(program)
    return str(folder)


def fake_apt_get(folder: Path, installed: Path, log: Path) -> None:
    """An apt-get that logs its arguments and installs a package by linking the real program
    (found before PATH was cut) into ``installed``, a folder on the inner run's PATH."""
    real = {
        "chromium": os.environ.get("TEST_CHROMIUM") or shutil.which("chromium"),
        "g++": shutil.which("g++"),
        "make": shutil.which("make"),
    }
    links = "\n".join(
        f'    {name}) ln -sf "{path}" "{installed}/{name}" ;;'
        for name, path in real.items()
        if path
    )
    folder.mkdir()
    script = folder / "apt-get"
    script.write_text(
        f'#!/bin/sh\necho "$*" >> "{log}"\n[ "$1" = install ] || exit 0\n'
        f'for package in "$@"; do\n  case "$package" in\n{links}\n  esac\ndone\n'
    )
    script.chmod(0o755)


def inner_environment(tmp_path: Path, path: str, **extra: str) -> dict[str, str]:
    environment = {name: value for name, value in os.environ.items() if name not in OUTER}
    empty_playwright = tmp_path / "ms-playwright"
    empty_playwright.mkdir()
    environment.update(
        PATH=path,
        PLAYWRIGHT_BROWSERS_PATH=str(empty_playwright),
        XDG_CACHE_HOME=str(tmp_path / "cache"),
        **{INNER: "1"},
        **extra,
    )
    return environment


def git(*arguments: str, cwd: Path, patch: bytes | None = None) -> bytes:
    done = subprocess.run(["git", *arguments], cwd=cwd, input=patch, capture_output=True)
    assert done.returncode == 0, f"git {' '.join(arguments)}: {done.stderr.decode()}"
    return done.stdout


def fresh_clone(tmp_path: Path) -> Path:
    """The repository as a contributor clones it, with ../shared beside it and the venv, and
    the working tree's changes to tracked files (read only here: a diff, not a stash)."""
    clone = tmp_path / "repo"
    git("clone", "-q", str(REPO), str(clone), cwd=tmp_path)
    changes = git("diff", "HEAD", "--binary", cwd=REPO)
    if changes:
        git("apply", "--binary", "-", cwd=clone, patch=changes)
    (tmp_path / "shared").symlink_to(SHARED.resolve())
    (clone / ".venv").symlink_to(sys.prefix)
    return clone


def make_test(repo: Path, environment: dict[str, str], *tests: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["scripts/test.sh", *tests, "-q"],
        cwd=repo,
        env=environment,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )


@as_root
def test_on_a_fresh_machine_it_sets_everything_up_and_the_tests_pass(tmp_path) -> None:
    clone = fresh_clone(tmp_path)
    installed = tmp_path / "installed"
    installed.mkdir()
    apt_log = tmp_path / "apt.log"
    fake_apt_get(tmp_path / "apt", installed, apt_log)
    path = os.pathsep.join(
        [str(tmp_path / "apt"), str(installed), path_without_tools(tmp_path / "bin")]
    )
    # nobody: the user the server runs as where Debian's postgresql package is not installed.
    environment = inner_environment(tmp_path, path, TEST_PG="wheel", TEST_PG_USER="nobody")

    run = make_test(clone, environment, A_DATABASE_TEST, A_BROWSER_TEST)

    assert run.returncode == 0, run.stdout + run.stderr
    assert re.search(r"^2 passed", run.stdout, re.MULTILINE), run.stdout
    assert apt_log.read_text().splitlines() == [
        "install -y -qq chromium",
        "install -y -qq g++ make",
    ]
    said = run.stderr
    assert f"make test: Chromium: {installed}/chromium\n" in said
    assert f"make test: bbpPairings: {tmp_path}/cache/bbpPairings-" in said
    assert "make test: nobody cannot run " in said  # the clone is in a folder closed to others
    wheel = re.search(
        r"PostgreSQL: a throwaway cluster from the pgserver wheel .* port (\d+)", said
    )
    assert wheel, said
    # Stopped at the end, as the throwaway cluster is.
    with pytest.raises(psycopg.OperationalError):
        psycopg.connect(f"postgres://postgres@127.0.0.1:{wheel[1]}/postgres", connect_timeout=3)


def test_without_a_way_to_chromium_it_says_so_in_one_line_and_runs_nothing(tmp_path) -> None:
    # No apt-get on PATH, and Playwright's download goes to a port where nothing listens.
    path = path_without_tools(tmp_path / "bin")
    environment = inner_environment(tmp_path, path, PLAYWRIGHT_DOWNLOAD_HOST="http://127.0.0.1:9")

    run = make_test(REPO, environment, A_DATABASE_TEST)

    assert run.returncode == 2
    assert run.stdout == ""
    last = run.stderr.strip().splitlines()[-1]
    assert last.startswith("make test: no Chromium for the browser tests: ")
    assert "Debian's chromium needs root and apt-get" in last
    assert "Playwright's download failed" in last


def test_without_g_plus_plus_and_make_it_says_the_oracle_needs_them(tmp_path) -> None:
    # Any executable will do for Chromium: the run stops before a browser starts.
    path = path_without_tools(tmp_path / "bin")
    environment = inner_environment(tmp_path, path, TEST_CHROMIUM="/bin/true")

    run = make_test(REPO, environment, A_DATABASE_TEST)

    assert (run.returncode, run.stdout) == (2, "")
    assert run.stderr.strip().splitlines() == [
        "make test: g++ and make are needed to build bbpPairings once (apt-get install g++ make)"
    ]


def test_the_browser_tests_fail_without_chromium_rather_than_skip(tmp_path) -> None:
    environment = inner_environment(
        tmp_path,
        path_without_tools(tmp_path / "bin"),
        DATABASE_URL=os.environ["DATABASE_URL"],
        TEST_DATABASE_NAME=f"{os.environ.get('TEST_DATABASE_NAME', 'test_td')}_nochromium",
    )
    pytest_run = [sys.executable, "-m", "pytest", A_BROWSER_TEST, "-q"]

    run = subprocess.run(
        pytest_run, cwd=REPO, env=environment, capture_output=True, text=True, timeout=300
    )

    assert run.returncode == 1, run.stdout
    assert "1 error" in run.stdout and "skipped" not in run.stdout
    assert "no Chromium for the browser tests: run them with make test" in run.stdout
