"""The set of upfloaters for the top-scoregroup (C.04.6 (2026) 3.5, criteria C3–C7).

3.5.1 every team with a lower score than the residents is a potential upfloater;
3.5.2 consider the sets that comply with [C4] (2.3.1, fewest upfloaters) and [C5] (2.3.2,
      their scores as high as possible, compared from the lowest up);
3.5.3 within a set the teams are sorted by descending score, then ascending TPN;
3.5.4 the sets are sorted by the lexicographic order of those TPN sequences
      (the Handbook's example: {2,6,1} < {2,6,3} < {2,6,5} < {2,8,1} < … < {6,8,5});
3.5.5 choose the first set that, with the top-scoregroup, produces a legal pairing and
      complies with [C6] (2.3.3) and [C7] (2.3.4).

Readings (gacrux's; docs/teams.md): a number of upfloaters, or a score profile, for which no
set is legal is no candidate at all, because [C3] (a legal pairing of everyone not yet paired)
outranks the quality criteria, so the search moves on to the next profile, then to two more
upfloaters. Among the legal sets of a profile, [C6] decides first, then the fewest
upfloaters that floated in the previous round ([C7]), then the order of 3.5.4: "complies as
much as possible", criteria in descending priority (2.3). [C6] holds when what is left of
the following scoregroup can be paired among itself, with one upfloater from below when it
is odd, and the rest of the field still completes ([C1], [C3], [C4]); it holds trivially
when nothing is left of that scoregroup.

The sets are generated one at a time, fewest floaters first and in the order of 3.5.4 within
that; the first legal set that meets [C6] ends the search.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

from draws.swiss.pairing.explain import points
from formats.teams.pairing.field import Field
from formats.teams.pairing.model import PairingImpossible

# A round whose brackets need more candidate sets tested than this is refused for the Chief
# Arbiter to decide (3.3.3), rather than left running: the number of sets grows
# combinatorially with the number of upfloaters.
MAX_SETS = 200_000


@dataclass(frozen=True)
class UpfloaterChoice:
    upfloaters: tuple[int, ...]  # positions, in the order of 3.5.3
    c6_met: bool
    floaters: int  # [C7]: upfloaters that floated in the previous round (0 in the last two)
    rest_mate: list[int]  # a perfect matching of the teams left after this bracket
    sets_tried: int


def score_profiles(
    available: Sequence[tuple[Fraction, int]], count: int
) -> Iterator[dict[Fraction, int]]:
    """[C5]: the ways to take ``count`` upfloaters from scoregroups with ``available`` teams
    ((score, teams), any order), best first: the scores sorted ascending and compared
    lexicographically, higher first ("maximise the scores (taken in ascending order)")."""
    levels = sorted(available)
    used = [0] * len(levels)

    def extend(lowest: int, need: int) -> Iterator[dict[Fraction, int]]:
        if need == 0:
            yield {levels[i][0]: used[i] for i in range(len(levels)) if used[i]}
            return
        for i in range(len(levels) - 1, lowest - 1, -1):
            left = sum(levels[j][1] - used[j] for j in range(i, len(levels)))
            if used[i] >= levels[i][1] or left < need:
                continue
            used[i] += 1
            yield from extend(i, need - 1)
            used[i] -= 1

    yield from extend(0, count)


def upfloater_sets(
    groups: Sequence[Sequence[int]],
    counts: Sequence[int],
    floated: Sequence[bool],
    floaters: int | None = None,
) -> Iterator[tuple[int, ...]]:
    """The sets taking ``counts[i]`` teams from ``groups[i]`` (scoregroups by descending
    score, each in TPN order), in the order of 3.5.3 and 3.5.4; with ``floaters`` given, only
    the sets with exactly that many teams that floated in the previous round ([C7])."""
    most = [0] * (len(groups) + 1)
    least = [0] * (len(groups) + 1)
    for i in range(len(groups) - 1, -1, -1):
        can_float = sum(floated[v] for v in groups[i])
        most[i] = most[i + 1] + min(counts[i], can_float)
        least[i] = least[i + 1] + max(0, counts[i] - (len(groups[i]) - can_float))

    def extend(i: int, budget: int | None) -> Iterator[tuple[int, ...]]:
        if i == len(groups):
            yield ()
            return
        for chosen in combinations(groups[i], counts[i]):
            left = None
            if budget is not None:
                left = budget - sum(floated[v] for v in chosen)
                if not least[i + 1] <= left <= most[i + 1]:
                    continue
            for rest in extend(i + 1, left):
                yield chosen + rest

    yield from extend(0, floaters)


class _Search:
    """The legal sets of one bracket and the criteria [C6] and [C7] on them."""

    def __init__(
        self, field: Field, residents: list[int], remaining: list[int], base_mate: list[int]
    ) -> None:
        self.field = field
        self.residents = residents
        self.remaining = remaining
        self.base_mate = base_mate
        self.score = field.score(residents[0])
        self.following = field.following_score(self.score)
        self.floated = [team.floated and not field.last_two_rounds for team in field.teams]
        self.tried = 0

    def lower(self) -> list[int]:
        return [v for v in self.remaining if self.field.score(v) < self.score]

    def best_set(self, profile: dict[Fraction, int]) -> UpfloaterChoice | None:
        """3.5.5 within one score profile: [C6], then [C7], then the order of 3.5.4."""
        scores = sorted(profile, reverse=True)
        lower = self.lower()
        groups = [[v for v in lower if self.field.score(v) == score] for score in scores]
        counts = [profile[score] for score in scores]
        most = sum(counts)
        classes: list[int | None] = [None] if self.field.last_two_rounds else list(range(most + 1))
        first_legal: UpfloaterChoice | None = None
        for floaters in classes:
            for upfloaters in upfloater_sets(groups, counts, self.floated, floaters):
                choice = self._legal(upfloaters, floaters or 0)
                if choice is None:
                    continue
                if choice.c6_met:
                    return choice
                first_legal = first_legal or choice
        return first_legal

    def _legal(self, upfloaters: tuple[int, ...], floaters: int) -> UpfloaterChoice | None:
        self.tried += 1
        if self.tried > MAX_SETS:
            raise PairingImpossible(
                f"the scoregroup of {points(self.score)} points needs more than {MAX_SETS} sets of "
                "upfloaters tested; the Chief Arbiter decides (C.04.6 3.3.3)"
            )
        oracle = self.field.oracle
        bracket = sorted((*self.residents, *upfloaters))
        if oracle.perfect(bracket) is None:
            return None
        rest_mate = oracle.perfect_without(self.base_mate, self.remaining, bracket)
        if rest_mate is None:  # [C3]
            return None
        taken = set(bracket)
        rest = [v for v in self.remaining if v not in taken]
        return UpfloaterChoice(
            upfloaters=upfloaters,
            c6_met=self._c6_met(rest, rest_mate),
            floaters=floaters,
            rest_mate=rest_mate,
            sets_tried=self.tried,
        )

    def _c6_met(self, rest: list[int], rest_mate: list[int]) -> bool:
        """[C6]: the following scoregroup can still be paired with the fewest upfloaters."""
        if self.following is None:
            return True
        oracle, field = self.field.oracle, self.field
        group = [v for v in rest if field.score(v) == self.following]
        if not group:
            return True
        if len(group) % 2 == 0:
            return (
                oracle.perfect(group) is not None
                and oracle.perfect_without(rest_mate, rest, group) is not None
            )
        for upfloater in (v for v in rest if field.score(v) < self.following):
            bracket = [*group, upfloater]
            if (
                oracle.perfect(bracket) is not None
                and oracle.perfect_without(rest_mate, rest, bracket) is not None
            ):
                return True
        return False


def select_upfloaters(
    field: Field, residents: list[int], remaining: list[int], base_mate: list[int]
) -> UpfloaterChoice:
    """3.5: the upfloaters of the bracket of ``residents`` (the top-scoregroup among the
    ``remaining`` teams, of which ``base_mate`` is a perfect matching)."""
    search = _Search(field, residents, remaining, base_mate)
    lower = search.lower()
    available: dict[Fraction, int] = {}
    for v in lower:
        available[field.score(v)] = available.get(field.score(v), 0) + 1
    for count in range(len(residents) % 2, len(lower) + 1, 2):  # [C4]
        for profile in score_profiles(list(available.items()), count):  # [C5]
            choice = search.best_set(profile)
            if choice is not None:
                return choice
    raise PairingImpossible(
        f"no legal pairing: the teams with {points(search.score)} points cannot be paired with any "
        "set of upfloaters (C.04.6 3.5, 3.3.3)"
    )
