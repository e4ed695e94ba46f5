"""Reads of the player's page: the link behind a token, the page itself (computed once per
player and results version, like a public page), the arbiter's queue, the links list.

The page shows what the public pages show of other players (names, start numbers, ratings,
results of published rounds) and nothing else: no other player's link or report.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.db.models import Q

from events.contributions import Block, player_blocks
from events.errors import UserError
from events.models import Event, EventStatus, Game, Player, Result, Round
from events.records import Crosstable, Entrant
from events.selectors import event_version, player_crosstable, points_text
from playerpage.models import (
    TOKEN_PATTERN,
    PlayerLink,
    Policy,
    ReportingPolicy,
    ReportStatus,
    ResultReport,
)

THROTTLE_REPORTS = 10  # reports per link …
THROTTLE_WINDOW = dt.timedelta(minutes=10)  # … in this long
LINK_SECONDS = 60  # a token's player, kept; revoking drops it at once
PAGE_SECONDS = 600
POLL_SECONDS = 20  # the page refreshes itself like the event page's current round

_TOKEN = re.compile(TOKEN_PATTERN)


@dataclass(frozen=True)
class LinkRef:
    """An active token's event, kept briefly: the page itself is read by the token again
    (a restore gives players new ids, and a revoked token must find nothing)."""

    key: str  # the token's digest: how caches and ETags name it, never the token itself
    slug: str


def link_cache_key(token: str) -> str:
    return f"player-link:{hashlib.sha256(token.encode()).hexdigest()[:40]}"


def link_lookup(token: str) -> LinkRef | None:
    """The player behind an active token, or None (a malformed token costs no query)."""
    if not _TOKEN.fullmatch(token):
        return None
    key = link_cache_key(token)
    slug = cache.get(key)
    if slug is None:
        slug = (
            PlayerLink.objects.filter(token=token, active=True)
            .values_list("player__event__slug", flat=True)
            .first()
        )
        if slug is None:
            return None
        cache.set(key, slug, LINK_SECONDS)
    return LinkRef(key, slug)


def policy_of(event: Event) -> str:
    found = ReportingPolicy.objects.filter(event=event).values_list("policy", flat=True).first()
    return found or Policy.TWO_MATCHING


def round_has_reports(event: Event, number: int) -> bool:
    """Whether any player of round ``number`` has reported a result."""
    return ResultReport.objects.filter(
        game__round__event=event, game__round__number=number
    ).exists()


def reporting_round(event: Event) -> int | None:
    """The round open for reports: the latest published round with games, while the event is
    open. Publishing the next round closes it (its results are then the arbiter's alone)."""
    if event.status == EventStatus.FINISHED:
        return None
    return (
        Round.objects.filter(event=event, published=True, games__isnull=False)
        .order_by("-number")
        .values_list("number", flat=True)
        .first()
    )


@dataclass(frozen=True)
class PastRound:
    round: int
    opponent: str  # "12. Name" or "" for a bye
    colour: str  # "White", "Black" or ""
    result: str  # "1", "½", "0", "+", "−", "½ bye", …


@dataclass(frozen=True)
class NowRound:
    round: int
    state: str  # paired | bye | withdrew | unpaired
    board: int = 0
    opponent: str = ""
    opponent_rating: int = 0
    colour: str = ""
    result: str = ""
    bye: str = ""


@dataclass(frozen=True)
class MyReport:
    result: str
    at: dt.datetime
    status: str


@dataclass(frozen=True)
class PlayerPage:
    event_name: str
    event_slug: str
    closed: bool
    rounds: int
    start_no: int
    name: str
    now: NowRound | None
    past: tuple[PastRound, ...]
    score: str
    place: str
    after_round: int
    reports: tuple[MyReport, ...]
    can_report: bool
    policy: str
    # What the other apps add (events.contributions: the rating report's block), kept with
    # the page for its version.
    blocks: tuple[Block, ...] = ()


CELL = {"1": "1", "W": "1", "=": "½", "D": "½", "0": "0", "L": "0", "+": "1 (forfeit)"}
CELL |= {"-": "0 (forfeit)", "U": "1 bye", "F": "1 bye", "H": "½ bye", "Z": "–"}


def player_page(token: str, ref: LinkRef) -> PlayerPage | None:
    """The page's data, computed once per (token, results version) and kept; None when the
    token is no longer active (revoking moves the version, so no kept page outlives it)."""
    version = event_version(ref.slug)
    key = f"player-page:{ref.key}:{version}"
    page = cache.get(key)
    if page is None:
        page = _player_page(token)
        if page is not None:
            cache.set(key, page, PAGE_SECONDS)
    return page  # type: ignore[no-any-return]


def _player_page(token: str) -> PlayerPage | None:
    player = (
        Player.objects.select_related("event").filter(link__token=token, link__active=True).first()
    )
    if player is None:
        return None
    event = player.event
    shown = Round.objects.filter(event=event, published=True, games__isnull=False).order_by(
        "-number"
    )
    current = shown.values_list("number", flat=True).first()
    table = player_crosstable(event, player)  # the player's own rows: no whole crosstable
    mine = next(e for e in table.entrants if e.start_no == player.start_no)
    past = _past_rounds(table, mine, current or 0)
    points = sum((table.scoring.points(r) for r in mine.results), start=table.scoring.zero_bye * 0)
    place, after = _place(event, player.start_no)
    now = _now(event, player, current) if current is not None else None
    policy = policy_of(event)
    return PlayerPage(
        event_name=event.name,
        event_slug=event.slug,
        closed=event.status == EventStatus.FINISHED,
        rounds=event.rounds,
        start_no=player.start_no,
        name=player.name,
        now=now,
        past=past,
        score=points_text(points),
        place=place,
        after_round=after,
        reports=_my_reports(player, current),
        can_report=_can_report(event, now, policy),
        policy=Policy(policy).label,
        blocks=tuple(player_blocks(event, player.start_no)),
    )


def _past_rounds(table: Crosstable, mine: Entrant, last: int) -> tuple[PastRound, ...]:
    """The player's rounds up to the last published one; that round's bye is left out until
    the round is paired (a "Z" there is no result yet)."""
    names = {e.start_no: e.name for e in table.entrants}
    return tuple(_past(r, names) for r in mine.results[:last] if r.round < last or r.code != "Z")


def _can_report(event: Event, now: NowRound | None, policy: str) -> bool:
    """A player may report the result of a paired game with none yet, when the reporting
    policy allows reports and the event is not closed."""
    return (
        now is not None
        and now.state == "paired"
        and not now.result
        and policy != Policy.OFF
        and event.status != EventStatus.FINISHED
    )


def _past(result: Any, names: dict[int, str]) -> PastRound:
    opponent = f"{result.opponent}. {names.get(result.opponent, '')}" if result.opponent else ""
    colour = {"w": "White", "b": "Black"}.get(result.colour, "")
    return PastRound(result.round, opponent, colour, CELL.get(result.code, result.code))


def _place(event: Event, start_no: int) -> tuple[str, int]:
    """The place in the standings after the last complete round ("=3" when shared)."""
    places, after = _places(event)
    return places.get(start_no, ""), after


def _places(event: Event) -> tuple[dict[int, str], int]:
    """Every player's place, kept once per results version for all the players' pages: after
    each result every polling player needs theirs, and reading the whole standings table from
    the cache once per player cost more than the rest of the page (docs/performance.md)."""
    from standings.selectors import event_standings  # above the foundation, as this app is

    key = f"player-places:{event.pk}:{event.results_version}"
    kept = cache.get(key)
    if kept is not None:
        return kept  # type: ignore[no-any-return]
    try:
        table = event_standings(event)
    except UserError:
        places: tuple[dict[int, str], int] = ({}, 0)
    else:
        shown = (
            {}
            if table.after_round == 0
            else {
                row.start_no: f"={row.rank}" if row.shared else str(row.rank) for row in table.rows
            }
        )
        places = (shown, table.after_round)
    cache.set(key, places, PAGE_SECONDS)
    return places


def _now(event: Event, player: Player, number: int) -> NowRound:
    game = (
        Game.objects.filter(
            Q(white=player) | Q(black=player), round__event=event, round__number=number
        )
        .select_related("white", "black")
        .first()
    )
    if game is not None:
        white = game.white_id == player.pk
        opponent = game.black if white else game.white
        return NowRound(
            number,
            "paired",
            board=game.board,
            opponent=f"{opponent.start_no}. {opponent.name}",
            opponent_rating=opponent.rating,
            colour="White" if white else "Black",
            result=game.result,
        )
    bye = player.byes.filter(round__number=number).first()
    if bye is not None:
        return NowRound(number, "bye", bye=bye.get_kind_display())
    withdrawn = player.withdrawn_after_round
    if withdrawn is not None and withdrawn < number:
        return NowRound(number, "withdrew")
    return NowRound(number, "unpaired")


def _my_reports(player: Player, number: int | None) -> tuple[MyReport, ...]:
    if number is None:
        return ()
    # A late report was refused, and said so in the answer to it: it changes nothing, here
    # neither (it is the arbiter's note).
    rows = (
        ResultReport.objects.filter(player=player, game__round__number=number)
        .exclude(status=ReportStatus.LATE)
        .select_related("game")
        .order_by("reported_at", "id")
    )
    return tuple(MyReport(_shown(r.result), r.reported_at, _report_status(r)) for r in rows)


def _shown(result: str) -> str:
    """A result as every page writes it (½-½, not 1/2-1/2)."""
    return Result(result).label if result in Result.values else result


def _report_status(report: ResultReport) -> str:
    """What became of a report: a report still waiting when the arbiter entered the game's
    result was decided by that result, as reported or not (issue 29: never "waiting" once the
    game has a result)."""
    result = report.game.result
    if report.status != ReportStatus.WAITING or not result:
        return report.get_status_display()
    if result == report.result:
        return "Entered by the arbiter, as you reported"
    return f"Overruled: the arbiter entered {_shown(result)}"


# -- The arbiter's queue ------------------------------------------------------------------------


@dataclass(frozen=True)
class QueueReport:
    id: int
    start_no: int
    name: str
    result: str
    at: dt.datetime


@dataclass(frozen=True)
class QueueGame:
    game_id: int
    board: int
    white: str
    black: str
    version: int
    kind: str  # disagree | one | agree_waiting | none
    reports: tuple[QueueReport, ...]


@dataclass(frozen=True)
class Queue:
    round: int
    policy: str
    waiting: tuple[QueueGame, ...]  # disagreeing first, then one report, then agreeing
    without: int  # games with neither a result nor a report
    late: tuple[tuple[QueueGame, QueueReport], ...]  # reports that came after the result


ORDER = {"disagree": 0, "one": 1, "agree": 2}


def report_queue(event: Event, number: int) -> Queue:
    """The round's games without a result, by what the players reported: disagreeing reports
    first (the arbiter must look), then games with one report, then two that agree (only
    under "every report waits for the arbiter"); games with none are counted. Two queries."""
    games = list(
        Game.objects.filter(round__event=event, round__number=number)
        .select_related("white", "black")
        .order_by("board")
    )
    by_game: dict[int, list[ResultReport]] = defaultdict(list)
    for report in ResultReport.objects.filter(game__in=games).select_related("player"):
        by_game[report.game_id].append(report)
    waiting, late, without = [], [], 0
    for game in games:
        reports = by_game.get(game.pk, [])
        for report in reports:
            if report.status == ReportStatus.LATE:
                late.append((_queue_game(game, "late", []), _queue_report(report)))
        if game.result:
            continue
        latest = _latest_per_player(reports)
        if not latest:
            without += 1
            continue
        kind = (
            "one"
            if len(latest) == 1
            else ("agree" if latest[0].result == latest[1].result else "disagree")
        )
        waiting.append(_queue_game(game, kind, latest))
    waiting.sort(key=lambda g: (ORDER[g.kind], g.board))
    return Queue(number, Policy(policy_of(event)).label, tuple(waiting), without, tuple(late))


def _latest_per_player(reports: list[ResultReport]) -> list[ResultReport]:
    latest: dict[int, ResultReport] = {}
    for report in reports:
        if report.status == ReportStatus.LATE:
            continue
        kept = latest.get(report.player_id)
        if kept is None or (report.reported_at, report.pk) > (kept.reported_at, kept.pk):
            latest[report.player_id] = report
    return sorted(latest.values(), key=lambda r: r.reported_at)


def _queue_report(report: ResultReport) -> QueueReport:
    player = report.player
    return QueueReport(report.pk, player.start_no, player.name, report.result, report.reported_at)


def _queue_game(game: Game, kind: str, reports: list[ResultReport]) -> QueueGame:
    return QueueGame(
        game.pk,
        game.board,
        f"{game.white.start_no}. {game.white.name}",
        f"{game.black.start_no}. {game.black.name}",
        game.version,
        kind,
        tuple(_queue_report(r) for r in reports),
    )


# -- The director's list of links -------------------------------------------------------------


@dataclass(frozen=True)
class LinkRow:
    start_no: int
    name: str
    token: str
    active: bool


def links_missing(event: Event) -> int:
    """How many players have no link yet (registered since the links were issued)."""
    return Player.objects.filter(event=event, link__isnull=True).count()


def player_links(event: Event) -> list[LinkRow]:
    """Every player with their link, by start number (one query)."""
    rows = (
        PlayerLink.objects.filter(player__event=event)
        .order_by("player__start_no")
        .values_list("player__start_no", "player__name", "token", "active")
    )
    return [LinkRow(*row) for row in rows]


# Issue 29: the cards of a 5,000-player event in one request took 25 s of CPU (the page, 10.8
# MB) and the PDF 2.2 GB until the worker was killed. A request makes one page of cards: 20 A4
# sheets of 12 (docs/reliability.md, "Limits").
CARDS_PER_PAGE = 240


@dataclass(frozen=True)
class CardsPage:
    """One page of the printed cards: the active links of players ``first`` to ``last`` of
    ``total``, by start number."""

    number: int
    pages: int
    total: int
    links: tuple[LinkRow, ...]

    @property
    def first(self) -> int:
        return (self.number - 1) * CARDS_PER_PAGE + 1

    @property
    def last(self) -> int:
        return self.first + len(self.links) - 1

    @property
    def numbers(self) -> range:
        return range(1, self.pages + 1)


def player_cards(event: Event, page: int) -> CardsPage | None:
    """Page ``page`` (from 1) of the cards: at most :data:`CARDS_PER_PAGE` active links, read
    with a count and one query of that many rows; None for a page past the last."""
    active = PlayerLink.objects.filter(player__event=event, active=True)
    total = active.count()
    pages = max(1, -(-total // CARDS_PER_PAGE))
    if not 1 <= page <= pages:
        return None
    start = (page - 1) * CARDS_PER_PAGE
    rows = active.order_by("player__start_no").values_list(
        "player__start_no", "player__name", "token", "active"
    )[start : start + CARDS_PER_PAGE]
    return CardsPage(page, pages, total, tuple(LinkRow(*row) for row in rows))


def report_round_number(event: Event, report_id: int) -> int:
    """The round of a report of this event; 404 for any other."""
    from django.http import Http404

    number = (
        ResultReport.objects.filter(pk=report_id, game__round__event=event)
        .values_list("game__round__number", flat=True)
        .first()
    )
    if number is None:
        raise Http404("No such report in this event")
    return number
