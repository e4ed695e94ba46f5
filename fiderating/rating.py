"""FIDE rating changes and performances (Handbook B.02) as a pure engine.

The text implemented is the FIDE Rating Regulations effective from 1 March 2024 (approved by
the FIDE Council on 15 December 2023) with the amendment of 8.3.1 in force since 1 October 2025,
and for rapid and blitz events the FIDE Rapid and Blitz Rating Regulations of the same date
(their 7.3.1 keeps the 400-point rule for everyone and, from 1 December 2024, leaves unrated a
game with a difference of 600 points or more when a player is rated above 2600). The sources
and their versions are in ``docs/fide-rating.md``.

What the engine decides for each player and game, clause by clause:

* **Which games are rated** (B.02 5.1, 8.2.2, 8.3.1): games played over the board (TRF codes
  ``1 = 0``). Forfeits and byes are unplayed games and are not counted; a game of under one
  move (TRF ``W D L``) is not rated, since both players must have made a move. A rated
  player's game counts only against a rated opponent; an unrated player's games against rated
  opponents count toward their first rating (8.2, 7.1.4); games between two unrated players
  count for nobody.
* **The rating difference D** (8.3.1): more than 400 points counts as 400, except for a player
  rated 2650 or above in a standard event from 1 October 2025, who uses the full difference.
  The exemption depends on the rating of the player whose change is computed: their opponent
  still sees the difference capped (FIDE's published calculations show it so).
* **The expected score PD** (8.1.2): FIDE's table with its two-decimal values, never the
  logistic formula; the table is :func:`standings.tiebreaks.expected_percent`, the one the
  tie-breaks use.
* **K** (8.3.3): set by the arbiter for the player (40, 20 or 10), else the rating list's K
  (FIDE's lists publish it beside each rating, 7.1.2), else the rules: 10 once
  the rating has reached 2400, 40 for a junior (until the end of the year of their 18th
  birthday) under 2300, 20 otherwise. B.02's 40 for a player's first 30 rated games needs the
  player's history, which the event does not hold: the director sets it by hand. When K times
  the rated games exceeds 700, K is the largest whole number that keeps it at 700 (8.3.3);
  only this event's games are known, so the rule is applied to them.
* **The change** (8.3.2): K x the sum of (score - PD), exact (:class:`decimal.Decimal`; every
  PD has two decimals, so the product is exact). 8.3.4 rounds the rating period's change,
  0.5 away from zero: :func:`period_change` does that for an event that is alone in its period,
  and the exact change is what the report carries.
* **Performance** (C.07 10.1-10.2, B.02 8.1.1): ARO and Ra + dp over the rated games, through
  :func:`standings.tiebreaks.performance_rating` (the tie-breaks' own function).
* **A first rating** (8.2, 7.1.4): Ru = Ra + dp, Ra the average of the rated opponents and two
  hypothetical opponents rated 1800 with whom the player drew, dp from 8.1.1 for the
  percentage score (rounded to a whole percent, 0.5 up, as B.01 1.4.9 says for the same table),
  Ru rounded to a whole number and at most 2200; published once it rests on 5 games against
  rated opponents (earlier events within 26 months count too) and is at least 1400; a zero
  score in a player's first event is disregarded (8.2.1).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from events.errors import UserError
from events.limits import rating_check
from events.records import Crosstable, Entrant, RoundResult
from standings.tiebreaks import (
    average_rating,
    expected_percent,
    percentage_score,
    performance_rating,
    rating_difference_for,
)

STANDARD, RAPID, BLITZ = "standard", "rapid", "blitz"
RATING_TYPES = (STANDARD, RAPID, BLITZ)

CAP = 400  # 8.3.1
CAP_EXEMPT_RATING = 2650  # 8.3.1 as amended
CAP_EXEMPT_FROM = dt.date(2025, 10, 1)
WIDE_GAP = 600  # Rapid and Blitz Rating Regulations 7.3.1
WIDE_GAP_ABOVE = 2600
WIDE_GAP_FROM = dt.date(2024, 12, 1)
K_MAX_PRODUCT = 700  # 8.3.3: K x n
K_LIMIT = 40  # the largest K B.02 gives
K_VALUES = (40, 20, 10)  # 8.3.3's K; the 700 rule's lower values are worked out, never set
HYPOTHETICAL_RATING = 1800  # 8.2.2
HYPOTHETICAL_GAMES = 2
INITIAL_MAX = 2200  # 8.2.3
RATING_FLOOR = 1400  # 7.1.4, 7.2.1
INITIAL_GAMES = 5  # 7.1.4

_SCORES = {"1": Decimal(1), "=": Decimal("0.5"), "0": Decimal(0)}
_HUNDRED = Decimal(100)

# Why an entry of the crosstable is no rated game, by TRF result code.
_UNPLAYED = {
    "+": "a forfeit: unplayed games are not rated (B.02 5.1)",
    "-": "a forfeit: unplayed games are not rated (B.02 5.1)",
    "W": "a game of under one move: not rated (B.02 5.1)",
    "D": "a game of under one move: not rated (B.02 5.1)",
    "L": "a game of under one move: not rated (B.02 5.1)",
    "U": "a pairing-allocated bye: no game",
    "F": "a full-point bye: no game",
    "H": "a half-point bye: no game",
    "Z": "no game",
}


def rating_type_of(time_control: str) -> str:
    """The rating list an event is rated in: standard for classical events, rapid for rapid
    and rapid & blitz events (their rapid games; the blitz games go to the blitz list), blitz
    for blitz events."""
    return {"classical": STANDARD, "blitz": BLITZ}.get(time_control, RAPID)


@dataclass(frozen=True, slots=True)
class Rules:
    """The clauses in force for an event: its rating type and the amendments by date."""

    rating_type: str = STANDARD
    cap_exempt: bool = True  # 8.3.1's 2650 exemption (standard, from 1 October 2025)
    wide_gap_unrated: bool = False  # R&B 7.3.1's 600-point rule (from 1 December 2024)
    year: int | None = None  # the event's year, for the juniors' K

    @classmethod
    def for_event(cls, rating_type: str, start_date: dt.date | None) -> Rules:
        if rating_type not in RATING_TYPES:
            raise UserError(f"rating type {rating_type!r}: standard, rapid or blitz")
        on = start_date or dt.date.max  # an undated event: the rules in force today
        return cls(
            rating_type=rating_type,
            cap_exempt=rating_type == STANDARD and on >= CAP_EXEMPT_FROM,
            wide_gap_unrated=rating_type != STANDARD and on >= WIDE_GAP_FROM,
            year=start_date.year if start_date else None,
        )


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    """What B.02 needs of a player beyond the crosstable: K set by hand (audited), the
    rating list's K, and the year of birth (a junior's K)."""

    start_no: int
    k_set: int | None = None
    k_listed: int | None = None
    birth_year: int | None = None


def k_check(k: int, where: str = "K") -> int:
    """A K the engine takes: a whole number from 1 to 40 (B.02 8.3.3 gives 40, 20 or 10; the
    rating lists before 2014 published 30, 25 and 15)."""
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= K_LIMIT:
        raise UserError(f"{where} {k}: K is a whole number from 1 to {K_LIMIT} (B.02 8.3.3)")
    return k


def k_set_check(k: int, where: str = "K") -> int:
    """A K the arbiter sets by hand: one of B.02 8.3.3's, 40, 20 or 10 (the 700 rule's lower
    values follow from the games, :func:`k_factor`)."""
    if isinstance(k, bool) or not isinstance(k, int) or k not in K_VALUES:
        raise UserError(f"{where} {k}: K is 40, 20 or 10 (B.02 8.3.3)")
    return k


K_SET, K_LISTED, K_RULES = "arbiter", "list", "rules"  # where a K comes from


@dataclass(frozen=True, slots=True)
class KFactor:
    value: int
    why: str  # in words, with the clause: "K 20 " + why
    source: str = K_RULES  # K_SET, K_LISTED or K_RULES


def k_factor(rating: int, record: PlayerRecord, *, year: int | None, games: int) -> KFactor:
    """K for a rated player (B.02 8.3.3), then the 700 rule for ``games`` rated games."""
    base = _k_base(rating, record, year)
    if games and base.value * games > K_MAX_PRODUCT:
        value = K_MAX_PRODUCT // games
        return KFactor(
            value,
            f"{base.why}: {base.value}, then {value}, since K x {games} games may not exceed "
            "700 (B.02 8.3.3)",
            base.source,
        )
    return base


def _k_base(rating: int, record: PlayerRecord, year: int | None) -> KFactor:
    """Where K comes from, worded to follow "K 20": "set by the arbiter", "from the rating
    list", "by B.02 8.3.3: …"."""
    if record.k_set is not None:
        return KFactor(k_check(record.k_set), "set by the arbiter", K_SET)
    if record.k_listed is not None:
        return KFactor(k_check(record.k_listed), "from the rating list", K_LISTED)
    if rating >= 2400:
        return KFactor(10, "by B.02 8.3.3: the rating has reached 2400", K_RULES)
    born = record.birth_year
    if born is not None and year is not None and year <= born + 18 and rating < 2300:
        return KFactor(
            40,
            "by B.02 8.3.3: a junior rated under 2300, to the end of the year they turn 18",
            K_RULES,
        )
    return KFactor(
        20,
        "by B.02 8.3.3: rated under 2400 (40 until 30 rated games: the arbiter sets it)",
        K_RULES,
    )


@dataclass(frozen=True, slots=True)
class Difference:
    """D as 8.3.1 counts it (own rating minus the opponent's) and the difference itself."""

    used: int
    actual: int

    @property
    def capped(self) -> bool:
        return self.used != self.actual


def rating_difference(own: int, opponent: int, rules: Rules) -> Difference:
    """D for the player rated ``own`` (B.02 8.3.1): capped at 400 either way, unless the
    player is rated 2650 or above and the exemption is in force."""
    actual = own - opponent
    if rules.cap_exempt and own >= CAP_EXEMPT_RATING:
        return Difference(actual, actual)
    return Difference(max(-CAP, min(CAP, actual)), actual)


def expected_score(difference: int) -> Decimal:
    """PD for a player ``difference`` points above (or below, negative) their opponent, from
    table 8.1.2 (two decimals)."""
    higher = expected_percent(abs(difference))
    return Decimal(higher if difference >= 0 else 100 - higher) / _HUNDRED


@dataclass(frozen=True, slots=True)
class RatedGame:
    """One rated game of a player, with every figure of its term (the "why")."""

    round: int
    opponent: int  # start number
    opponent_rating: int
    score: Decimal  # 1, 0.5 or 0
    difference: Difference
    expected: Decimal  # PD

    @property
    def delta(self) -> Decimal:
        """Delta R = score - PD (8.3.2 b)."""
        return self.score - self.expected


@dataclass(frozen=True, slots=True)
class NotRated:
    round: int
    opponent: int | None
    why: str


@dataclass(frozen=True, slots=True)
class InitialRating:
    """A first rating from this event's games against rated opponents (B.02 8.2, 7.1.4)."""

    games: int
    score: Decimal
    average: Fraction  # Ra with the two hypothetical 1800 opponents, exact
    percent: int  # the percentage score with the two draws, rounded
    rating: int | None  # Ru, rounded, at most 2200; None without a game
    missing: tuple[str, ...]  # what stands between these games and a published rating

    @property
    def published(self) -> bool:
        return self.rating is not None and not self.missing


@dataclass(frozen=True, slots=True)
class PlayerRating:
    """A player's rated games in one event and what they give."""

    start_no: int
    rating: int  # 0: unrated
    games: tuple[RatedGame, ...]
    not_rated: tuple[NotRated, ...]
    k: KFactor | None  # None for an unrated player
    initial: InitialRating | None  # for an unrated player only

    @property
    def score(self) -> Decimal:
        return sum((g.score for g in self.games), Decimal(0))

    @property
    def expected(self) -> Decimal | None:
        if not self.rating:
            return None
        return sum((g.expected for g in self.games), Decimal(0))

    @property
    def change(self) -> Decimal | None:
        """K x sum(score - PD) over the event (8.3.2 d), exact; None when unrated."""
        if self.k is None:
            return None
        return self.k.value * sum((g.delta for g in self.games), Decimal(0))

    @property
    def aro(self) -> int | None:
        ratings = [g.opponent_rating for g in self.games]
        return average_rating(ratings) if ratings else None

    @property
    def halves(self) -> int:
        return int(self.score * 2)

    @property
    def performance(self) -> int | None:
        return performance_rating([g.opponent_rating for g in self.games], self.halves)


def period_change(change: Decimal) -> int:
    """The rating period's change rounded to a whole number, 0.5 away from zero (8.3.4)."""
    return int(change.quantize(Decimal(1), rounding=ROUND_HALF_UP))


def initial_rating(opponents: Sequence[int], halves: int) -> InitialRating:
    """Ru from games against rated opponents rated ``opponents`` scoring ``halves`` half
    points (B.02 8.2.2-8.2.3), and what it still lacks to be published (7.1.4, 8.2.1)."""
    games = len(opponents)
    score = Decimal(halves) / 2
    total_games = games + HYPOTHETICAL_GAMES
    average = Fraction(sum(opponents) + HYPOTHETICAL_GAMES * HYPOTHETICAL_RATING, total_games)
    percent = percentage_score(halves + HYPOTHETICAL_GAMES, total_games)
    rating = None
    if games:
        ru = average + rating_difference_for(percent)
        rating = min(INITIAL_MAX, (2 * ru.numerator + ru.denominator) // (2 * ru.denominator))
    return InitialRating(
        games, score, average, percent, rating, _initial_missing(games, halves, rating)
    )


def _initial_missing(games: int, halves: int, rating: int | None) -> tuple[str, ...]:
    missing = []
    if games < INITIAL_GAMES:
        more = INITIAL_GAMES - games
        missing.append(
            f"{more} more game{'s' if more > 1 else ''} against rated opponents (a first rating "
            f"rests on at least {INITIAL_GAMES}; earlier events within 26 months count, B.02 7.1.4)"
        )
    if games and not halves:
        missing.append("a score above zero: a zero score in a first event is disregarded (8.2.1)")
    if rating is not None and rating < RATING_FLOOR:
        missing.append(f"a rating of at least {RATING_FLOOR} (7.1.4): these games give {rating}")
    return tuple(missing)


def _not_rated(result: RoundResult, own: int, opponent: int, rules: Rules) -> str | None:
    """Why a round of a player rated ``own`` (0: unrated) is no rated game, or None."""
    if result.opponent is None or result.code not in _SCORES:
        return _UNPLAYED.get(result.code, "no game")
    if result.time_control and rating_type_of(result.time_control) != rules.rating_type:
        return f"a {result.time_control} game: rated in its own list, not the {rules.rating_type}"
    if not opponent:
        if own:
            return "the opponent is unrated: a rating changes only against rated players (8.3.1)"
        return "both unrated: only games against rated opponents count (8.2.2)"
    gap = abs(own - opponent)
    if rules.wide_gap_unrated and own and gap >= WIDE_GAP and max(own, opponent) > WIDE_GAP_ABOVE:
        return (
            f"{gap} points apart with a player rated above {WIDE_GAP_ABOVE}: not rated "
            "(Rapid and Blitz Rating Regulations 7.3.1)"
        )
    return None


def player_rating(
    entrant: Entrant, ratings: Mapping[int, int], record: PlayerRecord, rules: Rules
) -> PlayerRating:
    """The player's rated games, K, change, performance and (unrated) first rating.

    ``ratings`` maps every start number to its rating (0: unrated)."""
    own = entrant.rating
    games: list[RatedGame] = []
    skipped: list[NotRated] = []
    for result in entrant.results:
        opponent = ratings.get(result.opponent, 0) if result.opponent is not None else 0
        why = _not_rated(result, own, opponent, rules)
        if why is not None:
            skipped.append(NotRated(result.round, result.opponent, why))
            continue
        assert result.opponent is not None  # _not_rated answers for every bye
        difference = rating_difference(own, opponent, rules) if own else Difference(0, 0)
        expected = expected_score(difference.used) if own else Decimal(0)
        score = _SCORES[result.code]
        games.append(
            RatedGame(result.round, result.opponent, opponent, score, difference, expected)
        )
    if not own:
        halves = int(sum((g.score for g in games), Decimal(0)) * 2)
        initial = initial_rating([g.opponent_rating for g in games], halves)
        return PlayerRating(entrant.start_no, 0, tuple(games), tuple(skipped), None, initial)
    k = k_factor(own, record, year=rules.year, games=len(games))
    return PlayerRating(entrant.start_no, own, tuple(games), tuple(skipped), k, None)


def event_ratings(
    crosstable: Crosstable, records: Mapping[int, PlayerRecord], rules: Rules
) -> tuple[PlayerRating, ...]:
    """Every player's :class:`PlayerRating`, in start-number order. Every rating and K is
    checked first; a bad one is refused in one line naming the player."""
    ratings = {}
    for entrant in crosstable.entrants:
        ratings[entrant.start_no] = rating_check(entrant.rating, f"player {entrant.start_no}")
        record = records.get(entrant.start_no)
        if record is not None:
            for k in (record.k_set, record.k_listed):
                if k is not None:
                    k_check(k, f"player {entrant.start_no}: K")
    return tuple(
        player_rating(
            entrant, ratings, records.get(entrant.start_no) or PlayerRecord(entrant.start_no), rules
        )
        for entrant in sorted(crosstable.entrants, key=lambda e: e.start_no)
    )


def decimal_text(value: Decimal) -> str:
    """An exact decimal as the JSON interfaces write it: no exponent, no trailing zeros
    (``15.6``, ``-3``, ``0``)."""
    text = format(value.normalize(), "f")
    return "0" if text in ("-0", "0") else text
