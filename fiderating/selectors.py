"""Reads of the rating report: the event as engine records (the crosstable of its published
rounds, each player's K set by hand and year of birth) and the report computed from them,
kept once per results version.

Queries: the foundation's crosstable (three), the players' K and years of birth (one), the
event's norm conditions (one). Nothing runs per player.

The report is kept in the process (the last :data:`KEEP` reports), not in Django's cache: a
1,000-player report holds some 50,000 small records, and pickling them for the cache cost more
than computing them (docs/performance.md, "The rating report"). A process computes each
results version of an event once.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from events.models import Event, Player
from events.records import Crosstable
from events.selectors import event_crosstable
from fiderating.models import EventKind, NormConditions
from fiderating.norms import NormEvent, event_norms
from fiderating.rating import STANDARD, PlayerRecord, Rules, event_ratings, rating_type_of
from fiderating.report import RatingReport, ReportRow

KEEP = 16
_KEPT: OrderedDict[tuple[object, ...], RatingReport] = OrderedDict()
_LOCK = threading.Lock()


def rating_rules(event: Event) -> Rules:
    return Rules.for_event(rating_type_of(event.time_control), event.start_date)


def norm_conditions(event: Event) -> NormConditions:
    """The event's norm conditions (an unsaved default when none were set)."""
    found = NormConditions.objects.filter(event=event).first()
    return found or NormConditions(event=event, kind=EventKind.ORDINARY)


def norm_event(event: Event, conditions: NormConditions | None = None) -> NormEvent:
    """What B.01 asks of the event: its kind, host federation, system and rounds."""
    conditions = conditions or norm_conditions(event)
    return NormEvent(
        kind=conditions.kind,
        host_federation=event.federation,
        round_robin=event.is_round_robin,
        double_round_robin=event.system == "double_round_robin",
        rounds=event.rounds,
        standard=rating_type_of(event.time_control) == STANDARD,
    )


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
    """The report as of the published rounds, computed once per results version (every write
    moves the version: a result, a K, the norm conditions, a player's details)."""
    key = (event.pk, event.slug, event.created_at, event.results_version)
    with _LOCK:
        report = _KEPT.get(key)
        if report is not None:
            _KEPT.move_to_end(key)
            return report
    report = _rating_report(event)
    with _LOCK:
        _KEPT[key] = report
        while len(_KEPT) > KEEP:
            _KEPT.popitem(last=False)
    return report


def _rating_report(event: Event) -> RatingReport:
    table = event_crosstable(event, published_only=True)
    rules = rating_rules(event)
    ratings = event_ratings(table, player_records(event), rules)
    norms = event_norms(table, norm_event(event))
    entrants = {e.start_no: e for e in table.entrants}
    rows = tuple(
        ReportRow(
            start_no=rated.start_no,
            name=entrants[rated.start_no].name,
            fide_id=entrants[rated.start_no].fide_id,
            title=entrants[rated.start_no].title,
            federation=entrants[rated.start_no].federation,
            rating=rated,
            norms=norms.get(rated.start_no, ()),
        )
        for rated in ratings
    )
    return RatingReport(event.slug, event.name, rules.rating_type, _after_round(table), rows)
