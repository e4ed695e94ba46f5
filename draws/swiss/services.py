"""Writes for Swiss pairing (issue 14; HackSoft style: ``noun_verb``, keyword-only, one
transaction each, ending with :func:`events.services.event_changed`).

The round workflow: :func:`swiss_round_pair` runs the Dutch engine (:mod:`draws.swiss.pairing`) and
stores its pairing as an unpublished round with the engine's explanation; the director reviews
it, may change it by hand (:func:`swiss_round_edit`: every change is checked against the rules
and needs a confirmation when it breaks one or departs from the Dutch pairing), then publishes
it (:func:`swiss_round_publish`) for the players and the public pages. A round without results
can be re-paired, unpublished or discarded; once it has a result it cannot.

Around the rounds: the event's Swiss settings, requested byes, forbidden pairs, withdrawals,
late entries (C.04.2 "Late entries": no points for the rounds missed unless the director grants
half-point byes) and closing the list of participants (pairing numbers become definitive).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from draws.models import (
    DIRECTOR_BYES,
    Acceleration,
    ByeRequest,
    ForbiddenPair,
    InitialColour,
    PairingSource,
    RequestedBye,
    SwissRound,
    SwissSetup,
)
from draws.swiss import selectors
from draws.swiss.pairing import Difference, Pairing, PairingImpossible, check_round, pair_round
from events.errors import UserError
from events.models import Bye, ByeKind, Event, EventStatus, Game, Player, Round, RoundSlot
from events.services import (
    ByeInput,
    PairingInput,
    PlayerFields,
    UserLike,
    event_changed,
    event_require_open,
    player_never_played,
    player_register,
    round_pairings_set,
)

Boards = list[tuple[int, int]]


class NeedsConfirmation(UserError):
    """A manual change that breaks a rule or departs from the Dutch pairing: the director may
    make it, but only after seeing why and confirming. ``differences`` are the checker's."""

    def __init__(self, message: str, differences: Sequence[Difference]) -> None:
        super().__init__(message)
        self.differences = tuple(differences)


def _event_locked(event: Event) -> Event:
    return Event.objects.select_for_update().get(pk=event.pk)


def _player(event: Event, start_no: int) -> Player:
    found = Player.objects.filter(event=event, start_no=start_no).first()
    if found is None:
        raise UserError(f"there is no player with start number {start_no}")
    return found


def _swiss_only(event: Event) -> None:
    if not selectors.is_swiss(event):
        raise UserError("only a Swiss event is paired by the Dutch system")


def _has_results(event: Event, round_no: int) -> bool:
    return (
        Game.objects.filter(round__event=event, round__number=round_no).exclude(result="").exists()
    )


# -- settings ---------------------------------------------------------------------------------


@transaction.atomic
def swiss_setup_set(
    *, event: Event, initial_colour: str, acceleration: str, user: UserLike
) -> SwissSetup:
    """The initial colour ("" by lot, "w", "b") and the acceleration ("" or "baku"). Both shape
    every round from the first, so they are fixed once round 1 has been paired."""
    event_require_open(event)
    event = _event_locked(event)
    _swiss_only(event)
    if initial_colour not in InitialColour.values:
        raise UserError(f"initial colour {initial_colour!r}: choose white, black or by lot")
    if acceleration not in (Acceleration.NONE, Acceleration.BAKU):
        raise UserError(f"acceleration {acceleration!r}: choose none or baku")
    setup = selectors.setup_of(event)
    before = {"initial_colour": setup.initial_colour, "acceleration": setup.acceleration}
    after = {"initial_colour": initial_colour, "acceleration": acceleration}
    if before == after:
        return setup
    if selectors.paired_rounds(event):
        raise UserError(
            "round 1 has been paired, so the initial colour and the acceleration are fixed "
            "(they decide every round from the first)"
        )
    setup.initial_colour, setup.acceleration = initial_colour, acceleration
    setup.save()
    event_changed(
        event=event,
        user=user,
        action="swiss.setup",
        summary="Swiss settings: initial colour "
        f"{InitialColour(initial_colour).label.lower()}, acceleration "
        f"{Acceleration(acceleration).label.lower()}",
        before=before,
        after=after,
    )
    return setup


@transaction.atomic
def participants_close(*, event: Event, user: UserLike) -> list[int]:
    """Close the list of participants: the pairing numbers become definitive (C.04.2 "Late
    entries"); a later entry takes the next number."""
    event_require_open(event)
    event = _event_locked(event)
    _swiss_only(event)
    setup = selectors.setup_of(event)
    if setup.pairing_order is not None:
        raise UserError("the list of participants is already closed")
    order = selectors.pairing_numbers(event, setup)
    setup.pairing_order = order
    setup.save()
    event_changed(
        event=event,
        user=user,
        action="swiss.close_list",
        summary=f"Closed the list of participants: {len(order)} pairing numbers are definitive",
        after={"pairing_order": order},
    )
    return order


# -- requested byes, forbidden pairs, withdrawals, late entries -------------------------------


@transaction.atomic
def bye_request_record(
    *, event: Event, start_no: int, round_no: int, kind: str, user: UserLike, note: str = ""
) -> ByeRequest:
    """A requested half- or zero-point bye for a round not paired yet (C.04.2)."""
    event_require_open(event)
    event = _event_locked(event)
    _swiss_only(event)
    player = _player(event, start_no)
    if kind not in DIRECTOR_BYES:
        raise UserError(f"bye kind {kind!r}: choose a half-point or a zero-point bye")
    if not 1 <= round_no <= event.rounds:
        raise UserError(f"round {round_no} is outside 1–{event.rounds}")
    if round_no in selectors.paired_rounds(event):
        raise UserError(
            f"round {round_no} is already paired: discard its pairing first, then record the "
            "bye and pair the round again"
        )
    if player.withdrawn_after_round is not None and player.withdrawn_after_round < round_no:
        raise UserError(f"{player} has withdrawn and is not paired in round {round_no} anyway")
    if ByeRequest.objects.filter(player=player, round=round_no).exists():
        raise UserError(f"{player} has already asked for a bye in round {round_no}")
    request = ByeRequest.objects.create(player=player, round=round_no, kind=kind, note=note[:200])
    event_changed(
        event=event,
        user=user,
        action="swiss.bye_request",
        summary=f"{player} asks for a {RequestedBye(kind).label.lower()} in round {round_no}",
        after={"start_no": start_no, "round": round_no, "kind": kind},
    )
    return request


@transaction.atomic
def bye_request_cancel(*, event: Event, request_id: int, user: UserLike) -> None:
    event_require_open(event)
    event = _event_locked(event)
    request = (
        ByeRequest.objects.filter(pk=request_id, player__event=event)
        .select_related("player")
        .first()
    )
    if request is None:
        raise UserError("that bye request does not exist")
    if request.round in selectors.paired_rounds(event):
        raise UserError(f"round {request.round} is already paired with this bye")
    before = {"start_no": request.player.start_no, "round": request.round, "kind": request.kind}
    request.delete()
    event_changed(
        event=event,
        user=user,
        action="swiss.bye_request_cancel",
        summary=f"Cancelled {request.player}'s bye in round {request.round}",
        before=before,
    )


@transaction.atomic
def forbidden_pair_add(
    *,
    event: Event,
    first: int,
    second: int,
    user: UserLike,
    reason: str = "",
    until_round: int | None = None,
) -> ForbiddenPair:
    """Two players who must not meet, in every round or up to ``until_round``."""
    event_require_open(event)
    event = _event_locked(event)
    _swiss_only(event)
    if first == second:
        raise UserError("a forbidden pair needs two different players")
    low, high = sorted((_player(event, first), _player(event, second)), key=lambda p: p.start_no)
    if until_round is not None and not 1 <= until_round <= event.rounds:
        raise UserError(f"until round {until_round}: the event has rounds 1–{event.rounds}")
    if ForbiddenPair.objects.filter(first=low, second=high).exists():
        raise UserError(f"{low} and {high} are already a forbidden pair")
    pair = ForbiddenPair.objects.create(
        event=event, first=low, second=high, reason=reason[:200], until_round=until_round
    )
    rounds = "every round" if until_round is None else f"rounds 1–{until_round}"
    event_changed(
        event=event,
        user=user,
        action="swiss.forbidden_pair",
        summary=f"{low} and {high} must not meet ({rounds}){f': {reason}' if reason else ''}",
        after={"pair": [low.start_no, high.start_no], "until_round": until_round},
    )
    return pair


@transaction.atomic
def forbidden_pair_remove(*, event: Event, pair_id: int, user: UserLike) -> None:
    event_require_open(event)
    event = _event_locked(event)
    pair = (
        ForbiddenPair.objects.filter(pk=pair_id, event=event)
        .select_related("first", "second")
        .first()
    )
    if pair is None:
        raise UserError("that forbidden pair does not exist")
    before = {"pair": [pair.first.start_no, pair.second.start_no], "until": pair.until_round}
    pair.delete()
    event_changed(
        event=event,
        user=user,
        action="swiss.forbidden_pair_remove",
        summary=f"{pair.first} and {pair.second} may meet again",
        before=before,
    )


@transaction.atomic
def withdrawal_record(
    *, event: Event, start_no: int, after_round: int | None, user: UserLike
) -> Player:
    """The player is not paired after round ``after_round`` (None: back in the tournament);
    their games keep counting (C.04.2: withdrawn players are no longer paired)."""
    event_require_open(event)
    event = _event_locked(event)
    player = _player(event, start_no)
    if after_round is not None and not 0 <= after_round <= event.rounds:
        raise UserError(f"after round {after_round}: the event has rounds 1–{event.rounds}")
    if after_round is not None and player_never_played(player):
        raise UserError(
            f"{player} has not played a game: delete them on the Players page instead (a "
            "withdrawal would leave them in the standings, the wall chart and the TRF)"
        )
    later = RoundSlot.objects.filter(player=player, round__number__gt=after_round or 0)
    if after_round is not None and later.exists():
        paired = sorted(set(later.values_list("round__number", flat=True)))
        raise UserError(
            f"{player} is already paired in round {paired[0]}: discard that round's pairing "
            "or withdraw the player after it"
        )
    before = player.withdrawn_after_round
    player.withdrawn_after_round = after_round
    player.save(update_fields=["withdrawn_after_round"])
    what = (
        "is back in the tournament"
        if after_round is None
        else f"withdrew after round {after_round}"
    )
    event_changed(
        event=event,
        user=user,
        action="swiss.withdrawal",
        summary=f"{player} {what}",
        before={"withdrawn_after_round": before},
        after={"withdrawn_after_round": after_round},
    )
    return player


@transaction.atomic
def late_entry_register(
    *,
    event: Event,
    fields: PlayerFields,
    missed: str,
    user: UserLike,
    confirm_duplicates: bool = False,
) -> Player:
    """Register a player after round 1 was paired (C.04.2 "Late entries"): they are not paired
    in the rounds already paired and take a zero-point bye for each (``missed="half"``: a
    half-point bye, where the tournament's regulations grant one). The duplicate rules of
    registration apply (``confirm_duplicates``)."""
    event_require_open(event)
    event = _event_locked(event)
    _swiss_only(event)
    if missed not in DIRECTOR_BYES:
        raise UserError(f"missed rounds {missed!r}: choose zero- or half-point byes")
    player = player_register(
        event=event, fields=fields, user=user, confirm_duplicates=confirm_duplicates
    )
    paired = sorted(selectors.paired_rounds(event))
    for rnd in Round.objects.filter(event=event, number__in=paired):
        bye = Bye.objects.create(round=rnd, player=player, kind=missed)
        RoundSlot.objects.create(round=rnd, player=player, bye=bye)
    if paired:
        kind = RequestedBye(missed).label.lower()
        event_changed(
            event=event,
            user=user,
            action="swiss.late_entry",
            summary=f"{player} entered late: a {kind} in round(s) {', '.join(map(str, paired))}",
            after={"start_no": player.start_no, "rounds": paired, "kind": missed},
        )
    return player


# -- the round ----------------------------------------------------------------------------------


def swiss_pairing_compute(event: Event, round_no: int) -> Pairing:
    """The engine's pairing of ``round_no`` from what is stored now, without storing anything
    (``manage.py pair --dry-run`` and the pair service). No legal pairing: a UserError that says
    who cannot be paired and why."""
    return _engine_pairing(selectors.engine_input(event, round_no), round_no)


def _engine_pairing(inputs: selectors.EngineInput, round_no: int) -> Pairing:
    selectors.pairing_size_check(inputs, round_no)
    try:
        return pair_round(inputs.crosstable, inputs.request)
    except PairingImpossible as exc:
        raise UserError(f"round {round_no} cannot be paired: {exc}") from exc


def _check_pairable(event: Event, round_no: int, allow_unfinished: bool) -> None:
    ready = selectors.readiness(event, round_no)
    if ready.blockers:
        raise UserError(ready.blockers[0])
    if ready.unfinished and not allow_unfinished:
        boards = ", ".join(map(str, ready.unfinished))
        raise UserError(
            f"round {round_no - 1} has {len(ready.unfinished)} game(s) without a result "
            f"(board {boards}): enter them, or confirm that they count as not played"
        )


def _requested_byes(event: Event, round_no: int) -> list[ByeInput]:
    return [
        ByeInput(start_no, kind)
        for start_no, kind in ByeRequest.objects.filter(
            player__event=event, round=round_no
        ).values_list("player__start_no", "kind")
    ]


def _write_round(
    event: Event, round_no: int, boards: Boards, bye: int | None, user: UserLike
) -> Round:
    pairings = [PairingInput(i, white, black) for i, (white, black) in enumerate(boards, 1)]
    byes = _requested_byes(event, round_no)
    if bye is not None:
        byes.append(ByeInput(bye, ByeKind.PAIRING))
    return round_pairings_set(
        event=event, round_no=round_no, pairings=pairings, byes=byes, user=user, audit=False
    )


@transaction.atomic
def swiss_round_pair(
    *, event: Event, round_no: int, user: UserLike, allow_unfinished: bool = False
) -> SwissRound:
    """Pair round ``round_no`` by the Dutch system and store it unpublished for review (a
    round already paired but without results is paired again)."""
    event_require_open(event)
    event = _event_locked(event)
    _check_pairable(event, round_no, allow_unfinished)
    inputs = selectors.engine_input(event, round_no)
    pairing = _engine_pairing(inputs, round_no)
    boards = [(board.white, board.black) for board in pairing.boards]
    rnd = _write_round(event, round_no, boards, pairing.bye, user)
    Round.objects.filter(pk=rnd.pk).update(published=False)
    colour, _ = selectors.initial_colour_of(event)
    record, _ = SwissRound.objects.update_or_create(
        round=rnd,
        defaults={
            "source": PairingSource.ENGINE,
            "boards": [list(pair) for pair in boards],
            "bye": pairing.bye,
            "notes": list(pairing.notes),
            "reasons": {str(board.number): list(board.reasons) for board in pairing.boards},
            "initial_colour": colour,
            "pairing_numbers": list(inputs.request.pairing_numbers),
            "outdated_by": None,
        },
    )
    bye_text = f"; bye {pairing.bye}" if pairing.bye is not None else ""
    event_changed(
        event=event,
        user=user,
        action="swiss.pair",
        summary=f"Paired round {round_no} by the Dutch system: {len(boards)} boards{bye_text}",
        after={"boards": record.boards, "bye": pairing.bye},
    )
    return record


def _round_for_change(event: Event, round_no: int) -> Round:
    rnd = Round.objects.select_for_update().filter(event=event, number=round_no).first()
    if rnd is None or round_no not in selectors.paired_rounds(event):
        raise UserError(f"round {round_no} has not been paired")
    if _has_results(event, round_no):
        raise UserError(
            f"round {round_no} already has results: it can no longer be re-paired, changed or "
            "withdrawn; correct single results instead"
        )
    return rnd


@transaction.atomic
def swiss_round_publish(*, event: Event, round_no: int, user: UserLike) -> Round:
    """Publish the round: players and the public pages see it."""
    event_require_open(event)
    event = _event_locked(event)
    rnd = Round.objects.select_for_update().filter(event=event, number=round_no).first()
    if rnd is None or round_no not in selectors.paired_rounds(event):
        raise UserError(f"round {round_no} has not been paired")
    if rnd.published:
        raise UserError(f"round {round_no} is already published")
    rnd.published = True
    rnd.save(update_fields=["published"])
    if event.status == EventStatus.DRAFT:
        Event.objects.filter(pk=event.pk).update(status=EventStatus.RUNNING)
    event_changed(
        event=event, user=user, action="swiss.publish", summary=f"Published round {round_no}"
    )
    return rnd


@transaction.atomic
def swiss_round_unpublish(*, event: Event, round_no: int, user: UserLike) -> Round:
    """Take a published round back for changes, while it has no result."""
    event_require_open(event)
    event = _event_locked(event)
    rnd = _round_for_change(event, round_no)
    if not rnd.published:
        raise UserError(f"round {round_no} is not published")
    rnd.published = False
    rnd.save(update_fields=["published"])
    event_changed(
        event=event, user=user, action="swiss.unpublish", summary=f"Withdrew round {round_no}"
    )
    return rnd


@transaction.atomic
def swiss_round_discard(*, event: Event, round_no: int, user: UserLike) -> None:
    """Delete the round's pairing (games and byes), while it has no result."""
    event_require_open(event)
    event = _event_locked(event)
    rnd = _round_for_change(event, round_no)
    before = selectors.round_as_played(event, round_no)
    rnd.delete()  # its games, byes, slots and Swiss record go with it
    event_changed(
        event=event,
        user=user,
        action="swiss.discard",
        summary=f"Discarded the pairing of round {round_no}",
        before={"boards": before[0], "bye": before[1]},
    )


# -- corrections of earlier rounds (issue 29) -----------------------------------------------------


def pairings_outdate(game: Game, before: str) -> None:
    """A result of round R changed (``before`` → ``game.result``): every later round the Dutch
    system paired was paired from the old result, so it no longer follows from the results.
    Each keeps the result it was paired from, by "round.board"; a change back to that result
    (an undo) takes the entry away, and a round with no entry left follows again. Told by
    :func:`events.services.game_result_record` inside its transaction (the contributor's
    ``result_changed``)."""
    event = game.round.event
    if not selectors.is_swiss(event):
        return
    key = f"{game.round.number}.{game.board}"
    later = SwissRound.objects.select_for_update().filter(
        round__event=event, round__number__gt=game.round.number
    )
    for record in later:
        changed = dict(record.outdated_by or {})
        if key not in changed:
            changed[key] = before
        elif changed[key] == game.result:
            del changed[key]
        record.outdated_by = changed or None
        record.save(update_fields=["outdated_by"])


@transaction.atomic
def swiss_round_keep(*, event: Event, round_no: int, user: UserLike) -> SwissRound:
    """Keep a round's pairing although results it was paired from have changed since: the
    director's choice, audited with the changes it keeps."""
    event_require_open(event)
    event = _event_locked(event)
    record = (
        SwissRound.objects.select_for_update()
        .filter(round__event=event, round__number=round_no)
        .first()
    )
    if record is None or not record.outdated_by:
        raise UserError(f"round {round_no}'s pairing follows from the results: nothing to keep")
    before = dict(record.outdated_by)
    record.outdated_by = None
    record.save(update_fields=["outdated_by"])
    changes = ", ".join(f"round {k.replace('.', ' board ')}" for k in sorted(before))
    event_changed(
        event=event,
        user=user,
        action="swiss.keep",
        summary=f"Kept the pairing of round {round_no} after the correction of {changes}",
        before={"outdated_by": before},
        after={"outdated_by": None},
    )
    return record


# -- manual changes -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Change:
    """A manual change of a paired round: what it does, in words, and the round after it."""

    describe: str
    boards: Boards
    bye: int | None


def colours_swap(boards: Boards, bye: int | None, board: int) -> Change:
    if not 1 <= board <= len(boards):
        raise UserError(f"there is no board {board}")
    white, black = boards[board - 1]
    changed = list(boards)
    changed[board - 1] = (black, white)
    return Change(f"swapped the colours on board {board}", changed, bye)


def players_exchange(boards: Boards, bye: int | None, first: int, second: int) -> Change:
    """Two players change places (on the boards, or one of them with the bye)."""

    def place(player: int) -> str:
        return "bye" if player == bye else f"board {where[player][0]}"

    where = {p: (i + 1, side) for i, pair in enumerate(boards) for side, p in enumerate(pair)}
    for player in (first, second):
        if player not in where and player != bye:
            raise UserError(f"player {player} is not paired in this round")
    if first == second:
        raise UserError("choose two different players to exchange")
    swap = {first: second, second: first}
    changed = [(swap.get(w, w), swap.get(b, b)) for w, b in boards]
    new_bye = swap.get(bye, bye) if bye is not None else None
    return Change(
        f"exchanged {first} ({place(first)}) and {second} ({place(second)})", changed, new_bye
    )


def board_set(boards: Boards, bye: int | None, board: int, white: int, black: int) -> Change:
    """Set one board by hand; its former players take the places the new ones leave."""
    if not 1 <= board <= len(boards):
        raise UserError(f"there is no board {board}")
    if white == black:
        raise UserError(f"board {board}: a player cannot play themself")
    old_white, old_black = boards[board - 1]
    change = players_exchange(boards, bye, old_white, white) if old_white != white else None
    current = change or Change("", boards, bye)
    if current.boards[board - 1][1] != black:
        current = players_exchange(current.boards, current.bye, current.boards[board - 1][1], black)
    return Change(f"set board {board} to {white}–{black}", current.boards, current.bye)


@transaction.atomic
def swiss_round_edit(
    *,
    event: Event,
    round_no: int,
    change: str,
    values: Sequence[int],
    user: UserLike,
    confirm: bool = False,
) -> list[Difference]:
    """Change a paired round by hand: ``change`` is "swap" (values: board), "exchange"
    (values: two start numbers) or "set" (values: board, white, black). The changed round is
    checked against the rules (:func:`draws.swiss.pairing.check_round`); if it breaks one or departs
    from the Dutch pairing, :class:`NeedsConfirmation` says how, and nothing is written
    unless ``confirm``. The audit entry keeps the round before and after, and the reasons."""
    event_require_open(event)
    event = _event_locked(event)
    rnd = _round_for_change(event, round_no)
    boards, bye = selectors.round_as_played(event, round_no)
    proposed = _apply(change, values, boards, bye)
    inputs = selectors.engine_input(event, round_no)
    differences = list(
        check_round(inputs.crosstable, inputs.request, proposed.boards, proposed.bye)
    )
    if differences and not confirm:
        raise NeedsConfirmation(
            f"Round {round_no}: {proposed.describe}. This breaks a rule or departs from the "
            "Dutch pairing; confirm to make the change anyway.",
            differences,
        )
    published = rnd.published
    rnd = _write_round(event, round_no, proposed.boards, proposed.bye, user)
    Round.objects.filter(pk=rnd.pk).update(published=published)
    SwissRound.objects.filter(round=rnd).update(source=PairingSource.EDITED)
    event_changed(
        event=event,
        user=user,
        action="swiss.edit",
        summary=f"Round {round_no}: {proposed.describe}"
        + (f" ({len(differences)} difference(s) from the rules, confirmed)" if differences else ""),
        before={"boards": [list(p) for p in boards], "bye": bye},
        after={
            "boards": [list(p) for p in proposed.boards],
            "bye": proposed.bye,
            "differences": [_difference(d) for d in differences],
        },
    )
    return differences


def _apply(change: str, values: Sequence[int], boards: Boards, bye: int | None) -> Change:
    arity = {"swap": 1, "exchange": 2, "set": 3}
    if change not in arity:
        raise UserError(f"unknown change {change!r}")
    if len(values) != arity[change]:
        raise UserError(f"{change}: expected {arity[change]} number(s)")
    if change == "swap":
        return colours_swap(boards, bye, values[0])
    if change == "exchange":
        return players_exchange(boards, bye, values[0], values[1])
    return board_set(boards, bye, values[0], values[1], values[2])


def _difference(difference: Difference) -> dict[str, Any]:
    return {"kind": difference.kind, "rule": difference.rule, "message": difference.message}
