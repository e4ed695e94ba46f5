"""The exchange format's playoff keys (design.md §4): ``playoff_games``, and the extensions
``playoff_coin_tosses``, ``playoff_decision`` and ``playoff_confirmation`` (with the moment
the director confirmed, ``confirmed_at``).

Two sections of :mod:`events.exchange`, registered when the app starts: the games keep their
place after the prizes; the records come after the formats' keys and are imported last but
one, because importing them re-plans the playoff, which needs the format's records (a Cohen
Chess Final Four's stages) in place.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from events.exchange import (
    ImportContext,
    Invalid,
    Section,
    choice,
    date_of,
    moment_of,
    positive,
    require,
    section_register,
    typed,
)
from events.models import Event
from playoffs import rules
from playoffs.models import ArbiterDecision, CoinToss, PlayoffGame, PlayoffState
from playoffs.selectors import event_playoff, playoff_rule, tied_for_first


def games_export(event: Event) -> dict[str, Any]:
    return {
        "playoff_games": [
            {
                "stage": g.stage,
                "round": g.round,
                "white": g.white,
                "black": g.black,
                "result": g.result or None,
            }
            for g in PlayoffGame.objects.filter(event=event).order_by("stage", "round", "id")
        ]
    }


def _playoff_game(raw: Any, where: str, start_nos: frozenset[int]) -> PlayoffGame:
    typed(raw, dict, where)
    white = require(raw, "white", int, f"{where}.")
    black = require(raw, "black", int, f"{where}.")
    for key, value in (("white", white), ("black", black)):
        if value not in start_nos:
            raise Invalid(f"{where}.{key}: there is no player with start number {value}")
    if white == black:
        raise Invalid(f"{where}: a player cannot play themself")
    return PlayoffGame(
        stage=positive(require(raw, "stage", int, f"{where}."), f"{where}.stage"),
        round=positive(typed(raw.get("round", 1), int, f"{where}.round"), f"{where}.round"),
        white=white,
        black=black,
        result=choice(raw.get("result") or "", ["", "1-0", "0-1", "1/2-1/2"], f"{where}.result"),
    )


def games_load(doc: Mapping[str, Any], event: Event, context: ImportContext) -> None:
    rows = typed(doc.get("playoff_games", []), list, "playoff_games")
    games = [
        _playoff_game(raw, f"playoff_games[{i}]", context.start_nos) for i, raw in enumerate(rows)
    ]
    for game in games:
        game.event = event
    PlayoffGame.objects.bulk_create(games)


def records_export(event: Event) -> dict[str, Any]:
    records: dict[str, Any] = {}
    tosses = [
        {"stage": t.stage, "game": t.game, "toss_winner": t.toss_winner, "choice": t.choice}
        for t in CoinToss.objects.filter(event=event).order_by("stage", "game")
    ]
    if tosses:
        records["playoff_coin_tosses"] = tosses
    decision = ArbiterDecision.objects.filter(event=event).first()
    if decision is not None:
        records["playoff_decision"] = {"order": decision.order, "reason": decision.reason}
    state = PlayoffState.objects.filter(event=event).first()
    if state is not None:
        records["playoff_confirmation"] = {
            "tied": state.tied,
            "start_day": state.start_day.isoformat(),
            "not_before": state.not_before.isoformat() if state.not_before else None,
            "start_clause": state.start_clause,
            "confirmed_at": state.confirmed_at.isoformat(),
        }
    return records


def _coin_tosses_load(doc: Mapping[str, Any], event: Event, start_nos: frozenset[int]) -> None:
    tosses = typed(doc.get("playoff_coin_tosses", []), list, "playoff_coin_tosses")
    for i, raw in enumerate(tosses):
        where = f"playoff_coin_tosses[{i}]"
        typed(raw, dict, where)
        winner = require(raw, "toss_winner", int, f"{where}.")
        if winner not in start_nos:
            raise Invalid(f"{where}.toss_winner: there is no player with start number {winner}")
        CoinToss.objects.create(
            event=event,
            stage=positive(require(raw, "stage", int, f"{where}."), f"{where}.stage"),
            game=positive(require(raw, "game", int, f"{where}."), f"{where}.game"),
            toss_winner=winner,
            choice=choice(
                require(raw, "choice", str, f"{where}."), ["white", "black"], f"{where}.choice"
            ),
        )


def _decision_load(decision: Any, event: Event) -> None:
    if decision is None:
        return
    typed(decision, dict, "playoff_decision")
    order = require(decision, "order", list, "playoff_decision.")
    reason = require(decision, "reason", str, "playoff_decision.")
    if not reason.strip():
        raise Invalid("playoff_decision.reason: the chief arbiter's means must be recorded")
    ArbiterDecision.objects.create(event=event, order=order, reason=reason)


def records_load(doc: Mapping[str, Any], event: Event, context: ImportContext) -> None:
    """Coin tosses, the chief arbiter's decision and the director's confirmation; then the
    whole playoff is re-planned, so rows that do not fit its schedule refuse the import."""
    _coin_tosses_load(doc, event, context.start_nos)
    _decision_load(doc.get("playoff_decision"), event)
    _confirmation_load(doc.get("playoff_confirmation"), event)
    try:
        event_playoff(event)
    except rules.PlayoffInputError as exc:
        # A playoff confirmed for a tie that later results changed is exported as it stands
        # (the playoff pages flag it and ask the director to confirm again or reset); such a
        # document must re-import, or a backup could not be restored. Anything else is refused.
        if not _confirmed_for_another_tie(event):
            raise Invalid(f"playoff_games: {exc}") from exc


def _confirmed_for_another_tie(event: Event) -> bool:
    state = PlayoffState.objects.filter(event=event).first()
    return state is not None and set(state.tied) != set(tied_for_first(event))


def _confirmation_load(raw: Any, event: Event) -> None:
    """The director's confirmation as it was recorded (the tie then, and the start)."""
    if raw is None:
        return
    where = "playoff_confirmation"
    typed(raw, dict, where)
    tied = require(raw, "tied", list, f"{where}.")
    if not all(isinstance(n, int) and not isinstance(n, bool) for n in tied):
        raise Invalid(f"{where}.tied: expected start numbers")
    moment = moment_of(raw.get("not_before"), f"{where}.not_before")
    confirmed_at = moment_of(raw.get("confirmed_at"), f"{where}.confirmed_at")
    start_day = date_of(require(raw, "start_day", str, f"{where}."), f"{where}.start_day")
    rule = playoff_rule(event)
    if rule is None:
        raise Invalid(f"{where}: the regulation {event.regulation.preset} has no playoff")
    PlayoffState.objects.create(
        event=event,
        rule=rule,
        tied=tied,
        start_day=start_day,
        not_before=moment,
        start_clause=typed(raw.get("start_clause", ""), str, f"{where}.start_clause"),
        # A document from before confirmed_at was exported: confirmed now, by the import.
        confirmed_at=confirmed_at or dt.datetime.now(dt.UTC),
    )


def register() -> None:
    section_register(Section("playoff_games", 20, games_export, games_load))
    section_register(Section("playoff_records", 40, records_export, records_load))
