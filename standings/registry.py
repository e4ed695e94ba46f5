"""The tie-break registry: stable codes → definitions (house style 2). Pure, no Django.

Codes follow FIDE's TRF-2026 notation: a base code and optional modifiers separated by "/",
e.g. ``BH/C1``, ``KS/L+1``, ``DE/P``. The seeds' own tie-breaks (MSO, Cohen Chess) are
registered in the same style by their modules.

A definition computes values for a *group* of start numbers. Most tie-breaks do not depend on
who else is tied (``group_dependent=False``): the ranking engine computes them once for the
whole field. Others (direct encounter, head-to-head, opponent-count equalisation) do, and are
recomputed for each tied group.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Protocol

from events.records import Crosstable
from events.registries import Registry

# A tie-break value is a number, or (Cohen "strongest opponents") a tuple compared
# lexicographically. Larger is better unless the definition says otherwise.
TiebreakValue = Fraction | tuple[Fraction, ...]


class UnknownTiebreak(ValueError):
    """A code the registry does not know, or a modifier the tie-break does not accept.

    The message says which, in words a director can act on.
    """


class TiebreakNotAllowed(ValueError):
    """A known code that the regulation forbids here (e.g. BH in a 2026 round robin)."""


@dataclass(frozen=True, slots=True)
class TiebreakSpec:
    """A parsed code: ``BH/C1`` → base ``BH``, modifiers ``("C1",)``."""

    code: str
    base: str
    modifiers: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class TiebreakRequest:
    """Everything a tie-break may look at.

    ``points`` are every player's points after ``crosstable.rounds`` rounds under the event's
    scoring; ``group`` the start numbers being compared (the whole field for group-independent
    tie-breaks). ``edition`` is ``"2024"`` or ``"2026"`` (C.07 editions, rules-notes).
    ``options`` carries regulation-set parameters (e.g. a rating for unrated players).
    """

    crosstable: Crosstable
    spec: TiebreakSpec
    edition: str
    points: Mapping[int, Fraction]
    group: frozenset[int]
    options: Mapping[str, object] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class TiebreakDefinition:
    base: str
    name: str
    compute: Callable[[TiebreakRequest], Mapping[int, TiebreakValue]]
    group_dependent: bool = False
    higher_is_better: bool = True
    allowed_modifiers: Callable[[str], bool] = lambda modifier: False
    description: str = ""


REGISTRY: Registry[TiebreakDefinition] = Registry("tie-break", UnknownTiebreak)


def register(definition: TiebreakDefinition) -> TiebreakDefinition:
    return REGISTRY.register(definition.base, definition)


class CodeDefinition(Protocol):
    """What parsing a code needs of its definition: the modifiers the base code takes."""

    @property
    def allowed_modifiers(self) -> Callable[[str], bool]: ...


def parse_code(code: str, definitions: Mapping[str, CodeDefinition] = REGISTRY) -> TiebreakSpec:
    """Parse and validate a code against the registry, or against another table of codes in
    the same notation (seed 003's multi-player tie-breaks); raise :class:`UnknownTiebreak`."""
    cleaned = code.strip().upper()
    if not cleaned:
        raise UnknownTiebreak("empty tie-break code")
    base, *modifiers = cleaned.split("/")
    definition = definitions.get(base)
    if definition is None:
        raise UnknownTiebreak(f"unknown tie-break code {code.strip()!r}")
    for modifier in modifiers:
        if not definition.allowed_modifiers(modifier):
            raise UnknownTiebreak(f"tie-break {base} does not take the modifier /{modifier}")
    return TiebreakSpec(code=cleaned, base=base, modifiers=tuple(modifiers))


def parse_codes(codes: str | list[str] | tuple[str, ...]) -> tuple[TiebreakSpec, ...]:
    """Parse a comma-separated list (``"BH/C1,BH,SB"``) or a sequence of codes."""
    items = codes.split(",") if isinstance(codes, str) else list(codes)
    return tuple(parse_code(item) for item in items if item.strip())
