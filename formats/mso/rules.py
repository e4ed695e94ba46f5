"""Mind Sports Olympiad multi-player games: records, tournament points and the tie-break chain
(seed 003, "The rules below will be applied for multi-player games", clarifications 1–2).

Pure: no Django; exact arithmetic (:class:`~fractions.Fraction`) throughout.

A multi-player game (:class:`MultiGame`) seats any number of players at a numbered board; each
player ends with a game score, and the finishing positions earn tournament points from the
regulation's :class:`PointsTable`. The tie-breaks are their own table
(:data:`MULTI_PLAYER_TIEBREAKS`) rather than entries in :mod:`standings.registry`: a registry
definition sees a two-player :class:`~events.records.Crosstable`, which cannot hold a table of
five. The codes are parsed in the registry's notation, and the ranking is the ranking engine's
(:func:`standings.ranking.rank_by`, the same procedures, explanations and
:class:`~standings.ranking.Standing` rows as a crosstable's) over a criterion source that
computes these tie-breaks from the event's records.

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

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import groupby

from standings.ranking import POINTS, RESTART, Criterion, RankingError, Standing, rank_by
from standings.registry import TiebreakSpec, TiebreakValue, UnknownTiebreak, parse_code

LAST_ROUND_BOARD = "LRB"
LAST_ROUND_RESULT = "LRR"
BEST_OPPONENT_PERCENTAGE = "PBO"
GAMES_WON = "WON"
BUCHHOLZ = "BHEQ"
GROW = "GROW"
GROWING_BUCHHOLZ = f"{BUCHHOLZ}/{GROW}"

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


def _context(event: MultiEvent) -> _Context:
    indexed = records(event)
    return _Context(event, indexed, {p: record.points for p, record in indexed.items()})


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


def _cut(spec: TiebreakSpec) -> int:
    """BHEQ is cut 0, BHEQ/Cn cut n; BHEQ/GROW has no values of its own (it stands for the
    group's cut sequence)."""
    if not spec.modifiers:
        return 0
    (modifier,) = spec.modifiers
    if modifier == GROW:
        raise MultiPlayerError(f"unknown multi-player tie-break code {spec.code!r}")
    return int(modifier[1:])


def _cut_or_growing(modifier: str) -> bool:
    return modifier == GROW or (modifier[:1] == "C" and modifier[1:].isdigit())


def _no_modifiers(modifier: str) -> bool:
    return False


_Values = Callable[[_Context, Collection[int], TiebreakSpec], dict[int, TiebreakValue]]


def _unmodified(
    compute: Callable[[_Context, Collection[int]], dict[int, TiebreakValue]],
) -> _Values:
    def values(
        context: _Context, group: Collection[int], spec: TiebreakSpec
    ) -> dict[int, TiebreakValue]:
        return compute(context, group)

    return values


def _cut_buchholz(
    context: _Context, group: Collection[int], spec: TiebreakSpec
) -> dict[int, TiebreakValue]:
    return buchholz(context, group, _cut(spec))


@dataclass(frozen=True, slots=True)
class MultiTiebreak:
    """A multi-player tie-break, in the style of :class:`~standings.registry.TiebreakDefinition`
    but computed from the event's records: ``compute(context, group, spec)``."""

    base: str
    name: str
    compute: _Values
    higher_is_better: bool = True
    # Values that depend on who is tied (recomputed per group): equalisation, the cut sequence.
    group_dependent: bool = False
    allowed_modifiers: Callable[[str], bool] = _no_modifiers


MULTI_PLAYER_TIEBREAKS: dict[str, MultiTiebreak] = {
    tiebreak.base: tiebreak
    for tiebreak in (
        MultiTiebreak(
            LAST_ROUND_BOARD,
            "Board in the final round",
            _unmodified(last_round_board),
            higher_is_better=False,
        ),
        MultiTiebreak(
            LAST_ROUND_RESULT, "Result in the final round", _unmodified(last_round_result)
        ),
        MultiTiebreak(
            BEST_OPPONENT_PERCENTAGE,
            "Percentage of best opponent's score",
            _unmodified(percentage_of_best_opponent),
        ),
        MultiTiebreak(GAMES_WON, "Games won", _unmodified(games_won)),
        MultiTiebreak(
            BUCHHOLZ,
            "Buchholz, opponent counts equalised",
            _cut_buchholz,
            group_dependent=True,
            allowed_modifiers=_cut_or_growing,
        ),
    )
}


def _spec(code: str) -> TiebreakSpec:
    """A code in the registry's notation, checked against the multi-player table (one
    modifier at most: a cut or GROW)."""
    try:
        spec = parse_code(code, MULTI_PLAYER_TIEBREAKS)
    except UnknownTiebreak as exc:
        raise MultiPlayerError(
            f"unknown multi-player tie-break code {code.strip().upper()!r}"
        ) from exc
    if len(spec.modifiers) > 1:
        raise MultiPlayerError(f"unknown multi-player tie-break code {spec.code!r}")
    return spec


def _criterion(code: str) -> Criterion:
    spec = _spec(code)
    tiebreak = MULTI_PLAYER_TIEBREAKS[spec.base]
    return Criterion(spec, tiebreak.higher_is_better, tiebreak.group_dependent)


def parse_codes(codes: str | Sequence[str]) -> tuple[str, ...]:
    """Validate a chain: LRB, LRR, PBO, WON, BHEQ, BHEQ/Cn, BHEQ/GROW."""
    items = codes.split(",") if isinstance(codes, str) else list(codes)
    cleaned = tuple(_spec(item).code for item in items if item.strip())
    if len(set(cleaned)) != len(cleaned):
        raise MultiPlayerError("a tie-break code is listed twice")
    return cleaned


class _MultiPlayerSource:
    """The multi-player tie-breaks as the ranking engine's
    :class:`~standings.ranking.CriterionSource`: the event's tournament points, and ``codes``
    with BHEQ/GROW expanded for each tied group."""

    def __init__(self, context: _Context, codes: Sequence[str]) -> None:
        self.context = context
        self.points: Mapping[int, Fraction] = context.points
        self.codes = tuple(codes)
        self.listed = tuple(_criterion(code) for code in self.codes)

    def chain(self, group: Collection[int]) -> list[Criterion]:
        """The codes as applied to this group: BHEQ/GROW expands to the group's cut sequence
        (rule 5 with clarification 2), less any cut the chain lists on its own."""
        expanded: list[Criterion] = []
        for criterion in self.listed:
            if criterion.spec.modifiers != (GROW,):
                expanded.append(criterion)
                continue
            cuts = growing_cuts(equalised_opponent_count(self.context, group))
            codes = (_buchholz_code(cut) for cut in cuts)
            expanded += [_criterion(code) for code in codes if code not in self.codes]
        return expanded

    def values(self, criterion: Criterion, group: frozenset[int]) -> Mapping[int, TiebreakValue]:
        if criterion.code == POINTS:
            return self.points
        return _values(self.context, criterion.spec, group)


def _values(
    context: _Context, spec: TiebreakSpec, group: Collection[int]
) -> dict[int, TiebreakValue]:
    return MULTI_PLAYER_TIEBREAKS[spec.base].compute(context, group, spec)


def tiebreak_values(
    event: MultiEvent, code: str, group: Collection[int]
) -> dict[int, TiebreakValue]:
    """One criterion's values for a group of the event (for explanations and tests)."""
    spec = _spec(code)
    return _values(_context(event), spec, group)


def cut_sequence(event: MultiEvent, group: Collection[int]) -> tuple[str, ...]:
    """The codes BHEQ/GROW stands for when ``group`` is tied (rule 5, clarification 2)."""
    source = _MultiPlayerSource(_context(event), (GROWING_BUCHHOLZ,))
    return tuple(criterion.code for criterion in source.chain(group))


# -- the ranking (restart on split) ------------------------------------------------------------

_TOURNAMENT_POINTS = Criterion(TiebreakSpec(code=POINTS, base=POINTS))


def rank_multiplayer(
    event: MultiEvent,
    codes: str | Sequence[str] = MSO_MULTI_PLAYER_CHAIN,
    *,
    lot_order: Sequence[int] | None = None,
) -> tuple[Standing, ...]:
    """Seed 003: tournament points, then ``codes`` (default the multi-player chain, rules 1–5)
    under the restart-on-split procedure (clarification 1). Players level on everything share
    their place unless ``lot_order`` (a recorded lot) orders them. A row shows the values its
    ties were compared on, in the order compared."""
    chain = parse_codes(codes)
    source = _MultiPlayerSource(_context(event), chain)
    names = {player.start_no: player.name for player in event.players}
    try:
        return rank_by(
            source,
            {start_no: names[start_no] for start_no in sorted(names)},
            _TOURNAMENT_POINTS,
            procedure=RESTART,
            lot_order=lot_order,
            field_values=False,
        )
    except RankingError as exc:  # a recorded lot that misses a tied player
        raise MultiPlayerError(str(exc)) from exc
