"""Swiss pairing engine: the FIDE (Dutch) system, 2025 rules (C.04.3), pure Python.

Entry points: :func:`pair_round` (pair the next round), :func:`check_round` (compare a given
round with what the rules give), :func:`baku_acceleration` (C.04.5 virtual points).
"""

from __future__ import annotations

from draws.swiss.pairing.acceleration import baku_acceleration
from draws.swiss.pairing.checker import check_round
from draws.swiss.pairing.engine import pair_round
from draws.swiss.pairing.model import (
    Board,
    BracketReport,
    Difference,
    Pairing,
    PairingImpossible,
    PairingRequest,
)

__all__ = [
    "Board",
    "BracketReport",
    "Difference",
    "Pairing",
    "PairingImpossible",
    "PairingRequest",
    "baku_acceleration",
    "check_round",
    "pair_round",
]
