"""Regulation sets: a preset shipped in code plus validated per-event overrides.

The preset data itself (editions, default tie-breaks, multi-way procedure, scoring) lives in the
pure module :mod:`standings.presets`; this module validates what a director may override and
resolves the effective settings of an event. No ORM here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from events.errors import UserError
from events.records import Scoring
from standings import catalogue
from standings.presets import PRESETS
from standings.registry import TiebreakNotAllowed, UnknownTiebreak, parse_codes

PRESET_CODES: tuple[str, ...] = tuple(PRESETS)
EDITIONS = ("2024", "2026")
PROCEDURES = ("lexicographic", "restart", "peel")
OVERRIDE_KEYS = frozenset(
    {
        "tiebreaks",
        "edition",
        "procedure",
        "scoring",
        "unrated_rating",
        "points_table",
        "multi_player",
    }
)
SCORING_KEYS = frozenset(
    {
        "win",
        "draw",
        "loss",
        "forfeit_win",
        "forfeit_loss",
        "pairing_bye",
        "full_bye",
        "half_bye",
        "zero_bye",
    }
)


class RegulationError(UserError):
    """An invalid preset or override; the message names the key."""


@dataclass(frozen=True)
class EffectiveRegulation:
    preset: str
    edition: str
    tiebreaks: tuple[str, ...]
    procedure: str
    scoring: Scoring
    # C.07: rating tie-breaks are dropped when an unrated player is present, unless the
    # regulation sets a rating for unrated players (rules-notes, "Counting").
    unrated_rating: int | None = None


def _fraction(value: Any, key: str) -> Fraction:
    try:
        result = Fraction(str(value))
    except (ValueError, ZeroDivisionError) as exc:
        raise RegulationError(f"scoring.{key}: {value!r} is not a number") from exc
    return result


def validate_tiebreaks(codes: Any, *, round_robin: bool, edition: str) -> tuple[str, ...]:
    """Check tie-break codes against the registry and the edition's rules (C.07)."""
    if isinstance(codes, str):
        codes = [c for c in codes.split(",") if c.strip()]
    if not isinstance(codes, list | tuple) or not all(isinstance(c, str) for c in codes):
        raise RegulationError("tiebreaks: expected a list of codes such as ['BH/C1', 'SB']")
    catalogue.load()
    try:
        specs = parse_codes(list(codes))
        for spec in specs:
            catalogue.check_allowed(spec, round_robin=round_robin, edition=edition)
    except (UnknownTiebreak, TiebreakNotAllowed) as exc:
        raise RegulationError(f"tiebreaks: {exc}") from exc
    return tuple(spec.code for spec in specs)


def validate_multi_player_tiebreaks(codes: Any) -> tuple[str, ...]:
    """A multi-player chain (seed 003 multi-player rules 3–5): the codes of
    :func:`standings.multiplayer.parse_codes` (LRB, LRR, PBO, WON, BHEQ, BHEQ/Cn, BHEQ/GROW),
    not C.07's, which need two-player games."""
    if isinstance(codes, str):
        codes = [c for c in codes.split(",") if c.strip()]
    if not isinstance(codes, list | tuple) or not all(isinstance(c, str) for c in codes):
        raise RegulationError("tiebreaks: expected a list of codes such as ['LRB', 'BHEQ/GROW']")
    # Imported here: the standings command's direct path loads this module and never needs
    # the multi-player engine (docs/performance.md, "Standings").
    from standings import multiplayer

    try:
        return multiplayer.parse_codes(list(codes))
    except multiplayer.MultiPlayerError as exc:
        raise RegulationError(f"tiebreaks: {exc}") from exc


def event_tiebreaks_validate(
    codes: Any, *, preset: str, round_robin: bool, edition: str
) -> tuple[str, ...]:
    """The tie-break override of an event under ``preset``: a multi-player chain when the
    preset scores multi-player games, C.07 codes otherwise."""
    if PRESETS[preset].multi_player_chain:
        return validate_multi_player_tiebreaks(codes)
    return validate_tiebreaks(codes, round_robin=round_robin, edition=edition)


def validate_overrides(
    preset: str, overrides: Mapping[str, Any], *, round_robin: bool
) -> dict[str, Any]:
    """Return the cleaned overrides or raise :class:`RegulationError` naming the bad key."""
    if preset not in PRESETS:
        raise RegulationError(
            f"unknown regulation preset {preset!r}; choose one of {', '.join(PRESET_CODES)}"
        )
    if not isinstance(overrides, Mapping):
        raise RegulationError("regulation overrides must be an object")
    unknown = set(overrides) - OVERRIDE_KEYS - {"preset"}
    if unknown:
        raise RegulationError(f"unknown regulation key {sorted(unknown)[0]!r}")
    edition = str(overrides.get("edition", PRESETS[preset].edition))
    cleaned: dict[str, Any] = {}
    for key, value in overrides.items():
        if key == "tiebreaks":
            cleaned[key] = list(
                event_tiebreaks_validate(
                    value, preset=preset, round_robin=round_robin, edition=edition
                )
            )
        elif key != "preset":
            cleaned[key] = _CLEANERS[key](value, round_robin=round_robin, edition=edition)
    return cleaned


def _clean_edition(value: Any, **_: Any) -> str:
    if str(value) not in EDITIONS:
        raise RegulationError(f"edition: {value!r} is not one of 2024, 2026")
    return str(value)


def _clean_procedure(value: Any, **_: Any) -> str:
    if value not in PROCEDURES:
        raise RegulationError(f"procedure: {value!r} is not one of {', '.join(PROCEDURES)}")
    return str(value)


def _clean_tiebreaks(value: Any, *, round_robin: bool, edition: str) -> list[str]:
    return list(validate_tiebreaks(value, round_robin=round_robin, edition=edition))


def _clean_unrated_rating(value: Any, **_: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 3500:
        raise RegulationError(f"unrated_rating: {value!r} is not a rating (0–3500)")
    return value


def _clean_scoring(value: Any, **_: Any) -> dict[str, str]:
    return _validate_scoring(value)


def _clean_points_table(value: Any, **_: Any) -> dict[str, list[str]]:
    """Multi-player games (seed 003): tournament points by finishing position per table size,
    ``{"4": ["3", "2", "1", "0"]}``; exact strings, one entry per seat."""
    if not isinstance(value, Mapping) or not value:
        raise RegulationError("points_table: expected an object such as {'4': ['3', '2', '1']}")
    cleaned: dict[str, list[str]] = {}
    for size, points in value.items():
        if not str(size).isdigit() or int(size) < 2:
            raise RegulationError(f"points_table: {size!r} is not a table size (2 or more)")
        if not isinstance(points, list) or len(points) != int(size):
            raise RegulationError(f"points_table.{size}: expected {size} points, one per place")
        cleaned[str(int(size))] = [str(_fraction(v, f"points_table.{size}")) for v in points]
    return cleaned


# Seed 003 multi-player games; rules-notes: "Define x/0, negative scores and byes in the
# regulation set". Keys map to standings.multiplayer.MultiOptions.
MULTI_PLAYER_FRACTIONS = ("bye_points", "bye_percentage", "cap", "zero_over_zero")
MULTI_PLAYER_CHOICES = {
    "negative_scores": ("clamp", "shift"),
    "shared_positions": ("average", "highest"),
}


def _clean_multi_player(value: Any, **_: Any) -> dict[str, Any]:
    """``{"zero_over_zero": "1", "cap": "11/10", "negative_scores": "clamp", "bye_points": "0",
    "bye_percentage": null, "shared_positions": "average", "shared_win_counts": false}``."""
    if not isinstance(value, Mapping):
        raise RegulationError("multi_player: expected an object such as {'cap': '11/10'}")
    known = {*MULTI_PLAYER_FRACTIONS, *MULTI_PLAYER_CHOICES, "shared_win_counts"}
    unknown = set(value) - known
    if unknown:
        raise RegulationError(f"multi_player: unknown key {sorted(unknown)[0]!r}")
    cleaned: dict[str, Any] = {}
    for key, item in value.items():
        if key in MULTI_PLAYER_CHOICES:
            if item not in MULTI_PLAYER_CHOICES[key]:
                allowed = ", ".join(MULTI_PLAYER_CHOICES[key])
                raise RegulationError(f"multi_player.{key}: {item!r} is not one of {allowed}")
            cleaned[key] = item
        elif key == "shared_win_counts":
            if not isinstance(item, bool):
                raise RegulationError("multi_player.shared_win_counts: expected true or false")
            cleaned[key] = item
        elif item is None and key == "bye_percentage":
            cleaned[key] = None
        else:
            cleaned[key] = str(_fraction(item, f"multi_player.{key}"))
    return cleaned


_CLEANERS: dict[str, Callable[..., Any]] = {
    "edition": _clean_edition,
    "procedure": _clean_procedure,
    "tiebreaks": _clean_tiebreaks,
    "unrated_rating": _clean_unrated_rating,
    "scoring": _clean_scoring,
    "points_table": _clean_points_table,
    "multi_player": _clean_multi_player,
}


def _validate_scoring(scoring: Any) -> dict[str, str]:
    if not isinstance(scoring, Mapping):
        raise RegulationError("scoring: expected an object such as {'win': '3', 'draw': '1'}")
    unknown = set(scoring) - SCORING_KEYS
    if unknown:
        raise RegulationError(f"scoring: unknown key {sorted(unknown)[0]!r}")
    return {key: str(_fraction(value, key)) for key, value in scoring.items()}


def effective(
    preset: str, overrides: Mapping[str, Any], *, round_robin: bool
) -> EffectiveRegulation:
    """The settings an event actually runs under."""
    chain = PRESETS[preset]
    base_scoring = chain.scoring
    scoring_overrides = {
        key: Fraction(value) for key, value in dict(overrides.get("scoring", {})).items()
    }
    scoring = Scoring(
        **{key: scoring_overrides.get(key, getattr(base_scoring, key)) for key in SCORING_KEYS},
        time_control_weights=base_scoring.time_control_weights,
    )
    default_codes = chain.tiebreaks_for(round_robin=round_robin)
    return EffectiveRegulation(
        preset=preset,
        edition=str(overrides.get("edition", chain.edition)),
        tiebreaks=tuple(overrides.get("tiebreaks", default_codes)),
        procedure=str(overrides.get("procedure", chain.procedure)),
        scoring=scoring,
        unrated_rating=overrides.get("unrated_rating"),
    )
