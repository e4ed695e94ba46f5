"""Playoff writes (HackSoft style: ``noun_verb``, keyword-only, one transaction, one audit entry).

Every service locks the event row first, so two writes to one playoff are serialised (the
plan depends on all of its inputs at once), re-runs the engine on the inputs as they would be
after the write, refuses with :class:`~events.errors.UserError` when the engine does
(:class:`~playoffs.rules.PlayoffInputError`), and bumps the event's results version so cached
public pages refresh. A refused write changes nothing: the transaction rolls back.

Decisions where seed 000 is silent:

- The director confirms the proposed playoff (players, rule, start per 2.2 / 3.2). Nothing
  can be entered before that, nor after the standings change the tie: the director confirms
  again (and resets the playoff if the entered games no longer fit the new tie).
- Only the director records coin tosses (2.5.3 "conducted by the Event Chief Arbiter") and
  the decision by other means (3.5); arbiters enter and correct results.
- A result may be corrected only while no later stage has a result: the later stages depend
  on it. Clear or undo from the end.
- The stored rows are one per scheduled game in schedule order (design.md's ``playoff_games``,
  unplayed games with an empty result), rewritten whenever the schedule changes shape, so the
  export and ``results_from_rows`` always number them as the engine does.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone

from events.errors import ResultConflict, UserError
from events.models import AuditEntry, Event
from events.services import UserLike, event_changed, event_require_open
from events.sources import GCT_2019, cite
from playoffs import rules, selectors
from playoffs.models import (
    PLAYOFF_RESULTS,
    ArbiterDecision,
    CoinToss,
    PlayoffGame,
    PlayoffState,
    TossChoice,
)

RESULT_ACTIONS = ("playoff.result.record", "playoff.result.correct", "playoff.result.clear")


def _actor(user: UserLike) -> Any:
    return user if user is not None and user.is_authenticated else None


def _locked(event: Event) -> Event:
    """The event row locked for the transaction, with a fresh results version."""
    locked = Event.objects.select_for_update(of=("self",)).select_related("regulation")
    return locked.get(pk=event.pk)


def _plan(event: Event, tied: tuple[int, ...] | None = None) -> rules.PlayoffPlan:
    """The plan from the inputs as stored now (inside the transaction); refusals as UserError."""
    try:
        plan = selectors.event_playoff(event, tied)
    except rules.PlayoffInputError as exc:
        raise UserError(f"the playoff inputs do not fit the schedule: {exc}") from exc
    if plan is None:
        raise UserError("this event's regulation has no playoff")
    return plan


def _open_playoff(event: Event) -> tuple[PlayoffState, rules.PlayoffPlan]:
    """The confirmed, current playoff, or a UserError saying what is missing."""
    state = PlayoffState.objects.filter(event=event).first()
    if state is None:
        raise UserError("the director has not confirmed the playoff yet")
    tied = selectors.tied_for_first(event)
    if set(tied) != set(state.tied):
        raise UserError(
            f"the tie for first has changed since the playoff was confirmed "
            f"(was {_players(state.tied)}, now {_players(tied) or 'no tie'}): "
            "the director must confirm the playoff again"
        )
    return state, _plan(event, tied)


def _players(start_nos: Sequence[int]) -> str:
    return ", ".join(str(n) for n in start_nos)


def _scheduled(plan: rules.PlayoffPlan, stage: int, game: int) -> rules.PlayoffGame:
    for candidate in plan.stages:
        if candidate.number == stage:
            for scheduled in candidate.games:
                if scheduled.number == game:
                    return scheduled
    raise UserError(f"stage {stage} game {game} is not scheduled")


def _stage(plan: rules.PlayoffPlan, number: int) -> rules.Stage:
    return next(stage for stage in plan.stages if stage.number == number)


def _rows_sync(event: Event, plan: rules.PlayoffPlan) -> None:
    """Make the stored rows exactly the plan's scheduled games, in schedule order.

    Rows are rewritten only when the shape changed (a new stage, a stage no longer scheduled,
    colours now known). A game keeps its version when it is still the same pairing; a changed
    pairing gets a new version so a page showing the old one conflicts.
    """
    stored = selectors.numbered_rows(event, for_update=True)
    wanted = [
        (stage.number, game.number, game.round, game.white or game.players[0],
         game.black or game.players[1], game.result or "")
        for stage in plan.stages
        for game in stage.games
    ]  # fmt: skip
    current = [
        (stage, number, row.round, row.white, row.black, row.result)
        for (stage, number), row in stored.items()
    ]
    if current == wanted:
        return
    versions = {}
    for stage, number, round_no, white, black, _ in wanted:
        row = stored.get((stage, number))
        if row is not None:
            same = (row.round, {row.white, row.black}) == (round_no, {white, black})
            versions[(stage, number)] = row.version if same else row.version + 1
    PlayoffGame.objects.filter(event=event).delete()
    PlayoffGame.objects.bulk_create(
        PlayoffGame(
            event=event,
            stage=stage,
            round=round_no,
            white=white,
            black=black,
            result=result,
            version=versions.get((stage, number), 1),
        )
        for stage, number, round_no, white, black, result in wanted
    )


def _game_label(stage: int, game: int, white: int, black: int) -> str:
    return f"playoff stage {stage} game {game} ({white}–{black})"


@transaction.atomic
def playoff_confirm(
    *,
    event: Event,
    user: UserLike,
    last_round_date: dt.date | None = None,
    last_game_end: dt.datetime | None = None,
) -> PlayoffState:
    """The director confirms the proposed playoff: seed 000 2.1 / 3.1 (everyone tied for
    first), the rule, and the start (2.2: thirty minutes after the last game; 3.2: the reserve
    day after the last round). Confirming again after the tie changed takes the new tie."""
    event_require_open(event)
    event = _locked(event)
    tied = selectors.tied_for_first(event)
    if not tied:
        raise UserError("no playoff: the last round is not complete or first place is not tied")
    plan = _plan(event, tied)
    try:
        start = rules.playoff_start(plan.regulation, last_game_end, last_round_date)
    except rules.PlayoffInputError as exc:
        raise UserError(str(exc)) from exc
    previous = PlayoffState.objects.filter(event=event).first()
    before = None if previous is None else {"tied": previous.tied, "rule": previous.rule}
    state, _ = PlayoffState.objects.update_or_create(
        event=event,
        defaults={
            "rule": plan.regulation,
            "tied": list(tied),
            "start_day": start.day,
            "not_before": start.not_before,
            "start_clause": start.clause,
            "confirmed_by": _actor(user),
            "confirmed_at": timezone.now(),
        },
    )
    _rows_sync(event, plan)
    event_changed(
        event=event,
        user=user,
        action="playoff.confirm",
        summary=f"Confirmed the playoff of {_players(tied)} ({plan.regulation}), "
        f"starting {start.not_before or start.day} ({start.clause})",
        before=before,
        after={"tied": list(tied), "rule": plan.regulation, "start_day": start.day.isoformat()},
    )
    return state


def _check_no_later_results(event: Event, stage: int) -> None:
    later = PlayoffGame.objects.filter(event=event, stage__gt=stage).exclude(result="")
    if later.exists():
        raise UserError(
            f"stage {stage} decides who plays in the later stages, which already have results: "
            "clear those first"
        )


def _row_for(event: Event, stage: int, game: int) -> PlayoffGame:
    row = selectors.numbered_rows(event, for_update=True).get((stage, game))
    if row is None:  # _rows_sync keeps one row per scheduled game, so this is a bug
        raise UserError(f"stage {stage} game {game} has no stored row; confirm the playoff again")
    return row


def _check_version(row: PlayoffGame, label: str, attempted: str, expected: int | None) -> None:
    if expected is not None and expected != row.version:
        raise ResultConflict(
            f"Someone else changed {label} while you were editing it.",
            current=row.result,
            attempted=attempted,
            current_version=row.version,
        )


def _colours(scheduled: rules.PlayoffGame, white: int | None, black: int | None) -> tuple[int, int]:
    """The colours the result is for: the schedule's, which the form's must match."""
    if scheduled.colours_pending:
        raise UserError(
            f"the colours of {scheduled.players[0]}–{scheduled.players[1]} are not known yet: "
            f"record the coin toss and the winner's choice first ({cite(GCT_2019, '2.5.3')})"
        )
    assert scheduled.white is not None and scheduled.black is not None
    if (white, black) not in ((None, None), (scheduled.white, scheduled.black)):
        raise UserError(
            f"this game is {scheduled.white}–{scheduled.black} (White first), "
            f"not {white}–{black}: reload the page"
        )
    return scheduled.white, scheduled.black


def _result_write(
    event: Event, stage: int, game: int, row: PlayoffGame, result: str, user: UserLike
) -> None:
    """Store the change, check the whole plan still holds, sync the rows, audit."""
    before = row.result
    row.result = result
    row.version += 1
    row.save(update_fields=["result", "white", "black", "version"])
    _rows_sync(event, _plan(event))
    action = (
        "playoff.result.clear"
        if not result
        else ("playoff.result.correct" if before else "playoff.result.record")
    )
    event_changed(
        event=event,
        user=user,
        action=action,
        summary=f"{_game_label(stage, game, row.white, row.black)}: "
        f"{before or 'no result'} → {result or 'no result'}",
        before={"stage": stage, "game": game, "result": before},
        after={"stage": stage, "game": game, "result": result},
    )


@transaction.atomic
def playoff_result_record(
    *,
    event: Event,
    stage: int,
    game: int,
    result: str,
    expected_version: int | None,
    user: UserLike,
    white: int | None = None,
    black: int | None = None,
) -> PlayoffGame:
    """Record (or correct) the result of a scheduled playoff game.

    Refused for a game the plan does not schedule, for colours that are not the schedule's
    (a stale page, or Armageddon colours still pending, 2.5.3), for a correction that later
    stages depend on, and with :class:`ResultConflict` when someone saved the game since
    ``expected_version`` (design.md §3: never a silent overwrite).
    """
    event_require_open(event)
    if result not in PLAYOFF_RESULTS:
        raise UserError(f"unknown result {result!r}: use 1-0, 1/2-1/2 or 0-1")
    event = _locked(event)
    _, plan = _open_playoff(event)
    scheduled = _scheduled(plan, stage, game)
    row = _row_for(event, stage, game)
    label = _game_label(stage, game, *scheduled.players)
    _check_version(row, label, result, expected_version)
    row.white, row.black = _colours(scheduled, white, black)
    if row.result == result:
        return row
    if row.result:
        _check_no_later_results(event, stage)
    _result_write(event, stage, game, row, result, user)
    return row


@transaction.atomic
def playoff_result_clear(
    *, event: Event, stage: int, game: int, expected_version: int | None, user: UserLike
) -> PlayoffGame:
    """Take a result back (the game awaits a result again); refused while later stages, which
    it decided, have results."""
    event_require_open(event)
    event = _locked(event)
    _, plan = _open_playoff(event)
    scheduled = _scheduled(plan, stage, game)
    row = _row_for(event, stage, game)
    _check_version(row, _game_label(stage, game, *scheduled.players), "", expected_version)
    if not row.result:
        return row
    _check_no_later_results(event, stage)
    _result_write(event, stage, game, row, "", user)
    return row


@transaction.atomic
def playoff_result_undo(*, event: Event, entry_id: int, user: UserLike) -> None:
    """Undo a playoff result change from the audit log: put the previous result back, as a
    new audited change. Refused if the game has changed since."""
    event_require_open(event)
    try:
        entry = AuditEntry.objects.select_for_update().get(pk=entry_id, event=event)
    except AuditEntry.DoesNotExist as exc:
        raise UserError("that audit entry does not exist") from exc
    if entry.action not in RESULT_ACTIONS or entry.undone_by_id is not None:
        raise UserError("only playoff result changes not undone yet can be undone here")
    stage, game = entry.after["stage"], entry.after["game"]
    row = selectors.numbered_rows(event).get((stage, game))
    if row is None or row.result != entry.after["result"]:
        raise UserError("the game has changed since this entry; undo the later change first")
    previous = entry.before["result"]
    if previous:
        playoff_result_record(
            event=event,
            stage=stage,
            game=game,
            result=previous,
            expected_version=row.version,
            user=user,
        )
    else:
        playoff_result_clear(
            event=event, stage=stage, game=game, expected_version=row.version, user=user
        )
    undo_entry = AuditEntry.objects.filter(event=event).order_by("-id").first()
    assert undo_entry is not None
    undo_entry.action = "playoff.result.undo"
    undo_entry.summary = f"Undid: {entry.summary}"[:300]
    undo_entry.save(update_fields=["action", "summary"])
    entry.undone_by = undo_entry
    entry.save(update_fields=["undone_by"])


@transaction.atomic
def coin_toss_record(
    *, event: Event, stage: int, game: int, toss_winner: int, choice: str, user: UserLike
) -> CoinToss:
    """Seed 000 2.5.3: the chief arbiter tosses a coin; its winner chooses the colour.

    Only for an Armageddon game without a result; recording again before the game is played
    replaces the toss (audited with the previous one).
    """
    event_require_open(event)
    if choice not in TossChoice.values:
        raise UserError("the toss winner chooses white or black")
    event = _locked(event)
    _, plan = _open_playoff(event)
    scheduled = _scheduled(plan, stage, game)
    if _stage(plan, stage).kind != "armageddon":
        raise UserError("colours are decided by a coin toss only in Armageddon games (2.5.3)")
    if scheduled.result is not None:
        raise UserError("this game has a result already; clear it before changing the toss")
    if toss_winner not in scheduled.players:
        raise UserError(f"player {toss_winner} does not play in this game")
    previous = CoinToss.objects.filter(event=event, stage=stage, game=game).first()
    before = None
    if previous is not None:
        before = {"winner": previous.toss_winner, "choice": previous.choice}
    toss, _ = CoinToss.objects.update_or_create(
        event=event,
        stage=stage,
        game=game,
        defaults={"toss_winner": toss_winner, "choice": choice, "recorded_by": _actor(user)},
    )
    _rows_sync(event, _plan(event))
    event_changed(
        event=event,
        user=user,
        action="playoff.coin_toss",
        summary=f"Armageddon stage {stage} game {game}: {toss_winner} won the toss "
        f"and chose {choice} (2.5.3)",
        before=before,
        after={"stage": stage, "game": game, "winner": toss_winner, "choice": choice},
    )
    return toss


@transaction.atomic
def arbiter_decision_record(
    *, event: Event, order: Sequence[int], reason: str, user: UserLike
) -> ArbiterDecision:
    """Seed 000 3.5: after four round robins the chief arbiter, having consulted the players,
    resolves the remaining tie by other means: the order of the players still tied, and how."""
    event_require_open(event)
    event = _locked(event)
    _, plan = _open_playoff(event)
    if plan.status != "arbiter_decides":
        raise UserError(f"no decision by the chief arbiter is called for ({cite(GCT_2019, '3.5')})")
    if ArbiterDecision.objects.filter(event=event).exists():
        raise UserError("the chief arbiter's decision is already recorded")
    if not reason.strip():
        raise UserError("record the means the chief arbiter used (3.5)")
    record = ArbiterDecision.objects.create(
        event=event, order=list(order), reason=reason.strip(), decided_by=_actor(user)
    )
    decided = _plan(event)  # the engine checks the order lists exactly the players still tied
    event_changed(
        event=event,
        user=user,
        action="playoff.arbiter_decision",
        summary=f"Chief arbiter's decision (3.5): {_players(order)}, winner {decided.winner}",
        after={"order": list(order), "reason": record.reason},
    )
    return record


@transaction.atomic
def playoff_reset(*, event: Event, user: UserLike) -> None:
    """Delete the playoff's games, tosses, decision and confirmation (audited with all of it),
    for a tie that changed so much that the entered games no longer fit."""
    event_require_open(event)
    event = _locked(event)
    before = _playoff_snapshot(event)
    for model in (PlayoffGame, CoinToss, ArbiterDecision, PlayoffState):
        model.objects.filter(event=event).delete()
    event_changed(
        event=event,
        user=user,
        action="playoff.reset",
        summary="Reset the playoff: games, coin tosses, decision and confirmation deleted",
        before=before,
    )


def _playoff_snapshot(event: Event) -> dict[str, Any]:
    games = PlayoffGame.objects.filter(event=event).order_by("stage", "round", "id")
    tosses = CoinToss.objects.filter(event=event)
    return {
        "games": list(games.values("stage", "round", "white", "black", "result")),
        "coin_tosses": list(tosses.values("stage", "game", "toss_winner", "choice")),
        "arbiter_decision": list(
            ArbiterDecision.objects.filter(event=event).values("order", "reason")
        ),
        "confirmed_tie": list(
            PlayoffState.objects.filter(event=event).values_list("tied", flat=True)
        ),
    }
