"""The tie-break oracle (gacrux, in one long-lived subprocess) and the ``team_tiebreak_full``
marker (the full differential run, minutes: left out unless asked for with
``-m team_tiebreak_full``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.formats.teams.pairing import oracle as pairing_oracle
from tests.formats.teams.tiebreaks.oracle import TiebreakOracle

FULL = "team_tiebreak_full"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if FULL not in (config.getoption("markexpr") or ""):
        left_out = [item for item in items if item.get_closest_marker(FULL)]
        if left_out:
            config.hook.pytest_deselected(items=left_out)
            items[:] = [item for item in items if not item.get_closest_marker(FULL)]


@pytest.fixture(scope="session")
def tiebreak_oracle(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TiebreakOracle]:
    """gacrux's tie-break checker, run from a directory without a ``gacrux/`` folder."""
    workdir = tmp_path_factory.mktemp("gacrux-tiebreaks")
    pairing_oracle.started(workdir).close()  # skips (or fails under REQUIRE_ORACLES) without gacrux
    runner = TiebreakOracle(workdir)
    yield runner
    runner.close()
