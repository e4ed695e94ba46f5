"""The ``mso-2021-multi-player`` regulation preset (seed 003 multi-player rules 1–5) and the
regulation keys the format adds, registered in :mod:`events.regulations` when this module is
imported. Pure: no Django.

- The chain is the multi-player engine's own (:data:`formats.mso.rules.MSO_MULTI_PLAYER_CHAIN`),
  over table records, not crosstable codes; the preset's ``tiebreak_check`` parses an event's
  override with the engine's codes.
- ``points_table``: tournament points by finishing position per table size. Seed 003 gives no
  points table; the default awards n − k points to the k-th of n at a table (3, 2, 1, 0 at a
  table of four), the one the engine's docstring uses; a regulation override replaces it.
- ``multi_player``: x/0, the cap, negative scores, shared positions and byes (rules-notes:
  "Define x/0, negative scores and byes in the regulation set"); keys map to
  :class:`formats.mso.rules.MultiOptions`.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from events.regulations import (
    Preset,
    RegulationError,
    fraction_of,
    override_register,
    preset_register,
)
from events.sources import MSO, cite
from formats.mso import rules

# Tournament points by finishing position for tables of two to eight (decision, above).
MSO_POINTS_TABLE = tuple(
    (size, tuple(Fraction(size - position) for position in range(1, size + 1)))
    for size in range(2, 9)
)


def multi_player_codes(codes: list[str], round_robin: bool, edition: str) -> tuple[str, ...]:
    """A multi-player chain (seed 003 multi-player rules 3–5): the engine's codes (LRB, LRR,
    PBO, WON, BHEQ, BHEQ/Cn, BHEQ/GROW), not C.07's, which need two-player games."""
    try:
        return rules.parse_codes(codes)
    except rules.MultiPlayerError as exc:
        raise RegulationError(f"tiebreaks: {exc}") from exc


MSO_MULTI_PLAYER = preset_register(
    Preset(
        code="mso-2021-multi-player",
        title="Mind Sports Olympiad, multi-player games",
        source=cite(MSO, "multi-player rules 1–5, clarifications 1–2"),
        edition="2024",
        swiss_tiebreaks=rules.MSO_MULTI_PLAYER_CHAIN,
        round_robin_tiebreaks=rules.MSO_MULTI_PLAYER_CHAIN,
        procedure="restart",
        own_standings=True,
        tiebreak_check=multi_player_codes,
        note="Multi-player tables: tournament points from the points table, then last-round "
        "board, last-round result, % of best opponent's score (capped at 110 % per game), "
        "games won, Buchholz with growing cuts, restarting on every split "
        "(formats.mso.rules).",
    )
)


def _clean_points_table(value: Any, **_: Any) -> dict[str, list[str]]:
    """Tournament points by finishing position per table size, ``{"4": ["3", "2", "1", "0"]}``;
    exact strings, one entry per seat."""
    if not isinstance(value, Mapping) or not value:
        raise RegulationError("points_table: expected an object such as {'4': ['3', '2', '1']}")
    cleaned: dict[str, list[str]] = {}
    for size, points in value.items():
        if not str(size).isdigit() or int(size) < 2:
            raise RegulationError(f"points_table: {size!r} is not a table size (2 or more)")
        if not isinstance(points, list) or len(points) != int(size):
            raise RegulationError(f"points_table.{size}: expected {size} points, one per place")
        cleaned[str(int(size))] = [str(fraction_of(v, f"points_table.{size}")) for v in points]
    return cleaned


MULTI_PLAYER_FRACTIONS = ("bye_points", "bye_percentage", "cap", "zero_over_zero")
MULTI_PLAYER_CHOICES = {
    "negative_scores": ("clamp", "shift"),
    "shared_positions": ("average", "highest"),
}


def _clean_multi_player_item(key: str, item: Any) -> Any:
    if key in MULTI_PLAYER_CHOICES:
        if item not in MULTI_PLAYER_CHOICES[key]:
            allowed = ", ".join(MULTI_PLAYER_CHOICES[key])
            raise RegulationError(f"multi_player.{key}: {item!r} is not one of {allowed}")
        return item
    if key == "shared_win_counts":
        if not isinstance(item, bool):
            raise RegulationError("multi_player.shared_win_counts: expected true or false")
        return item
    if item is None and key == "bye_percentage":
        return None
    return str(fraction_of(item, f"multi_player.{key}"))


def _clean_multi_player(value: Any, **_: Any) -> dict[str, Any]:
    """``{"zero_over_zero": "1", "cap": "11/10", "negative_scores": "clamp", "bye_points": "0",
    "bye_percentage": null, "shared_positions": "average", "shared_win_counts": false}``."""
    if not isinstance(value, Mapping):
        raise RegulationError("multi_player: expected an object such as {'cap': '11/10'}")
    known = {*MULTI_PLAYER_FRACTIONS, *MULTI_PLAYER_CHOICES, "shared_win_counts"}
    unknown = set(value) - known
    if unknown:
        raise RegulationError(f"multi_player: unknown key {sorted(unknown)[0]!r}")
    return {key: _clean_multi_player_item(key, item) for key, item in value.items()}


override_register("points_table", _clean_points_table)
override_register("multi_player", _clean_multi_player)
