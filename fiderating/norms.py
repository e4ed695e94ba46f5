"""FIDE title norms (Handbook B.01, effective from 1 January 2024) as a pure engine.

For a player and the games played so far, each norm (GM, IM, WGM, WIM) is checked clause by
clause and what is missing is said in words. The clauses, and the product's reading where
the text leaves a choice (docs/fide-rating.md, "Title norms"):

* **Games** (1.4.1, 1.4.2): games played over the board against opponents of FIDE
  federations; forfeits and byes do not count (1.4.2 c), nor, in a round robin, games against
  an unrated opponent who scored nothing against rated ones (1.4.2 b). At least 9 games; 7 in
  a 7-, 8- or 9-round world or continental team or club championship and 8 in the World Cup
  (1.4.1 b, by the event's kind); in a 9-round event 8 games count as 9 when the ninth round
  was a forfeit win or a pairing-allocated bye (1.4.1 c). Each full point above the score the
  norm needs counts as one more game (1.4.1 d); an event of more than 13 rounds counts as 13
  games (1.7).
* **Later games and defeated opponents** (1.4.1 e, f): in an event without predetermined
  pairings (a Swiss) a norm reached after some round stays reached, later games being ignored;
  any event may leave out games against opponents the player defeated, provided the rest still
  meets every requirement. The engine tries the rounds so far from the first complete norm on
  and leaves out the lowest-rated defeated opponents first (which raises the average most); a
  round robin's norm counts every round, so before its last round it is not reached yet.
* **Federations** (1.4.3, 1.4.4): at least two federations other than the player's among the
  opponents, at most 3/5 of them from the player's federation and at most 2/3 from one
  federation (maxima rounded down); ``FID`` counts as no federation. Exempt, both 1.4.3 and
  1.4.4: the host federation's players in a national championship's final stage or a national
  team championship (1.4.3 a, b), every player of a zonal (1.4.3 c), and every player of a
  Swiss in which every round so far had at least 20 rated players from outside the host
  federation, from at least 3 federations, 10 of them GM, IM, WGM or WIM, counting players
  who missed at most one round besides pairing-allocated byes (1.4.3 d).
* **Titled opponents** (1.4.5): at least half of the opponents title-holders (GM, IM, WGM,
  WIM, FM, WFM; not CM or WCM); at least a third, and at least 3, holding the norm's title or
  a higher one (a GM for a GM norm; GM or IM for IM; GM, IM or WGM for WGM; any of the four
  for WIM); in a double round robin half as many different players (rounded up).
* **Ratings** (1.4.6, 1.4.7): the ratings of the event's list; an unrated opponent counts as
  1400; the lowest-rated opponent, and only that one, is raised to the norm's rating floor
  (GM 2200, IM 2050, WGM 2000, WIM 1850) when below it. The average is rounded half up.
* **Performance** (1.4.8, 1.4.9): Ra at least 2380 / 2230 / 2180 / 2030, a score of at least
  35 %, and Rp = Ra + dp at least 2600 / 2450 / 2400 / 2250, dp from the table for the
  percentage score rounded to a whole percent (0.5 up): the one implementation of C.07's TPR
  (:func:`standings.tiebreaks.performance_rating`).
* Women's norms are checked for women only (0.3.1); a player is not checked for a title they
  hold or one below it in the same list (open: GM, IM; women's: WGM, WIM, and a GM needs
  none).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from events.records import Crosstable, Entrant, RoundResult
from standings.tiebreaks import average_rating, percentage_score, performance_rating

GM, IM, WGM, WIM = "GM", "IM", "WGM", "WIM"
TITLEHOLDERS = frozenset({"GM", "IM", "WGM", "WIM", "FM", "WFM"})  # 1.4.5: not CM, WCM
NORM_TITLES = frozenset({GM, IM, WGM, WIM})
UNRATED = 1400  # 1.4.6 d
MIN_GAMES = 9
MIN_PERCENT = 35
MAX_COUNTED = 13  # 1.7
NO_FEDERATION = frozenset({"", "FID"})
_PLAYED = frozenset("1=0WDL")
_HALVES = {"1": 2, "W": 2, "=": 1, "D": 1, "0": 0, "L": 0}

ORDINARY = "ordinary"
NATIONAL_CHAMPIONSHIP = "national_championship"
NATIONAL_TEAM_CHAMPIONSHIP = "national_team_championship"
ZONAL = "zonal"
TEAM_CHAMPIONSHIP = "team_championship"
WORLD_CUP = "world_cup"
EVENT_KINDS = (
    ORDINARY,
    NATIONAL_CHAMPIONSHIP,
    NATIONAL_TEAM_CHAMPIONSHIP,
    ZONAL,
    TEAM_CHAMPIONSHIP,
    WORLD_CUP,
)


@dataclass(frozen=True, slots=True)
class Norm:
    title: str
    performance: int  # 1.4.8
    average: int  # 1.4.8 a
    floor: int  # 1.4.6 b
    opponents: frozenset[str]  # the title or a higher one (1.4.5 b-e)


NORMS = {
    GM: Norm(GM, 2600, 2380, 2200, frozenset({GM})),
    IM: Norm(IM, 2450, 2230, 2050, frozenset({GM, IM})),
    WGM: Norm(WGM, 2400, 2180, 2000, frozenset({GM, IM, WGM})),
    WIM: Norm(WIM, 2250, 2030, 1850, frozenset({GM, IM, WGM, WIM})),
}
# Titles a holder no longer needs a norm for (the title held and those below it).
_NOT_NEEDED = {
    GM: frozenset({GM, IM, WGM, WIM}),
    IM: frozenset({IM}),
    WGM: frozenset({WGM, WIM}),
    WIM: frozenset({WIM}),
}


@dataclass(frozen=True, slots=True)
class NormEvent:
    """What B.01 asks of the event itself."""

    kind: str = ORDINARY
    host_federation: str = ""  # record 032
    round_robin: bool = False
    double_round_robin: bool = False
    rounds: int = 9  # scheduled
    standard: bool = True  # B.01 0.5: norms are for standard chess


@dataclass(frozen=True, slots=True)
class NormGame:
    """A game the norm counts: the opponent as the certificate lists them."""

    round: int
    opponent: int
    name: str
    title: str
    federation: str
    rating: int  # the list's rating, 0 unrated
    halves: int  # the player's score in half points


@dataclass(frozen=True, slots=True)
class NormCheck:
    """One norm for one player: reached or not, what is missing, and the figures."""

    title: str
    achieved: bool
    missing: tuple[str, ...]
    games: tuple[NormGame, ...]
    average: int | None  # Ra, after the floor
    performance: int | None  # Rp
    counts_as: int  # games, for the title application (1.4.1 c, d; 1.7)
    notes: tuple[str, ...] = ()

    @property
    def halves(self) -> int:
        return sum(game.halves for game in self.games)


def titles_to_check(entrant: Entrant) -> tuple[str, ...]:
    """The norms worth checking for a player (women's norms for women only, B.01 0.3.1)."""
    wanted = (GM, IM, WGM, WIM) if entrant.sex == "w" else (GM, IM)
    held = _NOT_NEEDED.get(entrant.title.upper(), frozenset())
    return tuple(title for title in wanted if title not in held)


# -- The event: its exemptions --------------------------------------------------------------


def _missed(results: Sequence[RoundResult], upto: int) -> int:
    """Rounds a player missed (1.4.3 d: pairing-allocated byes and forfeit wins are not)."""
    return sum(1 for r in results[:upto] if r.code in "HZF-")


def big_swiss(table: Crosstable, event: NormEvent, upto: int) -> bool:
    """1.4.3 d: every round so far had at least 20 rated players from outside the host
    federation, from at least 3 federations, at least 10 of them GM, IM, WGM or WIM."""
    host = event.host_federation
    if event.round_robin or not host or upto < 1:
        return False
    foreign = [
        e
        for e in table.entrants
        if e.rating and e.federation not in NO_FEDERATION and e.federation != host
    ]
    return _foreigners_enough([e for e in foreign if _missed(e.results, upto) <= 1])


def _foreigners_enough(counted: Sequence[Entrant]) -> bool:
    """1.4.3 d's counts: at least 20 foreign rated players, from at least 3 federations, at
    least 10 of them GM, IM, WGM or WIM."""
    return (
        len(counted) >= 20
        and len({e.federation for e in counted}) >= 3
        and sum(1 for e in counted if e.title.upper() in NORM_TITLES) >= 10
    )


def federations_exempt(entrant: Entrant, event: NormEvent, swiss_exempt: bool) -> str:
    """Why the foreigner requirement (1.4.3, 1.4.4) does not apply to the player, or ""."""
    if event.kind == ZONAL:
        return "a zonal tournament: the foreigner requirement does not apply (1.4.3 c)"
    host = event.host_federation
    national = event.kind in (NATIONAL_CHAMPIONSHIP, NATIONAL_TEAM_CHAMPIONSHIP)
    if national and host and entrant.federation == host:
        clause = "1.4.3 a" if event.kind == NATIONAL_CHAMPIONSHIP else "1.4.3 b"
        return f"the host federation's championship: no foreigner requirement ({clause})"
    if swiss_exempt:
        return "a Swiss with 20 foreign rated players, 10 titled, each round (1.4.3 d)"
    return ""


def minimum_games(event: NormEvent) -> int:
    if event.kind == TEAM_CHAMPIONSHIP and 7 <= event.rounds <= 9:
        return 7
    if event.kind == WORLD_CUP:
        return 8
    return MIN_GAMES


# -- The games a norm counts -----------------------------------------------------------------


_LAST_INDEX: list[tuple[Crosstable, Mapping[int, Entrant]]] = []


def _index(table: Crosstable) -> Mapping[int, Entrant]:
    """The table's entrants by start number, built once per table (every player of a
    1,000-player event asks for it: once each would be quadratic)."""
    last = _LAST_INDEX[0] if _LAST_INDEX else None
    if last is not None and last[0] is table:
        return last[1]
    index = {e.start_no: e for e in table.entrants}
    _LAST_INDEX[:] = [(table, index)]
    return index


def _zero_against_rated(opponent: Entrant, by_no: Mapping[int, Entrant]) -> bool:
    """1.4.2 b: an unrated player who scored nothing against rated opponents."""
    # An opponent of theirs outside the table (the small tables of "what the next game
    # needs" hold the player's own opponents only) counts as rated.
    return not opponent.rating and not any(
        r.opponent
        and _HALVES.get(r.code, 0)
        and (r.opponent not in by_no or by_no[r.opponent].rating)
        for r in opponent.results
    )


def counted_games(
    table: Crosstable, entrant: Entrant, upto: int, event: NormEvent
) -> tuple[list[NormGame], list[str]]:
    """The games of rounds 1-``upto`` a norm counts, and why the others do not."""
    by_no = _index(table)
    games, left_out = [], []
    for result in entrant.results[:upto]:
        if result.opponent is None or result.code not in _PLAYED:
            if result.code in "+-" and result.opponent is not None:
                left_out.append(f"round {result.round}: a forfeit does not count (1.4.2 c)")
            continue
        opponent = by_no[result.opponent]
        if event.round_robin and _zero_against_rated(opponent, by_no):
            left_out.append(
                f"round {result.round}: an unrated opponent without a point against rated "
                "players does not count (1.4.2 b)"
            )
            continue
        games.append(
            NormGame(
                result.round,
                opponent.start_no,
                opponent.name,
                opponent.title.upper(),
                opponent.federation.upper(),
                opponent.rating,
                _HALVES[result.code],
            )
        )
    return games, left_out


# -- One norm on one set of games ------------------------------------------------------------


def norm_ratings(games: Sequence[NormGame], norm: Norm) -> list[int]:
    """The opponents' ratings for the norm (1.4.6): unrated as 1400, the lowest one raised to
    the floor when below it."""
    ratings = sorted(game.rating or UNRATED for game in games)
    if ratings and ratings[0] < norm.floor:
        ratings[0] = norm.floor
    return ratings


def norm_performance(games: Sequence[NormGame], title: str) -> int | None:
    """Rp of 1.4.8 for the norm ``title`` on these games (the floor and 1400 of 1.4.6)."""
    return performance_rating(norm_ratings(games, NORMS[title]), sum(g.halves for g in games))


def _halves_needed(ratings: Sequence[int], norm: Norm) -> int | None:
    """The least score (in half points) over these games that gives the performance and 35 %
    (both grow with the score: a bisection)."""

    def enough(halves: int) -> bool:
        return (
            percentage_score(halves, len(ratings)) >= MIN_PERCENT
            and (performance_rating(ratings, halves) or 0) >= norm.performance
        )

    low, high = -1, 2 * len(ratings)
    if not ratings or not enough(high):
        return None
    while high - low > 1:
        middle = (low + high) // 2
        if enough(middle):
            high = middle
        else:
            low = middle
    return high


def _points(halves: int) -> str:
    whole, half = divmod(halves, 2)
    return f"{whole}½" if half and whole else ("½" if half else str(whole))


def _performance_missing(games: Sequence[NormGame], norm: Norm) -> list[str]:
    ratings = norm_ratings(games, norm)
    halves = sum(g.halves for g in games)
    average = average_rating(ratings)
    performance = performance_rating(ratings, halves) or 0
    percent = percentage_score(halves, len(ratings))
    missing = []
    if average < norm.average:
        raised = f" (the lowest-rated raised to {norm.floor}, 1.4.6 c)"
        missing.append(
            f"an opponents' average of at least {norm.average} (1.4.8 a): {average}"
            + (raised if min(g.rating or UNRATED for g in games) < norm.floor else "")
        )
    if percent < MIN_PERCENT:
        missing.append(f"a score of at least {MIN_PERCENT} % (1.4.8 b): {percent} %")
    if performance < norm.performance:
        needed = _halves_needed(ratings, norm)
        more = (
            f"; {_points(needed)} of {len(ratings)} would give it"
            if needed is not None
            else "; no score against these opponents gives it"
        )
        missing.append(
            f"a performance of {norm.performance} (1.4.8): {performance} "
            f"({_points(halves)} of {len(ratings)}, Ra {average}){more}"
        )
    return missing


def _titles_missing(games: Sequence[NormGame], norm: Norm, event: NormEvent) -> list[str]:
    n = len(games)
    titled = sum(1 for g in games if g.title in TITLEHOLDERS)
    missing = []
    if 2 * titled < n:
        missing.append(
            f"at least {math.ceil(n / 2)} title-holders among the {n} opponents (1.4.5 a; CM and "
            f"WCM do not count): {titled}"
        )
    needed = max(3, math.ceil(n / 3))
    high = [g.opponent for g in games if g.title in norm.opponents]
    have = len(high)
    if event.double_round_robin:
        needed, have = math.ceil(needed / 2), len(set(high))
    if have < needed:
        names = "/".join(sorted(norm.opponents, key=["GM", "IM", "WGM", "WIM"].index))
        missing.append(f"at least {needed} {names} opponents (1.4.5): {have}")
    return missing


def _federations_missing(games: Sequence[NormGame], federation: str) -> list[str]:
    n = len(games)
    feds = Counter(g.federation for g in games if g.federation not in NO_FEDERATION)
    own = federation.upper()
    foreign = sorted(f for f in feds if f != own)
    missing = []
    if len(foreign) < 2:
        listed = f" ({', '.join(foreign)})" if foreign else ""
        missing.append(
            f"opponents from at least 2 federations other than {own or 'the player’s'} "
            f"(1.4.3): {len(foreign)}{listed}"
        )
    if own and feds[own] > 3 * n // 5:
        missing.append(
            f"at most {3 * n // 5} opponents from {own} (three fifths, 1.4.4): {feds[own]}"
        )
    top, count = feds.most_common(1)[0] if feds else ("", 0)
    if count > 2 * n // 3:
        missing.append(
            f"at most {2 * n // 3} opponents from one federation (two thirds, 1.4.4): "
            f"{count} from {top}"
        )
    return missing


@dataclass(frozen=True, slots=True)
class _Setting:
    """What is fixed for a player while the games under consideration change."""

    entrant: Entrant
    event: NormEvent
    exemption: str
    needed_games: int
    bonus_game: str  # 1.4.1 c, or ""


def _games_missing(n: int, counted: int, setting: _Setting) -> list[str]:
    """1.4.1: the games still missing (forfeits and byes do not count, 1.4.2 c)."""
    if counted >= setting.needed_games:
        return []
    more = setting.needed_games - counted
    return [
        f"{more} more game{'s' if more > 1 else ''}: {n} counted of at least "
        f"{setting.needed_games} (1.4.1; forfeits and byes do not count, 1.4.2 c)"
    ]


def _opponents_missing(games: Sequence[NormGame], norm: Norm, setting: _Setting) -> list[str]:
    """What the opponents lack: titles, federations (unless exempt), the performance."""
    if not games:
        return []
    missing = _titles_missing(games, norm, setting.event)
    if not setting.exemption:
        missing += _federations_missing(games, setting.entrant.federation)
    return missing + _performance_missing(games, norm)


def _check_notes(games: Sequence[NormGame], setting: _Setting, bonus_used: bool) -> tuple[str, ...]:
    unrated = sum(1 for g in games if not g.rating)
    unrated_note = f"unrated opponents count as {UNRATED} (1.4.6 d): {unrated}" if unrated else ""
    bonus = setting.bonus_game if bonus_used else ""
    return tuple(x for x in (setting.exemption, bonus, unrated_note) if x)


def check_games(games: Sequence[NormGame], norm: Norm, setting: _Setting) -> NormCheck:
    """Every requirement of ``norm`` on exactly these games."""
    n = len(games)
    bonus_used = bool(setting.bonus_game) and n == setting.needed_games - 1
    counted = n + int(bonus_used)
    missing = _games_missing(n, counted, setting) + _opponents_missing(games, norm, setting)
    ratings = norm_ratings(games, norm)
    halves = sum(g.halves for g in games)
    return NormCheck(
        norm.title,
        not missing and n > 0,
        tuple(missing),
        tuple(games),
        average_rating(ratings) if ratings else None,
        norm_performance(games, norm.title),
        _counts_as(counted, ratings, halves, norm, setting.event) if not missing else counted,
        _check_notes(games, setting, bonus_used),
    )


def _counts_as(games: int, ratings: list[int], halves: int, norm: Norm, event: NormEvent) -> int:
    """1.4.1 d: each full point above the score needed counts as one more game; 1.7: more
    than 13 rounds count as 13 games."""
    needed = _halves_needed(ratings, norm)
    extra = (halves - needed) // 2 if needed is not None else 0
    total = games + max(0, extra)
    return min(total, MAX_COUNTED) if event.rounds > MAX_COUNTED else total


def _bonus_game(entrant: Entrant, upto: int, event: NormEvent) -> str:
    """1.4.1 c: in a 9-round event, a forfeit win or pairing bye makes 8 games count as 9."""
    if event.rounds != 9 or upto != 9:
        return ""
    if any(r.code in "+U" for r in entrant.results[:upto]):
        return (
            "8 games count as 9: the missing game was a forfeit win or a pairing bye "
            "(1.4.1 c; once per title application)"
        )
    return ""


def _without_defeated(games: list[NormGame], most: int) -> Iterable[tuple[list[NormGame], str]]:
    """1.4.1 f: leave out up to ``most`` wins, the lowest-rated opponents first."""
    wins = sorted((g for g in games if g.halves == 2), key=lambda g: (g.rating or UNRATED, g.round))
    for count in range(1, min(most, len(wins)) + 1):
        dropped = {g.round for g in wins[:count]}
        names = ", ".join(f"round {g.round}" for g in wins[:count])
        yield (
            [g for g in games if g.round not in dropped],
            f"leaving out the wins of {names} (1.4.1 f)",
        )


def _candidates(
    counted: list[NormGame], played: int, event: NormEvent, fewest: int
) -> Iterable[tuple[list[NormGame], int, str]]:
    """The sets of games a norm may rest on, from the games ``counted`` after ``played``
    rounds: all of them, then (a Swiss) those of fewer rounds, each also without its
    lowest-rated defeated opponents; never fewer than ``fewest`` games (no norm rests on
    fewer)."""
    ends = [played] if event.round_robin else range(played, fewest - 1, -1)
    for upto in ends:
        games = [g for g in counted if g.round <= upto]
        if len(games) < fewest:
            continue
        label = "" if upto == played else f"counting rounds 1-{upto} (1.4.1 e)"
        yield games, upto, label
        for fewer, how in _without_defeated(games, len(games) - fewest):
            yield fewer, upto, "; ".join(x for x in (label, how) if x)


def _meets(games: Sequence[NormGame], norm: Norm, setting: _Setting, bonus: str) -> bool:
    """Whether these games meet every requirement: :func:`check_games` without the words,
    for trying the many sets of games 1.4.1 e and f allow."""
    n = len(games)
    if n + (1 if bonus and n == setting.needed_games - 1 else 0) < setting.needed_games:
        return False
    if _titles_missing(games, norm, setting.event):
        return False
    if not setting.exemption and _federations_missing(games, setting.entrant.federation):
        return False
    ratings = norm_ratings(games, norm)
    halves = sum(g.halves for g in games)
    return (
        average_rating(ratings) >= norm.average
        and percentage_score(halves, n) >= MIN_PERCENT
        and (performance_rating(ratings, halves) or 0) >= norm.performance
    )


def _could_be_titled(table: Crosstable, entrant: Entrant) -> bool:
    """A quick necessary condition of every norm: three opponents holding a norm title."""
    by_no = _index(table)
    return (
        sum(
            1
            for r in entrant.results
            if r.opponent and r.code in _PLAYED and by_no[r.opponent].title.upper() in NORM_TITLES
        )
        >= 3
    )


def player_norms(
    table: Crosstable, entrant: Entrant, event: NormEvent, *, played: int, swiss_exempt: bool
) -> tuple[NormCheck, ...]:
    """Each norm worth checking for the player after ``played`` rounds."""
    if not event.standard:
        return ()
    exemption = federations_exempt(entrant, event, swiss_exempt)
    setting = _Setting(
        entrant, event, exemption, minimum_games(event), _bonus_game(entrant, played, event)
    )
    games, left_out = counted_games(table, entrant, played, event)
    hopeful = _could_be_titled(table, entrant)
    checks = []
    for title in titles_to_check(entrant):
        norm = NORMS[title]
        full = check_games(games, norm, setting)
        if event.round_robin and played < event.rounds:
            check = _unfinished(full, played, event)
        else:
            found = _first_achieved(games, played, norm, setting) if hopeful else None
            check = found or full
        checks.append(replace(check, notes=(*check.notes, *left_out)))
    return tuple(checks)


def _unfinished(check: NormCheck, played: int, event: NormEvent) -> NormCheck:
    """A round robin before its last round: the rounds to come are part of the norm."""
    rest = (
        f"round {event.rounds}"
        if played + 1 == event.rounds
        else f"rounds {played + 1}-{event.rounds}"
    )
    line = f"{rest}: a round robin's norm counts every round (1.4.1 e)"
    return replace(check, achieved=False, missing=(*check.missing, line))


def _first_achieved(
    counted: list[NormGame], played: int, norm: Norm, setting: _Setting
) -> NormCheck | None:
    event = setting.event
    fewest = setting.needed_games - (1 if event.rounds == 9 else 0)  # 1.4.1 c
    for games, upto, how in _candidates(counted, played, event, max(1, fewest)):
        bonus = _bonus_game(setting.entrant, upto, event)
        if _meets(games, norm, setting, bonus):
            check = check_games(games, norm, replace(setting, bonus_game=bonus))
            return replace(check, notes=(*check.notes, how) if how else check.notes)
    return None


def played_rounds(table: Crosstable) -> int:
    """The last round with any result or bye (0: none)."""
    return max(
        (r.round for e in table.entrants for r in e.results if r.opponent or r.code != "Z"),
        default=0,
    )


def event_norms(table: Crosstable, event: NormEvent) -> dict[int, tuple[NormCheck, ...]]:
    """Every player's norms after the rounds played so far."""
    played = played_rounds(table)
    swiss_exempt = big_swiss(table, event, played)
    return {
        entrant.start_no: player_norms(
            table, entrant, event, played=played, swiss_exempt=swiss_exempt
        )
        for entrant in table.entrants
    }


# -- What the next game needs ----------------------------------------------------------------

_RESULT_WORDS = {"1": "a win", "=": "a draw", "0": "a loss"}
LOWEST = 1000  # the lowest rating tried for the next opponent


@dataclass(frozen=True, slots=True)
class NextRound:
    """What the next game needs for each norm not reached yet, in words."""

    round: int
    opponent: str  # "" when not paired yet
    needs: tuple[str, ...] = field(default=())


def _padded(
    results: Sequence[RoundResult], round_no: int, last: RoundResult
) -> tuple[RoundResult, ...]:
    """Rounds 1 to ``round_no``: the results before it, absences where there are none, and
    ``last`` in ``round_no``."""
    before = list(results[: round_no - 1])
    before += [RoundResult(r, None, "-", "Z") for r in range(len(before) + 1, round_no)]
    return (*before, last)


def _with_game(
    table: Crosstable, me: int, opponent: Entrant, round_no: int, code: str
) -> Crosstable:
    """The player ``me`` and their opponents (all a player's norms read), with one more game
    against ``opponent`` in ``round_no``: a small table, however large the event."""
    by_no = _index(table)
    player = by_no[me]
    theirs = {"1": "0", "=": "=", "0": "1"}[code]
    absent = RoundResult(round_no, None, "-", "Z")
    met = {r.opponent for r in player.results[: round_no - 1] if r.opponent} - {opponent.start_no}
    entrants = [
        replace(
            player,
            results=_padded(
                player.results, round_no, RoundResult(round_no, opponent.start_no, "w", code)
            ),
        ),
        replace(
            by_no.get(opponent.start_no, opponent),
            results=_padded(
                by_no[opponent.start_no].results if opponent.start_no in by_no else (),
                round_no,
                RoundResult(round_no, me, "b", theirs),
            ),
        ),
        *(
            replace(by_no[n], results=_padded(by_no[n].results, round_no, absent))
            for n in sorted(met)
        ),
    ]
    return replace(table, rounds=round_no, entrants=tuple(entrants))


@dataclass(frozen=True, slots=True)
class _Next:
    """The player, the round to come and the event, for the hypothetical games."""

    table: Crosstable
    entrant: Entrant
    round: int
    event: NormEvent
    swiss_exempt: bool  # 1.4.3 d as of the rounds played: one game more does not change it


def _result_gives(nxt: _Next, opponent: Entrant, title: str) -> list[str]:
    """The results of the next game that give the norm (the least first)."""
    good = []
    for code in ("0", "=", "1"):
        hypothetical = _with_game(nxt.table, nxt.entrant.start_no, opponent, nxt.round, code)
        me = next(e for e in hypothetical.entrants if e.start_no == nxt.entrant.start_no)
        checks = player_norms(
            hypothetical, me, nxt.event, played=nxt.round, swiss_exempt=nxt.swiss_exempt
        )
        if any(c.title == title and c.achieved for c in checks):
            good.append(code)
    return good


def _lowest_rating(nxt: _Next, title: str, code: str) -> int | None:
    """The lowest rating of a GM opponent of a federation not met yet with whom ``code`` in
    the next round gives the norm (the best case for titles and federations), or None."""
    federation = "ZZZ" if nxt.entrant.federation.upper() != "ZZZ" else "ZZY"
    low, high = LOWEST, 3000
    opponent = Entrant(0, "the next opponent", high, federation=federation, title=GM)
    if code not in _result_gives(nxt, opponent, title):
        return None
    if code in _result_gives(nxt, replace(opponent, rating=low), title):
        return low
    while high - low > 1:
        middle = (low + high) // 2
        if code in _result_gives(nxt, replace(opponent, rating=middle), title):
            high = middle
        else:
            low = middle
    return high


def next_round_needs(
    table: Crosstable,
    start_no: int,
    event: NormEvent,
    *,
    round_no: int,
    opponent: Entrant | None,
    checks: Sequence[NormCheck],
) -> NextRound:
    """What the game of ``round_no`` must bring for each norm not reached yet: against the
    paired ``opponent``, which results give it; not paired yet, the lowest opponent rating
    with which a win or a draw would (with a GM opponent of another federation)."""
    entrant = next(e for e in table.entrants if e.start_no == start_no)
    nxt = _Next(table, entrant, round_no, event, big_swiss(table, event, round_no - 1))
    needs = [_need(nxt, opponent, check.title) for check in checks if not check.achieved]
    name = (
        f"{opponent.start_no}. {opponent.name} ({opponent.rating or 'unrated'})" if opponent else ""
    )
    return NextRound(round_no, name, tuple(needs))


def _need(nxt: _Next, opponent: Entrant | None, title: str) -> str:
    round_no = nxt.round
    last = round_no == nxt.event.rounds
    if opponent is not None:
        good = _result_gives(nxt, opponent, title)
        if not good:
            tail = "" if last else ": later rounds may still bring it"
            return f"{title} norm: no result of round {round_no} gives it{tail}"
        least = _RESULT_WORDS[good[0]]
        return f"{title} norm: {least} in round {round_no} gives it" + (
            "" if good[0] == "1" else " (or better)"
        )
    parts = []
    for code in ("=", "1"):
        rating = _lowest_rating(nxt, title, code)
        if rating == LOWEST:
            parts.append(f"{_RESULT_WORDS[code]} against any opponent")
        elif rating is not None:
            parts.append(f"{_RESULT_WORDS[code]} against an opponent rated {rating} or more")
    if not parts:
        tail = "" if last else "; later rounds may still bring it"
        return f"{title} norm: out of reach in round {round_no}{tail}"
    return (
        f"{title} norm: {' or '.join(parts)} in round {round_no} would give it (if the "
        "opponent's title and federation also fit)"
    )
