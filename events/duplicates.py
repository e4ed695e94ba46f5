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
    entry is in ``new`` and, by its ``key``, not compared with its own old self)."""
    refusals: list[str] = []
    warnings: list[str] = []
    seen: list[Entry] = []
    replaced = {entry.key for entry in new if entry.key is not None}
    others = [entry for entry in registered if entry.key is None or entry.key not in replaced]
    for entry in new:
        pool = others + seen
        fide_id = fide_id_key(entry.fide_id)
        holder = next((o for o in pool if fide_id and fide_id == fide_id_key(o.fide_id)), None)
        if holder is not None:
            in_batch = any(holder is entry_seen for entry_seen in seen)
            where = f"also on {holder.where}" if in_batch else f"already {holder.where}'s"
            refusals.append(f"{entry.where}: FIDE id {fide_id} is {where}")
        else:
            names = name_key(entry.name)
            twin = next(
                (o for o in pool if names == name_key(o.name) and same_birth(entry, o)), None
            )
            if twin is not None:
                named = entry.where if entry.name in entry.where else f"{entry.where}: {entry.name}"
                warnings.append(
                    f"{named}{_born(entry)} may be the same person as {twin.where}{_born(twin)}"
                )
        seen.append(entry)
    return Findings(tuple(refusals), tuple(warnings))
