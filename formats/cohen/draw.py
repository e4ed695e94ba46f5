"""Cohen Chess club format schedules (seed 002): pools, game slots, colours, consolations.

Pure: no Django. The caller passes the players in seeding or ranking order (best first); the
rankings themselves come from :mod:`formats.cohen.rules`. A stage's schedule is a tuple of frozen
:class:`StageGame` rows (stage, pool, game slot, board, White, Black); a game slot is one round
of the event's crosstable (``first_round`` numbers them).

Format, 8 or more players (seed 002, "Tournament Format (8 or More Players)"):

- First round rule 1: two pools; with an odd field pool A (the seed's "Pool Letters") has the
  extra player.
- First round rule 2: between the pools, four games each in four game slots; with an odd field
  five slots, four players of pool A playing three games against pool B in slots 1–4 and one
  game within pool A in slot 5. Player Piece Color rule 1: White twice, Black twice.
- Elite Eight rule 1: two pools of four, a round robin in three game slots; Player Piece Color
  rule 2 gives the colours and the pairings (:data:`FOUR_PLAYER_TABLE`).
- Final Four rule 1: one pool of four, the same table.
- Consolation Tournaments rules 1 A and 2 A: round robins (twice each with three or fewer).

Format, 7 or fewer players (seed 002, "Tournament Format (7 or Less Players)"): a round robin
(first round rule 1), then the best four to the Final Four (second round rule 1) and the rest
to a consolation.

Decisions where the seed is silent (each also in the docstring that applies it):

- Dividing the field: the seed gives no rule. The caller passes a seeding order
  (:func:`seeding_order`: rating, then previous tournament ranking, then start number) and
  :func:`divide_pools` deals it serpentine (1→A, 2→B, 3→B, 4→A, …) so the pools are balanced;
  with an odd field the pool that receives the extra player is named A.
- First-round pairings: pool A's i-th seed meets pool B's seeds i, i+1, i+2, i+3 (counted round
  the pool) in slots 1–4, so players meet opponents of similar seeding. With an odd field pool
  B is padded with a free place; the four pool-A players drawn against it (the four lowest
  seeds of pool A) are the ones who sit out one slot and play each other in slot 5.
- First-round colours: pool A has White in slots 1 and 3, pool B in slots 2 and 4; in slot 5
  the player who sat out slot 1 (3) has White against the one who sat out slot 2 (4), which
  restores White twice and Black twice for everyone.
- Elite Eight and Final Four: "1st … 4th ranked" is the order the players qualified in
  (:mod:`formats.cohen.rules`: pool winners first, then by overall ranking). The three slots are
  {1–4, 2–3}, {1–3, 2–4}, {1–2, 3–4}: the top two meet last.
- Consolations use the FIDE Berger tables (:mod:`draws.berger`) with pairing numbers in the
  order passed (the overall ranking); the seed gives no colour rule for them.
- The 7-or-fewer format needs at least four players (a Final Four); its first round uses the
  Berger tables too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from draws.berger import double_round_robin, single_round_robin, without_free_round
from events.sources import COHEN_CHESS, cite

POOL_A = "A"  # the seed's "Pool Letters": the pool with the extra player (first round rule 1)
POOL_B = "B"  # the seed's "Pool Numbers"
SINGLE_POOL = "single"  # the one pool of a Final Four, a round robin or a consolation

FIRST_ROUND = "first-round"
ELITE_EIGHT = "elite-eight"
FINAL_FOUR = "final-four"
FIRST_ROUND_CONSOLATION = "first-round-consolation"
ELITE_EIGHT_CONSOLATION = "elite-eight-consolation"
ROUND_ROBIN = "round-robin"  # 7 or fewer players, first round
SMALL_FIELD_CONSOLATION = "consolation"  # 7 or fewer players

LARGE_FIELD_MINIMUM = 8  # "Tournament Format (8 or More Players)"
SMALL_FIELD_MINIMUM = 4  # a Final Four needs four players (decision)
INTER_POOL_GAMES = 4  # first round rule 2

# Player Piece Color rule 2: (ranked player, ranked player, the one with White), slot by slot.
FOUR_PLAYER_TABLE: tuple[tuple[tuple[int, int, int], ...], ...] = (
    ((1, 4, 4), (2, 3, 2)),
    ((1, 3, 1), (2, 4, 2)),
    ((1, 2, 1), (3, 4, 3)),
)


class CohenFormatError(ValueError):
    """A schedule request a director can fix: too few players, a player listed twice, pools
    of the wrong size."""


@dataclass(frozen=True, slots=True)
class Pools:
    """The two pools, each in seeding (or ranking) order, best first."""

    a: tuple[int, ...]
    b: tuple[int, ...]

    def members(self, pool: str) -> tuple[int, ...]:
        if pool == POOL_A:
            return self.a
        if pool == POOL_B:
            return self.b
        raise KeyError(pool)

    def pool_of(self, start_no: int) -> str:
        if start_no in self.a:
            return POOL_A
        if start_no in self.b:
            return POOL_B
        raise KeyError(start_no)

    @property
    def players(self) -> tuple[int, ...]:
        return self.a + self.b


@dataclass(frozen=True, slots=True)
class StageGame:
    """One scheduled game. ``pool`` is ``"A"`` or ``"B"`` for a game within a pool,
    ``"single"`` in a one-pool stage (Final Four, round robin, consolation) and None for a game
    between the pools. ``round`` is the crosstable round of the slot."""

    stage: str
    pool: str | None
    slot: int
    board: int
    white: int
    black: int
    round: int

    @property
    def players(self) -> tuple[int, int]:
        return (self.white, self.black)


@dataclass(frozen=True, slots=True)
class StageSchedule:
    """A stage's games, slot by slot, board by board. ``players`` in the order passed in."""

    stage: str
    clause: str
    players: tuple[int, ...]
    slots: int
    games: tuple[StageGame, ...]
    first_round: int = 1

    @property
    def rounds(self) -> tuple[int, ...]:
        """The crosstable rounds of the stage (its "pool rounds" for the ranking chains)."""
        return tuple(range(self.first_round, self.first_round + self.slots))

    def slot_games(self, slot: int) -> tuple[StageGame, ...]:
        return tuple(game for game in self.games if game.slot == slot)

    def games_of(self, start_no: int) -> tuple[StageGame, ...]:
        return tuple(game for game in self.games if start_no in game.players)

    def colours(self, start_no: int) -> str:
        """The player's colours in slot order, ``"W"``/``"B"``, e.g. ``"WBWB"``."""
        return "".join("W" if game.white == start_no else "B" for game in self.games_of(start_no))


def _check_players(players: Sequence[int]) -> tuple[int, ...]:
    listed = tuple(players)
    if len(set(listed)) != len(listed):
        raise CohenFormatError("a player is listed twice")
    return listed


def seeding_order(
    ratings: Mapping[int, int], previous_rank: Mapping[int, int] | None = None
) -> tuple[int, ...]:
    """A seeding order for dividing the pools (the seed gives none; decision): higher rating
    first, then better previous tournament ranking (seed 002 ranking rule 4 I's data; no
    previous ranking counts as last), then lower start number."""
    previous = previous_rank or {}
    unranked = max(previous.values(), default=0) + 1
    return tuple(
        sorted(ratings, key=lambda p: (-ratings[p], previous.get(p, unranked), p)),
    )


def divide_pools(seeding: Sequence[int]) -> Pools:
    """Seed 002 first round rule 1: two pools, pool A holding the extra player of an odd field.

    Serpentine dealing over the seeding order (decision): 1→A, 2→B, 3→B, 4→A, 5→A, … When the
    extra player falls to the second pool, the pools swap names so that A is the larger.
    """
    players = _check_players(seeding)
    if len(players) < LARGE_FIELD_MINIMUM:
        raise CohenFormatError(
            f"pools need at least {LARGE_FIELD_MINIMUM} players; "
            f"{len(players)} play the 7-or-fewer format"
        )
    first = tuple(p for i, p in enumerate(players) if i % 4 in (0, 3))
    second = tuple(p for i, p in enumerate(players) if i % 4 in (1, 2))
    if len(second) > len(first):
        first, second = second, first
    return Pools(a=first, b=second)


def first_round(pools: Pools, *, first_round: int = 1) -> StageSchedule:
    """Seed 002 first round rules 1–2 and Player Piece Color rule 1 (module docstring).

    A's i-th player meets B's player (i + k) mod m in slot k + 1, m the size of pool A; with an
    odd field place m − 1 of pool B is free, and whoever draws it plays in slot 5 instead.
    """
    _check_first_round_pools(pools)
    size = len(pools.a)
    padded: list[int | None] = [*pools.b, *([None] * (size - len(pools.b)))]
    games: list[tuple[int, int, int]] = []  # (slot, white, black)
    sat_out: dict[int, int] = {}  # slot → the pool-A player drawn against the free place
    for offset in range(INTER_POOL_GAMES):
        slot = offset + 1
        for index, player in enumerate(pools.a):
            opponent = padded[(index + offset) % size]
            if opponent is None:
                sat_out[slot] = player
            elif slot % 2:  # pool A has White in slots 1 and 3
                games.append((slot, player, opponent))
            else:
                games.append((slot, opponent, player))
    slots = INTER_POOL_GAMES
    if sat_out:
        slots += 1
        games.append((slots, sat_out[1], sat_out[2]))
        games.append((slots, sat_out[3], sat_out[4]))
    return _schedule(
        FIRST_ROUND,
        cite(COHEN_CHESS, "first round rules 1–2; Player Piece Color rule 1"),
        pools.players,
        slots,
        [(slot, POOL_A if slot > INTER_POOL_GAMES else None, w, b) for slot, w, b in games],
        first_round,
    )


def _check_first_round_pools(pools: Pools) -> None:
    _check_players(pools.players)
    if len(pools.players) < LARGE_FIELD_MINIMUM:
        raise CohenFormatError(f"the pool format needs at least {LARGE_FIELD_MINIMUM} players")
    if len(pools.a) - len(pools.b) not in (0, 1):
        raise CohenFormatError(
            "pool A must be as large as pool B or hold the one extra player (first round rule 1)"
        )


def _schedule(
    stage: str,
    clause: str,
    players: Sequence[int],
    slots: int,
    games: Sequence[tuple[int, str | None, int, int]],
    first_round: int,
) -> StageSchedule:
    """Number the boards slot by slot in the order the games were listed."""
    rows: list[StageGame] = []
    boards: dict[int, int] = {}
    for slot, pool, white, black in sorted(games, key=lambda game: game[0]):
        boards[slot] = boards.get(slot, 0) + 1
        rows.append(
            StageGame(stage, pool, slot, boards[slot], white, black, first_round + slot - 1)
        )
    return StageSchedule(stage, clause, tuple(players), slots, tuple(rows), first_round)


def _four_player_games(
    pool: str | None, ranked: Sequence[int]
) -> list[tuple[int, str | None, int, int]]:
    """Player Piece Color rule 2: the table for four ranked players, three slots."""
    if len(ranked) != 4:
        raise CohenFormatError("a four-player pool needs exactly four players")
    games: list[tuple[int, str | None, int, int]] = []
    for slot, pairings in enumerate(FOUR_PLAYER_TABLE, start=1):
        for first, second, white in pairings:
            black = second if white == first else first
            games.append((slot, pool, ranked[white - 1], ranked[black - 1]))
    return games


def elite_eight(pools: Pools, *, first_round: int = 1) -> StageSchedule:
    """Seed 002 Elite Eight rule 1 and Player Piece Color rule 2: a round robin within each
    pool of four, players in ranking order (1st ranked first)."""
    _check_players(pools.players)
    if len(pools.a) != 4 or len(pools.b) != 4:
        raise CohenFormatError("the Elite Eight has two pools of four (Elite Eight rule 1)")
    games = _four_player_games(POOL_A, pools.a) + _four_player_games(POOL_B, pools.b)
    return _schedule(
        ELITE_EIGHT,
        cite(COHEN_CHESS, "Elite Eight rule 1; Player Piece Color rule 2"),
        pools.players,
        len(FOUR_PLAYER_TABLE),
        games,
        first_round,
    )


def final_four(ranked: Sequence[int], *, first_round: int = 1) -> StageSchedule:
    """Seed 002 Final Four rule 1 and Player Piece Color rule 2: one pool of four in ranking
    order. The extra games of rules 3–4 are the playoff engine's (``cohen-final-four``)."""
    players = _check_players(ranked)
    return _schedule(
        FINAL_FOUR,
        cite(COHEN_CHESS, "Final Four rule 1; Player Piece Color rule 2"),
        players,
        len(FOUR_PLAYER_TABLE),
        _four_player_games(SINGLE_POOL, players),
        first_round,
    )


def round_robin(
    stage: str, clause: str, ranked: Sequence[int], *, twice: bool, first_round: int = 1
) -> StageSchedule:
    """A Berger round robin (C.05 Annex 1) with pairing numbers in the order passed; an odd
    field's free round is left out. ``twice``: a double round robin, colours reversed."""
    players = _check_players(ranked)
    if len(players) < 2:
        return StageSchedule(stage, clause, players, 0, (), first_round)
    table = double_round_robin(len(players)) if twice else single_round_robin(len(players))
    rounds = without_free_round(table, len(players))
    games = [
        (slot, SINGLE_POOL, players[white - 1], players[black - 1])
        for slot, pairings in enumerate(rounds, start=1)
        for white, black in pairings
    ]
    return _schedule(stage, clause, players, len(rounds), games, first_round)


def consolation(stage: str, ranked: Sequence[int], *, first_round: int = 1) -> StageSchedule:
    """Seed 002 Consolation Tournaments 1 A (after the first round: once each, twice each with
    three or fewer players) and 2 A (after the Elite Eight: once each). A single player (or
    none) has no games: they are placed without playing."""
    if stage not in (FIRST_ROUND_CONSOLATION, ELITE_EIGHT_CONSOLATION, SMALL_FIELD_CONSOLATION):
        raise CohenFormatError(f"{stage!r} is not a consolation stage")
    twice = stage != ELITE_EIGHT_CONSOLATION and len(ranked) <= 3
    clause = (
        cite(COHEN_CHESS, "Consolation Tournaments rule 2 A")
        if stage == ELITE_EIGHT_CONSOLATION
        else cite(COHEN_CHESS, "Consolation Tournaments rule 1 A")
    )
    return round_robin(stage, clause, ranked, twice=twice, first_round=first_round)


def small_field_round_robin(seeding: Sequence[int], *, first_round: int = 1) -> StageSchedule:
    """Seed 002, 7 or fewer players, first round rule 1: everyone plays everyone once."""
    players = _check_players(seeding)
    if not SMALL_FIELD_MINIMUM <= len(players) < LARGE_FIELD_MINIMUM:
        raise CohenFormatError(
            f"the 7-or-fewer format takes {SMALL_FIELD_MINIMUM}–{LARGE_FIELD_MINIMUM - 1} "
            f"players, not {len(players)}"
        )
    clause = cite(COHEN_CHESS, "(7 or fewer players) first round rule 1")
    return round_robin(ROUND_ROBIN, clause, players, twice=False, first_round=first_round)


def uses_pools(players: int) -> bool:
    """Seed 002: 8 or more players play the pool format, 7 or fewer the round robin."""
    return players >= LARGE_FIELD_MINIMUM
