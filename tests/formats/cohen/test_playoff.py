"""The Cohen Chess Final Four playoff (formats/cohen/playoff.py; seed 002 Final Four rules 3–4,
Player Piece Color rule 3), planned by the playoff engine like any other rule."""

from __future__ import annotations

import datetime as dt

import pytest

from formats.cohen.playoff import COHEN_FINAL_FOUR, COHEN_TIME_CONTROLS
from playoffs.rules import PlayoffInputError, PlayoffPlan, PlayoffResult, plan, playoff_start

SEED = "gct-2019-test-seed"


def kinds(playoff: PlayoffPlan) -> list[str]:
    return [stage.kind for stage in playoff.stages]


# --- Cohen Chess Final Four (seed 002 rules 3–4) ----------------------------------------------

COHEN_CASES = [
    pytest.param([5, 2], ["0-1"], [(5, 2)], 2, "rule 3", id="002-FF3-two-tied-extra-game"),
    pytest.param(
        [5, 2], ["1/2-1/2"], [(5, 2)], 5, "Ranking rule 4", id="002-FF3-drawn-ranking-stands"
    ),
    pytest.param(
        [4, 1, 3], ["1-0"], [(4, 1)], 4, "rule 4", id="002-FF4-three-tied-slot-four-decides"
    ),
    pytest.param(
        [4, 1, 3],
        ["1/2-1/2", "1-0"],
        [(4, 1), (4, 3)],
        4,
        "slot five",
        id="002-FF4-slot-five-top-wins",
    ),
    pytest.param(
        [4, 1, 3],
        ["1/2-1/2", "1/2-1/2"],
        [(4, 1), (4, 3)],
        4,
        "slot five",
        id="002-FF4-slot-five-drawn",
    ),
    pytest.param(
        [4, 1, 3],
        ["1/2-1/2", "0-1"],
        [(4, 1), (4, 3)],
        3,
        "slot five",
        id="002-FF4-slot-five-other-wins",
    ),
    pytest.param([4, 1, 3, 2], ["0-1"], [(4, 1)], 1, "rule 4", id="002-FF4-four-tied-second-wins"),
    pytest.param(
        [4, 1, 3, 2],
        ["1/2-1/2", "0-1"],
        [(4, 1), (4, 3)],
        3,
        "slot five",
        id="002-FF4-four-tied-third-ranked-plays-slot-five",
    ),
]


@pytest.mark.parametrize(("tied", "played", "games", "winner", "decided_by"), COHEN_CASES)
def test_cohen_final_four(
    tied: list[int], played: list[str], games: list[tuple[int, int]], winner: int, decided_by: str
) -> None:
    standard = COHEN_TIME_CONTROLS["standard-game"]
    results = [PlayoffResult(stage, 1, result) for stage, result in enumerate(played, start=1)]
    playoff = plan(tied, COHEN_FINAL_FOUR, SEED, results, event_time_control=standard)
    # Player Piece Color rule 3: the higher-ranked player has White.
    assert [(s.games[0].white, s.games[0].black) for s in playoff.stages] == games
    assert kinds(playoff) == ["extra_game"] * len(games)
    assert all(s.time_control == standard and s.pairing_source == "ranking" for s in playoff.stages)
    assert (playoff.status, playoff.winner) == ("decided", winner)
    assert decided_by in playoff.decided_by
    assert playoff.order_groups == ((winner,), tuple(p for p in tied if p != winner))


def test_cohen_slot_five_waits_for_slot_four() -> None:
    playoff = plan([4, 1, 3], COHEN_FINAL_FOUR, SEED)
    assert playoff.status == "scheduled" and len(playoff.stages) == 1
    playoff = plan([4, 1, 3], COHEN_FINAL_FOUR, SEED, [PlayoffResult(1, 1, "1/2-1/2")])
    assert playoff.status == "in_progress" and kinds(playoff) == ["extra_game", "extra_game"]


def test_cohen_final_four_has_four_players() -> None:
    with pytest.raises(PlayoffInputError, match="four"):
        plan([1, 2, 3, 4, 5], COHEN_FINAL_FOUR, SEED)


def test_playoff_start_same_round() -> None:
    """Final Four rules 3–4: the extra games are slots four and five of the last round."""
    scheduled = playoff_start(COHEN_FINAL_FOUR, None, dt.date(2019, 8, 28))
    assert (scheduled.day, scheduled.not_before, scheduled.clause) == (
        dt.date(2019, 8, 28),
        None,
        "Final Four rules 3-4",
    )
