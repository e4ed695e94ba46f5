"""Colour allocation for a match, after the whole round is paired (C.04.6 (2026) 3.3.2, 4).

"Colour" is the colour of board 1 (1.6.1). The first-team (4.2) is the one with the higher
primary score, then (unless the competition says not to use it) the higher secondary score,
then the smaller TPN. Then the first of these that applies decides (4.3):

4.3.1 neither team has played a match: the first-team gets the initial-colour if its TPN is
      odd, the other colour if it is even;
4.3.2 only one team has a colour preference: grant it;
4.3.3 the two teams prefer opposite colours: grant both;
4.3.4 (Type B only) only one has a strong preference: grant it;
4.3.5 White to the team with the lower colour difference;
4.3.6 alternate from the most recent time one team had White and the other Black (played
      matches only, aligned from the latest: C.04.2 3.4);
4.3.7 grant the first-team's preference;
4.3.8 alternate the first-team's colour from its last played match;
4.3.9 alternate the other team's colour from its last played match.

No rule is absolute (Preface): 4.3 always decides, and colour never keeps two teams apart.
"""

from __future__ import annotations

from dataclasses import dataclass

from formats.teams.pairing.model import BLACK, WHITE
from formats.teams.pairing.state import TeamState

RULE_INITIAL = "4.3.1"
RULE_ONE_PREFERENCE = "4.3.2"
RULE_OPPOSITE = "4.3.3"
RULE_STRONG = "4.3.4"
RULE_DIFFERENCE = "4.3.5"
RULE_ALTERNATE_BOTH = "4.3.6"
RULE_FIRST_PREFERENCE = "4.3.7"
RULE_ALTERNATE_FIRST = "4.3.8"
RULE_ALTERNATE_OTHER = "4.3.9"


def other(colour: str) -> str:
    return BLACK if colour == WHITE else WHITE


@dataclass(frozen=True)
class ColourChoice:
    """White and Black teams (board 1), the rule that decided, and the first-team."""

    white: TeamState
    black: TeamState
    rule: str
    first: TeamState


def is_first_team(a: TeamState, b: TeamState, use_secondary: bool) -> bool:
    """4.2: is ``a`` the first-team of the pair?"""
    if a.score != b.score:
        return a.score > b.score  # 4.2.1
    if use_secondary and a.secondary_score != b.secondary_score:
        return a.secondary_score > b.secondary_score  # 4.2.2
    return a.number < b.number  # 4.2.3


def _last_difference(first: TeamState, second: TeamState) -> str:
    """4.3.6: the first-team's colour at the latest aligned position where the two played
    matches differ, or ""."""
    for mine, theirs in zip(reversed(first.colours), reversed(second.colours), strict=False):
        if mine != theirs:
            return mine
    return ""


def _by_preferences(first: TeamState, second: TeamState, type_b: bool) -> tuple[str, str]:
    """4.3.2–4.3.4: the first-team's colour and the rule, or ("", "")."""
    mine, theirs = first.preference, second.preference
    if mine and not theirs:
        return mine, RULE_ONE_PREFERENCE
    if theirs and not mine:
        return other(theirs), RULE_ONE_PREFERENCE
    if mine and theirs and mine != theirs:
        return mine, RULE_OPPOSITE
    if type_b and mine and theirs and first.strong != second.strong:
        return (mine if first.strong else other(theirs)), RULE_STRONG
    return "", ""


def _by_history(first: TeamState, second: TeamState) -> tuple[str, str]:
    """4.3.5–4.3.9: the first-team's colour and the rule."""
    if first.colour_difference != second.colour_difference:
        lower = first.colour_difference < second.colour_difference
        return (WHITE if lower else BLACK), RULE_DIFFERENCE
    differ = _last_difference(first, second)
    if differ:
        return other(differ), RULE_ALTERNATE_BOTH
    if first.preference:
        return first.preference, RULE_FIRST_PREFERENCE
    if first.colours:
        return other(first.colours[-1]), RULE_ALTERNATE_FIRST
    # 4.3.1 took the pairs in which neither team has played, so the other team has.
    return second.colours[-1], RULE_ALTERNATE_OTHER


def allocate(
    a: TeamState, b: TeamState, *, initial_colour: str, type_b: bool, use_secondary: bool
) -> ColourChoice:
    """C.04.6 4: the colours of the match between ``a`` and ``b``."""
    first, second = (a, b) if is_first_team(a, b, use_secondary) else (b, a)
    if not first.colours and not second.colours:
        colour = initial_colour if first.number % 2 else other(initial_colour)
        rule = RULE_INITIAL
    else:
        colour, rule = _by_preferences(first, second, type_b)
        if not rule:
            colour, rule = _by_history(first, second)
    white, black = (first, second) if colour == WHITE else (second, first)
    return ColourChoice(white=white, black=black, rule=rule, first=first)
