"""Reads of the rating report: the event as engine records (the crosstable of its published
rounds, each player's K set by hand and year of birth) and the report computed from them,
kept once per results version like a public page.

Queries: the foundation's crosstable (three), the players' K and years of birth (one), the
event's norm conditions (one). Nothing runs per player.
"""

from __future__ import annotations

from django.core.cache import cache

from events.models import Event, Player
from events.records import Crosstable
from events.selectors import event_crosstable
from fiderating.models import EventKind, NormConditions
from fiderating.rating import PlayerRecord, Rules, event_ratings, rating_type_of
from fiderating.report import RatingReport, ReportRow

REPORT_SECONDS = 600


def rating_rules(event: Event) -> Rules:
    return Rules.for_event(rating_type_of(event.time_control), event.start_date)


def norm_conditions(event: Event) -> NormConditions:
    """The event's norm conditions (an unsaved default when none were set)."""
    found = NormConditions.objects.filter(event=event).first()
    return found or NormConditions(event=event, kind=EventKind.ORDINARY)


def player_records(event: Event) -> dict[int, PlayerRecord]:
    """Each player's K set by hand and year of birth, in one query."""
    rows = Player.objects.filter(event=event).values_list("start_no", "birth_year", "fide_k__k")
    return {
        start_no: PlayerRecord(start_no, k_set=k, birth_year=birth_year)
        for start_no, birth_year, k in rows
    }


def _after_round(table: Crosstable) -> int:
    played = [
        r.round
        for e in table.entrants
        for r in e.results
        if r.opponent is not None or r.code != "Z"
    ]
    return max(played, default=0)


def rating_report(event: Event) -> RatingReport:
    """The report as of the published rounds, computed once per results version."""
    key = f"rating-report:{event.pk}:{event.results_version}"
    report = cache.get(key)
    if report is None:
        report = _rating_report(event)
        cache.set(key, report, REPORT_SECONDS)
    return report  # type: ignore[no-any-return]


def _rating_report(event: Event) -> RatingReport:
    table = event_crosstable(event, published_only=True)
    rules = rating_rules(event)
    ratings = event_ratings(table, player_records(event), rules)
    entrants = {e.start_no: e for e in table.entrants}
    rows = tuple(
        ReportRow(
            start_no=rated.start_no,
            name=entrants[rated.start_no].name,
            fide_id=entrants[rated.start_no].fide_id,
            title=entrants[rated.start_no].title,
            federation=entrants[rated.start_no].federation,
            rating=rated,
        )
        for rated in ratings
    )
    return RatingReport(event.slug, event.name, rules.rating_type, _after_round(table), rows)
