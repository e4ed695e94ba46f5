"""MSO extra rounds for several perfect scores (formats/mso/perfect_scores.py; seed 003,
"Perfect Scores"): pairings and the bye by lot."""

from __future__ import annotations

import pytest

from formats.mso.perfect_scores import mso_extra_round

SEED = "gct-2019-test-seed"


@pytest.mark.parametrize(
    ("perfect", "games", "bye"),
    [
        pytest.param([], 0, False, id="003-none-no-extra-round"),
        pytest.param([6], 0, False, id="003-one-perfect-no-extra-round"),
        pytest.param([6, 2], 1, False, id="003-two-perfect"),
        pytest.param([6, 2, 9], 1, True, id="003-three-perfect-bye-by-lot"),
        pytest.param([1, 2, 3, 4, 5, 6], 3, False, id="003-six-perfect"),
    ],
)
def test_mso_extra_round(perfect: list[int], games: int, bye: bool) -> None:
    extra = mso_extra_round(perfect, SEED, 8)
    if games == 0:
        assert extra is None
        return
    assert extra is not None and extra.round_no == 8
    assert len(extra.pairings) == games and (extra.bye is not None) == bye
    everyone = [p for pair in extra.pairings for p in pair] + ([extra.bye] if extra.bye else [])
    assert sorted(everyone) == sorted(perfect)
    assert extra == mso_extra_round(perfect, SEED, 8)


def test_mso_bye_goes_to_someone_new() -> None:
    first = mso_extra_round([6, 2, 9], SEED, 8)
    assert first is not None and first.bye is not None
    second = mso_extra_round([6, 2, 9], SEED, 8, previous_byes={first.bye})
    assert second is not None and second.bye not in (None, first.bye)
    everyone_had_one = mso_extra_round([6, 2, 9], SEED, 8, previous_byes={2, 6, 9})
    assert everyone_had_one is not None and everyone_had_one.bye is not None
