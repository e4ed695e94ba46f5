"""Writes (HackSoft style: ``noun_verb``, keyword-only, one transaction, one audit entry).

Every service bumps the event's results version so cached public pages refresh, and records
who did what with the values before and after. A :class:`~events.errors.UserError` leaves the
database unchanged because the transaction rolls back.
"""

from __future__ import annotations

import contextlib
import csv
import datetime as dt
import io
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.cache import cache
from django.db import DataError, IntegrityError, connection, transaction
from django.db.models import F, Q
from django.utils.text import slugify

from events.contributions import close_refusal, result_changed, start_numbers_fixed
from events.currencies import currency_for
from events.duplicates import Entry, duplicates_find
from events.errors import (
    DuplicatesToConfirm,
    EventClosed,
    LinesRefused,
    PlayerConflict,
    RegulationLocked,
    ResultConflict,
    UserError,
)
from events.formats import undo_handler
from events.limits import (
    MAX_DEPUTY_ARBITERS,
    currency_check,
    event_size_check,
    federation_check,
    k_listed_check,
    rating_check,
    start_no_check,
    text_check,
    three_letter_code,
)
from events.models import (
    AuditEntry,
    Bye,
    ByeKind,
    Event,
    EventAccess,
    EventStatus,
    Game,
    Player,
    RegulationSet,
    Result,
    Role,
    Round,
    RoundSlot,
)
from events.regulations import validate_overrides
from events.selectors import version_cache_key

UserLike = AbstractBaseUser | AnonymousUser | None


def _actor(user: UserLike) -> Any:
    return user if user is not None and user.is_authenticated else None


def audit_record(
    *,
    event: Event,
    user: UserLike,
    action: str,
    summary: str,
    game: Game | None = None,
    before: Any = None,
    after: Any = None,
) -> AuditEntry:
    return AuditEntry.objects.create(
        event=event,
        user=_actor(user),
        action=action,
        summary=summary[:300],
        game=game,
        before=before,
        after=after,
    )


def event_changed(
    *,
    event: Event,
    user: UserLike,
    action: str,
    summary: str,
    game: Game | None = None,
    before: Any = None,
    after: Any = None,
) -> AuditEntry:
    """The ending of every write: move the results version (cached pages follow it) and record
    who did what, with the values before and after."""
    event_version_bump(event=event)
    return audit_record(
        event=event,
        user=user,
        action=action,
        summary=summary,
        game=game,
        before=before,
        after=after,
    )


class refuse_unstorable_values(contextlib.ContextDecorator):  # a decorator: named like one
    """A value the database cannot store (text too long, a number out of range, a value a
    constraint forbids) refuses the write with the reason, as ``error``, instead of failing with
    a server error. The importers' backstop behind their own validation; put it inside
    ``transaction.atomic`` so that the refusal rolls everything back."""

    def __init__(self, error: type[UserError]) -> None:
        self.error = error

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: Any, exc: BaseException | None, traceback: Any) -> None:
        if isinstance(exc, DataError | IntegrityError):
            reason = str(exc).splitlines()[0] if str(exc) else "out of range"
            raise self.error(f"a value does not fit: {reason}") from exc


def check_length(model: type[Any], field: str, value: str, where: str) -> None:
    limit = model._meta.get_field(field).max_length
    if limit is not None and len(value) > limit:
        raise UserError(f"{where}: {len(value)} characters is too long (at most {limit})")


def event_version_bump(*, event: Event) -> None:
    """Every write moves the results version; cached pages and ETags follow it.

    The cached version is dropped now and again once the transaction commits, so no reader
    keeps the old one for longer than ``events.selectors.VERSION_SECONDS``.
    """
    Event.objects.filter(pk=event.pk).update(results_version=F("results_version") + 1)
    key = version_cache_key(event.slug)
    cache.delete(key)
    transaction.on_commit(lambda: cache.delete(key))


def event_require_open(event: Event) -> Event:
    """The one guard of every write to an event's data (issue 19: a closed event is closed).

    Every write service of every app and format calls it first, before it reads or locks
    anything else (so that locks are always taken event first: no deadlock with a closing).
    It locks the event row for the transaction, so a closing waits for the writes in flight
    and a write that waited for a closing sees it; a closed ("Final") event refuses with
    :class:`EventClosed`, whose message says how to reopen it.

    Writes that stay allowed on a closed event, and why (docs/reliability.md): reopening it
    (:func:`event_reopen`, the director only, audited); who has which role
    (:func:`access_grant`: who manages the event, not its results); dismissing the notes of
    a TRF import (``events.imports.import_notes_dismiss``: audited, no result changes); the
    prizes (fund, categories, settings and the approval of the sheet: what an organiser does
    once the standings are final; any change moves the results version, so an approved sheet shows
    as outdated); tour series (built from finished events). ``tests/test_closed_event.py``
    calls every other write service on a closed event (found by walking the apps, so a new
    one that forgets this is caught), ``tests/test_closed_event_urls.py`` every write URL.
    """
    locked = Event.objects.select_for_update().get(pk=event.pk)
    if locked.status == EventStatus.FINISHED:
        raise EventClosed
    return locked


def unique_slug(name: str) -> str:
    base = slugify(name)[:80] or "event"
    slug, n = base, 2
    while Event.objects.filter(slug=slug).exists():
        slug, n = f"{base}-{n}", n + 1
    return slug


@dataclass(frozen=True)
class TournamentRecords:
    """The tournament records of FIDE's rating report (TRF16 032-132), beside the name, the
    city (``site``) and the start date: every one optional, every one bounded."""

    federation: str = ""
    end_date: dt.date | None = None
    tournament_type: str = ""
    chief_arbiter: str = ""
    deputy_arbiters: tuple[str, ...] = ()
    rate_of_play: str = ""
    round_dates: tuple[dt.date | None, ...] = ()


@dataclass(frozen=True)
class EventFields:
    name: str
    system: str
    time_control: str
    rounds: int
    start_date: dt.date | None = None
    preset: str = "fide-2024"
    overrides: dict[str, Any] | None = None
    currency: str | None = None  # None: the host federation's (events.currencies)
    site: str = ""
    lots_seed: str = ""
    records: TournamentRecords = TournamentRecords()


RECORD_TEXTS = ("tournament_type", "chief_arbiter", "rate_of_play")
DEPUTY_LENGTH = 200


def records_checked(records: TournamentRecords, fields: EventFields) -> TournamentRecords:
    """The limits of :class:`TournamentRecords`, the same for the form, the importers and the
    commands; a refusal names the value at fault."""
    for name in RECORD_TEXTS:
        where = f"the event's {name.replace('_', ' ')}"
        check_length(Event, name, getattr(records, name), where)
        text_check(getattr(records, name), where)
    if len(records.deputy_arbiters) > MAX_DEPUTY_ARBITERS:
        raise UserError(f"at most {MAX_DEPUTY_ARBITERS} deputy arbiters")
    for number, deputy in enumerate(records.deputy_arbiters, start=1):
        if not deputy.strip() or len(deputy) > DEPUTY_LENGTH:
            raise UserError(f"deputy arbiter {number}: a name of 1 to {DEPUTY_LENGTH} characters")
        text_check(deputy, f"deputy arbiter {number}")
    if len(records.round_dates) > fields.rounds:
        raise UserError(
            f"{len(records.round_dates)} round dates for {fields.rounds} rounds: at most one "
            "a round"
        )
    start, end = fields.start_date, records.end_date
    if start is not None and end is not None and end < start:
        raise UserError(f"the end date {end} is before the start date {start}")
    federation = federation_check(records.federation, "the event") if records.federation else ""
    return replace(records, federation=federation)


@transaction.atomic
def event_create(*, fields: EventFields, director: UserLike, slug: str = "") -> Event:
    """Create an event with its regulation set; the creator becomes its director."""
    slug = slugify(slug) if slug else unique_slug(fields.name)
    if Event.objects.filter(slug=slug).exists():
        raise UserError(f"an event with the slug {slug!r} already exists")
    fields = _event_fields_checked(fields, players=0)
    round_robin = fields.system in ("round_robin", "double_round_robin")
    overrides = validate_overrides(fields.preset, fields.overrides or {}, round_robin=round_robin)
    event = Event.objects.create(
        name=fields.name,
        slug=slug,
        system=fields.system,
        time_control=fields.time_control,
        start_date=fields.start_date,
        rounds=fields.rounds,
        currency=fields.currency,
        site=fields.site,
        lots_seed=fields.lots_seed or secrets.token_hex(16),
        **records_values(fields.records),
    )
    RegulationSet.objects.create(event=event, preset=fields.preset, overrides=overrides)
    if _actor(director) is not None:
        EventAccess.objects.create(event=event, user=director, role=Role.DIRECTOR)
    audit_record(event=event, user=director, action="event.create", summary=f"Created {event.name}")
    return event


def _event_fields_checked(fields: EventFields, *, players: int) -> EventFields:
    """The limits the form, the importers and the commands all hold an event to
    (:mod:`events.limits`), so that each accepts what the others accept."""
    for name in ("name", "site", "lots_seed"):
        check_length(Event, name, getattr(fields, name), f"the event's {name}")
        text_check(getattr(fields, name), f"the event's {name.replace('_', ' ')}")
    event_size_check(players=players, rounds=fields.rounds)
    records = records_checked(fields.records, fields)
    currency = currency_for(records.federation) if fields.currency is None else fields.currency
    return replace(fields, currency=currency_check(currency), records=records)


def records_values(records: TournamentRecords) -> dict[str, Any]:
    """The records as the event's model fields."""
    return {
        "federation": records.federation,
        "end_date": records.end_date,
        "tournament_type": records.tournament_type,
        "chief_arbiter": records.chief_arbiter,
        "deputy_arbiters": list(records.deputy_arbiters),
        "rate_of_play": records.rate_of_play,
        "round_dates": [d.isoformat() if d else None for d in records.round_dates],
    }


def records_of(event: Event) -> TournamentRecords:
    """The event's tournament records (the inverse of :func:`records_values`)."""
    return TournamentRecords(
        federation=event.federation,
        end_date=event.end_date,
        tournament_type=event.tournament_type,
        chief_arbiter=event.chief_arbiter,
        deputy_arbiters=tuple(event.deputy_arbiters or ()),
        rate_of_play=event.rate_of_play,
        round_dates=tuple(dt.date.fromisoformat(d) if d else None for d in event.round_dates or ()),
    )


def regulation_is_locked(event: Event) -> bool:
    """Locked once round 1 has a result (design brief §3)."""
    return Game.objects.filter(round__event=event, round__number=1).exclude(result="").exists()


@transaction.atomic
def event_update(
    *, event: Event, fields: EventFields, user: UserLike, confirm_regulation: bool = False
) -> Event:
    event = event_require_open(event)
    fields = _event_fields_checked(fields, players=Player.objects.filter(event=event).count())
    regulation = event.regulation
    round_robin = fields.system in ("round_robin", "double_round_robin")
    overrides = validate_overrides(fields.preset, fields.overrides or {}, round_robin=round_robin)
    before = _event_snapshot(event)
    regulation_changed = (regulation.preset, regulation.overrides) != (fields.preset, overrides)
    if regulation_changed and regulation_is_locked(event) and not confirm_regulation:
        raise RegulationLocked(
            "Round 1 has results, so the regulation set is locked. Tick the confirmation to "
            "change it; the change will be recorded in the audit log."
        )
    for name in ("name", "system", "time_control", "rounds", "start_date", "currency", "site"):
        setattr(event, name, getattr(fields, name))
    for name, value in records_values(fields.records).items():
        setattr(event, name, value)
    event.save()
    regulation.preset, regulation.overrides = fields.preset, overrides
    regulation.save()
    event_changed(
        event=event,
        user=user,
        action="regulation.change" if regulation_changed else "event.update",
        summary=f"Edited event settings{' and regulation set' if regulation_changed else ''}",
        before=before,
        after=_event_snapshot(event),
    )
    return event


@transaction.atomic
def event_close(*, event: Event, user: UserLike) -> Event:
    """The director closes the event: its standings are final (the pages say so and stop
    refreshing). Refused while a round still has a game without a result, and while an app
    says the event is not finished (a playoff for first still running: issue 20)."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    if event.status == EventStatus.FINISHED:
        raise UserError("the event is already closed")
    pending = (
        Game.objects.filter(round__event=event, result="")
        .order_by("round__number", "board")
        .values_list("round__number", "board")
        .first()
    )
    if pending is not None:
        raise UserError(
            f"round {pending[0]} board {pending[1]} has no result yet: enter every result "
            "before closing the event"
        )
    refusal = close_refusal(event)
    if refusal:
        raise UserError(refusal)
    before = event.status
    event.status = EventStatus.FINISHED
    event.save(update_fields=["status"])
    event_changed(
        event=event,
        user=user,
        action="event.close",
        summary=f"Closed {event.name}: the standings are final",
        before={"status": before},
        after={"status": event.status},
    )
    return event


@transaction.atomic
def event_reopen(*, event: Event, user: UserLike) -> Event:
    """Undo a closing (a late correction): the standings are live again."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    if event.status != EventStatus.FINISHED:
        raise UserError("the event is not closed")
    event.status = EventStatus.RUNNING
    event.save(update_fields=["status"])
    event_changed(
        event=event,
        user=user,
        action="event.reopen",
        summary=f"Reopened {event.name}: the standings are live again",
        before={"status": EventStatus.FINISHED},
        after={"status": event.status},
    )
    return event


def _event_snapshot(event: Event) -> dict[str, Any]:
    return {
        "name": event.name,
        "system": event.system,
        "time_control": event.time_control,
        "rounds": event.rounds,
        "start_date": event.start_date.isoformat() if event.start_date else None,
        "preset": event.regulation.preset,
        "overrides": event.regulation.overrides,
        "site": event.site,
        **{
            name: value.isoformat() if isinstance(value, dt.date) else value
            for name, value in records_values(records_of(event)).items()
        },
    }


@dataclass(frozen=True)
class PlayerFields:
    name: str
    federation: str = ""
    fide_id: str = ""
    rating: int = 0
    title: str = ""
    sex: str = ""
    birth_date: dt.date | None = None
    previous_rank: int | None = None
    start_no: int | None = None
    birth_year: int | None = None  # when only the year is known (a rating list's)
    where: str = ""  # how a message names the entry: "line 3" of a pasted list
    file_rank: int | None = None  # an imported TRF's rank column (issue 28)
    k_listed: int | None = None  # the rating list's K (B.02 8.3.3), when registered from it


def _birth_year(fields: PlayerFields, start_no: int) -> int | None:
    """The year of birth: the date's when there is one (which a year given too must match)."""
    if fields.birth_date is None:
        return fields.birth_year
    if fields.birth_year not in (None, fields.birth_date.year):
        raise UserError(
            f"player {start_no}: born {fields.birth_date.isoformat()} but the year of birth "
            f"says {fields.birth_year}"
        )
    return fields.birth_date.year


def _players_create(
    event: Event,
    players: Sequence[PlayerFields],
    *,
    confirm_duplicates: bool = False,
    append: bool = False,
) -> list[Player]:
    """Check every player, then write them all in one statement (a 3,000-player import).

    ``append``: into a list that already has players, the batch is numbered after the last
    one, whatever start numbers it brings (a TRF's); into an empty list it keeps them. A
    duplicate FIDE id is refused, a probable duplicate by name and birth data needs
    ``confirm_duplicates`` (:mod:`events.duplicates`); nothing is written otherwise."""
    registered = list(Player.objects.filter(event=event))
    taken = {player.start_no for player in registered}
    event_size_check(players=len(taken) + len(players), rounds=event.rounds)
    renumber = append and bool(taken)
    following = max(taken, default=0) + 1
    rows, entries = [], []
    for fields in players:
        start_no = following if fields.start_no is None or renumber else fields.start_no
        if start_no in taken:
            raise UserError(f"start number {start_no} is already taken")
        taken.add(start_no)
        following = max(following, start_no + 1)
        row = _player_row(event, start_no, fields)
        rows.append(row)
        entries.append(_entry(row, fields.where))
    duplicates_check(registered, entries, confirm=confirm_duplicates)
    return Player.objects.bulk_create(rows)


def _entry(player: Player, where: str = "", key: object = None) -> Entry:
    return Entry(
        where=where or f"{player.start_no}. {player.name}",
        name=player.name,
        fide_id=player.fide_id,
        birth_date=player.birth_date,
        birth_year=player.birth_year,
        key=key,
    )


MAX_LISTED = 10  # problems named in one refusal; the rest are counted


def duplicates_check(
    registered: Sequence[Player], entries: Sequence[Entry], *, confirm: bool
) -> None:
    """Refuse duplicate FIDE ids, and probable duplicates by name unless ``confirm``, naming
    every one (up to :data:`MAX_LISTED`): a pasted list is refused as a whole, with its lines."""
    findings = duplicates_find([_entry(p, key=p.pk) for p in registered], entries)
    if findings.refusals:
        listed = "; ".join(findings.refusals[:MAX_LISTED])
        more = len(findings.refusals) - MAX_LISTED
        raise UserError(
            f"a FIDE id is registered once per event: {listed}"
            + (f"; and {more} more" if more > 0 else "")
        )
    if findings.warnings and not confirm:
        raise DuplicatesToConfirm(findings.warnings[:MAX_LISTED])


SEXES = ("", "m", "w")  # the database's player_sex_valid


def _player_row(event: Event, start_no: int, fields: PlayerFields) -> Player:
    """An unsaved player, every field checked: refused, never cut to fit (``NORWAY``)."""
    where = f"player {start_no}"
    start_no_check(start_no, where)
    if not fields.name.strip():
        raise UserError("a player needs a name")
    for field, label in (("name", "name"), ("fide_id", "FIDE id"), ("title", "title")):
        check_length(Player, field, getattr(fields, field).strip(), f"{where}'s {label}")
        # Where the text came from: "line 3" of a pasted list, "the file's player 7".
        text_check(getattr(fields, field), f"{fields.where or where}, {label}")
    if fields.sex not in SEXES:
        raise UserError(f"{fields.where or where}: sex {fields.sex[:3]!r} must be m or w")
    return Player(
        event=event,
        start_no=start_no,
        name=fields.name.strip(),
        federation=federation_check(fields.federation, where),
        fide_id=fields.fide_id.strip(),
        rating=rating_check(fields.rating, where),
        title=fields.title.strip(),
        sex=fields.sex,
        birth_date=fields.birth_date,
        birth_year=_birth_year(fields, start_no),
        previous_rank=fields.previous_rank,
        file_rank=fields.file_rank,
        k_listed=k_listed_check(fields.k_listed, where),
    )


@transaction.atomic
def player_register(
    *, event: Event, fields: PlayerFields, user: UserLike, confirm_duplicates: bool = False
) -> Player:
    event_require_open(event)
    (player,) = _players_create(event, [fields], confirm_duplicates=confirm_duplicates)
    event_changed(
        event=event,
        user=user,
        action="player.register",
        summary=f"Registered {player.start_no}. {player.name}",
        after={"start_no": player.start_no, "name": player.name},
    )
    return player


CSV_COLUMNS = ("name", "federation", "rating", "fide_id", "title", "sex", "birth_date")


MAX_LINES_NAMED = 50  # a refused list names at most this many bad lines, then counts the rest


def paste_delimiter(lines: Sequence[str]) -> str:
    """The separator a pasted list uses, as spreadsheets paste: tabs (a copied range), else
    ``;`` (a continental CSV), else ``,``. One separator for the whole list."""
    for delimiter in ("\t", ";"):
        if any(delimiter in line for line in lines):
            return delimiter
    return ","


def _names_only(rows: Sequence[Sequence[str]]) -> bool:
    """A one-column list of ``Surname, First`` names pasted without quotes: every line has at
    most one comma, and no second part is a federation (``NOR``) or a number."""
    seconds = [row[1].strip() for row in rows if len(row) == 2]
    return (
        all(len(row) <= 2 for row in rows)
        and bool(seconds)
        and not any(three_letter_code(part) == part or part.isdigit() for part in seconds)
    )


def _paste_rows(text: str) -> list[tuple[int, list[str]]]:
    text = text.strip("\n")
    delimiter = paste_delimiter(text.splitlines())
    # Read from the text itself: a quoted cell keeps a line break, which is then refused.
    rows = list(enumerate(csv.reader(io.StringIO(text), delimiter=delimiter), start=1))
    filled = [(n, row) for n, row in rows if any(cell.strip() for cell in row)]
    if delimiter == "," and _names_only([row for _, row in filled]):
        return [(n, [", ".join(cell.strip() for cell in row)]) for n, row in filled]
    return filled


def _paste_header(rows: list[tuple[int, list[str]]]) -> tuple[list[str], list[str]]:
    """The columns (a first line naming them, or the usual order) and the header's problems."""
    if rows and rows[0][1] and rows[0][1][0].strip().lower() == "name":
        header = [cell.strip().lower() for cell in rows.pop(0)[1]]
        unknown = sorted(set(header) - set(CSV_COLUMNS))
        return header, [f"line 1: unknown column {name!r}" for name in unknown]
    return list(CSV_COLUMNS), []


def parse_player_csv(text: str) -> list[PlayerFields]:
    """Parse a pasted list: one player a line, ``name[,federation,rating,fide_id,title,sex,
    birth_date]``, separated by tabs, ``;`` or ``,`` (:func:`paste_delimiter`); a one-column
    list of ``Surname, First`` names needs no quotes. A header line naming the columns is
    allowed. Every bad line is named at once (:class:`LinesRefused`), and nothing is read
    unless every line is right."""
    rows = _paste_rows(text)
    header, problems = _paste_header(rows)
    players = []
    for line_no, row in rows:
        if len(row) > len(header):
            problems.append(f"line {line_no}: {len(row)} columns, expected at most {len(header)}")
            continue
        record = dict(zip(header, (cell.strip() for cell in row), strict=False))
        try:
            players.append(_player_fields_from_row(record, line_no))
        except UserError as exc:
            problems.append(str(exc))
    if problems:
        named = problems[:MAX_LINES_NAMED]
        if len(problems) > len(named):
            named.append(f"and {len(problems) - len(named)} more")
        count = f"{len(problems)} line{'s' if len(problems) > 1 else ''}"
        raise LinesRefused(f"Nothing was registered: {count} to correct. {named[0]}", named)
    if not players:
        raise UserError("the list is empty")
    return players


def _player_fields_from_row(record: dict[str, str], line_no: int) -> PlayerFields:
    try:
        rating = int(record.get("rating") or 0)
    except ValueError as exc:
        raise UserError(f"line {line_no}: rating {record['rating']!r} is not a number") from exc
    birth = record.get("birth_date") or ""
    try:
        birth_date = dt.date.fromisoformat(birth) if birth else None
    except ValueError as exc:
        raise UserError(f"line {line_no}: birth date {birth!r} is not YYYY-MM-DD") from exc
    sex = (record.get("sex") or "").lower()
    if sex not in ("", "m", "w", "f"):
        raise UserError(f"line {line_no}: sex {sex!r} must be m or w")
    if not record.get("name"):
        raise UserError(f"line {line_no}: the name is missing")
    federation = record.get("federation", "")
    code = three_letter_code(federation)
    if code is None:
        raise UserError(
            f"line {line_no}: federation {federation!r} is not a three-letter code (a name "
            "with a comma among other columns goes in double quotes, or paste from a "
            "spreadsheet)"
        )
    return PlayerFields(
        where=f"line {line_no}",
        name=record["name"],
        federation=code,
        rating=rating,
        fide_id=record.get("fide_id", ""),
        title=record.get("title", ""),
        sex="w" if sex == "f" else sex,
        birth_date=birth_date,
    )


@transaction.atomic
def players_register_many(
    *,
    event: Event,
    players: Sequence[PlayerFields],
    user: UserLike,
    confirm_duplicates: bool = False,
    append: bool = False,
) -> list[Player]:
    """Register a batch (a pasted list, a file's players, an import): all or none. Into a
    list with players already, ``append`` numbers the batch after the last one."""
    event_require_open(event)
    created = _players_create(event, players, confirm_duplicates=confirm_duplicates, append=append)
    event_changed(
        event=event,
        user=user,
        action="player.register",
        summary=(
            f"Registered {created[0].start_no}. {created[0].name}"
            if len(created) == 1
            else f"Registered {len(created)} players"
        ),
        after=[{"start_no": p.start_no, "name": p.name} for p in created],
    )
    return created


PLAYER_FIELDS = (
    "start_no",
    "name",
    "title",
    "federation",
    "fide_id",
    "rating",
    "birth_date",
    "birth_year",
    "sex",
    "previous_rank",
    "k_listed",
)


def player_snapshot(player: Player) -> dict[str, Any]:
    """The player's fields as the audit log keeps them (JSON: dates as text)."""
    snapshot = {name: getattr(player, name) for name in PLAYER_FIELDS}
    if player.birth_date is not None:
        snapshot["birth_date"] = player.birth_date.isoformat()
    return snapshot


def _player_locked(event: Event, start_no: int, expected_version: int | None) -> Player:
    """The player, locked, as the form saw them; else :class:`PlayerConflict`."""
    player = Player.objects.select_for_update().filter(event=event, start_no=start_no).first()
    if player is None:
        raise PlayerConflict(
            f"there is no player with start number {start_no} any more: someone else changed "
            "the list while you were editing; nothing was changed"
        )
    if expected_version is not None and expected_version != player.version:
        raise PlayerConflict(
            f"Someone else changed {player} while you were editing it; nothing was changed. "
            "The form now shows the player as they are: make your change again."
        )
    return player


def _start_no_change_check(event: Event, player: Player, start_no: int) -> None:
    """A start number names the player in the pairings, the TRF and the exports: it may change
    until round 1 is paired (or a format's own record names the players by it), and stays
    unique (database constraint ``player_start_no_unique``)."""
    start_no_check(start_no, f"player {player.start_no}")
    if Round.objects.filter(event=event).exists():
        raise UserError(
            f"start numbers are fixed once round 1 is paired (the pairings, results and "
            f"exports name players by them): {player} keeps number {player.start_no}"
        )
    reason = start_numbers_fixed(event)
    if reason:
        raise UserError(f"start numbers are fixed: {reason}; {player} keeps {player.start_no}")
    holder = Player.objects.filter(event=event, start_no=start_no).first()
    if holder is not None:
        raise UserError(
            f"start number {start_no} is already taken by {holder}: give that player another "
            "number first"
        )


@transaction.atomic
def player_update(
    *,
    event: Event,
    start_no: int,
    fields: PlayerFields,
    expected_version: int | None,
    user: UserLike,
    confirm_duplicates: bool = False,
) -> Player:
    """Correct any of a player's fields, at any time while the event is open (issue 20).

    ``fields.start_no`` (None: unchanged) may move the player to a free start number until
    round 1 is paired. Rating, title and name decide the initial order, so a correction moves
    the pairing numbers while they are provisional (C.04.2, Initial order: "the pairing numbers
    may be reassigned accordingly to the corrections"); once the list of participants is closed,
    or round 4 has been paired, they stay ("no modification of a pairing number is allowed
    after the fourth round has been paired": ``draws.swiss.selectors.pairing_numbers``).
    ``expected_version`` is the player's version the form showed: a stale form is refused as a
    :class:`PlayerConflict`. The duplicate rules apply as on registration. Audited with the
    fields before and after.
    """
    event_require_open(event)
    player = _player_locked(event, start_no, expected_version)
    before = player_snapshot(player)
    target = player.start_no if fields.start_no is None else fields.start_no
    if target != player.start_no:
        _start_no_change_check(event, player, target)
    checked = _player_row(event, target, fields)
    others = list(Player.objects.filter(event=event).exclude(pk=player.pk))
    duplicates_check(others, [_entry(checked, key=player.pk)], confirm=confirm_duplicates)
    for name in PLAYER_FIELDS:
        setattr(player, name, getattr(checked, name))
    after = player_snapshot(player)
    changed = [name for name in PLAYER_FIELDS if before[name] != after[name]]
    if not changed:
        return player
    player.version += 1
    player.save()
    described = ", ".join(f"{name} {before[name]!r} → {after[name]!r}" for name in changed)
    event_changed(
        event=event,
        user=user,
        action="player.update",
        summary=f"Edited {before['start_no']}. {before['name']}: {described}",
        before={name: before[name] for name in changed},
        after={name: after[name] for name in changed},
    )
    return player


# What may go with a deleted player: their zero- and half-point byes (a late entry's missed
# rounds, a requested bye) with the slots they hold, and the Swiss requests and forbidden pairs
# that name them. Anything else that names the player (a game, a bye that scored a win, a seat
# at a multi-player table, a drawing of lots) means they took part: withdraw them instead.
DELETED_WITH_PLAYER = {"events.bye", "events.roundslot", "draws.byerequest", "draws.forbiddenpair"}
UNPLAYED_BYES = ("zero", "half")
TAKING_PART = {
    "draws.drawentry": "the drawing of lots",
    "mso.multigamescore": "a multi-player table",
}


def player_took_part(player: Player) -> str | None:
    """Why the player can no longer be deleted (they have a game, a bye that scored a win, or
    another record of taking part), or None."""
    game = (
        Game.objects.filter(Q(white=player) | Q(black=player))
        .order_by("round__number")
        .values_list("round__number", flat=True)
        .first()
    )
    if game is not None:
        return f"{player} has a game in round {game}"
    bye = (
        Bye.objects.filter(player=player)
        .exclude(kind__in=UNPLAYED_BYES)
        .values_list("round__number", flat=True)
        .first()
    )
    if bye is not None:
        return f"{player} has a bye that scored a win in round {bye}"
    # Every table that points at players, those whose related_name is "+" included (a seat
    # at a multi-player table, a drawing of lots): the apps above are not imported here.
    for relation in Player._meta.get_fields(include_hidden=True):
        if not (relation.auto_created and not relation.concrete):
            continue
        model = relation.related_model
        if model._meta.label_lower in DELETED_WITH_PLAYER:
            continue
        if model._default_manager.filter(**{relation.field.name: player}).exists():
            what = TAKING_PART.get(model._meta.label_lower, str(model._meta.verbose_name_plural))
            return f"{player} is in {what}"
    return None


@transaction.atomic
def player_delete(
    *, event: Event, start_no: int, expected_version: int | None, user: UserLike
) -> None:
    """Delete a player registered by mistake or who never came (issue 20): allowed until they
    have a game; after that they withdraw (``draws.swiss.services.withdrawal_record``) and their
    games keep counting. Their zero- and half-point byes (a late entry's missed rounds), bye
    requests and forbidden pairs go with them, so they leave no trace in the standings, the
    wall chart or the TRF. The audit entry keeps the player's fields and byes."""
    event_require_open(event)
    player = _player_locked(event, start_no, expected_version)
    reason = player_took_part(player)
    if reason:
        raise UserError(
            f"{reason}, so they stay in the event: withdraw them on the Swiss page instead "
            "(they are not paired again and their games keep counting)"
        )
    before = player_snapshot(player)
    before["byes"] = [
        {"round": number, "kind": kind}
        for number, kind in Bye.objects.filter(player=player)
        .order_by("round__number")
        .values_list("round__number", "kind")
    ]
    player.delete()
    event_changed(
        event=event,
        user=user,
        action="player.delete",
        summary=f"Deleted {before['start_no']}. {before['name']}",
        before=before,
    )


def player_never_played(player: Player) -> bool:
    """No game and no bye that scored anything: a withdrawal would leave a phantom."""
    played = Game.objects.filter(Q(white=player) | Q(black=player)).exists()
    return not played and not Bye.objects.filter(player=player).exclude(kind="zero").exists()


@dataclass(frozen=True)
class PairingInput:
    board: int
    white: int  # start numbers
    black: int
    result: str = ""
    time_control: str = ""
    colourless: bool = False  # a forfeit given without colours (events.models.Game)


@dataclass(frozen=True)
class ByeInput:
    start_no: int
    kind: str


def _players_by_start_no(event: Event) -> dict[int, Player]:
    return {p.start_no: p for p in Player.objects.filter(event=event)}


def _check_round_input(
    round_no: int,
    pairings: Sequence[PairingInput],
    byes: Sequence[ByeInput],
    players: Mapping[int, object],
) -> None:
    seen: dict[int, str] = {}
    boards: set[int] = set()
    for pairing in pairings:
        where = f"round {round_no}, board {pairing.board}"
        if pairing.board in boards:
            raise UserError(f"{where}: the board is used twice")
        boards.add(pairing.board)
        if pairing.white == pairing.black:
            raise UserError(f"{where}: player {pairing.white} cannot play themself")
        if pairing.result and pairing.result not in Result.values:
            raise UserError(f"{where}: unknown result {pairing.result!r}")
        for start_no in (pairing.white, pairing.black):
            _claim(seen, start_no, where, players)
    for bye in byes:
        if bye.kind not in ByeKind.values:
            raise UserError(f"round {round_no}: unknown bye kind {bye.kind!r}")
        _claim(seen, bye.start_no, f"round {round_no}, bye", players)


def _claim(seen: dict[int, str], start_no: int, where: str, players: Mapping[int, object]) -> None:
    if start_no not in players:
        raise UserError(f"{where}: there is no player with start number {start_no}")
    if start_no in seen:
        raise UserError(f"{where}: player {start_no} is already in this round ({seen[start_no]})")
    seen[start_no] = where


@transaction.atomic
def round_pairings_set(
    *,
    event: Event,
    round_no: int,
    pairings: Sequence[PairingInput],
    byes: Sequence[ByeInput] = (),
    user: UserLike,
    audit: bool = True,
) -> Round:
    """Create (or replace, while no result is in) the pairings and byes of a round."""
    event_require_open(event)
    if not 1 <= round_no <= event.rounds:
        raise UserError(f"round {round_no} is outside 1–{event.rounds}")
    players = _players_by_start_no(event)
    _check_round_input(round_no, pairings, byes, players)
    rnd, _ = Round.objects.get_or_create(event=event, number=round_no)
    existing = Game.objects.select_for_update().filter(round=rnd)
    if any(g.result for g in existing):
        raise UserError(
            f"round {round_no} already has results; correct single results instead of "
            "re-pairing the round"
        )
    RoundSlot.objects.filter(round=rnd).delete()
    existing.delete()
    Bye.objects.filter(round=rnd).delete()
    games = Game.objects.bulk_create(
        Game(
            round=rnd,
            board=pairing.board,
            white=players[pairing.white],
            black=players[pairing.black],
            result=pairing.result,
            time_control=pairing.time_control,
            colourless=pairing.colourless,
        )
        for pairing in pairings
    )
    bye_rows = Bye.objects.bulk_create(
        Bye(round=rnd, player=players[bye.start_no], kind=bye.kind) for bye in byes
    )
    slots = [RoundSlot(round=rnd, player=game.white, game=game) for game in games]
    slots += [RoundSlot(round=rnd, player=game.black, game=game) for game in games]
    slots += [RoundSlot(round=rnd, player=bye.player, bye=bye) for bye in bye_rows]
    try:
        RoundSlot.objects.bulk_create(slots)
    except IntegrityError as exc:  # the checks above make this a bug, not a user error
        raise UserError(f"round {round_no}: a player appears twice") from exc
    if event.status == EventStatus.DRAFT:
        Event.objects.filter(pk=event.pk).update(status=EventStatus.RUNNING)
    if not audit:
        event_version_bump(event=event)
    else:
        event_changed(
            event=event,
            user=user,
            action="round.pair",
            summary=f"Set the pairings of round {round_no}: {len(pairings)} games, "
            f"{len(byes)} byes",
        )
    return rnd


RoundInput = tuple[Sequence[PairingInput], Sequence[ByeInput]]


@transaction.atomic
def event_rounds_load(*, event: Event, rounds: Mapping[int, RoundInput]) -> None:
    """The pairings and byes of every round of an event being imported (a TRF's, an exchange
    document's), checked as :func:`round_pairings_set` checks them, then written in one
    statement per kind of row (rounds, games, byes, the players' round slots) rather than one
    per round or per player: a 5,000-player, 12-round file is 60,000 rows (issue 28, "Big files
    stay fast"). For an event without rounds yet; one version bump, no audit entry of its own
    (the import's is the one)."""
    event_require_open(event)
    if Round.objects.filter(event=event).exists():
        raise UserError("the event already has rounds: pair or correct them one by one")
    players = dict(Player.objects.filter(event=event).values_list("start_no", "pk"))
    for round_no, (pairings, byes) in sorted(rounds.items()):
        if not 1 <= round_no <= event.rounds:
            raise UserError(f"round {round_no} is outside 1–{event.rounds}")
        _check_round_input(round_no, pairings, byes, players)
    made = Round.objects.bulk_create(Round(event=event, number=n) for n in sorted(rounds))
    ids = {rnd.number: rnd.pk for rnd in made}
    Game.objects.bulk_create(
        Game(
            round_id=ids[round_no],
            board=pairing.board,
            white_id=players[pairing.white],
            black_id=players[pairing.black],
            result=pairing.result,
            time_control=pairing.time_control,
            colourless=pairing.colourless,
        )
        for round_no, (pairings, _) in rounds.items()
        for pairing in pairings
    )
    Bye.objects.bulk_create(
        Bye(round_id=ids[round_no], player_id=players[bye.start_no], kind=bye.kind)
        for round_no, (_, byes) in rounds.items()
        for bye in byes
    )
    _slots_fill(event)
    if rounds and event.status == EventStatus.DRAFT:
        Event.objects.filter(pk=event.pk).update(status=EventStatus.RUNNING)
    event_version_bump(event=event)


def _slots_fill(event: Event) -> None:
    """A :class:`RoundSlot` for each side of every game and for every bye of the event, made
    by the database from the rows just written (three statements, no row through Python)."""
    q = connection.ops.quote_name
    slot, game, bye, rnd = (q(m._meta.db_table) for m in (RoundSlot, Game, Bye, Round))
    columns = ", ".join(q(c) for c in ("round_id", "player_id", "game_id", "bye_id"))
    of_event = f"{q('round_id')} IN (SELECT {q('id')} FROM {rnd} WHERE {q('event_id')} = %s)"
    sources = (
        f"{q('white_id')}, {q('id')}, NULL FROM {game}",
        f"{q('black_id')}, {q('id')}, NULL FROM {game}",
        f"{q('player_id')}, NULL, {q('id')} FROM {bye}",
    )
    with connection.cursor() as cursor:
        for source in sources:
            cursor.execute(
                f"INSERT INTO {slot} ({columns}) SELECT {q('round_id')}, {source} WHERE {of_event}",
                [event.pk],
            )


def _game_label(game: Game) -> str:
    return (
        f"round {game.round.number} board {game.board} "
        f"({game.white.start_no}. {game.white.name} – {game.black.start_no}. {game.black.name})"
    )


@transaction.atomic
def game_result_record(
    *, game_id: int, result: str, expected_version: int | None, user: UserLike
) -> Game:
    """Record or correct a result.

    ``expected_version`` is the game's version the user saw; if someone saved in between, the
    save is refused with :class:`ResultConflict` carrying both values (design brief §3: never a
    silent overwrite). The row lock serialises two simultaneous saves of the same game.
    """
    event = Event.objects.filter(round_set__games=game_id).first()
    if event is None:
        raise UserError("that game does not exist (was the round re-paired?)")
    event_require_open(event)
    if result not in ("", *Result.values):
        raise UserError(f"unknown result {result!r}")
    try:
        game = (
            Game.objects.select_for_update()
            .select_related("round__event", "white", "black")
            .get(pk=game_id)
        )
    except Game.DoesNotExist as exc:
        raise UserError("that game does not exist (was the round re-paired?)") from exc
    if expected_version is not None and expected_version != game.version:
        raise ResultConflict(
            f"Someone else changed {_game_label(game)} while you were editing it.",
            current=game.result,
            attempted=result,
            current_version=game.version,
        )
    if game.result == result:
        return game
    before = game.result
    game.result = result
    game.version += 1
    game.save(update_fields=["result", "version"])
    event = game.round.event
    result_changed(game, before)
    event_changed(
        event=event,
        user=user,
        action="result.record" if not before else "result.correct",
        summary=f"{_game_label(game)}: {before or 'no result'} → {result or 'no result'}",
        game=game,
        before={"result": before},
        after={"result": result},
    )
    return game


@transaction.atomic
def audit_undo(*, event: Event, entry_id: int, user: UserLike) -> AuditEntry:
    """Undo a result change: put the previous result back, as a new audited change.

    Refused if the game has changed since (the undo would overwrite a later result). A
    format undoes its own audited changes the same way, through the seam
    (:func:`events.formats.undo_handler`; formats/mso's table scores).
    """
    event_require_open(event)
    try:
        entry = AuditEntry.objects.select_for_update().get(pk=entry_id, event=event)
    except AuditEntry.DoesNotExist as exc:
        raise UserError("that audit entry does not exist") from exc
    format_undo = undo_handler(event, entry.action)
    if format_undo is not None:
        return format_undo(event=event, entry=entry, user=user)
    if entry.game_id is None or not entry.action.startswith("result."):
        raise UserError("only result changes can be undone")
    if entry.undone_by_id is not None:
        raise UserError("this change has already been undone")
    game = Game.objects.select_for_update().get(pk=entry.game_id)
    if game.result != (entry.after or {}).get("result"):
        raise UserError(
            "the game has changed since this entry; undo the later change first "
            f"(it now reads {game.result or 'no result'})"
        )
    game_result_record(
        game_id=game.pk,
        result=(entry.before or {}).get("result", ""),
        expected_version=game.version,
        user=user,
    )
    undo_entry = AuditEntry.objects.filter(event=event, game=game).order_by("-id").first()
    assert undo_entry is not None
    undo_entry.action = "result.undo"
    undo_entry.summary = f"Undid: {entry.summary}"[:300]
    undo_entry.save(update_fields=["action", "summary"])
    entry.undone_by = undo_entry
    entry.save(update_fields=["undone_by"])
    return undo_entry


def _refuse_last_director_leaving(event: Event, target: Any, role: str) -> None:
    """An event always has a director (issue 19): the last one cannot become an arbiter, or
    nobody could manage the event (superusers aside). The event row is locked first, so two
    directors demoting each other at once cannot both succeed."""
    if role == Role.DIRECTOR:
        return
    Event.objects.select_for_update().filter(pk=event.pk).first()
    directors = EventAccess.objects.filter(event=event, role=Role.DIRECTOR)
    if directors.filter(user=target).exists() and not directors.exclude(user=target).exists():
        raise UserError(
            f"{target.get_username()} is the event's only director: make someone else "
            "director first, or the event would have nobody to manage it"
        )


@transaction.atomic
def access_grant(*, event: Event, username: str, role: str, user: UserLike) -> EventAccess:
    from django.contrib.auth import get_user_model

    if role not in Role.values:
        raise UserError(f"unknown role {role!r}")
    try:
        target = get_user_model().objects.get(username=username)
    except get_user_model().DoesNotExist as exc:
        raise UserError(f"there is no user called {username!r}") from exc
    _refuse_last_director_leaving(event, target, role)
    access, _ = EventAccess.objects.update_or_create(
        event=event, user=target, defaults={"role": role}
    )
    audit_record(event=event, user=user, action="access.grant", summary=f"{username} is now {role}")
    return access


def withdrawals_set(*, event: Event, withdrawals: Iterable[tuple[int, int]]) -> None:
    for start_no, after_round in withdrawals:
        Player.objects.filter(event=event, start_no=start_no).update(
            withdrawn_after_round=after_round
        )
