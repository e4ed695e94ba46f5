"""Regulation sets: a preset shipped in code plus validated per-event overrides.

A preset is data (design.md §3, "Regulation sets are data"): the C.07 edition, the default
tie-break codes (for Swiss and for round-robin events), the multi-way procedure, the scoring,
any named chains a format needs, and the playoff rule. The apps above the foundation register
their presets here (:mod:`standings.presets` the FIDE, GCT and MSO two-player ones; each format
app its own), together with the checks this module cannot make itself: the tie-break catalogue
(:func:`tiebreak_catalogue_set`, by :mod:`standings`) and the override keys a format adds
(:func:`override_register`). Pure: no Django, no ORM; it imports nothing above the foundation.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from events.errors import UserError
from events.records import Scoring
from events.registries import Registry

EDITIONS = ("2024", "2026")
PROCEDURES = ("lexicographic", "restart", "peel")
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


@dataclass(frozen=True, slots=True)
class NamedChain:
    """A chain for one purpose within a format: its clause, primary criterion and codes."""

    name: str
    clause: str
    codes: tuple[str, ...]
    primary: str = "PTS"


# Checks tie-break codes for an event: (codes, round_robin, edition) -> the cleaned codes.
TiebreakCheck = Callable[[list[str], bool, str], tuple[str, ...]]


@dataclass(frozen=True, slots=True)
class Preset:
    """The rules of one regulation preset.

    ``complete`` is False where the format's own chain belongs to later work (the ``note``
    says what is missing); such a preset ranks by points alone and leaves ties shared.
    ``own_standings``: the format ranks the event with its own engine (the plain standings
    command declines it). ``tiebreak_check`` replaces the catalogue's check for a format whose
    codes are not crosstable tie-breaks. ``playoff_rule``: the playoff rule's code, if any.
    """

    code: str
    title: str
    source: str
    edition: str
    swiss_tiebreaks: tuple[str, ...]
    round_robin_tiebreaks: tuple[str, ...]
    procedure: str
    scoring: Scoring = field(default_factory=Scoring)
    chains: tuple[NamedChain, ...] = ()
    complete: bool = True
    note: str = ""
    own_standings: bool = False
    tiebreak_check: TiebreakCheck | None = None
    playoff_rule: str | None = None

    def tiebreaks_for(self, *, round_robin: bool) -> tuple[str, ...]:
        """The default codes for an event of this preset."""
        return self.round_robin_tiebreaks if round_robin else self.swiss_tiebreaks

    def chain(self, name: str) -> NamedChain:
        for chain in self.chains:
            if chain.name == name:
                return chain
        raise KeyError(f"preset {self.code} has no chain {name!r}")


PRESETS: Registry[Preset] = Registry("regulation preset", RegulationError)


def preset_register(preset: Preset) -> Preset:
    return PRESETS.register(preset.code, preset)


def preset_codes() -> list[str]:
    """The registered presets, for the event form's choices."""
    return list(PRESETS)


def preset_label(code: str) -> str:
    """A preset as a person reads it: its title, then its code ("FIDE (C.07, 2024 edition),
    fide-2024"); an unknown code as it is."""
    preset = PRESETS.get(code)
    return f"{preset.title} · {code}" if preset is not None else code


@dataclass(frozen=True)
class TiebreakCatalogue:
    """What the foundation needs of the tie-break catalogue (lent by :mod:`standings`): the
    check of an event's codes and the (code, name) choices for the settings form."""

    check: TiebreakCheck
    choices: Callable[[], list[tuple[str, str]]]


_catalogue: list[TiebreakCatalogue] = []


def tiebreak_catalogue_set(catalogue: TiebreakCatalogue) -> None:
    _catalogue[:] = [catalogue]


def tiebreak_choices() -> list[tuple[str, str]]:
    """(code, name) of every registered tie-break, for the settings form's chooser."""
    return _catalogue[0].choices() if _catalogue else []


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
    playoff_rule: str | None = None
    own_standings: bool = False


def fraction_of(value: Any, key: str) -> Fraction:
    """An exact number from a string or an integer; the error names ``key``."""
    try:
        result = Fraction(str(value))
    except (ValueError, ZeroDivisionError) as exc:
        raise RegulationError(f"{key}: {value!r} is not a number") from exc
    return result


def code_list(codes: Any, example: str) -> list[str]:
    """A comma-separated string or a list of codes, as a list; anything else is refused."""
    if isinstance(codes, str):
        codes = [c for c in codes.split(",") if c.strip()]
    if not isinstance(codes, list | tuple) or not all(isinstance(c, str) for c in codes):
        raise RegulationError(f"tiebreaks: expected a list of codes such as {example}")
    return list(codes)


def validate_tiebreaks(codes: Any, *, round_robin: bool, edition: str) -> tuple[str, ...]:
    """Check tie-break codes against the catalogue and the edition's rules (C.07)."""
    listed = code_list(codes, "['BH/C1', 'SB']")
    if not _catalogue:
        raise RegulationError("tiebreaks: no tie-break catalogue is loaded")
    return _catalogue[0].check(listed, round_robin, edition)


def event_tiebreaks_validate(
    codes: Any, *, preset: str, round_robin: bool, edition: str
) -> tuple[str, ...]:
    """The tie-break override of an event under ``preset``: the preset's own check where it
    has one (a format whose codes are not crosstable tie-breaks), else the catalogue's."""
    check = PRESETS.find(preset).tiebreak_check
    if check is not None:
        return check(code_list(codes, "['LRB', 'BHEQ/GROW']"), round_robin, edition)
    return validate_tiebreaks(codes, round_robin=round_robin, edition=edition)


OverrideCleaner = Callable[..., Any]
OVERRIDES: Registry[OverrideCleaner] = Registry("regulation key", RegulationError)


def override_register(key: str, cleaner: OverrideCleaner) -> OverrideCleaner:
    """A format's own override key; ``cleaner(value, round_robin=, edition=)`` returns the
    cleaned value or raises :class:`RegulationError` naming the key."""
    return OVERRIDES.register(key, cleaner)


def validate_overrides(
    preset: str, overrides: Mapping[str, Any], *, round_robin: bool
) -> dict[str, Any]:
    """Return the cleaned overrides or raise :class:`RegulationError` naming the bad key."""
    chain = PRESETS.find(preset)
    if not isinstance(overrides, Mapping):
        raise RegulationError("regulation overrides must be an object")
    unknown = set(overrides) - set(OVERRIDES) - {"preset"}
    if unknown:
        raise RegulationError(f"unknown regulation key {sorted(unknown)[0]!r}")
    edition = str(overrides.get("edition", chain.edition))
    cleaned: dict[str, Any] = {}
    for key, value in overrides.items():
        if key == "tiebreaks":
            cleaned[key] = list(
                event_tiebreaks_validate(
                    value, preset=preset, round_robin=round_robin, edition=edition
                )
            )
        elif key != "preset":
            cleaned[key] = OVERRIDES[key](value, round_robin=round_robin, edition=edition)
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
    if not isinstance(value, Mapping):
        raise RegulationError("scoring: expected an object such as {'win': '3', 'draw': '1'}")
    unknown = set(value) - SCORING_KEYS
    if unknown:
        raise RegulationError(f"scoring: unknown key {sorted(unknown)[0]!r}")
    return {key: str(fraction_of(item, key)) for key, item in value.items()}


for _key, _cleaner in (
    ("edition", _clean_edition),
    ("procedure", _clean_procedure),
    ("tiebreaks", _clean_tiebreaks),
    ("unrated_rating", _clean_unrated_rating),
    ("scoring", _clean_scoring),
):
    override_register(_key, _cleaner)


def effective(
    preset: str, overrides: Mapping[str, Any], *, round_robin: bool
) -> EffectiveRegulation:
    """The settings an event actually runs under."""
    chain = PRESETS.find(preset)
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
        playoff_rule=chain.playoff_rule,
        own_standings=chain.own_standings,
    )
