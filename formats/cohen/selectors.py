"""Cohen Chess events (seed 002) read from the database: stages, pool tables, the advancement a
director is about to confirm, the Final Four tie and the final places 1–N.

The thin bridge between the stored stages (:class:`formats.cohen.models.CohenStage`) and the
pure engines :mod:`formats.cohen.draw` (schedules) and :mod:`formats.cohen.rules` (rankings).
One narrow load (the crosstable, the stages, the previous rankings), then plain records.

Decisions where the seed is silent:

- Rounds are numbered consecutively: each main stage (first round or round robin, Elite
  Eight, Final Four) starts in the round after the previous one ends. A consolation starts
  together with the main stage that follows the one its players left, and shares its rounds
  (its games take the boards after the main stage's), so eliminated players keep playing
  while the others go on: the first-round consolation runs beside the Elite Eight, the Elite
  Eight consolation beside the Final Four. A consolation longer than the stage beside it
  simply runs on (with eleven players the first-round consolation lasts six rounds).
- The event has exactly the rounds the whole schedule needs (:func:`cohen_rounds_needed`);
  the first stage's start sets ``Event.rounds``.
- A stage can be advanced (or placed) once every game of every round up to its last round has
  a result, consolation games of those rounds included: the ranking chains read opponents'
  cumulative points, so advancing earlier would depend on when results were typed in.
- Consolation games count in everyone's cumulative points, as :mod:`formats.cohen.rules` does by
  default (seed 002 "Scores are not erased after the round").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from django.urls import reverse

from events.errors import UserError
from events.formats import Step
from events.models import Event, EventSystem, Player
from events.records import Crosstable
from events.selectors import event_crosstable, last_complete_round
from events.sources import COHEN_CHESS, cite
from formats.cohen import draw as schedules
from formats.cohen.draw import POOL_A, POOL_B, SINGLE_POOL, Pools, StageSchedule
from formats.cohen.models import CohenStage, CohenStageName
from formats.cohen.rules import (
    Advancement,
    CohenTieError,
    FinalStandings,
    PoolRanking,
    StageField,
    advance_elite_eight,
    advance_first_round,
    advance_small_field,
    final_four_tie,
    final_places,
    rank_pool,
)
from standings.compute import StandingsTable
from standings.ranking import RankingError, truncate

Name = CohenStageName
# The stage codes of the pure engines (formats.cohen.draw, formats.cohen.rules).
ENGINE_STAGE = {
    Name.FIRST_ROUND: schedules.FIRST_ROUND,
    Name.ELITE_EIGHT: schedules.ELITE_EIGHT,
    Name.FINAL_FOUR: schedules.FINAL_FOUR,
    Name.CONSOLATION_FIRST_ROUND: schedules.FIRST_ROUND_CONSOLATION,
    Name.CONSOLATION_ELITE_EIGHT: schedules.ELITE_EIGHT_CONSOLATION,
    Name.SMALL_FIELD: schedules.ROUND_ROBIN,
    Name.SMALL_CONSOLATION: schedules.SMALL_FIELD_CONSOLATION,
}
# A stage that is advanced by the director → (the next main stage, its consolation).
NEXT_STAGES = {
    Name.FIRST_ROUND: (Name.ELITE_EIGHT, Name.CONSOLATION_FIRST_ROUND),
    Name.ELITE_EIGHT: (Name.FINAL_FOUR, Name.CONSOLATION_ELITE_EIGHT),
    Name.SMALL_FIELD: (Name.FINAL_FOUR, Name.SMALL_CONSOLATION),
}
TWO_POOL_STAGES = (Name.FIRST_ROUND, Name.ELITE_EIGHT)
STAGE_ORDER = (
    Name.FIRST_ROUND,
    Name.SMALL_FIELD,
    Name.CONSOLATION_FIRST_ROUND,
    Name.ELITE_EIGHT,
    Name.SMALL_CONSOLATION,
    Name.CONSOLATION_ELITE_EIGHT,
    Name.FINAL_FOUR,
)


def is_cohen(event: Event) -> bool:
    return event.system == EventSystem.COHEN


def pools_record(pools: Pools | None, ranked: Sequence[int] = ()) -> dict[str, list[int]]:
    """The stored shape of a stage's pools: {"A": [...], "B": [...]} or {"single": [...]}."""
    if pools is not None:
        return {POOL_A: list(pools.a), POOL_B: list(pools.b)}
    return {SINGLE_POOL: list(ranked)}


def stage_pools(stage: CohenStage) -> Pools | None:
    if stage.name not in TWO_POOL_STAGES:
        return None
    return Pools(a=tuple(stage.pools[POOL_A]), b=tuple(stage.pools[POOL_B]))


def stage_schedule(
    name: str, pools: Mapping[str, Sequence[int]], first_round: int
) -> StageSchedule:
    """The stage's games from :mod:`formats.cohen.draw` (seed 002; the clause is on the
    schedule)."""
    if name in TWO_POOL_STAGES:
        split = Pools(a=tuple(pools[POOL_A]), b=tuple(pools[POOL_B]))
        build = schedules.first_round if name == Name.FIRST_ROUND else schedules.elite_eight
        return build(split, first_round=first_round)
    ranked = tuple(pools[SINGLE_POOL])
    if name == Name.FINAL_FOUR:
        return schedules.final_four(ranked, first_round=first_round)
    if name == Name.SMALL_FIELD:
        return schedules.small_field_round_robin(ranked, first_round=first_round)
    return schedules.consolation(ENGINE_STAGE[Name(name)], ranked, first_round=first_round)


def cohen_rounds_needed(players: int) -> int:
    """The rounds the whole schedule of a field of ``players`` takes (module docstring)."""
    field_ = range(1, players + 1)
    if schedules.uses_pools(players):
        first = schedules.first_round(schedules.divide_pools(field_)).slots
        elite, final = len(schedules.FOUR_PLAYER_TABLE), len(schedules.FOUR_PLAYER_TABLE)
        first_consolation = schedules.consolation(
            schedules.FIRST_ROUND_CONSOLATION, range(1, players - 7)
        ).slots
        return first + max(elite + final, first_consolation)
    robin = schedules.small_field_round_robin(field_).slots
    consolation = schedules.consolation(
        schedules.SMALL_FIELD_CONSOLATION, range(1, players - 3)
    ).slots
    return robin + max(len(schedules.FOUR_PLAYER_TABLE), consolation)


def cohen_stages(event: Event) -> list[CohenStage]:
    stages = list(CohenStage.objects.filter(event=event))
    return sorted(stages, key=lambda s: (s.first_round, STAGE_ORDER.index(Name(s.name))))


def stage_get(event: Event, name: str) -> CohenStage:
    try:
        return CohenStage.objects.get(event=event, name=name)
    except CohenStage.DoesNotExist as exc:
        raise UserError(f"the {name.replace('_', ' ')} stage has not started") from exc


def previous_ranks(event: Event) -> dict[int, int]:
    return dict(
        Player.objects.filter(event=event, previous_rank__isnull=False).values_list(
            "start_no", "previous_rank"
        )
    )


def stage_complete(stage: CohenStage, complete_rounds: int) -> bool:
    """Every game up to the stage's last round has a result (module docstring)."""
    return not stage.slots or complete_rounds >= stage.rounds[-1]


def stage_advancement(
    stage: CohenStage,
    crosstable: Crosstable,
    previous_rank: Mapping[int, int],
    lot_order: Sequence[int] | None,
) -> Advancement:
    """Seed 002 first round rules 4–7, Elite Eight rules 4–7, or (7 or fewer players) first
    round rules 3–5: who goes on, who goes to the consolation, and why. Raises
    :class:`~formats.cohen.rules.CohenTieError` for a tie only a lot can break."""
    arguments = {"rounds": stage.rounds, "previous_rank": previous_rank, "lot_order": lot_order}
    try:
        if stage.name == Name.SMALL_FIELD:
            return advance_small_field(crosstable, stage.players, **arguments)  # type: ignore[arg-type]
        pools = stage_pools(stage)
        assert pools is not None
        if stage.name == Name.FIRST_ROUND:
            return advance_first_round(crosstable, pools, **arguments)  # type: ignore[arg-type]
        return advance_elite_eight(crosstable, pools, **arguments)  # type: ignore[arg-type]
    except RankingError as exc:  # a recorded lot that misses a tied player
        raise UserError(f"the recorded lot does not settle the tie: {exc}") from exc


def tie_message(error: CohenTieError) -> str:
    players = ", ".join(str(p) for p in error.tied)
    return (
        f"Players {players} are level on every ranking criterion "
        f"({cite(COHEN_CHESS, 'ranking rules 1–6')}) where the format needs a decision ({error}). "
        "Record a lot: draw it from the event's lots seed, or enter the order of a physical draw, "
        "then advance again."
    )


# -- pool tables -------------------------------------------------------------------------------


@dataclass(frozen=True)
class PoolRow:
    place: int
    start_no: int
    name: str
    pool_points: object
    points: object
    advanced: bool
    route: str
    reason: str


@dataclass(frozen=True)
class PoolTable:
    pool: str
    rows: tuple[PoolRow, ...]
    tied_for_winner: tuple[int, ...]


@dataclass(frozen=True)
class StageSummary:
    stage: CohenStage
    label: str
    clause: str
    rounds: tuple[int, ...]
    complete: bool
    pools: tuple[PoolTable, ...]
    preview: Advancement | None = None
    preview_error: str = ""
    can_advance: bool = False


def _pool_table(
    ranking: PoolRanking, names: Mapping[int, str], decisions: Mapping[int, Mapping[str, object]]
) -> PoolTable:
    by_no = {row.start_no: row for row in ranking.winner_standings}
    rest = {row.start_no: row for row in ranking.rest_standings}
    rows = []
    for start_no, place in ranking.places:
        winner_row = by_no[start_no]
        standing = rest.get(start_no, winner_row)
        decision = decisions.get(start_no, {})
        rows.append(
            PoolRow(
                place=place,
                start_no=start_no,
                name=names.get(start_no, ""),
                pool_points=winner_row.values.get("POOLPTS"),
                points=standing.points,
                advanced=decision.get("route") in ("pool-winner", "overall"),
                route=str(decision.get("route", "")),
                reason=str(decision.get("reason", "")),
            )
        )
    return PoolTable(ranking.pool, tuple(rows), ranking.tied_for_winner)


def _pool_tables(
    stage: CohenStage,
    crosstable: Crosstable,
    previous_rank: Mapping[int, int],
    names: Mapping[int, str],
    decisions: Mapping[int, Mapping[str, object]],
) -> tuple[PoolTable, ...]:
    """Each pool ranked by seed 002 ranking rules 3 A–B, 4 and 5 as the games stand."""
    if not stage.players:
        return ()
    upto = min(stage.rounds[-1] if stage.slots else crosstable.rounds, crosstable.rounds)
    table = truncate(crosstable, upto)
    tables = []
    for pool, members in stage.pools.items():
        ranking = rank_pool(table, pool, members, rounds=stage.rounds, previous_rank=previous_rank)
        tables.append(_pool_table(ranking, names, decisions))
    return tuple(tables)


@dataclass(frozen=True)
class CohenOverview:
    event: Event
    stages: tuple[StageSummary, ...]
    names: dict[int, str]
    final: FinalStandings | None
    final_note: str
    rounds_needed: int
    can_start: bool
    players: int
    tie: tuple[int, ...] = field(default_factory=tuple)

    @property
    def final_rows(self) -> list[tuple[object, str]]:
        """The final places with each player's name, for the page."""
        rows = self.final.rows if self.final is not None else ()
        return [(row, self.names.get(row.start_no, "")) for row in rows]


def _advancement_preview(
    stage: CohenStage, crosstable: Crosstable, previous_rank: Mapping[int, int]
) -> tuple[Advancement | None, str]:
    """Who would advance if the stage ended now, or why that cannot be said (a tie the
    seed's rules leave to the arbiter, or the stage's own refusal)."""
    try:
        return stage_advancement(stage, crosstable, previous_rank, stage.lot_order), ""
    except CohenTieError as exc:
        return None, tie_message(exc)
    except UserError as exc:
        return None, str(exc)


def _decisions_shown(
    stage: CohenStage, preview: Advancement | None
) -> dict[int, Mapping[str, object]]:
    """Each player's advancement decision: the preview's while the stage can advance, else
    the stored ones."""
    if preview is not None:
        return {d.start_no: _decision_record(d) for d in preview.decisions}
    return {d["start_no"]: d for d in stage.decisions}


def _stage_summary(
    stage: CohenStage,
    crosstable: Crosstable,
    complete_rounds: int,
    previous_rank: Mapping[int, int],
    names: Mapping[int, str],
) -> StageSummary:
    complete = stage_complete(stage, complete_rounds)
    preview, error = None, ""
    advanceable = stage.name in NEXT_STAGES and stage.status == "playing"
    if advanceable and complete:
        preview, error = _advancement_preview(stage, crosstable, previous_rank)
    decisions = _decisions_shown(stage, preview)
    schedule = stage_schedule(stage.name, stage.pools, stage.first_round) if stage.players else None
    return StageSummary(
        stage=stage,
        label=stage.get_name_display(),
        clause=schedule.clause if schedule else "",
        rounds=stage.rounds,
        complete=complete,
        pools=_pool_tables(stage, crosstable, previous_rank, names, decisions),
        preview=preview,
        preview_error=error,
        can_advance=advanceable and complete and preview is not None,
    )


def _decision_record(decision: object) -> dict[str, object]:
    from standings.output import exact_text

    return {
        "start_no": decision.start_no,  # type: ignore[attr-defined]
        "route": decision.route,  # type: ignore[attr-defined]
        "overall_place": decision.overall_place,  # type: ignore[attr-defined]
        "points": exact_text(decision.points),  # type: ignore[attr-defined]
        "reason": decision.reason,  # type: ignore[attr-defined]
    }


def decision_records(advancement: Advancement) -> list[dict[str, object]]:
    return [_decision_record(decision) for decision in advancement.decisions]


def cohen_overview(event: Event) -> CohenOverview:
    """Everything the stage pages show, in a fixed number of queries."""
    stages = cohen_stages(event)
    crosstable = event_crosstable(event)
    complete_rounds = last_complete_round(event)
    previous_rank = previous_ranks(event)
    names = {entrant.start_no: entrant.name for entrant in crosstable.entrants}
    views = tuple(
        _stage_summary(stage, crosstable, complete_rounds, previous_rank, names) for stage in stages
    )
    final, note = final_places_of(event, stages, crosstable, complete_rounds, previous_rank)
    players = len(names)
    return CohenOverview(
        event=event,
        stages=views,
        names=names,
        final=final,
        final_note=note,
        rounds_needed=cohen_rounds_needed(players) if players >= 4 else 0,
        can_start=not stages and players >= schedules.SMALL_FIELD_MINIMUM,
        players=players,
        tie=final_four_tie_of(stages, crosstable, complete_rounds, previous_rank),
    )


# -- the Final Four tie and the final places ---------------------------------------------------


def final_four_tie_of(
    stages: Sequence[CohenStage],
    crosstable: Crosstable,
    complete_rounds: int,
    previous_rank: Mapping[int, int],
) -> tuple[int, ...]:
    """Seed 002 Final Four rules 3–4: the players level on Final Four pool points at the top,
    once the Final Four's three game slots are played; () otherwise."""
    final_four = next((s for s in stages if s.name == Name.FINAL_FOUR), None)
    if final_four is None or not stage_complete(final_four, complete_rounds):
        return ()
    return final_four_tie(
        crosstable,
        StageField(final_four.players, final_four.rounds),
        previous_rank=previous_rank,
    )


def cohen_final_four_tie(event: Event) -> tuple[int, ...]:
    """The playoff's tie source for Cohen events (``playoffs.selectors.tied_for_first``)."""
    return final_four_tie_of(
        cohen_stages(event),
        event_crosstable(event),
        last_complete_round(event),
        previous_ranks(event),
    )


def _field(stages: Mapping[str, CohenStage], name: str) -> StageField | None:
    stage = stages.get(name)
    return None if stage is None else StageField(stage.players, stage.rounds)


def final_places_of(
    event: Event,
    stages: Sequence[CohenStage],
    crosstable: Crosstable,
    complete_rounds: int,
    previous_rank: Mapping[int, int],
) -> tuple[FinalStandings | None, str]:
    """Places 1–N (seed 002 Final Four rules 7–8, Consolation Tournaments 1–2 C–D) once every
    stage is played, with the Final Four's extra games decided; else None and why not."""
    by_name = {stage.name: stage for stage in stages}
    final_four = by_name.get(Name.FINAL_FOUR)
    if final_four is None:
        return None, "The final places follow once the Final Four has been played."
    if any(not stage_complete(stage, complete_rounds) for stage in stages):
        return None, "The final places follow once every stage's games have been played."
    winner = None
    tie = final_four_tie_of(stages, crosstable, complete_rounds, previous_rank)
    if tie:
        winner = _extra_games_winner(event)
        if winner is None:
            players = ", ".join(str(p) for p in tie)
            return None, (
                f"Players {players} tie on Final Four pool points: the extra games of Final "
                "Four rules 3–4 (the playoff page) decide the winner."
            )
    first_consolation = _field(by_name, Name.CONSOLATION_FIRST_ROUND) or _field(
        by_name, Name.SMALL_CONSOLATION
    )
    places = final_places(
        crosstable,
        final_four=StageField(final_four.players, final_four.rounds),
        elite_eight_consolation=_field(by_name, Name.CONSOLATION_ELITE_EIGHT),
        first_round_consolation=first_consolation,
        final_four_winner=winner,
        previous_rank=previous_rank,
    )
    return places, ""


def _extra_games_winner(event: Event) -> int | None:
    from playoffs import rules
    from playoffs.selectors import event_playoff

    try:
        plan = event_playoff(event)
    except rules.PlayoffInputError:
        return None
    if plan is None or plan.status != "decided":
        return None
    return plan.winner


def cohen_final_places(event: Event) -> tuple[FinalStandings | None, str]:
    stages = cohen_stages(event)
    return final_places_of(
        event, stages, event_crosstable(event), last_complete_round(event), previous_ranks(event)
    )


FINAL_PLACE = "PLACE"  # decided_by of a row placed by the format (stage blocks), not by points


def cohen_final_table(event: Event, table: StandingsTable) -> StandingsTable:
    """The standings as final places 1–N once the event is complete (seed 002 Final Four
    rules 7–8, Consolation rules 1–2 C–D); the overall ranking's values stay on each row."""
    if table.after_round != event.rounds:
        return table
    places, _ = cohen_final_places(event)
    if places is None:
        return table
    by_no = {row.start_no: row for row in table.rows}
    rows = []
    for index, place in enumerate(places.rows):
        below = places.rows[index + 1] if index + 1 < len(places.rows) else None
        level = below is not None and below.place == place.place
        rows.append(
            replace(
                by_no[place.start_no],
                rank=place.place,
                shared=place.shared,
                decided_by=None if below is None or level else FINAL_PLACE,
                comparisons=(),
            )
        )
    clause = cite(COHEN_CHESS, "Final Four rules 7–8, Consolation Tournaments 1–2 C–D")
    note = (
        f"Final places ({clause}): the Final Four 1–4, then each consolation's block; PLACE "
        "marks a place set by the format."
    )
    return replace(table, rows=tuple(rows), notes=(*table.notes, note))


# -- the event page's status and next steps (events.formats, ``status`` / ``steps``) ----------


def cohen_status(event: Event) -> str | None:
    """The stage being played, complete, or the final places (seed 002's stages); None before
    the first stage (the core's "Registration")."""
    overview = cohen_overview(event)
    if not overview.stages:
        return None
    if overview.final is not None:
        return "Final places decided"
    current = overview.stages[-1]
    state = "complete" if current.complete else "in progress"
    return f"{current.label} {state} (rounds {_rounds_text(current.rounds)} of {event.rounds})"


def _rounds_text(rounds: Sequence[int]) -> str:
    if not rounds:
        return "none"
    return f"{rounds[0]}–{rounds[-1]}" if len(rounds) > 1 else str(rounds[0])


def cohen_steps(event: Event, role: str | None) -> list[Step]:
    """For the director: start the first stage; decide who goes on from a complete stage."""
    if role != "director":
        return []
    overview = cohen_overview(event)
    url = reverse("cohen:stages", args=[event.slug])
    if overview.can_start:
        return [Step("Divide the pools and start the first stage", url)]
    return [
        Step(f"Decide who goes on from the {view.label}", url)
        for view in overview.stages
        if view.stage.status == "playing" and view.complete and view.stage.name in NEXT_STAGES
    ]
