"""formats/teams/scoring.py: match and game points of every kind of round (C.04.6 1.2-1.4,
C.07 11 and 16.2), table-driven."""

from __future__ import annotations

from fractions import Fraction

import pytest

from formats.teams import records as r
from formats.teams import scoring as s

F = Fraction


def _one_round(
    match: r.Match | None = None, bye: r.Bye | None = None, **scoring: object
) -> dict[int, s.TeamRound]:
    event = r.TeamEvent(
        name="t",
        rounds=3,
        boards=4,
        teams=(r.Team(1, "A"), r.Team(2, "B")),
        matches=(match,) if match else (),
        byes=(bye,) if bye else (),
        scoring=r.Scoring(**scoring),  # type: ignore[arg-type]
    )
    return {tpn: rounds[0] for tpn, rounds in s.team_rounds(event, 1).items()}


def _boards(*results: str) -> tuple[r.BoardGame, ...]:
    return tuple(r.BoardGame(b, None, None, result) for b, result in enumerate(results, start=1))


CASES = [
    # id, match, bye, scoring, team 1 (kind, MP, GP), team 2 (kind, MP, GP)
    ("C.07 11: 2.5-1.5 won", _boards(r.WIN, r.DRAW, r.DRAW, r.LOSS), None, {},
     (s.PLAYED, F(1), F(2)), (s.PLAYED, F(1), F(2))),
    ("C.07 11: 3-1 won, 2/1/0", _boards(r.WIN, r.WIN, r.DRAW, r.DRAW), None, {},
     (s.PLAYED, F(2), F(3)), (s.PLAYED, F(0), F(1))),
    ("C.04.6 1.2: 3/1/0", _boards(r.WIN, r.WIN, r.DRAW, r.DRAW), None, {"match_win": F(3)},
     (s.PLAYED, F(3), F(3)), (s.PLAYED, F(0), F(1))),
    ("C.07 11.1: a board forfeit counts", _boards(r.FORFEIT_WIN, r.LOSS, r.DRAW, r.DRAW), None, {},
     (s.PLAYED, F(1), F(2)), (s.PLAYED, F(1), F(2))),
    ("C.07 16.2: a forfeited match", (), None, {},
     (s.FORFEIT_WIN, F(2), F(4)), (s.FORFEIT_LOSS, F(0), F(0))),
    ("C.07 16.2: all boards forfeited", _boards(*[r.FORFEIT_LOSS] * 4), None, {},
     (s.FORFEIT_LOSS, F(0), F(0)), (s.FORFEIT_WIN, F(2), F(4))),
    ("C.04.6 1.4: the pairing-allocated bye, a draw", None, r.PAIRING_BYE, {},
     ("pairing_bye", F(1), F(2)), (s.ABSENT, F(0), F(0))),
    ("C.04.6 1.4: the competition's bye points", None, r.PAIRING_BYE,
     {"pairing_bye_match_points": F(2), "pairing_bye_game_points": F(5, 2)},
     ("pairing_bye", F(2), F(5, 2)), (s.ABSENT, F(0), F(0))),
    ("half-point bye", None, r.HALF_BYE, {}, ("half_bye", F(1), F(2)), (s.ABSENT, F(0), F(0))),
    ("full-point bye", None, r.FULL_BYE, {}, ("full_bye", F(2), F(4)), (s.ABSENT, F(0), F(0))),
]  # fmt: skip


@pytest.mark.parametrize(
    ("boards", "bye", "scoring", "first", "second"),
    [c[1:] for c in CASES],
    ids=[c[0] for c in CASES],
)
def test_a_round_is_scored(boards, bye, scoring, first, second) -> None:  # type: ignore[no-untyped-def]
    match = None
    if bye is None:
        match = r.Match(1, 1, 1, 2, boards, "+-" if boards == () else "")
    rounds = _one_round(match, r.Bye(1, 1, bye) if bye else None, **scoring)
    assert (rounds[1].kind, rounds[1].match_points, rounds[1].game_points) == first
    assert (rounds[2].kind, rounds[2].match_points, rounds[2].game_points) == second


def test_a_forfeit_loss_and_an_absence_are_voluntary_unplayed_rounds() -> None:
    rounds = _one_round(r.Match(1, 1, 1, 2, (), "-+"))
    assert rounds[1].voluntary_unplayed and not rounds[2].voluntary_unplayed


def test_adjustments_count_from_their_round_and_standings_only_ones_at_the_end() -> None:
    event = r.TeamEvent(
        name="t", rounds=3, boards=2, teams=(r.Team(1, "A"), r.Team(2, "B")),
        adjustments=(
            r.Adjustment(1, 2, F(-1), F(-1, 2)),
            r.Adjustment(2, 0, F(1), F(0), standings_only=True),
        ),
    )  # fmt: skip
    assert s.scores(event, 1)[1] == s.TeamScore(F(0), F(0))
    assert s.scores(event, 2)[1] == s.TeamScore(F(-1), F(-1, 2))
    assert s.scores(event, 3)[2] == s.TeamScore(F(0), F(0))
    assert s.adjustments(event, 3, final=True)[2] == s.TeamScore(F(1), F(0))
    # the final score adds the standings-only ones to the scores, which hold the others already
    assert s.adjustments(event, 3, final=True)[1] == s.TeamScore(F(0), F(0))


@pytest.mark.parametrize(
    "scoring",
    [{"match_win": F(1), "match_draw": F(1)}, {"game_win": F(-1)}, {"primary": "XP"}],
    ids=["win not above draw", "negative", "unknown primary"],
)
def test_a_scoring_out_of_bounds_is_refused(scoring: dict[str, object]) -> None:
    with pytest.raises(r.TeamEventError):
        r.Scoring(**scoring)  # type: ignore[arg-type]
