"""Cohen Chess writes (seed 002): start a stage, advance a stage. HackSoft style: ``noun_verb``,
keyword-only, one transaction, one audit entry, the results version bumped.

- :func:`cohen_stage_start` opens the event: the seeding order and the two pools (8 or more
  players) or the round robin (7 or fewer), scheduled from round 1 by :mod:`formats.cohen.draw`.
- :func:`cohen_stage_advance` is the director's one confirmed action after a stage: it ranks
  the stage with :mod:`formats.cohen.rules`, records who goes on and why, and schedules the next
  main stage and the consolation of those who went out, in the rounds that follow
  (:mod:`formats.cohen.selectors` says how they share rounds).

A tie that only a lot can break (:class:`~formats.cohen.rules.CohenTieError`) is refused with a
message that asks for one; the director then draws it from the event's lots seed
(``draws.lots.LotDrawer(lots_seed, "cohen-<stage>-lot")`` shuffling the stage's start numbers
in ascending order, reproducible by anyone) or enters the order of a physical draw.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from draws.lots import LotDrawer
from events.errors import UserError
from events.models import Event, EventSystem, Game, Player, Round, RoundSlot
from events.selectors import event_crosstable, last_complete_round
from events.services import (
    PairingInput,
    UserLike,
    event_changed,
    event_require_open,
    round_pairings_set,
)
from formats.cohen import draw as schedules
from formats.cohen.draw import CohenFormatError, StageGame
from formats.cohen.models import CohenStage, CohenStageStatus
from formats.cohen.rules import Advancement, CohenTieError
from formats.cohen.selectors import (
    NEXT_STAGES,
    Name,
    cohen_rounds_needed,
    decision_records,
    pools_record,
    previous_ranks,
    stage_advancement,
    stage_complete,
    stage_get,
    stage_schedule,
    tie_message,
)

LOT_FROM_SEED = "seed"


def _locked(event: Event) -> Event:
    return Event.objects.select_for_update().get(pk=event.pk)


def _actor(user: UserLike) -> Any:
    return user if user is not None and user.is_authenticated else None


def _games_append(event: Event, round_no: int, games: Sequence[StageGame]) -> None:
    """Add games to a round that already has some (a consolation running on beside a later
    stage), on the boards after the last one; RoundSlot still refuses a player twice."""
    rnd = Round.objects.get(event=event, number=round_no)
    players = {p.start_no: p for p in Player.objects.filter(event=event)}
    board = Game.objects.filter(round=rnd).aggregate(last=Max("board"))["last"] or 0
    try:
        with transaction.atomic():
            for offset, stage_game in enumerate(games, start=1):
                game = Game.objects.create(
                    round=rnd,
                    board=board + offset,
                    white=players[stage_game.white],
                    black=players[stage_game.black],
                )
                RoundSlot.objects.bulk_create(
                    [
                        RoundSlot(round=rnd, player=game.white, game=game),
                        RoundSlot(round=rnd, player=game.black, game=game),
                    ]
                )
    except IntegrityError as exc:
        raise UserError(f"round {round_no}: a player of the new stage already plays") from exc


def _schedule_write(event: Event, games: Sequence[StageGame], user: UserLike) -> None:
    """Write the games round by round: a new round through ``round_pairings_set``, a round
    that already has games by appending (module docstring of ``cohen_selectors``)."""
    by_round: dict[int, list[StageGame]] = {}
    for game in games:
        by_round.setdefault(game.round, []).append(game)
    existing = set(
        Game.objects.filter(round__event=event, round__number__in=by_round).values_list(
            "round__number", flat=True
        )
    )
    for round_no in sorted(by_round):
        if round_no > event.rounds:
            raise UserError(
                f"the schedule needs round {round_no} but the event has {event.rounds} rounds"
            )
        if round_no in existing:
            _games_append(event, round_no, by_round[round_no])
            continue
        round_pairings_set(
            event=event,
            round_no=round_no,
            pairings=[
                PairingInput(board, game.white, game.black)
                for board, game in enumerate(by_round[round_no], start=1)
            ],
            user=user,
            audit=False,
        )


def _stages_create(
    event: Event,
    stages: Sequence[tuple[str, Mapping[str, list[int]]]],
    first_round: int,
    user: UserLike,
) -> list[CohenStage]:
    """Create the stages (main stage first, so it takes the first boards) and their games."""
    created, games = [], []
    for name, pools in stages:
        try:
            schedule = stage_schedule(name, pools, first_round)
        except CohenFormatError as exc:
            raise UserError(str(exc)) from exc
        games += list(schedule.games)
        created.append(
            CohenStage.objects.create(
                event=event,
                name=name,
                pools=dict(pools),
                first_round=first_round,
                slots=schedule.slots,
            )
        )
    _schedule_write(event, games, user)
    return created


def _opening_stage(event: Event) -> tuple[str, dict[str, list[int]]]:
    """Seed 002: two pools for 8 or more players (first round rule 1, divided serpentine over
    the seeding order, ``formats.cohen.draw``), else one round robin (7 or fewer, rule 1)."""
    players = list(Player.objects.filter(event=event).values_list("start_no", "rating"))
    if len(players) < schedules.SMALL_FIELD_MINIMUM:
        raise UserError(
            f"a Cohen Chess event needs at least {schedules.SMALL_FIELD_MINIMUM} players "
            f"(a Final Four); {len(players)} are registered"
        )
    seeding = schedules.seeding_order(dict(players), previous_ranks(event))
    if schedules.uses_pools(len(seeding)):
        return Name.FIRST_ROUND, pools_record(schedules.divide_pools(seeding))
    return Name.SMALL_FIELD, pools_record(None, seeding)


@transaction.atomic
def cohen_stage_start(*, event: Event, user: UserLike) -> CohenStage:
    """Open a Cohen Chess event: divide the pools (or seed the round robin) and schedule the
    first stage from round 1. Sets the event's number of rounds to what the whole schedule
    needs (audited with the value before)."""
    event_require_open(event)
    event = _locked(event)
    if event.system != EventSystem.COHEN:
        raise UserError("this event is not played in the Cohen Chess format (system 'cohen')")
    if CohenStage.objects.filter(event=event).exists():
        raise UserError("the first stage has already started")
    if Game.objects.filter(round__event=event).exists():
        raise UserError("the event already has games; the Cohen schedule starts from round 1")
    name, pools = _opening_stage(event)
    rounds_before = event.rounds
    event.rounds = cohen_rounds_needed(sum(len(members) for members in pools.values()))
    event.save(update_fields=["rounds"])
    (stage,) = _stages_create(event, [(name, pools)], 1, user)
    event_changed(
        event=event,
        user=user,
        action="cohen.stage.start",
        summary=f"Started the {stage.get_name_display()} (rounds {_span(stage)}); the event "
        f"now has {event.rounds} rounds",
        before={"rounds": rounds_before},
        after={"stage": name, "pools": pools, "rounds": event.rounds},
    )
    return stage


def _span(stage: CohenStage) -> str:
    if not stage.slots:
        return "no games"
    return f"{stage.rounds[0]}–{stage.rounds[-1]}" if stage.slots > 1 else str(stage.rounds[0])


def _lot(event: Event, stage: CohenStage, lot: str | Sequence[int] | None) -> None:
    """Record the lot on the stage: drawn from the lots seed, or a physical draw's order."""
    if lot is None:
        return
    if lot == LOT_FROM_SEED:
        drawer = LotDrawer(event.lots_seed, f"cohen-{stage.name}-lot")
        stage.lot_order, stage.lot_source = drawer.shuffle(sorted(stage.players)), "seed"
        return
    order = list(lot)
    unknown = sorted(set(order) - set(stage.players))
    if unknown:
        raise UserError(f"the lot names players who are not in this stage: {unknown}")
    if len(set(order)) != len(order):
        raise UserError("the lot lists a player twice")
    stage.lot_order, stage.lot_source = order, "entered"


def _next_stages(
    stage: CohenStage, advancement: Advancement
) -> list[tuple[str, dict[str, list[int]]]]:
    main, consolation = NEXT_STAGES[Name(stage.name)]
    stages = [(main, pools_record(advancement.next_pools, advancement.advanced))]
    if advancement.eliminated:
        stages.append((consolation, pools_record(None, advancement.eliminated)))
    return stages


@transaction.atomic
def cohen_stage_advance(
    *,
    event: Event,
    stage_name: str,
    user: UserLike,
    expected_version: int | None = None,
    lot: str | Sequence[int] | None = None,
) -> CohenStage:
    """Seed 002 first round rules 4–7, Elite Eight rules 4–7, or the 7-or-fewer first round
    rules 3–5: record who goes on and why, then start the next stage and the consolation.

    ``expected_version`` is the results version of the page the director confirmed; if any
    result changed since, the advance is refused (the preview they saw may be stale).
    ``lot``: ``"seed"`` or a list of start numbers (best first) to record a lot first.
    """
    event_require_open(event)
    event = _locked(event)
    if expected_version is not None and expected_version != event.results_version:
        raise UserError(
            "results changed since you opened this page; check the advancement again and confirm"
        )
    stage = stage_get(event, stage_name)
    stage = CohenStage.objects.select_for_update().get(pk=stage.pk)
    if stage.name not in NEXT_STAGES:
        raise UserError(f"the {stage.get_name_display()} is not advanced; it places its players")
    if stage.status == CohenStageStatus.ADVANCED:
        raise UserError(f"the {stage.get_name_display()} has already been advanced")
    if not stage_complete(stage, last_complete_round(event)):
        raise UserError(
            f"the {stage.get_name_display()} is not complete: every game of rounds "
            f"{_span(stage)} (and of the rounds before) needs a result"
        )
    _lot(event, stage, lot)
    try:
        advancement = stage_advancement(
            stage, event_crosstable(event), previous_ranks(event), stage.lot_order
        )
    except CohenTieError as exc:
        raise UserError(tie_message(exc)) from exc
    stage.status = CohenStageStatus.ADVANCED
    stage.advanced = list(advancement.advanced)
    stage.decisions = decision_records(advancement)
    stage.advanced_by = _actor(user)
    stage.advanced_at = timezone.now()
    stage.save()
    created = _stages_create(event, _next_stages(stage, advancement), stage.rounds[-1] + 1, user)
    event_changed(
        event=event,
        user=user,
        action="cohen.stage.advance",
        summary=f"Advanced the {stage.get_name_display()}: {_players(advancement.advanced)} go "
        f"on to the {created[0].get_name_display()}"
        + (
            f"; {_players(advancement.eliminated)} to the consolation"
            if advancement.eliminated
            else ""
        ),
        after={
            "stage": stage.name,
            "advanced": list(advancement.advanced),
            "eliminated": list(advancement.eliminated),
            "moved": list(advancement.moved),
            "lot_order": stage.lot_order,
            "lot_source": stage.lot_source,
        },
    )
    return stage


def _players(start_nos: Sequence[int]) -> str:
    return ", ".join(str(n) for n in start_nos)
