"""Reasons in a director's words: why these colours, who floats up, what a bracket gave up.

The wording is for people; the numbers in parentheses are the articles and criteria of
C.04.6 (2026).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from draws.swiss.pairing.explain import points
from formats.teams.pairing import colours as rules
from formats.teams.pairing.bracket import PairCriteria
from formats.teams.pairing.colours import ColourChoice
from formats.teams.pairing.model import WHITE
from formats.teams.pairing.state import TeamState


def _colour(colour: str) -> str:
    return "White" if colour == WHITE else "Black"


def _count(number: int, one: str, many: str) -> str:
    return f"{number} {one if number == 1 else many}"


def _count_points(value: Fraction) -> str:
    return f"{points(value)} {'point' if value == 1 else 'points'}"


def _signed(value: int) -> str:
    return f"{value:+d}" if value else "0"


def colour_reason(choice: ColourChoice, initial_colour: str) -> str:
    """Why board 1 of the match has these colours (4.3)."""
    first = choice.first
    second = choice.black if first is choice.white else choice.white
    white, black = choice.white, choice.black
    rule = choice.rule
    if rule == rules.RULE_INITIAL:
        parity = "odd" if first.number % 2 else "even"
        which = "the initial colour" if parity == "odd" else "the other colour"
        return (
            f"neither team has played a match: team {first.number}, the first-team, has an "
            f"{parity} pairing number and gets {which} ({_colour(initial_colour)} drawn) "
            "(C.04.6 4.3.1)"
        )
    if rule == rules.RULE_ONE_PREFERENCE:
        wanting = first if first.preference else second
        return (
            f"only team {wanting.number} has a colour preference "
            f"({_colour(wanting.preference)}), and gets it (C.04.6 4.3.2)"
        )
    if rule == rules.RULE_OPPOSITE:
        return "the two teams prefer opposite colours and both get them (C.04.6 4.3.3)"
    if rule == rules.RULE_STRONG:
        strong = first if first.strong else second
        return (
            f"both prefer {_colour(strong.preference)}; team {strong.number}'s strong "
            "preference goes before the other's mild one (C.04.6 4.3.4)"
        )
    if rule == rules.RULE_DIFFERENCE:
        return (
            f"White to team {white.number}, whose colour difference "
            f"({_signed(white.colour_difference)}) is lower than team {black.number}'s "
            f"({_signed(black.colour_difference)}) (C.04.6 4.3.5)"
        )
    if rule == rules.RULE_ALTERNATE_BOTH:
        return (
            "colours alternate from the latest match in which one team had White and the "
            "other Black (C.04.6 4.3.6)"
        )
    if rule == rules.RULE_FIRST_PREFERENCE:
        return (
            f"both prefer {_colour(first.preference)}; team {first.number}, the first-team, "
            "gets it (C.04.6 4.3.7)"
        )
    if rule == rules.RULE_ALTERNATE_FIRST:
        return (
            f"team {first.number}, the first-team, alternates from its last played match "
            "(C.04.6 4.3.8)"
        )
    return f"team {second.number} alternates from its last played match (C.04.6 4.3.9)"


def match_reasons(choice: ColourChoice, initial_colour: str) -> tuple[str, ...]:
    reasons = [colour_reason(choice, initial_colour)]
    white, black = choice.white, choice.black
    if white.score != black.score:
        lower = white if white.score < black.score else black
        reasons.append(
            f"team {lower.number} floats up from the {points(lower.score)}-point group (C.04.6 1.5)"
        )
    return tuple(reasons)


def concessions(
    upfloaters: Sequence[TeamState],
    c6_met: bool,
    floaters: int,
    criteria: Sequence[PairCriteria],
) -> tuple[str, ...]:
    """What the bracket had to give up, criterion by criterion."""
    given_up = []
    if upfloaters:
        who = ", ".join(f"{team.number} ({_count_points(team.score)})" for team in upfloaters)
        teams = "team" if len(upfloaters) == 1 else "teams"
        given_up.append(
            f"{_count(len(upfloaters), 'upfloater', 'upfloaters')}: {teams} {who} "
            "(the fewest, with the highest scores: C4, C5)"
        )
    if not c6_met:
        given_up.append("the next scoregroup cannot be paired without extra upfloaters (C6)")
    if floaters:
        given_up.append(
            f"{_count(floaters, 'upfloater', 'upfloaters')} also floated in the last round (C7)"
        )
    unmet = sum(pair.c8 for pair in criteria)
    if unmet:
        given_up.append(
            f"in {_count(unmet, 'match', 'matches')} both teams prefer the same colour, so one "
            "does not get it (C8)"
        )
    strong = sum(pair.c9 for pair in criteria)
    if strong:
        given_up.append(f"{_count(strong, 'strong preference', 'strong preferences')} unmet (C9)")
    c10 = sum(pair.c10 for pair in criteria)
    if c10:
        given_up.append(
            f"{_count(c10, 'upfloater meets a team', 'upfloaters meet teams')} that floated in "
            "the last round (C10)"
        )
    return tuple(given_up)


def score_group_note(score: Fraction, residents: int, given_up: Sequence[str]) -> str:
    head = f"Score group {points(score)} ({_count(residents, 'team', 'teams')})"
    return f"{head}: " + ("; ".join(given_up) or "paired with no concession")


def bye_note(team: TeamState) -> str:
    return (
        f"Pairing-allocated bye: team {team.number} ({points(team.score)} points, "
        f"{_count(team.played_matches, 'match', 'matches')} played), the lowest score, most "
        "matches played and largest pairing number among the teams that may receive it and "
        "leave a legal pairing for all others (C.04.6 3.4, C2)"
    )
