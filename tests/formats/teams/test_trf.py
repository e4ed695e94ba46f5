"""formats/teams/trf.py: the TRF-2026 team file, written and read back, and its refusals."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest

from formats.teams import records as r
from formats.teams.trf import TeamTrfError, read_team_trf, write_team_trf


def _event(**changes: object) -> r.TeamEvent:
    """Three teams of two boards and a reserve; round 1: 1-2 (board 1 a board forfeit),
    team 3 the pairing-allocated bye; round 2: 3-1 forfeited as a whole, 2 a half-point bye;
    round 3: 2-3 with team 3's reserve on board 2 and its board 1 player out of order."""
    players = tuple(r.TeamPlayer(n, f"Player {n}", 2000 + n) for n in range(1, 10))
    teams = (
        r.Team(1, "Alpha", (1, 2, 3)),
        r.Team(2, "Beta", (4, 5, 6)),
        r.Team(3, "Gamma", (7, 8, 9)),
    )
    matches = (
        r.Match(1, 1, 1, 2, (r.BoardGame(1, 1, 4, r.FORFEIT_WIN), r.BoardGame(2, 2, 5, r.DRAW))),
        r.Match(2, 1, 3, 1, (), "+-"),
        r.Match(3, 1, 2, 3, (r.BoardGame(1, 4, 9, r.LOSS), r.BoardGame(2, 5, 7, r.WIN))),
    )
    byes = (r.Bye(1, 3, r.PAIRING_BYE), r.Bye(2, 2, r.HALF_BYE))
    event = r.TeamEvent(
        name="Club league",
        rounds=5,
        boards=2,
        teams=teams,
        players=players,
        matches=matches,
        byes=byes,
        adjustments=(r.Adjustment(2, 2, Fraction(-1), Fraction(0)),),
        initial_colour="B",
        tiebreaks=("MP", "GP", "EDE"),
    )
    return dataclasses.replace(event, **changes)


def test_reading_gives_back_what_was_written() -> None:
    event = _event()
    text = write_team_trf(event)
    # The file states what the event left to defaults: record 352 and record 320's points.
    stated = dataclasses.replace(
        event,
        board_colours="WB",
        scoring=dataclasses.replace(
            event.scoring, pairing_bye_match_points=Fraction(1), pairing_bye_game_points=Fraction(1)
        ),
    )
    assert read_team_trf(text) == stated
    assert write_team_trf(read_team_trf(text)) == text


def test_a_line_up_out_of_roster_order_is_a_300_record() -> None:
    text = write_team_trf(_event())
    assert "300   3   3   2    9    7" in text.splitlines()


def test_the_records_gacrux_needs_are_written() -> None:
    lines = write_team_trf(_event()).splitlines()
    codes = [line[:3] for line in lines]
    for code in (
        "012",
        "142",
        "152",
        "162",
        "192",
        "202",
        "352",
        "362",
        "310",
        "240",
        "320",
        "330",
        "299",
    ):
        assert code in codes, code
    assert "320  1.0  1.0   3   0   0" in lines  # a drawn match: 1 MP, half of two boards
    assert "330 +-   2   3   1" in lines
    assert "192 FIDE_TEAM_TYPEA_MP_GP" in lines


@pytest.mark.parametrize(
    ("changed", "message"),
    [
        ({"rounds": 0}, "number of rounds"),
        ({"boards": 100}, "number of boards"),
        ({"board_colours": "WW B"}, "record 352"),
        ({"teams": (r.Team(1, "A"), r.Team(3, "C"))}, "pairing numbers"),
        ({"byes": (r.Bye(1, 1, r.HALF_BYE),)}, "two matches or a match and a bye"),
        ({"byes": (r.Bye(1, 7, r.HALF_BYE),)}, "a bye must name a team"),
        ({"name": "x" * 201}, "at most 200 characters"),
    ],
    ids=[
        "no rounds",
        "100 boards",
        "bad 352",
        "TPNs not 1..N",
        "bye and match",
        "bye of nobody",
        "long name",
    ],
)
def test_an_event_out_of_bounds_is_refused_in_one_line(
    changed: dict[str, object], message: str
) -> None:
    with pytest.raises(TeamTrfError, match=message) as refused:
        write_team_trf(_event(**changed))
    assert "\n" not in str(refused.value)


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda text: text.replace("310   2 Beta", "310   1 Beta"), "appears twice"),
        (lambda text: text.replace("240 H", "240 Q"), "a bye is F, H or Z"),
        (lambda text: text.replace("330 +-", "330 ?!"), "a forfeited match"),
        (lambda text: text + "001    x\n", "start number"),
        (lambda text: "x" * 3000 + "\n" + text, "longer than"),
        (
            lambda text: "\n".join(
                line for line in text.splitlines() if not line.startswith("310")
            ),
            "no team",
        ),
        (lambda text: text.replace("142 5", "142 1"), "the event has 1 rounds"),
    ],
    ids=[
        "two teams 1",
        "bye code",
        "forfeit code",
        "bad number",
        "long line",
        "no 310",
        "rounds too few",
    ],
)
def test_a_bad_file_is_refused_in_one_line(edit, message: str) -> None:  # type: ignore[no-untyped-def]
    text = edit(write_team_trf(_event()))
    with pytest.raises(TeamTrfError, match=message) as refused:
        read_team_trf(text)
    assert "\n" not in str(refused.value)


def test_an_empty_board_is_read_back_and_written_with_a_300_record() -> None:
    """Team 2 had nobody on board 2 in round 1 (C.07 11.1: team 1's player wins it); gacrux
    needs record 300 to know which board was empty."""
    event = _event()
    first = event.matches[0]
    empty = dataclasses.replace(first.boards[1], second_player=None, result=r.FORFEIT_WIN)
    changed = dataclasses.replace(first, boards=(first.boards[0], empty))
    event = dataclasses.replace(event, matches=(changed, *event.matches[1:]))
    text = write_team_trf(event)
    assert "300   1   2   1    4    0" in text.splitlines()
    back = read_team_trf(text)
    assert back.matches[0].boards == changed.boards
    assert write_team_trf(back) == text


def test_a_board_without_an_opponent_outside_a_match_is_refused() -> None:
    text = write_team_trf(_event())
    # Player 7 (team 3) said to have won board 1 of round 1 by forfeit against nobody, while
    # team 3 had the pairing-allocated bye that round.
    lines = [
        line[:89] + "     0 - +" + line[99:] if line.startswith("001    7") else line
        for line in text.splitlines()
    ]
    with pytest.raises(TeamTrfError, match="a board without an opponent"):
        read_team_trf("\n".join(lines) + "\n")
