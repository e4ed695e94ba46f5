"""From a team event's records to the pairing engine's request. Pure: no Django.

The engine (:mod:`formats.teams.pairing`) takes each team's scores and past rounds as the
pairing needs them (C.04.6 1.2, 1.5, 1.6.1, 2.1.2); this module derives them from the scored
rounds of :mod:`formats.teams.scoring`, so the web application, the commands and the tests
all pair from the same reading.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from formats.teams import records as r
from formats.teams import scoring as s
from formats.teams.pairing import model as m

# scoring's kinds of round → the engine's (C.07 16.2: an absence is an unplayed zero round).
_KINDS = {
    s.PLAYED: m.PLAYED,
    s.FORFEIT_WIN: m.FORFEIT_WIN,
    s.FORFEIT_LOSS: m.FORFEIT_LOSS,
    s.DOUBLE_FORFEIT: m.FORFEIT_LOSS,
    s.ABSENT: m.ZERO_BYE,
    "pairing_bye": m.PAIRING_BYE,
    "full_bye": m.FULL_BYE,
    "half_bye": m.HALF_BYE,
    "zero_bye": m.ZERO_BYE,
}


def _primary_before(event: r.TeamEvent, round_no: int) -> dict[int, Fraction]:
    totals = s.scores(event, round_no - 1)
    return {tpn: s.primary(score, event.scoring) for tpn, score in totals.items()}


def _past_round(entry: s.TeamRound, tpn: int, before: Mapping[int, Fraction] | None) -> m.PastRound:
    kind = _KINDS[entry.kind]
    if kind != m.PLAYED:
        return m.PastRound(entry.round, kind, opponent=entry.opponent)
    floated = ""
    if before is not None and entry.opponent is not None:
        mine, theirs = before[tpn], before[entry.opponent]
        floated = m.FLOAT_UP if theirs > mine else m.FLOAT_DOWN if theirs < mine else ""
    colour = m.WHITE if entry.white else m.BLACK
    return m.PastRound(entry.round, m.PLAYED, entry.opponent, colour, floated)


def pairing_request(
    event: r.TeamEvent,
    *,
    round_no: int,
    requested_byes: Mapping[int, str] | None = None,
    absent: frozenset[int] = frozenset(),
) -> m.TeamPairingRequest:
    """The request to pair round ``round_no`` of ``event`` (C.04.6 3.3), from rounds before it.

    1.5: a team floated when it played an opponent with a different score *before that
    round*; 1.2: the primary score is the competition's (MP or GP), the other one secondary.
    """
    played = s.team_rounds(event, round_no - 1)
    totals = s.scores(event, round_no - 1, played)
    scores_before = {n: _primary_before(event, n) for n in range(1, round_no)}
    teams = tuple(
        m.Team(
            tpn,
            s.primary(totals[tpn], event.scoring),
            s.secondary(totals[tpn], event.scoring),
            tuple(_past_round(entry, tpn, scores_before.get(entry.round)) for entry in rounds),
        )
        for tpn, rounds in sorted(played.items())
    )
    prohibited = frozenset(
        frozenset(pair.teams)
        for pair in event.prohibited
        if pair.first_round <= round_no <= pair.last_round
    )
    return m.TeamPairingRequest(
        round=round_no,
        total_rounds=event.rounds,
        teams=teams,
        colour_preferences=event.colour_preferences,
        use_secondary_score=event.scoring.secondary_for_colours,
        initial_colour=(event.initial_colour or "w").lower()[:1],
        requested_byes=tuple(sorted((requested_byes or {}).items())),
        absent=absent,
        prohibited_pairs=prohibited,
    )
