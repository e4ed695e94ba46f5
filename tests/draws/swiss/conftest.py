"""The ``pairing_full`` marker (the full differential run against bbpPairings, minutes), left
out unless asked for with ``-m pairing_full``, and the count of what the differential run
compared: printed at the end and checked against the tournaments and rounds started
(``tests/tallies.py``, over pytest-xdist's workers)."""

from __future__ import annotations

import pytest

from tests.draws.swiss.differential import TALLY, Case

FULL = "pairing_full"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        f"{FULL}: the full differential run of the Swiss engine against bbpPairings "
        "(300+ generated tournaments; make test-pairing-full)",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if FULL not in (config.getoption("markexpr") or ""):
        left_out = [item for item in items if item.get_closest_marker(FULL)]
        if left_out:
            config.hook.pytest_deselected(items=left_out)
            items[:] = [item for item in items if not item.get_closest_marker(FULL)]


def pytest_runtest_setup(item: pytest.Item) -> None:
    # Counted as each case starts, in whichever worker runs it (tests/tallies.py checks, at the
    # end of the run, that each compared all its rounds).
    case = getattr(item, "callspec", None) and item.callspec.params.get("case")
    if isinstance(case, Case):
        TALLY.expect(case)
