"""The free pairings checker: each kind of difference names its rule."""

from __future__ import annotations

import pytest

from draws.swiss.pairing import PairingRequest, check_round
from tests.draws.swiss.builders import crosstable

TABLE = crosstable(4, {1: ["3w="], 2: ["4b="], 3: ["1b="], 4: ["2w="]})
REQUEST = PairingRequest(round=2, total_rounds=5, initial_colour="w")

# The rules give 2–1 and 3–4 (see test_criteria); bbpPairings agrees.
CASES = [
    ("same-as-the-rules", [(2, 1), (3, 4)], None, []),
    ("C.04.3-C1-rematch", [(1, 3), (2, 4)], None, ["C.04.3 C1"]),
    ("C.04.1-player-twice", [(2, 1), (1, 4)], None, ["C.04.1"]),
    ("C.04.3-C12-colour-preferences-worse", [(1, 4), (2, 3)], None, ["C.04.3 C12"]),
    ("colour-only", [(1, 2), (3, 4)], None, ["C.04.3 colour allocation"]),
    ("board-order-only", [(3, 4), (2, 1)], None, ["C.04.2 board order"]),
]


@pytest.mark.parametrize(
    ("boards", "bye", "rules"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_check_round(boards, bye, rules) -> None:
    differences = check_round(TABLE, REQUEST, boards, bye)
    assert [d.rule for d in differences][: len(rules)] == rules
    assert len(differences) >= len(rules)
    if not rules:
        assert differences == ()


def test_absent_player_paired_is_absolute() -> None:
    request = PairingRequest(round=2, total_rounds=5, initial_colour="w", absent=frozenset({4}))
    differences = check_round(TABLE, request, [(2, 1), (3, 4)], None)
    assert any("absent" in d.message for d in differences)
