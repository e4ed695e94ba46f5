"""Swiss team pairing engine: FIDE C.04.6 Swiss Team Pairing System (2026 edition), pure Python.

Entry point: :func:`pair_team_round` (pair the next round of a team Swiss). The decisions where
the text is ambiguous follow gacrux's reading and are listed in docs/teams.md.
"""

from __future__ import annotations

from formats.teams.pairing.engine import pair_team_round
from formats.teams.pairing.model import (
    BLACK,
    NO_PREFERENCES,
    TYPE_A,
    TYPE_B,
    WHITE,
    Match,
    PairingImpossible,
    PastRound,
    ScoreGroupReport,
    Team,
    TeamBye,
    TeamPairing,
    TeamPairingError,
    TeamPairingRequest,
)

__all__ = [
    "BLACK",
    "NO_PREFERENCES",
    "TYPE_A",
    "TYPE_B",
    "WHITE",
    "Match",
    "PairingImpossible",
    "PastRound",
    "ScoreGroupReport",
    "Team",
    "TeamBye",
    "TeamPairing",
    "TeamPairingError",
    "TeamPairingRequest",
    "pair_team_round",
]
