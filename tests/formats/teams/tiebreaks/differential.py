"""The team tie-breaks against gacrux, after every round of generated team events (test-only).

Each event is played round by round by :mod:`tests.formats.teams.pairing.generator` (paired by
our C.04.6 engine, board results drawn with board forfeits, forfeited matches, requested half
and zero byes and the pairing-allocated bye; match points or game points primary, 2/1/0 or
3/1/0). After every round the event so far is written by :mod:`formats.teams.trf`, with the player
rows FIDE's sample and gacrux write for the rounds without a board (:mod:`tests.formats.teams.
fide_rows`: ``0000 - U`` on the bye team's boards, ``0000 - -`` for a player out of the
line-up, the boards of a forfeited match, requested byes on team boards); gacrux
computes each list of :data:`LISTS` from that file, and our engine from the event read back
from the same file (so the reader is checked too); every value of every team must be equal.
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections import Counter
from dataclasses import dataclass, field

from formats.teams import records as r
from formats.teams.berger import rounds_of, team_round_robin_round
from formats.teams.pairing import PairingImpossible, pair_team_round
from formats.teams.tiebreaks import RANKS_INSIDE_THE_TIE, TeamTiebreakError, team_standings
from formats.teams.trf import read_team_trf, write_team_trf
from tests.formats.teams.fide_rows import with_fide_rows
from tests.formats.teams.pairing.generator import Case, Event, records
from tests.formats.teams.tiebreaks.oracle import TiebreakOracle
from tests.tallies import register

# The lists compared. The value tie-breaks need no particular order; EDE, TBR and BBE are
# ranks inside the ties left by the codes before them, so each comes after PTS (and MPVGP).
VALUES = (
    "PTS", "MP", "GP", "MPVGP", "EMMSB", "EMGSB/C1", "EGMSB", "EGGSB/C1", "BC", "BH:MP",
    "BH:GP/C1", "SB:MP/C1", "BH:MP/M1", "PS", "SSSC",
)  # fmt: skip
LISTS: tuple[tuple[str, ...], ...] = (
    VALUES,
    ("PTS", "EMGSB/V1", "BH:MP/C1/V1", "BH:GP/V1", "EGGSB/C1/V1"),  # the 2024 edition
    ("PTS", "EDE", "TBR"),
    ("PTS", "MPVGP", "EDE"),
    ("PTS", "EDET", "BC"),
    ("PTS", "EDEB", "BBE"),
    ("PTS", "EDEBT", "TBR"),
    ("PTS", "EDEBB"),
    ("PTS", "BBE"),
    ("PTS", "WIN", "WON", "WIN:MP", "WON:MP", "WIN:GP", "WON:GP"),
)


@dataclass
class Outcome:
    rounds: int = 0
    values: int = 0
    mismatches: list[str] = field(default_factory=list)
    gacrux_seconds: float = 0.0
    our_seconds: float = 0.0
    separated: Counter[str] = field(default_factory=Counter)


@dataclass
class Tally:
    """What the tie-break differential run compared, printed at the end of the session."""

    events: int = 0
    rounds: int = 0
    values: int = 0
    mismatches: int = 0
    gacrux_seconds: float = 0.0
    our_seconds: float = 0.0
    separated: Counter[str] = field(default_factory=Counter)

    def record(self, outcome: Outcome) -> None:
        self.events += 1
        self.rounds += outcome.rounds
        self.values += outcome.values
        self.mismatches += len(outcome.mismatches)
        self.gacrux_seconds += outcome.gacrux_seconds
        self.our_seconds += outcome.our_seconds
        self.separated.update(outcome.separated)

    def summary(self) -> str:
        separated = ", ".join(f"{code} {count}" for code, count in sorted(self.separated.items()))
        return (
            f"team tie-breaks against gacrux (C.07): {self.events} events, {self.rounds} rounds, "
            f"{self.values} values compared, {self.mismatches} differing; gacrux "
            f"{self.gacrux_seconds:.0f} s, ours {self.our_seconds:.0f} s; exercised (teams placed "
            f"inside a tie by each code, empty boards, records 300): {separated}"
        )


TALLY = register("team-tiebreaks", Tally())


def _without_sssc(codes: tuple[str, ...], error: TeamTiebreakError) -> tuple[str, ...]:
    if "SSSC" not in str(error):
        raise error
    return tuple(code for code in codes if code != "SSSC")


# Round robins: no Swiss-only code (SSSC's divisor is a Swiss figure; it is compared there).
ROUND_ROBIN_LISTS = tuple(tuple(code for code in codes if code != "SSSC") for codes in LISTS)


def compare_round(
    oracle: TiebreakOracle, trf: str, after_round: int, outcome: Outcome, round_robin: bool = False
) -> None:
    event = read_team_trf(trf)
    for codes in ROUND_ROBIN_LISTS if round_robin else LISTS:
        start = time.perf_counter()
        try:
            ours = team_standings(event, codes, after_round=after_round)
        except TeamTiebreakError as error:  # SSSC's divisor is 0 early on: gacrux divides by it
            codes = _without_sssc(codes, error)
            ours = team_standings(event, codes, after_round=after_round)
        outcome.our_seconds += time.perf_counter() - start
        start = time.perf_counter()
        theirs = oracle.tiebreaks(trf, after_round, codes, round_robin)
        outcome.gacrux_seconds += time.perf_counter() - start
        for row in ours.rows:
            for code, mine, other in zip(codes, row.values, theirs[row.team], strict=True):
                outcome.values += 1
                if mine != other:
                    outcome.mismatches.append(
                        f"round {after_round}, {' '.join(codes)}: team {row.team} {code} "
                        f"gacrux {other} ours {mine}"
                    )
                elif code in RANKS_INSIDE_THE_TIE and mine:
                    outcome.separated[code] += 1


def play(case: Case, rng: random.Random) -> Event:
    """``case`` played to its end (or to a round that cannot be paired)."""
    event = Event.start(case)
    for round_no in range(1, case.rounds + 1):
        requested = event.requested_byes(rng)
        try:
            pairing = pair_team_round(event.request(round_no, requested))
        except PairingImpossible:
            break
        event.play(round_no, pairing, requested, rng)
    return event


def _line_up(match: r.Match, choice: int) -> r.Match:
    """The match with what the generator does not make: the first board forfeit's absent
    player left out (an empty board, choice 0), or the first team's boards 1 and 2 swapped
    (a line-up out of roster order: record 300, choice 1)."""
    games = list(match.boards)
    if choice == 0:
        for i, game in enumerate(games):
            if game.result == r.FORFEIT_WIN:
                games[i] = dataclasses.replace(game, second_player=None)
                break
            if game.result == r.FORFEIT_LOSS:
                games[i] = dataclasses.replace(game, first_player=None)
                break
    elif choice == 1 and len(games) >= 2 and games[0].first_player and games[1].first_player:
        one, two = games[0], games[1]
        games[0] = dataclasses.replace(one, first_player=two.first_player)
        games[1] = dataclasses.replace(two, first_player=one.first_player)
    return dataclasses.replace(match, boards=tuple(games))


def _with_line_ups(event: r.TeamEvent, seed: int) -> r.TeamEvent:
    """A third of the played matches get an empty board or a line-up out of roster order, and
    two thirds of the forfeited matches lose their boards (record 330 alone, as FIDE writes
    one); the same ones every round (a seeded choice per match). No empty board in round 1:
    gacrux stops (KeyError) on TBR when a team has never had a game on a board."""
    changed = []
    for match in event.matches:
        choice = random.Random(seed * 1009 + match.round * 101 + match.white).randrange(3)
        if match.forfeit and choice < 2:
            # Record 330 alone, its players written 0000 - + and 0000 - - (FIDE's way)
            changed.append(dataclasses.replace(match, boards=()))
        elif match.forfeit or (choice == 0 and match.round == 1):
            changed.append(match)
        else:
            changed.append(_line_up(match, choice))
    return dataclasses.replace(event, matches=tuple(changed))


def run_case(oracle: TiebreakOracle, case: Case, line_ups: bool = True) -> Outcome:
    """Play ``case`` and compare every list after every round."""
    event = Event.start(case)
    rng = random.Random(case.seed * 7919 + 1)
    outcome = Outcome()
    for round_no in range(1, case.rounds + 1):
        requested = event.requested_byes(rng)
        try:
            pairing = pair_team_round(event.request(round_no, requested))
        except PairingImpossible:
            break
        event.play(round_no, pairing, requested, rng)
        played = records(event, round_no + 1)
        if line_ups:
            played = _with_line_ups(played, case.seed)
            outcome.separated["empty boards"] += _count_empty(played, round_no)
        trf = with_fide_rows(write_team_trf(played), played)
        _count_fide_rows(trf, round_no, outcome)
        outcome.separated["record 300 (line-up out of order or short)"] += sum(
            line.startswith(f"300 {round_no:3d}") for line in trf.splitlines()
        )
        compare_round(oracle, trf, round_no, outcome)
        outcome.rounds += 1
    return outcome


def _count_fide_rows(trf: str, round_no: int, outcome: Outcome) -> None:
    """The player rows without a board this round's file gave the reader and gacrux."""
    start = 89 + 10 * (round_no - 1)
    for line in trf.splitlines():
        block = line[start : start + 10] if line.startswith("001 ") else ""
        if block.startswith("  0000 - "):
            outcome.separated[f"player rows 0000 - {block[-1]}"] += 1


def _count_empty(event: r.TeamEvent, round_no: int) -> int:
    return sum(
        game.first_player is None or game.second_player is None
        for match in event.matches
        if match.round == round_no
        for game in match.boards
    )


@dataclasses.dataclass(frozen=True)
class RoundRobinCase:
    """A team round robin (C.05 Annex 1 tables, ``formats/teams/berger.py``), single or
    double, played with the generator's board results (board forfeits and whole matches
    forfeited included: a round robin counts them as played, C.07 art. 16 does not apply)."""

    teams: int
    boards: int
    double: bool
    seed: int

    @property
    def id(self) -> str:
        kind = "double" if self.double else "single"
        return f"rr-{self.teams}t-{self.boards}b-{kind}-seed{self.seed}"


def round_robin_cases(count: int, seed: int) -> list[RoundRobinCase]:
    rng = random.Random(seed)
    return [
        RoundRobinCase(
            rng.randint(3, 10), rng.randint(2, 6), rng.random() < 0.4, rng.randint(1, 10**6)
        )
        for _ in range(count)
    ]


def run_round_robin(oracle: TiebreakOracle, case: RoundRobinCase) -> Outcome:
    total = rounds_of(case.teams, case.double)
    generated = Case(
        teams=case.teams, boards=case.boards, rounds=total, seed=case.seed, forfeit_percentage=8
    )
    event = Event(generated, "w", [])
    event.history = {team: {} for team in range(1, case.teams + 1)}
    rng = random.Random(case.seed)
    system = r.DOUBLE_ROUND_ROBIN if case.double else r.ROUND_ROBIN
    outcome = Outcome()
    free: list[r.Bye] = []
    for round_no in range(1, total + 1):
        pairing = team_round_robin_round(case.teams, round_no, case.double)
        played = [(m.white, m.black, event._match_boards(rng)) for m in pairing.matches]
        event.record(round_no, played, None, {})
        free += [r.Bye(round_no, bye.team, r.ZERO_BYE) for bye in pairing.byes]
        plain = dataclasses.replace(records(event, round_no + 1), system=system)
        # gacrux reads a round with neither a match nor a bye without game points and stops
        # on a KeyError ('gpoints') in the GP-based Buchholz family, so the free round of an
        # odd field goes in the file as a zero-point bye; in a round robin that changes no
        # value (C.07 16 is for Swiss events), which our engine must agree with.
        recorded = dataclasses.replace(plain, byes=plain.byes + tuple(free))
        for codes in ROUND_ROBIN_LISTS:
            without = team_standings(plain, codes, after_round=round_no)
            assert without == team_standings(recorded, codes, after_round=round_no), codes
        trf = with_fide_rows(write_team_trf(recorded), recorded)
        compare_round(oracle, trf, round_no, outcome, round_robin=True)
        outcome.rounds += 1
    return outcome
