"""Colour preferences (C.04.6 (2026) 1.7) and colour allocation (4.2, 4.3.1–4.3.9).

Table-driven: first the definitions on hand-made colour histories (each expected value read
off the article), then the allocation rules pair by pair, then whole events whose every match
names the rule that decided its colours, which gacrux must pair the same way.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from formats.teams.pairing import model as m
from formats.teams.pairing import pair_team_round
from formats.teams.pairing.colours import allocate, is_first_team
from formats.teams.pairing.model import BLACK, NO_PREFERENCES, TYPE_A, TYPE_B, WHITE
from formats.teams.pairing.state import TeamState, colour_preference
from tests.formats.teams.pairing.oracle import Gacrux
from tests.formats.teams.pairing.scripted import Scripted, ours, theirs

W, B = WHITE, BLACK
SIMPLE, MILD = True, False

PREFERENCES = [
    # (colours of the played matches, type, last round) -> (preference, simple/strong)
    pytest.param((), TYPE_A, False, ("", False), id="1.7.1-no-match-played-no-preference"),
    pytest.param((W,), TYPE_A, False, ("", False), id="1.7.1-difference-plus-1-none"),
    pytest.param((B, B), TYPE_A, False, (W, SIMPLE), id="1.7.1-difference-below-minus-1-white"),
    pytest.param((W, W, W), TYPE_A, False, (B, SIMPLE), id="1.7.1-difference-above-plus-1-black"),
    pytest.param((W, B, B), TYPE_A, False, (W, SIMPLE), id="1.7.1-minus-1-and-black-twice"),
    pytest.param((W, W, B, B), TYPE_A, False, (W, SIMPLE), id="1.7.1-zero-and-black-twice"),
    pytest.param((B, W, W), TYPE_A, False, (B, SIMPLE), id="1.7.1-plus-1-and-white-twice"),
    pytest.param((W, W, W, B, B), TYPE_A, False, ("", False), id="1.7.1-plus-1-black-twice-none"),
    pytest.param((W, B), TYPE_A, False, ("", False), id="1.7.1-zero-alternating-none"),
    pytest.param((B, B), TYPE_B, False, (W, SIMPLE), id="1.7.2-strong-white"),
    pytest.param((B, W, W), TYPE_B, False, (B, SIMPLE), id="1.7.2-strong-black"),
    pytest.param((B,), TYPE_B, False, (W, MILD), id="1.7.2-mild-white-difference-minus-1"),
    pytest.param((W,), TYPE_B, True, (B, MILD), id="1.7.2-mild-black-difference-plus-1-last-too"),
    pytest.param((W, B), TYPE_B, False, (W, MILD), id="1.7.2-mild-white-zero-black-last"),
    pytest.param((B, W), TYPE_B, False, (B, MILD), id="1.7.2-mild-black-zero-white-last"),
    pytest.param((B, W), TYPE_B, True, ("", False), id="1.7.2-zero-in-the-last-round-none"),
    pytest.param((W, W, W, B, B), TYPE_B, False, (B, MILD), id="1.7.2-plus-1-black-twice-mild"),
    pytest.param((B, B, W, W), TYPE_B, True, (B, SIMPLE), id="1.7.2-A1-strong-wins-last-round"),
    pytest.param((), TYPE_B, False, ("", False), id="1.7.2-yet-to-play-none"),
    pytest.param((B, B, B), NO_PREFERENCES, False, ("", False), id="1.7-no-preferences-used"),
]


@pytest.mark.parametrize(("colours", "kind", "last_round", "expected"), PREFERENCES)
def test_colour_preference(
    colours: tuple[str, ...], kind: str, last_round: bool, expected: tuple[str, bool]
) -> None:
    assert colour_preference(colours, kind, last_round) == expected


def team(
    number: int,
    colours: str = "",
    score: int = 0,
    secondary: int = 0,
    kind: str = TYPE_A,
) -> TeamState:
    played = tuple(colours)
    preference, strong = colour_preference(played, kind, last_round=False)
    return TeamState(
        number=number,
        score=Fraction(score),
        secondary_score=Fraction(secondary),
        colours=played,
        preference=preference,
        strong=strong,
        opponents=frozenset(),
        bye_barred=False,
        floated=False,
    )


@pytest.mark.parametrize(
    ("a", "b", "use_secondary", "first"),
    [
        pytest.param(team(5, score=3), team(2, score=2), True, 5, id="4.2.1-higher-score"),
        pytest.param(
            team(5, score=2, secondary=7), team(2, score=2, secondary=6), True, 5, id="4.2.2"
        ),
        pytest.param(
            team(5, score=2, secondary=7),
            team(2, score=2, secondary=6),
            False,
            2,
            id="4.2.2-not-used-when-the-competition-says-so",
        ),
        pytest.param(team(5, score=2), team(2, score=2), True, 2, id="4.2.3-smaller-TPN"),
    ],
)
def test_first_team(a: TeamState, b: TeamState, use_secondary: bool, first: int) -> None:
    assert (a.number if is_first_team(a, b, use_secondary) else b.number) == first
    assert (b.number if is_first_team(b, a, use_secondary) else a.number) == first


ALLOCATION = [
    # (a, b, initial colour, type B) -> (white, black, rule)
    pytest.param(team(3), team(8), W, False, (3, 8, "4.3.1"), id="4.3.1-odd-first-team-initial"),
    pytest.param(team(4), team(7), W, False, (7, 4, "4.3.1"), id="4.3.1-even-first-team-other"),
    pytest.param(team(3), team(8), B, False, (8, 3, "4.3.1"), id="4.3.1-initial-colour-black"),
    pytest.param(
        team(1, "ww", score=4), team(2, "wb"), W, False, (2, 1, "4.3.2"), id="4.3.2-first-team"
    ),
    pytest.param(
        team(1, "wb", score=4), team(2, "ww"), W, False, (1, 2, "4.3.2"), id="4.3.2-other-team"
    ),
    pytest.param(team(1, "ww"), team(2, "bb"), W, False, (2, 1, "4.3.3"), id="4.3.3-opposite"),
    pytest.param(
        team(1, "wb", score=4, kind=TYPE_B),
        team(2, "bb", kind=TYPE_B),
        W,
        True,
        (2, 1, "4.3.4"),
        id="4.3.4-type-B-strong-over-mild",
    ),
    pytest.param(
        team(1, "ww", score=4), team(2, "bww"), W, False, (2, 1, "4.3.5"), id="4.3.5-plus-1"
    ),
    pytest.param(
        team(1, "bb", score=4), team(2, "bbb"), W, False, (2, 1, "4.3.5"), id="4.3.5-minus-3"
    ),
    pytest.param(
        team(1, "wbwb", score=4, kind=NO_PREFERENCES),
        team(2, "bwwb", kind=NO_PREFERENCES),
        W,
        False,
        (1, 2, "4.3.6"),
        id="4.3.6-alternate-from-the-latest-difference",
    ),
    pytest.param(
        team(1, "bw", score=4, kind=NO_PREFERENCES),
        team(2, "wbbw", kind=NO_PREFERENCES),
        W,
        False,
        (2, 1, "4.3.8"),
        id="4.3.6-aligned-from-the-latest-played-match",
    ),
    pytest.param(
        team(1, "ww", score=4), team(2, "ww"), W, False, (2, 1, "4.3.7"), id="4.3.7-first-team"
    ),
    pytest.param(
        team(1, "w", score=4), team(2, "w"), W, False, (2, 1, "4.3.8"), id="4.3.8-first-team"
    ),
    pytest.param(team(1, "", score=4), team(2, "wb"), W, False, (2, 1, "4.3.9"), id="4.3.9"),
]


@pytest.mark.parametrize(("a", "b", "initial", "type_b", "expected"), ALLOCATION)
def test_colour_allocation(
    a: TeamState, b: TeamState, initial: str, type_b: bool, expected: tuple[int, int, str]
) -> None:
    for first, second in ((a, b), (b, a)):  # the order the pair comes in does not matter
        choice = allocate(first, second, initial_colour=initial, type_b=type_b, use_secondary=True)
        assert (choice.white.number, choice.black.number, choice.rule) == expected


C10_HISTORY = ("1-6:11 2-7:11 3-8:11 4-9:11 5-10:11", "1-4:11 3-5:11 2-6:11 7-8:== 9-10:==")
EVENTS = [
    # (event, the next round's pairing, the rule behind each match's colours)
    pytest.param(Scripted(6), "1-4 5-2 3-6", ("4.3.1",) * 3, id="4.3.1-white-drawn"),
    pytest.param(
        Scripted(6, initial_colour=BLACK), "4-1 2-5 6-3", ("4.3.1",) * 3, id="4.3.1-black-drawn"
    ),
    pytest.param(
        Scripted(2, ("1-2:++",), total_rounds=2),
        "1-2",
        ("4.3.1",),
        id="4.3.1-forfeits-give-no-colour",
    ),
    pytest.param(
        Scripted(8, ("1-5:11 2-6:11 3-7:11 4-8:11", "1-4:11 2-5:00 6-7:== half:8 zero:3")),
        "3-1 4-2 5-6 7-8",
        ("4.3.2",) * 4,
        id="4.3.2",
    ),
    pytest.param(
        Scripted(8, ("5-1:00 2-6:11 7-3:00 4-8:11", "6-1:00 2-5:11 8-3:00 4-7:11")),
        "1-4 3-2 5-7 8-6",
        ("4.3.3", "4.3.3", "4.3.8", "4.3.8"),
        id="4.3.3-and-4.3.8",
    ),
    pytest.param(
        Scripted(8, ("5-1:00 2-6:11 7-3:00 4-8:11", "6-1:00 5-2:00 8-3:00 7-4:00"), colours=TYPE_B),
        "1-4 3-2 8-5 6-7",
        ("4.3.4",) * 4,
        id="4.3.4",
    ),
    pytest.param(Scripted(4, ("1-3:10 2-4:10",)), "4-1 3-2", ("4.3.5", "4.3.5"), id="4.3.5"),
    pytest.param(
        Scripted(10, C10_HISTORY),
        "2-1 4-3 5-7 8-10 6-9",
        ("4.3.7", "4.3.2", "4.3.6", "4.3.7", "4.3.2"),
        id="4.3.6-and-4.3.7",
    ),
    pytest.param(
        Scripted(4, ("1-3:++ 2-4:10", "4-1:-- 3-2:00")),
        "2-1 4-3",
        ("4.3.9", "4.3.5"),
        id="4.3.9-first-team-never-played",
    ),
    pytest.param(
        Scripted(4, ("1-3:1= 2-4:11",)),
        "1-2 3-4",
        ("4.3.8", "4.3.8"),
        id="4.2.2-secondary-score-makes-2-the-first-team",
    ),
    pytest.param(
        Scripted(4, ("1-3:1= 2-4:11",), scores="mp"),
        "2-1 3-4",
        ("4.3.8", "4.3.8"),
        id="4.2.3-secondary-score-not-used",
    ),
]


@pytest.mark.parametrize(("script", "expected", "rules"), EVENTS)
def test_colours_of_a_round(script: Scripted, expected: str, rules: tuple[str, ...]) -> None:
    assert ours(script) == expected
    pairing = pair_team_round(script.request())
    assert tuple(match.colour_rule for match in pairing.matches) == rules
    for match, rule in zip(pairing.matches, rules, strict=True):
        assert match.reasons[0].endswith(f"(C.04.6 {rule})")


@pytest.mark.oracle
@pytest.mark.parametrize(("script", "expected", "rules"), EVENTS)
def test_gacrux_gives_the_same_colours(
    gacrux: Gacrux, script: Scripted, expected: str, rules: tuple[str, ...]
) -> None:
    assert theirs(gacrux, script) == expected


def test_a_bye_has_no_colour_and_comes_after_the_matches() -> None:
    pairing = pair_team_round(Scripted(7).request())
    assert pairing.byes == (m.TeamBye(7, m.BYE_PAIRING),)
    assert 7 not in {team for match in pairing.matches for team in (match.white, match.black)}
