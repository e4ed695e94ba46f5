"""Reads of the rating report: the event as engine records (the crosstable of its published
rounds, each player's K set by hand and year of birth) and the report computed from them,
kept once per results version.

Queries: the foundation's crosstable (three), the players' K and years of birth (one), the
event's norm conditions (one). Nothing runs per player.

The report is kept in the process (the last :data:`KEEP` of them), not in Django's cache: a
1,000-player report holds some 50,000 small records, and pickling them for the cache cost more
than computing them (docs/performance.md, "The rating report"). A process computes each
results version of an event once.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from django.db.models import Q

from events.crosstable import last_complete
from events.errors import UserError
from events.models import Event, EventSystem, Game, Player, Round
from events.records import Crosstable, Entrant
from events.selectors import event_crosstable, rounds_progress
from events.services import records_of
from fiderating.certificate import Certificate, CertificateEvent
from fiderating.models import EventKind, NormConditions, PlayerK
from fiderating.norms import NORMS, NextRound, NormCheck, NormEvent, event_norms, next_round_needs
from fiderating.rating import STANDARD, PlayerRecord, Rules, event_ratings, rating_type_of
from fiderating.report import RatingReport, ReportRecords, ReportRow, report_missing

KEEP = 32
_KEPT: OrderedDict[tuple[object, ...], object] = OrderedDict()
_LOCK = threading.Lock()
T = TypeVar("T")


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
    """Each player's K set by hand, the rating list's K and year of birth, in one query."""
    rows = Player.objects.filter(event=event).values_list(
        "start_no", "birth_year", "fide_k__k", "k_listed"
    )
    return {
        start_no: PlayerRecord(start_no, k_set=k, k_listed=listed, birth_year=birth_year)
        for start_no, birth_year, k, listed in rows
    }


def _after_round(table: Crosstable) -> int:
    played = [
        r.round
        for e in table.entrants
        for r in e.results
        if r.opponent is not None or r.code != "Z"
    ]
    return max(played, default=0)


def _kept(key: tuple[object, ...], compute: Callable[[], T]) -> T:
    """``compute()`` once per key, the last :data:`KEEP` kept in the process."""
    with _LOCK:
        if key in _KEPT:
            _KEPT.move_to_end(key)
            return _KEPT[key]  # type: ignore[no-any-return]
    value = compute()
    with _LOCK:
        _KEPT[key] = value
        while len(_KEPT) > KEEP:
            _KEPT.popitem(last=False)
    return value


def _version(event: Event) -> tuple[object, ...]:
    return (event.pk, event.slug, event.created_at, event.results_version)


def rating_report(event: Event, *, rounds: int | None = None) -> RatingReport:
    """The report as of the published rounds (rounds 1-``rounds`` when given: the standings
    of an earlier round), computed once per results version (every write moves the version: a
    result, a K, the norm conditions, a player's details)."""
    return _kept(("report", *_version(event), rounds), lambda: _rating_report(event, rounds))


def standings_columns(event: Event) -> bool:
    """Whether the director shows the rating columns in the standings (one query per results
    version: the standings page counts its queries)."""
    return _kept(
        ("columns", *_version(event)),
        lambda: NormConditions.objects.filter(event=event, standings_columns=True).exists(),
    )


def _rating_report(event: Event, rounds: int | None = None) -> RatingReport:
    table = event_crosstable(event, rounds=rounds, published_only=True)
    rules = rating_rules(event)
    ratings = event_ratings(table, player_records(event), rules)
    conditions = norm_event(event)
    norms = event_norms(table, conditions)
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
    return RatingReport(
        event.slug,
        event.name,
        rules.rating_type,
        _after_round(table),
        rows,
        table,
        conditions,
        report_missing(report_records(event, table)),
    )


def report_records(event: Event, table: Crosstable) -> ReportRecords:
    """The tournament records of the event's TRF and its players' FIDE ids (one query: the
    rounds' progress)."""
    records = records_of(event)
    return ReportRecords(
        name=event.name,
        city=event.site,
        federation=records.federation,
        start=event.start_date,
        end=records.end_date,
        chief_arbiter=records.chief_arbiter,
        deputy_arbiters=records.deputy_arbiters,
        rate_of_play=records.rate_of_play,
        round_dates=records.round_dates,
        rounds=event.rounds,
        complete_rounds=last_complete(rounds_progress(event)),
        without_fide_id=tuple(e.start_no for e in table.entrants if e.fide_id.strip() in ("", "0")),
    )


def next_game(event: Event, start_no: int) -> tuple[int, Entrant | None] | None:
    """The player's next game: its round and the opponent when paired and published without a
    result yet (None: not paired yet); None when the player has no round to come."""
    pending = (
        Game.objects.filter(
            Q(white__start_no=start_no) | Q(black__start_no=start_no),
            round__event=event,
            round__published=True,
            result="",
        )
        .select_related("white", "black", "round")
        .order_by("round__number")
        .first()
    )
    if pending is not None:
        other = pending.black if pending.white.start_no == start_no else pending.white
        opponent = Entrant(
            other.start_no, other.name, other.rating, other.federation, title=other.title
        )
        return pending.round.number, opponent
    played = (
        Round.objects.filter(event=event, published=True, games__isnull=False)
        .order_by("-number")
        .values_list("number", flat=True)
        .first()
    ) or 0
    if played >= event.rounds:
        return None
    return played + 1, None


def player_next_round(event: Event, report: RatingReport, start_no: int) -> NextRound | None:
    """What the player's next game must bring for each norm not reached (B.01), or None when
    there is no round to come, no norm to check or nothing left to reach."""
    row = report.row(start_no)
    coming = next_game(event, start_no)
    if row is None or coming is None or report.table is None or report.norm_event is None:
        return None
    if not row.norms or all(norm.achieved for norm in row.norms):
        return None
    round_no, opponent = coming
    return next_round_needs(
        report.table,
        start_no,
        report.norm_event,
        round_no=round_no,
        opponent=opponent,
        checks=row.norms,
    )


def ks_set(event: Event) -> dict[int, int]:
    """The K set by hand, by start number."""
    return dict(PlayerK.objects.filter(player__event=event).values_list("player__start_no", "k"))


NEAR = 150  # points below a norm's performance that still count as near it
WATCHED = 30  # players the norm watch works out the next game for


@dataclass(frozen=True)
class Watched:
    """A player on the director's norm watch: the norms reached (certificates) and, for
    those near, what the next game needs."""

    row: ReportRow
    reached: tuple[NormCheck, ...]
    near: tuple[NormCheck, ...]
    next: NextRound | None


def is_near(norm: NormCheck) -> bool:
    """Not reached, but the performance so far is within :data:`NEAR` of it."""
    return (
        not norm.achieved
        and norm.performance is not None
        and norm.performance >= NORMS[norm.title].performance - NEAR
        and len(norm.games) >= 3
    )


def norm_watch(event: Event, report: RatingReport) -> list[Watched]:
    """Players with a norm reached, then those near one (by their best performance), with
    what their next game needs; at most :data:`WATCHED` of the latter."""
    reached = [row for row in report.rows if any(n.achieved for n in row.norms)]
    return [
        Watched(
            row,
            tuple(n for n in row.norms if n.achieved),
            tuple(n for n in row.norms if is_near(n)),
            player_next_round(event, report, row.start_no),
        )
        for row in [*reached, *_nearest(report, reached)]
    ]


def _nearest(report: RatingReport, reached: Sequence[ReportRow]) -> list[ReportRow]:
    """The players near a norm who reached none, by their best performance, at most
    :data:`WATCHED` of them."""
    near = (row for row in report.rows if row not in reached and any(is_near(n) for n in row.norms))
    return sorted(near, key=lambda row: -max(n.performance or 0 for n in row.norms))[:WATCHED]


class NoNorm(UserError):
    """The player has not reached that norm in this event (the certificate's page: 404)."""


def certificate_of(event: Event, report: RatingReport, start_no: int, title: str) -> Certificate:
    """The certificate of a norm the player reached; refused in one line otherwise, or while
    the event's records name no chief arbiter to sign it (B.01 1.8)."""
    row = report.row(start_no)
    norm = next((n for n in row.norms if n.title == title), None) if row else None
    if row is None or norm is None or not norm.achieved:
        raise NoNorm(f"player {start_no} has reached no {title} norm in this event")
    if not event.chief_arbiter.strip():
        raise UserError(
            "the event's records name no chief arbiter to sign the certificate: set one on "
            "the event's settings page (record 102)"
        )
    system = dict(EventSystem.choices).get(event.system, event.system)
    players = Player.objects.filter(event=event).count()
    return Certificate(
        event=CertificateEvent(
            name=event.name,
            city=event.site,
            federation=event.federation,
            start=event.start_date,
            end=event.end_date,
            system=str(system),
            rounds=event.rounds,
            players=players,
            rate_of_play=event.rate_of_play,
            chief_arbiter=event.chief_arbiter,
        ),
        name=row.name,
        fide_id=row.fide_id,
        federation=row.federation,
        title=row.title,
        norm=norm,
    )
