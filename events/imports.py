"""TRF import/export and uploads: the bridge between :mod:`events.trf` (pure) and the models.

An import either loads completely or changes nothing (one transaction). What a file holds
beyond the event, its players and its rounds belongs to the apps above the foundation, which
register a :class:`TrfPart` (the Swiss workflow: the next round's requested byes, the initial
colour, the pairing numbers, acceleration and forbidden pairs): the foundation imports none of
them. What the import decided for the director (the rounds it assumed, the records it did not
read) is kept as the notes of its audit entry, :func:`import_notes`, which the command prints
on stderr and the import page shows.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from django.core.files.uploadedfile import UploadedFile
from django.db import transaction
from django.db.models import Exists, Max, OuterRef, Q

from events import exchange, trf
from events.errors import ImportFailed, UserError
from events.models import AuditEntry, Bye, Event, Game, Player
from events.records import Crosstable, Entrant, RoundResult
from events.registries import Registry
from events.selectors import event_crosstable
from events.services import (
    ByeInput,
    EventFields,
    PairingInput,
    PlayerFields,
    TournamentRecords,
    UserLike,
    audit_record,
    event_create,
    event_rounds_load,
    players_register_many,
    records_of,
    refuse_unstorable_values,
)

# (code of the player with White, code of the player with Black) → stored result.
PAIR_RESULTS = {
    ("1", "0"): "1-0",
    ("W", "L"): "1-0",
    ("0", "1"): "0-1",
    ("L", "W"): "0-1",
    ("=", "="): "1/2-1/2",
    ("D", "D"): "1/2-1/2",
    ("+", "-"): "+/-",
    ("-", "+"): "-/+",
    ("-", "-"): "-/-",
}
FORFEIT_RESULTS = ("+/-", "-/+", "-/-")
FORFEITS = {codes for codes, result in PAIR_RESULTS.items() if result in FORFEIT_RESULTS}
# An unpaired round's code → bye kind. "+" and "-" without an opponent occur in files from
# the wild; they score like a full-point and a zero-point bye.
BYE_KINDS = {
    "U": "pairing",
    "F": "full",
    "H": "half",
    "Z": "zero",
    " ": "zero",
    "": "zero",
    "+": "full",
    "-": "zero",
}
# Opening date of the 2026 edition of C.07 (rules-notes: default edition by start date).
EDITION_2026_FROM = dt.date(2026, 3, 1)


def _round_inputs(
    entrants: tuple[Entrant, ...], number: int
) -> tuple[list[PairingInput], list[ByeInput]]:
    by_no = {e.start_no: e for e in entrants}
    games: list[PairingInput] = []
    byes: list[ByeInput] = []
    done: set[int] = set()
    for entrant in entrants:
        result = entrant.results[number - 1]
        if result.opponent is None:
            byes.append(ByeInput(entrant.start_no, BYE_KINDS.get(result.code, "zero")))
            continue
        if entrant.start_no in done:
            continue
        other = by_no[result.opponent].results[number - 1]
        white, black, white_result, black_result = _orient(entrant, result, other)
        key = (white_result.code, black_result.code)
        if key not in PAIR_RESULTS:
            raise ImportFailed(
                f"round {number}: players {entrant.start_no} and {result.opponent} have results "
                f"{result.code!r} and {other.code!r}, which do not fit together"
            )
        # A forfeit the file gives no colours (``- -``) keeps none (issue 28).
        colourless = result.colour == other.colour == "-" and key in FORFEITS
        games.append(
            PairingInput(len(games) + 1, white, black, PAIR_RESULTS[key], colourless=colourless)
        )
        done.update((entrant.start_no, result.opponent))
    return games, byes


def _orient(
    entrant: Entrant, result: RoundResult, other: RoundResult
) -> tuple[int, int, RoundResult, RoundResult]:
    opponent = result.opponent
    assert opponent is not None
    if result.colour == "b" or (result.colour == "-" and other.colour == "w"):
        return opponent, entrant.start_no, other, result
    return entrant.start_no, opponent, result, other


def detect_system(crosstable: Crosstable) -> str:
    """Round robin when every pair met exactly once (twice: double); otherwise Swiss.

    Linear in the results: every pair met exactly ``k`` times exactly when each player met
    every other player and each of them ``k`` times, so the pairs themselves (n² of them, a
    gigabyte at 3,000 players) are never built.
    """
    if crosstable.round_robin:
        return "round_robin"
    numbers = {e.start_no for e in crosstable.entrants}
    if len(numbers) < 3:
        return "swiss"
    times: set[int] = set()
    for entrant in crosstable.entrants:
        met = Counter(r.opponent for r in entrant.results if r.opponent is not None)
        if len(met) != len(numbers) - 1:
            return "swiss"  # someone this player never met (the file is checked: no strangers)
        times.update(met.values())
        if len(times) > 1:
            return "swiss"
    return {1: "round_robin", 2: "double_round_robin"}.get(times.pop(), "swiss")


@dataclass(frozen=True)
class TrfExport:
    """What an app adds to an exported TRF file: ``records`` after ``XXR``, the next round's
    requested byes as (start_no, "H" | "Z"), ``player_order``, the start numbers in the
    order the player records are to be written (pairing number 1 first) when the pairing
    numbers are not the start numbers (the part then says so in its records: ``XXC rank``),
    and ``rank_order``, the start numbers in the order of the standings (the rank column)."""

    records: list[str] = field(default_factory=list)
    next_round_byes: list[tuple[int, str]] = field(default_factory=list)
    player_order: list[int] | None = None
    rank_order: list[int] | None = None


@dataclass(frozen=True)
class TrfPart:
    """What an app above the foundation reads from an imported TRF file and writes into an
    exported one: ``load`` writes it into the new event (in the import's transaction) and
    returns notes for the director (a :class:`~events.errors.UserError` refuses the whole
    import); ``export`` gives what the export adds, from the event, the rounds held and the
    start numbers of the players the file lists."""

    code: str
    load: Callable[[trf.ParsedTrf, Event, UserLike], list[str]]
    # None: the part writes nothing.
    export: Callable[[Event, int, list[int]], TrfExport] | None = None


TRF_PARTS: Registry[TrfPart] = Registry("TRF part")


def trf_part_register(part: TrfPart) -> TrfPart:
    return TRF_PARTS.register(part.code, part)


IMPORT_ACTION = "trf.import"


# Readers of TRF files the foundation does not read itself (a format's: the TRF-2026 team file),
# registered by the format apps: each returns the event it created, or None for a file not its.
TRF_READERS: list[Callable[..., Event | None]] = []


def trf_reader_register(reader: Callable[..., Event | None]) -> None:
    if reader not in TRF_READERS:
        TRF_READERS.append(reader)


@transaction.atomic
@refuse_unstorable_values(ImportFailed)
def event_import_trf(*, text: str, user: UserLike, slug: str = "") -> Event:
    """Create an event from a TRF16/TRF-2026 file. All or nothing.

    The event has the rounds the file schedules (``XXR``/``142``), else the rounds it holds
    (issue 20); the notes of the import say which (:func:`import_notes`).
    """
    for reader in TRF_READERS:
        found = reader(text=text, user=user, slug=slug)
        if found is not None:
            return found
    try:
        parsed = trf.parse_trf(text)
    except trf.TrfError as exc:
        raise ImportFailed(str(exc)) from exc
    table = parsed.crosstable
    start = table.start_date
    preset = "fide-2026" if start is not None and start >= EDITION_2026_FROM else "fide-2024"
    scoring = dict(parsed.pairing.scoring) if parsed.pairing else {}
    fields = EventFields(
        name=parsed.name or table.name or "Imported tournament",
        system=detect_system(table),
        time_control="classical",
        rounds=max(parsed.rounds, 1),
        start_date=start,
        preset=preset,
        overrides={"scoring": {k: str(v) for k, v in scoring.items()}} if scoring else None,
        site=parsed.site,
        records=_records(parsed.records),
    )
    try:
        event = event_create(fields=fields, director=user, slug=slug)
        # A whole event as another program ran it: a FIDE id twice is refused; names alike
        # are left as the file has them (there is nobody to confirm them).
        players_register_many(
            event=event,
            players=[_player_fields(e) for e in table.entrants],
            user=user,
            confirm_duplicates=True,
        )
        event_rounds_load(
            event=event,
            rounds={n: _round_inputs(table.entrants, n) for n in range(1, table.rounds + 1)},
        )
        notes = _rounds_notes(parsed) + _scoring_notes(scoring)
        for part in TRF_PARTS.values():
            notes += part.load(parsed, event, user)
    except ImportFailed:
        raise
    except UserError as exc:
        raise ImportFailed(str(exc)) from exc
    audit_record(
        event=event,
        user=user,
        action=IMPORT_ACTION,
        summary=f"Imported from a TRF file: {table.rounds} of {event.rounds} rounds played",
        after={"notes": notes},
    )
    return event


def _records(records: trf.TournamentRecords | None) -> TournamentRecords:
    if records is None:
        return TournamentRecords()
    return TournamentRecords(
        federation=records.federation,
        end_date=records.end_date,
        tournament_type=records.tournament_type,
        chief_arbiter=records.chief_arbiter,
        deputy_arbiters=records.deputy_arbiters,
        rate_of_play=records.rate_of_play,
        round_dates=records.round_dates,
    )


def _rounds_notes(parsed: trf.ParsedTrf) -> list[str]:
    played = parsed.crosstable.rounds
    if parsed.scheduled_rounds is None:
        return [
            f"The file does not say how many rounds the event has (record XXR or 142): it "
            f"has the {parsed.rounds} it holds. Change the number in the event's settings."
        ]
    if parsed.scheduled_rounds > played:
        return [f"{played} of {parsed.scheduled_rounds} rounds played (record XXR/142)."]
    return []


def _scoring_notes(scoring: dict[str, Any]) -> list[str]:
    if not scoring:
        return []
    points = ", ".join(f"{key.replace('_', ' ')} {value}" for key, value in scoring.items())
    return [f"Points from the file (records BBW-BBU): {points}."]


def import_notes(event: Event) -> list[str]:
    """What the TRF import of ``event`` decided for the director (empty: not imported so)."""
    entry = AuditEntry.objects.filter(event=event, action=IMPORT_ACTION).order_by("id").first()
    after = entry.after if entry is not None and isinstance(entry.after, dict) else {}
    return [str(note) for note in after.get("notes", [])]


def players_from_trf(text: str) -> list[PlayerFields]:
    """The player records of a TRF file, start numbers kept (results are not read)."""
    try:
        parsed = trf.parse_trf(text)
    except trf.TrfError as exc:
        raise ImportFailed(str(exc)) from exc
    return [_player_fields(entrant) for entrant in parsed.crosstable.entrants]


def _player_fields(entrant: Entrant) -> PlayerFields:
    return PlayerFields(
        where=f"the file's player {entrant.start_no}",
        start_no=entrant.start_no,
        name=entrant.name,
        federation=entrant.federation,
        fide_id=entrant.fide_id,
        rating=entrant.rating,
        title=entrant.title,
        sex=entrant.sex if entrant.sex in ("m", "w") else "",
        birth_date=entrant.birth_date,
        birth_year=None if entrant.birth_date else entrant.birth_year,
    )


def decode_upload(upload: UploadedFile) -> str:
    return trf.decode_file(upload.read())


def withdrawn_without_playing(event: Event) -> set[int]:
    """Start numbers of the players who withdrew without a game or a bye that scored (an
    event from before players could be deleted, or imported so): nobody to rate."""
    games = Game.objects.filter(Q(white=OuterRef("pk")) | Q(black=OuterRef("pk")))
    scored = Bye.objects.filter(player=OuterRef("pk")).exclude(kind="zero")
    return set(
        Player.objects.filter(event=event, withdrawn_after_round__isnull=False)
        .exclude(Exists(games))
        .exclude(Exists(scored))
        .values_list("start_no", flat=True)
    )


def event_export_trf(event: Event) -> str:
    """TRF16 for the rating officer, FIDE's own tools and the next program (issue 20).

    The tournament records of the rating report (022-132; 062/072/082 counted here), ``XXR``
    with the scheduled rounds, the rounds that have games or byes (a later round has nothing to
    say yet), and what the apps above add (:class:`TrfPart` ``export``: the Swiss workflow
    writes the pairing numbers the engine used and the next round's requested byes as
    bbpPairings and JaVaFo read them, the standings give the rank column). A forfeit that came
    without colours is written without them again (issue 28). A player
    whose year of birth alone is known (registered from a rating list) gets ``YYYY/00/00``. A
    player who withdrew without ever playing is left out (issue 20: not ``0000 - Z`` in every
    round); one who was registered by mistake is deleted (``events.services.player_delete``)
    and is not there either.
    """
    held = _rounds_held(event)
    crosstable = event_crosstable(event, rounds=held)
    years = dict(
        Player.objects.filter(event=event, birth_date=None)
        .exclude(birth_year=None)
        .values_list("start_no", "birth_year")
    )
    absent = withdrawn_without_playing(event)
    entrants = tuple(
        replace(e, birth_year=years.get(e.start_no, e.birth_year))
        for e in crosstable.entrants
        if e.start_no not in absent
    )
    crosstable = replace(crosstable, entrants=_without_colours(event, entrants, held))
    extras: list[str] = trf.points_records(crosstable.scoring)
    next_round: list[tuple[int, str]] = []
    order: list[int] | None = None
    ranked: list[int] | None = None
    written = [entrant.start_no for entrant in entrants]
    for part in TRF_PARTS.values():
        if part.export is not None:
            added = part.export(event, held, written)
            extras += added.records
            next_round += added.next_round_byes
            order = added.player_order or order
            ranked = added.rank_order or ranked
    records = records_of(event)
    return trf.write_trf(
        crosstable,
        tournament_type=event.tournament_type or None,
        site=event.site,
        federation=records.federation,
        end_date=records.end_date,
        extra_records=extras,
        scheduled_rounds=event.rounds,
        records=trf.TournamentRecords(
            chief_arbiter=records.chief_arbiter,
            deputy_arbiters=records.deputy_arbiters,
            rate_of_play=records.rate_of_play,
            round_dates=records.round_dates,
        ),
        next_round_byes=tuple(sorted(next_round)),
        player_order=order,
        rank_order=ranked,
    )


def _without_colours(event: Event, entrants: tuple[Entrant, ...], held: int) -> tuple[Entrant, ...]:
    """The forfeits that came without colours (``- -``, :attr:`Game.colourless`) written so
    again: a file keeps what it had (issue 28)."""
    rows = Game.objects.filter(
        round__event=event,
        round__number__lte=held,
        colourless=True,
        result__in=FORFEIT_RESULTS,
    ).values_list("round__number", "white__start_no", "black__start_no")
    sides = {(number, start_no) for number, white, black in rows for start_no in (white, black)}
    if not sides:
        return entrants
    return tuple(
        replace(
            entrant,
            results=tuple(
                replace(r, colour="-") if (r.round, entrant.start_no) in sides else r
                for r in entrant.results
            ),
        )
        for entrant in entrants
    )


def _rounds_held(event: Event) -> int:
    """The last round with a game or a bye (0: none yet)."""
    games = Game.objects.filter(round__event=event).aggregate(last=Max("round__number"))
    byes = Bye.objects.filter(round__event=event).aggregate(last=Max("round__number"))
    return max(games["last"] or 0, byes["last"] or 0)


def event_import_upload(*, upload: UploadedFile, slug: str, user: UserLike) -> Event:
    """An uploaded file: JSON exchange document if it parses as JSON object, else TRF."""
    text = decode_upload(upload)
    if text.lstrip().startswith("{"):
        return exchange.event_import_document(text=text, user=user, slug=slug)
    return event_import_trf(text=text, user=user, slug=slug)
