"""The player's page in the JSON exchange format (and so in the backup, which wraps it):
``reporting_policy``, ``player_links`` and ``result_reports`` (docs/exchange-format.md).

The links travel with their tokens so that a restored event keeps the printed cards working.
A token that another player of this database already holds (the same document imported a
second time, under another slug) is not taken over: that player gets a new link when one is
next needed, and the cards of the first event keep working.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from events.exchange import (
    ImportContext,
    Invalid,
    Section,
    choice,
    moment_of,
    require,
    section_register,
    typed,
)
from events.models import Event, Game, Player
from playerpage.models import (
    REPORTABLE,
    TOKEN_PATTERN,
    PlayerLink,
    Policy,
    ReportingPolicy,
    ReportSource,
    ReportStatus,
    ResultReport,
)

_TOKEN = re.compile(TOKEN_PATTERN)


def _export(event: Event) -> dict[str, Any]:
    document: dict[str, Any] = {}
    policy = ReportingPolicy.objects.filter(event=event).values_list("policy", flat=True).first()
    if policy and policy != Policy.TWO_MATCHING:
        document["reporting_policy"] = policy
    links = PlayerLink.objects.filter(player__event=event).order_by("player__start_no")
    if links:
        document["player_links"] = [
            {"start_no": link.player.start_no, "token": link.token, "active": link.active}
            for link in links.select_related("player")
        ]
    reports = (
        ResultReport.objects.filter(game__round__event=event)
        .select_related("game__round", "player")
        .order_by("reported_at", "id")
    )
    if reports:
        document["result_reports"] = [
            {
                "round": r.game.round.number,
                "board": r.game.board,
                "start_no": r.player.start_no,
                "result": r.result,
                "reported_at": r.reported_at.isoformat(),
                "source": r.source,
                "status": r.status,
            }
            for r in reports
        ]
    return document


def _load(doc: Mapping[str, Any], event: Event, context: ImportContext) -> None:
    policy = doc.get("reporting_policy")
    if policy is not None:
        ReportingPolicy.objects.create(
            event=event, policy=choice(policy, Policy.values, "reporting_policy")
        )
    players = {p.start_no: p for p in Player.objects.filter(event=event)}
    _links_load(typed(doc.get("player_links", []), list, "player_links"), players)
    _reports_load(typed(doc.get("result_reports", []), list, "result_reports"), event, players)


def _links_load(raw: list[Any], players: dict[int, Player]) -> None:
    seen_players: set[int] = set()
    seen_tokens: set[str] = set()
    rows = []
    for i, link in enumerate(raw):
        where = f"player_links[{i}]"
        typed(link, dict, where)
        start_no = require(link, "start_no", int, f"{where}.")
        if start_no not in players:
            raise Invalid(f"{where}.start_no: there is no player {start_no}")
        if start_no in seen_players:
            raise Invalid(f"{where}.start_no: player {start_no} has a link already")
        token = require(link, "token", str, f"{where}.")
        if not _TOKEN.fullmatch(token) or token in seen_tokens:
            raise Invalid(f"{where}.token: not a link's token, or used twice")
        active = link.get("active", True)
        if not isinstance(active, bool):
            raise Invalid(f"{where}.active: expected true or false")
        seen_players.add(start_no)
        seen_tokens.add(token)
        rows.append(PlayerLink(player=players[start_no], token=token, active=active))
    taken = set(PlayerLink.objects.filter(token__in=seen_tokens).values_list("token", flat=True))
    PlayerLink.objects.bulk_create(row for row in rows if row.token not in taken)


def _reports_load(raw: list[Any], event: Event, players: dict[int, Player]) -> None:
    games = {
        (g.round.number, g.board): g
        for g in Game.objects.filter(round__event=event).select_related("round")
    }
    rows = []
    for i, report in enumerate(raw):
        where = f"result_reports[{i}]"
        typed(report, dict, where)
        key = (
            require(report, "round", int, f"{where}."),
            require(report, "board", int, f"{where}."),
        )
        game = games.get(key)
        if game is None:
            raise Invalid(f"{where}: round {key[0]} board {key[1]} is not a game")
        start_no = require(report, "start_no", int, f"{where}.")
        player = players.get(start_no)
        if player is None or player.pk not in (game.white_id, game.black_id):
            raise Invalid(f"{where}.start_no: player {start_no} does not play that game")
        at = moment_of(require(report, "reported_at", str, f"{where}."), f"{where}.reported_at")
        if at is None or at.tzinfo is None:
            raise Invalid(f"{where}.reported_at: a date and time with its offset")
        rows.append(
            ResultReport(
                game=game,
                player=player,
                result=choice(report.get("result"), REPORTABLE, f"{where}.result"),
                reported_at=at,
                source=choice(report.get("source", "page"), ReportSource.values, f"{where}.source"),
                status=choice(
                    report.get("status", "waiting"), ReportStatus.values, f"{where}.status"
                ),
            )
        )
    ResultReport.objects.bulk_create(rows)


def register() -> None:
    section_register(Section("playerpage", 80, _export, _load))
