"""The exchange format's ``swiss`` key (issue 14): what the director decided around the Dutch
engine, so that an export → import gives the same Swiss event, pairable the same way.

``{"swiss": {"initial_colour": "w" | "b" | "", "acceleration": "" | "baku",
"pairing_order": [start_no, ...] or null, "bye_requests": [{"start_no", "round", "kind",
"note"}], "forbidden_pairs": [{"first", "second", "reason", "until_round"}], "rounds":
[{"round", "published", "source", "boards": [[white, black], ...], "bye", "notes", "reasons",
"initial_colour"}]}}``: ``rounds`` are the engine's records of the rounds it paired (the
games themselves are ordinary ``games`` rows). Exported only for an event that has any of it.
A section of :mod:`events.exchange`, registered when the app starts.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from draws.models import ByeRequest, ForbiddenPair, SwissRound, SwissSetup
from events.exchange import (
    ImportContext,
    Invalid,
    Section,
    choice,
    positive,
    require,
    section_register,
    typed,
)
from events.models import Event, Player, Round


def swiss_export(event: Event) -> dict[str, Any]:
    setup = SwissSetup.objects.filter(event=event).first()
    requests = ByeRequest.objects.filter(player__event=event).select_related("player")
    pairs = ForbiddenPair.objects.filter(event=event).select_related("first", "second")
    rounds = SwissRound.objects.filter(round__event=event).select_related("round")
    if setup is None and not (requests.exists() or pairs.exists() or rounds.exists()):
        return {}
    return {
        "swiss": {
            "initial_colour": setup.initial_colour if setup else "",
            "acceleration": setup.acceleration if setup else "",
            "pairing_order": setup.pairing_order if setup else None,
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
            "rounds": [
                {
                    "round": r.round.number,
                    "published": r.round.published,
                    "source": r.source,
                    "boards": r.boards,
                    "bye": r.bye,
                    "notes": r.notes,
                    "reasons": r.reasons,
                    "initial_colour": r.initial_colour,
                }
                for r in rounds.order_by("round__number")
            ],
        }
    }


def _players(event: Event) -> dict[int, Player]:
    return {p.start_no: p for p in Player.objects.filter(event=event)}


def _player(players: dict[int, Player], raw: Mapping[str, Any], key: str, where: str) -> Player:
    start_no = require(raw, key, int, f"{where}.")
    if start_no not in players:
        raise Invalid(f"{where}.{key}: there is no player with start number {start_no}")
    return players[start_no]


def _setup_load(raw: Mapping[str, Any], event: Event) -> None:
    order = raw.get("pairing_order")
    if order is not None and (
        not isinstance(order, list) or not all(isinstance(n, int) for n in order)
    ):
        raise Invalid("swiss.pairing_order: expected start numbers")
    SwissSetup.objects.create(
        event=event,
        initial_colour=choice(
            raw.get("initial_colour", ""), ["", "w", "b"], "swiss.initial_colour"
        ),
        acceleration=choice(raw.get("acceleration", ""), ["", "baku"], "swiss.acceleration"),
        pairing_order=order,
    )


def _requests_load(raw: Mapping[str, Any], players: dict[int, Player]) -> None:
    for i, item in enumerate(typed(raw.get("bye_requests", []), list, "swiss.bye_requests")):
        where = f"swiss.bye_requests[{i}]"
        typed(item, dict, where)
        ByeRequest.objects.create(
            player=_player(players, item, "start_no", where),
            round=positive(require(item, "round", int, f"{where}."), f"{where}.round"),
            kind=choice(item.get("kind"), ["half", "zero"], f"{where}.kind"),
            note=typed(item.get("note", ""), str, f"{where}.note")[:200],
        )


def _pairs_load(raw: Mapping[str, Any], event: Event, players: dict[int, Player]) -> None:
    for i, item in enumerate(typed(raw.get("forbidden_pairs", []), list, "swiss.forbidden_pairs")):
        where = f"swiss.forbidden_pairs[{i}]"
        typed(item, dict, where)
        first, second = (
            _player(players, item, "first", where),
            _player(players, item, "second", where),
        )
        if first == second:
            raise Invalid(f"{where}: a forbidden pair needs two different players")
        until = item.get("until_round")
        ForbiddenPair.objects.create(
            event=event,
            first=min(first, second, key=lambda p: p.start_no),
            second=max(first, second, key=lambda p: p.start_no),
            reason=typed(item.get("reason", ""), str, f"{where}.reason")[:200],
            until_round=None if until is None else positive(typed(until, int, where), where),
        )


def _rounds_load(raw: Mapping[str, Any], event: Event) -> None:
    rounds = {r.number: r for r in Round.objects.filter(event=event)}
    for i, item in enumerate(typed(raw.get("rounds", []), list, "swiss.rounds")):
        where = f"swiss.rounds[{i}]"
        typed(item, dict, where)
        number = require(item, "round", int, f"{where}.")
        if number not in rounds:
            raise Invalid(f"{where}.round: round {number} has no games or byes in the document")
        published = item.get("published", True)
        if not isinstance(published, bool):
            raise Invalid(f"{where}.published: expected true or false")
        Round.objects.filter(pk=rounds[number].pk).update(published=published)
        SwissRound.objects.create(
            round=rounds[number],
            source=choice(item.get("source", "engine"), ["engine", "edited"], f"{where}.source"),
            boards=typed(item.get("boards", []), list, f"{where}.boards"),
            bye=item.get("bye"),
            notes=typed(item.get("notes", []), list, f"{where}.notes"),
            reasons=typed(item.get("reasons", {}), dict, f"{where}.reasons"),
            initial_colour=choice(item.get("initial_colour", "w"), ["w", "b"], where),
        )


def swiss_load(doc: Mapping[str, Any], event: Event, context: ImportContext) -> None:
    raw = doc.get("swiss")
    if raw is None:
        return
    typed(raw, dict, "swiss")
    if event.system != "swiss":
        raise Invalid(f"swiss: only a Swiss event has Swiss settings, not a {event.system} event")
    players = _players(event)
    _setup_load(raw, event)
    _requests_load(raw, players)
    _pairs_load(raw, event, players)
    _rounds_load(raw, event)


def register() -> None:
    section_register(Section("swiss", 35, swiss_export, swiss_load))
