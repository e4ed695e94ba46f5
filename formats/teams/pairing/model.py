"""The team pairing engine's records: what a caller asks for and what it gets back.

FIDE C.04.6 Swiss Team Pairing System (2026 edition, in force from 1 February 2026). Frozen
dataclasses only; scores are :class:`~fractions.Fraction` (match points and game points are
exact multiples of the competition's point values; the engine never rounds).

A team's past rounds are given as the pairing needs them, not as results: whether the match
was played (C.04.6 1.6.1, C.04.2 3.4 and 3.5), the colour of board 1 when it was, the
opponent, whether the team floated (1.5), and the byes and forfeit wins that bar the
pairing-allocated bye (2.1.2). Scoring the rounds (match points, game points, the points of a
bye or of a forfeited match, adjustments) is the competition's business and is done before;
the engine takes each team's primary and secondary score as they stand.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

WHITE = "w"
BLACK = "b"

# Colour preference types (C.04.6 1.7): Type A unless the competition says Type B or none.
TYPE_A = "A"
TYPE_B = "B"
NO_PREFERENCES = "none"
PREFERENCE_TYPES = (TYPE_A, TYPE_B, NO_PREFERENCES)

# What a team's past round was.
PLAYED = "played"  # the match was actually played (1.6.1): board 1's colour, a meeting (C1)
FORFEIT_WIN = "forfeit_win"  # the opponent did not play the match: bars the bye (2.1.2)
FORFEIT_LOSS = "forfeit_loss"  # this team did not play the match (or neither did)
PAIRING_BYE = "pairing_bye"  # 1.4; bars another (2.1.2)
FULL_BYE = "full_bye"  # FIDE-deprecated full-point bye; bars the pairing-allocated one (2.1.2)
HALF_BYE = "half_bye"
ZERO_BYE = "zero_bye"  # a requested zero bye, an absence, a round before a late entry
ROUND_KINDS = (PLAYED, FORFEIT_WIN, FORFEIT_LOSS, PAIRING_BYE, FULL_BYE, HALF_BYE, ZERO_BYE)

FLOAT_UP = "up"  # played a team with a higher score (1.5)
FLOAT_DOWN = "down"  # played a team with a lower score (1.5)

# Requested byes for the round being paired pass through; the output names each kind.
BYE_PAIRING = "pairing"
BYE_HALF = "half"
BYE_ZERO = "zero"
REQUESTED_BYE_KINDS = (BYE_HALF, BYE_ZERO)

# Bounds on every input (a refusal names the one that was exceeded).
MAX_TEAMS = 999  # TRF-2026 record 310 gives the team pairing number three digits
MAX_ROUNDS = 99
MAX_SCORE = Fraction(100_000)
MAX_SCORE_DENOMINATOR = 100


@dataclass(frozen=True, slots=True)
class PastRound:
    """One past round of a team.

    ``opponent`` is the other team of a match (played or forfeited), else None. ``colour`` is
    board 1's colour for this team, and only for a played match (1.6.1). ``float`` is
    :data:`FLOAT_UP` or :data:`FLOAT_DOWN` when the team played an opponent with a different
    score (1.5: scores before that round), else empty.
    """

    round: int
    kind: str
    opponent: int | None = None
    colour: str = ""
    float: str = ""


@dataclass(frozen=True, slots=True)
class Team:
    """A team as it stands before the round: its pairing number (TPN, 1.1, set by the
    competition), its primary score and secondary score (1.2) and its past rounds."""

    number: int
    score: Fraction
    secondary_score: Fraction = Fraction(0)
    history: tuple[PastRound, ...] = ()


@dataclass(frozen=True)
class TeamPairingRequest:
    """What to pair: the round, every team of the event and the competition's choices.

    * ``colour_preferences``: :data:`TYPE_A` (the default), :data:`TYPE_B` or
      :data:`NO_PREFERENCES` (1.7).
    * ``use_secondary_score``: whether the secondary score decides the first-team (1.2.1,
      4.2.2); the default is to use it (1.2.2).
    * ``initial_colour``: drawn by lot before round 1 (4.1), :data:`WHITE` or :data:`BLACK`.
    * ``requested_byes``: ``(team, "half" | "zero")`` for this round; not paired.
    * ``absent``: teams not paired this round (withdrawn, excused, not yet arrived).
    * ``prohibited_pairs``: pairs the competition forbids this round, absolute like C1.
    """

    round: int
    total_rounds: int
    teams: tuple[Team, ...]
    colour_preferences: str = TYPE_A
    use_secondary_score: bool = True
    initial_colour: str = WHITE
    requested_byes: tuple[tuple[int, str], ...] = ()
    absent: frozenset[int] = frozenset()
    prohibited_pairs: frozenset[frozenset[int]] = frozenset()


@dataclass(frozen=True)
class Match:
    """One match of the round: ``white`` is the team with White on board 1; ``reasons`` say
    why these colours (4.3) and who floats."""

    table: int
    white: int
    black: int
    colour_rule: str = ""
    reasons: tuple[str, ...] = ()


@dataclass(frozen=True)
class TeamBye:
    """A team not paired this round: ``kind`` is "pairing", "half" or "zero"."""

    team: int
    kind: str


@dataclass(frozen=True)
class ScoreGroupReport:
    """How one bracket was made and paired (3.5, 3.6): the residents of the top-scoregroup,
    the upfloaters chosen, and what the choice had to give up."""

    score: Fraction
    residents: tuple[int, ...]
    upfloaters: tuple[int, ...]
    pairs: tuple[tuple[int, int], ...]
    concessions: tuple[str, ...]


@dataclass(frozen=True)
class TeamPairing:
    """The round: matches in table order, the byes (the pairing-allocated one first, then the
    requested ones), notes for the director and one report per bracket."""

    round: int
    matches: tuple[Match, ...]
    byes: tuple[TeamBye, ...]
    notes: tuple[str, ...] = ()
    score_groups: tuple[ScoreGroupReport, ...] = ()

    @property
    def pairing_bye(self) -> int | None:
        return next((bye.team for bye in self.byes if bye.kind == BYE_PAIRING), None)


class TeamPairingError(ValueError):
    """The request is malformed or out of bounds; the message says what, in one line."""


class PairingImpossible(ValueError):
    """No round-pairing complies with the absolute criteria (C.04.6 3.3.3: the Chief Arbiter
    decides what to do); the message says why."""
