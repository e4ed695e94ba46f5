"""Who is registered twice (issue 20, "Duplicates"). Pure: no Django.

Two rules, applied to a batch of new or edited entries against the event's list and against
each other (a pasted list that names someone twice):

- **A FIDE id is one person**: the same id twice in an event is refused, whatever else differs
  (FIDE's rating list gives every player one id; an event's TRF names each once). An id of
  zeros only (TRF files write ``0`` for "none") is no id.
- **The same name may be two people**: the same name with the same birth date (or year, when
  only the year is known on either side) is probably one person typed twice, and so is the same
  name when either entry has no birth data at all. Those are warnings the director may confirm
  (two different people of the same name do exist); the same name with different birth data
  is two people and says nothing.

Names compare without case, accents, punctuation or word order (``Carlsen, Magnus`` is
``magnus carlsen``), as a director reads them.
"""

from __future__ import annotations

import datetime as dt
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Entry:
    """One entry as the rules see it: ``where`` names it in a message (``line 3``,
    ``2. Carlsen, Magnus``); ``key`` tells an entry apart from itself when it is edited."""

    where: str
    name: str
    fide_id: str = ""
    birth_date: dt.date | None = None
    birth_year: int | None = None
    key: object = None


@dataclass(frozen=True, slots=True)
class Findings:
    refusals: tuple[str, ...]  # duplicate FIDE ids: nothing may be written
    warnings: tuple[str, ...]  # probable duplicates by name: the director may confirm


# Letters that Unicode does not decompose into a base letter and an accent.
_UNDECOMPOSED = str.maketrans({"ø": "o", "æ": "ae", "œ": "oe", "đ": "d", "ł": "l", "þ": "th"})


def name_key(name: str) -> tuple[str, ...]:
    """The words of a name, folded: no case, accents or punctuation; in sorted order."""
    decomposed = unicodedata.normalize("NFKD", name.casefold().translate(_UNDECOMPOSED))
    letters = "".join(c if c.isalnum() else " " for c in decomposed if not unicodedata.combining(c))
    return tuple(sorted(letters.split()))


def fide_id_key(fide_id: str) -> str:
    """The id as compared: spaces out; an id of zeros only is none."""
    cleaned = fide_id.strip()
    return "" if cleaned.strip("0") == "" else cleaned


def _born(entry: Entry) -> str:
    if entry.birth_date is not None:
        return f", born {entry.birth_date.isoformat()}"
    if entry.birth_year is not None:
        return f", born {entry.birth_year}"
    return ""


def same_birth(a: Entry, b: Entry) -> bool:
    """True when the birth data does not tell the two apart: equal dates; equal years when
    either side knows only the year; and no birth data on either side."""
    if a.birth_date is not None and b.birth_date is not None:
        return a.birth_date == b.birth_date
    year_a = a.birth_date.year if a.birth_date else a.birth_year
    year_b = b.birth_date.year if b.birth_date else b.birth_year
    if year_a is None or year_b is None:
        return True
    return year_a == year_b


def duplicates_find(registered: Sequence[Entry], new: Sequence[Entry]) -> Findings:
    """The refusals and warnings for ``new`` entries joining ``registered`` ones (an edited
    entry is in ``new`` and, by its ``key``, not compared with its own old self).

    Each entry is compared with those before it (the registered ones, then the batch in its
    order) through indexes by FIDE id and by folded name, so that a batch of 5,000 (a file's
    players) takes one pass, not 12 million comparisons (issue 28, "Big files stay fast")."""
    refusals: list[str] = []
    warnings: list[str] = []
    replaced = {entry.key for entry in new if entry.key is not None}
    pool = _Pool()
    for entry in registered:
        if entry.key is None or entry.key not in replaced:
            pool.add(entry, in_batch=False)
    for entry in new:
        fide_id = fide_id_key(entry.fide_id)
        names = name_key(entry.name)
        found = pool.by_fide_id.get(fide_id) if fide_id else None
        if found is not None:
            holder, in_batch = found
            where = f"also on {holder.where}" if in_batch else f"already {holder.where}'s"
            refusals.append(f"{entry.where}: FIDE id {fide_id} is {where}")
        else:
            twin = next((o for o in pool.by_name.get(names, ()) if same_birth(entry, o)), None)
            if twin is not None:
                named = entry.where if entry.name in entry.where else f"{entry.where}: {entry.name}"
                warnings.append(
                    f"{named}{_born(entry)} may be the same person as {twin.where}{_born(twin)}"
                )
        pool.add(entry, in_batch=True, names=names)
    return Findings(tuple(refusals), tuple(warnings))


class _Pool:
    """The entries compared with so far: the first holder of each FIDE id (and whether it
    came in the batch), and every entry under its folded name, in order."""

    def __init__(self) -> None:
        self.by_fide_id: dict[str, tuple[Entry, bool]] = {}
        self.by_name: dict[tuple[str, ...], list[Entry]] = {}

    def add(self, entry: Entry, *, in_batch: bool, names: tuple[str, ...] | None = None) -> None:
        fide_id = fide_id_key(entry.fide_id)
        if fide_id:
            self.by_fide_id.setdefault(fide_id, (entry, in_batch))
        key = name_key(entry.name) if names is None else names
        self.by_name.setdefault(key, []).append(entry)
