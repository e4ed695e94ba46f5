"""Table-driven cases, one rule each; every expected pairing was derived from the rule and
confirmed with bbpPairings (the oracle gives the same boards, colours, order and bye)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from draws.swiss.pairing import PairingImpossible, PairingRequest, baku_acceleration, pair_round
from events.records import Scoring
from tests.draws.swiss.builders import crosstable

FORBID_1_3 = frozenset({frozenset({1, 3})})

# (id, crosstable, request fields, expected boards (white, black) in board order, bye)
CASES = [
    (
        "C.04.3-2025-colour-last-rule-round1-white",
        crosstable(4),
        {"initial_colour": "w"},
        [(1, 3), (4, 2)],
        None,
    ),
    (
        "C.04.3-2025-colour-last-rule-round1-black",
        crosstable(4),
        {"initial_colour": "b"},
        [(3, 1), (2, 4)],
        None,
    ),
    (
        "C.04.3-2025-1.5-odd-field-bye-to-lowest",
        crosstable(5),
        {"initial_colour": "w"},
        [(1, 3), (4, 2)],
        5,
    ),
    (
        # 1–3 would be a rematch; of the legal pairings 1–2, 3–4 meets all four colour
        # preferences (C12) where the transposition 1–4, 2–3 meets none.
        "C.04.3-2025-C1-no-rematch-and-C12-colour-preferences",
        crosstable(4, {1: ["3w="], 2: ["4b="], 3: ["1b="], 4: ["2w="]}),
        {"initial_colour": "w"},
        [(2, 1), (3, 4)],
        None,
    ),
    (
        # 3 had a (zero-point) pairing-allocated bye: not again, though lowest (C2).
        "C.04.3-2025-C2-no-second-pairing-allocated-bye",
        crosstable(3, {1: ["2w="], 2: ["1b="], 3: ["-U"]}, Scoring(pairing_bye=Fraction(0))),
        {"initial_colour": "w"},
        [(3, 1)],
        2,
    ),
    (
        "C.04.2-forbidden-pair-like-a-rematch",
        crosstable(4),
        {"initial_colour": "w", "forbidden_pairs": FORBID_1_3},
        [(1, 4), (3, 2)],
        None,
    ),
    (
        # 3 is absent and has never been paired: not counted for pairing numbers either.
        "C.04.2-absent-player-not-paired",
        crosstable(5),
        {"initial_colour": "w", "absent": frozenset({3})},
        [(1, 4), (5, 2)],
        None,
    ),
]


@pytest.mark.parametrize(
    ("table", "fields", "boards", "bye"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_pairing(table, fields, boards, bye) -> None:
    request = PairingRequest(round=table.rounds + 1, total_rounds=5, **fields)
    pairing = pair_round(table, request)
    assert [(b.white, b.black) for b in pairing.boards] == boards
    assert pairing.bye == bye
    assert [b.number for b in pairing.boards] == list(range(1, len(boards) + 1))


IMPOSSIBLE = [
    (
        # 1 and 2 both need black, 3 and 4 both need white, everyone else already met (C3).
        "C.04.3-2025-C3-same-absolute-colour-preference",
        crosstable(
            4,
            {1: ["3w1", "4w1"], 2: ["4w1", "3w1"], 3: ["1b0", "2b0"], 4: ["2b0", "1b0"]},
        ),
        {},
        "both must have the same colour",
    ),
    (
        "C.04.2-forbidden-pair-makes-pairing-impossible",
        crosstable(2),
        {"forbidden_pairs": frozenset({frozenset({1, 2})})},
        "1–2 is a forbidden pair",
    ),
]


@pytest.mark.parametrize(
    ("table", "fields", "message"),
    [case[1:] for case in IMPOSSIBLE],
    ids=[case[0] for case in IMPOSSIBLE],
)
def test_impossible(table, fields, message) -> None:
    request = PairingRequest(round=table.rounds + 1, total_rounds=5, initial_colour="w", **fields)
    with pytest.raises(PairingImpossible, match=message):
        pair_round(table, request)


@pytest.mark.parametrize(
    ("round_no", "expected"),
    [(1, Fraction(1)), (3, Fraction(1)), (4, Fraction(1, 2)), (5, Fraction(1, 2)), (6, None)],
    ids=lambda value: str(value),
)
def test_c045_baku_virtual_points(round_no, expected) -> None:
    """C.04.5 Baku: 9 rounds, 8 players: the top 4 get a win's points in rounds 1–3 and a
    draw's in rounds 4–5, nothing later (bbpPairings' applyBakuAcceleration agrees)."""
    given = dict(baku_acceleration(range(1, 9), 9, round_no))
    if expected is None:
        assert given == {}
    else:
        assert given == {1: expected, 2: expected, 3: expected, 4: expected}


def test_board_reasons_name_the_colour_rule() -> None:
    pairing = pair_round(
        crosstable(4, {1: ["3w="], 2: ["4b="], 3: ["1b="], 4: ["2w="]}),
        PairingRequest(round=2, total_rounds=5, initial_colour="w"),
    )
    assert pairing.boards[0].reasons[0].startswith("both players get their preferred colour")
    assert any("Score group ½" in note for note in pairing.notes)
