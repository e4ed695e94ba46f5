"""Writes of the player's page (HackSoft style: ``noun_verb``, keyword-only, one transaction).

A player's report goes in the audit log (``report.submit``) and moves the results version, so
the player's page and the arbiter's queue show it; a refused one changes nothing (a late one
stays only as a note in the arbiter's queue). Under the default policy the second of two
matching reports enters the result through :func:`events.services.game_result_record`, the
arbiter's own service, with the game's version: a result saved meanwhile by the arbiter makes
it a conflict, never an overwrite, and the result is recorded (and audited) exactly once.
"""

from __future__ import annotations

import datetime as dt
import secrets
from dataclasses import dataclass

from django.core.cache import cache
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from events.errors import UserError
from events.models import AuditEntry, Event, Game, Player, Round
from events.services import (
    UserLike,
    event_changed,
    event_require_open,
    game_result_record,
)
from playerpage.models import (
    REPORTABLE,
    TOKEN_BYTES,
    PlayerLink,
    Policy,
    ReportingPolicy,
    ReportStatus,
    ResultReport,
)
from playerpage.selectors import (
    THROTTLE_REPORTS,
    THROTTLE_WINDOW,
    link_cache_key,
    policy_of,
    reporting_round,
)


class LinkUnknown(Exception):
    """No active link has this token: the page answers 404 and nothing else."""


class ReportRefused(UserError):
    """A report the page refuses, with the HTTP status that says why."""

    status = 409

    def __init__(self, message: str, *, status: int = 409) -> None:
        super().__init__(message)
        self.status = status


SEE_THE_ARBITER = "This game already has a result: see the arbiter to change it."


def token_new() -> str:
    """At least 128 bits from the operating system's generator (here 144), never from ids."""
    return secrets.token_urlsafe(TOKEN_BYTES)


@transaction.atomic
def player_links_issue(*, event: Event, user: UserLike) -> int:
    """Give a link to every player of the event who has none yet, in one statement (two
    directors at once cannot give a player two: the player is unique). Audited with the
    number issued, never the tokens. Returns how many were issued."""
    event = event_require_open(event)
    missing = list(
        Player.objects.filter(event=event, link__isnull=True).values_list("pk", flat=True)
    )
    if not missing:
        return 0
    created = PlayerLink.objects.bulk_create(
        [PlayerLink(player_id=pk, token=token_new()) for pk in missing], ignore_conflicts=True
    )
    event_changed(
        event=event,
        user=user,
        action="link.issue",
        summary=f"Issued private links to {len(created)} player{'s' if len(created) != 1 else ''}",
    )
    return len(created)


def _link_for_update(event: Event, start_no: int) -> PlayerLink:
    player = Player.objects.filter(event=event, start_no=start_no).first()
    if player is None:
        raise UserError(f"there is no player with start number {start_no}")
    link = PlayerLink.objects.select_for_update().filter(player=player).first()
    if link is None:
        link = PlayerLink.objects.create(player=player, token=token_new())
    return link


def _forget(token: str) -> None:
    key = link_cache_key(token)
    cache.delete(key)
    transaction.on_commit(lambda: cache.delete(key))


@transaction.atomic
def player_link_reissue(*, event: Event, start_no: int, user: UserLike) -> PlayerLink:
    """A new token for the player (a lost or shared card): the old link answers 404 at once."""
    event = event_require_open(event)
    link = _link_for_update(event, start_no)
    _forget(link.token)
    link.token, link.active = token_new(), True
    link.save(update_fields=["token", "active"])
    _audit_link(event, link, user, "link.reissue", "Issued a new private link to")
    return link


@transaction.atomic
def player_link_revoke(*, event: Event, start_no: int, user: UserLike) -> PlayerLink:
    """The player's link stops working (404) until the director issues a new one."""
    event = event_require_open(event)
    link = _link_for_update(event, start_no)
    if not link.active:
        raise UserError(f"player {start_no}'s link is already revoked")
    _forget(link.token)
    link.active = False
    link.save(update_fields=["active"])
    _audit_link(event, link, user, "link.revoke", "Revoked the private link of")
    return link


def _audit_link(event: Event, link: PlayerLink, user: UserLike, action: str, text: str) -> None:
    player = link.player
    event_changed(
        event=event,
        user=user,
        action=action,
        summary=f"{text} {player.start_no}. {player.name}",
        after={"start_no": player.start_no},  # never the token: the log is not a card
    )


@transaction.atomic
def reporting_policy_set(*, event: Event, policy: str, user: UserLike) -> ReportingPolicy:
    event = event_require_open(event)
    if policy not in Policy.values:
        raise UserError(f"unknown reporting policy {policy!r}")
    row, _ = ReportingPolicy.objects.get_or_create(event=event)
    before = row.policy
    if before == policy:
        return row
    row.policy = policy
    row.save(update_fields=["policy"])
    event_changed(
        event=event,
        user=user,
        action="reporting.policy",
        summary=f"Players' reports: {Policy(policy).label}",
        before={"policy": before},
        after={"policy": policy},
    )
    return row


@dataclass(frozen=True)
class ReportOutcome:
    report: ResultReport
    entered: bool  # the report entered the game's result (the second of two matching)
    late: bool  # the game already had a result: stored for the arbiter, refused to the player


def _active_link(token: str) -> PlayerLink:
    link = (
        PlayerLink.objects.select_related("player__event").filter(token=token, active=True).first()
    )
    if link is None:
        raise LinkUnknown
    return link


def _throttle(player: Player, now: dt.datetime) -> None:
    """At most ``THROTTLE_REPORTS`` reports per link in ``THROTTLE_WINDOW``, counted in the
    database (as the login throttle counts failures), so every app server sees the count."""
    recent = ResultReport.objects.filter(player=player, reported_at__gte=now - THROTTLE_WINDOW)
    if recent.count() >= THROTTLE_REPORTS:
        minutes = int(THROTTLE_WINDOW.total_seconds() // 60)
        raise ReportRefused(
            f"Too many reports from this link ({THROTTLE_REPORTS} in {minutes} minutes): "
            "see the arbiter.",
            status=429,
        )


def _own_game(event: Event, player: Player) -> Game:
    """The player's game in the round open for reports, locked, or a refusal saying why."""
    number = reporting_round(event)
    if number is None:
        raise ReportRefused("No round is open for reports.")
    rnd = Round.objects.get(event=event, number=number)
    game = (
        Game.objects.select_for_update(of=("self",))
        .select_related("white", "black", "round")
        .filter(Q(white=player) | Q(black=player), round=rnd)
        .first()
    )
    if game is None:
        raise ReportRefused(f"You have no game to report in round {number}.")
    return game


@transaction.atomic
def result_report_submit(
    *, token: str, result: str, now: dt.datetime | None = None
) -> ReportOutcome:
    """A player reports the result of their own game in the round open for reports.

    Refused (nothing stored) for an unknown or revoked token (:class:`LinkUnknown`), a closed
    event, a result other than ``1-0``, ``1/2-1/2``, ``0-1``, an event whose players may not
    report, a link over its throttle, a player without a game in that round. A report on a
    game that already has a result is refused (``late``): kept only as a note for the
    arbiter's queue, it moves no results version and writes no audit entry.
    """
    link = _active_link(token)
    player = link.player
    event = event_require_open(player.event)
    if result not in REPORTABLE:
        raise ReportRefused(
            "Report 1-0, 1/2-1/2 or 0-1; anything else: see the arbiter.", status=400
        )
    policy = policy_of(event)
    if policy == Policy.OFF:
        raise ReportRefused(
            "Players do not report results in this event: see the arbiter.", status=403
        )
    now = now or timezone.now()
    _throttle(player, now)
    game = _own_game(event, player)
    if game.result:
        return ReportOutcome(_late_note(game, player, result, now), entered=False, late=True)
    report = ResultReport.objects.create(
        game=game, player=player, result=result, reported_at=now, status=ReportStatus.WAITING
    )
    event_changed(
        event=event,
        user=None,
        action="report.submit",
        summary=f"{player.start_no}. {player.name} reported {result} on "
        f"round {game.round.number} board {game.board}",
        game=game,
        after={"result": result, "start_no": player.start_no, "source": report.source},
    )
    entered = False
    if policy == Policy.TWO_MATCHING:
        entered = _enter_if_matching(game, report)
    return ReportOutcome(report, entered, late=False)


def _late_note(game: Game, player: Player, result: str, now: dt.datetime) -> ResultReport:
    """A report on a game that has its result is refused: it changes nothing of the event (no
    results version, no audit entry: the public pages and every player's page stay as they
    were kept; issue 29, 20 refused reports made every cached page again 20 times). It stays
    as a note for the arbiter, whose queue lists it, and counts in the link's throttle."""
    return ResultReport.objects.create(
        game=game, player=player, result=result, reported_at=now, status=ReportStatus.LATE
    )


def _enter_if_matching(game: Game, report: ResultReport) -> bool:
    """The opponent's latest report of the game agrees: the result goes in, once."""
    opponent = game.black_id if report.player_id == game.white_id else game.white_id
    theirs = (
        ResultReport.objects.filter(game=game, player_id=opponent)
        .exclude(status=ReportStatus.LATE)
        .order_by("-reported_at", "-id")
        .first()
    )
    if theirs is None or theirs.result != report.result:
        return False
    game_result_record(
        game_id=game.pk, result=report.result, expected_version=game.version, user=None
    )
    _annotate_result_entry(game, "reported by both players")
    ResultReport.objects.filter(pk__in=[report.pk, theirs.pk]).update(status=ReportStatus.ENTERED)
    return True


def _annotate_result_entry(game: Game, how: str) -> None:
    entry = (
        AuditEntry.objects.filter(game=game, action__startswith="result.").order_by("-id").first()
    )
    if entry is not None:
        entry.summary = f"{entry.summary} ({how})"[:300]
        entry.save(update_fields=["summary"])


@transaction.atomic
def result_report_confirm(
    *, event: Event, report_id: int | None, expected_version: int | None, user: UserLike
) -> Game:
    """The arbiter confirms a player's report in one tap: the result is recorded by the
    arbiter's service with the version the arbiter saw (a conflict as ever)."""
    event = event_require_open(event)
    report = (
        ResultReport.objects.select_for_update()
        .select_related("player")
        .filter(pk=report_id, game__round__event=event)
        .first()
    )
    if report is None:
        raise UserError("that report does not exist")
    before = Game.objects.values_list("version", flat=True).get(pk=report.game_id)
    game = game_result_record(
        game_id=report.game_id, result=report.result, expected_version=expected_version, user=user
    )
    if game.version != before:
        _annotate_result_entry(
            game, f"confirmed from {report.player.start_no}. {report.player.name}'s report"
        )
    report.status = ReportStatus.CONFIRMED
    report.save(update_fields=["status"])
    return game
