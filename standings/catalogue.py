"""Loads every tie-break module into the registry, once, and lends the foundation its check of
tie-break codes. Pure, no Django.

The registry is filled by import side effects of :mod:`standings.tiebreaks` (FIDE C.07) and
:mod:`standings.chains` (the seeds' own chains); callers go through :func:`load` so that the
UI's choices and the validators always see the whole catalogue. Importing this module makes
:func:`validate_codes` the check :func:`events.regulations.validate_tiebreaks` applies.
"""

from __future__ import annotations

from events.regulations import RegulationError, TiebreakCatalogue, tiebreak_catalogue_set
from standings.registry import (
    REGISTRY,
    TiebreakDefinition,
    TiebreakNotAllowed,
    TiebreakSpec,
    UnknownTiebreak,
    parse_codes,
)


def load() -> dict[str, TiebreakDefinition]:
    import standings.chains  # noqa: F401  (registers MSO and Cohen Chess codes)
    import standings.tiebreaks  # noqa: F401  (registers the FIDE C.07 codes)

    return REGISTRY


def check_allowed(spec: TiebreakSpec, *, round_robin: bool, edition: str) -> None:
    """Raise TiebreakNotAllowed where the edition forbids the code (C.07 rules per edition)."""
    from standings.tiebreaks import check_allowed as fide_check_allowed

    fide_check_allowed(spec, round_robin=round_robin, edition=edition)


def validate_codes(codes: list[str], round_robin: bool, edition: str) -> tuple[str, ...]:
    """Check tie-break codes against the registry and the edition's rules (C.07); the
    error names the code at fault."""
    load()
    try:
        specs = parse_codes(codes)
        for spec in specs:
            check_allowed(spec, round_robin=round_robin, edition=edition)
    except (UnknownTiebreak, TiebreakNotAllowed) as exc:
        raise RegulationError(f"tiebreaks: {exc}") from exc
    return tuple(spec.code for spec in specs)


def choices() -> list[tuple[str, str]]:
    """(code, name) pairs for forms, sorted by code."""
    return sorted((code, definition.name) for code, definition in load().items())


tiebreak_catalogue_set(TiebreakCatalogue(check=validate_codes, choices=choices))
