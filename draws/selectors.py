"""Reads for the drawing of lots: stored ceremony → engine records → page and command records.

Every read costs a fixed number of queries (players, ceremony, entries) whatever the field size;
the rest is done on plain records by the pure engines (:mod:`draws.varma`, :mod:`draws.berger`).

Two ways back from the database to the engine:

- :func:`ceremony_state` *replays* the stored entries through :func:`draws.varma.apply_draw`.
  It is what an open ceremony needs (whose turn, which envelopes) and what the services use to
  validate the next entry (seed 001, clauses 2–4).
- :func:`stored_result` *reads* a complete ceremony as it was recorded, without re-validating:
  the record is the record, even if a federation was corrected afterwards.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from draws.berger import Round as BergerRound
from draws.lots import derived_seed, seed_hash
from draws.models import CeremonyMode, DrawCeremony, DrawEntry
from draws.varma import LOT_PURPOSE as VARMA_LOT_PURPOSE
from draws.varma import (
    VarmaCeremony,
    VarmaDraw,
    VarmaError,
    VarmaPlayer,
    VarmaResult,
    VarmaWarning,
    allowed_envelopes,
    apply_draw,
    next_drawer,
    prepare_ceremony,
    remaining_numbers,
    schedule,
)
from events.errors import UserError
from events.models import Bye, Event, EventSystem, Game, Player

Entry = tuple[int, str, int]  # (start_no, envelope, number), as draws.varma.recorded_draw takes


def draw_players(event: Event) -> list[VarmaPlayer]:
    """The registered players as engine records, by start number (one query)."""
    rows = Player.objects.filter(event=event).order_by("start_no")
    return [
        VarmaPlayer(start_no, name, federation)
        for start_no, name, federation in rows.values_list("start_no", "name", "federation")
    ]


def ceremony_get(event: Event) -> DrawCeremony | None:
    return DrawCeremony.objects.filter(event=event).first()


def ceremony_entries(ceremony: DrawCeremony | None) -> list[Entry]:
    """The stored draws in drawing order."""
    if ceremony is None:
        return []
    rows = DrawEntry.objects.filter(ceremony=ceremony).order_by("position")
    return list(rows.values_list("player__start_no", "envelope", "number"))


def ceremony_state(players: Sequence[VarmaPlayer], entries: Sequence[Entry]) -> VarmaCeremony:
    """The ceremony's state, rebuilt by replaying the stored entries (seed 001, clauses 1–4).

    Raises :class:`UserError` when no ceremony can be held for this field (fewer than two
    players) or when the stored entries no longer fit it: players were registered, removed or
    moved to another federation after the ceremony began, so the drawing order has changed.
    """
    try:
        state = prepare_ceremony(players)
    except VarmaError as exc:
        raise UserError(str(exc)) from exc
    for start_no, envelope, number in entries:
        try:
            state = apply_draw(state, start_no, envelope, number)
        except VarmaError as exc:
            raise UserError(
                f"the field has changed since the ceremony began ({exc}); reset the drawing of "
                "lots and start again"
            ) from exc
    return state


def warning_record(warning: VarmaWarning) -> dict[str, Any]:
    """A warning as stored in the ceremony and printed by ``varma_draw``."""
    return {
        "round": warning.round,
        "federation": warning.federation,
        "start_nos": list(warning.start_nos),
        "numbers": list(warning.numbers),
        "message": warning.message,
    }


def _warning_from_record(record: dict[str, Any]) -> VarmaWarning:
    return VarmaWarning(
        round=record["round"],
        federation=record["federation"],
        start_nos=(record["start_nos"][0], record["start_nos"][1]),
        numbers=(record["numbers"][0], record["numbers"][1]),
        message=record["message"],
    )


def stored_result(ceremony: DrawCeremony) -> VarmaResult:
    """A complete ceremony as recorded: the draws in order and the stored warnings."""
    rows = DrawEntry.objects.filter(ceremony=ceremony).order_by("position")
    order = tuple(
        VarmaDraw(start_no, federation, envelope, number)
        for start_no, federation, envelope, number in rows.values_list(
            "player__start_no", "player__federation", "envelope", "number"
        )
    )
    warnings = tuple(_warning_from_record(record) for record in ceremony.warnings)
    return VarmaResult(ceremony.table, order, warnings)


def is_double(event: Event) -> bool:
    return event.system == EventSystem.DOUBLE_ROUND_ROBIN


def draw_schedule(event: Event, result: VarmaResult) -> tuple[BergerRound, ...]:
    """The Berger rounds in pairing numbers, single or double per the event's system."""
    return schedule(result, result.players_count, double=is_double(event))


def draw_document(event: Event, ceremony: DrawCeremony) -> dict[str, Any]:
    """The ``varma_draw`` JSON (design brief §4), plus "warnings"."""
    result = stored_result(ceremony)
    return {
        "event": event.slug,
        "seed": ceremony.seed,
        "table": result.table,
        "order": [
            {
                "start_no": draw.start_no,
                "federation": draw.federation,
                "envelope": draw.envelope,
                "number": draw.number,
            }
            for draw in result.order
        ],
        "rounds": [
            [[white, black] for white, black in rnd] for rnd in draw_schedule(event, result)
        ],
        "warnings": [warning_record(warning) for warning in result.warnings],
    }


def event_has_pairings(event: Event) -> bool:
    """Whether any round of the event has a game or a bye."""
    return (
        Game.objects.filter(round__event=event).exists()
        or Bye.objects.filter(round__event=event).exists()
    )


# --- the ceremony page and the public page ---------------------------------------------------


@dataclass(frozen=True)
class EnvelopeContents:
    label: str
    prepared: tuple[int, ...]  # as put in the envelope (the free round already taken out)
    remaining: tuple[int, ...]
    allowed: bool  # the next drawer may draw from it


@dataclass(frozen=True)
class OrderRow:
    """A player in drawing order, with their draw once made."""

    position: int
    start_no: int
    name: str
    federation: str
    envelope: str = ""
    number: int | None = None


@dataclass(frozen=True)
class ScheduledGame:
    board: int
    white_number: int
    white: OrderRow
    black_number: int
    black: OrderRow


@dataclass(frozen=True)
class ScheduledRound:
    number: int
    games: tuple[ScheduledGame, ...]
    free: OrderRow | None  # the player with the free round of an odd field


@dataclass(frozen=True)
class DrawBoard:
    """Everything the ceremony page and the public page show, from three queries."""

    event: Event
    ceremony: DrawCeremony | None
    problem: str  # why the ceremony cannot go on as stored ("" when it can)
    table: str
    order: tuple[OrderRow, ...]
    envelopes: tuple[EnvelopeContents, ...]
    next_drawer: OrderRow | None
    warnings: tuple[str, ...]
    rounds: tuple[ScheduledRound, ...]
    seed_hash: str  # of the seed a computer draw uses (published before the ceremony)
    seed: str  # revealed once a computer draw is complete, else ""

    @property
    def started(self) -> bool:
        return self.ceremony is not None

    @property
    def table_label(self) -> str:
        """FIDE names a Varma table by its field sizes ("9/10"); a page says "9–10 players"
        so that nobody reads a fraction (issue 20). The JSON keeps FIDE's name."""
        return self.table.replace("/", "–") + " players"

    @property
    def complete(self) -> bool:
        return self.ceremony is not None and self.ceremony.is_complete

    @property
    def recorded(self) -> bool:
        return self.ceremony is not None and self.ceremony.mode == CeremonyMode.RECORDED

    @property
    def can_schedule(self) -> bool:
        return self.complete and self.event.is_round_robin and not self.problem

    @property
    def schedule_created(self) -> bool:
        return self.ceremony is not None and self.ceremony.schedule_created


def _order_rows(state: VarmaCeremony, names: dict[int, str]) -> tuple[OrderRow, ...]:
    drawn = {draw.start_no: draw for draw in state.draws}
    rows = []
    for position, player in enumerate(state.order, start=1):
        draw = drawn.get(player.start_no)
        rows.append(
            OrderRow(
                position,
                player.start_no,
                names[player.start_no],
                player.federation,
                draw.envelope if draw else "",
                draw.number if draw else None,
            )
        )
    return tuple(rows)


def _envelope_views(state: VarmaCeremony) -> tuple[EnvelopeContents, ...]:
    allowed = set(allowed_envelopes(state))
    return tuple(
        EnvelopeContents(
            envelope.label,
            envelope.numbers,
            remaining_numbers(state, envelope.label),
            envelope.label in allowed,
        )
        for envelope in state.envelopes
    )


def _stored_rows(result: VarmaResult, names: dict[int, str]) -> tuple[OrderRow, ...]:
    return tuple(
        OrderRow(
            position,
            draw.start_no,
            names.get(draw.start_no, "?"),
            draw.federation,
            draw.envelope,
            draw.number,
        )
        for position, draw in enumerate(result.order, start=1)
    )


def _scheduled_rounds(
    event: Event, result: VarmaResult, rows: Sequence[OrderRow]
) -> tuple[ScheduledRound, ...]:
    by_number = {row.number: row for row in rows if row.number is not None}
    rounds = []
    for round_no, pairings in enumerate(draw_schedule(event, result), start=1):
        games = tuple(
            ScheduledGame(board, white, by_number[white], black, by_number[black])
            for board, (white, black) in enumerate(pairings, start=1)
        )
        playing = {number for pairing in pairings for number in pairing}
        free = [row for number, row in sorted(by_number.items()) if number not in playing]
        rounds.append(ScheduledRound(round_no, games, free[0] if free else None))
    return tuple(rounds)


def _seed_shown(event: Event, ceremony: DrawCeremony | None) -> tuple[str, str]:
    """(hash, seed): the hash before a computer draw, the seed itself after (design §3)."""
    if ceremony is None:
        return seed_hash(derived_seed(event.lots_seed, VARMA_LOT_PURPOSE)), ""
    if ceremony.mode == CeremonyMode.COMPUTER:
        return seed_hash(ceremony.seed), ceremony.seed if ceremony.is_complete else ""
    return "", ""  # a physical ceremony draws nothing by lot


def draw_board(event: Event) -> DrawBoard:
    """The drawing of lots of an event, for the pages (players, ceremony, entries: 3 queries)."""
    players = draw_players(event)
    names = {player.start_no: player.name for player in players}
    ceremony = ceremony_get(event)
    hash_shown, seed_shown = _seed_shown(event, ceremony)
    base: dict[str, Any] = {
        "event": event,
        "ceremony": ceremony,
        "problem": "",
        "table": "",
        "order": (),
        "envelopes": (),
        "next_drawer": None,
        "warnings": (),
        "rounds": (),
        "seed_hash": hash_shown,
        "seed": seed_shown,
    }
    if ceremony is not None and ceremony.is_complete:
        result = stored_result(ceremony)
        rows = _stored_rows(result, names)
        base.update(
            table=result.table,
            order=rows,
            warnings=tuple(warning.message for warning in result.warnings),
            rounds=_scheduled_rounds(event, result, rows),
            problem=field_problem({player.start_no for player in players}, result),
        )
        return DrawBoard(**base)
    try:
        state = ceremony_state(players, ceremony_entries(ceremony))
    except UserError as exc:
        return DrawBoard(**{**base, "problem": str(exc)})
    rows = _order_rows(state, names)
    upcoming = next_drawer(state)
    base.update(
        table=state.table,
        order=rows,
        envelopes=_envelope_views(state),
        next_drawer=next(
            (row for row in rows if upcoming and row.start_no == upcoming.start_no), None
        ),
    )
    return DrawBoard(**base)


def field_problem(registered: set[int], result: VarmaResult) -> str:
    """Why a complete draw no longer matches the registered start numbers ("" when it does)."""
    drawn = {draw.start_no for draw in result.order}
    if registered == drawn:
        return ""
    return (
        f"the field has changed since the draw ({len(drawn)} players drew, {len(registered)} "
        "are registered now); reset the drawing of lots and draw again"
    )
