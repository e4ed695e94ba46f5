"""Seeded random tournaments for differential tests (Swiss and round robin).

``generate_swiss(seed)`` pairs each round by score groups without repeats where it can, with
requested half-, zero- and full-point byes, pairing-allocated byes, forfeits, double forfeits,
games of under one move (W/D/L), withdrawals and unrated players. ``generate_round_robin``
follows a circle-method schedule (single or double), with the free round of an odd field,
forfeits, double forfeits and withdrawals (a withdrawn player's remaining games are forfeited).
Every pairing is mutual and every pair of results belongs to one game, so the output is valid
TRF and FIDE's calculator reads it.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass, field
from fractions import Fraction

from events.records import Crosstable, Entrant, RoundResult, Scoring

DATE_2024 = dt.date(2024, 8, 1)
DATE_2026 = dt.date(2026, 3, 1)
_SCORING = Scoring()
_GAME_RESULTS = (("1", "0"), ("=", "="), ("0", "1"))
_QUICK_RESULTS = (("W", "L"), ("D", "D"), ("L", "W"))
_LARGE_RESULTS = (("1", "0"), ("=", "="), ("0", "1"))


@dataclass
class _Player:
    start_no: int
    rating: int
    results: dict[int, RoundResult] = field(default_factory=dict)
    withdrawn_after: int | None = None
    had_bye: bool = False

    def points(self) -> Fraction:
        return sum((_SCORING.points(r) for r in self.results.values()), Fraction(0))


@dataclass(frozen=True, slots=True)
class Chances:
    """Probabilities of the irregular events, per player and round (or per game)."""

    half_bye: float = 0.05
    zero_bye: float = 0.03
    full_bye: float = 0.02
    forfeit: float = 0.06
    double_forfeit: float = 0.02
    quick_game: float = 0.03
    withdrawal: float = 0.03
    unrated: float = 0.1


def _players(rng: random.Random, count: int, chances: Chances) -> list[_Player]:
    players = []
    for start_no in range(1, count + 1):
        rating = 0 if rng.random() < chances.unrated else rng.randint(1000, 2700)
        players.append(_Player(start_no, rating))
    return players


def _play(rng: random.Random, round_no: int, white: _Player, black: _Player, c: Chances) -> None:
    roll = rng.random()
    if roll < c.double_forfeit:
        codes = ("-", "-")
    elif roll < c.double_forfeit + c.forfeit:
        codes = rng.choice((("+", "-"), ("-", "+")))
    elif roll < c.double_forfeit + c.forfeit + c.quick_game:
        codes = rng.choice(_QUICK_RESULTS)
    else:
        codes = rng.choices(_GAME_RESULTS, weights=(4, 3, 4))[0]
    white.results[round_no] = RoundResult(round_no, black.start_no, "w", codes[0])
    black.results[round_no] = RoundResult(round_no, white.start_no, "b", codes[1])


def _bye(player: _Player, round_no: int, code: str) -> None:
    player.results[round_no] = RoundResult(round_no, None, "-", code)


def _pair_group(rng: random.Random, active: list[_Player]) -> list[tuple[_Player, _Player]] | None:
    """Pair top-down by score, avoiding rematches, with a little backtracking."""
    if not active:
        return []
    first, rest = active[0], active[1:]
    met = {r.opponent for r in first.results.values()}
    candidates = [p for p in rest if p.start_no not in met][:6]
    for candidate in candidates:
        remaining = [p for p in rest if p is not candidate]
        tail = _pair_group(rng, remaining)
        if tail is not None:
            return [(first, candidate), *tail]
    return None


def _swiss_round(rng: random.Random, round_no: int, players: list[_Player], c: Chances) -> None:
    active = []
    for player in players:
        if player.withdrawn_after is not None and round_no > player.withdrawn_after:
            _bye(player, round_no, "Z")  # rounds after a withdrawal are zero-point byes
            continue
        roll = rng.random()
        if roll < c.half_bye:
            _bye(player, round_no, "H")
        elif roll < c.half_bye + c.zero_bye:
            _bye(player, round_no, "Z")
        elif roll < c.half_bye + c.zero_bye + c.full_bye:
            _bye(player, round_no, "F")
        else:
            active.append(player)
    rng.shuffle(active)
    active.sort(key=lambda p: -p.points())
    if len(active) % 2:
        candidates = [p for p in reversed(active) if not p.had_bye] or list(reversed(active))
        lucky = candidates[0]
        active.remove(lucky)
        lucky.had_bye = True
        _bye(lucky, round_no, "U")
    pairs = _pair_group(rng, active) or list(zip(active[::2], active[1::2], strict=True))
    for a, b in pairs:
        white, black = (a, b) if rng.random() < 0.5 else (b, a)
        _play(rng, round_no, white, black, c)


def _withdrawals(rng: random.Random, players: list[_Player], rounds: int, c: Chances) -> None:
    for player in players:
        if rounds > 2 and rng.random() < c.withdrawal:
            player.withdrawn_after = rng.randint(1, rounds - 1)


def _crosstable(
    rng: random.Random, name: str, players: list[_Player], rounds: int, round_robin: bool
) -> Crosstable:
    start = DATE_2024 if rng.random() < 0.5 else DATE_2026
    entrants = tuple(
        Entrant(
            start_no=p.start_no,
            name=f"Player {p.start_no}",
            rating=p.rating,
            federation="NOR",
            results=tuple(p.results[r] for r in range(1, rounds + 1)),
        )
        for p in players
    )
    return Crosstable(
        name=name, rounds=rounds, entrants=entrants, start_date=start, round_robin=round_robin
    )


def generate_swiss(
    seed: int,
    *,
    players: int | None = None,
    rounds: int | None = None,
    chances: Chances | None = None,
) -> Crosstable:
    """A random Swiss: 6-40 players, 3-9 rounds unless given."""
    rng = random.Random(seed)
    chances = chances or Chances()
    count = players or rng.randint(6, 40)
    total = rounds or rng.randint(3, min(9, count - 1))
    field = _players(rng, count, chances)
    _withdrawals(rng, field, total, chances)
    for round_no in range(1, total + 1):
        _swiss_round(rng, round_no, field, chances)
    return _crosstable(rng, f"Generated Swiss {seed}", field, total, round_robin=False)


def berger_rounds(count: int, cycles: int = 1) -> list[list[tuple[int, int]]]:
    """Circle-method schedule for start numbers 1..count (a dummy count+1 for odd fields);
    the second cycle reverses colours."""
    size = count + count % 2
    ring = list(range(1, size + 1))
    schedule = []
    for round_index in range(size - 1):
        pairs = []
        for k in range(size // 2):
            a, b = ring[k], ring[size - 1 - k]
            pairs.append((a, b) if (round_index + k) % 2 == 0 else (b, a))
        schedule.append(pairs)
        ring = [ring[0], ring[-1], *ring[1:-1]]
    full = list(schedule)
    for _ in range(1, cycles):
        full += [[(b, a) for a, b in pairs] for pairs in schedule]
    return full


def _rr_game(rng: random.Random, round_no: int, white: _Player, black: _Player, c: Chances) -> None:
    gone = [
        p for p in (white, black) if p.withdrawn_after is not None and round_no > p.withdrawn_after
    ]
    if len(gone) == 2:
        white.results[round_no] = RoundResult(round_no, black.start_no, "w", "-")
        black.results[round_no] = RoundResult(round_no, white.start_no, "b", "-")
    elif gone:
        codes = ("-", "+") if gone[0] is white else ("+", "-")
        white.results[round_no] = RoundResult(round_no, black.start_no, "w", codes[0])
        black.results[round_no] = RoundResult(round_no, white.start_no, "b", codes[1])
    else:
        _play(rng, round_no, white, black, c)


def generate_round_robin(
    seed: int,
    *,
    players: int | None = None,
    cycles: int | None = None,
    chances: Chances | None = None,
) -> Crosstable:
    """A random round robin: 3-14 players, single or double."""
    rng = random.Random(seed)
    chances = chances or Chances()
    count = players or rng.randint(3, 14)
    cycle_count = cycles or (2 if rng.random() < 0.25 else 1)
    schedule = berger_rounds(count, cycle_count)
    field = _players(rng, count, chances)
    _withdrawals(rng, field, len(schedule), chances)
    free_code = rng.choice("ZZU")  # the free round: usually nothing, sometimes a point
    by_start = {p.start_no: p for p in field}
    for round_no, pairs in enumerate(schedule, start=1):
        for a, b in pairs:
            if a > count or b > count:
                _bye(by_start[min(a, b)], round_no, free_code)
            else:
                _rr_game(rng, round_no, by_start[a], by_start[b], chances)
    return _crosstable(rng, f"Generated round robin {seed}", field, len(schedule), True)


def generate_large_swiss(players: int, rounds: int, seed: int = 1) -> Crosstable:
    """A large Swiss-like event, fast to make at any size (the benchmarks' 2,000 and 3,000
    players): each round pairs neighbours in the score order, avoiding rematches where a later
    neighbour allows it; an odd field gives the last player a pairing bye. Deterministic."""
    rng = random.Random(seed)
    points = {n: Fraction(0) for n in range(1, players + 1)}
    met: dict[int, set[int]] = {n: set() for n in points}
    results: dict[int, list[RoundResult]] = {n: [] for n in points}
    for number in range(1, rounds + 1):
        order = sorted(points, key=lambda n: (-points[n], n))
        if len(order) % 2:
            bye = order.pop()
            results[bye].append(RoundResult(number, None, "-", "U"))
            points[bye] += 1
        while order:
            white = order.pop(0)
            partner = next((i for i, n in enumerate(order[:8]) if n not in met[white]), 0)
            black = order.pop(partner)
            code_w, code_b = rng.choice(_LARGE_RESULTS)
            results[white].append(RoundResult(number, black, "w", code_w))
            results[black].append(RoundResult(number, white, "b", code_b))
            met[white].add(black)
            met[black].add(white)
            points[white] += {"1": 1, "=": Fraction(1, 2), "0": 0}[code_w]
            points[black] += {"1": 1, "=": Fraction(1, 2), "0": 0}[code_b]
    entrants = tuple(
        Entrant(
            start_no=n,
            name=f"Player {n}",
            rating=1400 + (n * 37) % 1200,
            federation="NOR",
            results=tuple(results[n]),
        )
        for n in sorted(points)
    )
    return Crosstable(name=f"Bench {players}", rounds=rounds, entrants=entrants)


def generate(seed: int) -> Crosstable:
    """A Swiss or a round robin, chosen by the seed."""
    if random.Random(seed * 7919).random() < 0.4:
        return generate_round_robin(seed)
    return generate_swiss(seed)


def ranks_by_points_then_de(
    crosstable: Crosstable, edition: str, de_code: str = "DE"
) -> dict[int, int]:
    """Competition ranks by PTS, then DE applied recursively within each tied group (C.07
    Art. 6: a sub-group still tied starts DE again among its own members).

    A minimal stand-in for the ranking engine, used to test DE against published ranks and
    FIDE's calculator.
    """
    from standings import tiebreaks

    points = tiebreaks.compute(crosstable, "PTS", edition)
    by_points: dict[Fraction, list[int]] = {}
    for start_no, value in points.items():
        by_points.setdefault(value, []).append(start_no)
    ranks: dict[int, int] = {}
    placed = 0
    for value in sorted(by_points, reverse=True):
        for level in _de_levels(crosstable, edition, de_code, frozenset(by_points[value])):
            for start_no in level:
                ranks[start_no] = placed + 1
            placed += len(level)
    return ranks


def _de_levels(
    crosstable: Crosstable, edition: str, de_code: str, group: frozenset[int]
) -> list[frozenset[int]]:
    from standings import tiebreaks

    if len(group) == 1:
        return [group]
    values = tiebreaks.compute(crosstable, de_code, edition, group=group)
    levels: dict[object, set[int]] = {}
    for start_no, value in values.items():
        levels.setdefault(value, set()).add(start_no)
    if len(levels) == 1:
        return [group]
    ordered = [frozenset(levels[v]) for v in sorted(levels, reverse=True)]  # type: ignore[type-var]
    return [sub for level in ordered for sub in _de_levels(crosstable, edition, de_code, level)]
