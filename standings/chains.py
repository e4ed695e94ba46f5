"""The seeds' own tie-breaks, registered in the tie-break registry beside FIDE's C.07 codes.

Pure: no Django. Each code is a stable key (house style 2) in the style of TRF-2026: a base code
and, where the tie-break takes one, a true modifier (``BHEQ/C2`` is Buchholz with opponent-count
equalisation, then the two lowest opponents cut).

========  ===========================================================  ==================
Code      Tie-break                                                    Seed clause
========  ===========================================================  ==================
PROG      progressive score: the sum of the running totals             003 two-player 3
BHEQ      Buchholz after opponent-count equalisation; ``/Cn`` cuts     003 two-player 1–2,
          the n lowest opponents afterwards                            clarification 2
SBEQ      Sonneborn-Berger after opponent-count equalisation; ``/Cn``  003 clarification 2
POOLPTS   pool points: points scored in the current stage's rounds     002 rule 4 A, 5 D
POOLH2H   head-to-head pool points among the tied players              002 rule 4 B, 5 E
H2H       overall head-to-head points among the tied players           002 rule 4 D, 5 B
POOLRANK  pool ranking, for the overall ranking (lower is better)      002 rule 5 C
COMMON    points against common opponents, best game per opponent      002 rule 4 E, 5 F
SOS       strength of schedule: opponents' points, once per game       002 rule 4 F, 5 G
STRONG    strongest opponents: opponents' points, descending list      002 rule 4 G, 5 H
VSTOP     points against the highest-ranked player                     002 rule 4 H, 5 I
PREV      previous tournament ranking (lower is better)                002 rule 4 I, 5 J
AGE       age in reverse order: the younger player ranks higher        002 rule 4 J, 5 K
========  ===========================================================  ==================

Decisions where the seeds are silent (rules-notes is authoritative where it speaks):

- Opponents are the opponents of games played over the board (TRF codes ``1 = 0 W D L``);
  byes and forfeits have no opponent for these tie-breaks. MSO clarification 2 (opponent-count
  equalisation) is precisely how the seed evens out unplayed rounds.
- "Lowest-ranked opponent" (MSO clarification 2) is the opponent with the fewest points; among
  equally scored opponents SBEQ drops the smallest contribution first.
- Head-to-head sums the points of every game between tied players (repeated games count each);
  it does not check that everyone met everyone.
- Cohen "pool points" are the points scored in the rounds (game slots) of the current stage,
  ``options["pool_rounds"]``; in the first stage the games are between the pools, so "within the
  pool" cannot mean "against pool members". Without the option every round counts.
- ``POOLRANK`` reads ``options["pool_rank"]`` ({start_no: place in own pool}); ``PREV`` reads
  ``options["previous_rank"]``; a player with no entry ranks below every player with one.
- ``VSTOP``: the highest-ranked player outside the tied group (by ``options["overall_rank"]``,
  else by points); several sharing that place all count. A tied player cannot be their own
  reference, hence "outside the group".
- ``STRONG`` lists each opponent once (rule G says "opponent played", unlike rule F b), sorted
  descending, and compares the lists lexicographically; a longer list wins a common prefix.
- ``AGE`` is the birth date as the number ``YYYYMMDD`` (later is younger, so higher is better);
  no birth date counts as oldest.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from events.records import DRAW_CODES, WIN_CODES, Crosstable, Entrant, RoundResult
from events.sources import COHEN_CHESS, MSO, cite
from standings.registry import (
    TiebreakDefinition,
    TiebreakRequest,
    TiebreakValue,
    register,
)

_CUT = re.compile(r"C[1-9][0-9]?")

# One crosstable at a time is ranked; keeping its index spares every group-dependent call a
# scan of the field. The crosstable itself is held, so a recycled id can never match.
_INDEX: list[tuple[Crosstable, dict[int, Entrant]]] = []


def _entrants(crosstable: Crosstable) -> dict[int, Entrant]:
    for cached, index in _INDEX:
        if cached is crosstable:
            return index
    index = {entrant.start_no: entrant for entrant in crosstable.entrants}
    _INDEX[:] = [(crosstable, index)] + _INDEX[:3]
    return index


def _games(
    crosstable: Crosstable, start_no: int, rounds: Collection[int] | None = None
) -> Iterator[RoundResult]:
    """The player's games played over the board, up to ``crosstable.rounds``."""
    for result in _entrants(crosstable)[start_no].results:
        if result.round > crosstable.rounds or not result.played:
            continue
        if rounds is None or result.round in rounds:
            yield result


def _share(result: RoundResult) -> Fraction:
    """A game's outcome as a share of a win: 1, ½ or 0 (for Sonneborn-Berger)."""
    if result.code in WIN_CODES:
        return Fraction(1)
    if result.code in DRAW_CODES:
        return Fraction(1, 2)
    return Fraction(0)


def _cut(request: TiebreakRequest) -> int:
    return sum(int(modifier[1:]) for modifier in request.spec.modifiers)


def _rank_option(options: Mapping[str, object], key: str) -> Mapping[int, int]:
    value = options.get(key, {})
    if not isinstance(value, Mapping):
        raise ValueError(f"option {key!r} must map start numbers to places")
    return value


def _pool_rounds(options: Mapping[str, object]) -> Collection[int] | None:
    value = options.get("pool_rounds")
    if value is None:
        return None
    if not isinstance(value, Collection):
        raise ValueError("option 'pool_rounds' must list the round numbers of the stage")
    return frozenset(int(round_no) for round_no in value)


# -- Mind Sports Olympiad (seed 003) -----------------------------------------------------------


def progressive_score(request: TiebreakRequest) -> dict[int, TiebreakValue]:
    """Seed 003, two-player rule 3: the sum of the running totals after each round
    (rules-notes: W L W D → 1 + 1 + 2 + 2.5 = 6.5). Byes score what they award."""
    crosstable = request.crosstable
    values: dict[int, TiebreakValue] = {}
    for start_no in request.group:
        per_round = {
            result.round: crosstable.scoring.points(result)
            for result in _entrants(crosstable)[start_no].results
        }
        running = total = Fraction(0)
        for round_no in range(1, crosstable.rounds + 1):
            running += per_round.get(round_no, Fraction(0))
            total += running
        values[start_no] = total
    return values


def _equalised(request: TiebreakRequest, contribution: bool) -> dict[int, TiebreakValue]:
    """Seed 003, clarification 2: a tied player with more opponents than another loses their
    lowest-ranked (lowest-scoring) opponents until every tied player has as many; then the
    ``/Cn`` cut removes the n lowest of what remains."""
    points = request.points
    entries: dict[int, list[tuple[Fraction, Fraction]]] = {}
    for start_no in request.group:
        games = _games(request.crosstable, start_no)
        entries[start_no] = sorted(
            (
                points[game.opponent],
                _share(game) * points[game.opponent] if contribution else points[game.opponent],
            )
            for game in games
            if game.opponent is not None
        )
    target = min((len(listed) for listed in entries.values()), default=0)
    cut = _cut(request)
    return {
        start_no: sum(
            (value for _, value in listed[len(listed) - target + cut :]),
            Fraction(0),
        )
        for start_no, listed in entries.items()
    }


def equalised_buchholz(request: TiebreakRequest) -> dict[int, TiebreakValue]:
    """Seed 003, two-player rules 1 (``BHEQ/C2``) and 2 (``BHEQ``), with clarification 2."""
    return _equalised(request, contribution=False)


def equalised_sonneborn_berger(request: TiebreakRequest) -> dict[int, TiebreakValue]:
    """Seed 003, clarification 2 applied to Sonneborn-Berger: each kept game contributes the
    opponent's points times 1, ½ or 0."""
    return _equalised(request, contribution=True)


# -- Cohen Chess (seed 002) --------------------------------------------------------------------


def pool_points(request: TiebreakRequest) -> dict[int, TiebreakValue]:
    """Seed 002 rule 4 A / 5 D: points scored in the current stage (``options["pool_rounds"]``)."""
    crosstable = request.crosstable
    rounds = _pool_rounds(request.options)
    values: dict[int, TiebreakValue] = {}
    for start_no in request.group:
        values[start_no] = sum(
            (
                crosstable.scoring.points(result)
                for result in _entrants(crosstable)[start_no].results
                if result.round <= crosstable.rounds and (rounds is None or result.round in rounds)
            ),
            Fraction(0),
        )
    return values


def _head_to_head(
    request: TiebreakRequest, rounds: Collection[int] | None
) -> dict[int, TiebreakValue]:
    scoring = request.crosstable.scoring
    return {
        start_no: sum(
            (
                scoring.points(game)
                for game in _games(request.crosstable, start_no, rounds)
                if game.opponent in request.group
            ),
            Fraction(0),
        )
        for start_no in request.group
    }


def head_to_head(request: TiebreakRequest) -> dict[int, TiebreakValue]:
    """Seed 002 rule 4 D / 5 B: points in the games between the tied players, whole event."""
    return _head_to_head(request, None)


def pool_head_to_head(request: TiebreakRequest) -> dict[int, TiebreakValue]:
    """Seed 002 rule 4 B / 5 E: the same, counting only the current stage's rounds."""
    return _head_to_head(request, _pool_rounds(request.options))


def _place_lower_is_better(request: TiebreakRequest, key: str) -> dict[int, TiebreakValue]:
    places = _rank_option(request.options, key)
    unplaced = max(places.values(), default=0) + 1
    return {start_no: Fraction(places.get(start_no, unplaced)) for start_no in request.group}


def pool_ranking(request: TiebreakRequest) -> dict[int, TiebreakValue]:
    """Seed 002 rule 5 C: the place in the player's own pool (``options["pool_rank"]``)."""
    return _place_lower_is_better(request, "pool_rank")


def previous_ranking(request: TiebreakRequest) -> dict[int, TiebreakValue]:
    """Seed 002 rule 4 I / 5 J: previous tournament ranking (``options["previous_rank"]``)."""
    return _place_lower_is_better(request, "previous_rank")


def common_opponents(request: TiebreakRequest) -> dict[int, TiebreakValue]:
    """Seed 002 rule 4 E / 5 F: points against the opponents every tied player has met; a
    player who met one twice counts the best game (rule 4 E a)."""
    scoring = request.crosstable.scoring
    best: dict[int, dict[int, Fraction]] = {}
    for start_no in request.group:
        per_opponent: dict[int, Fraction] = {}
        for game in _games(request.crosstable, start_no):
            if game.opponent is not None:
                scored = scoring.points(game)
                per_opponent[game.opponent] = max(per_opponent.get(game.opponent, scored), scored)
        best[start_no] = per_opponent
    met = [set(per_opponent) for per_opponent in best.values()]
    common = set.intersection(*met) - request.group if met else set()
    return {
        start_no: sum((per_opponent[opponent] for opponent in common), Fraction(0))
        for start_no, per_opponent in best.items()
    }


def strength_of_schedule(request: TiebreakRequest) -> dict[int, TiebreakValue]:
    """Seed 002 rule 4 F / 5 G: the opponents' points, an opponent counted once per game."""
    points = request.points
    return {
        start_no: sum(
            (
                points[game.opponent]
                for game in _games(request.crosstable, start_no)
                if game.opponent is not None
            ),
            Fraction(0),
        )
        for start_no in request.group
    }


def strongest_opponents(request: TiebreakRequest) -> dict[int, TiebreakValue]:
    """Seed 002 rule 4 G / 5 H: each opponent's points, highest first, compared in order."""
    points = request.points
    values: dict[int, TiebreakValue] = {}
    for start_no in request.group:
        opponents = {
            game.opponent
            for game in _games(request.crosstable, start_no)
            if game.opponent is not None
        }
        values[start_no] = tuple(sorted((points[o] for o in opponents), reverse=True))
    return values


def _reference_players(request: TiebreakRequest) -> set[int]:
    """The highest-ranked player(s) outside the tied group (seed 002 rule 4 H / 5 I)."""
    outside = [p for p in _entrants(request.crosstable) if p not in request.group]
    places = _rank_option(request.options, "overall_rank")
    placed = [p for p in outside if p in places]
    if placed:
        best = min(places[p] for p in placed)
        return {p for p in placed if places[p] == best}
    return _most_points(outside, request.points)


def _most_points(players: Sequence[int], points: Mapping[int, Fraction]) -> set[int]:
    """Those of ``players`` with the most points; none without players."""
    if not players:
        return set()
    most = max(points[p] for p in players)
    return {p for p in players if points[p] == most}


def versus_top(request: TiebreakRequest) -> dict[int, TiebreakValue]:
    """Seed 002 rule 4 H / 5 I: points scored against the highest-ranked player."""
    references = _reference_players(request)
    scoring = request.crosstable.scoring
    return {
        start_no: sum(
            (
                scoring.points(game)
                for game in _games(request.crosstable, start_no)
                if game.opponent in references
            ),
            Fraction(0),
        )
        for start_no in request.group
    }


def youth(request: TiebreakRequest) -> dict[int, TiebreakValue]:
    """Seed 002 rule 4 J / 5 K: "age, in reverse order" — the younger player ranks higher."""
    entrants = _entrants(request.crosstable)
    values: dict[int, TiebreakValue] = {}
    for start_no in request.group:
        born = entrants[start_no].birth_date
        values[start_no] = Fraction(
            0 if born is None else born.year * 10000 + born.month * 100 + born.day
        )
    return values


@dataclass(frozen=True, slots=True)
class SeedCode:
    """One row of the module table: the code, its name, and the clause it implements (cited)."""

    code: str
    name: str
    clause: str


def _cut_modifier(modifier: str) -> bool:
    return _CUT.fullmatch(modifier) is not None


DEFINITIONS: tuple[tuple[TiebreakDefinition, str], ...] = (
    (
        TiebreakDefinition("PROG", "Progressive score", progressive_score),
        cite(MSO, "two-player rule 3"),
    ),
    (
        TiebreakDefinition(
            "BHEQ",
            "Buchholz, opponent counts equalised",
            equalised_buchholz,
            group_dependent=True,
            allowed_modifiers=_cut_modifier,
        ),
        cite(MSO, "two-player rules 1–2, clarification 2"),
    ),
    (
        TiebreakDefinition(
            "SBEQ",
            "Sonneborn-Berger, opponent counts equalised",
            equalised_sonneborn_berger,
            group_dependent=True,
            allowed_modifiers=_cut_modifier,
        ),
        cite(MSO, "clarification 2"),
    ),
    (
        TiebreakDefinition("POOLPTS", "Pool points", pool_points),
        cite(COHEN_CHESS, "ranking rules 4 A, 5 D"),
    ),
    (
        TiebreakDefinition(
            "POOLH2H", "Head-to-head pool points", pool_head_to_head, group_dependent=True
        ),
        cite(COHEN_CHESS, "ranking rules 4 B, 5 E"),
    ),
    (
        TiebreakDefinition(
            "H2H", "Overall head-to-head points", head_to_head, group_dependent=True
        ),
        cite(COHEN_CHESS, "ranking rules 4 D, 5 B"),
    ),
    (
        TiebreakDefinition("POOLRANK", "Pool ranking", pool_ranking, higher_is_better=False),
        cite(COHEN_CHESS, "ranking rule 5 C"),
    ),
    (
        TiebreakDefinition(
            "COMMON", "Common opponents points", common_opponents, group_dependent=True
        ),
        cite(COHEN_CHESS, "ranking rules 4 E, 5 F"),
    ),
    (
        TiebreakDefinition("SOS", "Strength of schedule", strength_of_schedule),
        cite(COHEN_CHESS, "ranking rules 4 F, 5 G"),
    ),
    (
        TiebreakDefinition("STRONG", "Strongest opponents", strongest_opponents),
        cite(COHEN_CHESS, "ranking rules 4 G, 5 H"),
    ),
    (
        TiebreakDefinition(
            "VSTOP", "Points against the highest-ranked player", versus_top, group_dependent=True
        ),
        cite(COHEN_CHESS, "ranking rules 4 H, 5 I"),
    ),
    (
        TiebreakDefinition(
            "PREV", "Previous tournament ranking", previous_ranking, higher_is_better=False
        ),
        cite(COHEN_CHESS, "ranking rules 4 I, 5 J"),
    ),
    (
        TiebreakDefinition("AGE", "Age, younger first", youth),
        cite(COHEN_CHESS, "ranking rules 4 J, 5 K"),
    ),
)

SEED_CODES: tuple[SeedCode, ...] = tuple(
    SeedCode(definition.base, definition.name, clause) for definition, clause in DEFINITIONS
)

for _definition, _clause in DEFINITIONS:
    register(
        TiebreakDefinition(
            base=_definition.base,
            name=_definition.name,
            compute=_definition.compute,
            group_dependent=_definition.group_dependent,
            higher_is_better=_definition.higher_is_better,
            allowed_modifiers=_definition.allowed_modifiers,
            description=f"{_definition.name} ({_clause})",
        )
    )
