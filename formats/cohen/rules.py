"""Cohen Chess stage advancement and final places (seed 002). Pure: no Django.

Every function takes the event's :class:`~events.records.Crosstable` and the stage's
players and rounds (the caller's; nothing is read from a database) and returns frozen records
that say who advanced, who was placed where, and why.

Rankings (seed 002 "Ranking Players"), all through :func:`standings.ranking.rank` with the
``peel`` multi-way procedure (rule 6) and the chains of :mod:`formats.cohen.presets`:

- a pool's winner: the ``pool_winner`` chain, primary pool points (rule 3 A, rule 4);
- the other places in a pool: the ``pool`` chain, primary cumulative points (rule 3 B, rule 5
  without C);
- the overall ranking: the ``overall`` chain (rule 3 "for ranking overall", rule 5), whose
  ``POOLRANK`` reads the pool places just computed.

"Pool points" are the points of the stage's own rounds (``options["pool_rounds"]``, see
:mod:`standings.chains`). Advancement ranks the crosstable as it stood after the stage's last
round. Consolation games recorded in the same crosstable count in everyone's cumulative points
and so in opponents' points (SOS, STRONG); a club that keeps the consolation apart passes a
crosstable without them.

Decisions where the seed is silent:

- A tie that the whole chain leaves standing (same birth date, no previous ranking) across a
  boundary that matters — a pool's winner, the last qualifying place, the Final Four's winner —
  is not decided silently: :class:`CohenTieError` asks for a recorded lot (``lot_order``), or,
  for the Final Four, the extra games.
- Rebalancing (first round rule 5): "the lowest ranking player of the larger pool" is the
  qualifier with the worst place in that pool's ranking (equal places: the lower overall); it
  is repeated until the pools are four and four.
- The Elite Eight and Final Four rank their players 1–4 (for the colour table) in the order
  they qualified: pool winners first, ordered by the overall ranking, then the others by the
  overall ranking.
- Final Four rules 3–4: a tie for first in Final Four pool points goes to the extra games
  (``playoffs.rules.plan(final_four_tie(...), "cohen-final-four", ...)``); their winner is
  passed back as ``final_four_winner``. The stage's rounds are the three regular game slots.
- Places 2–4 (Final Four rule 8) and the places after a consolation's winner (Consolation
  rules 1 D, 2 D: "the overall scores of the consolation pool") rank only the players being
  placed, by the overall chain. ``consolation_order="consolation"`` ranks them by the
  consolation pool's own chain (consolation points first) instead.
- 7 or fewer players: the consolation's winner takes 5th, the rest follow (the seed's 9th/5th
  rules applied to the first place after the Final Four).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from events import sources
from events.records import Crosstable
from formats.cohen.draw import POOL_A, POOL_B, SINGLE_POOL, Pools
from formats.cohen.presets import COHEN_CHESS
from standings.ranking import PEEL, Standing, rank, truncate
from standings.registry import TiebreakValue

POOL_WINNER_CHAIN = COHEN_CHESS.chain("pool_winner")
POOL_CHAIN = COHEN_CHESS.chain("pool")
OVERALL_CHAIN = COHEN_CHESS.chain("overall")

FIRST_ROUND_QUALIFIERS = 8  # first round rule 5: two pool winners + the next six
ELITE_EIGHT_QUALIFIERS = 4  # Elite Eight rule 5: two pool winners + the next two
SMALL_FIELD_QUALIFIERS = 4  # 7 or fewer, first round rule 4: the best four

CONSOLATION_ORDERS = ("overall", "consolation")


class CohenTieError(ValueError):
    """A tie the chain cannot break where the format needs a decision: record a lot, or play
    the Final Four's extra games. ``tied`` lists the players."""

    def __init__(self, message: str, tied: Sequence[int]) -> None:
        super().__init__(message)
        self.tied = tuple(tied)


@dataclass(frozen=True, slots=True)
class StageField:
    """A stage's players and the crosstable rounds of its game slots."""

    players: tuple[int, ...]
    rounds: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PoolRanking:
    """One pool ranked: ``winner`` by the pool-winner chain (None when the chain leaves the
    top shared), ``places`` for everyone (the winner 1, the others by the pool chain)."""

    pool: str
    winner: int | None
    tied_for_winner: tuple[int, ...]
    places: tuple[tuple[int, int], ...]  # (start_no, place), best first
    winner_standings: tuple[Standing, ...]
    rest_standings: tuple[Standing, ...]

    @property
    def order(self) -> tuple[int, ...]:
        return tuple(start_no for start_no, _ in self.places)

    def place_of(self, start_no: int) -> int:
        return dict(self.places)[start_no]


@dataclass(frozen=True, slots=True)
class AdvancementDecision:
    """Why one player goes on or goes out: ``route`` is ``"pool-winner"``, ``"overall"`` or
    ``"eliminated"``."""

    start_no: int
    route: str
    overall_place: int
    points: Fraction
    reason: str


@dataclass(frozen=True, slots=True)
class Advancement:
    """The outcome of a stage.

    ``advanced`` is the next stage's ranking order (its colour-table ranks, 1st first);
    ``next_pools`` the Elite Eight pools after rebalancing (None when the next stage is one
    pool); ``eliminated`` in overall order, the consolation's pairing order; ``moved`` the
    players shifted to the smaller pool.
    """

    stage: str
    clause: str
    advanced: tuple[int, ...]
    eliminated: tuple[int, ...]
    next_pools: Pools | None
    moved: tuple[int, ...]
    pool_rankings: tuple[PoolRanking, ...]
    overall: tuple[Standing, ...]
    decisions: tuple[AdvancementDecision, ...]

    def decision(self, start_no: int) -> AdvancementDecision:
        for decision in self.decisions:
            if decision.start_no == start_no:
                return decision
        raise KeyError(start_no)


@dataclass(frozen=True, slots=True)
class FinalPlace:
    """A final place 1–N: the stage that placed the player, the clause, and why. ``steps``
    are the criteria compared with the player placed next, in order, up to the one that
    separated them: (code, this player's value, the next player's value)."""

    place: int
    start_no: int
    shared: bool
    stage: str
    clause: str
    reason: str
    steps: tuple[tuple[str, str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class FinalStandings:
    rows: tuple[FinalPlace, ...]

    @property
    def order(self) -> tuple[int, ...]:
        return tuple(row.start_no for row in self.rows)

    def place_of(self, start_no: int) -> int:
        for row in self.rows:
            if row.start_no == start_no:
                return row.place
        raise KeyError(start_no)


# -- presentation of values --------------------------------------------------------------------


def _show(value: TiebreakValue) -> str:
    if isinstance(value, tuple):
        return "(" + ", ".join(str(item) for item in value) + ")"
    return str(value)


def _steps(rows: Sequence[Standing], index: int) -> tuple[tuple[str, str, str], ...]:
    """The criteria compared between rows[index] and the next row, for the explanation."""
    if index + 1 >= len(rows):
        return ()
    return tuple(
        (step.code, _show(step.value_a), _show(step.value_b)) for step in rows[index].comparisons
    )


def _ahead(rows: Sequence[Standing], index: int) -> str:
    """Why rows[index] stands above the next row: the deciding criterion and both values."""
    row = rows[index]
    if index + 1 >= len(rows):
        return ""
    below = rows[index + 1].start_no
    if row.decided_by is None:
        return f"; level with {below} on every criterion"
    deciding = row.comparisons[-1] if row.comparisons else None
    if deciding is None:
        return f"; ahead of {below} on {row.decided_by}"
    return (
        f"; ahead of {below} on {deciding.code} "
        f"({_show(deciding.value_a)} to {_show(deciding.value_b)})"
    )


# -- rankings ----------------------------------------------------------------------------------


def _as_of(crosstable: Crosstable, rounds: Sequence[int]) -> Crosstable:
    """The crosstable after the stage's last round (later rounds ignored)."""
    if not rounds:
        return crosstable
    return truncate(crosstable, min(max(rounds), crosstable.rounds))


def _options(
    rounds: Sequence[int],
    previous_rank: Mapping[int, int] | None,
    pool_rank: Mapping[int, int] | None = None,
) -> dict[str, object]:
    options: dict[str, object] = {
        "pool_rounds": tuple(rounds),
        "previous_rank": dict(previous_rank or {}),
    }
    if pool_rank is not None:
        options["pool_rank"] = dict(pool_rank)
    return options


def rank_pool(
    crosstable: Crosstable,
    pool: str,
    players: Sequence[int],
    *,
    rounds: Sequence[int],
    previous_rank: Mapping[int, int] | None = None,
    lot_order: Sequence[int] | None = None,
    winner: int | None = None,
) -> PoolRanking:
    """Seed 002 ranking rules 3 A–B, 4 and 5: the pool's winner by pool points and rule 4's
    chain, the other places by cumulative points and rule 5's chain (without C).

    ``winner`` fixes the winner when something outside the chain decided it (the Final Four's
    extra games)."""
    options = _options(rounds, previous_rank)
    winner_rows = rank(
        crosstable,
        POOL_WINNER_CHAIN.codes,
        procedure=PEEL,
        options=options,
        lot_order=lot_order,
        primary=POOL_WINNER_CHAIN.primary,
        players=players,
    )
    top = tuple(row.start_no for row in winner_rows if row.rank == 1)
    if winner is None and len(top) == 1:
        winner = top[0]
    rest = [p for p in players if p != winner]
    rest_rows = (
        rank(
            crosstable,
            POOL_CHAIN.codes,
            procedure=PEEL,
            options=options,
            lot_order=lot_order,
            primary=POOL_CHAIN.primary,
            players=rest,
        )
        if rest
        else ()
    )
    offset = 0 if winner is None else 1
    places: tuple[tuple[int, int], ...] = ((winner, 1),) if winner is not None else ()
    places += tuple((row.start_no, row.rank + offset) for row in rest_rows)
    tied = top if len(top) > 1 and winner not in top else ()
    return PoolRanking(pool, winner, tied, places, winner_rows, rest_rows)


def rank_overall(
    crosstable: Crosstable,
    players: Sequence[int],
    *,
    rounds: Sequence[int],
    pool_places: Mapping[int, int] | None = None,
    previous_rank: Mapping[int, int] | None = None,
    lot_order: Sequence[int] | None = None,
) -> tuple[Standing, ...]:
    """Seed 002 ranking rules 3 ("for ranking overall") and 5 A–K, rule 6 for multi-way ties.
    ``pool_places`` feeds rule 5 C (pool ranking)."""
    return rank(
        crosstable,
        OVERALL_CHAIN.codes,
        procedure=PEEL,
        options=_options(rounds, previous_rank, pool_places or {}),
        lot_order=lot_order,
        primary=OVERALL_CHAIN.primary,
        players=players,
    )


# -- advancement -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _StageRule:
    stage: str
    clause: str
    qualifiers: int
    next_in_pools: bool


FIRST_ROUND_RULE = _StageRule(
    "first-round", sources.cite(sources.COHEN_CHESS, "first round rules 4–6"), 8, True
)
ELITE_EIGHT_RULE = _StageRule(
    "elite-eight", sources.cite(sources.COHEN_CHESS, "Elite Eight rules 4–6"), 4, False
)


def _pool_winner(ranking: PoolRanking) -> int:
    if ranking.winner is None:
        raise CohenTieError(
            f"pool {ranking.pool}: {list(ranking.tied_for_winner)} are level on every "
            "criterion of ranking rule 4; record a lot (lot_order) to decide the winner",
            ranking.tied_for_winner,
        )
    return ranking.winner


def _check_cut(others: Sequence[Standing], needed: int) -> None:
    """The last qualifying place must not be shared with the first place out."""
    if len(others) <= needed or needed == 0:
        return
    if others[needed - 1].rank == others[needed].rank:
        level = others[needed - 1].rank
        tied = [row.start_no for row in others if row.rank == level]
        raise CohenTieError(
            f"{tied} are level on every criterion of ranking rule 5 across the last "
            "qualifying place; record a lot (lot_order)",
            tied,
        )


def _rebalanced(
    pools: Pools, advanced: Sequence[int], rankings: Sequence[PoolRanking]
) -> tuple[Pools, tuple[int, ...]]:
    """First round rule 5: move the lowest-ranked qualifier of the larger pool until the pools
    are equal; each pool keeps its winner first, then the overall order (``advanced``)."""
    position = {p: i for i, p in enumerate(advanced)}
    places = {p: ranking.place_of(p) for ranking in rankings for p, _ in ranking.places}
    members = {name: [p for p in advanced if p in pools.members(name)] for name in (POOL_A, POOL_B)}
    moved: list[int] = []
    while abs(len(members[POOL_A]) - len(members[POOL_B])) > 1:
        larger, smaller = (
            (POOL_A, POOL_B) if len(members[POOL_A]) > len(members[POOL_B]) else (POOL_B, POOL_A)
        )
        lowest = max(members[larger], key=lambda p: (places[p], position[p]))
        members[larger].remove(lowest)
        members[smaller].append(lowest)
        moved.append(lowest)
    winners = {ranking.winner for ranking in rankings}

    def seeded(pool: list[int]) -> tuple[int, ...]:
        return tuple(sorted(pool, key=lambda p: (p not in winners, position[p])))

    return Pools(a=seeded(members[POOL_A]), b=seeded(members[POOL_B])), tuple(moved)


def _decisions(
    overall: Sequence[Standing],
    winners: Mapping[int, PoolRanking],
    qualifiers: Sequence[int],
    stage: str,
) -> tuple[AdvancementDecision, ...]:
    decisions: list[AdvancementDecision] = []
    rank_of_qualifier = {p: i + 1 for i, p in enumerate(qualifiers)}
    for index, row in enumerate(overall):
        why = _ahead(overall, index)
        if row.start_no in winners:
            pool = winners[row.start_no]
            pool_points = pool.winner_standings[0].values.get(POOL_WINNER_CHAIN.primary)
            route = "pool-winner"
            reason = (
                f"won pool {pool.pool} with {pool_points} pool points (ranking rule 4"
                f"{_ahead(pool.winner_standings, 0)})"
            )
        elif row.start_no in rank_of_qualifier:
            route = "overall"
            reason = (
                f"next best overall no. {rank_of_qualifier[row.start_no]} after the pool "
                f"winners (overall place {row.rank}, {row.points} points{why})"
            )
        else:
            route = "eliminated"
            reason = (
                f"out after the {stage} at overall place {row.rank} with {row.points} points"
                f"{why}; to the consolation tournament"
            )
        decisions.append(AdvancementDecision(row.start_no, route, row.rank, row.points, reason))
    return tuple(decisions)


def _advance(
    crosstable: Crosstable,
    pools: Pools,
    rounds: Sequence[int],
    rule: _StageRule,
    previous_rank: Mapping[int, int] | None,
    lot_order: Sequence[int] | None,
) -> Advancement:
    table = _as_of(crosstable, rounds)
    rankings = tuple(
        rank_pool(
            table,
            name,
            pools.members(name),
            rounds=rounds,
            previous_rank=previous_rank,
            lot_order=lot_order,
        )
        for name in (POOL_A, POOL_B)
    )
    winners = {_pool_winner(ranking): ranking for ranking in rankings}
    pool_places = {p: place for ranking in rankings for p, place in ranking.places}
    overall = rank_overall(
        table,
        pools.players,
        rounds=rounds,
        pool_places=pool_places,
        previous_rank=previous_rank,
        lot_order=lot_order,
    )
    others = [row for row in overall if row.start_no not in winners]
    needed = rule.qualifiers - len(winners)
    _check_cut(others, needed)
    qualifiers = [row.start_no for row in others[:needed]]
    advanced = tuple([row.start_no for row in overall if row.start_no in winners] + qualifiers)
    eliminated = tuple(row.start_no for row in others[needed:])
    next_pools: Pools | None = None
    moved: tuple[int, ...] = ()
    if rule.next_in_pools:
        next_pools, moved = _rebalanced(pools, advanced, rankings)
        advanced = next_pools.players
    decisions = _decisions(overall, winners, qualifiers, rule.stage)
    decisions = _note_moves(decisions, moved, pools, pool_places)
    return Advancement(
        rule.stage,
        rule.clause,
        advanced,
        eliminated,
        next_pools,
        moved,
        rankings,
        overall,
        decisions,
    )


def _note_moves(
    decisions: tuple[AdvancementDecision, ...],
    moved: Sequence[int],
    pools: Pools,
    pool_places: Mapping[int, int],
) -> tuple[AdvancementDecision, ...]:
    if not moved:
        return decisions
    noted: list[AdvancementDecision] = []
    for decision in decisions:
        if decision.start_no in moved:
            origin = pools.pool_of(decision.start_no)
            target = POOL_B if origin == POOL_A else POOL_A
            decision = AdvancementDecision(
                decision.start_no,
                decision.route,
                decision.overall_place,
                decision.points,
                f"{decision.reason}; moved from pool {origin} to pool {target} as the "
                f"lowest-ranked qualifier of the larger pool (pool place "
                f"{pool_places[decision.start_no]}; first round rule 5)",
            )
        noted.append(decision)
    return tuple(noted)


def advance_first_round(
    crosstable: Crosstable,
    pools: Pools,
    *,
    rounds: Sequence[int],
    previous_rank: Mapping[int, int] | None = None,
    lot_order: Sequence[int] | None = None,
) -> Advancement:
    """Seed 002 first round rules 4–7: the two pool winners and the next six overall go to
    the Elite Eight, the pools rebalanced; the rest go to the consolation (rule 6)."""
    if len(pools.players) < FIRST_ROUND_QUALIFIERS:
        raise ValueError("the pool format needs at least eight players")
    return _advance(crosstable, pools, rounds, FIRST_ROUND_RULE, previous_rank, lot_order)


def advance_elite_eight(
    crosstable: Crosstable,
    pools: Pools,
    *,
    rounds: Sequence[int],
    previous_rank: Mapping[int, int] | None = None,
    lot_order: Sequence[int] | None = None,
) -> Advancement:
    """Seed 002 Elite Eight rules 4–7: the two pool winners and the next two overall form the
    Final Four (one pool); the other four go to the Elite Eight consolation."""
    if len(pools.a) != 4 or len(pools.b) != 4:
        raise ValueError("the Elite Eight has two pools of four")
    return _advance(crosstable, pools, rounds, ELITE_EIGHT_RULE, previous_rank, lot_order)


def advance_small_field(
    crosstable: Crosstable,
    players: Sequence[int],
    *,
    rounds: Sequence[int],
    previous_rank: Mapping[int, int] | None = None,
    lot_order: Sequence[int] | None = None,
) -> Advancement:
    """Seed 002, 7 or fewer players, first round rules 3–5: ranked overall only; the best four
    go to the Final Four, the rest to the consolation."""
    table = _as_of(crosstable, rounds)
    overall = rank_overall(
        table, players, rounds=rounds, previous_rank=previous_rank, lot_order=lot_order
    )
    _check_cut(overall, SMALL_FIELD_QUALIFIERS)
    advanced = tuple(row.start_no for row in overall[:SMALL_FIELD_QUALIFIERS])
    eliminated = tuple(row.start_no for row in overall[SMALL_FIELD_QUALIFIERS:])
    decisions = _decisions(overall, {}, advanced, "round robin")
    return Advancement(
        "round-robin",
        sources.cite(sources.COHEN_CHESS, "(7 or fewer players) first round rules 3–5"),
        advanced,
        eliminated,
        None,
        (),
        (),
        overall,
        decisions,
    )


# -- the Final Four and the final places -------------------------------------------------------


def final_four_tie(
    crosstable: Crosstable,
    final_four: StageField,
    *,
    previous_rank: Mapping[int, int] | None = None,
) -> tuple[int, ...]:
    """Seed 002 Final Four rules 3–4: the players level on Final Four pool points at the top,
    in the pool-winner chain's order ("the top two tied players" first) — the ``tied``
    argument of ``playoffs.rules.plan(..., "cohen-final-four", ...)``. Empty when no tie."""
    table = _as_of(crosstable, final_four.rounds)
    ranking = rank_pool(
        table,
        SINGLE_POOL,
        final_four.players,
        rounds=final_four.rounds,
        previous_rank=previous_rank,
    )
    rows = ranking.winner_standings
    top = rows[0].values[POOL_WINNER_CHAIN.primary]
    tied = tuple(row.start_no for row in rows if row.values[POOL_WINNER_CHAIN.primary] == top)
    return tied if len(tied) > 1 else ()


def _final_four_places(
    crosstable: Crosstable,
    final_four: StageField,
    winner: int | None,
    previous_rank: Mapping[int, int] | None,
    lot_order: Sequence[int] | None,
) -> list[FinalPlace]:
    """Final Four rules 7–8: the pool's winner wins the tournament; 2nd–4th by overall."""
    tie = final_four_tie(crosstable, final_four, previous_rank=previous_rank)
    if winner is None and tie:
        raise CohenTieError(
            f"{list(tie)} tie on Final Four pool points: play the extra games of Final Four "
            "rules 3–4 (playoff regulation 'cohen-final-four') and pass their winner",
            tie,
        )
    if winner is not None and winner not in final_four.players:
        raise ValueError(f"the Final Four winner {winner} is not in the Final Four")
    table = _as_of(crosstable, final_four.rounds)
    pool = rank_pool(
        table,
        SINGLE_POOL,
        final_four.players,
        rounds=final_four.rounds,
        previous_rank=previous_rank,
        lot_order=lot_order,
        winner=winner,
    )
    champion = _pool_winner(pool)
    how = "the extra games (Final Four rules 3–4)" if tie else "ranking rule 4"
    rows = [
        FinalPlace(
            1,
            champion,
            False,
            "final-four",
            sources.cite(sources.COHEN_CHESS, "Final Four rule 7"),
            f"won the Final Four pool, decided by {how}",
        )
    ]
    others = [p for p in final_four.players if p != champion]
    overall = rank_overall(
        table,
        others,
        rounds=final_four.rounds,
        pool_places=dict(pool.places),
        previous_rank=previous_rank,
        lot_order=lot_order,
    )
    rows += _placed(
        overall,
        2,
        "final-four",
        sources.cite(sources.COHEN_CHESS, "Final Four rule 8"),
        "overall ranking",
    )
    return rows


def _placed(
    standings: Sequence[Standing], first_place: int, stage: str, clause: str, how: str
) -> list[FinalPlace]:
    return [
        FinalPlace(
            first_place + row.rank - 1,
            row.start_no,
            row.shared,
            stage,
            clause,
            f"{how}: {row.points} points{_ahead(standings, index)}",
            _steps(standings, index),
        )
        for index, row in enumerate(standings)
    ]


def _consolation_places(
    crosstable: Crosstable,
    field: StageField,
    first_place: int,
    stage: str,
    clause: str,
    options: tuple[Mapping[int, int] | None, Sequence[int] | None, str],
) -> list[FinalPlace]:
    """Consolation rules 1 B–D and 2 B–D: the pool's winner takes the first place of the
    block, the rest follow by the overall ranking among themselves (module docstring)."""
    previous_rank, lot_order, order = options
    table = _as_of(crosstable, field.rounds)
    pool = rank_pool(
        table,
        SINGLE_POOL,
        field.players,
        rounds=field.rounds,
        previous_rank=previous_rank,
        lot_order=lot_order,
    )
    if pool.winner is None:  # level on every criterion: they share the winner's place
        return _placed(pool.winner_standings, first_place, stage, clause, "consolation pool")
    rows = [
        FinalPlace(
            first_place,
            pool.winner,
            False,
            stage,
            clause,
            f"won the consolation pool{_ahead(pool.winner_standings, 0)}",
            _steps(pool.winner_standings, 0),
        )
    ]
    others = [p for p in field.players if p != pool.winner]
    if order == "consolation":
        ranked = rank_pool(
            table,
            SINGLE_POOL,
            others,
            rounds=field.rounds,
            previous_rank=previous_rank,
            lot_order=lot_order,
        ).winner_standings
        how = "consolation points"
    else:
        ranked = rank_overall(
            table,
            others,
            rounds=field.rounds,
            pool_places=dict(pool.places),
            previous_rank=previous_rank,
            lot_order=lot_order,
        )
        how = "overall scores of the consolation pool"
    return rows + _placed(ranked, first_place + 1, stage, clause, how)


def final_places(
    crosstable: Crosstable,
    *,
    final_four: StageField,
    elite_eight_consolation: StageField | None = None,
    first_round_consolation: StageField | None = None,
    final_four_winner: int | None = None,
    previous_rank: Mapping[int, int] | None = None,
    lot_order: Sequence[int] | None = None,
    consolation_order: str = "overall",
) -> FinalStandings:
    """Places 1–N from every stage (seed 002 Final Four rules 7–8, Consolation Tournaments
    1 C–D and 2 C–D): the Final Four (1–4), the Elite Eight consolation (5–8), then the
    first-round consolation (9th on). With 7 or fewer players pass the consolation as
    ``first_round_consolation``: it starts at 5th."""
    if consolation_order not in CONSOLATION_ORDERS:
        raise ValueError(f"consolation_order must be one of {CONSOLATION_ORDERS}")
    blocks = [
        (
            elite_eight_consolation,
            "elite-eight-consolation",
            sources.cite(sources.COHEN_CHESS, "Consolation rule 2 C–D"),
        ),
        (
            first_round_consolation,
            "first-round-consolation",
            sources.cite(sources.COHEN_CHESS, "Consolation rule 1 C–D"),
        ),
    ]
    _check_fields(crosstable, final_four, [field for field, _, _ in blocks])
    rows = _final_four_places(crosstable, final_four, final_four_winner, previous_rank, lot_order)
    for field, stage, clause in blocks:
        if field is None or not field.players:
            continue
        rows += _consolation_places(
            crosstable,
            field,
            len(rows) + 1,
            stage,
            clause,
            (previous_rank, lot_order, consolation_order),
        )
    return FinalStandings(tuple(rows))


def _check_fields(
    crosstable: Crosstable, final_four: StageField, consolations: Sequence[StageField | None]
) -> None:
    if len(final_four.players) != 4:
        raise ValueError("the Final Four has four players")
    seen: set[int] = set(final_four.players)
    for field in consolations:
        if field is None:
            continue
        if seen & set(field.players):
            raise ValueError(f"players {sorted(seen & set(field.players))} are placed twice")
        seen |= set(field.players)
    if len(crosstable.entrants) >= FIRST_ROUND_QUALIFIERS and consolations[0] is None:
        raise ValueError("a field of eight or more needs the Elite Eight consolation (5th–8th)")
