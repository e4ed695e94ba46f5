"""Team round robins, single and double, on the Berger tables (FIDE C.05 Annex 1).

Pure: no Django. The tables are :mod:`draws.berger`'s (the published ones; rules-notes,
"Berger tables"), read with the teams' pairing numbers (TPN, C.04.6 1.1, set by the
competition) in place of players' numbers. A team's colour is board 1's (C.04.6 1.6.1): the
table's White is the team with White on board 1. Tables are numbered in the published order
(the game of the highest number first). With an odd number of teams the next even table is
used and the team drawn against the extra number sits the round out: it is listed as a bye of
kind ``"free"``, whatever the competition scores it.

A double round robin is two cycles, the second with the colours reversed, and the last two
rounds of the first cycle swapped so that no team has the same colour three times running
across the join (:func:`draws.berger.double_round_robin`).
"""

from __future__ import annotations

from draws.berger import double_round_robin, single_round_robin, table_size
from formats.teams.pairing.model import MAX_TEAMS, Match, TeamBye, TeamPairing, TeamPairingError

BYE_FREE = "free"


def rounds_of(teams: int, double: bool = False) -> int:
    """How many rounds the round robin of ``teams`` teams has."""
    cycle = table_size(teams) - 1
    return 2 * cycle if double else cycle


def _which_round(teams: int, round_no: int, double: bool) -> str:
    """The table's round that ``round_no`` is, in words."""
    cycle = rounds_of(teams)
    if not double:
        return f"round {round_no}"
    if round_no > cycle:
        return f"round {round_no - cycle} with the colours reversed (second cycle)"
    if cycle >= 2 and round_no >= cycle - 1:
        swapped = 2 * cycle - 1 - round_no
        return f"round {swapped} (the last two rounds of the first cycle swapped)"
    return f"round {round_no}"


def team_round_robin_round(teams: int, round_no: int, double: bool = False) -> TeamPairing:
    """Round ``round_no`` of a single (or double) round robin of teams 1..``teams``."""
    if not 2 <= teams <= MAX_TEAMS:
        raise TeamPairingError(f"a team round robin needs 2 to {MAX_TEAMS} teams, not {teams}")
    total = rounds_of(teams, double)
    if not 1 <= round_no <= total:
        raise TeamPairingError(f"round {round_no} is outside 1..{total}")
    table = double_round_robin(teams) if double else single_round_robin(teams)
    which = _which_round(teams, round_no, double)
    reason = f"Berger table for {table_size(teams)} (C.05 Annex 1), {which}"
    matches: list[Match] = []
    byes: list[TeamBye] = []
    for white, black in table[round_no - 1]:
        if max(white, black) > teams:
            byes.append(TeamBye(min(white, black), BYE_FREE))
            continue
        matches.append(Match(len(matches) + 1, white, black, "berger", (reason,)))
    return TeamPairing(round=round_no, matches=tuple(matches), byes=tuple(byes))
