"""The oracle (gacrux, in one long-lived subprocess), the ``team_pairing_full`` marker (the full
differential run, minutes: left out unless asked for with ``-m team_pairing_full``) and the
count of what the differential run compared, printed at the end and checked against the
events and rounds started (``tests/tallies.py``, over pytest-xdist's workers)."""

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


def pytest_runtest_setup(item: pytest.Item) -> None:
    # Counted as each case starts, in whichever worker runs it (tests/tallies.py checks the
    # sum at the end). Only the differential's own cases: other tests that take a generated
    # ``case`` (tests/formats/teams/test_history.py) record nothing here.
    if item.path.name != "test_differential.py" or item.path.resolve().parent != HERE:
        return
    case = getattr(item, "callspec", None) and item.callspec.params.get("case")
    if isinstance(case, Case):
        TALLY.expect(case)


@pytest.fixture(scope="session")
def gacrux(tmp_path_factory: pytest.TempPathFactory) -> Iterator[oracle.Gacrux]:
    """gacrux's pairing checker, run from a directory without a ``gacrux/`` folder."""
    runner = oracle.started(tmp_path_factory.mktemp("gacrux"))
    yield runner
    runner.close()
