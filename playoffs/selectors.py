"""The playoff of an event and the final ranking it writes back (seed 000 §2–3).

The playoff engine (:mod:`playoffs.rules`) is re-run from the stored inputs on every read: the
players tied for first in the final standings, the event's lots seed, the entered playoff
results, coin tosses and the chief arbiter's decision. Nothing derived is stored, so a
corrected result can never leave a stale plan behind.
"""

from __future__ import annotations

from dataclasses import replace

from events.models import Event
from events.selectors import last_complete_round
from playoffs import rules
from playoffs.models import PlayoffGame
from standings.output import StandingsTable
from standings.selectors import event_standings

# Which playoff rule each regulation preset uses; presets without one have no playoff.
PLAYOFF_RULES = {
    "gct-2019-classical": "gct-2019-classical",
    "gct-2019-rapid-blitz": "gct-2019-rapid-blitz",
    "cohen-chess": "cohen-final-four",
    "mso-2021-two-player": "mso-perfect-score",
}


def playoff_rule(event: Event) -> str | None:
    return PLAYOFF_RULES.get(event.regulation.preset)


def tied_for_first(event: Event) -> tuple[int, ...]:
    """Start numbers sharing first place once every round is complete, else ()."""
    if last_complete_round(event) < event.rounds:
        return ()
    rows = event_standings(event, after_round=event.rounds).rows
    tied = tuple(row.start_no for row in rows if row.rank == 1)
    return tied if len(tied) > 1 else ()


def stored_results(event: Event) -> tuple[rules.PlayoffResult, ...]:
    rows = [
        {"stage": g.stage, "white": g.white, "black": g.black, "result": g.result or None}
        for g in PlayoffGame.objects.filter(event=event).order_by("stage", "round", "id")
    ]
    return rules.results_from_rows(rows)


def event_playoff(event: Event) -> rules.PlayoffPlan | None:
    """The playoff plan and its state, or None when the regulation has no playoff.

    Raises :class:`playoffs.rules.PlayoffInputError` when stored results do not fit the
    schedule (shown to the director, never dropped).
    """
    rule = playoff_rule(event)
    if rule is None:
        return None
    return rules.plan(
        tied_for_first(event),
        rule,
        event.lots_seed,
        stored_results(event),
        **playoff_inputs(event),
    )


def playoff_inputs(event: Event) -> dict[str, object]:
    """Recorded coin tosses and the arbiter's decision (extended by the playoff screens)."""
    return {}


def final_standings(event: Event, table: StandingsTable | None = None) -> StandingsTable:
    """The standings with a decided playoff's order written back for the tied places only."""
    table = table or event_standings(event, after_round=event.rounds)
    playoff = event_playoff(event)
    if playoff is None or playoff.status != "decided" or not playoff.order_groups:
        return table
    by_no = {row.start_no: row for row in table.rows}
    tied = set(playoff.tied)
    reordered = []
    place = 1
    for group in playoff.order_groups:
        for start_no in group:
            reordered.append(
                replace(by_no[start_no], rank=place, shared=len(group) > 1, decided_by="PLAYOFF")
            )
        place += len(group)
    rest = [row for row in table.rows if row.start_no not in tied]
    return replace(table, rows=tuple(reordered) + tuple(rest))
