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
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from events.errors import UserError
from events.records import Crosstable
from events.regulations import EffectiveRegulation, RegulationError
from standings import presets  # noqa: F401  (the core presets, for the direct path)
from standings.catalogue import validate_codes
from standings.ranking import RankingError, Standing, rank
from standings.registry import TiebreakNotAllowed, UnknownTiebreak, parse_codes
from standings.tiebreaks import RatingTiebreakDropped, check_allowed


@dataclass(frozen=True)
class StandingsTable:
    """An event's standings: the rows of the ranking engine and what produced them (the round,
    the codes, the edition; codes left out, with the reason in ``notes``). Every reader of
    standings gets one: the pages, the command, the playoffs and the prize sheet."""

    event: str
    after_round: int
    tiebreaks: tuple[str, ...]
    rows: tuple[Standing, ...]
    edition: str = "2024"
    rounds: int = 0
    dropped: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()


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
        codes = validate_codes(list(request.codes), facts.round_robin, request.edition)
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
