"""The exchange format's ``swiss`` key (issue 14): what the director decided around the Dutch
engine, so that an export → import gives the same Swiss event, pairable the same way.

``{"swiss": {"initial_colour": "w" | "b" | "", "acceleration": "" | "baku" | "table",
"acceleration_table": {start_no: [points of round 1, 2, ...]} (with "table" alone: an
imported TRF's XXA points, exact fractions as text), "pairing_order": [start_no, ...] or
null, "bye_requests": [{"start_no", "round", "kind", "note"}] (kind "half", "zero", or "full"
from an imported TRF), "forbidden_pairs": [{"first", "second", "reason", "until_round"}],
"rounds": [{"round", "published", "source", "boards": [[white, black], ...], "bye", "notes",
"reasons", "initial_colour", "pairing_numbers", "outdated_by"}]}}``: ``rounds`` are the
engine's records of the rounds it paired (the games themselves are ordinary ``games`` rows;
``outdated_by``: earlier results changed since, "round.board" -> the result it was paired
from). Exported only for an event that has any of it.
A section of :mod:`events.exchange`, registered when the app starts.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from typing import Any

from draws.models import ByeRequest, ForbiddenPair, SwissRound, SwissSetup
from events.exchange import (
    ImportContext,
    Invalid,
    Section,
    choice,
    require,
    round_number,
    section_register,
    typed,
)
from events.models import Event, Player, Result, Round
from events.numbers import as_fraction


def swiss_export(event: Event) -> dict[str, Any]:
    setup = SwissSetup.objects.filter(event=event).first()
    requests = ByeRequest.objects.filter(player__event=event).select_related("player")
    pairs = ForbiddenPair.objects.filter(event=event).select_related("first", "second")
    rounds = SwissRound.objects.filter(round__event=event).select_related("round")
    if setup is None and not (requests.exists() or pairs.exists() or rounds.exists()):
        return {}
    return {
        "swiss": {
            **_setup_export(setup),
            "bye_requests": [
                {"start_no": r.player.start_no, "round": r.round, "kind": r.kind, "note": r.note}
                for r in requests.order_by("round", "player__start_no")
            ],
            "forbidden_pairs": [
                {
                    "first": p.first.start_no,
                    "second": p.second.start_no,
                    "reason": p.reason,
                    "until_round": p.until_round,
                }
                for p in pairs.order_by("first__start_no", "second__start_no")
            ],
            "rounds": [_round_export(r) for r in rounds.order_by("round__number")],
        }
    }


def _setup_export(setup: SwissSetup | None) -> dict[str, Any]:
    """The director's settings; an imported TRF's acceleration table only when there is one."""
    if setup is None:
        return {"initial_colour": "", "acceleration": "", "pairing_order": None}
    table = {"acceleration_table": setup.acceleration_table} if setup.acceleration_table else {}
    return {
        "initial_colour": setup.initial_colour,
        "acceleration": setup.acceleration,
        **table,
        "pairing_order": setup.pairing_order,
    }


def _round_export(record: SwissRound) -> dict[str, Any]:
    exported = {
        "round": record.round.number,
        "published": record.round.published,
        "source": record.source,
        "boards": record.boards,
        "bye": record.bye,
        "notes": record.notes,
        "reasons": record.reasons,
        "initial_colour": record.initial_colour,
    }
    if record.pairing_numbers is not None:  # kept since pair --check uses them
        exported["pairing_numbers"] = record.pairing_numbers
    if record.outdated_by:  # results changed after the pairing (issue 29)
        exported["outdated_by"] = record.outdated_by
    return exported


def _players(event: Event) -> dict[int, Player]:
    return {p.start_no: p for p in Player.objects.filter(event=event)}


def _player(players: dict[int, Player], raw: Mapping[str, Any], key: str, where: str) -> Player:
    start_no = require(raw, key, int, f"{where}.")
    if start_no not in players:
        raise Invalid(f"{where}.{key}: there is no player with start number {start_no}")
    return players[start_no]


def _start_no(value: Any, players: dict[int, Player], where: str) -> int:
    start_no = typed(value, int, where)
    if start_no not in players:
        raise Invalid(f"{where}: there is no player with start number {start_no}")
    return start_no


def _pairing_order(value: Any, players: dict[int, Player], where: str) -> list[int] | None:
    """Start numbers in pairing-number order: each once, every one a player's."""
    if value is None:
        return None
    order = [
        _start_no(n, players, f"{where}[{i}]") for i, n in enumerate(typed(value, list, where))
    ]
    twice = [n for n, times in Counter(order).items() if times > 1]
    if twice:
        raise Invalid(f"{where}: start number {twice[0]} is listed twice")
    return order


POINTS_CHARS = 12  # a virtual score as text ("1/2", "1.5"): a TRF's XXA column has 4


def _acceleration_table(
    raw: Mapping[str, Any], acceleration: str, event: Event, players: dict[int, Player]
) -> dict[str, list[str]] | None:
    """With acceleration "table", the imported TRF's virtual points (as
    :mod:`draws.swiss.trf_import` keeps them): a player's start number -> at most one exact,
    non-negative number per round of the event, from round 1."""
    where = "swiss.acceleration_table"
    value = raw.get("acceleration_table")
    if acceleration != "table":
        if value is not None:
            raise Invalid(f'{where}: only with acceleration "table"')
        return None
    table: dict[str, list[str]] = {}
    for key, points in typed(value, dict, where).items():
        if not (key.isdigit() and len(key) <= 6 and int(key) in players):
            raise Invalid(f"{where}: {key[:20]!r} is not the start number of a player")
        table[str(int(key))] = _virtual_points(points, event.rounds, f"{where}.{key}")
    return table


def _virtual_points(points: Any, rounds: int, where: str) -> list[str]:
    """A player's virtual points, round 1 first: exact non-negative numbers as text."""
    if len(typed(points, list, where)) > rounds:
        raise Invalid(f"{where}: more values than the event's {rounds} rounds")
    for i, text in enumerate(points):
        exact = as_fraction(typed(text, str, f"{where}[{i}]")[: POINTS_CHARS + 1])
        if exact is None or exact < 0 or len(text) > POINTS_CHARS:
            raise Invalid(f"{where}[{i}]: {text[:20]!r} is not a number of points")
    return list(points)


def _setup_load(raw: Mapping[str, Any], event: Event, players: dict[int, Player]) -> None:
    acceleration = choice(raw.get("acceleration", ""), ["", "baku", "table"], "swiss.acceleration")
    SwissSetup.objects.create(
        event=event,
        initial_colour=choice(
            raw.get("initial_colour", ""), ["", "w", "b"], "swiss.initial_colour"
        ),
        acceleration=acceleration,
        acceleration_table=_acceleration_table(raw, acceleration, event, players),
        pairing_order=_pairing_order(raw.get("pairing_order"), players, "swiss.pairing_order"),
    )


def _requests_load(raw: Mapping[str, Any], event: Event, players: dict[int, Player]) -> None:
    seen: set[tuple[int, int]] = set()
    for i, item in enumerate(typed(raw.get("bye_requests", []), list, "swiss.bye_requests")):
        where = f"swiss.bye_requests[{i}]"
        typed(item, dict, where)
        player = _player(players, item, "start_no", where)
        number = round_number(
            require(item, "round", int, f"{where}."), event.rounds, f"{where}.round"
        )
        if (player.start_no, number) in seen:
            raise Invalid(f"{where}: {player} asks for a bye in round {number} twice")
        seen.add((player.start_no, number))
        ByeRequest.objects.create(
            player=player,
            round=number,
            kind=choice(item.get("kind"), ["half", "zero", "full"], f"{where}.kind"),
            note=typed(item.get("note", ""), str, f"{where}.note")[:200],
        )


def _pairs_load(raw: Mapping[str, Any], event: Event, players: dict[int, Player]) -> None:
    seen: set[frozenset[int]] = set()
    for i, item in enumerate(typed(raw.get("forbidden_pairs", []), list, "swiss.forbidden_pairs")):
        where = f"swiss.forbidden_pairs[{i}]"
        typed(item, dict, where)
        first, second = (
            _player(players, item, "first", where),
            _player(players, item, "second", where),
        )
        if first == second:
            raise Invalid(f"{where}: a forbidden pair needs two different players")
        if frozenset((first.start_no, second.start_no)) in seen:
            raise Invalid(f"{where}: {first} and {second} are listed twice")
        seen.add(frozenset((first.start_no, second.start_no)))
        until = item.get("until_round")
        ForbiddenPair.objects.create(
            event=event,
            first=min(first, second, key=lambda p: p.start_no),
            second=max(first, second, key=lambda p: p.start_no),
            reason=typed(item.get("reason", ""), str, f"{where}.reason")[:200],
            until_round=None
            if until is None
            else round_number(until, event.rounds, f"{where}.until_round"),
        )


def _texts(value: Any, where: str) -> list[str]:
    return [typed(text, str, f"{where}[{i}]") for i, text in enumerate(typed(value, list, where))]


def _boards(value: Any, players: dict[int, Player], where: str) -> list[list[int]]:
    boards = []
    for i, board in enumerate(typed(value, list, where)):
        if not isinstance(board, list) or len(board) != 2:
            raise Invalid(f"{where}[{i}]: expected [white, black]")
        boards.append([_start_no(n, players, f"{where}[{i}]") for n in board])
    return boards


def _reasons(value: Any, boards: int, where: str) -> dict[str, list[str]]:
    """Board number (as text) → the engine's reasons for it, as the review page shows them."""
    reasons = typed(value, dict, where)
    for board in reasons:
        if not (board.isdigit() and 1 <= int(board) <= boards):
            raise Invalid(f"{where}: {board!r} is not a board of the round (1–{boards})")
    return {board: _texts(texts, f"{where}.{board}") for board, texts in reasons.items()}


def _swiss_round(
    item: Mapping[str, Any], rnd: Round, players: dict[int, Player], where: str
) -> SwissRound:
    boards = _boards(item.get("boards", []), players, f"{where}.boards")
    bye = item.get("bye")
    return SwissRound(
        round=rnd,
        source=choice(item.get("source", "engine"), ["engine", "edited"], f"{where}.source"),
        boards=boards,
        bye=None if bye is None else _start_no(bye, players, f"{where}.bye"),
        notes=_texts(item.get("notes", []), f"{where}.notes"),
        reasons=_reasons(item.get("reasons", {}), len(boards), f"{where}.reasons"),
        initial_colour=choice(
            item.get("initial_colour", "w"), ["w", "b"], f"{where}.initial_colour"
        ),
        pairing_numbers=_pairing_order(
            item.get("pairing_numbers"), players, f"{where}.pairing_numbers"
        ),
        outdated_by=_outdated_by(item.get("outdated_by"), rnd.number, f"{where}.outdated_by"),
    )


ROUND_BOARD = re.compile(r"([0-9]{1,4})\.([0-9]{1,5})")  # digits bounded: int() of any


def _outdated_by(value: Any, number: int, where: str) -> dict[str, str] | None:
    """ "round.board" of an earlier round -> the result the round was paired from."""
    if value is None:
        return None
    changed = typed(value, dict, where)
    results = ["", *Result.values]
    for key, result in changed.items():
        found = ROUND_BOARD.fullmatch(key)
        if found is None or not 1 <= int(found[1]) < number or int(found[2]) < 1:
            raise Invalid(f'{where}: {key[:20]!r} is not "round.board" of an earlier round')
        choice(result, results, f"{where}.{key}")
    return dict(changed) or None


def _rounds_load(raw: Mapping[str, Any], event: Event, players: dict[int, Player]) -> None:
    rounds = {r.number: r for r in Round.objects.filter(event=event)}
    records: dict[int, SwissRound] = {}
    for i, item in enumerate(typed(raw.get("rounds", []), list, "swiss.rounds")):
        where = f"swiss.rounds[{i}]"
        typed(item, dict, where)
        number = require(item, "round", int, f"{where}.")
        if number not in rounds:
            raise Invalid(f"{where}.round: round {number} has no games or byes in the document")
        if number in records:
            raise Invalid(f"{where}.round: round {number} is listed twice")
        published = item.get("published", True)
        if not isinstance(published, bool):
            raise Invalid(f"{where}.published: expected true or false")
        Round.objects.filter(pk=rounds[number].pk).update(published=published)
        records[number] = _swiss_round(item, rounds[number], players, where)
    SwissRound.objects.bulk_create(records.values())


def swiss_load(doc: Mapping[str, Any], event: Event, context: ImportContext) -> None:
    raw = doc.get("swiss")
    if raw is None:
        return
    typed(raw, dict, "swiss")
    if event.system != "swiss":
        raise Invalid(f"swiss: only a Swiss event has Swiss settings, not a {event.system} event")
    players = _players(event)
    _setup_load(raw, event, players)
    _requests_load(raw, event, players)
    _pairs_load(raw, event, players)
    _rounds_load(raw, event, players)


def register() -> None:
    section_register(Section("swiss", 35, swiss_export, swiss_load))
