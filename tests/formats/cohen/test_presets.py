"""The cohen-chess preset (formats/cohen/presets.py): seed 002 ranking rules 4–6 as data."""

from __future__ import annotations

import pytest

from events.regulations import PRESETS


def test_cohen_chains() -> None:
    """seed002 rules 4 (pool winner, on pool points), 5 (overall) and 5 without C (pool)."""
    preset = PRESETS["cohen-chess"]
    winner, pool, overall = (preset.chain(name) for name in ("pool_winner", "pool", "overall"))
    assert winner.primary == "POOLPTS" and winner.codes[:3] == ("POOLPTS", "POOLH2H", "PTS")
    assert len(winner.codes) == 10 and len(overall.codes) == 11  # rules 4 A–J, 5 A–K
    assert overall.codes[2] == "POOLRANK" and "POOLRANK" not in pool.codes
    assert preset.tiebreaks_for(round_robin=False) == overall.codes
    with pytest.raises(KeyError):
        preset.chain("consolation")
