"""Refreshing registered players from a newer rating list (pure): what would change, field by
field, and the digest that ties an *Apply* to the preview it was pressed on.

FIDE's pairing rules take the ratings in force at the tournament's start (C.04.2, Initial
order), and FIDE publishes a list on the 1st of each month; players registered weeks before
take the rating, title, K, federation, year of birth and sex of the newer list. The name is
never taken: the director may have spelled it as the player wants. A field the list leaves
empty (no title, no rating of the event's kind, a national list without a sex column) stays
as registered: an empty column is not knowledge. A player registered with a birth *date* keeps
their year, which the date gives.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass

# The fields taken from the list, in the order the preview shows them, with their labels.
FIELDS = (
    ("rating", "rating"),
    ("title", "title"),
    ("k_listed", "K"),
    ("federation", "federation"),
    ("birth_year", "year of birth"),
    ("sex", "sex"),
)
LABELS = dict(FIELDS)

Value = int | str | None


@dataclass(frozen=True)
class Registered:
    """A registered player's fields the list may change."""

    start_no: int
    name: str
    rating: int
    title: str
    k_listed: int | None
    federation: str
    birth_year: int | None
    sex: str
    has_birth_date: bool = False


@dataclass(frozen=True)
class Listed:
    """The list's entry, with the rating (and its K) of the event's kind."""

    rating: int | None
    title: str
    k_listed: int | None
    federation: str
    birth_year: int | None
    sex: str


@dataclass(frozen=True)
class Change:
    field: str
    before: Value
    after: Value

    @property
    def label(self) -> str:
        return LABELS[self.field]


@dataclass(frozen=True)
class PlayerChanges:
    start_no: int
    name: str
    changes: tuple[Change, ...]

    @property
    def cells(self) -> tuple[Change | None, ...]:
        """The change of each of :data:`FIELDS`, in order (None: unchanged)."""
        by_field = {change.field: change for change in self.changes}
        return tuple(by_field.get(field) for field, _ in FIELDS)


def player_changes(registered: Registered, listed: Listed) -> tuple[Change, ...]:
    """Each field the list gives that differs from the registered one."""
    found = []
    for field, _ in FIELDS:
        after = getattr(listed, field)
        if after in (None, "") or (field == "birth_year" and registered.has_birth_date):
            continue
        before = getattr(registered, field)
        if after != before:
            found.append(Change(field, before, after))
    return tuple(found)


def refresh_digest(list_key: Sequence[object], rows: Sequence[PlayerChanges]) -> str:
    """A digest of the list (its id and import time) and every change: an *Apply* changes
    exactly what its preview showed, or nothing."""
    document = [
        [str(part) for part in list_key],
        [
            [row.start_no, row.name, [[c.field, c.before, c.after] for c in row.changes]]
            for row in rows
        ],
    ]
    return hashlib.sha256(json.dumps(document, ensure_ascii=False).encode()).hexdigest()
