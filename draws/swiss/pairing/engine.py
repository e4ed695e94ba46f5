"""``pair_round``: the crosstable and the request in, the round's pairing out.

C.04.3 (2025) for the pairing itself (:mod:`draws.swiss.pairing.dutch`), its colour allocation rules
(:mod:`draws.swiss.pairing.colours`), C.04.2 for board order and for who is paired at all (absent
players, requested byes, forbidden pairs).
"""

from __future__ import annotations

from fractions import Fraction

from draws.swiss.pairing.colours import choose_colour
from draws.swiss.pairing.dutch import pair_players
from draws.swiss.pairing.explain import board_reasons, bracket_reports, notes_for
from draws.swiss.pairing.model import (
    BLACK,
    WHITE,
    Board,
    Pairing,
    PairingImpossible,
    PairingRequest,
)
from draws.swiss.pairing.players import FieldState, PlayerState, field_state
from draws.swiss.pairing.weights import WeightContext, bits
from events.records import Crosstable


def _validate(crosstable: Crosstable, request: PairingRequest) -> None:
    if request.initial_colour not in (WHITE, BLACK):
        raise ValueError("initial_colour must be 'w' or 'b'")
    if request.round < 1 or request.round > request.total_rounds:
        raise ValueError(f"round {request.round} is outside 1..{request.total_rounds}")
    known = {entrant.start_no for entrant in crosstable.entrants}
    for start_no, code in request.requested_byes:
        if code not in ("H", "Z", "F"):
            raise ValueError(f"requested bye of {start_no}: code {code!r} is not H, Z or F")
    for pair in request.forbidden_pairs:
        if len(pair) != 2 or not pair <= known:
            raise ValueError(f"forbidden pair {sorted(pair)} does not name two players")


def _forbidden(state: FieldState, request: PairingRequest) -> dict[int, frozenset[int]]:
    table: dict[int, set[int]] = {p.start_no: set(p.opponents) for p in state.players}
    for pair in request.forbidden_pairs:
        a, b = sorted(pair)
        table.setdefault(a, set()).add(b)
        table.setdefault(b, set()).add(a)
    return {start_no: frozenset(others) for start_no, others in table.items()}


def weight_context(
    crosstable: Crosstable, request: PairingRequest, state: FieldState
) -> WeightContext:
    """The per-round constants of the weights (score-group field widths and offsets)."""
    sizes: dict[Fraction, int] = {}
    for player in state.players:
        sizes[player.pairing_score] = sizes.get(player.pairing_score, 0) + 1
    shifts: dict[Fraction, int] = {}
    total = 0
    for score in sorted(sizes):
        shifts[score] = total
        total += bits(sizes[score])
    scoring = crosstable.scoring
    return WeightContext(
        played_rounds=state.played_rounds,
        total_rounds=request.total_rounds,
        max_game_points=max(scoring.win, scoring.draw),
        score_group_bits=bits(max(sizes.values(), default=0)),
        score_groups_shift=total,
        score_shifts=shifts,
        forbidden=_forbidden(state, request),
    )


def _unaccelerated_key(player: PlayerState) -> tuple[Fraction, int]:
    return (-player.score, player.rank)


def _board_key(pair: tuple[PlayerState, PlayerState]) -> tuple[Fraction, Fraction, int]:
    """C.04.2 board order as bbpPairings prints it: the higher player's score, then the lower
    player's score, then the higher player's pairing number (real scores, not accelerated)."""
    higher, lower = sorted(pair, key=_unaccelerated_key)
    return (-higher.score, -lower.score, higher.rank)


def pair_round(crosstable: Crosstable, request: PairingRequest) -> Pairing:
    """Pair round ``request.round`` of a Dutch-system Swiss (C.04.3, 2025 rules).

    ``crosstable`` holds the rounds before it. Raises :class:`PairingImpossible` when no
    pairing meets the absolute criteria (C1–C3) and the completion criterion (C4).
    """
    _validate(crosstable, request)
    state = field_state(crosstable, request)
    ctx = weight_context(crosstable, request, state)
    result = pair_players(state.players, ctx)
    by_start = {player.start_no: player for player in state.players}
    pairs = sorted(
        ((by_start[a], by_start[b]) for a, b in result.pairs),
        key=_board_key,
    )
    boards = []
    for number, (a, b) in enumerate(pairs, start=1):
        first, second = (a, b) if a.start_no < b.start_no else (b, a)
        choice = choose_colour(first, second, request.initial_colour)
        white, black = (first, second) if choice.colour == WHITE else (second, first)
        reasons = board_reasons(white, black, choice)
        boards.append(Board(number, white.start_no, black.start_no, reasons))
    if len(state.players) % 2 and result.bye is None:
        raise PairingImpossible("no legal pairing: the bye could not be allocated")
    return Pairing(
        round=request.round,
        boards=tuple(boards),
        bye=result.bye,
        notes=notes_for(result, by_start),
        brackets=bracket_reports(result, by_start),
    )
