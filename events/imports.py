"""TRF import/export and uploads: the bridge between :mod:`events.trf` (pure) and the models.

An import either loads completely or changes nothing (one transaction).
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Callable
from dataclasses import replace

from django.core.files.uploadedfile import UploadedFile
from django.db import transaction

from events import exchange, trf
from events.errors import ImportFailed, UserError
from events.models import Event, Player
from events.records import Crosstable, Entrant, RoundResult
from events.selectors import event_crosstable
from events.services import (
    ByeInput,
    EventFields,
    PairingInput,
    PlayerFields,
    UserLike,
    event_create,
    players_register_many,
    refuse_unstorable_values,
    round_pairings_set,
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
        games.append(PairingInput(len(games) + 1, white, black, PAIR_RESULTS[key]))
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


# Readers of TRF files the foundation does not read itself (a format's: the TRF-2026 team file),
# registered by the format apps: each returns the event it created, or None for a file not its.
TRF_READERS: list[Callable[..., Event | None]] = []


def trf_reader_register(reader: Callable[..., Event | None]) -> None:
    if reader not in TRF_READERS:
        TRF_READERS.append(reader)


@transaction.atomic
@refuse_unstorable_values(ImportFailed)
def event_import_trf(*, text: str, user: UserLike, slug: str = "") -> Event:
    """Create an event from a TRF16/TRF-2026 file. All or nothing."""
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
    fields = EventFields(
        name=parsed.name or table.name or "Imported tournament",
        system=detect_system(table),
        time_control="classical",
        rounds=max(table.rounds, 1),
        start_date=start,
        preset=preset,
        site=parsed.site,
    )
    try:
        event = event_create(fields=fields, director=user, slug=slug)
        players_register_many(
            event=event, players=[_player_fields(e) for e in table.entrants], user=user
        )
        for number in range(1, table.rounds + 1):
            games, byes = _round_inputs(table.entrants, number)
            round_pairings_set(
                event=event, round_no=number, pairings=games, byes=byes, user=user, audit=False
            )
    except ImportFailed:
        raise
    except UserError as exc:
        raise ImportFailed(str(exc)) from exc
    return event


def players_from_trf(text: str) -> list[PlayerFields]:
    """The player records of a TRF file, start numbers kept (results are not read)."""
    try:
        parsed = trf.parse_trf(text)
    except trf.TrfError as exc:
        raise ImportFailed(str(exc)) from exc
    return [_player_fields(entrant) for entrant in parsed.crosstable.entrants]


def _player_fields(entrant: Entrant) -> PlayerFields:
    return PlayerFields(
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
    raw = upload.read()
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return raw.decode("latin-1")  # older TRF files are often Latin-1


def event_export_trf(event: Event) -> str:
    """TRF16 for the rating officer and FIDE's own tools; a player whose year of birth alone
    is known (registered from a rating list) gets ``YYYY/00/00``."""
    crosstable = event_crosstable(event)
    years = dict(
        Player.objects.filter(event=event, birth_date=None)
        .exclude(birth_year=None)
        .values_list("start_no", "birth_year")
    )
    if years:
        entrants = tuple(replace(e, birth_year=years.get(e.start_no)) for e in crosstable.entrants)
        crosstable = replace(crosstable, entrants=entrants)
    return trf.write_trf(crosstable)


def event_import_upload(*, upload: UploadedFile, slug: str, user: UserLike) -> Event:
    """An uploaded file: JSON exchange document if it parses as JSON object, else TRF."""
    text = decode_upload(upload)
    if text.lstrip().startswith("{"):
        return exchange.event_import_document(text=text, user=user, slug=slug)
    return event_import_trf(text=text, user=user, slug=slug)
