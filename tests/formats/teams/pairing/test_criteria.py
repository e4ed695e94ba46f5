"""The pairing criteria of C.04.6 (2026), one hand-made event per rule (table-driven).

Each case is a short event (:mod:`tests.formats.teams.pairing.scripted`: two boards, match
points 2/1/0 and game points for colours, Type A, five rounds, White drawn, unless it says
otherwise) and the next round's pairing as the text gives it, worked out by hand: the matches
in table order, White on board 1 first, then the pairing-allocated bye. The case id names the
article. Our engine must give it, and so must gacrux (``test_gacrux_agrees``), from the same
event written as a TRF-2026 team file.

The reasoning, case by case:

* 3.6.2 round 1: one bracket, no criterion costs anything, so the first identifier: the first
  half against the second in TPN order; 4.3.1 colours (odd first-team TPN: the initial colour).
* 3.4.4: seven teams, all equal: the largest TPN gets the bye.
* 3.4.2: team 1 lost round 1 and is alone on 0: it gets the bye despite its TPN.
* 3.4.3: teams 1 and 4 are both on 0; team 1 played its match, team 4 forfeited (a forfeit is
  no match played, 1.6.1), so team 1 gets the bye despite the smaller TPN.
* 3.4.1: team 1 is lowest but 2–3 have met, team 3 next but 1–2 have met: the bye goes to
  the leader, team 2, the only one that leaves a legal pairing.
* 2.1.2 [C2]: team 5 (lowest) had the pairing-allocated bye, so team 3 (next, most matches
  played, largest TPN) gets it; team 3 in the next case won a match by forfeit, so team 1.
* 2.1.1 [C1]: 1–3 met, so 1–4 and 2–3 (identifier 1 2 4 3).
* C.04.2 3.5: teams 1 and 2 did not play their forfeited match, so they may meet again; once
  they have played, round 2 cannot be paired at all (3.3.3).
* 2.2.1 [C3]: team 4 may meet none of 3, 5, 6 this round, so leader 1's upfloater cannot be 2
  (that leaves 3, 4, 5, 6 unpairable): it is 3.
* 2.3.1 [C4]: three teams on 2 points take one upfloater, the first of 4, 5, 6 (3.5.4).
* 2.3.2 [C5] (game points primary): team 6 (2) takes an upfloater from the 1½ group, not from
  below; then team 5 takes team 4 (½) rather than team 3 (0), though 3 has the smaller TPN.
* 2.3.3 [C6]: taking team 2 as leader 1's upfloater would leave 3–4, who have met, as the
  rest of their scoregroup: team 3 is taken instead.
* 2.3.4 [C7]: of the 2-point teams, 2 and 5 floated in round 2; team 3 is chosen over team 2
  for leader 1. In the last two rounds C7 does not apply and team 2 is chosen.
* 2.3.5 [C8]: 1 and 3 want White, 2 and 4 Black: 1–4, 2–3, not the first identifier 1–3, 2–4.
* 2.3.6 [C9] (Type B): all four leaders want White, so C8 is 2 whatever; 1 and 3 want it
  strongly, so they are kept apart (and the same below, with Black).
* 2.3.7 [C10]: upfloater 4 would meet team 2 (which floated in round 2) in the first
  identifier; it meets team 3 instead. In the last two rounds: the first identifier.
* Competition's prohibited pair (record 260) in round 1: 1–4 is not allowed.
* Requested byes pass through: team 5's half-point bye leaves four teams to pair.
"""

from __future__ import annotations

import pytest

from formats.teams.pairing import model as m
from tests.formats.teams.pairing.oracle import Gacrux
from tests.formats.teams.pairing.scripted import Scripted, ours, theirs

C7_HISTORY = ("1-5:11 2-6:11 3-7:11 4-8:11", "1-4:11 2-5:00 6-7:== half:8 zero:3")
C9_HISTORY = ("5-1:00 2-6:11 7-3:00 4-8:11", "6-1:00 5-2:00 8-3:00 7-4:00")
C10_HISTORY = ("1-6:11 2-7:11 3-8:11 4-9:11 5-10:11", "1-4:11 3-5:11 2-6:11 7-8:== 9-10:==")

CASES = [
    pytest.param(Scripted(6), "1-4 5-2 3-6", id="3.6.2-round-1-first-half-against-second"),
    pytest.param(Scripted(7), "1-4 5-2 3-6 bye:7", id="3.4.4-round-1-largest-TPN-gets-the-bye"),
    pytest.param(Scripted(5, ("3-1:11 4-2:10 half:5",)), "2-3 5-4 bye:1", id="3.4.2-lowest-score"),
    pytest.param(
        Scripted(5, ("1-2:00 4-3:-- half:5",)), "2-3 5-4 bye:1", id="3.4.3-most-matches-played"
    ),
    pytest.param(
        Scripted(3, ("1-2:00 half:3", "2-3:== half:1")),
        "3-1 bye:2",
        id="3.4.1-the-bye-must-leave-a-legal-pairing",
    ),
    pytest.param(
        Scripted(5, ("1-2:== 3-4:== bye:5", "5-1:00 2-3:== half:4")),
        "4-1 2-5 bye:3",
        id="2.1.2-C2-no-second-pairing-allocated-bye",
    ),
    pytest.param(
        Scripted(3, ("3-1:++ half:2", "1-3:11 half:2")),
        "3-2 bye:1",
        id="2.1.2-C2-no-bye-after-a-match-won-by-forfeit",
    ),
    pytest.param(Scripted(4, ("1-3:10 2-4:10",)), "4-1 3-2", id="2.1.1-C1-no-second-meeting"),
    pytest.param(
        Scripted(2, ("1-2:++",), total_rounds=2), "1-2", id="C.04.2-3.5-forfeited-may-meet-again"
    ),
    pytest.param(
        Scripted(2, ("1-2:10",), total_rounds=2), "impossible", id="3.3.3-no-legal-pairing"
    ),
    pytest.param(
        Scripted(
            6, ("1-4:11 2-5:10 3-6:10",), prohibited=((2, 2, 3, 4), (2, 2, 4, 5), (2, 2, 4, 6))
        ),
        "3-1 5-6 4-2",
        id="2.2.1-C3-the-rest-must-stay-pairable",
    ),
    pytest.param(
        Scripted(6, ("1-4:11 2-5:11 3-6:11",)), "3-1 4-2 5-6", id="2.3.1-C4-fewest-upfloaters"
    ),
    pytest.param(
        Scripted(6, ("1-4:1= 2-5:0= 3-6:00",), scores="gp+mp"),
        "6-1 5-4 3-2",
        id="2.3.2-C5-highest-scores-of-upfloaters",
    ),
    pytest.param(
        Scripted(6, ("1-5:11 3-4:== half:2 zero:6",)),
        "3-1 4-2 5-6",
        id="2.3.3-C6-the-following-scoregroup-stays-pairable",
    ),
    pytest.param(
        Scripted(8, C7_HISTORY), "3-1 4-2 5-6 7-8", id="2.3.4-C7-upfloater-who-did-not-float"
    ),
    pytest.param(
        Scripted(8, C7_HISTORY, total_rounds=4),
        "2-1 5-3 4-6 7-8",
        id="2.3.4-C7-not-in-the-last-two-rounds",
    ),
    pytest.param(
        Scripted(8, ("5-1:00 2-6:11 7-3:00 4-8:11", "6-1:00 2-5:11 8-3:00 4-7:11")),
        "1-4 3-2 5-7 8-6",
        id="2.3.5-C8-colour-preferences-fulfilled",
    ),
    pytest.param(
        Scripted(8, C9_HISTORY, colours=m.TYPE_B),
        "1-4 3-2 8-5 6-7",
        id="2.3.6-C9-type-B-strong-preferences-fulfilled",
    ),
    pytest.param(
        Scripted(10, C10_HISTORY),
        "2-1 4-3 5-7 8-10 6-9",
        id="2.3.7-C10-upfloater-meets-a-team-that-did-not-float",
    ),
    pytest.param(
        Scripted(10, C10_HISTORY, total_rounds=4),
        "3-1 4-2 5-7 8-10 6-9",
        id="2.3.7-C10-not-in-the-last-two-rounds",
    ),
    pytest.param(
        Scripted(6, prohibited=((1, 1, 1, 4),)), "1-5 4-2 3-6", id="record-260-prohibited-pair"
    ),
    pytest.param(
        Scripted(5, requested="half:5"), "1-3 4-2", id="requested-half-point-bye-not-paired"
    ),
]


@pytest.mark.parametrize(("script", "expected"), CASES)
def test_the_engine_pairs_as_the_text_says(script: Scripted, expected: str) -> None:
    assert ours(script) == expected


@pytest.mark.oracle
@pytest.mark.parametrize(("script", "expected"), CASES)
def test_gacrux_agrees(gacrux: Gacrux, script: Scripted, expected: str) -> None:
    assert theirs(gacrux, script) == expected
