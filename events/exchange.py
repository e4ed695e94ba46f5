"""The JSON exchange format, version 1 (design brief §4), import and export.

Import validates the whole document first, naming the key at fault (``players[3].start_no``),
then writes everything in one transaction: it loads completely or changes nothing.
Export → import → export gives the same document.

This module owns the event, its players, games and byes. Every other key belongs to an app
above the foundation, which registers it as a :class:`Section` (``prizes`` by
:mod:`prizes.exchange`, the playoff keys by :mod:`playoffs.exchange`, each format's keys by its
own app): the foundation imports none of them. Extensions to the brief's keys are documented in
``docs/exchange-format.md`` and the JSON Schema: ``site`` and the tournament records
(``federation``, ``end_date``, ``tournament_type``, ``chief_arbiter``, ``deputy_arbiters``,
``rate_of_play``, ``round_dates``), per player ``previous_rank`` and
``withdrawn_after_round``, and the formats' keys.
"""

from __future__ import annotations

import datetime as dt
import json
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db import transaction

from events.errors import ImportFailed, UserError
from events.limits import (
    MAX_DEPUTY_ARBITERS,
    MAX_ROUNDS,
    event_size_check,
    json_parse,
    rounds_check,
    start_no_check,
    text_check,
)
from events.models import (
    Bye,
    ByeKind,
    Event,
    EventStatus,
    EventSystem,
    Game,
    Player,
    Result,
    TimeControl,
)
from events.registries import Registry
from events.services import (
    ByeInput,
    EventFields,
    PairingInput,
    PlayerFields,
    TournamentRecords,
    UserLike,
    event_create,
    event_rounds_load,
    players_register_many,
    records_of,
    records_values,
    refuse_unstorable_values,
)

FORMAT = "tournament-event/1"
PLAYER_KEYS = (
    "start_no",
    "name",
    "federation",
    "rating",
    "fide_id",
    "title",
    "sex",
    "birth_date",
    "birth_year",
    "previous_rank",
    "withdrawn_after_round",
    "k_listed",
)


class Invalid(ImportFailed):
    pass


def require(obj: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if key not in obj:
        raise Invalid(f"{where}{key}: missing")
    return typed(obj[key], kind, f"{where}{key}")


def one_line(value: Any, where: str) -> str:
    """A string of one line (a team's name, a club): no control character or line separator
    (:func:`events.limits.text_check`), which would break the lines of a file written from it."""
    try:
        return text_check(typed(value, str, where), where)
    except Invalid:
        raise
    except UserError as exc:
        raise Invalid(str(exc)) from exc


def flag(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise Invalid(f"{where}: expected true or false, got {json.dumps(value)[:40]}")
    return value


def typed(value: Any, kind: type | tuple[type, ...], where: str) -> Any:
    if isinstance(value, bool) or not isinstance(value, kind):
        names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        expected = {"int": "an integer", "str": "a string", "list": "a list"}.get(names, names)
        raise Invalid(f"{where}: expected {expected}, got {json.dumps(value)[:40]}")
    return value


def date_of(value: Any, where: str) -> dt.date | None:
    return _iso(value, where, dt.date.fromisoformat, "a date (YYYY-MM-DD)")


def moment_of(value: Any, where: str) -> dt.datetime | None:
    """An ISO date and time (``2019-08-27T13:00:00+00:00``); empty or null: none."""
    return _iso(value, where, dt.datetime.fromisoformat, "a date and time")


def _iso(value: Any, where: str, parse: Callable[[str], Any], what: str) -> Any:
    if value in (None, ""):
        return None
    try:
        return parse(typed(value, str, where))
    except ValueError as exc:
        raise Invalid(f"{where}: {value!r} is not {what}") from exc


def choice(value: Any, allowed: Sequence[str], where: str) -> str:
    if value not in allowed:
        raise Invalid(f"{where}: {value!r} is not one of {', '.join(allowed)}")
    return str(value)


def parse_document(text: str) -> dict[str, Any]:
    try:
        document = json_parse(text)
    except UserError as exc:
        raise Invalid(str(exc)) from exc
    if not isinstance(document, dict):
        raise Invalid("the document must be a JSON object")
    if document.get("format") != FORMAT:
        raise Invalid(f"format: expected {FORMAT!r}, got {document.get('format')!r}")
    return document


def _event_fields(doc: Mapping[str, Any]) -> EventFields:
    regulation = doc.get("regulation") or {"preset": "fide-2024"}
    typed(regulation, dict, "regulation")
    preset = require(regulation, "preset", str, "regulation.")
    return EventFields(
        name=require(doc, "name", str, ""),
        system=choice(require(doc, "system", str, ""), EventSystem.values, "system"),
        time_control=choice(
            require(doc, "time_control", str, ""), TimeControl.values, "time_control"
        ),
        rounds=rounds_check(require(doc, "rounds", int, "")),
        start_date=date_of(doc.get("start_date"), "start_date"),
        preset=preset,
        overrides={k: v for k, v in regulation.items() if k != "preset"},
        currency=typed(doc.get("currency", "USD"), str, "currency"),
        site=typed(doc.get("site", ""), str, "site"),
        lots_seed=typed(doc.get("lots_seed", ""), str, "lots_seed"),
        records=_records(doc),
    )


def _records(doc: Mapping[str, Any]) -> TournamentRecords:
    """The tournament records of the rating report (TRF16 032-132), each key optional."""
    deputies = typed(doc.get("deputy_arbiters", []), list, "deputy_arbiters")
    dates = typed(doc.get("round_dates", []), list, "round_dates")
    if len(deputies) > MAX_DEPUTY_ARBITERS or len(dates) > MAX_ROUNDS:
        raise Invalid(
            f"deputy_arbiters: at most {MAX_DEPUTY_ARBITERS}; round_dates: at most {MAX_ROUNDS}"
        )
    return TournamentRecords(
        federation=typed(doc.get("federation", ""), str, "federation"),
        end_date=date_of(doc.get("end_date"), "end_date"),
        tournament_type=typed(doc.get("tournament_type", ""), str, "tournament_type"),
        chief_arbiter=typed(doc.get("chief_arbiter", ""), str, "chief_arbiter"),
        deputy_arbiters=tuple(
            typed(name, str, f"deputy_arbiters[{i}]") for i, name in enumerate(deputies)
        ),
        rate_of_play=typed(doc.get("rate_of_play", ""), str, "rate_of_play"),
        round_dates=tuple(date_of(d, f"round_dates[{i}]") for i, d in enumerate(dates)),
    )


def positive(value: int, where: str) -> int:
    if value < 1:
        raise Invalid(f"{where}: must be at least 1, got {value}")
    return value


def _year(value: Any, where: str) -> int:
    year = int(typed(value, int, where))
    if not 1850 <= year <= 2100:
        raise Invalid(f"{where}: {year} is not a year of birth")
    return year


def _player(raw: Any, where: str, rounds: int) -> tuple[PlayerFields, int | None]:
    typed(raw, dict, where)
    unknown = set(raw) - set(PLAYER_KEYS)
    if unknown:
        raise Invalid(f"{where}.{sorted(unknown)[0]}: unknown key")
    sex = raw.get("sex", "") or ""
    choice(sex, ["", "m", "w"], f"{where}.sex")
    previous = raw.get("previous_rank")
    withdrawn = raw.get("withdrawn_after_round")
    born = raw.get("birth_year")
    listed = raw.get("k_listed")
    fields = PlayerFields(
        where=where,
        start_no=start_no_check(require(raw, "start_no", int, f"{where}."), f"{where}.start_no"),
        name=require(raw, "name", str, f"{where}."),
        federation=typed(raw.get("federation", ""), str, f"{where}.federation"),
        rating=typed(raw.get("rating", 0) or 0, int, f"{where}.rating"),
        fide_id=str(typed(raw.get("fide_id", "") or "", (str, int), f"{where}.fide_id")),
        title=typed(raw.get("title", "") or "", str, f"{where}.title"),
        sex=sex,
        birth_date=date_of(raw.get("birth_date"), f"{where}.birth_date"),
        birth_year=None if born is None else _year(born, f"{where}.birth_year"),
        previous_rank=None if previous is None else typed(previous, int, f"{where}.previous_rank"),
        k_listed=None if listed is None else typed(listed, int, f"{where}.k_listed"),
    )
    if withdrawn is not None:
        round_number(withdrawn, rounds, f"{where}.withdrawn_after_round", first=0)
    return fields, withdrawn


def _rounds_from(
    doc: Mapping[str, Any], rounds: int
) -> dict[int, tuple[list[PairingInput], list[ByeInput]]]:
    by_round: dict[int, tuple[list[PairingInput], list[ByeInput]]] = {}
    for i, raw in enumerate(typed(doc.get("games", []), list, "games")):
        where = f"games[{i}]"
        typed(raw, dict, where)
        number = round_number(require(raw, "round", int, f"{where}."), rounds, f"{where}.round")
        result = raw.get("result") or ""
        choice(result, ["", *Result.values], f"{where}.result")
        time_control = raw.get("time_control") or ""
        choice(time_control, ["", "classical", "rapid", "blitz"], f"{where}.time_control")
        games, _ = by_round.setdefault(number, ([], []))
        board = raw.get("board", len(games) + 1)
        games.append(
            PairingInput(
                board=positive(typed(board, int, f"{where}.board"), f"{where}.board"),
                white=require(raw, "white", int, f"{where}."),
                black=require(raw, "black", int, f"{where}."),
                result=result,
                time_control=time_control,
                colourless=flag(raw.get("colourless", False), f"{where}.colourless"),
            )
        )
    for i, raw in enumerate(typed(doc.get("byes", []), list, "byes")):
        where = f"byes[{i}]"
        typed(raw, dict, where)
        number = round_number(require(raw, "round", int, f"{where}."), rounds, f"{where}.round")
        kind = choice(require(raw, "kind", str, f"{where}."), ByeKind.values, f"{where}.kind")
        by_round.setdefault(number, ([], []))[1].append(
            ByeInput(start_no=require(raw, "start_no", int, f"{where}."), kind=kind)
        )
    return by_round


def round_number(value: Any, rounds: int, where: str, *, first: int = 1) -> int:
    """A round of the event (``first`` 0: "after round 0", before the first), else refused:
    a number past the event must never reach a loop or a column bounded by it."""
    number = typed(value, int, where)
    if not first <= number <= rounds:
        raise Invalid(f"{where}: {number} is outside {first}–{rounds}")
    return number


@dataclass(frozen=True)
class ImportContext:
    """What a section's import may need besides the document: the event's start numbers and
    who imports (for audit entries)."""

    start_nos: frozenset[int]
    user: UserLike


@dataclass(frozen=True)
class Section:
    """Keys of the exchange format owned by an app above the foundation (prizes, playoffs, a
    format). ``order`` places the keys in the document and the import in sequence; ``export``
    returns the section's keys (an empty dict: the event has none); ``load`` validates and
    writes them, raising :class:`Invalid` naming the key at fault."""

    code: str
    order: int
    export: Callable[[Event], dict[str, Any]]
    load: Callable[[Mapping[str, Any], Event, ImportContext], None]


SECTIONS: Registry[Section] = Registry("exchange section")


def section_register(section: Section) -> Section:
    return SECTIONS.register(section.code, section)


def _sections() -> list[Section]:
    return sorted(SECTIONS.values(), key=lambda section: section.order)


@transaction.atomic
@refuse_unstorable_values(Invalid)
def event_import_document(*, text: str, user: UserLike, slug: str = "") -> Event:
    """Create an event from the JSON exchange format. All or nothing."""
    doc = parse_document(text)
    fields = _event_fields(doc)
    players_raw = typed(doc.get("players", []), list, "players")
    event_size_check(players=len(players_raw), rounds=fields.rounds)  # before reading them
    players = [_player(raw, f"players[{i}]", fields.rounds) for i, raw in enumerate(players_raw)]
    start_nos = [p.start_no for p, _ in players]
    duplicates = [n for n, times in Counter(start_nos).items() if times > 1]
    if duplicates:
        raise Invalid(f"players: start number {min(duplicates)} is used twice")
    rounds = _rounds_from(doc, fields.rounds)
    try:
        event = event_create(fields=fields, director=user, slug=slug or doc.get("slug", ""))
        players_register_many(
            event=event, players=[p for p, _ in players], user=user, confirm_duplicates=True
        )
        event_rounds_load(event=event, rounds=rounds)
    except ImportFailed:
        raise
    except UserError as exc:
        raise Invalid(str(exc)) from exc
    for fields_, withdrawn in players:
        if withdrawn is not None:
            Player.objects.filter(event=event, start_no=fields_.start_no).update(
                withdrawn_after_round=withdrawn
            )
    context = ImportContext(frozenset(n for n in start_nos if n is not None), user)
    for section in _sections():
        section.load(doc, event, context)
    return event


def decimal_text(amount: Decimal) -> str:
    """An amount as the exchange format writes it: exact, no exponent, no trailing zeros."""
    return format(amount.normalize(), "f")


def _player_record(p: Player) -> dict[str, Any]:
    """A player as the document keeps them; the extensions only when set."""
    record: dict[str, Any] = {
        "start_no": p.start_no,
        "name": p.name,
        "federation": p.federation,
        "rating": p.rating,
        "fide_id": p.fide_id,
        "title": p.title,
        "sex": p.sex,
        "birth_date": p.birth_date.isoformat() if p.birth_date else None,
    }
    if p.birth_date is None and p.birth_year is not None:
        record["birth_year"] = p.birth_year  # only the year is known (a rating list's)
    if p.previous_rank is not None:
        record["previous_rank"] = p.previous_rank
    if p.k_listed is not None:
        record["k_listed"] = p.k_listed  # the rating list's K (B.02 8.3.3)
    if p.withdrawn_after_round is not None:
        record["withdrawn_after_round"] = p.withdrawn_after_round
    return record


def event_export_document(event: Event) -> dict[str, Any]:
    """The event as a JSON exchange document (a dict; ``json.dumps`` it)."""
    regulation = {"preset": event.regulation.preset, **event.regulation.overrides}
    players = [_player_record(p) for p in Player.objects.filter(event=event).order_by("start_no")]
    games = []
    for g in (
        Game.objects.filter(round__event=event)
        .select_related("round", "white", "black")
        .order_by("round__number", "board")
    ):
        game: dict[str, Any] = {
            "round": g.round.number,
            "board": g.board,
            "white": g.white.start_no,
            "black": g.black.start_no,
            "result": g.result or None,
        }
        if g.time_control:
            game["time_control"] = g.time_control
        if g.colourless:
            game["colourless"] = True
        games.append(game)
    byes = [
        {"round": b.round.number, "start_no": b.player.start_no, "kind": b.kind}
        for b in Bye.objects.filter(round__event=event)
        .select_related("round", "player")
        .order_by("round__number", "player__start_no")
    ]
    document: dict[str, Any] = {
        "format": FORMAT,
        "name": event.name,
        "slug": event.slug,
        "start_date": event.start_date.isoformat() if event.start_date else None,
        "system": event.system,
        "time_control": event.time_control,
        "rounds": event.rounds,
        "regulation": regulation,
        "currency": event.currency,
        "lots_seed": event.lots_seed,
        "players": players,
        "games": games,
        "byes": byes,
    }
    for section in _sections():
        document.update(section.export(event))
    return document


def _site_export(event: Event) -> dict[str, Any]:
    """``site`` (the city) and the tournament records of the rating report, each only when
    set (an event without them exports as before they existed)."""
    exported: dict[str, Any] = {"site": event.site} if event.site else {}
    for key, value in records_values(records_of(event)).items():
        if value:
            exported[key] = value.isoformat() if isinstance(value, dt.date) else value
    return exported


def _site_load(doc: Mapping[str, Any], event: Event, context: ImportContext) -> None:
    """``site`` and the records are read with the event's own fields; they are a section only
    to keep their place in the document (after the prizes and playoff games, before the
    formats' keys)."""


section_register(Section("site", 25, _site_export, _site_load))


def _closed_export(event: Event) -> dict[str, Any]:
    return {"closed": True} if event.status == EventStatus.FINISHED else {}


def _closed_load(doc: Mapping[str, Any], event: Event, context: ImportContext) -> None:
    """``closed``: the director closed the event (its standings are final). Loaded last, once
    everything else of the event is in place."""
    closed = doc.get("closed", False)
    if not isinstance(closed, bool):
        raise Invalid(f"closed: expected true or false, got {json.dumps(closed)[:40]}")
    if closed:
        Event.objects.filter(pk=event.pk).update(status=EventStatus.FINISHED)
        event.status = EventStatus.FINISHED


section_register(Section("closed", 90, _closed_export, _closed_load))
