"""Every round's cut of the large real Swiss files (tests/events/test_trf_corpus.py pairs the
first and the last cut of a file above ``EVERY_CUT_UP_TO`` players in the default run): paired
here exactly as bbpPairings pairs it. ``make test-pairing-full``."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.events.test_trf_corpus import (
    EVERY_CUT_UP_TO,
    SWISS,
    compare_cuts,
    player_lines,
    text_of,
)

LARGE = [p for p in SWISS if len(player_lines(text_of(p))) > EVERY_CUT_UP_TO]

pytestmark = [pytest.mark.django_db, pytest.mark.pairing_full]


@pytest.mark.parametrize("path", LARGE, ids=[p.name for p in LARGE])
def test_every_cut_of_a_large_real_swiss_is_paired_as_bbppairings_pairs_it(
    path: Path, tmp_path: Path
) -> None:
    assert compare_cuts(path, tmp_path, every=True) == []
