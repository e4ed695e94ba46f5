"""An event's crosstable and round progress from plain rows. Pure: no Django.

Two readers share this module: the ORM selectors (:func:`events.selectors.event_crosstable`) and
the ``standings`` command's direct path (:mod:`standings.fastpath`), which reads the same rows
with plain SQL so that it need not start Django (docs/performance.md, "Standings (issue 3)").
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from events.records import Crosstable, Entrant, RoundResult, Scoring, round_result

# Game result → (white's code, black's code) in TRF16 notation (rules-notes "TRF16").
RESULT_CODES: dict[str, tuple[str, str]] = {
    "1-0": ("1", "0"),
    "0-1": ("0", "1"),
    "1/2-1/2": ("=", "="),
    "+/-": ("+", "-"),
    "-/+": ("-", "+"),
    "-/-": ("-", "-"),
}
BYE_CODES = {"half": "H", "zero": "Z", "full": "F", "pairing": "U"}

# (id, start_no, name, rating, federation, fide_id, title, sex, birth_date), by start number.
PlayerRow = tuple[int, int, str, int, str, str, str, str, dt.date | None]
# (round number, white's id, black's id, result, time control), by round and board.
GameRow = tuple[int, int, int, str, str]
# (round number, start_no, kind).
ByeRow = tuple[int, int, str]


@dataclass(frozen=True)
class RoundProgress:
    number: int
    games: int
    results: int
    byes: int = 0
    published: bool = True  # a Swiss round under review is not (draws.swiss.services)

    @property
    def complete(self) -> bool:
        """Every game has a result; a round of byes only is complete too."""
        return self.games == self.results and (self.games > 0 or self.byes > 0)


def last_complete(progress: Iterable[RoundProgress]) -> int:
    """The last round of the unbroken run of complete rounds from round 1 (0 if none)."""
    complete = 0
    for entry in progress:
        if not entry.complete:
            break
        complete = entry.number
    return complete


def build_crosstable(
    *,
    name: str,
    rounds: int,
    start_date: dt.date | None,
    round_robin: bool,
    scoring: Scoring,
    players: Sequence[PlayerRow],
    games: Iterable[GameRow],
    byes: Iterable[ByeRow],
) -> Crosstable:
    """Engine records for rounds 1–``rounds``.

    A game without a result is left out: the player shows as absent (code Z), as is anyone
    with neither a game nor a bye in a round.
    """
    start_no_of = {player[0]: player[1] for player in players}
    # The records are frozen, so every absent player can share one record per round.
    absent = [RoundResult(r, None, "-", "Z") for r in range(1, rounds + 1)]
    results = {start_no: absent[:] for start_no in start_no_of.values()}
    for number, white_id, black_id, result, time_control in games:
        if not result:
            continue
        white, black = start_no_of[white_id], start_no_of[black_id]
        white_code, black_code = RESULT_CODES[result]
        results[white][number - 1] = round_result(number, black, "w", white_code, time_control)
        results[black][number - 1] = round_result(number, white, "b", black_code, time_control)
    for number, start_no, kind in byes:
        results[start_no][number - 1] = round_result(number, None, "-", BYE_CODES[kind])
    return Crosstable(
        name=name,
        rounds=rounds,
        entrants=tuple(
            Entrant(
                start_no=start_no,
                name=player_name,
                rating=rating,
                federation=federation,
                fide_id=fide_id,
                title=title,
                sex=sex,
                birth_date=birth_date,
                results=tuple(results[start_no]),
            )
            for _, start_no, player_name, rating, federation, fide_id, title, sex, birth_date in (
                players
            )
        ),
        start_date=start_date,
        round_robin=round_robin,
        scoring=scoring,
    )
