"""The oracle (gacrux, in one long-lived subprocess), the ``team_pairing_full`` marker (the full
differential run, minutes: left out unless asked for with ``-m team_pairing_full``) and the
count of what the differential run compared, printed at the end and checked against the
events and rounds selected."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.formats.teams.pairing import oracle
from tests.formats.teams.pairing.differential import TALLY
from tests.formats.teams.pairing.generator import Case

FULL = "team_pairing_full"
HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if FULL not in (config.getoption("markexpr") or ""):
        left_out = [item for item in items if item.get_closest_marker(FULL)]
        if left_out:
            config.hook.pytest_deselected(items=left_out)
            items[:] = [item for item in items if not item.get_closest_marker(FULL)]


def pytest_collection_finish(session: pytest.Session) -> None:
    # Only the differential's own cases (test_differential.py records them): other tests that
    # take a generated ``case`` (tests/formats/teams/test_history.py) record nothing here.
    for item in session.items:
        if item.path.name != "test_differential.py" or item.path.resolve().parent != HERE:
            continue
        case = getattr(item, "callspec", None) and item.callspec.params.get("case")
        if isinstance(case, Case):
            TALLY.expect(case)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if TALLY.ran:
        terminalreporter.write_line(TALLY.summary())


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    # (A pytest-xdist worker runs only part of what it collected: no check there.)
    worker = hasattr(session.config, "workerinput")
    if TALLY.ran and not worker and not TALLY.complete() and exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.fixture(scope="session")
def gacrux(tmp_path_factory: pytest.TempPathFactory) -> Iterator[oracle.Gacrux]:
    """gacrux's pairing checker, run from a directory without a ``gacrux/`` folder."""
    runner = oracle.started(tmp_path_factory.mktemp("gacrux"))
    yield runner
    runner.close()
