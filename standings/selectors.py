"""Standings of an event: one narrow load, the pure ranking engine, cached per results version.

The page, the ``standings`` command and the playoff and prize screens all come through
:func:`event_standings`, so they can never disagree.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.core.cache import cache

from events.errors import UserError
from events.models import Event, EventSystem, Player
from events.regulations import EffectiveRegulation
from events.selectors import event_crosstable, last_complete_round, regulation_of
from standings.output import StandingsTable
from standings.ranking import RankingError, rank
from standings.records import Crosstable
from standings.registry import TiebreakNotAllowed, UnknownTiebreak, parse_codes
from standings.tiebreaks import RatingTiebreakDropped, check_allowed

CACHE_SECONDS = 3600


def _options(event: Event, unrated_rating: int | None) -> dict[str, object]:
    options: dict[str, object] = {}
    previous = dict(
        Player.objects.filter(event=event, previous_rank__isnull=False).values_list(
            "start_no", "previous_rank"
        )
    )
    if previous:
        options["previous_rank"] = previous
    if unrated_rating is not None:
        options["unrated_rating"] = unrated_rating
    return options


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


def event_standings(
    event: Event,
    *,
    after_round: int | None = None,
    codes: Sequence[str] | None = None,
    edition: str | None = None,
    use_cache: bool = True,
) -> StandingsTable:
    """The standings after ``after_round`` (default: the last complete round).

    ``use_cache=False`` neither reads nor stores the cached table: for a process that exits
    right after (the ``standings`` command), whose local cache dies with it, pickling a
    2000-player table would only add 20 ms.

    Raises :class:`~events.errors.UserError` for a round out of range, an unknown code or a
    code the edition forbids, naming it.
    """
    regulation = regulation_of(event)
    if regulation.preset == "mso-2021-multi-player":  # tables of several players (seed 003)
        from standings.multiplayer_selectors import multi_standings

        if edition not in (None, "2024", "2026"):
            raise UserError(f"edition {edition!r}: use 2024 or 2026")
        return multi_standings(event, after_round=after_round, codes=codes)
    after = last_complete_round(event) if after_round is None else after_round
    if not 0 <= after <= event.rounds:
        raise UserError(f"after round {after}: the event has rounds 1–{event.rounds}")
    chosen = tuple(codes) if codes else regulation.tiebreaks
    chosen_edition = edition or regulation.edition
    if chosen_edition not in ("2024", "2026"):
        raise UserError(f"edition {chosen_edition!r}: use 2024 or 2026")
    key = (
        f"standings:{event.pk}:{event.results_version}:{after}:{','.join(chosen)}:{chosen_edition}"
    )
    table = cache.get(key) if use_cache else None
    if table is None:
        table = _compute(event, after, chosen, chosen_edition, regulation)
        if event.system == EventSystem.COHEN:
            from standings.cohen_selectors import cohen_final_table

            table = cohen_final_table(event, table)
        if use_cache:
            cache.set(key, table, CACHE_SECONDS)
    return table


def _compute(
    event: Event, after: int, codes: tuple[str, ...], edition: str, regulation: EffectiveRegulation
) -> StandingsTable:
    from events.regulations import RegulationError, validate_tiebreaks

    try:
        codes = validate_tiebreaks(list(codes), round_robin=event.is_round_robin, edition=edition)
    except RegulationError as exc:
        raise UserError(str(exc)) from exc
    crosstable = event_crosstable(event, rounds=after)
    options = _options(event, regulation.unrated_rating)
    codes, dropped, notes = _usable_codes(codes, crosstable, edition, options)
    try:
        rows = rank(
            crosstable,
            codes,
            edition=edition,
            procedure=regulation.procedure,
            options=options,
        )
    except (RankingError, UnknownTiebreak, TiebreakNotAllowed) as exc:
        raise UserError(str(exc)) from exc
    return StandingsTable(
        event=event.slug,
        after_round=after,
        tiebreaks=codes,
        rows=rows,
        edition=edition,
        rounds=event.rounds,
        dropped=dropped,
        notes=notes,
    )
