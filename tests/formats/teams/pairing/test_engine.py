"""The engine's contract: refusals of bad requests (one line each, nothing paired), what the
output carries (byes, notes, reports), and properties any legal round-pairing has."""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from formats.teams.pairing import (
    PairingImpossible,
    PastRound,
    Team,
    TeamPairingError,
    TeamPairingRequest,
    pair_team_round,
)
from formats.teams.pairing import model as m
from tests.formats.teams.pairing.generator import Case, Event
from tests.formats.teams.pairing.scripted import Scripted

FOUR = tuple(Team(number, Fraction(0)) for number in range(1, 5))
BASE = TeamPairingRequest(round=1, total_rounds=5, teams=FOUR)
PLAYED = PastRound(1, m.PLAYED, opponent=2, colour=m.WHITE)


def _with_history(*history: PastRound) -> TeamPairingRequest:
    teams = (replace(FOUR[0], history=history), *FOUR[1:])
    return replace(BASE, round=3, teams=teams)


REFUSALS = [
    pytest.param(replace(BASE, teams=FOUR[:1]), "2 to 999 teams", id="one-team"),
    pytest.param(
        replace(BASE, teams=tuple(Team(n, Fraction(0)) for n in range(1, 1001))),
        "2 to 999 teams",
        id="too-many-teams",
    ),
    pytest.param(replace(BASE, teams=(*FOUR[:3], Team(7, Fraction(0)))), "1.1.1", id="TPN-gap"),
    pytest.param(replace(BASE, teams=(*FOUR[:3], Team(4, 0.5))), "exact Fraction", id="float"),
    pytest.param(replace(BASE, teams=(*FOUR[:3], Team(4, Fraction(-1)))), "outside", id="neg"),
    pytest.param(
        replace(BASE, teams=(*FOUR[:3], Team(4, Fraction(1, 1000)))), "1/100", id="denominator"
    ),
    pytest.param(replace(BASE, round=6), "outside 1..5", id="round-after-the-last"),
    pytest.param(replace(BASE, total_rounds=100), "1 to 99", id="too-many-rounds"),
    pytest.param(replace(BASE, colour_preferences="C"), "A, B, none", id="preference-type"),
    pytest.param(replace(BASE, initial_colour="x"), "initial colour", id="initial-colour"),
    pytest.param(
        _with_history(PastRound(3, m.PLAYED, 2, m.WHITE)), "before round 3", id="future-round"
    ),
    pytest.param(_with_history(PastRound(1, m.PLAYED, 2)), "colour", id="played-no-colour"),
    pytest.param(
        _with_history(PastRound(1, m.FORFEIT_WIN, 2, m.WHITE)), "colour", id="forfeit-colour"
    ),
    pytest.param(_with_history(PastRound(1, m.PLAYED, 9, m.WHITE)), "opponent", id="opponent"),
    pytest.param(_with_history(PastRound(1, m.PLAYED, 1, m.WHITE)), "opponent", id="itself"),
    pytest.param(_with_history(PLAYED, PLAYED), "twice", id="round-twice"),
    pytest.param(_with_history(PastRound(1, "won")), "unknown kind", id="kind"),
    pytest.param(
        _with_history(PastRound(1, m.ZERO_BYE, float=m.FLOAT_UP)), "float", id="float-on-a-bye"
    ),
    pytest.param(replace(BASE, requested_byes=((2, "full"),)), "'half' or 'zero'", id="bye"),
    pytest.param(
        replace(BASE, requested_byes=((2, "half"), (2, "zero"))), "more than one", id="bye-twice"
    ),
    pytest.param(replace(BASE, absent=frozenset({9})), "absent", id="absent"),
    pytest.param(
        replace(BASE, prohibited_pairs=frozenset({frozenset({1, 9})})), "prohibited", id="pair"
    ),
]


@pytest.mark.parametrize(("request_", "reason"), REFUSALS)
def test_bad_requests_are_refused_with_a_reason(request_: TeamPairingRequest, reason: str) -> None:
    with pytest.raises(TeamPairingError) as refused:
        pair_team_round(request_)
    assert reason in str(refused.value)
    assert "\n" not in str(refused.value)


def test_requested_byes_and_absent_teams_are_not_paired() -> None:
    teams = tuple(Team(number, Fraction(0)) for number in range(1, 9))
    request = replace(
        BASE,
        teams=teams,
        requested_byes=((6, m.BYE_ZERO), (3, m.BYE_HALF)),
        absent=frozenset({8}),
    )
    pairing = pair_team_round(request)
    paired = {team for match in pairing.matches for team in (match.white, match.black)}
    assert paired == {1, 2, 4, 5, 7}.difference({pairing.pairing_bye})
    assert pairing.byes == (
        m.TeamBye(7, m.BYE_PAIRING),
        m.TeamBye(3, m.BYE_HALF),
        m.TeamBye(6, m.BYE_ZERO),
    )
    assert "Team 3 has a requested half-point bye and is not paired" in pairing.notes
    assert any(note.startswith("Pairing-allocated bye: team 7") for note in pairing.notes)


def test_reports_say_who_floated_up_and_what_was_given_up() -> None:
    script = Scripted(10, ("1-6:11 2-7:11 3-8:11 4-9:11 5-10:11", "1-4:11 3-5:11 2-6:11"))
    pairing = pair_team_round(script.request())
    top = pairing.score_groups[0]
    assert (top.score, top.residents, top.upfloaters) == (Fraction(4), (1, 2, 3), (4,))
    assert any("1 upfloater: team 4 (2 points)" in given for given in top.concessions)
    assert not any("(C10)" in given for given in top.concessions)  # 4 meets 3, not 2
    assert pairing.notes[0].startswith("Score group 4 (3 teams): 1 upfloater: team 4 (2 points)")
    match = next(match for match in pairing.matches if 4 in (match.white, match.black))
    assert "team 4 floats up from the 2-point group (C.04.6 1.5)" in match.reasons


def test_2_1_2_c2_a_full_point_bye_bars_the_pairing_allocated_bye() -> None:
    # Team 3 is lowest and has the largest TPN, but had a (FIDE-deprecated) full-point bye:
    # the next candidate, team 2, gets the pairing-allocated bye.
    teams = (
        Team(1, Fraction(2), history=(PastRound(1, m.PLAYED, 2, m.WHITE),)),
        Team(2, Fraction(1), history=(PastRound(1, m.PLAYED, 1, m.BLACK),)),
        Team(3, Fraction(0), history=(PastRound(1, m.FULL_BYE),)),
    )
    pairing = pair_team_round(replace(BASE, round=2, teams=teams))
    assert pairing.pairing_bye == 2
    assert [(match.white, match.black) for match in pairing.matches] == [(3, 1)]


def test_scores_in_thirds_are_exact_and_accepted() -> None:
    teams = (*FOUR[:3], Team(4, Fraction(1, 3)))
    assert pair_team_round(replace(BASE, teams=teams)).matches


def test_no_legal_pairing_says_why() -> None:
    with pytest.raises(PairingImpossible) as refused:
        pair_team_round(Scripted(2, ("1-2:10",), total_rounds=2).request())
    assert "3.3.3" in str(refused.value)


# -- properties of every round-pairing -------------------------------------------------------


@st.composite
def events(draw: st.DrawFn) -> tuple[Event, int, dict[int, str]]:
    """An event played for a few rounds by the engine itself, and the next round's byes."""
    case = Case(
        teams=draw(st.integers(3, 24)),
        boards=draw(st.integers(1, 4)),
        rounds=9,
        seed=draw(st.integers(0, 10**6)),
        colours=draw(st.sampled_from((m.TYPE_A, m.TYPE_B, m.NO_PREFERENCES))),
        scores=draw(st.sampled_from(("mp+gp", "gp+mp", "mp", "gp"))),
        forfeit_percentage=draw(st.sampled_from((0, 10))),
        bye_percentage=draw(st.sampled_from((0, 10))),
        prohibited=draw(st.integers(0, 3)),
    )
    event = Event.start(case)
    rng = random.Random(case.seed)
    played = draw(st.integers(0, 4))
    for round_no in range(1, played + 1):
        requested = event.requested_byes(rng)
        try:
            pairing = pair_team_round(event.request(round_no, requested))
        except PairingImpossible:
            break
        event.play(round_no, pairing, requested, rng)
    round_no = 1 + max((max(rounds, default=0) for rounds in event.history.values()), default=0)
    return event, round_no, event.requested_byes(rng)


@settings(max_examples=60, deadline=None)
@given(events())
def test_every_pairing_is_legal_and_complete(drawn: tuple[Event, int, dict[int, str]]) -> None:
    event, round_no, requested = drawn
    request = event.request(round_no, requested)
    try:
        pairing = pair_team_round(request)
    except PairingImpossible:
        return
    teams = {team.number: team for team in request.teams}
    to_pair = set(teams) - set(requested)
    paired = [team for match in pairing.matches for team in (match.white, match.black)]
    assert sorted(paired + [b.team for b in pairing.byes if b.kind == m.BYE_PAIRING]) == sorted(
        to_pair
    )
    assert [match.table for match in pairing.matches] == list(range(1, len(pairing.matches) + 1))
    for match in pairing.matches:
        met = {p.opponent for p in teams[match.white].history if p.kind == m.PLAYED}
        assert match.black not in met  # C1
        assert frozenset((match.white, match.black)) not in request.prohibited_pairs
    if pairing.pairing_bye is not None:
        kinds = {p.kind for p in teams[pairing.pairing_bye].history}
        assert not kinds & {m.PAIRING_BYE, m.FORFEIT_WIN, m.FULL_BYE}  # C2
    scores = [max(teams[x.white].score, teams[x.black].score) for x in pairing.matches]
    assert scores == sorted(scores, reverse=True)  # table order: the higher score first
