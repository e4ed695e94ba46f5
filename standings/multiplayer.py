"""Mind Sports Olympiad multi-player games: records, tournament points and the tie-break chain
(seed 003, "The rules below will be applied for multi-player games", clarifications 1–2).

Pure: no Django; exact arithmetic (:class:`~fractions.Fraction`) throughout.

A multi-player game (:class:`MultiGame`) seats any number of players at a numbered board; each
player ends with a game score, and the finishing positions earn tournament points from the
regulation's :class:`PointsTable`. The chain is its own ranking over these records rather than
entries in :mod:`standings.registry`: a registry definition sees a two-player
:class:`~events.records.Crosstable`, which cannot hold a table of five. The codes follow the
registry's style and the result is the ranking engine's :class:`~standings.ranking.Standing`
rows, so pages and exports show both the same way.

========  ==========================================================  =======================
Code      Tie-break                                                   Seed 003 clause
========  ==========================================================  =======================
LRB       board played on in the final round (lower board is better)  multi-player rule 1
LRR       result in the final round (tournament points scored)        multi-player rule 2
PBO       percentage of best opponent's score, capped per game        multi-player rule 3 (*)
WON       games won                                                   multi-player rule 4
BHEQ/Cn   Buchholz after opponent-count equalisation, n lowest cut    rule 5, clarification 2
BHEQ      the same without a cut ("remove 0")                         rule 5
BHEQ/GROW the growing cuts: C2, C3, … while the cut is below the      rule 5
          number of opponents, then C1, then no cut
========  ==========================================================  =======================

Procedure: restart on split (clarification 1, rules-notes "Multi-way ties"): at the first
criterion that separates anyone, the group splits into all its value levels at once; each level
of two or more is a new tie that starts again from the first criterion, values recomputed for
that smaller group (equalisation and the cut sequence depend on who is still tied).

Decisions where the seed is silent (each a :class:`MultiOptions` field where it is a choice):

- Tied game scores share the points of the positions they occupy equally (``"average"``); the
  alternative ``"highest"`` gives each the best of those positions' points.
- PBO per game: my score ÷ the best other score at the table (the runner-up's when I won),
  capped at ``cap`` (110 %), averaged over the rounds played (rules-notes). x/0 with x > 0 is
  the cap; 0/0 is ``zero_over_zero`` (100 %). Negative scores are ``"clamp"``-ed to 0 before
  dividing, or the whole table is ``"shift"``-ed so its lowest score is 0. A bye is not a round
  played unless ``bye_percentage`` gives it a value.
- A bye scores ``bye_points`` tournament points; it has no board, no opponents and is no win.
- LRB: a player without a game in the final round ranks below every board. LRR: the tournament
  points scored in the final round (a bye: its points).
- WON: finishing first alone; a shared first counts only with ``shared_win_counts``.
- Buchholz: the opponents' tournament points, one entry per opponent per game; "lowest
  ranked" opponents (clarification 2) are those with the fewest points.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import groupby

from standings.ranking import Comparison, Standing
from standings.registry import TiebreakValue

LAST_ROUND_BOARD = "LRB"
LAST_ROUND_RESULT = "LRR"
BEST_OPPONENT_PERCENTAGE = "PBO"
GAMES_WON = "WON"
BUCHHOLZ = "BHEQ"
GROWING_BUCHHOLZ = "BHEQ/GROW"
LOT = "LOT"
POINTS = "PTS"

MSO_MULTI_PLAYER_CHAIN = (
    LAST_ROUND_BOARD,
    LAST_ROUND_RESULT,
    BEST_OPPONENT_PERCENTAGE,
    GAMES_WON,
    GROWING_BUCHHOLZ,
)

SHARED_POSITIONS = ("average", "highest")
NEGATIVE_SCORES = ("clamp", "shift")


class MultiPlayerError(ValueError):
    """Input a director can fix: a player twice in a round, an unknown player, a table size
    the points table does not cover, an unknown code or option."""


@dataclass(frozen=True, slots=True)
class MultiGame:
    """One table: ``scores`` are (start_no, game score) pairs, any order."""

    round: int
    board: int
    scores: tuple[tuple[int, Fraction], ...]

    @property
    def players(self) -> tuple[int, ...]:
        return tuple(start_no for start_no, _ in self.scores)


@dataclass(frozen=True, slots=True)
class MultiPlayer:
    start_no: int
    name: str


@dataclass(frozen=True, slots=True)
class PointsTable:
    """Tournament points by finishing position, per table size (regulation data):
    ``((4, (3, 2, 1, 0)), (3, (2, 1, 0)))``."""

    by_size: tuple[tuple[int, tuple[Fraction, ...]], ...]

    def for_size(self, size: int) -> tuple[Fraction, ...]:
        for players, points in self.by_size:
            if players == size:
                if len(points) != size:
                    raise MultiPlayerError(f"the points table for {size} lists {len(points)}")
                return points
        raise MultiPlayerError(f"the points table has no entry for a table of {size}")


@dataclass(frozen=True, slots=True)
class MultiOptions:
    """The regulation set's choices (module docstring)."""

    bye_points: Fraction = Fraction(0)
    bye_percentage: Fraction | None = None
    cap: Fraction = Fraction(11, 10)
    zero_over_zero: Fraction = Fraction(1)
    negative_scores: str = "clamp"
    shared_positions: str = "average"
    shared_win_counts: bool = False


@dataclass(frozen=True, slots=True)
class MultiEvent:
    """A multi-player event: players, games, the points table, byes as (round, start_no).
    ``rounds`` is the number of rounds completed (default: the last round with a game or
    bye); later games are ignored."""

    name: str
    players: tuple[MultiPlayer, ...]
    games: tuple[MultiGame, ...]
    points_table: PointsTable
    byes: tuple[tuple[int, int], ...] = ()
    options: MultiOptions = field(default_factory=MultiOptions)
    rounds: int | None = None

    @property
    def last_round(self) -> int:
        if self.rounds is not None:
            return self.rounds
        played = [game.round for game in self.games] + [round_no for round_no, _ in self.byes]
        return max(played, default=0)


# -- per-game arithmetic -----------------------------------------------------------------------


def game_points(
    game: MultiGame, table: PointsTable, shared_positions: str = "average"
) -> dict[int, Fraction]:
    """Tournament points for each player of one game: positions by game score, highest first;
    tied scores share their positions' points (``"average"``) or take the best (``"highest"``).
    """
    if shared_positions not in SHARED_POSITIONS:
        raise MultiPlayerError(f"shared_positions must be one of {SHARED_POSITIONS}")
    points = table.for_size(len(game.scores))
    ordered = sorted(game.scores, key=lambda entry: entry[1], reverse=True)
    awarded: dict[int, Fraction] = {}
    position = 0
    for _, level in groupby(ordered, key=lambda entry: entry[1]):
        players = [start_no for start_no, _ in level]
        shares = points[position : position + len(players)]
        value = (
            shares[0] if shared_positions == "highest" else sum(shares, Fraction(0)) / len(shares)
        )
        awarded.update(dict.fromkeys(players, value))
        position += len(players)
    return awarded


def _adjusted(scores: Sequence[tuple[int, Fraction]], negative_scores: str) -> dict[int, Fraction]:
    if negative_scores not in NEGATIVE_SCORES:
        raise MultiPlayerError(f"negative_scores must be one of {NEGATIVE_SCORES}")
    lowest = min(score for _, score in scores)
    if negative_scores == "shift" and lowest < 0:
        return {start_no: score - lowest for start_no, score in scores}
    return {start_no: max(score, Fraction(0)) for start_no, score in scores}


def best_opponent_percentage(game: MultiGame, start_no: int, options: MultiOptions) -> Fraction:
    """Seed 003 multi-player rule 3 for one game, as a fraction (11/10 is 110 %): my score ÷
    the best other score at the table, capped at ``options.cap``; x/0 and negative scores as
    the module docstring decides."""
    scores = _adjusted(game.scores, options.negative_scores)
    mine = scores[start_no]
    best_other = max(score for player, score in scores.items() if player != start_no)
    if best_other == 0:
        return options.zero_over_zero if mine == 0 else options.cap
    return min(mine / best_other, options.cap)


def won(game: MultiGame, start_no: int, shared_win_counts: bool) -> bool:
    """Finished first: alone, or level with others when ``shared_win_counts``."""
    mine = dict(game.scores)[start_no]
    others = [score for player, score in game.scores if player != start_no]
    top = max(others)
    return mine > top or (shared_win_counts and mine == top)


# -- the event, indexed ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Record:
    """One player's event: games and byes up to the last round, tournament points per round."""

    games: tuple[MultiGame, ...]
    bye_rounds: tuple[int, ...]
    round_points: tuple[tuple[int, Fraction], ...]

    @property
    def points(self) -> Fraction:
        return sum((points for _, points in self.round_points), Fraction(0))


def _validate(event: MultiEvent) -> None:
    known = {player.start_no for player in event.players}
    if len(known) != len(event.players):
        raise MultiPlayerError("a start number is registered twice")
    seen: set[tuple[int, int]] = set()
    seats = [(game.round, p) for game in event.games for p in game.players]
    for round_no, start_no in seats + list(event.byes):
        if start_no not in known:
            raise MultiPlayerError(f"start number {start_no} is not registered")
        if (round_no, start_no) in seen:
            raise MultiPlayerError(f"start number {start_no} plays twice in round {round_no}")
        seen.add((round_no, start_no))
    if any(len(game.scores) < 2 for game in event.games):
        raise MultiPlayerError("a game needs at least two players")


def records(event: MultiEvent) -> dict[int, _Record]:
    """Every player's games, byes and tournament points up to ``event.last_round``."""
    _validate(event)
    last = event.last_round
    options = event.options
    games: dict[int, list[MultiGame]] = {player.start_no: [] for player in event.players}
    points: dict[int, list[tuple[int, Fraction]]] = {p: [] for p in games}
    for game in sorted(event.games, key=lambda g: (g.round, g.board)):
        if game.round > last:
            continue
        for start_no, awarded in game_points(
            game, event.points_table, options.shared_positions
        ).items():
            games[start_no].append(game)
            points[start_no].append((game.round, awarded))
    byes: dict[int, list[int]] = {p: [] for p in games}
    for round_no, start_no in event.byes:
        if round_no <= last:
            byes[start_no].append(round_no)
            points[start_no].append((round_no, options.bye_points))
    return {
        p: _Record(tuple(games[p]), tuple(sorted(byes[p])), tuple(sorted(points[p]))) for p in games
    }


def tournament_points(event: MultiEvent) -> dict[int, Fraction]:
    """Each player's tournament points: the points table per game, byes by the options."""
    return {start_no: record.points for start_no, record in records(event).items()}


# -- the tie-breaks ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Context:
    event: MultiEvent
    records: Mapping[int, _Record]
    points: Mapping[int, Fraction]


def _final_game(context: _Context, start_no: int) -> MultiGame | None:
    last = context.event.last_round
    for game in context.records[start_no].games:
        if game.round == last:
            return game
    return None


def last_round_board(context: _Context, group: Collection[int]) -> dict[int, TiebreakValue]:
    """Multi-player rule 1: the final round's board; no game there ranks below every board."""
    boards = [game.board for game in context.event.games if game.round == context.event.last_round]
    below = Fraction(max(boards, default=0) + 1)
    values: dict[int, TiebreakValue] = {}
    for start_no in group:
        game = _final_game(context, start_no)
        values[start_no] = below if game is None else Fraction(game.board)
    return values


def last_round_result(context: _Context, group: Collection[int]) -> dict[int, TiebreakValue]:
    """Multi-player rule 2: the tournament points scored in the final round."""
    last = context.event.last_round
    return {
        start_no: sum(
            (pts for round_no, pts in context.records[start_no].round_points if round_no == last),
            Fraction(0),
        )
        for start_no in group
    }


def percentage_of_best_opponent(
    context: _Context, group: Collection[int]
) -> dict[int, TiebreakValue]:
    """Multi-player rule 3 (*): the per-game percentages averaged over the rounds played."""
    options = context.event.options
    values: dict[int, TiebreakValue] = {}
    for start_no in group:
        record = context.records[start_no]
        shares = [best_opponent_percentage(game, start_no, options) for game in record.games]
        if options.bye_percentage is not None:
            shares += [options.bye_percentage] * len(record.bye_rounds)
        values[start_no] = sum(shares, Fraction(0)) / len(shares) if shares else Fraction(0)
    return values


def games_won(context: _Context, group: Collection[int]) -> dict[int, TiebreakValue]:
    """Multi-player rule 4: the number of games won."""
    shared = context.event.options.shared_win_counts
    return {
        start_no: Fraction(
            sum(1 for game in context.records[start_no].games if won(game, start_no, shared))
        )
        for start_no in group
    }


def _opponent_points(context: _Context, start_no: int) -> list[Fraction]:
    """One entry per opponent per game, lowest first."""
    return sorted(
        context.points[opponent]
        for game in context.records[start_no].games
        for opponent in game.players
        if opponent != start_no
    )


def equalised_opponent_count(context: _Context, group: Collection[int]) -> int:
    """Clarification 2: the number of opponents every tied player is compared on."""
    return min((len(_opponent_points(context, p)) for p in group), default=0)


def buchholz(context: _Context, group: Collection[int], cut: int) -> dict[int, TiebreakValue]:
    """Multi-player rule 5 with clarification 2: each tied player keeps their highest-scoring
    opponents, as many as the tied player with the fewest has; then the ``cut`` lowest go."""
    target = equalised_opponent_count(context, group)
    values: dict[int, TiebreakValue] = {}
    for start_no in group:
        listed = _opponent_points(context, start_no)
        kept = listed[len(listed) - target :] if target else []
        values[start_no] = sum(kept[cut:], Fraction(0))
    return values


def growing_cuts(opponents: int) -> tuple[int, ...]:
    """Multi-player rule 5: cut 2, 3, … while the cut is below the number of opponents, then
    cut 1 and cut 0 ("remove 1" then "remove 0"), each only while below that number too
    (rules-notes: the sequence stops once the cut reaches the number of opponents)."""
    return tuple(range(2, opponents)) + tuple(cut for cut in (1, 0) if cut < opponents)


def _buchholz_code(cut: int) -> str:
    return BUCHHOLZ if cut == 0 else f"{BUCHHOLZ}/C{cut}"


def _parse_cut(code: str) -> int | None:
    if code == BUCHHOLZ:
        return 0
    prefix = f"{BUCHHOLZ}/C"
    if code.startswith(prefix) and code[len(prefix) :].isdigit():
        return int(code[len(prefix) :])
    return None


_SIMPLE = {
    LAST_ROUND_BOARD: last_round_board,
    LAST_ROUND_RESULT: last_round_result,
    BEST_OPPONENT_PERCENTAGE: percentage_of_best_opponent,
    GAMES_WON: games_won,
}
LOWER_IS_BETTER = frozenset({LAST_ROUND_BOARD})
# Values that depend on who is tied (recomputed per group): equalisation and the cut sequence.
GROUP_DEPENDENT = frozenset({BUCHHOLZ})


def parse_codes(codes: str | Sequence[str]) -> tuple[str, ...]:
    """Validate a chain: LRB, LRR, PBO, WON, BHEQ, BHEQ/Cn, BHEQ/GROW."""
    items = codes.split(",") if isinstance(codes, str) else list(codes)
    cleaned = tuple(item.strip().upper() for item in items if item.strip())
    for code in cleaned:
        if code not in _SIMPLE and code != GROWING_BUCHHOLZ and _parse_cut(code) is None:
            raise MultiPlayerError(f"unknown multi-player tie-break code {code!r}")
    if len(set(cleaned)) != len(cleaned):
        raise MultiPlayerError("a tie-break code is listed twice")
    return cleaned


def compute(context: _Context, code: str, group: Collection[int]) -> dict[int, TiebreakValue]:
    """One criterion's values for a group."""
    if code in _SIMPLE:
        return _SIMPLE[code](context, group)
    cut = _parse_cut(code)
    if cut is None:
        raise MultiPlayerError(f"unknown multi-player tie-break code {code!r}")
    return buchholz(context, group, cut)


def tiebreak_values(
    event: MultiEvent, code: str, group: Collection[int]
) -> dict[int, TiebreakValue]:
    """One criterion's values for a group of the event (for explanations and tests)."""
    (parsed,) = parse_codes([code])
    indexed = records(event)
    context = _Context(event, indexed, {p: record.points for p, record in indexed.items()})
    return compute(context, parsed, group)


def cut_sequence(event: MultiEvent, group: Collection[int]) -> tuple[str, ...]:
    """The codes BHEQ/GROW stands for when ``group`` is tied (rule 5, clarification 2)."""
    indexed = records(event)
    context = _Context(event, indexed, {p: record.points for p, record in indexed.items()})
    return tuple(chain_for((GROWING_BUCHHOLZ,), context, group))


def chain_for(codes: Sequence[str], context: _Context, group: Collection[int]) -> list[str]:
    """The codes as applied to this group: BHEQ/GROW expands to the group's cut sequence."""
    expanded: list[str] = []
    for code in codes:
        if code == GROWING_BUCHHOLZ:
            cuts = growing_cuts(equalised_opponent_count(context, group))
            expanded += [_buchholz_code(cut) for cut in cuts if _buchholz_code(cut) not in codes]
        else:
            expanded.append(code)
    return expanded


# -- the ranking (restart on split) ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Step:
    code: str
    values: Mapping[int, TiebreakValue]
    among: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class _Link:
    decided_by: str | None
    steps: tuple[_Step, ...]
    lot: tuple[int, int] | None = None


@dataclass(slots=True)
class _Ordered:
    order: list[int] = field(default_factory=list)
    links: list[_Link] = field(default_factory=list)

    def extend(self, other: _Ordered, link: _Link) -> None:
        if self.order:
            self.links.append(link)
        self.order.extend(other.order)
        self.links.extend(other.links)


def _levels(
    group: Sequence[int], code: str, values: Mapping[int, TiebreakValue]
) -> list[list[int]]:
    ordered = sorted(group, key=values.__getitem__, reverse=code not in LOWER_IS_BETTER)
    return [list(level) for _, level in groupby(ordered, key=values.__getitem__)]


class _Ranker:
    def __init__(
        self,
        context: _Context,
        codes: tuple[str, ...],
        names: Mapping[int, str],
        lot_order: Sequence[int] | None,
    ) -> None:
        self.context = context
        self.codes = codes
        self.names = names
        self.lot = None if lot_order is None else {p: i + 1 for i, p in enumerate(lot_order)}
        self.values: dict[int, dict[str, TiebreakValue]] = {p: {} for p in names}

    def step(self, code: str, group: Sequence[int]) -> _Step:
        values = compute(self.context, code, group)
        for start_no in group:
            self.values[start_no][code] = values[start_no]
        return _Step(code, values, tuple(sorted(group)))

    def resolve(self, group: list[int], base: tuple[_Step, ...]) -> _Ordered:
        """Clarification 1: split at the first criterion that separates anyone; every level
        of two or more starts again from the first criterion."""
        if len(group) == 1:
            return _Ordered(order=list(group))
        trail = base
        for code in chain_for(self.codes, self.context, group):
            step = self.step(code, group)
            levels = _levels(group, code, step.values)
            if len(levels) > 1:
                joined = _Ordered()
                link = _Link(code, trail + (step,))
                for level in levels:
                    joined.extend(self.resolve(level, base), link)
                return joined
            trail += (step,)
        return self.block(group, trail)

    def block(self, group: list[int], trail: tuple[_Step, ...]) -> _Ordered:
        """Level on every criterion: tied (listed by name), unless a lot was recorded."""
        if self.lot is None:
            members = sorted(group, key=lambda p: (self.names[p], p))
            return _Ordered(members, [_Link(None, trail)] * (len(members) - 1))
        missing = sorted(p for p in group if p not in self.lot)
        if missing:
            raise MultiPlayerError(f"the recorded lot does not place start numbers {missing}")
        lot = self.lot
        members = sorted(group, key=lot.__getitem__)
        links = [
            _Link(LOT, trail, (lot[a], lot[b])) for a, b in zip(members, members[1:], strict=False)
        ]
        return _Ordered(members, links)


def _comparisons(link: _Link, upper: int, lower: int) -> tuple[Comparison, ...]:
    compared = [
        Comparison(
            code=step.code,
            value_a=step.values[upper],
            value_b=step.values[lower],
            separated=link.decided_by not in (None, LOT) and index == len(link.steps) - 1,
            among=step.among if step.code.startswith(BUCHHOLZ) else None,
        )
        for index, step in enumerate(link.steps)
    ]
    if link.lot is not None:
        compared.append(Comparison(LOT, Fraction(link.lot[0]), Fraction(link.lot[1]), True))
    return tuple(compared)


def _rows(ranker: _Ranker, ordered: _Ordered) -> tuple[Standing, ...]:
    order, links = ordered.order, ordered.links
    points = ranker.context.points
    rows: list[Standing] = []
    place = 1
    for index, start_no in enumerate(order):
        above = links[index - 1] if index else None
        below = links[index] if index < len(links) else None
        if above is not None and above.decided_by is not None:
            place = index + 1
        by_lot = any(link is not None and link.lot for link in (above, below))
        known = ranker.values[start_no]
        rows.append(
            Standing(
                start_no=start_no,
                name=ranker.names[start_no],
                rank=place,
                shared=any(link is not None and link.decided_by is None for link in (above, below)),
                points=points[start_no],
                values={POINTS: points[start_no], **known},
                decided_by=None if below is None else below.decided_by,
                comparisons=()
                if below is None
                else _comparisons(below, start_no, order[index + 1]),
                lot=ranker.lot[start_no] if ranker.lot is not None and by_lot else None,
            )
        )
    return tuple(rows)


def rank_multiplayer(
    event: MultiEvent,
    codes: str | Sequence[str] = MSO_MULTI_PLAYER_CHAIN,
    *,
    lot_order: Sequence[int] | None = None,
) -> tuple[Standing, ...]:
    """Seed 003: tournament points, then ``codes`` (default the multi-player chain, rules 1–5)
    under the restart-on-split procedure (clarification 1). Players level on everything share
    their place unless ``lot_order`` (a recorded lot) orders them."""
    chain = parse_codes(codes)
    indexed = records(event)
    context = _Context(event, indexed, {p: record.points for p, record in indexed.items()})
    names = {player.start_no: player.name for player in event.players}
    ranker = _Ranker(context, chain, names, lot_order)
    primary = _Step(POINTS, dict(context.points), tuple(sorted(names)))
    ordered = _Ordered()
    link = _Link(POINTS, (primary,))
    for level in _levels(sorted(names), POINTS, context.points):
        ordered.extend(ranker.resolve(level, (primary,)), link)
    return _rows(ranker, ordered)
