"""The playoff engine: given a tie for first, the regulation and the results so far, what next.

Pure: no Django. :func:`plan` is a state function. It rebuilds the whole playoff from its inputs
(the tied players in final-ranking order, the regulation code, the event's lots seed, the
recorded results, coin tosses and arbiter decision) every time, so the page, the ``playoff``
command and an import all see the same plan, and a corrected result simply re-plans.

Regulations (registry :data:`REGULATIONS`, keyed by the codes a regulation preset names as its
``playoff_rule``; a format registers its own through :func:`rule_register`):

- ``gct-2019-rapid-blitz``: seed 000 2.1–2.5 (rapid mini-match or blitz round robin, then
  Armageddon knock-out with byes down to 2, 4 or 8).
- ``gct-2019-classical``: seed 000 3.1–3.7 (rapid round robin, up to three blitz round robins,
  colour reversal, fresh draws, then the chief arbiter, 3.5).
- ``cohen-final-four``: seed 002, Final Four rules 3–4 and Player Piece Color rule 3,
  registered by :mod:`formats.cohen.playoff`.

Matching inputs. A :class:`PlayoffResult` or :class:`CoinToss` names its game by stage number
and game number, both counted from 1 in the order the engine schedules them (stage order, then
board order of the Berger table round by round). Anything that matches no scheduled game is an
error, never silently dropped. :func:`results_from_rows` numbers design.md's ``playoff_games``
rows (stage, then order within the stage).

Lots (design.md §3, "Randomness is auditable"). Every lot is ``draws.lots.LotDrawer(seed,
purpose)`` over the players' start numbers in ascending order, with ``k`` the stage number:

- ``playoff-stage-{k}-pairing-numbers``: shuffle; the i-th start number gets pairing number i
  (2.3, 3.3, 3.7).
- ``playoff-stage-{k}-armageddon-byes``: shuffle; the first 2P − n players have the byes (2.4.1).
- ``playoff-stage-{k}-armageddon-pairings``: shuffle of the others; consecutive players meet.
- ``playoff-stage-{k}-armageddon-coin-{g}``: heads means the first-drawn player of game ``g``
  wins the toss, unless the chief arbiter's physical toss is recorded (2.5.3).

Decisions where the seeds are silent (each also in the docstring of the code that applies it):

- "Still tied" after a round robin: the players sharing the stage's top score go on; the rest
  are eliminated (2.4, 3.4).
- ``order`` (winner first) is known only once the plan is decided. Below the winner: players
  eliminated later rank above those eliminated earlier; within a round-robin stage by their
  score in it; losers of one Armageddon round share a place. Groups that nothing separates stay
  tied (:attr:`PlayoffPlan.order_groups`); within a group the flat ``order`` keeps the tied
  input order, which is not a ranking. For Rapid & Blitz events this order is informational:
  the playoff decides the title only (2.6).
- Armageddon with n > 8 players: P is the largest power of two not above n, which is the
  seed's "next lower of 2, 4, 8" for every n up to 16 and the only workable extension beyond.
- An Armageddon game needs a winner: a double forfeit ("-/-") there is an input error.
- Classical 3.5: the :class:`ArbiterDecision` orders the players still in the tie; those
  eliminated earlier keep their places below.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import TypeVar

from draws.berger import double_round_robin, single_round_robin, without_free_round
from draws.lots import LotDrawer
from events.registries import Registry
from events.sources import GCT_2019, cite
from playoffs.timecontrols import (
    GCT_ARMAGEDDON,
    GCT_BLITZ,
    GCT_CLASSICAL_RAPID_MATCH,
    GCT_CLASSICAL_RAPID_ROUND_ROBIN,
    GCT_RB_RAPID_MATCH,
    TimeControl,
)

GCT_RAPID_BLITZ = "gct-2019-rapid-blitz"
GCT_CLASSICAL = "gct-2019-classical"

STATUSES = ("none", "scheduled", "in_progress", "decided", "arbiter_decides")
# design.md §4 names these five stage kinds; "extra_game" is this engine's extension for the
# Cohen Chess Final Four (formats/cohen), which design.md's list predates.
STAGE_KINDS = ("rapid_match", "rapid_round_robin", "blitz_round_robin", "blitz_match", "armageddon")
EXTENSION_STAGE_KINDS = ("extra_game",)

CLASSICAL_ROUND_ROBIN_LIMIT = 4  # seed 000 3.5: one rapid and three blitz round robins
ARMAGEDDON_SIZES = (2, 4, 8)  # seed 000 2.4.1

_HALF = Fraction(1, 2)
_ONE = Fraction(1)
_ZERO = Fraction(0)
# (White's points, Black's points); design.md §4 result codes.
RESULT_POINTS: dict[str, tuple[Fraction, Fraction]] = {
    "1-0": (_ONE, _ZERO),
    "0-1": (_ZERO, _ONE),
    "1/2-1/2": (_HALF, _HALF),
    "+/-": (_ONE, _ZERO),
    "-/+": (_ZERO, _ONE),
    "-/-": (_ZERO, _ZERO),
}
COLOURS = ("white", "black")


class PlayoffInputError(ValueError):
    """Input a director can correct (an unknown game, an impossible result, a missing toss).

    Kept apart from bugs (Tabbycat's lesson): views show the message, they do not crash.
    """


# --- inputs -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlayoffResult:
    """A recorded result for game ``game`` of stage ``stage`` (both counted from 1).

    ``white``/``black`` are optional. Given for a game whose colours the schedule fixes, they
    must agree with it (a guard against results typed into the wrong row). Given for an
    Armageddon game whose colours are still pending, they record the colours as played, which
    is how an import restores a playoff whose coin tosses were not exported.
    """

    stage: int
    game: int
    result: str
    white: int | None = None
    black: int | None = None


@dataclass(frozen=True, slots=True)
class CoinToss:
    """The chief arbiter's coin toss for an Armageddon game (seed 000 2.5.3).

    ``toss_winner`` None means the toss drawn by the seeded lot stands; a start number records a
    physical toss instead. ``choice`` is the toss winner's colour, "white" or "black"; None
    while they have not chosen, and the game's colours stay pending until they do.
    """

    stage: int
    game: int
    choice: str | None = None
    toss_winner: int | None = None


@dataclass(frozen=True, slots=True)
class ArbiterDecision:
    """Seed 000 3.5: the chief arbiter resolves the remaining tie "by other means".

    ``order`` lists every player still in the tie, best first; ``reason`` records the means.
    """

    order: tuple[int, ...]
    reason: str


# --- outputs ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TossOutcome:
    """Who won an Armageddon coin toss, how it was made ("lot" or "recorded"), their choice."""

    winner: int
    source: str
    choice: str | None


@dataclass(frozen=True, slots=True)
class PlayoffGame:
    """One scheduled game. ``players`` is (White, Black) whenever colours are fixed by the
    schedule; for Armageddon it is the drawn pair and ``white``/``black`` stay None while the
    colours are pending (the toss winner has not chosen, 2.5.3)."""

    number: int
    round: int
    players: tuple[int, int]
    white: int | None
    black: int | None
    time_control: TimeControl | None
    result: str | None = None
    toss: TossOutcome | None = None

    @property
    def colours_pending(self) -> bool:
        return self.white is None

    def points_of(self, start_no: int) -> Fraction | None:
        """The player's points from this game, None while it is unplayed."""
        if self.result is None:
            return None
        white_points, black_points = RESULT_POINTS[self.result]
        if start_no == self.white:
            return white_points
        if start_no == self.black:
            return black_points
        raise ValueError(f"{start_no} did not play this game")


@dataclass(frozen=True, slots=True)
class Stage:
    """One playoff stage: a round robin, a mini-match, an Armageddon round, an extra game.

    ``players`` are everyone in the stage (ranking order), ``byes`` those of them who do not
    play in it (Armageddon 2.4.1, MSO odd fields). ``pairing_numbers`` pairs (pairing number,
    start number) for round robins. ``pairing_source`` says how pairings and colours came about:
    "lot" (2.3, 3.3), "reversed" (3.6: same pairing numbers, colours swapped), "fresh_lot"
    (3.7), "coin_toss" (Armageddon, 2.5.3), "ranking" (Cohen colour rule 3).
    """

    number: int
    kind: str
    clause: str
    players: tuple[int, ...]
    byes: tuple[int, ...]
    games: tuple[PlayoffGame, ...]
    time_control: TimeControl | None
    pairing_numbers: tuple[tuple[int, int], ...] = ()
    pairing_source: str = "lot"

    @property
    def complete(self) -> bool:
        return all(game.result is not None for game in self.games)

    def scores(self) -> tuple[tuple[int, Fraction], ...]:
        """(start number, points in this stage so far), in ``players`` order."""
        totals = dict.fromkeys(self.players, _ZERO)
        for game in self.games:
            for player in game.players:
                points = game.points_of(player)
                if points is not None:
                    totals[player] += points
        return tuple(totals.items())


@dataclass(frozen=True, slots=True)
class PlayoffPlan:
    """The playoff's state: design.md §4's playoff object, plus what the pages need.

    ``order_groups`` is the final order once known (winner's group first); players in one group
    share a place. It is empty until the plan is decided.
    """

    regulation: str
    status: str
    tied: tuple[int, ...]
    winner: int | None
    order_groups: tuple[tuple[int, ...], ...]
    stages: tuple[Stage, ...]
    decided_by: str = ""
    arbiter_decision: ArbiterDecision | None = None

    @property
    def order(self) -> tuple[int, ...]:
        """The flat order of design.md §4 (groups in tied-input order inside)."""
        return tuple(player for group in self.order_groups for player in group)


@dataclass(frozen=True, slots=True)
class PlayoffStart:
    """When the playoff starts: the day, and the earliest instant when the seed fixes one."""

    day: dt.date
    not_before: dt.datetime | None
    clause: str


# --- the context every rule works in ----------------------------------------------------------


_Recorded = TypeVar("_Recorded", PlayoffResult, CoinToss)


def _index_by_game(items: Iterable[_Recorded], what: str) -> dict[tuple[int, int], _Recorded]:
    index: dict[tuple[int, int], _Recorded] = {}
    for item in items:
        key = (item.stage, item.game)
        if key in index:
            raise PlayoffInputError(f"two {what}s for stage {key[0]} game {key[1]}")
        index[key] = item
    return index


class PlayoffContext:
    """The inputs of one :func:`plan` call, and a record of which of them were used."""

    def __init__(
        self,
        *,
        regulation: str,
        tied: tuple[int, ...],
        seed: str,
        results: Sequence[PlayoffResult],
        coin_tosses: Sequence[CoinToss],
        arbiter_decision: ArbiterDecision | None,
        event_time_control: TimeControl | None,
        scheduled_rounds: int,
    ) -> None:
        self.regulation = regulation
        self.tied = tied
        self.seed = seed
        self.arbiter_decision = arbiter_decision
        self.event_time_control = event_time_control
        self.scheduled_rounds = scheduled_rounds
        self._results = _index_by_game(results, "result")
        self._tosses = _index_by_game(coin_tosses, "coin toss")
        self._used: set[tuple[str, int, int]] = set()
        self._decision_used = False

    def rank(self, players: Iterable[int]) -> tuple[int, ...]:
        """``players`` in the final-ranking order of the tie."""
        wanted = set(players)
        return tuple(player for player in self.tied if player in wanted)

    def result(self, stage: int, game: int) -> PlayoffResult | None:
        found = self._results.get((stage, game))
        if found is not None:
            self._used.add(("result", stage, game))
        return found

    def toss(self, stage: int, game: int) -> CoinToss | None:
        found = self._tosses.get((stage, game))
        if found is not None:
            self._used.add(("coin toss", stage, game))
        return found

    def take_arbiter_decision(self) -> ArbiterDecision | None:
        self._decision_used = True
        return self.arbiter_decision

    def check_all_matched(self) -> None:
        """Inputs for games the plan never scheduled are errors, not silently ignored."""
        for what, keys in (("result", self._results), ("coin toss", self._tosses)):
            for stage, game in sorted(keys):
                if (what, stage, game) not in self._used:
                    raise PlayoffInputError(
                        f"{what} for stage {stage} game {game} matches no scheduled game"
                    )
        if self.arbiter_decision is not None and not self._decision_used:
            raise PlayoffInputError(f"no arbiter decision is called for ({cite(GCT_2019, '3.5')})")

    def unfinished(self, stages: Sequence[Stage]) -> PlayoffPlan:
        played = any(game.result is not None for stage in stages for game in stage.games)
        return PlayoffPlan(
            regulation=self.regulation,
            status="in_progress" if played else "scheduled",
            tied=self.tied,
            winner=None,
            order_groups=(),
            stages=tuple(stages),
        )

    def decided(
        self,
        stages: Sequence[Stage],
        winner: int | None,
        order_groups: Sequence[tuple[int, ...]],
        decided_by: str,
        arbiter_decision: ArbiterDecision | None = None,
    ) -> PlayoffPlan:
        return PlayoffPlan(
            regulation=self.regulation,
            status="decided",
            tied=self.tied,
            winner=winner,
            order_groups=tuple(group for group in order_groups if group),
            stages=tuple(stages),
            decided_by=decided_by,
            arbiter_decision=arbiter_decision,
        )


def _order_from(
    head: Sequence[tuple[int, ...]], eliminations: Sequence[Sequence[tuple[int, ...]]]
) -> tuple[tuple[int, ...], ...]:
    """Winner's groups, then players eliminated later above those eliminated earlier."""
    order = list(head)
    for groups in reversed(eliminations):
        order.extend(groups)
    return tuple(order)


# --- games ------------------------------------------------------------------------------------


def _valid_result(recorded: PlayoffResult) -> str:
    if recorded.result not in RESULT_POINTS:
        raise PlayoffInputError(
            f"stage {recorded.stage} game {recorded.game}: unknown result {recorded.result!r}"
        )
    return recorded.result


def fixed_game(
    ctx: PlayoffContext,
    stage_no: int,
    number: int,
    round_no: int,
    pairing: tuple[int, int],
    time_control: TimeControl | None,
) -> PlayoffGame:
    """A game whose colours the schedule fixes (round robins, Cohen, MSO)."""
    if ctx.toss(stage_no, number) is not None:
        raise PlayoffInputError(
            f"stage {stage_no} game {number}: coin tosses decide colours only in Armageddon"
        )
    white, black = pairing
    recorded = ctx.result(stage_no, number)
    result = None
    if recorded is not None:
        given = (recorded.white, recorded.black)
        if given != (None, None) and given != (white, black):
            raise PlayoffInputError(
                f"stage {stage_no} game {number} is {white}-{black}, "
                f"the result was entered for {recorded.white}-{recorded.black}"
            )
        result = _valid_result(recorded)
    return PlayoffGame(number, round_no, (white, black), white, black, time_control, result)


def _toss_outcome(
    ctx: PlayoffContext, stage_no: int, number: int, pair: tuple[int, int]
) -> TossOutcome:
    """Seed 000 2.5.3: the toss winner chooses. The seeded lot stands in for the coin unless
    the chief arbiter's own toss is recorded."""
    recorded = ctx.toss(stage_no, number)
    if recorded is None or recorded.toss_winner is None:
        lot = LotDrawer(ctx.seed, f"playoff-stage-{stage_no}-armageddon-coin-{number}")
        winner, source = (pair[0] if lot.coin_toss() else pair[1]), "lot"
    elif recorded.toss_winner in pair:
        winner, source = recorded.toss_winner, "recorded"
    else:
        raise PlayoffInputError(
            f"stage {stage_no} game {number}: {recorded.toss_winner} is not in this game"
        )
    choice = recorded.choice if recorded is not None else None
    if choice is not None and choice not in COLOURS:
        raise PlayoffInputError(f"stage {stage_no} game {number}: choose 'white' or 'black'")
    return TossOutcome(winner, source, choice)


def _played_colours(
    recorded: PlayoffResult | None, pair: tuple[int, int]
) -> tuple[int, int] | None:
    if recorded is None or recorded.white is None or recorded.black is None:
        return None
    if {recorded.white, recorded.black} != set(pair):
        raise PlayoffInputError(
            f"stage {recorded.stage} game {recorded.game} is between {pair[0]} and {pair[1]}"
        )
    return recorded.white, recorded.black


def _armageddon_colours(
    pair: tuple[int, int], toss: TossOutcome, recorded: PlayoffResult | None
) -> tuple[int, int] | None:
    """Colours from the toss winner's choice, else from the result as played, else pending."""
    played = _played_colours(recorded, pair)
    if toss.choice is None:
        return played
    other = pair[1] if toss.winner == pair[0] else pair[0]
    chosen = (toss.winner, other) if toss.choice == "white" else (other, toss.winner)
    if played is not None and played != chosen:
        raise PlayoffInputError(
            f"the result has {played[0]} as White, the toss winner's choice gives {chosen[0]}"
        )
    return chosen


def _armageddon_game(
    ctx: PlayoffContext, stage_no: int, number: int, pair: tuple[int, int]
) -> PlayoffGame:
    """Seed 000 2.5: White 5 minutes, Black 4, colours by the toss winner's choice."""
    toss = _toss_outcome(ctx, stage_no, number, pair)
    recorded = ctx.result(stage_no, number)
    colours = _armageddon_colours(pair, toss, recorded)
    result = None
    if recorded is not None:
        if colours is None:
            raise PlayoffInputError(
                f"stage {stage_no} game {number}: record the coin toss choice (2.5.3) first"
            )
        result = _valid_result(recorded)
        if result == "-/-":
            raise PlayoffInputError(
                f"stage {stage_no} game {number}: an Armageddon game needs a winner (2.5.2)"
            )
    white, black = colours if colours is not None else (None, None)
    return PlayoffGame(number, 1, pair, white, black, GCT_ARMAGEDDON, result, toss)


def armageddon_winner(game: PlayoffGame) -> int:
    """Seed 000 2.5.2: a draw is a win for Black (a forfeit wins for the side that turned up)."""
    if game.result is None or game.white is None or game.black is None:
        raise ValueError("the game has not been played")
    return game.white if RESULT_POINTS[game.result][0] == _ONE else game.black


# --- round robins (2.3, 3.3–3.7) --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _RoundRobinSpec:
    kind: str
    clause: str
    time_control: TimeControl
    double: bool


_RB_RAPID_MATCH = _RoundRobinSpec("rapid_match", "2.3, 2.3.1", GCT_RB_RAPID_MATCH, True)
_RB_BLITZ_ROUND_ROBIN = _RoundRobinSpec("blitz_round_robin", "2.3, 2.3.2", GCT_BLITZ, False)
_CLASSICAL_RAPID_MATCH = _RoundRobinSpec(
    "rapid_match", "3.3, 3.3.1", GCT_CLASSICAL_RAPID_MATCH, True
)
_CLASSICAL_RAPID_ROUND_ROBIN = _RoundRobinSpec(
    "rapid_round_robin", "3.3, 3.3.2", GCT_CLASSICAL_RAPID_ROUND_ROBIN, False
)


def draw_pairing_numbers(
    seed: str, stage_no: int, players: Iterable[int]
) -> tuple[tuple[int, int], ...]:
    """(pairing number, start number) by lot (2.3, 3.3, 3.7), pairing number 1 first."""
    drawn = LotDrawer(seed, f"playoff-stage-{stage_no}-pairing-numbers").shuffle(sorted(players))
    return tuple(enumerate(drawn, start=1))


def _round_robin_stage(
    ctx: PlayoffContext,
    number: int,
    spec: _RoundRobinSpec,
    pairing_numbers: tuple[tuple[int, int], ...],
    source: str,
    pairings: Sequence[tuple[int, tuple[int, int]]],
) -> Stage:
    games = tuple(
        fixed_game(ctx, number, game_no, round_no, pairing, spec.time_control)
        for game_no, (round_no, pairing) in enumerate(pairings, start=1)
    )
    return Stage(
        number=number,
        kind=spec.kind,
        clause=spec.clause,
        players=ctx.rank(start_no for _, start_no in pairing_numbers),
        byes=(),
        games=games,
        time_control=spec.time_control,
        pairing_numbers=pairing_numbers,
        pairing_source=source,
    )


def _drawn_round_robin(
    ctx: PlayoffContext, number: int, players: Sequence[int], spec: _RoundRobinSpec, source: str
) -> Stage:
    """Pairing numbers by lot into the Berger table (C.05 Annex 1); two players play twice."""
    pairing_numbers = draw_pairing_numbers(ctx.seed, number, players)
    start_no = dict(pairing_numbers)
    size = len(players)
    table = double_round_robin(size) if spec.double else single_round_robin(size)
    pairings = [
        (round_no, (start_no[white], start_no[black]))
        for round_no, boards in enumerate(without_free_round(table, size), start=1)
        for white, black in boards
    ]
    return _round_robin_stage(ctx, number, spec, pairing_numbers, source, pairings)


def _reversed_round_robin(
    ctx: PlayoffContext, number: int, previous: Stage, spec: _RoundRobinSpec
) -> Stage:
    """Seed 000 3.6: the same players again play with the same pairing numbers, every game
    with the colours of the previous round robin swapped."""
    pairings = [(game.round, (game.players[1], game.players[0])) for game in previous.games]
    return _round_robin_stage(ctx, number, spec, previous.pairing_numbers, "reversed", pairings)


def _split_by_score(
    ctx: PlayoffContext, stage: Stage
) -> tuple[tuple[int, ...], list[tuple[int, ...]]]:
    """(players on the stage's top score, the others in groups of equal score, best first).

    "Still a tie after the round robin" (2.4, 3.4) means sharing the top score of that stage.
    """
    scores = dict(stage.scores())
    levels = sorted(set(scores.values()), reverse=True)
    groups = [ctx.rank(p for p in stage.players if scores[p] == level) for level in levels]
    return groups[0], groups[1:]


# --- Armageddon (2.4–2.5) ---------------------------------------------------------------------


def armageddon_split(players: int) -> tuple[int, int]:
    """(games, byes) in an Armageddon round of ``players`` (seed 000 2.4.1).

    With P the next lower of 2, 4, 8 a round has n − P games and 2P − n byes (3 → 1 game and
    1 bye, 6 → 2 and 2, 9 → 1 and 7); 2, 4 and 8 players simply pair off. Above 16 "P = 8"
    cannot work (n − 8 games need more players than there are), so P is the largest power of
    two not above n, which agrees with the seed wherever the seed works.
    """
    if players < 2:
        raise ValueError("an Armageddon round needs at least two players")
    target = 2
    while target * 2 <= players:
        target *= 2
    if target == players:
        return players // 2, 0
    return players - target, 2 * target - players


def _armageddon_stage(ctx: PlayoffContext, number: int, players: Sequence[int]) -> Stage:
    """Seed 000 2.4, 2.4.1: byes first, then the pairings, both by lot."""
    game_count, bye_count = armageddon_split(len(players))
    bye_lot = LotDrawer(ctx.seed, f"playoff-stage-{number}-armageddon-byes")
    shuffled = bye_lot.shuffle(sorted(players))
    byes, playing = shuffled[:bye_count], sorted(shuffled[bye_count:])
    pairing_lot = LotDrawer(ctx.seed, f"playoff-stage-{number}-armageddon-pairings")
    drawn = pairing_lot.shuffle(playing)
    games = tuple(
        _armageddon_game(ctx, number, game_no, (drawn[2 * i], drawn[2 * i + 1]))
        for game_no, i in enumerate(range(game_count), start=1)
    )
    return Stage(
        number=number,
        kind="armageddon",
        clause="2.4, 2.4.1, 2.5" if byes else "2.4, 2.5",
        players=ctx.rank(players),
        byes=ctx.rank(byes),
        games=games,
        time_control=GCT_ARMAGEDDON,
        pairing_source="coin_toss",
    )


def _armageddon_survivors(
    ctx: PlayoffContext, stage: Stage
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(game winners and bye holders, losers). Losers of one round share a place."""
    winners = {armageddon_winner(game) for game in stage.games}
    survivors = ctx.rank(p for p in stage.players if p in winners or p in stage.byes)
    losers = ctx.rank(p for p in stage.players if p not in survivors)
    return survivors, losers


# --- the rules --------------------------------------------------------------------------------


def _gct_rapid_blitz(ctx: PlayoffContext) -> PlayoffPlan:
    """Seed 000 2.3–2.5: a rapid mini-match (two players) or a blitz round robin, pairing
    numbers by lot; whoever still shares the top score plays Armageddon knock-out rounds."""
    spec = _RB_RAPID_MATCH if len(ctx.tied) == 2 else _RB_BLITZ_ROUND_ROBIN
    stages = [_drawn_round_robin(ctx, 1, ctx.tied, spec, "lot")]
    if not stages[0].complete:
        return ctx.unfinished(stages)
    remaining, dropped = _split_by_score(ctx, stages[0])
    eliminations: list[list[tuple[int, ...]]] = [dropped]
    while len(remaining) > 1:
        stage = _armageddon_stage(ctx, len(stages) + 1, remaining)
        stages.append(stage)
        if not stage.complete:
            return ctx.unfinished(stages)
        remaining, losers = _armageddon_survivors(ctx, stage)
        eliminations.append([losers])
    order = _order_from([remaining], eliminations)
    return ctx.decided(stages, remaining[0], order, stages[-1].clause)


def _classical_blitz_spec(players: int, number: int) -> _RoundRobinSpec:
    """Seed 000 3.4 (first blitz), 3.4.1 (further ones), 3.4.2 (two players: double round)."""
    clause = "3.4" if number == 2 else "3.4.1"
    if players == 2:
        return _RoundRobinSpec("blitz_match", f"{clause}, 3.4.2", GCT_BLITZ, True)
    return _RoundRobinSpec("blitz_round_robin", clause, GCT_BLITZ, False)


def _classical_next(
    ctx: PlayoffContext, number: int, remaining: tuple[int, ...], previous: Stage
) -> Stage:
    """Seed 000 3.6 (the same players: colours reversed) or 3.7 (fewer: a fresh draw)."""
    spec = _classical_blitz_spec(len(remaining), number)
    if set(remaining) == set(previous.players):
        return _reversed_round_robin(
            ctx, number, previous, replace(spec, clause=spec.clause + ", 3.6")
        )
    spec = replace(spec, clause=spec.clause + ", 3.7")
    return _drawn_round_robin(ctx, number, remaining, spec, "fresh_lot")


def _classical_arbiter(
    ctx: PlayoffContext,
    stages: Sequence[Stage],
    remaining: tuple[int, ...],
    eliminations: Sequence[Sequence[tuple[int, ...]]],
) -> PlayoffPlan:
    """Seed 000 3.5: after four round robins the chief arbiter decides by other means."""
    decision = ctx.take_arbiter_decision()
    if decision is None:
        return PlayoffPlan(ctx.regulation, "arbiter_decides", ctx.tied, None, (), tuple(stages))
    order = tuple(decision.order)
    if len(order) != len(remaining) or set(order) != set(remaining):
        raise PlayoffInputError(
            f"the arbiter's order must list exactly the players still tied: {list(remaining)}"
        )
    if not decision.reason.strip():
        raise PlayoffInputError("record the means the chief arbiter used (3.5)")
    groups = _order_from([(player,) for player in order], eliminations)
    return ctx.decided(stages, order[0], groups, "3.5", decision)


def _gct_classical(ctx: PlayoffContext) -> PlayoffPlan:
    """Seed 000 3.3–3.7: a rapid round robin, then up to three blitz round robins among those
    still sharing the top score, then the chief arbiter (3.5)."""
    spec = _CLASSICAL_RAPID_MATCH if len(ctx.tied) == 2 else _CLASSICAL_RAPID_ROUND_ROBIN
    stages = [_drawn_round_robin(ctx, 1, ctx.tied, spec, "lot")]
    eliminations: list[list[tuple[int, ...]]] = []
    while stages[-1].complete:
        remaining, dropped = _split_by_score(ctx, stages[-1])
        eliminations.append(dropped)
        if len(remaining) == 1:
            order = _order_from([remaining], eliminations)
            return ctx.decided(stages, remaining[0], order, stages[-1].clause)
        if len(stages) == CLASSICAL_ROUND_ROBIN_LIMIT:
            return _classical_arbiter(ctx, stages, remaining, eliminations)
        stages.append(_classical_next(ctx, len(stages) + 1, remaining, stages[-1]))
    return ctx.unfinished(stages)


PlayoffRule = Callable[[PlayoffContext], PlayoffPlan]


@dataclass(frozen=True, slots=True)
class RuleSpec:
    """A playoff rule in the registry: its code, its label, the state function, the document its
    stages' clauses belong to (an :mod:`events.sources` code) and, for rules other than the GCT
    ones, the clause that says when it starts (:func:`playoff_start`)."""

    code: str
    label: str
    plan: PlayoffRule
    start_clause: str = ""
    source: str = GCT_2019


REGULATIONS: Registry[RuleSpec] = Registry("playoff regulation", PlayoffInputError)


def rule_register(spec: RuleSpec) -> RuleSpec:
    """A playoff rule; a format registers its own (formats/cohen: ``cohen-final-four``)."""
    return REGULATIONS.register(spec.code, spec)


rule_register(
    RuleSpec(
        GCT_RAPID_BLITZ,
        "Grand Chess Tour 2019, Rapid & Blitz (2.3–2.5)",
        _gct_rapid_blitz,
        source=GCT_2019,
    )
)
rule_register(
    RuleSpec(
        GCT_CLASSICAL, "Grand Chess Tour 2019, Classical (3.3–3.7)", _gct_classical, source=GCT_2019
    )
)


def cite_clause(regulation: str, clause: str) -> str:
    """``clause`` of the playoff rule ``regulation`` cited with its document's name (a stage's
    clause is bare, "2.3, 2.3.2", as the JSON keeps it)."""
    spec = REGULATIONS.get(regulation)
    if spec is None:
        raise PlayoffInputError(f"unknown playoff regulation {regulation!r}")
    return cite(spec.source, clause)


# --- public API -------------------------------------------------------------------------------


def _check_tied(tied: Sequence[int]) -> tuple[int, ...]:
    players = tuple(tied)
    if any(not isinstance(p, int) or isinstance(p, bool) or p < 1 for p in players):
        raise PlayoffInputError("tied players are start numbers (positive integers)")
    if len(set(players)) != len(players):
        raise PlayoffInputError("a tied player is listed twice")
    return players


def plan(
    tied: Sequence[int],
    regulation: str,
    seed: str,
    results: Sequence[PlayoffResult] = (),
    arbiter_decision: ArbiterDecision | None = None,
    coin_tosses: Sequence[CoinToss] = (),
    *,
    event_time_control: TimeControl | None = None,
    scheduled_rounds: int = 0,
) -> PlayoffPlan:
    """The playoff's state and what comes next.

    ``tied``: start numbers in final-ranking order. ``seed``: the event's lots seed.
    ``event_time_control``: the time control of Cohen extra games and MSO extra rounds (they are
    played like the event's games). ``scheduled_rounds``: MSO only, the published number of
    rounds, so that extra round k is tournament round ``scheduled_rounds + k``.
    Status "none" when fewer than two players tie (there is no playoff, and no winner here).
    """
    players = _check_tied(tied)
    rule = REGULATIONS.get(regulation)
    if rule is None:
        raise PlayoffInputError(f"unknown playoff regulation {regulation!r}")
    ctx = PlayoffContext(
        regulation=regulation,
        tied=players,
        seed=seed,
        results=results,
        coin_tosses=coin_tosses,
        arbiter_decision=arbiter_decision,
        event_time_control=event_time_control,
        scheduled_rounds=scheduled_rounds,
    )
    if len(players) < 2:
        outcome = PlayoffPlan(regulation, "none", players, None, (), ())
    else:
        outcome = rule.plan(ctx)
    ctx.check_all_matched()
    return outcome


def games_awaiting_result(playoff: PlayoffPlan) -> tuple[tuple[Stage, PlayoffGame], ...]:
    """The scheduled games without a result (all in the current stage)."""
    return tuple(
        (stage, game) for stage in playoff.stages for game in stage.games if game.result is None
    )


def results_from_rows(rows: Iterable[Mapping[str, object]]) -> tuple[PlayoffResult, ...]:
    """design.md's ``playoff_games`` rows, numbered in order within each stage.

    A row with a null result is a scheduled game not played yet: it takes its number and
    records nothing.
    """
    counters: dict[int, int] = {}
    results: list[PlayoffResult] = []
    for row in rows:
        stage = row.get("stage")
        if not isinstance(stage, int) or stage < 1:
            raise PlayoffInputError(f"playoff game without a valid stage: {dict(row)}")
        counters[stage] = counters.get(stage, 0) + 1
        result, white, black = row.get("result"), row.get("white"), row.get("black")
        if result is None:
            continue
        if not isinstance(result, str):
            raise PlayoffInputError(f"playoff game result must be a string: {dict(row)}")
        if any(not (value is None or isinstance(value, int)) for value in (white, black)):
            raise PlayoffInputError(f"playoff game colours must be start numbers: {dict(row)}")
        results.append(
            PlayoffResult(
                stage=stage,
                game=counters[stage],
                result=result,
                white=white if isinstance(white, int) else None,
                black=black if isinstance(black, int) else None,
            )
        )
    return tuple(results)


def playoff_start(
    regulation: str,
    last_game_end: dt.datetime | None = None,
    last_round_date: dt.date | None = None,
) -> PlayoffStart:
    """When the playoff begins.

    Rapid & Blitz: the same day, thirty minutes after the end of the last game (seed 000 2.2).
    Classical: the reserve day after the last scheduled round (3.2). Any other rule (Cohen
    extra games are game slots four and five of the Final Four round) starts on the last round's
    day, after its last game when that is known, under the rule's ``start_clause``.
    """
    spec = REGULATIONS.get(regulation)
    if spec is None:
        raise PlayoffInputError(f"unknown playoff regulation {regulation!r}")
    if regulation == GCT_RAPID_BLITZ:
        if last_game_end is None:
            raise PlayoffInputError("2.2 needs the end of the last game")
        start = last_game_end + dt.timedelta(minutes=30)
        return PlayoffStart(start.date(), start, "2.2")
    if last_round_date is not None:
        day = last_round_date
    elif last_game_end is not None:
        day = last_game_end.date()
    else:
        raise PlayoffInputError("the date of the last round is needed")
    if regulation == GCT_CLASSICAL:
        return PlayoffStart(day + dt.timedelta(days=1), None, "3.2")
    return PlayoffStart(day, last_game_end, spec.start_clause)


# --- JSON (design.md §4) ----------------------------------------------------------------------


def _game_json(game: PlayoffGame, extended: bool) -> dict[str, object]:
    # Pending Armageddon colours are null: the pair is known, who has White is not.
    data: dict[str, object] = {"white": game.white, "black": game.black, "result": game.result}
    if extended:
        data.update(
            number=game.number,
            round=game.round,
            players=list(game.players),
            colours_pending=game.colours_pending,
            coin_toss=None
            if game.toss is None
            else {
                "winner": game.toss.winner,
                "source": game.toss.source,
                "choice": game.toss.choice,
            },
        )
    return data


def _stage_json(stage: Stage, extended: bool) -> dict[str, object]:
    data: dict[str, object] = {
        "kind": stage.kind,
        "players": list(stage.players),
        "byes": list(stage.byes),
        "games": [_game_json(game, extended) for game in stage.games],
    }
    if extended:
        data.update(
            number=stage.number,
            clause=stage.clause,
            time_control=None if stage.time_control is None else stage.time_control.as_json(),
            pairing_numbers=[
                {"pairing_no": number, "start_no": start_no}
                for number, start_no in stage.pairing_numbers
            ],
            pairing_source=stage.pairing_source,
            scores={str(player): str(points) for player, points in stage.scores()},
        )
    return data


def to_json(playoff: PlayoffPlan, *, extended: bool = False) -> dict[str, object]:
    """design.md §4's playoff object without "event" (the caller adds it).

    ``extended`` adds keys design.md allows ("add more freely"): regulation, decided_by,
    order_groups, arbiter_decision, and per stage and game the clause, time control, pairing
    numbers, scores (Fraction strings), coin toss.
    """
    data: dict[str, object] = {
        "status": playoff.status,
        "tied": list(playoff.tied),
        "winner": playoff.winner,
        "order": list(playoff.order),
        "stages": [_stage_json(stage, extended) for stage in playoff.stages],
    }
    if extended:
        decision = playoff.arbiter_decision
        data.update(
            regulation=playoff.regulation,
            decided_by=playoff.decided_by,
            order_groups=[list(group) for group in playoff.order_groups],
            arbiter_decision=None
            if decision is None
            else {"order": list(decision.order), "reason": decision.reason},
        )
    return data
