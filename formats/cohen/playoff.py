"""The Cohen Chess Final Four playoff (seed 002, Final Four rules 3–4 and Player Piece Color
rule 3): extra games in game slots four and five, as a rule of the playoff engine.

Pure: no Django. Registered in :data:`playoffs.rules.REGULATIONS` as ``cohen-final-four`` when
this module is imported (the format app does so when Django starts), so the engine plans it like
any other playoff: the page, the ``playoff`` command and an import all see the same plan.

Decision where the seed is silent: rule 3 says nothing about a drawn extra game between two
players, and rule 4 has one "other tied player": see :func:`cohen_final_four`.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from events.sources import COHEN_CHESS
from playoffs.rules import (
    RESULT_POINTS,
    PlayoffContext,
    PlayoffGame,
    PlayoffInputError,
    PlayoffPlan,
    RuleSpec,
    Stage,
    fixed_game,
    rule_register,
)
from playoffs.timecontrols import TimeControl

COHEN_FINAL_FOUR = "cohen-final-four"
ZERO = Fraction(0)

# Seed 002, General Rules 5: the event's type fixes the time per player; no delay (Clocks 1).
COHEN_TIME_CONTROLS: dict[str, TimeControl] = {
    "lightning": TimeControl(120, 120),
    "blitz": TimeControl(300, 300),
    "semi-blitz": TimeControl(600, 600),
    "long-blitz": TimeControl(720, 720),
    "short-game": TimeControl(900, 900),
    "standard-game": TimeControl(2100, 2100),
}


def _extra_game_stage(
    ctx: PlayoffContext, number: int, clause: str, higher: int, lower: int
) -> Stage:
    """Seed 002 Player Piece Color rule 3: the higher-ranked player has White."""
    game = fixed_game(ctx, number, 1, 1, (higher, lower), ctx.event_time_control)
    return Stage(
        number=number,
        kind="extra_game",
        clause=clause,
        players=(higher, lower),
        byes=(),
        games=(game,),
        time_control=ctx.event_time_control,
        pairing_source="ranking",
    )


def cohen_final_four(ctx: PlayoffContext) -> PlayoffPlan:
    """Seed 002 Final Four rules 3–4, extra games in game slots four and five.

    Rule 3 (two tied): the top two play one extra game. Rule 4 (three or four tied): the top
    two play; if that is drawn, "the top player and the other tied player" play in slot five.
    With four tied the seed names one other player and one more slot, so the top player meets
    the third-ranked; the fourth plays no extra game. A double forfeit counts like a draw.
    Extra games add pool points (rules 2 and 5); the player with the most wins the pool (7).
    Players still level after them (a drawn rule-3 game, or double forfeits) are separated by
    the pool tie-break chain (Ranking rule 4), whose verdict a draw between the two cannot
    change (it adds the same to both players' pool, head-to-head and overall points), so the
    input ranking order stands. Places 2–4 come from the overall ranking (rule 8): the others
    form one group in ``order``.
    """
    tied = ctx.tied
    if len(tied) > 4:
        raise PlayoffInputError("the Final Four has four players; at most four can tie")
    rule = "Final Four rule 3" if len(tied) == 2 else "Final Four rule 4"
    stages = [_extra_game_stage(ctx, 1, f"{rule} (slot four); colour rule 3", tied[0], tied[1])]
    slot_four = stages[0].games[0]
    if len(tied) > 2 and slot_four.result is not None and not _decisive(slot_four):
        clause = "Final Four rule 4 (slot five); colour rule 3"
        stages.append(_extra_game_stage(ctx, 2, clause, tied[0], tied[2]))
    if not stages[-1].complete:
        return ctx.unfinished(stages)
    return _cohen_decided(ctx, stages)


def _decisive(game: PlayoffGame) -> bool:
    white_points, black_points = RESULT_POINTS[game.result or "-/-"]
    return white_points != black_points


def _cohen_decided(ctx: PlayoffContext, stages: Sequence[Stage]) -> PlayoffPlan:
    """Most extra-game points wins the pool; level players keep the ranking order."""
    points = dict.fromkeys(ctx.tied, ZERO)
    for stage in stages:
        for player, gained in stage.scores():
            points[player] += gained
    best = max(points.values())
    leaders = [player for player in ctx.tied if points[player] == best]
    winner = leaders[0]
    decided_by = stages[-1].clause if len(leaders) == 1 else "Ranking rule 4 (pool tie-break)"
    rest = tuple(player for player in ctx.tied if player != winner)
    return ctx.decided(stages, winner, [(winner,), rest], decided_by)


rule_register(
    RuleSpec(
        COHEN_FINAL_FOUR,
        "Cohen Chess, Final Four extra games (rules 3–4)",
        cohen_final_four,
        start_clause="Final Four rules 3-4",
        source=COHEN_CHESS,
    )
)
