"""What a backup keeps of a playoff beside the exchange document (events.backup): who
confirmed it, who recorded each coin toss and the chief arbiter's decision, and when. The
exchange document already carries what was decided (and ``confirmed_at``); these are the
application's record of the people, by username (:func:`events.backup.account`).
"""

from __future__ import annotations

from typing import Any

from events.backup import Accounts, EventPart, account, event_part_register, username_of
from events.exchange import Invalid, moment_of, require, typed
from events.models import Event
from playoffs.models import ArbiterDecision, CoinToss, PlayoffState


def people_export(event: Event) -> dict[str, Any] | None:
    state = PlayoffState.objects.filter(event=event).select_related("confirmed_by").first()
    decision = ArbiterDecision.objects.filter(event=event).select_related("decided_by").first()
    tosses = [
        {
            "stage": toss.stage,
            "game": toss.game,
            "recorded_by": username_of(toss.recorded_by),
            "recorded_at": toss.recorded_at.isoformat(),
        }
        for toss in CoinToss.objects.filter(event=event)
        .select_related("recorded_by")
        .order_by("stage", "game")
    ]
    if state is None and decision is None and not tosses:
        return None
    return {
        "confirmed_by": username_of(state.confirmed_by) if state else None,
        "coin_tosses": tosses,
        "decision": None
        if decision is None
        else {
            "decided_by": username_of(decision.decided_by),
            "decided_at": decision.decided_at.isoformat(),
        },
    }


def _tosses_load(event: Event, raw: Any, accounts: Accounts) -> None:
    for i, record in enumerate(typed(raw, list, "playoff_people.coin_tosses")):
        where = f"playoff_people.coin_tosses[{i}]"
        typed(record, dict, where)
        stage = require(record, "stage", int, f"{where}.")
        game = require(record, "game", int, f"{where}.")
        updated = CoinToss.objects.filter(event=event, stage=stage, game=game).update(
            recorded_by=account(accounts, record.get("recorded_by"), f"{where}.recorded_by"),
            recorded_at=moment_of(
                require(record, "recorded_at", str, f"{where}."), f"{where}.recorded_at"
            ),
        )
        if not updated:
            raise Invalid(f"{where}: the event has no coin toss for stage {stage} game {game}")


def people_load(event: Event, raw: Any, accounts: Accounts) -> None:
    where = "playoff_people"
    typed(raw, dict, where)
    confirmed_by = account(accounts, raw.get("confirmed_by"), f"{where}.confirmed_by")
    PlayoffState.objects.filter(event=event).update(confirmed_by=confirmed_by)
    _tosses_load(event, raw.get("coin_tosses", []), accounts)
    decision = raw.get("decision")
    if decision is not None:
        where = f"{where}.decision"
        typed(decision, dict, where)
        at = require(decision, "decided_at", str, f"{where}.")
        updated = ArbiterDecision.objects.filter(event=event).update(
            decided_by=account(accounts, decision.get("decided_by"), f"{where}.decided_by"),
            decided_at=moment_of(at, f"{where}.decided_at"),
        )
        if not updated:
            raise Invalid(f"{where}: the event has no decision by the chief arbiter")


def register() -> None:
    event_part_register(EventPart("playoff_people", people_export, people_load))
