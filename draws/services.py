"""Writes for the drawing of lots (HackSoft style: ``noun_verb``, keyword-only, one transaction).

Each service locks the event row (so two directors cannot interleave a ceremony), validates
with the pure engine before writing anything, bumps the event's results version and records one
audit entry. A :class:`~events.errors.UserError` leaves the database unchanged.

Decisions (issue 4, "Drawing of lots"):

- A ceremony is either a computer draw, made in one go from a seed with
  :func:`draws.varma.computer_draw` (seed 001 clauses 1–5 fed by :class:`draws.lots.LotDrawer`),
  or a physical ceremony recorded entry by entry. The two are never mixed: a seeded draw that
  continued a hand-drawn one could not be re-run from its seed.
- The schedule is the Berger table (C.05 Annex 1) in the drawn pairing numbers. It fixes the
  number of rounds (n − 1, or n for an odd field; twice that in a double round robin), so
  :func:`schedule_create` sets ``event.rounds`` to it when the event said otherwise and records
  the change in the audit entry: the director's figure was an estimate made before the field
  was known, the table is the rule.
- The free round of an odd field is not stored as a bye: in a round robin it scores nothing and
  is not a game, so the player simply has no pairing that round (as the crosstable shows it).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone

from draws import selectors
from draws.lots import derived_seed, seed_hash
from draws.models import CeremonyMode, CeremonyStatus, DrawCeremony, DrawEntry
from draws.varma import LOT_PURPOSE as VARMA_LOT_PURPOSE
from draws.varma import (
    VarmaDraw,
    VarmaError,
    VarmaResult,
    apply_draw,
    ceremony_result,
    computer_draw,
    is_complete,
)
from events.errors import UserError
from events.models import Bye, Event, Game, Player, Round
from events.services import (
    PairingInput,
    UserLike,
    event_changed,
    event_require_open,
    round_pairings_set,
)

SEED_MAX_LENGTH = 200  # DrawCeremony.seed


def _event_locked(event: Event) -> Event:
    return Event.objects.select_for_update().get(pk=event.pk)


def _ceremony_locked(event: Event) -> DrawCeremony | None:
    return DrawCeremony.objects.select_for_update().filter(event=event).first()


def _entries_create(ceremony: DrawCeremony, draws: Sequence[VarmaDraw], event: Event) -> None:
    players = {player.start_no: player for player in Player.objects.filter(event=event)}
    DrawEntry.objects.bulk_create(
        DrawEntry(
            ceremony=ceremony,
            position=position,
            player=players[draw.start_no],
            envelope=draw.envelope,
            number=draw.number,
        )
        for position, draw in enumerate(draws, start=1)
    )


def _ceremony_complete(ceremony: DrawCeremony, result: VarmaResult) -> None:
    ceremony.status = CeremonyStatus.COMPLETE
    ceremony.warnings = [selectors.warning_record(warning) for warning in result.warnings]
    ceremony.completed_at = timezone.now()


def _ceremony_snapshot(ceremony: DrawCeremony) -> dict[str, Any]:
    return {
        "mode": ceremony.mode,
        "seed": ceremony.seed,
        "table": ceremony.table,
        "status": ceremony.status,
        "schedule_created": ceremony.schedule_created,
        "entries": [list(entry) for entry in selectors.ceremony_entries(ceremony)],
    }


def _check_seed(seed: str) -> None:
    if not seed.strip():
        raise UserError("the seed must not be empty")
    if len(seed) > SEED_MAX_LENGTH:
        raise UserError(f"the seed is longer than {SEED_MAX_LENGTH} characters")


@transaction.atomic
def draw_perform(*, event: Event, user: UserLike, seed: str | None = None) -> DrawCeremony:
    """Draw every player's pairing number by seeded lot (seed 001, clauses 1–5; design §3).

    ``seed`` defaults to the ceremony seed derived from the event's ``lots_seed``
    (:func:`draws.lots.derived_seed`), whose SHA-256 the public page shows before
    the draw; the seed itself is shown afterwards so anyone can re-run
    :func:`draws.varma.computer_draw` and compare.
    """
    event_require_open(event)
    event = _event_locked(event)
    existing = _ceremony_locked(event)
    if existing is not None:
        what = (
            "the lots have already been drawn"
            if existing.is_complete
            else ("a physical ceremony is being recorded")
        )
        raise UserError(f"{what} for this event; reset the drawing of lots first")
    seed = derived_seed(event.lots_seed, VARMA_LOT_PURPOSE) if seed is None else seed
    _check_seed(seed)
    try:
        result = computer_draw(selectors.draw_players(event), seed)
    except VarmaError as exc:
        raise UserError(str(exc)) from exc
    ceremony = DrawCeremony(event=event, mode=CeremonyMode.COMPUTER, seed=seed, table=result.table)
    _ceremony_complete(ceremony, result)
    ceremony.save()
    _entries_create(ceremony, result.order, event)
    event_changed(
        event=event,
        user=user,
        action="draw.perform",
        summary=f"Drew the lots by computer: {len(result.order)} players, table {result.table}, "
        f"{len(result.warnings)} warning(s), seed SHA-256 {seed_hash(seed)[:16]}…",
        after=_ceremony_snapshot(ceremony),
    )
    return ceremony


def _recorded_ceremony(event: Event) -> DrawCeremony | None:
    ceremony = _ceremony_locked(event)
    if ceremony is None:
        return None
    if ceremony.mode == CeremonyMode.COMPUTER:
        raise UserError(
            "the lots were drawn by computer; reset the drawing of lots to record a physical "
            "ceremony instead"
        )
    if ceremony.is_complete:
        raise UserError("every player has already drawn; the ceremony is complete")
    return ceremony


@transaction.atomic
def draw_entry_record(
    *, event: Event, start_no: int, envelope: str, number: int, user: UserLike
) -> DrawEntry:
    """Record one draw of a physical ceremony, validated against seed 001 clauses 2–4.

    The state is rebuilt from the stored entries and the new entry applied with
    :func:`draws.varma.apply_draw`; a refusal carries the engine's reason and writes nothing.
    """
    event_require_open(event)
    event = _event_locked(event)
    ceremony = _recorded_ceremony(event)
    state = selectors.ceremony_state(
        selectors.draw_players(event), selectors.ceremony_entries(ceremony)
    )
    envelope = envelope.strip().upper()
    try:
        state = apply_draw(state, start_no, envelope, number)
    except VarmaError as exc:
        raise UserError(str(exc)) from exc
    if ceremony is None:
        ceremony = DrawCeremony(event=event, mode=CeremonyMode.RECORDED, table=state.table)
    if is_complete(state):
        _ceremony_complete(ceremony, ceremony_result(state))
    ceremony.save()
    player = Player.objects.get(event=event, start_no=start_no)
    entry = DrawEntry.objects.create(
        ceremony=ceremony,
        position=len(state.draws),
        player=player,
        envelope=envelope,
        number=number,
    )
    done = " The ceremony is complete." if ceremony.is_complete else ""
    event_changed(
        event=event,
        user=user,
        action="draw.entry",
        summary=f"{player.name} (start no. {start_no}) drew number {number} from envelope "
        f"{envelope}.{done}",
        after={"start_no": start_no, "envelope": envelope, "number": number},
    )
    return entry


@transaction.atomic
def draw_reset(*, event: Event, user: UserLike) -> None:
    """Discard the drawing of lots, allowed until the schedule has been created from it.

    The audit entry keeps every discarded draw, so a reset never hides what was drawn.
    """
    event_require_open(event)
    event = _event_locked(event)
    ceremony = _ceremony_locked(event)
    if ceremony is None:
        raise UserError("there is no drawing of lots to reset")
    if ceremony.schedule_created:
        raise UserError(
            "the schedule has been created from this draw, so the draw can no longer be reset"
        )
    before = _ceremony_snapshot(ceremony)
    ceremony.delete()
    event_changed(
        event=event,
        user=user,
        action="draw.reset",
        summary=f"Reset the drawing of lots ({len(before['entries'])} draw(s) discarded)",
        before=before,
    )


def _schedulable_ceremony(event: Event) -> DrawCeremony:
    if not event.is_round_robin:
        raise UserError(
            f"only a round robin is scheduled from the Berger tables; this event is a "
            f"{event.get_system_display()}"
        )
    ceremony = _ceremony_locked(event)
    if ceremony is None or not ceremony.is_complete:
        raise UserError("the drawing of lots is not finished; every player must draw first")
    if (
        Game.objects.filter(round__event=event).exclude(result="").exists()
        or Bye.objects.filter(round__event=event).exists()
    ):
        raise UserError(
            "rounds of this event already have results or byes; the schedule can only be "
            "created before play starts"
        )
    return ceremony


def _pairing_players(event: Event, result: VarmaResult) -> dict[int, int]:
    """Pairing number → start number; refused when the field changed since the draw."""
    registered = set(Player.objects.filter(event=event).values_list("start_no", flat=True))
    problem = selectors.field_problem(registered, result)
    if problem:
        raise UserError(problem)
    return {draw.number: draw.start_no for draw in result.order}


@transaction.atomic
def schedule_create(*, event: Event, user: UserLike) -> int:
    """Create every round's games from the Berger table with the drawn pairing numbers.

    C.05 Annex 1 (single or double round robin per ``event.system``); board 1 is the table's
    first pairing. Existing rounds without results are replaced, rounds beyond the table are
    removed, and ``event.rounds`` is set to the table's length. Returns the number of rounds.
    """
    event_require_open(event)
    event = _event_locked(event)
    ceremony = _schedulable_ceremony(event)
    result = selectors.stored_result(ceremony)
    by_number = _pairing_players(event, result)
    rounds = selectors.draw_schedule(event, result)
    rounds_before = event.rounds
    if event.rounds != len(rounds):
        Event.objects.filter(pk=event.pk).update(rounds=len(rounds))
        event.rounds = len(rounds)
    Round.objects.filter(event=event, number__gt=len(rounds)).delete()  # no results (checked)
    for round_no, pairings in enumerate(rounds, start=1):
        round_pairings_set(
            event=event,
            round_no=round_no,
            pairings=[
                PairingInput(board, by_number[white], by_number[black])
                for board, (white, black) in enumerate(pairings, start=1)
            ],
            user=user,
            audit=False,
        )
    ceremony.schedule_created = True
    ceremony.save(update_fields=["schedule_created"])
    changed = f"; rounds {rounds_before} → {len(rounds)}" if rounds_before != len(rounds) else ""
    event_changed(
        event=event,
        user=user,
        action="draw.schedule",
        summary=f"Created the schedule from the drawing of lots: {len(rounds)} rounds, "
        f"{sum(len(rnd) for rnd in rounds)} games{changed}",
        before={"rounds": rounds_before},
        after={"rounds": len(rounds), "pairing_numbers": {str(n): s for n, s in by_number.items()}},
    )
    return len(rounds)
