"""The playoff of an event and the final ranking it writes back (seed 000 §2–3).

The playoff engine (:mod:`playoffs.rules`) is re-run from the stored inputs on every read: the
players tied for first in the final standings, the event's lots seed, the entered playoff
results, coin tosses and the chief arbiter's decision. Nothing derived is stored, so a
corrected result can never leave a stale plan behind.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from events.formats import format_of
from events.models import AuditEntry, Event, Player
from events.selectors import last_complete_round, regulation_of
from playoffs import rules
from playoffs.models import ArbiterDecision, CoinToss, PlayoffGame, PlayoffState
from standings.compute import StandingsTable
from standings.ranking import Standing
from standings.selectors import event_standings


def playoff_rule(event: Event) -> str | None:
    """The playoff rule of the event's regulation preset; None: the event has no playoff.

    MSO perfect scores are not a playoff: the extra rounds are real tournament rounds
    (seed 003), scheduled by the MSO format (formats/mso).
    """
    return regulation_of(event).playoff_rule


def tied_for_first(event: Event) -> tuple[int, ...]:
    """Start numbers sharing first place once every round is complete, else ().

    A format may name its own tie instead (Cohen Chess, seed 002 Final Four rules 3–4: the
    players level on Final Four pool points), through the format seam.
    """
    fmt = format_of(event)
    if fmt is not None and fmt.playoff_tie is not None:
        return fmt.playoff_tie(event)
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


def event_playoff(event: Event, tied: tuple[int, ...] | None = None) -> rules.PlayoffPlan | None:
    """The playoff plan and its state, or None when the regulation has no playoff.

    Raises :class:`playoffs.rules.PlayoffInputError` when stored results do not fit the
    schedule (shown to the director, never dropped).
    """
    rule = playoff_rule(event)
    if rule is None:
        return None
    return rules.plan(
        tied_for_first(event) if tied is None else tied,
        rule,
        event.lots_seed,
        stored_results(event),
        **playoff_inputs(event),
    )


def playoff_inputs(event: Event) -> dict[str, object]:
    """The recorded coin tosses (2.5.3) and the chief arbiter's decision (3.5), as engine
    inputs: keyword arguments of :func:`playoffs.rules.plan`."""
    tosses = tuple(
        rules.CoinToss(stage=t.stage, game=t.game, choice=t.choice, toss_winner=t.toss_winner)
        for t in CoinToss.objects.filter(event=event).order_by("stage", "game")
    )
    decision = ArbiterDecision.objects.filter(event=event).first()
    return {
        "coin_tosses": tosses,
        "arbiter_decision": None
        if decision is None
        else rules.ArbiterDecision(order=tuple(decision.order), reason=decision.reason),
    }


def final_standings(event: Event, table: StandingsTable | None = None) -> StandingsTable:
    """The standings with a decided playoff's order written back for the tied places only."""
    table = table or event_standings(event, after_round=event.rounds)
    fmt = format_of(event)
    if fmt is not None and fmt.playoff_in_final_table:  # the final places hold the playoff
        return table
    playoff = event_playoff(event)
    if playoff is None or playoff.status != "decided" or not playoff.order_groups:
        return table
    tied = set(playoff.tied)
    reordered = _playoff_rows(table, playoff.order_groups)
    rest = [row for row in table.rows if row.start_no not in tied]
    return replace(table, rows=tuple(reordered) + tuple(rest))


def _playoff_rows(table: StandingsTable, order_groups: Sequence[Sequence[int]]) -> list[Standing]:
    """The tied players' rows in the playoff's order, placed from 1; players the playoff left
    level share their place."""
    by_no = {row.start_no: row for row in table.rows}
    reordered = []
    place = 1
    for group in order_groups:
        for start_no in group:
            reordered.append(
                replace(by_no[start_no], rank=place, shared=len(group) > 1, decided_by="PLAYOFF")
            )
        place += len(group)
    return reordered


def numbered_rows(event: Event, *, for_update: bool = False) -> dict[tuple[int, int], PlayoffGame]:
    """The stored games keyed by (stage, game number), numbered as ``results_from_rows`` does:
    schedule order within each stage."""
    query = PlayoffGame.objects.filter(event=event).order_by("stage", "round", "id")
    if for_update:
        query = query.select_for_update()
    counters: dict[int, int] = {}
    numbered = {}
    for row in query:
        counters[row.stage] = counters.get(row.stage, 0) + 1
        numbered[(row.stage, counters[row.stage])] = row
    return numbered


def playoff_state(event: Event) -> PlayoffState | None:
    return PlayoffState.objects.filter(event=event).select_related("confirmed_by").first()


@dataclass(frozen=True)
class PlayoffOverview:
    """Everything the playoff pages show, loaded in a fixed number of queries.

    ``tied`` is the tie for first as the standings read now; ``stale`` says it differs from the
    tie the director confirmed (then nothing may be entered until they confirm again). ``error``
    is a :class:`~playoffs.rules.PlayoffInputError` message when stored inputs do not fit.
    """

    event: Event
    rule: str | None
    rule_label: str
    tied: tuple[int, ...]
    state: PlayoffState | None
    plan: rules.PlayoffPlan | None
    error: str
    names: dict[int, str]
    versions: dict[tuple[int, int], int] = field(default_factory=dict)

    @property
    def confirmed(self) -> bool:
        return self.state is not None and not self.stale

    @property
    def stale(self) -> bool:
        return self.state is not None and set(self.state.tied) != set(self.tied)

    @property
    def open_for_entry(self) -> bool:
        """Results, tosses and decisions may be entered: confirmed, current and consistent."""
        return self.confirmed and self.plan is not None and not self.error


def playoff_overview(event: Event) -> PlayoffOverview:
    rule = playoff_rule(event)
    names = dict(Player.objects.filter(event=event).values_list("start_no", "name"))
    tied = tied_for_first(event) if rule is not None else ()
    plan, error = None, ""
    if rule is not None:
        try:
            plan = event_playoff(event, tied)
        except rules.PlayoffInputError as exc:
            error = str(exc)
    versions = {key: row.version for key, row in numbered_rows(event).items()}
    return PlayoffOverview(
        event=event,
        rule=rule,
        rule_label=rules.REGULATIONS[rule].label if rule in rules.REGULATIONS else "no playoff",
        tied=tied,
        state=playoff_state(event),
        plan=plan,
        error=error,
        names=names,
        versions=versions,
    )


def playoff_result_entries(event: Event, limit: int = 20) -> list[AuditEntry]:
    """Recent playoff result changes, newest first, for the undo list."""
    return list(
        AuditEntry.objects.filter(event=event, action__startswith="playoff.result.")
        .select_related("user")
        .order_by("-at", "-id")[:limit]
    )
