"""Writes: importing a rating list (new, or replacing one of the same name) and deleting one.

An import streams the file (ratings.parsers) straight into the table: PostgreSQL's ``COPY``
(psycopg 3's ``cursor.copy``) on PostgreSQL, ``bulk_create`` in batches on SQLite (``make run``),
so memory does not grow with the list (docs/performance.md, "Rating lists": 1.2 million
players). It runs in one transaction: a list replaced by a re-import keeps answering the
type-ahead with its old players until the new ones are committed, and a refused import (a
wrong file, too many bad lines, more than the bounds) changes nothing.

Rating lists belong to no event, so an import writes no event's audit entry; the list records
who imported it, when and from which file. Refreshing an event's players from a newer list
(:func:`players_rating_refresh`) writes to the event: guarded and audited like its other writes.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from itertools import islice
from typing import IO, Any

from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from events.errors import ImportFailed, UserError
from events.models import Event, Player
from events.services import UserLike, check_length, event_changed, event_require_open
from ratings.models import RatingEntry, RatingList
from ratings.names import name_key
from ratings.parsers import (
    CSV,
    RATINGS,
    ListedPlayer,
    ListError,
    Problem,
    Tally,
    read_list,
    too_many_problems,
)
from ratings.refresh import FIELDS
from ratings.selectors import RefreshPreview, rating_refresh_preview

BATCH = 1000  # rows per INSERT on SQLite (16 columns: well under its 32,766 variables)
COLUMNS = (
    "rating_list_id",
    "fide_id",
    "national_id",
    "name",
    "name_key",
    "federation",
    "sex",
    "title",
    "birth_year",
    "standard",
    "rapid",
    "blitz",
    "inactive",
    "standard_k",
    "rapid_k",
    "blitz_k",
)


@dataclass(frozen=True)
class ListImported:
    """What an import did: the list, how many players it now has, how many lines were
    skipped (the first of them with their reasons), and how many players it had before."""

    rating_list: RatingList
    players: int
    skipped: int
    first_skipped: tuple[Problem, ...]
    replaced: int | None  # the players of the list it replaced; None for a new list

    def summary(self) -> str:
        verb = "Replaced" if self.replaced is not None else "Imported"
        before = f" (it had {self.replaced:,})" if self.replaced is not None else ""
        skipped = f"; {self.skipped:,} lines skipped" if self.skipped else ""
        return f"{verb} {self.rating_list}: {self.players:,} players{before}{skipped}"


def default_name(tally: Tally, kind: str | None) -> str:
    """ "FIDE" for FIDE's combined list, "FIDE standard" (rapid, blitz) for a single one."""
    if tally.layout == CSV:
        raise ListError("name the list (a national list has no name of its own)")
    carried = [kind for kind in RATINGS if kind in tally.ratings]
    return "FIDE" if len(carried) > 1 else f"FIDE {(carried or [kind or 'standard'])[0]}"


def rating_list_import(
    *,
    source: IO[bytes],
    filename: str,
    user: UserLike,
    name: str = "",
    published: dt.date | None = None,
    kind: str | None = None,
    mapping: Mapping[str, str] | None = None,
    delimiter: str | None = None,
) -> ListImported:
    """Import the list in ``source`` under ``name`` (default: FIDE's, from the file), replacing
    the players of a list of that name. All or nothing: :class:`ImportFailed` changes nothing."""
    try:
        opened = read_list(
            source, filename=filename, kind=kind, mapping=mapping, delimiter=delimiter
        )
        name = " ".join(name.split()) or default_name(opened.tally, kind)
        check_length(RatingList, "name", name, "the list's name")
        with transaction.atomic():
            return _import(name, opened.players, opened.tally, filename, published, user)
    except ListError as exc:
        raise ImportFailed(str(exc)) from exc
    except IntegrityError as exc:  # two imports creating the same new list at once
        raise ImportFailed(f"another import of {name!r} is running; try again") from exc


def _import(
    name: str,
    players: Iterator[ListedPlayer],
    tally: Tally,
    filename: str,
    published: dt.date | None,
    user: UserLike,
) -> ListImported:
    rating_list, created = RatingList.objects.select_for_update().get_or_create(
        name=name, defaults={"imported_at": timezone.now(), "layout": tally.layout}
    )
    replaced = None if created else rating_list.players
    RatingEntry.objects.filter(rating_list=rating_list).delete()
    written = _entries_write(rating_list.pk, players)
    _refuse_a_bad_file(tally, written)
    _search_indexes_ready()
    rating_list.published = published or tally.period
    rating_list.layout = tally.layout
    for kind in RATINGS:
        setattr(rating_list, kind, kind in tally.ratings)
    rating_list.players = written
    rating_list.source = filename[-200:]
    rating_list.imported_at = timezone.now()
    rating_list.imported_by = user if user is not None and user.is_authenticated else None
    rating_list.save()
    return ListImported(
        rating_list=rating_list,
        players=written,
        skipped=tally.problems,
        first_skipped=tuple(tally.first_problems),
        replaced=replaced,
    )


def _refuse_a_bad_file(tally: Tally, written: int) -> None:
    examples = tally.examples()
    if too_many_problems(tally):
        raise ListError(
            f"{tally.problems:,} of {tally.lines:,} lines could not be read ({examples}): "
            "is this the right file, and the right column mapping?"
        )
    if written == 0:
        raise ListError(
            f"no player could be read from the file{': ' + examples if examples else ''}"
        )


def _row(list_id: int, player: ListedPlayer) -> tuple[Any, ...]:
    return (
        list_id,
        player.fide_id,
        player.national_id,
        player.name,
        name_key(player.name),
        player.federation,
        player.sex,
        player.title,
        player.birth_year,
        player.standard,
        player.rapid,
        player.blitz,
        player.inactive,
        player.standard_k,
        player.rapid_k,
        player.blitz_k,
    )


def _entries_write(list_id: int, players: Iterable[ListedPlayer]) -> int:
    if connection.vendor == "postgresql":
        return _entries_copy(list_id, players)
    written = 0
    source = iter(players)
    while batch := list(islice(source, BATCH)):
        RatingEntry.objects.bulk_create(
            RatingEntry(**dict(zip(COLUMNS, _row(list_id, player), strict=True)))
            for player in batch
        )
        written += len(batch)
    return written


def _entries_copy(list_id: int, players: Iterable[ListedPlayer]) -> int:
    """PostgreSQL's COPY, row by row as the file is read (psycopg 3 sends it in chunks)."""
    table = RatingEntry._meta.db_table
    written = 0
    with (
        connection.cursor() as cursor,
        cursor.copy(f"COPY {table} ({', '.join(COLUMNS)}) FROM STDIN") as copy,
    ):
        for player in players:
            copy.write_row(_row(list_id, player))
            written += 1
    return written


def _search_indexes_ready() -> None:
    """PostgreSQL's planner picks the search's indexes from the table's statistics: after a
    million new rows, refresh them now rather than when autovacuum gets round to the table; and
    move the rows waiting in the trigram index's pending list into the index proper, which
    every search would otherwise read through (where the server has pg_trgm: see the migration)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(f"ANALYZE {RatingEntry._meta.db_table}")
            cursor.execute(
                "SELECT gin_clean_pending_list(index.oid::regclass) FROM pg_class AS index"
                " WHERE index.oid = to_regclass('rating_entry_name_trigram')"
            )


@transaction.atomic
def rating_list_delete(*, rating_list: RatingList, user: UserLike) -> None:
    # One DELETE for the players (Django's fast delete: nothing refers to them).
    RatingEntry.objects.filter(rating_list=rating_list).delete()
    rating_list.delete()


@dataclass(frozen=True)
class PlayersRefreshed:
    """What a refresh from a list did: the list, and the players and fields it changed."""

    list_name: str
    players: int
    changes: int

    def summary(self) -> str:
        if not self.players:
            return f"Nothing to update from {self.list_name}: every player is as it lists them."
        return (
            f"Updated {self.players:,} player(s) from {self.list_name}: "
            f"{self.changes:,} field(s) changed."
        )


@transaction.atomic
def players_rating_refresh(
    *, event: Event, list_id: int | None, digest: str | None, user: UserLike
) -> PlayersRefreshed:
    """Change the registered players' rating, title, K, federation, year of birth and sex to
    what the list gives (ratings/refresh.py), exactly as the preview with ``digest`` showed:
    refused in one line when anything the preview rests on changed since, or once round 1 is
    paired. One audit entry with every changed field before and after."""
    event = event_require_open(event)
    # The players are locked before the preview is worked out again, so that an edit saved
    # meanwhile either comes first (and the digest no longer matches) or waits for this one.
    players = Player.objects.select_for_update().filter(event=event)
    by_start_no = {player.start_no: player for player in players}
    preview = rating_refresh_preview(event, list_id=list_id)
    if digest != preview.digest:
        raise UserError(
            "The players or the list changed since the preview; nothing was changed: preview again."
        )
    for row in preview.rows:
        player = by_start_no[row.start_no]
        for change in row.changes:
            setattr(player, change.field, change.after)
        player.version += 1
    _players_write([by_start_no[row.start_no] for row in preview.rows])
    done = PlayersRefreshed(str(preview.rating_list), len(preview.rows), preview.changes)
    if preview.rows:
        event_changed(
            event=event,
            user=user,
            action="player.rating_refresh",
            summary=done.summary(),
            before=_audited(preview, "before"),
            after=_audited(preview, "after"),
        )
    return done


def _players_write(players: Iterable[Player]) -> None:
    """One UPDATE a player, sent as one batch (psycopg's pipeline on PostgreSQL): for 5,000
    players about a second, where ``bulk_update``'s CASE per field took nine."""
    meta = Player._meta
    quote = connection.ops.quote_name
    names = [name for name, _ in FIELDS] + ["version"]
    assignments = ", ".join(f"{quote(meta.get_field(name).column)} = %s" for name in names)
    sql = f"UPDATE {quote(meta.db_table)} SET {assignments} WHERE {quote(meta.pk.column)} = %s"
    with connection.cursor() as cursor:
        cursor.executemany(sql, [[getattr(p, name) for name in names] + [p.pk] for p in players])


def _audited(preview: RefreshPreview, side: str) -> dict[str, Any]:
    return {
        "rating_list": str(preview.rating_list),
        "players": [
            {"start_no": row.start_no, **{c.field: getattr(c, side) for c in row.changes}}
            for row in preview.rows
        ],
    }
