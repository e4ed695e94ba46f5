"""The mso-2021-multi-player preset (formats/mso/presets.py): seed 003 multi-player rules."""

from __future__ import annotations

from events.regulations import PRESETS
from formats.mso.presets import MSO_POINTS_TABLE
from formats.mso.rules import MSO_MULTI_PLAYER_CHAIN


def test_mso_multi_player_preset_is_complete_with_its_chain() -> None:
    """seed003 multi-player rules 1–5 under clarification 1 (restart); the default points
    table gives n − k points to the k-th of n."""
    preset = PRESETS["mso-2021-multi-player"]
    assert preset.complete and preset.procedure == "restart" and preset.own_standings
    assert preset.tiebreaks_for(round_robin=False) == MSO_MULTI_PLAYER_CHAIN
    assert dict(MSO_POINTS_TABLE)[4] == (3, 2, 1, 0)
