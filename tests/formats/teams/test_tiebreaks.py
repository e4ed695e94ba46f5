"""formats/teams/tiebreaks.py: codes, refusals and hand-reasoned cases (C.07 12-16). Every
value is also compared with gacrux after every round of generated events
(tests/formats/teams/tiebreaks/)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from formats.teams import records as r
from formats.teams.tiebreaks import PRESETS, TeamTiebreakError, parse_code, team_standings

F = Fraction


def _boards(*results: str) -> tuple[r.BoardGame, ...]:
    return tuple(r.BoardGame(b, None, None, result) for b, result in enumerate(results, start=1))


def _event() -> r.TeamEvent:
    """Four teams, two boards, two rounds: 1 beats 2 2-0 and 3 draws 4 1-1 (board 1 won by 3);
    then 1 draws 3 1-1 and 4 beats 2 by forfeit."""
    return r.TeamEvent(
        name="t", rounds=2, boards=2,
        teams=tuple(r.Team(n, f"T{n}") for n in range(1, 5)),
        matches=(
            r.Match(1, 1, 1, 2, _boards(r.WIN, r.WIN)),
            r.Match(1, 2, 3, 4, _boards(r.WIN, r.LOSS)),
            r.Match(2, 1, 1, 3, _boards(r.DRAW, r.DRAW)),
            r.Match(2, 2, 4, 2, (), "+-"),
        ),
    )  # fmt: skip


def test_the_values_reasoned_from_the_text() -> None:
    standings = team_standings(_event(), ["MP", "GP", "EMGSB", "BC", "TBR"])
    # MP: 1 has 3, 3 has 2, 4 has 3 (draw + forfeit win), 2 has 0.
    assert [standings.value(t, "MP") for t in (1, 2, 3, 4)] == [F(3), F(0), F(2), F(3)]
    # GP: 1 has 3, 4 has 1 + 2 (forfeit: a win on each board).
    assert [standings.value(t, "GP") for t in (1, 2, 3, 4)] == [F(3), F(0), F(2), F(3)]
    # EMGSB (12.2): opponents' MP x own GP: team 1: 2 (0 MP) x 2 + 3 (2 MP) x 1 = 2.
    assert standings.value(1, "EMGSB") == F(2)
    # BC (13.1): team 1 scored 1.5 on board 1 and 1.5 on board 2: 1x1.5 + 2x1.5.
    assert standings.value(1, "BC") == F(9, 2)
    # 1 and 4 tie on MP and GP; 1 is ranked above 4 by EMGSB (4: 3's 2 MP x 1 + 2's 0 x 2 = 2?).
    assert standings.rows[0].team in (1, 4)


def test_edition_2026_caps_the_dummy_opponent_of_a_forfeit_win() -> None:
    """C.07 16.4.1 (2026): team 4's forfeit win is a dummy opponent with 4's own score (3 MP),
    capped at the scheduled opponent's adjusted score (team 2: 0 MP)."""
    event = _event()
    assert team_standings(event, ["BH:MP"], edition="2026").value(4, "BH:MP") == F(2 + 0)
    assert team_standings(event, ["BH:MP"], edition="2024").value(4, "BH:MP") == F(2 + 3)


@pytest.mark.parametrize("code", ["XYZ", "BH:XP", "BH/Q1", "BH/C", "B" * 40])
def test_an_unknown_code_is_refused_in_one_line(code: str) -> None:
    with pytest.raises(TeamTiebreakError) as refused:
        parse_code(code)
    assert "\n" not in str(refused.value)


def test_too_many_codes_and_rounds_beyond_the_event_are_refused() -> None:
    with pytest.raises(TeamTiebreakError):
        team_standings(_event(), ["MP"] * 21)
    with pytest.raises(TeamTiebreakError):
        team_standings(_event(), ["MP"], after_round=3)


def test_every_preset_computes() -> None:
    for codes in PRESETS.values():
        try:
            team_standings(_event(), codes)
        except TeamTiebreakError as error:
            assert "SSSC" in str(error)  # two rounds of two boards: the divisor is 0 (15.2)
