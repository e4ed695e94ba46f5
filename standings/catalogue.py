"""Loads every tie-break module into the registry, once. Pure, no Django.

The registry is filled by import side effects of :mod:`standings.tiebreaks` (FIDE C.07) and
:mod:`standings.chains` (the seeds' own chains); callers go through :func:`load` so that the
UI's choices and the validators always see the whole catalogue.
"""

from __future__ import annotations

from standings.registry import REGISTRY, TiebreakDefinition, TiebreakSpec


def load() -> dict[str, TiebreakDefinition]:
    import standings.chains  # noqa: F401  (registers MSO and Cohen Chess codes)
    import standings.tiebreaks  # noqa: F401  (registers the FIDE C.07 codes)

    return REGISTRY


def check_allowed(spec: TiebreakSpec, *, round_robin: bool, edition: str) -> None:
    """Raise TiebreakNotAllowed where the edition forbids the code (C.07 rules per edition)."""
    from standings.tiebreaks import check_allowed as fide_check_allowed

    fide_check_allowed(spec, round_robin=round_robin, edition=edition)


def choices() -> list[tuple[str, str]]:
    """(code, name) pairs for forms, sorted by code."""
    return sorted((code, definition.name) for code, definition in load().items())
