"""A free pairings checker: a published or hand-edited round against the 2025 Dutch rules.

``check_round`` reports, in this order: broken absolute rules (a player twice or left out,
an absent player paired, a rematch (C1), a forbidden pair (C.04.2), two players with the same
absolute colour preference (C3), the bye to a player who may not have it (C2)); otherwise the
first quality criterion on which the given round does worse than the engine's (floaters C5–C6,
colour preferences C12–C13, repeated floats C14–C17); otherwise that the rules prefer the
engine's pairing by the order of Art. 3 (which S1 player meets which S2 player); otherwise the
colour and board-order differences with the colour rule that decides each board.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from draws.swiss.pairing.colours import choose_colour
from draws.swiss.pairing.engine import pair_round, weight_context
from draws.swiss.pairing.model import Difference, Pairing, PairingImpossible, PairingRequest
from draws.swiss.pairing.players import FLOAT_DOWN, FLOAT_UP, PlayerState, field_state
from draws.swiss.pairing.weights import compatible
from events.records import Crosstable


def _absolute(
    state_players: dict[int, PlayerState],
    request: PairingRequest,
    boards: Sequence[tuple[int, int]],
    bye: int | None,
) -> list[Difference]:
    found: list[Difference] = []
    seen: dict[int, int] = {}
    away = set(request.absent) | {s for s, _ in request.requested_byes}
    for board, (white, black) in enumerate(boards, start=1):
        for player in (white, black):
            if player in seen:
                found.append(Difference("absolute", "C.04.1", f"{player} is paired twice"))
            seen[player] = board
            if player in away or player not in state_players:
                found.append(Difference("absolute", "C.04.2", f"{player} is absent but paired"))
    if bye is not None:
        if bye in seen:
            found.append(Difference("absolute", "C.04.1", f"{bye} is paired and has the bye"))
        if bye in state_players and not state_players[bye].bye_eligible:
            found.append(
                Difference(
                    "absolute",
                    "C.04.3 C2",
                    f"{bye} may not receive the pairing-allocated bye (had one, or scored a "
                    f"win without playing)",
                )
            )
    left = sorted(set(state_players) - set(seen) - ({bye} if bye else set()))
    if left:
        found.append(Difference("absolute", "C.04.1", f"not paired: {', '.join(map(str, left))}"))
    return found


def _pair_rules(
    crosstable: Crosstable,
    request: PairingRequest,
    players: dict[int, PlayerState],
    boards: Sequence[tuple[int, int]],
) -> list[Difference]:
    ctx = weight_context(crosstable, request, field_state(crosstable, request))
    found = []
    for white, black in boards:
        a, b = players.get(white), players.get(black)
        if a is None or b is None or compatible(a, b, ctx):
            continue
        if black in a.opponents:
            found.append(Difference("absolute", "C.04.3 C1", f"{white} and {black} met before"))
        elif frozenset((white, black)) in request.forbidden_pairs:
            found.append(Difference("absolute", "C.04.2", f"{white}–{black} is a forbidden pair"))
        else:
            found.append(
                Difference(
                    "absolute",
                    "C.04.3 C3",
                    f"{white} and {black} both have an absolute preference for the same colour",
                )
            )
    return found


def _metrics(
    players: dict[int, PlayerState], pairs: Sequence[tuple[int, int]]
) -> list[tuple[str, str, Fraction]]:
    """Per quality criterion, a number where smaller is better, in the rules' order."""
    diff_pairs = score_gap = Fraction(0)
    unmet = strong = Fraction(0)
    floats = {key: Fraction(0) for key in ("C14", "C15", "C16", "C17")}
    for a_no, b_no in pairs:
        a, b = players[a_no], players[b_no]
        if a.pairing_score != b.pairing_score:
            diff_pairs += 1
            score_gap += abs(a.pairing_score - b.pairing_score)
            high, low = (a, b) if a.pairing_score > b.pairing_score else (b, a)
            floats["C14"] += high.floats[0] == FLOAT_DOWN
            floats["C15"] += low.floats[0] == FLOAT_UP
            floats["C16"] += high.floats[1] == FLOAT_DOWN
            floats["C17"] += low.floats[1] == FLOAT_UP
        if a.colour_preference and a.colour_preference == b.colour_preference:
            unmet += 1
            strong += a.strong_preference and b.strong_preference
    return [
        ("C.04.3 C5", "pairs between different scores (floaters)", diff_pairs),
        ("C.04.3 C6", "total score difference of floaters", score_gap),
        ("C.04.3 C12", "pairs whose colour preferences cannot both be met", unmet),
        ("C.04.3 C13", "pairs whose strong colour preferences cannot both be met", strong),
        ("C.04.3 C14", "repeated downfloats from the last round", floats["C14"]),
        ("C.04.3 C15", "repeated upfloats from the last round", floats["C15"]),
        ("C.04.3 C16", "repeated downfloats from two rounds before", floats["C16"]),
        ("C.04.3 C17", "repeated upfloats from two rounds before", floats["C17"]),
    ]


def _quality(
    players: dict[int, PlayerState], given: Sequence[tuple[int, int]], engine: Pairing
) -> list[Difference]:
    ours = [(b.white, b.black) for b in engine.boards]
    for (rule, what, theirs_value), (_, _, our_value) in zip(
        _metrics(players, given), _metrics(players, ours), strict=True
    ):
        if theirs_value > our_value:
            return [
                Difference(
                    "quality",
                    rule,
                    f"more {what}: {theirs_value} against {our_value} in the rules' pairing",
                )
            ]
    return [
        Difference(
            "quality",
            "C.04.3 Art. 3",
            "equally good on the criteria, but the rules take the first pairing in the order "
            "of Art. 3 (MDPs by rank, fewest and closest exchanges, S1 against S2 in order)",
        )
    ]


def _colours_and_order(
    players: dict[int, PlayerState],
    request: PairingRequest,
    boards: Sequence[tuple[int, int]],
    engine: Pairing,
) -> list[Difference]:
    found = []
    expected = {frozenset((b.white, b.black)): b for b in engine.boards}
    for white, black in boards:
        board = expected[frozenset((white, black))]
        if board.white != white:
            first, second = sorted((white, black))
            choice = choose_colour(players[first], players[second], request.initial_colour)
            found.append(
                Difference(
                    "colour",
                    "C.04.3 colour allocation",
                    f"differs only in colours: the rules give {board.white}–{board.black} "
                    f"({choice.rule})",
                )
            )
    given_order = [frozenset(pair) for pair in boards]
    if given_order != [frozenset((b.white, b.black)) for b in engine.boards] and not found:
        found.append(
            Difference(
                "order",
                "C.04.2 board order",
                "differs only in board order: by the higher player's score, then the lower "
                "player's score, then the higher player's pairing number",
            )
        )
    return found


def check_round(
    crosstable_before: Crosstable,
    request: PairingRequest,
    boards: Sequence[tuple[int, int]],
    bye: int | None,
) -> tuple[Difference, ...]:
    """Compare a round (``(white, black)`` boards and a bye) with the engine's pairing."""
    players = {p.start_no: p for p in field_state(crosstable_before, request).players}
    found = _absolute(players, request, boards, bye)
    found += _pair_rules(crosstable_before, request, players, boards)
    if found:
        return tuple(found)
    try:
        engine = pair_round(crosstable_before, request)
    except PairingImpossible as impossible:
        return (Difference("absolute", "C.04.3 C4", str(impossible)),)
    same_pairs = {frozenset(b) for b in boards} == {
        frozenset((b.white, b.black)) for b in engine.boards
    }
    if not same_pairs or bye != engine.bye:
        return tuple(_quality(players, boards, engine))
    return tuple(_colours_and_order(players, request, boards, engine))
