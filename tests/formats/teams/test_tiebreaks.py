"""formats/teams/tiebreaks.py: codes, refusals and hand-reasoned cases (C.07 12-16). Every
value is also compared with gacrux after every round of generated events
(tests/formats/teams/tiebreaks/)."""

from __future__ import annotations

import dataclasses
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
    # 1 and 4 tie on MP and GP, and on EMGSB: 4 has 3's 2 MP x 1, and its forfeit win is a
    # dummy opponent capped at team 2's adjusted 0 MP (16.4.1): 2 + 0 x 2.
    assert standings.value(4, "EMGSB") == F(2)
    # BC separates them: team 4 has 0 + 1 (a forfeit win is a win on each board) on board 1
    # and 1 + 1 on board 2: 1 + 4 = 5, more than team 1's 4.5, and lower is better (13.1).
    assert standings.value(4, "BC") == F(5)
    assert [row.team for row in standings.rows] == [1, 4, 3, 2]
    assert [row.rank for row in standings.rows] == [1, 2, 3, 4]
    # Nothing is left tied for TBR: a rank inside the tie is 0 for everybody.
    assert {row.values[-1] for row in standings.rows} == {F(0)}


@pytest.mark.parametrize(
    ("adjustment", "mp", "gp"),
    [
        (r.Adjustment(1, 1, F(-2), F(-1)), F(1), F(2)),
        (r.Adjustment(1, 0, F(-2), F(-1), standings_only=True), F(1), F(2)),
        (r.Adjustment(1, 3, F(-2), F(-1)), F(3), F(3)),
    ],
    ids=["record 299 from round 1", "record 299 final only", "record 299 from a later round"],
)
def test_an_adjustment_counts_once_in_mp_and_gp(adjustment: r.Adjustment, mp: F, gp: F) -> None:
    """C.07 11, record 299: team 1's 3 MP and 3 GP after two rounds, with 2 MP and 1 GP taken
    from round 1 on, or from the final score only: 1 MP and 2 GP either way (counted once, not
    once in the scores and again with the final adjustments); from round 3 on: nothing yet."""
    adjusted = dataclasses.replace(_event(), rounds=3, adjustments=(adjustment,))
    standings = team_standings(adjusted, ["MP", "GP"], after_round=2)
    assert (standings.value(1, "MP"), standings.value(1, "GP")) == (mp, gp)


def test_tbr_ranks_inside_the_tie_it_is_given() -> None:
    """C.07 13.2 after MP alone: 1 and 4 (3 MP each) are separated by board 1 (team 1 1.5,
    team 4 1): 1 and 2 inside their tie; 3 and 2 are alone: 0."""
    standings = team_standings(_event(), ["MP", "TBR"])
    assert [standings.value(t, "TBR") for t in (1, 4, 3, 2)] == [F(1), F(2), F(0), F(0)]


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


def test_an_event_naming_a_team_it_does_not_have_is_refused_in_one_line() -> None:
    import dataclasses

    event = _event()
    broken = dataclasses.replace(event, byes=(r.Bye(1, 9, r.HALF_BYE),))
    with pytest.raises(TeamTiebreakError, match="a bye must name a team"):
        team_standings(broken, ["MP"])


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


@pytest.mark.parametrize("seed", range(5))
def test_a_ranking_is_every_team_once_in_rank_order(seed: int) -> None:
    """Property: whatever the event, the rows are a permutation of the teams with ranks that
    never go down, each row's rank at most its position."""
    import random

    from tests.formats.teams.pairing.generator import cases, records
    from tests.formats.teams.tiebreaks.differential import play

    case = cases(1, seed=seed, sizes=(6, 14))[0]
    event = records(play(case, random.Random(seed)), case.rounds + 1)
    codes = ["MP", "EDE", "GP", "BH:MP/C1", "TBR", "BBE"]
    standings = team_standings(event, codes)
    assert sorted(row.team for row in standings.rows) == [t.tpn for t in event.teams]
    ranks = [row.rank for row in standings.rows]
    assert ranks == sorted(ranks)
    assert all(rank <= position for position, rank in enumerate(ranks, start=1))
