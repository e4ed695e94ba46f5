"""Each player's pairing state before a round, read off the crosstable.

C.04.3 (2025) Art. 1.2 (order: score, then pairing number), Art. 1.4 (floats), Art. 1.5 and
criterion C2 (who may receive the pairing-allocated bye), Art. 1.6 (colour difference and
colour preferences: absolute, strong, mild). C.04.2 (general handling rules) for pairing
numbers of players who are absent. The definitions follow bbpPairings' reading where the text
leaves room (docs/pairing.md, "Ambiguities").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from draws.swiss.pairing.model import BLACK, WHITE, PairingRequest
from events.records import PAIRING_BYE, Crosstable, Entrant, RoundResult, Scoring

FLOAT_DOWN = "D"
FLOAT_UP = "U"
FLOAT_NONE = ""


@dataclass(frozen=True, slots=True)
class PlayerState:
    """A player to be paired, as the Dutch rules see them before the round."""

    start_no: int
    rank: int  # 0-based effective pairing number among the players counted this round
    score: Fraction  # real score
    pairing_score: Fraction  # score plus this round's acceleration (C.04.5)
    colour_preference: str  # "w", "b" or "" (C.04.3 Art. 1.6.2)
    colour_imbalance: int  # |whites - blacks|
    repeated_colour: str  # colour of the last two played games when equal, else ""
    strong_preference: bool
    played_games: int
    bye_eligible: bool  # criterion C2
    colours: tuple[str, ...]  # colours of the played games, oldest first
    floats: tuple[str, str]  # float in the previous round and the one before (Art. 1.4)
    opponents: frozenset[int]  # players met over the board (C1)

    @property
    def absolute_imbalance(self) -> bool:
        return self.colour_imbalance > 1

    @property
    def absolute_preference(self) -> bool:
        """C.04.3 (2025) Art. 1.6.2.1: colour difference beyond ±1, or the same colour twice."""
        return self.absolute_imbalance or bool(self.repeated_colour)


def past_results(entrant: Entrant, before_round: int) -> list[RoundResult]:
    """The entrant's results for rounds 1 .. before_round-1, a missing round as a zero bye."""
    by_round = {result.round: result for result in entrant.results}
    return [
        by_round.get(r) or RoundResult(round=r, opponent=None, colour="-", code="Z")
        for r in range(1, before_round)
    ]


def participated(result: RoundResult) -> bool:
    """Paired by the arbiter that round: an opponent, or the pairing-allocated bye."""
    return result.opponent is not None or result.code in (PAIRING_BYE, "+")


def bye_eligible(results: list[RoundResult], scoring: Scoring) -> bool:
    """C.04.3 (2025) C2: no earlier pairing-allocated bye and no unplayed round that scored
    as much as a win."""
    for result in results:
        if result.played:
            continue
        if scoring.points(result) >= scoring.win:
            return False
        if result.opponent is None and result.code in (PAIRING_BYE, "+"):
            return False
    return True


@dataclass(frozen=True, slots=True)
class _Colours:
    preference: str
    imbalance: int
    repeated: str
    strong: bool
    colours: tuple[str, ...]


def _invert(colour: str) -> str:
    return BLACK if colour == WHITE else WHITE if colour == BLACK else ""


def colour_state(results: list[RoundResult]) -> _Colours:
    """C.04.3 (2025) Art. 1.6: colour difference and the three kinds of preference."""
    colours = tuple(r.colour for r in results if r.played and r.colour in (WHITE, BLACK))
    whites = colours.count(WHITE)
    blacks = len(colours) - whites
    run = 0
    for colour in reversed(colours):
        if colour != colours[-1]:
            break
        run += 1
    last = colours[-1] if colours else ""
    lower = BLACK if whites > blacks else WHITE
    imbalance = abs(whites - blacks)
    if imbalance > 1:
        preference = lower
    elif run > 1:
        preference = _invert(last)
    elif imbalance:
        preference = lower
    else:
        preference = _invert(last)
    repeated = last if run > 1 else ""
    strong = not (imbalance > 1 or repeated) and imbalance > 0
    return _Colours(preference, imbalance, repeated, strong, colours)


def running_scores(results: list[RoundResult], scoring: Scoring) -> list[Fraction]:
    """``running[r - 1]``: the points from the rounds before round ``r``, for every round up
    to the one after the last result."""
    running = [Fraction(0)]
    for result in sorted(results, key=lambda r: r.round):
        while len(running) < result.round:
            running.append(running[-1])
        running.append(running[-1] + scoring.points(result))
    return running


@dataclass(frozen=True)
class FieldState:
    """All players of the round plus what the float criteria need about everyone."""

    players: tuple[PlayerState, ...]
    played_rounds: int


def _acceleration_table(request: PairingRequest) -> dict[tuple[int, int], Fraction]:
    table = {(r, s): points for r, s, points in request.acceleration_history}
    for start_no, points in request.acceleration:
        table[(request.round, start_no)] = points
    return table


def _float_for(
    results: list[RoundResult],
    round_no: int,
    start_no: int,
    scores_then: Mapping[tuple[int, int], Fraction],
    scoring: Scoring,
) -> str:
    """C.04.3 (2025) Art. 1.4.2–1.4.3: the float a player received in round ``round_no``."""
    result = results[round_no - 1]
    if not result.played:
        return FLOAT_DOWN if scoring.points(result) > scoring.loss else FLOAT_NONE
    assert result.opponent is not None
    mine = scores_then[(round_no, start_no)]
    theirs = scores_then[(round_no, result.opponent)]
    return FLOAT_DOWN if mine > theirs else FLOAT_UP if mine < theirs else FLOAT_NONE


def _ranked_start_numbers(
    crosstable: Crosstable, request: PairingRequest, history: Mapping[int, list[RoundResult]]
) -> list[int]:
    """Pairing-number order, keeping the players bbpPairings counts: those paired this round
    and those who took part in an earlier pairing (C.04.2, initial order)."""
    order = list(request.pairing_numbers) or sorted(e.start_no for e in crosstable.entrants)
    away = set(request.absent) | {start_no for start_no, _ in request.requested_byes}
    return [
        s
        for s in order
        if s in history and (s not in away or any(participated(r) for r in history[s]))
    ]


def field_state(crosstable: Crosstable, request: PairingRequest) -> FieldState:
    """The players to pair this round, in no particular order, with their state."""
    scoring = crosstable.scoring
    history = {e.start_no: past_results(e, request.round) for e in crosstable.entrants}
    ranked = _ranked_start_numbers(crosstable, request, history)
    rank_of = {start_no: index for index, start_no in enumerate(ranked)}
    acceleration = _acceleration_table(request)
    played_rounds = request.round - 1
    running = {s: running_scores(results, scoring) for s, results in history.items()}
    scores_then = {
        (r, s): running[s][min(r, len(running[s])) - 1] + acceleration.get((r, s), Fraction(0))
        for s in history
        for r in range(max(1, played_rounds - 1), request.round + 1)
    }
    away = set(request.absent) | {start_no for start_no, _ in request.requested_byes}
    players = []
    for start_no in ranked:
        if start_no in away:
            continue
        results = history[start_no]
        colours = colour_state(results)
        floats = tuple(
            _float_for(results, played_rounds + 1 - back, start_no, scores_then, scoring)
            if played_rounds >= back
            else FLOAT_NONE
            for back in (1, 2)
        )
        players.append(
            PlayerState(
                start_no=start_no,
                rank=rank_of[start_no],
                score=running[start_no][min(request.round, len(running[start_no])) - 1],
                pairing_score=scores_then[(request.round, start_no)],
                colour_preference=colours.preference,
                colour_imbalance=colours.imbalance,
                repeated_colour=colours.repeated,
                strong_preference=colours.strong,
                played_games=len(colours.colours),
                bye_eligible=bye_eligible(results, scoring),
                colours=colours.colours,
                floats=(floats[0], floats[1]),
                opponents=frozenset(r.opponent for r in results if r.played and r.opponent),
            )
        )
    return FieldState(players=tuple(players), played_rounds=played_rounds)
