"""TRF import/export and uploads: the bridge between :mod:`events.trf` (pure) and the models.

An import either loads completely or changes nothing (one transaction). What a file holds
beyond the event, its players and its rounds belongs to the apps above the foundation, which
register a :class:`TrfPart` (the Swiss workflow: the next round's requested byes, the initial
colour, the pairing numbers, acceleration and forbidden pairs): the foundation imports none of
them. What the import decided for the director (the rounds it assumed, the records it did not
read, every value the lenient reader left out or read in its own way: :mod:`events.trf_fields`,
issue 28) is kept as the notes of its audit entry, :func:`import_notes`, which the command
prints on stderr and the event page shows the director until dismissed
(:func:`import_notes_pending`, issue 29).
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

from events import exchange, trf, trf_fields
from events.errors import ImportFailed, UserError
from events.formats import format_of
from events.models import AuditEntry, Bye, Event, Game, Player
from events.records import Crosstable, Entrant, RoundResult
from events.registries import Registry
from events.selectors import event_crosstable
from events.services import (
    DEPUTY_LENGTH,
    RECORD_TEXTS,
    ByeInput,
    EventFields,
    PairingInput,
    PlayerFields,
    TournamentRecords,
    UserLike,
    audit_record,
    event_create,
    event_rounds_load,
    event_version_bump,
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


@dataclass(frozen=True)
class RoundRead:
    """A round of the file as the import writes it, and what it read in its own way."""

    games: list[PairingInput]
    byes: list[ByeInput]
    unplayed: list[tuple[int, int]]  # pairs without a result on either side


# A pairing whose two results say that neither player scored: not played (yet).
_UNPLAYED = {("Z", "Z"), ("Z", "-"), ("-", "Z")}


def _round_inputs(entrants: tuple[Entrant, ...], number: int, *, last: bool = False) -> RoundRead:
    """The games and byes of round ``number``. A pairing with no result on either side (``Z``
    or blank, as a program writes a round paired but not played yet) is a game awaiting its
    result in the file's last round, and a double forfeit (``-/-``: nobody scored) before it."""
    by_no = {e.start_no: e for e in entrants}
    read = RoundRead([], [], [])
    done: set[int] = set()
    for entrant in entrants:
        result = entrant.results[number - 1]
        if result.opponent is None:
            read.byes.append(ByeInput(entrant.start_no, BYE_KINDS.get(result.code, "zero")))
            continue
        if entrant.start_no in done:
            continue
        other = by_no[result.opponent].results[number - 1]
        white, black, white_result, black_result = _orient(entrant, result, other)
        key = (white_result.code, black_result.code)
        if key in _UNPLAYED:
            read.unplayed.append((white, black))
            outcome = "" if last else "-/-"
        elif key in PAIR_RESULTS:
            outcome = PAIR_RESULTS[key]
        else:
            raise ImportFailed(
                f"round {number}: players {entrant.start_no} and {result.opponent} have results "
                f"{result.code!r} and {other.code!r}, which do not fit together"
            )
        # A forfeit the file gives no colours (``- -``) keeps none (issue 28).
        colourless = result.colour == other.colour == "-" and key in FORFEITS
        read.games.append(
            PairingInput(len(read.games) + 1, white, black, outcome, colourless=colourless)
        )
        done.update((entrant.start_no, result.opponent))
    return read


def _orient(
    entrant: Entrant, result: RoundResult, other: RoundResult
) -> tuple[int, int, RoundResult, RoundResult]:
    opponent = result.opponent
    assert opponent is not None
    if result.colour == "b" or (result.colour == "-" and other.colour == "w"):
        return opponent, entrant.start_no, other, result
    return entrant.start_no, opponent, result, other


def detect_system(crosstable: Crosstable, declared: bool | None = None) -> str:
    """The system the file says (record 092/192: ``declared`` True for a round robin, False
    for a Swiss), else inferred: a round robin when every pair met exactly once (twice:
    double); otherwise Swiss. A Swiss in which everyone happened to meet everyone is still a
    Swiss (issue 28: it keeps the dummy opponent of C.07 Art. 16 and can be paired on).

    Linear in the results: every pair met exactly ``k`` times exactly when each player met
    every other player and each of them ``k`` times, so the pairs themselves (n² of them, a
    gigabyte at 3,000 players) are never built.
    """
    if declared is None and crosstable.round_robin:
        declared = True
    if declared is False:
        return "swiss"
    inferred = _met_everyone(crosstable)
    if declared:
        return inferred if inferred != "swiss" else "round_robin"
    return inferred


def _met_everyone(crosstable: Crosstable) -> str:
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
# Each takes ``text``, ``user``, ``slug`` and ``confirm_duplicates`` (keywords).
TRF_READERS: list[Callable[..., Event | None]] = []


def trf_reader_register(reader: Callable[..., Event | None]) -> None:
    if reader not in TRF_READERS:
        TRF_READERS.append(reader)


@transaction.atomic
@refuse_unstorable_values(ImportFailed)
def event_import_trf(
    *, text: str, user: UserLike, slug: str = "", confirm_duplicates: bool = False
) -> Event:
    """Create an event from a TRF16/TRF-2026 file. All or nothing.

    The event has the rounds the file schedules (``XXR``/``142``), else the rounds it holds
    (issue 20); the notes of the import say which (:func:`import_notes`). ``confirm_duplicates``
    is for the readers that ask (a team file whose roster names a player twice).
    """
    for reader in TRF_READERS:
        found = reader(text=text, user=user, slug=slug, confirm_duplicates=confirm_duplicates)
        if found is not None:
            return found
    try:
        parsed = trf.parse_trf(text)
    except trf.TrfError as exc:
        raise ImportFailed(str(exc)) from exc
    table = parsed.crosstable
    scoring = dict(parsed.pairing.scoring) if parsed.pairing else {}
    fields, notes = _fitted(_event_fields(parsed, scoring), list(parsed.notes))
    players, conflicts, notes = _players_of(
        table.entrants, notes, dict(parsed.file_ranks), played=table.rounds > 0
    )
    try:
        event = event_create(fields=fields, director=user, slug=slug)
        # A whole event as another program ran it: names alike are left as the file has them
        # (there is nobody to confirm them); a FIDE id twice was set aside (_players_of).
        players_register_many(event=event, players=players, user=user, confirm_duplicates=True)
        reads = {
            number: _round_inputs(table.entrants, number, last=number == table.rounds)
            for number in range(1, table.rounds + 1)
        }
        # Every round in one statement per kind of row (issue 28, "Big files stay fast").
        event_rounds_load(
            event=event, rounds={number: (r.games, r.byes) for number, r in reads.items()}
        )
        for number, read in reads.items():
            notes += _unplayed_notes(number, read.unplayed, last=number == table.rounds)
        _keep_as_written(event, parsed)
        notes += _rounds_notes(parsed) + _scoring_notes(scoring)
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
        after={"notes": notes, "fide_id_conflicts": conflicts},
    )
    return event


def _event_fields(parsed: trf.ParsedTrf, scoring: dict[str, Any]) -> EventFields:
    """The event as the file describes it; the C.07 edition by its start date."""
    table = parsed.crosstable
    start = table.start_date
    preset = "fide-2026" if start is not None and start >= EDITION_2026_FROM else "fide-2024"
    return EventFields(
        name=parsed.name or table.name or "Imported tournament",
        system=detect_system(table, parsed.round_robin),
        time_control="classical",
        rounds=max(parsed.rounds, 1),
        start_date=start,
        preset=preset,
        overrides={"scoring": {k: str(v) for k, v in scoring.items()}} if scoring else None,
        site=parsed.site,
        records=_records(parsed.records),
    )


def _keep_as_written(event: Event, parsed: trf.ParsedTrf) -> None:
    """What the file says that the event does not compute itself, kept for the director
    (issue 28): record 072 as the file counted it (the writer counts it as FIDE does). The
    rank column goes in with the players (:func:`_players_of`); a forfeit written without
    colours keeps none (:func:`_round_inputs`)."""
    rated = parsed.rated_players
    if rated.isascii() and rated.isdigit():
        Event.objects.filter(pk=event.pk).update(trf_rated_players=int(rated))


TEXT_LENGTH = 200  # the event's name and its text records (Event's fields)


def _fitted(fields: EventFields, notes: list[str]) -> tuple[EventFields, list[str]]:
    """The event's fields within the limits every event keeps (``records_checked``): a text
    too long for them is left empty, round dates past the event's rounds are left out; each is
    one line of the notes (issue 28: an informational record never refuses a played event,
    and nothing is cut to fit)."""
    records = fields.records
    texts = {"name": fields.name, "site": fields.site}
    texts |= {name: getattr(records, name) for name in RECORD_TEXTS}
    too_long = [name for name, text in texts.items() if len(text) > TEXT_LENGTH]
    deputies = tuple(d for d in records.deputy_arbiters if len(d) <= DEPUTY_LENGTH)
    if len(deputies) < len(records.deputy_arbiters):
        too_long.append("deputy_arbiters")
    if too_long:
        named = ", ".join(name.replace("_", " ") for name in too_long)
        notes.append(f"Longer than {TEXT_LENGTH} characters, left empty: the event's {named}.")
    dates = records.round_dates
    if len(dates) > fields.rounds:
        notes.append(
            f"Record 132 gives {len(dates)} round dates for {fields.rounds} rounds: the dates "
            f"past round {fields.rounds} are left out."
        )
    emptied = {name: "" for name in too_long if name in RECORD_TEXTS}
    records = replace(
        records, **emptied, deputy_arbiters=deputies, round_dates=dates[: fields.rounds]
    )
    return replace(
        fields,
        name="Imported tournament" if "name" in too_long else fields.name,
        site="" if "site" in too_long else fields.site,
        records=records,
    ), notes


def _players_of(
    entrants: tuple[Entrant, ...],
    notes: list[str],
    ranks: dict[int, int] | None = None,
    *,
    played: bool = True,
) -> tuple[list[PlayerFields], list[dict[str, Any]], list[str]]:
    """The file's players as the import registers them, the FIDE ids it set aside, and the
    notes so far with what it changed.

    Two players with one FIDE id in a played event are a registration error of the program
    that ran it (issue 28): the event is imported, neither keeps the id (which of them it
    belongs to cannot be told), and the notes and the players page name both until the
    director gives it to the right one. A file with no round played is a list of registrations:
    an id twice there is refused as registering it here is (issue 20). A player without a name
    is called ``Player N``."""
    ranks = ranks or {}
    by_id = trf_fields.duplicated((e.start_no, e.fide_id) for e in entrants) if played else {}
    names = {e.start_no: e.name for e in entrants}
    conflicts = [{"fide_id": fide_id, "start_nos": numbers} for fide_id, numbers in by_id.items()]
    notes.extend(_conflict_notes(conflicts, names))
    taken = {number for numbers in by_id.values() for number in numbers}
    players = [
        replace(_player_fields(e, keep_id=e.start_no not in taken), file_rank=ranks.get(e.start_no))
        for e in entrants
    ]
    notes.extend(_nameless_notes(entrants))
    return players, conflicts, notes


def _conflict_notes(conflicts: list[dict[str, Any]], names: dict[int, str]) -> list[str]:
    """One note per FIDE id held twice (the first :data:`MAX_CONFLICT_NOTES`), then a count."""
    notes = []
    for conflict in conflicts[:MAX_CONFLICT_NOTES]:
        holders = " and ".join(f"{n} ({names[n] or 'no name'})" for n in conflict["start_nos"])
        notes.append(
            f"Players {holders} have the same FIDE id {conflict['fide_id']} in the file: "
            "neither keeps it here; give it to the right one on the Players page."
        )
    if len(conflicts) > MAX_CONFLICT_NOTES:
        notes.append(f"And {len(conflicts) - MAX_CONFLICT_NOTES} more FIDE ids held twice.")
    return notes


def _nameless_notes(entrants: tuple[Entrant, ...]) -> list[str]:
    nameless = [e.start_no for e in entrants if not e.name.strip()]
    if not nameless:
        return []
    named = trf_fields.listed([str(n) for n in nameless])
    return [f"Players without a name, called Player N: {named}."]


MAX_CONFLICT_NOTES = 20


def _unplayed_notes(round_no: int, unplayed: list[tuple[int, int]], *, last: bool) -> list[str]:
    if not unplayed:
        return []
    pairs = trf_fields.listed([f"{white}-{black}" for white, black in unplayed])
    if last:
        return [
            f"Round {round_no} is paired, and {len(unplayed)} of its games have no result yet "
            f"({pairs}): they await their results here."
        ]
    return [
        f"Round {round_no}: {len(unplayed)} pairings have no result on either side ({pairs}): "
        "read as double forfeits (-/-), nobody scored."
    ]


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
    return [str(note) for note in _import_entry(event).get("notes", [])]


NOTES_DISMISS_ACTION = "trf.notes_dismiss"


def _import_entry(event: Event, *, pending: bool = False) -> dict[str, Any]:
    """The import's audit entry's ``after`` (notes, FIDE ids set aside); ``pending``: empty
    once the director dismissed the notes (issue 29: they stay until then)."""
    entries = list(
        AuditEntry.objects.filter(event=event, action__in=(IMPORT_ACTION, NOTES_DISMISS_ACTION))
        .order_by("id")
        .values_list("action", "after")
    )
    first = entries[0] if entries else None
    if first is None or first[0] != IMPORT_ACTION or not isinstance(first[1], dict):
        return {}
    if pending and any(action == NOTES_DISMISS_ACTION for action, _ in entries):
        return {}
    return first[1]


def import_notes_pending(event: Event) -> list[str]:
    """The import's notes for the event page, until the director dismisses them."""
    return [str(note) for note in _import_entry(event, pending=True).get("notes", [])]


@transaction.atomic
def import_notes_dismiss(*, event: Event, user: UserLike) -> None:
    """The director has read the import's notes: the event page stops showing them (the
    audit log keeps them)."""
    if import_notes_pending(event):
        audit_record(
            event=event,
            user=user,
            action=NOTES_DISMISS_ACTION,
            summary="Dismissed the notes of the TRF import",
        )
        event_version_bump(event=event)  # the event page's ETag: a reload must not keep them


@dataclass(frozen=True)
class FideIdConflict:
    fide_id: str
    players: list[Player]


def fide_id_conflicts(event: Event) -> list[FideIdConflict]:
    """The FIDE ids the import set aside because two players had them (issue 28), while no
    player of the event has the id yet: for the players page."""
    conflicts = _import_entry(event).get("fide_id_conflicts", [])
    if not conflicts:
        return []
    players = {p.start_no: p for p in Player.objects.filter(event=event)}
    held = {p.fide_id for p in players.values() if p.fide_id}
    return [
        FideIdConflict(c["fide_id"], [players[n] for n in c["start_nos"] if n in players])
        for c in conflicts
        if c["fide_id"] not in held
    ]


def players_from_trf(text: str) -> list[PlayerFields]:
    """The player records of a TRF file, start numbers kept (results are not read)."""
    try:
        parsed = trf.parse_trf(text)
    except trf.TrfError as exc:
        raise ImportFailed(str(exc)) from exc
    return [_player_fields(entrant) for entrant in parsed.crosstable.entrants]


def _player_fields(entrant: Entrant, *, keep_id: bool = True) -> PlayerFields:
    return PlayerFields(
        where=f"the file's player {entrant.start_no}",
        start_no=entrant.start_no,
        name=entrant.name.strip() or f"Player {entrant.start_no}",
        federation=entrant.federation,
        fide_id=entrant.fide_id if keep_id else "",
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


def event_trf_file(event: Event) -> str:
    """The event's TRF, one writer for the director's ``export.trf`` and ``manage.py
    export_trf`` (issue 28): the format's own file where it writes one (a team event: the
    TRF-2026 team file), else :func:`event_export_trf`."""
    fmt = format_of(event)
    if fmt is not None and fmt.trf_export is not None:
        return fmt.trf_export(event)
    return event_export_trf(event)


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


def event_import_upload(
    *, upload: UploadedFile, slug: str, user: UserLike, confirm_duplicates: bool = False
) -> Event:
    """An uploaded file: JSON exchange document if it parses as JSON object, else TRF."""
    text = decode_upload(upload)
    if text.lstrip().startswith("{"):
        return exchange.event_import_document(text=text, user=user, slug=slug)
    return event_import_trf(text=text, user=user, slug=slug, confirm_duplicates=confirm_duplicates)
