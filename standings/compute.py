"""An event's standings from plain rows. Pure: no Django.

Two readers share this module: the ORM selectors (:mod:`events.selectors`,
:mod:`standings.selectors`; the pages, ``call_command`` and the playoff and prize screens) and
the ``standings`` command's direct path (:mod:`standings.fastpath`), which reads the same rows
with plain SQL so that it need not start Django (docs/performance.md, "Standings (issue 3)").
Whatever reads the rows, this module turns them into the crosstable, checks the options and
ranks, so the two cannot disagree about anything but the rows themselves, and a test holds
those equal.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from events.errors import UserError
from events.records import Crosstable, Entrant, RoundResult, Scoring, round_result
from events.regulations import EffectiveRegulation, RegulationError, validate_tiebreaks
from standings.output import StandingsTable
from standings.ranking import RankingError, rank
from standings.registry import TiebreakNotAllowed, UnknownTiebreak, parse_codes
from standings.tiebreaks import RatingTiebreakDropped, check_allowed

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


@dataclass(frozen=True)
class EventFacts:
    """What the standings need to know of the event itself."""

    slug: str
    name: str
    rounds: int
    round_robin: bool
    start_date: dt.date | None
    regulation: EffectiveRegulation


class StandingsSource(Protocol):
    """The rows of one event, however they are read."""

    def last_complete_round(self) -> int: ...

    def crosstable(self, rounds: int) -> Crosstable: ...

    def previous_ranks(self) -> dict[int, int]: ...


@dataclass(frozen=True)
class Request:
    """The options after checking: the round, the codes and the edition."""

    after_round: int
    codes: tuple[str, ...]
    edition: str


def resolve(
    facts: EventFacts,
    source: StandingsSource,
    *,
    after_round: int | None,
    codes: Sequence[str] | None,
    edition: str | None,
) -> Request:
    """The options with the event's defaults filled in (the last complete round, the
    regulation's tie-breaks and edition).

    Raises :class:`UserError` for a round out of range or an unknown edition, naming it.
    """
    after = source.last_complete_round() if after_round is None else after_round
    if not 0 <= after <= facts.rounds:
        raise UserError(f"after round {after}: the event has rounds 1–{facts.rounds}")
    chosen = tuple(codes) if codes else facts.regulation.tiebreaks
    chosen_edition = edition or facts.regulation.edition
    if chosen_edition not in ("2024", "2026"):
        raise UserError(f"edition {chosen_edition!r}: use 2024 or 2026")
    return Request(after, chosen, chosen_edition)


def _usable_codes(
    codes: tuple[str, ...], crosstable: Crosstable, edition: str, options: dict[str, object]
) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """Drop rating tie-breaks when an unrated player is present (C.07; rules-notes
    "Counting"); say so in a note rather than failing or ranking on a made-up rating."""
    kept, dropped, notes = [], [], []
    for spec in parse_codes(list(codes)):
        try:
            check_allowed(
                spec,
                round_robin=crosstable.round_robin,
                edition=edition,
                crosstable=crosstable,
                options=options,
            )
        except RatingTiebreakDropped as exc:
            dropped.append(spec.code)
            notes.append(f"{spec.code} left out: {exc}")
        else:
            kept.append(spec.code)
    return tuple(kept), tuple(dropped), tuple(notes)


def compute_standings(
    facts: EventFacts, source: StandingsSource, request: Request
) -> StandingsTable:
    """The ranked table for a resolved request.

    Raises :class:`UserError` for an unknown code or one the edition forbids (C.07 Art. 15.2:
    no Buchholz family in a 2026 round robin), naming it.
    """
    regulation = facts.regulation
    try:
        codes = validate_tiebreaks(
            list(request.codes), round_robin=facts.round_robin, edition=request.edition
        )
    except RegulationError as exc:
        raise UserError(str(exc)) from exc
    crosstable = source.crosstable(request.after_round)
    options: dict[str, object] = {}
    previous = source.previous_ranks()
    if previous:
        options["previous_rank"] = previous
    if regulation.unrated_rating is not None:
        options["unrated_rating"] = regulation.unrated_rating
    codes, dropped, notes = _usable_codes(codes, crosstable, request.edition, options)
    try:
        rows = rank(
            crosstable,
            codes,
            edition=request.edition,
            procedure=regulation.procedure,
            options=options,
        )
    except (RankingError, UnknownTiebreak, TiebreakNotAllowed) as exc:
        raise UserError(str(exc)) from exc
    return StandingsTable(
        event=facts.slug,
        after_round=request.after_round,
        tiebreaks=codes,
        rows=rows,
        edition=request.edition,
        rounds=facts.rounds,
        dropped=dropped,
        notes=notes,
    )
