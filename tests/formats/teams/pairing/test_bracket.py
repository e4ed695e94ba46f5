"""The pairing of a bracket (C.04.6 (2026) 3.6) against brute force.

For small random brackets every perfect matching C1 allows is listed, each is valued by
([C8], [C9], [C10], identifier) straight from the definitions (2.3.5–2.3.7, 3.6.2), and the
first is the answer the engine must give, whichever of its two methods it uses (the packed
weights, or the greedy first identifier when nothing costs anything).
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from formats.teams.pairing import model as m
from formats.teams.pairing.bracket import first_identifier, identifier, pair_bracket
from formats.teams.pairing.field import Field, make_field
from formats.teams.pairing.state import TeamState, colour_preference

RESIDENT = Fraction(3)


def _perfect_matchings(
    teams: list[int], allowed: set[frozenset[int]]
) -> Iterator[list[tuple[int, int]]]:
    if not teams:
        yield []
        return
    first, rest = teams[0], teams[1:]
    for partner in rest:
        if frozenset((first, partner)) in allowed:
            others = [team for team in rest if team != partner]
            for matching in _perfect_matchings(others, allowed):
                yield [(first, partner), *matching]


def _value(pairs: list[tuple[int, int]], by_number: dict[int, TeamState], field: Field) -> tuple:
    """([C8], [C9], [C10], identifier), read off the definitions."""
    c8 = c9 = c10 = 0
    for a, b in pairs:
        one, other = by_number[a], by_number[b]
        if one.preference and one.preference == other.preference:
            c8 += 1  # one of the two does not get its colour (4.3.2, 4.3.3 grant the rest)
            c9 += field.type_b and one.strong and other.strong
        if not field.last_two_rounds:
            c10 += (one.score < RESIDENT and other.floated) + (
                other.score < RESIDENT and one.floated
            )
    return (c8, c9, c10, identifier(pairs))


@st.composite
def brackets(draw: st.DrawFn, zero_cost: bool) -> tuple[Field, list[TeamState]]:
    size = 2 * draw(st.integers(1, 5))
    kind = draw(st.sampled_from((m.TYPE_A, m.TYPE_B, m.NO_PREFERENCES)))
    numbers = sorted(draw(st.sets(st.integers(1, 40), min_size=size, max_size=size)))
    met = draw(st.sets(st.sampled_from([(a, b) for a in numbers for b in numbers if a < b])))
    teams = []
    for number in numbers:
        colours = tuple(draw(st.lists(st.sampled_from("wb"), max_size=4)))
        preference, strong = colour_preference(colours, kind, last_round=False)
        if zero_cost:
            preference, strong = "", False
        opponents = frozenset(b if a == number else a for a, b in met if number in (a, b))
        upfloater = draw(st.booleans()) and not zero_cost
        teams.append(
            TeamState(
                number=number,
                score=RESIDENT - 1 if upfloater else RESIDENT,
                secondary_score=Fraction(0),
                colours=colours,
                preference=preference,
                strong=strong,
                opponents=opponents,
                bye_barred=False,
                floated=draw(st.booleans()),
            )
        )
    field = make_field(teams, frozenset(), kind, last_two_rounds=draw(st.booleans()))
    return field, teams


def _brute_force(field: Field, teams: list[TeamState]) -> frozenset[frozenset[int]] | None:
    by_number = {team.number: team for team in teams}
    allowed = {
        frozenset((a.number, b.number))
        for a in teams
        for b in teams
        if a.number != b.number and b.number not in a.opponents
    }
    numbers = [team.number for team in teams]
    values = [
        (_value(pairs, by_number, field), pairs) for pairs in _perfect_matchings(numbers, allowed)
    ]
    if not values:
        return None
    return frozenset(frozenset(pair) for pair in min(values)[1])


def _numbers(field: Field, pairs: list[tuple[int, int]]) -> frozenset[frozenset[int]]:
    return frozenset(frozenset((field.number(a), field.number(b))) for a, b in pairs)


def _case(drawn: tuple[Field, list[TeamState]]) -> tuple[Field, list[int], frozenset]:
    field, teams = drawn
    expected = _brute_force(field, teams)
    assume(expected is not None)
    return field, list(range(len(field.teams))), expected


@settings(max_examples=300, deadline=None)
@given(brackets(zero_cost=False))
def test_the_bracket_pairing_is_the_first_by_the_criteria_then_the_identifier(
    drawn: tuple[Field, list[TeamState]],
) -> None:
    field, bracket, expected = _case(drawn)
    assert _numbers(field, pair_bracket(field, bracket, RESIDENT)) == expected


@settings(max_examples=300, deadline=None)
@given(brackets(zero_cost=True))
def test_the_greedy_first_identifier_is_the_first_identifier(
    drawn: tuple[Field, list[TeamState]],
) -> None:
    field, bracket, expected = _case(drawn)
    assert _numbers(field, first_identifier(field, bracket)) == expected
    assert _numbers(field, pair_bracket(field, bracket, RESIDENT)) == expected
