"""Colour allocation for a pair (C.04.3 (2025), colour allocation rules; C.04.1 for round 1).

The rules, in order, until one decides:

1. both colour preferences can be met: meet them;
2. the stronger preference wins: an absolute one over a non-absolute one (between two absolute
   ones, the larger colour difference), then a strong one over a mild one;
3. alternate from the most recent round in which the two players had different colours;
4. the higher-ranked player gets their preference;
5. no preference at all: by pairing number, the higher-ranked player getting the initial colour
   when their pairing number is odd, the other colour when it is even.

Each step returns the rule that decided it, for the explanations. The reading of "higher
ranked" (accelerated score, then pairing number) is bbpPairings'; see docs/pairing.md.
"""

from __future__ import annotations

from dataclasses import dataclass

from draws.swiss.pairing.model import BLACK, WHITE
from draws.swiss.pairing.players import PlayerState

RULE_BOTH = "both colour preferences met"
RULE_ABSOLUTE = "absolute colour preference"
RULE_STRONG = "strong colour preference"
RULE_ALTERNATE = "colours alternate from the last round they differed"
RULE_HIGHER = "the higher-ranked player's preference"
RULE_INITIAL = "pairing number and the initial colour"


def invert(colour: str) -> str:
    return BLACK if colour == WHITE else WHITE if colour == BLACK else ""


def _preferences_compatible(a: str, b: str) -> bool:
    return a != b or not a or not b


@dataclass(frozen=True)
class ColourChoice:
    """The colour of ``player`` and the rule that decided it; ``by`` names whose claim won."""

    colour: str
    rule: str
    by: int | None = None


def first_colour_difference(a: PlayerState, b: PlayerState) -> tuple[str, str]:
    """The colours of the two players in the latest round (counting played games back from the
    most recent) in which they differed; "" when one runs out first."""
    i, j = len(a.colours) - 1, len(b.colours) - 1
    while i >= 0 and j >= 0 and a.colours[i] == b.colours[j]:
        i -= 1
        j -= 1
    return (a.colours[i] if i >= 0 else "", b.colours[j] if j >= 0 else "")


def _by_strength(player: PlayerState, opponent: PlayerState) -> ColourChoice | None:
    pa, oa = player.absolute_preference, opponent.absolute_preference
    if pa and (player.colour_imbalance > opponent.colour_imbalance or not oa):
        return ColourChoice(player.colour_preference, RULE_ABSOLUTE, player.start_no)
    if oa and (opponent.colour_imbalance > player.colour_imbalance or not pa):
        return ColourChoice(invert(opponent.colour_preference), RULE_ABSOLUTE, opponent.start_no)
    if player.strong_preference and not opponent.strong_preference:
        return ColourChoice(player.colour_preference, RULE_STRONG, player.start_no)
    if opponent.strong_preference and not player.strong_preference:
        return ColourChoice(invert(opponent.colour_preference), RULE_STRONG, opponent.start_no)
    return None


def neutral_colour(player: PlayerState, opponent: PlayerState) -> ColourChoice | None:
    """Rules 1–3 (bbpPairings' ``choosePlayerNeutralColor``); None when they do not decide."""
    mine, theirs = player.colour_preference, opponent.colour_preference
    if _preferences_compatible(mine, theirs):
        if mine:
            return ColourChoice(mine, RULE_BOTH)
        if theirs:
            return ColourChoice(invert(theirs), RULE_BOTH)
        return None
    decided = _by_strength(player, opponent)
    if decided:
        return decided
    mine_then, theirs_then = first_colour_difference(player, opponent)
    if mine_then and theirs_then:
        return ColourChoice(theirs_then, RULE_ALTERNATE)
    return None


def ranks_below(a: PlayerState, b: PlayerState) -> bool:
    """C.04.3 (2025) Art. 1.2 with the accelerated score: ``a`` is ranked below ``b``."""
    return (a.pairing_score, b.rank) < (b.pairing_score, a.rank)


def choose_colour(player: PlayerState, opponent: PlayerState, initial: str) -> ColourChoice:
    """The colour ``player`` gets against ``opponent``, with the deciding rule."""
    decided = neutral_colour(player, opponent)
    if decided:
        return decided
    higher = opponent if ranks_below(player, opponent) else player
    if not player.colour_preference:
        higher_colour = initial if higher.rank % 2 == 0 else invert(initial)
        colour = higher_colour if higher is player else invert(higher_colour)
        return ColourChoice(colour, RULE_INITIAL, higher.start_no)
    if higher is opponent:
        return ColourChoice(invert(opponent.colour_preference), RULE_HIGHER, opponent.start_no)
    return ColourChoice(player.colour_preference, RULE_HIGHER, player.start_no)
