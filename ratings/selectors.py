"""Reads: the rating lists, the list an event registers from, and the type-ahead's search.

The search answers a name as typed ("carlsen m", "Carlsen, Magnus", "magnus carlsen", "oye
asmund" for "Øye, Åsmund") or an id's first digits, in at most two narrow queries on the
indexes of migration 0001:

1. the names that *begin* with what was typed (``name_key LIKE ' carlsen m%'``), read in the
   order of the B-tree on (list, name key) — the common case, a surname typed from its start
   as lists write names, answered without sorting however many names begin so;
2. only when no name begins so (nor, for two words, begins with them the other way round: "ana
   li" for "Li, Ana"), the names in which *every word typed begins a word* (the
   trigram GIN index finds ``name_key LIKE '%magnus%' AND name_key LIKE '%carlsen%'``, a filter
   keeps those where `` magnus`` and `` carlsen`` begin words), strongest first: "magnus
   carlsen", a first name alone.

An id is a prefix of the FIDE id, then of the national id (their B-trees, in order).
Figures: docs/performance.md, "Rating lists".
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, replace
from itertools import islice
from typing import IO

from django.db import OperationalError, connection, transaction
from django.db.models import F, QuerySet, Value
from django.db.models.functions import Collate, StrIndex

from events.duplicates import fide_id_key
from events.errors import EventClosed, UserError
from events.models import Event, EventStatus, Player, Round, TimeControl
from ratings.models import RatingEntry, RatingList
from ratings.names import MAX_QUERY_CHARS, query_words
from ratings.parsers import (
    BLITZ,
    RAPID,
    STANDARD,
    ListedPlayer,
    ListError,
    Tally,
    k_field,
    read_list,
)
from ratings.refresh import (
    FIELDS,
    Listed,
    PlayerChanges,
    Registered,
    player_changes,
    refresh_digest,
)

PAGE_SIZE = 20
WORD_QUERY_MS = 300  # the word query's time limit (a name's start is answered in a few ms)
# The rating an event registers players with, by its time control.
EVENT_RATING = {
    TimeControl.CLASSICAL: STANDARD,
    TimeControl.RAPID: RAPID,
    TimeControl.BLITZ: BLITZ,
    TimeControl.RAPID_BLITZ: RAPID,
}


def rating_lists() -> list[RatingList]:
    return list(RatingList.objects.order_by("name"))


def event_rating(event: Event) -> str:
    return EVENT_RATING.get(event.time_control, STANDARD)


def rating_list_default(lists: list[RatingList], event: Event) -> RatingList | None:
    """The list an event registers from unless the director picks another: the most recently
    published list that carries the event's rating (standard for classical, …), else the most
    recent list."""
    kind = event_rating(event)
    newest = sorted(lists, key=lambda r: (r.published is not None, r.published, r.imported_at))
    newest.reverse()
    return next((r for r in newest if getattr(r, kind)), newest[0] if newest else None)


def rating_list_chosen(
    lists: list[RatingList], event: Event, chosen: int | None
) -> RatingList | None:
    picked = next((r for r in lists if r.pk == chosen), None)
    return picked or rating_list_default(lists, event)


@dataclass(frozen=True)
class Hit:
    """A player of the list as the registration form takes them, with the rating for the
    event's time control (or the list's own rating when it has only another)."""

    name: str
    fide_id: str
    national_id: str
    federation: str
    title: str
    sex: str
    birth_year: int | None
    rating: int | None
    inactive: bool
    registered_as: int | None = None  # the start number, when already in the event
    k: int | None = None  # the list's K beside that rating (B.02 8.3.3)

    def fill(self) -> str:
        """The registration form's fields, as JSON (rating-pick.js puts them in the form)."""
        return json.dumps(self.form_fields())

    def form_fields(self) -> dict[str, str]:
        return {
            "name": self.name,
            "federation": self.federation,
            "rating": str(self.rating or ""),
            "fide_id": self.fide_id,
            "title": self.title,
            "sex": self.sex,
            "birth_year": "" if self.birth_year is None else str(self.birth_year),
            "birth_date": "",
            "k_listed": "" if self.k is None else str(self.k),
        }


def _rating_column(rating_list: RatingList, kind: str) -> str:
    carried = rating_list.ratings
    return kind if kind in carried else (carried[0] if carried else STANDARD)


def _ordered(field: str) -> F | Collate:
    """A column as its prefix index orders it: PostgreSQL's "C" collation (migration 0001), so
    that a prefix's first page is read in index order; SQLite's own order is binary already."""
    return Collate(F(field), "C") if connection.vendor == "postgresql" else F(field)


def _prefix_matches(entries: QuerySet[RatingEntry], field: str, prefix: str) -> list[RatingEntry]:
    keyed = entries.annotate(key=_ordered(field)).filter(key__startswith=prefix)
    return list(keyed.order_by("key")[:PAGE_SIZE])


def _word_matches(
    entries: QuerySet[RatingEntry], words: list[str], order: str
) -> QuerySet[RatingEntry]:
    """Names in which every word typed begins a word (`` minh`` in the key). The trigram index
    finds the names that hold each word of three letters or more anywhere (``%minh%``: its
    trigrams inside words are far fewer than those of a word's start, `` m``, which every name
    with a word in m has); a plain filter keeps those where the words begin words, and checks
    the shorter words ("j" in "tinmi j")."""
    if all(len(word) < 3 for word in words):
        return entries.none()
    for index, word in enumerate(words):
        if len(word) >= 3:
            entries = entries.filter(name_key__contains=word)
        at = f"word_{index}_at"
        entries = entries.alias(**{at: StrIndex("name_key", Value(" " + word))})
        entries = entries.filter(**{f"{at}__gt": 0})
    return entries.order_by(F(order).desc(nulls_last=True), "name_key")[:PAGE_SIZE]


def _name_matches(
    entries: QuerySet[RatingEntry], words: list[str], order: str
) -> list[RatingEntry]:
    """The names' starts as typed, then (two words: "ana li") the other way round, as a list
    writes them ("Li, Ana"); only when neither begins a name, the dearer query on the words."""
    orders = [words, words[::-1]] if len(words) == 2 else [words]
    for typed in orders:
        found = _prefix_matches(entries, "name_key", " " + " ".join(typed))
        if found:
            return found
    return _bounded(_word_matches(entries, words, order))


def _bounded(query: QuerySet[RatingEntry]) -> list[RatingEntry]:
    """The word query, given :data:`WORD_QUERY_MS` on PostgreSQL: words that very many names
    hold ("ana" and "li") would make the type-ahead wait; the director is asked for more."""
    if connection.vendor != "postgresql":
        return list(query)
    try:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(f"SET LOCAL statement_timeout = {WORD_QUERY_MS}")
            return list(query)
    except OperationalError as exc:  # cancelled at the time limit
        raise UserError(
            "Too many names hold these words: type more of the name, the surname first."
        ) from exc


def _id_matches(entries: QuerySet[RatingEntry], prefix: str) -> list[RatingEntry]:
    found = _prefix_matches(entries, "fide_id", prefix)
    if len(found) < PAGE_SIZE:  # a national list's own ids
        others = entries.exclude(pk__in=[entry.pk for entry in found])
        found += _prefix_matches(others, "national_id", prefix)[: PAGE_SIZE - len(found)]
    return found


def rating_list_search(*, rating_list: RatingList, query: str, kind: str) -> list[Hit]:
    """Up to a page of the list's players matching ``query`` (a name or an id's first digits),
    each with their ``kind`` rating (standard, rapid, blitz) where the list has it."""
    query = query.strip()
    if len(query) > MAX_QUERY_CHARS:
        raise UserError(f"Search with at most {MAX_QUERY_CHARS} characters.")
    entries = RatingEntry.objects.filter(rating_list=rating_list)
    column = _rating_column(rating_list, kind)
    if query and " " not in query and any(c.isdigit() for c in query):
        found = _id_matches(entries, query.upper())
    else:
        words = query_words(query)
        found = _name_matches(entries, words, column) if words else []
    return [_hit(entry, column) for entry in found]


def _hit(entry: RatingEntry, column: str) -> Hit:
    return Hit(
        name=entry.name,
        fide_id=entry.fide_id,
        national_id=entry.national_id,
        federation=entry.federation,
        title=entry.title,
        sex=entry.sex,
        birth_year=entry.birth_year,
        rating=getattr(entry, column),
        inactive=entry.inactive,
        k=getattr(entry, k_field(column)),
    )


def players_by_fide_id(event: Event, ids: list[str]) -> tuple[RatingList | None, dict[str, Hit]]:
    """The event's default rating list and its players with these FIDE ids, each with the
    event's rating: for registering by id alone and for taking each player's K from the
    list."""
    chosen = rating_list_default(rating_lists(), event)
    if chosen is None:
        return chosen, {}
    column = _rating_column(chosen, event_rating(event))
    found = entries_by_fide_id(chosen, ids)
    return chosen, {fide_id: _hit(entry, column) for fide_id, entry in found.items()}


def entries_by_fide_id(rating_list: RatingList, ids: list[str]) -> dict[str, RatingEntry]:
    """The list's players with these FIDE ids (exact, on the list's id index, :data:`MAX_IDS`
    ids a query)."""
    entries = RatingEntry.objects.filter(rating_list=rating_list).annotate(key=_ordered("fide_id"))
    found = {}
    for start in range(0, len(ids), MAX_IDS):
        chunk = entries.filter(key__in=ids[start : start + MAX_IDS])
        found.update({entry.fide_id: entry for entry in chunk})
    return found


MAX_IDS = 100


def hits_for_event(event: Event, hits: list[Hit]) -> list[Hit]:
    """The hits, each saying whether the player is already in the event (by FIDE id; one
    query)."""
    ids = [hit.fide_id for hit in hits if hit.fide_id]
    registered = dict(
        Player.objects.filter(event=event, fide_id__in=ids).values_list("fide_id", "start_no")
    )
    return [replace(hit, registered_as=registered.get(hit.fide_id)) for hit in hits]


@dataclass(frozen=True)
class RegistrationSearch:
    """The type-ahead's answer: the lists, the one searched, and its hits (or why none)."""

    lists: list[RatingList]
    chosen: RatingList | None
    query: str
    hits: list[Hit]
    error: str = ""


def registration_search(event: Event, *, query: str, list_id: int | None) -> RegistrationSearch:
    lists = rating_lists()
    chosen = rating_list_chosen(lists, event, list_id)
    if chosen is None or not query.strip():
        return RegistrationSearch(lists, chosen, query, [])
    try:
        hits = rating_list_search(rating_list=chosen, query=query, kind=event_rating(event))
    except UserError as exc:
        return RegistrationSearch(lists, chosen, query, [], str(exc))
    return RegistrationSearch(lists, chosen, query, hits_for_event(event, hits))


@dataclass(frozen=True)
class ListPreview:
    """The first players of a file as they would be imported, and what reading them found."""

    tally: Tally
    players: list[ListedPlayer]


def rating_list_preview(
    *,
    source: IO[bytes],
    filename: str,
    kind: str | None = None,
    mapping: Mapping[str, str] | None = None,
    delimiter: str | None = None,
    rows: int = 10,
) -> ListPreview:
    try:
        opened = read_list(
            source, filename=filename, kind=kind, mapping=mapping, delimiter=delimiter
        )
        return ListPreview(opened.tally, list(islice(opened.players, rows)))
    except ListError as exc:
        raise UserError(str(exc)) from exc


# -- Refreshing the registered players from a newer list (ratings/refresh.py) ----------------


@dataclass(frozen=True)
class RefreshPreview:
    """What refreshing the event's players from a list would change: by player, each field
    old → new; the players the list does not hold (by their FIDE id) and those without one; and
    the digest that *Apply* must bring back."""

    rating_list: RatingList
    kind: str  # the rating taken: the event's (standard, rapid, blitz)
    rows: tuple[PlayerChanges, ...]
    not_on_the_list: tuple[str, ...]  # "3. Name", in start order
    without_id: tuple[str, ...]
    digest: str

    @property
    def changes(self) -> int:
        return sum(len(row.changes) for row in self.rows)

    @property
    def headings(self) -> tuple[str, ...]:
        return tuple(label for _, label in FIELDS)


def rating_refresh_refusal(event: Event) -> str | None:
    """Why the event's players can no longer be refreshed from a list, or None."""
    if event.status == EventStatus.FINISHED:
        return EventClosed.MESSAGE
    if Round.objects.filter(event=event).exists():
        return (
            "Ratings are fixed once round 1 is paired: the pairing numbers rest on them "
            "(C.04.2). Correct a player by hand with Edit."
        )
    return None


MAX_LIST_ID = 2**31 - 1  # the id column's range


def rating_refresh_list(event: Event, list_id: int | None) -> RatingList:
    """The list to refresh from: one carrying the event's rating, else a one-line refusal."""
    known = list_id is not None and 0 < list_id <= MAX_LIST_ID
    rating_list = RatingList.objects.filter(pk=list_id).first() if known else None
    if rating_list is None:
        raise UserError(
            f"There is no rating list {list_id} (deleted, or never loaded): choose one of the "
            "lists."
        )
    kind = event_rating(event)
    if not getattr(rating_list, kind):
        raise UserError(
            f"{rating_list} carries no {kind} ratings, the event's: choose a list that does."
        )
    return rating_list


def rating_refresh_preview(event: Event, *, list_id: int | None) -> RefreshPreview:
    """What the list would change in the event's players, matched by FIDE id (a query per
    :data:`MAX_IDS` players); nothing is written."""
    refusal = rating_refresh_refusal(event)
    if refusal:
        raise UserError(refusal)
    rating_list = rating_refresh_list(event, list_id)
    kind = event_rating(event)
    players = list(Player.objects.filter(event=event).order_by("start_no"))
    with_id = [p for p in players if _has_fide_id(p)]
    found = entries_by_fide_id(rating_list, [p.fide_id.strip() for p in with_id])
    rows, missing = [], []
    for player in with_id:
        entry = found.get(player.fide_id.strip())
        if entry is None:
            missing.append(str(player))
            continue
        changes = player_changes(_registered(player), _listed(entry, kind))
        if changes:
            rows.append(PlayerChanges(player.start_no, player.name, changes))
    key = (rating_list.pk, rating_list.imported_at.isoformat(), kind)
    return RefreshPreview(
        rating_list=rating_list,
        kind=kind,
        rows=tuple(rows),
        not_on_the_list=tuple(missing),
        without_id=tuple(str(p) for p in players if not _has_fide_id(p)),
        digest=refresh_digest(key, rows),
    )


def _has_fide_id(player: Player) -> bool:
    return bool(fide_id_key(player.fide_id))


def _registered(player: Player) -> Registered:
    return Registered(
        start_no=player.start_no,
        name=player.name,
        rating=player.rating,
        title=player.title,
        k_listed=player.k_listed,
        federation=player.federation,
        birth_year=player.birth_year,
        sex=player.sex,
        has_birth_date=player.birth_date is not None,
    )


def _listed(entry: RatingEntry, kind: str) -> Listed:
    return Listed(
        rating=getattr(entry, kind),
        title=entry.title,
        k_listed=getattr(entry, k_field(kind)),
        federation=entry.federation,
        birth_year=entry.birth_year,
        sex=entry.sex,
    )
