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


# -- files as FIDE's team sample and gacrux write them (issue 28) ------------------------------


def _with_block(text: str, player: int, round_no: int, block: str) -> str:
    """``text`` with player ``player``'s round ``round_no`` written as ``block`` (10 columns)."""
    lines = []
    for line in text.splitlines():
        if line.startswith(f"001 {player:4d}"):
            start = 89 + 10 * (round_no - 1)
            line = line.ljust(start + 10)
            line = (line[:start] + block + line[start + 10 :]).rstrip()
        lines.append(line)
    return "\n".join(lines) + "\n"


def _without(text: str, code: str) -> str:
    return "".join(line + "\n" for line in text.splitlines() if not line.startswith(code))


def test_the_bye_teams_boards_written_0000_U_read_as_its_pairing_bye() -> None:
    """Team 3 (players 7, 8) had the pairing-allocated bye in round 1: ``0000 - U`` on every
    board, as gacrux writes it; with record 320, and without it (the players say it)."""
    text = write_team_trf(_event())
    fide = _with_block(_with_block(text, 7, 1, "  0000 - U"), 8, 1, "  0000 - U")
    assert read_team_trf(fide) == read_team_trf(text)
    without_320 = read_team_trf(_without(fide, "320"))
    assert r.Bye(1, 3, r.PAIRING_BYE) in without_320.byes


def test_requested_byes_on_team_boards_are_the_teams_bye() -> None:
    """Team 2 (players 4, 5) had a half-point bye in round 2 (record 240); ``0000 - H`` on its
    boards says the same; without record 240 the boards give it."""
    text = write_team_trf(_event())
    fide = _with_block(_with_block(text, 4, 2, "  0000 - H"), 5, 2, "  0000 - H")
    assert read_team_trf(fide) == read_team_trf(text)
    assert read_team_trf(_without(fide, "240")).byes == read_team_trf(text).byes


def test_a_player_out_of_the_line_up_written_0000_minus_is_no_board() -> None:
    """Player 3 (team 1's reserve) played no board in round 1 and player 6 none in round 3."""
    text = write_team_trf(_event())
    fide = _with_block(_with_block(text, 3, 1, "  0000 - -"), 6, 3, "  0000 - -")
    assert read_team_trf(fide) == read_team_trf(text)


def test_a_forfeited_match_with_its_players_rows_is_the_330_match() -> None:
    """Round 2: 3-1 forfeited as a whole (``330 +-``); its players written ``0000 - +`` (team
    3) and ``0000 - -`` (team 1)."""
    text = write_team_trf(_event())
    fide = text
    for player, code in ((7, "+"), (8, "+"), (1, "-"), (2, "-")):
        fide = _with_block(fide, player, 2, f"  0000 - {code}")
    back = read_team_trf(fide)
    assert back == read_team_trf(text)
    assert [m.forfeit for m in back.matches if m.round == 2] == ["+-"]


def test_299_result_codes_are_read_when_they_state_the_events_points() -> None:
    text = write_team_trf(_event())
    stated = text + "299 +    2.0   2.0\n299 H    1.0   1.0\n299 U    1.0   1.0\n"
    assert read_team_trf(stated) == read_team_trf(text)


@pytest.mark.parametrize(
    ("record", "message"),
    [
        ("299 +    3.0   2.0", r"\+ worth 3 match points and 2 game points; this event scores"),
        ("299 Q    1.0   1.0", "not a result code"),
        ("299 W    2.0   2.5    2    1", "for a team's round are not read"),
    ],
    ids=["other points", "unknown code", "one team's round"],
)
def test_299_result_codes_the_product_cannot_score_are_refused(record: str, message: str) -> None:
    with pytest.raises(TeamTrfError, match=message) as refused:
        read_team_trf(write_team_trf(_event()) + record + "\n")
    assert "\n" not in str(refused.value)


@pytest.mark.parametrize(
    ("player", "round_no", "block", "message"),
    [
        (1, 1, "  0000 - H", "in a round their team 1 played a match"),
        (7, 1, "  0000 - H", "while the file gives team 3 a pairing bye"),
    ],
    ids=["bye in a match round", "two kinds of bye"],
)
def test_a_bye_on_a_board_that_contradicts_the_file_is_refused(
    player: int, round_no: int, block: str, message: str
) -> None:
    text = _with_block(write_team_trf(_event()), player, round_no, block)
    with pytest.raises(TeamTrfError, match=message):
        read_team_trf(text)


def test_games_of_under_one_move_count_as_played_boards() -> None:
    """TRF16's W/D/L (games of under one move) on a board read as 1, = and 0."""
    text = write_team_trf(_event())
    lines = text.splitlines()
    changed = [
        line[:97] + "D" + line[98:] if line.startswith(("001    2", "001    5")) else line
        for line in lines
    ]
    assert read_team_trf("\n".join(changed) + "\n") == read_team_trf(text)


def test_what_the_reader_leaves_out_is_said_in_its_notes() -> None:
    """Records it does not read, the acceleration (250) and tie-breaks it does not compute are
    named, one line each; the counts (062, 072, 082) and comments are the event's own."""
    from formats.teams.trf import read_team_trf_noted

    text = write_team_trf(_event()).replace("202 MP GP EDE", "202 EDET/P,MP,FB")
    text += (
        "### a comment\n082 3\n250  2          1   1    1    2\n801  1 ALP\n801  2 BET\n022 Oslo\n"
    )
    event, notes = read_team_trf_noted(text)
    assert event.tiebreaks == ("MP",)
    assert notes == (
        "Tie-breaks of record 202 the team standings do not compute, left out of the event's "
        "list: EDET/P, FB.",
        "Record 250 (acceleration, 1 line) not read: the team Swiss here pairs without "
        "acceleration; the rounds played are as the file has them.",
        "Lines the import does not read, left out: 022, 801 (2 lines).",
    )
    assert read_team_trf_noted(write_team_trf(_event()))[1] == ()
