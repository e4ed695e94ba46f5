"""The exchange format's ``team_event`` key (a section of :mod:`events.exchange`): everything a
chess team event stores beyond its players, so that export → import gives the same event and
the backup carries it (docs/exchange-format.md).

``team_event``: ``{"setup": {...} (``min_board_games`` null: the default rule; ``lineups_close``
``pairing`` or ``deadline``), "teams": [{"team_no", "name", "club", "captain",
"roster": [START_NO, ...]}], "lineups": [{"round", "team", "boards": [START_NO | null],
"override"}], "rounds": [{"round", "published", "notes", "matches": [{"table", "white",
"black", "forfeit", "reasons", "boards": [{"board", "white", "black", "result"}]}]}],
"byes": [{"round", "team", "kind"}], "prohibited": [{"teams": [A, B], "first_round",
"last_round"}], "lineup_deadlines": [{"round", "closes_at"}], "adjustments": [{"team",
"round", "match_points", "game_points", "standings_only", "reason"}]}``; players by start number,
teams by pairing number, deadlines as ISO 8601 with their offset.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from typing import Any

from events.errors import UserError
from events.exchange import ImportContext, Invalid, Section, one_line, section_register, typed
from events.models import Event, EventStatus, Player, Round
from formats.teams import models
from formats.teams.services import board_prize_amounts
from formats.teams.trf import adjustment_refusal, bye_points_refusal

SETUP_KEYS = ("boards", "match_points", "primary", "colour_preferences", "initial_colour")
SETUP_KEYS += ("tiebreaks",)


def _text(value: Decimal | None) -> str | None:
    return None if value is None else str(value.normalize())


def _setup_export(event: Event) -> dict[str, Any]:
    setup = models.TeamSetup.objects.filter(event=event).first() or models.TeamSetup(event=event)
    found = {key: getattr(setup, key) for key in SETUP_KEYS}
    found["bye_match_points"] = _text(setup.bye_match_points)
    found["bye_game_points"] = _text(setup.bye_game_points)
    found["board_prizes"] = setup.board_prizes
    found["min_board_games"] = setup.min_board_games
    found["lineups_close"] = setup.lineups_close
    return found


def _rounds_export(event: Event) -> list[dict[str, Any]]:
    rounds = []
    for rnd in Round.objects.filter(event=event).order_by("number"):
        notes = models.TeamRoundNotes.objects.filter(round=rnd).first()
        matches = []
        for match in (
            models.TeamMatch.objects.filter(round=rnd)
            .order_by("table")
            .select_related("white", "black")
        ):
            boards = [
                {"board": board, "white": first, "black": second, "result": result}
                for board, first, second, result in match.games.order_by("board").values_list(
                    "board", "first_player__start_no", "second_player__start_no", "result"
                )
            ]
            matches.append(
                {
                    "table": match.table,
                    "white": match.white.team_no,
                    "black": match.black.team_no,
                    "forfeit": match.forfeit,
                    "reasons": match.reasons,
                    "boards": boards,
                }
            )
        rounds.append(
            {
                "round": rnd.number,
                "published": rnd.published,
                "notes": notes.notes if notes else [],
                "matches": matches,
            }
        )
    return rounds


def team_event_export(event: Event) -> dict[str, Any]:
    from formats.teams.systems import TEAM_SYSTEMS

    if event.system not in TEAM_SYSTEMS:
        return {}
    teams = []
    for team in models.Team.objects.filter(event=event):
        roster = list(
            models.RosterEntry.objects.filter(team=team)
            .order_by("position")
            .values_list("player__start_no", flat=True)
        )
        teams.append(
            {
                "team_no": team.team_no,
                "name": team.name,
                "club": team.club,
                "captain": team.captain,
                "roster": roster,
            }
        )
    lineups = [
        {
            "round": lineup.round_no,
            "team": lineup.team.team_no,
            "boards": _lineup_boards(lineup),
            "override": lineup.override,
        }
        for lineup in models.LineUp.objects.filter(event=event).select_related("team")
    ]
    byes = [
        {"round": n, "team": t, "kind": k}
        for n, t, k in models.TeamBye.objects.filter(event=event).values_list(
            "round_no", "team__team_no", "kind"
        )
    ]
    prohibited = [
        {"teams": [a, b], "first_round": first, "last_round": last}
        for a, b, first, last in models.ProhibitedPairing.objects.filter(event=event)
        .order_by("pk")
        .values_list("team_a__team_no", "team_b__team_no", "first_round", "last_round")
    ]
    return {
        "team_event": {
            "setup": _setup_export(event),
            "teams": teams,
            "lineups": lineups,
            "rounds": _rounds_export(event),
            "byes": byes,
            "prohibited": prohibited,
            "adjustments": [
                {
                    "team": team_no,
                    "round": round_no,
                    "match_points": _text(mp),
                    "game_points": _text(gp),
                    "standings_only": only,
                    "reason": reason,
                }
                for team_no, round_no, mp, gp, only, reason in models.TeamAdjustment.objects.filter(
                    event=event
                )
                .order_by("pk")
                .values_list(
                    "team__team_no",
                    "round_no",
                    "match_points",
                    "game_points",
                    "standings_only",
                    "reason",
                )
            ],
            "lineup_deadlines": [
                {"round": n, "closes_at": moment.isoformat()}
                for n, moment in models.LineUpDeadline.objects.filter(event=event)
                .order_by("round_no")
                .values_list("round_no", "closes_at")
            ],
        }
    }


def _lineup_boards(lineup: models.LineUp) -> list[int | None]:
    chosen = dict(lineup.boards.values_list("board", "player__start_no"))
    return [chosen.get(board) for board in range(1, max(chosen, default=0) + 1)]


# -- import ------------------------------------------------------------------------------------


def _decimal(value: Any, where: str) -> Decimal | None:
    if value is None:
        return None
    typed(value, str, where)
    try:
        number = Decimal(value[:20])
    except InvalidOperation as exc:
        raise Invalid(f"{where}: a decimal string") from exc
    if not number.is_finite() or not 0 <= number <= 1000:
        raise Invalid(f"{where}: 0 to 1000")
    return number


def _setup_load(raw: Any, event: Event) -> None:
    typed(raw, dict, "team_event.setup")
    values = {}
    for key in SETUP_KEYS:
        kind = int if key == "boards" else str
        values[key] = typed(raw.get(key), kind, f"team_event.setup.{key}")
    for key in ("bye_match_points", "bye_game_points"):
        values[key] = _decimal(raw.get(key), f"team_event.setup.{key}")
        refusal = values[key] is not None and bye_points_refusal(
            values[key], f"team_event.setup.{key}"
        )
        if refusal:
            raise Invalid(refusal)
    values["min_board_games"] = _min_games(raw.get("min_board_games"))
    values["lineups_close"] = typed(
        raw.get("lineups_close", "pairing"), str, "team_event.setup.lineups_close"
    )
    if values["lineups_close"] not in models.LineUpsClose.values:
        raise Invalid("team_event.setup.lineups_close: pairing or deadline")
    if not 1 <= values["boards"] <= 20:
        raise Invalid("team_event.setup: boards 1 to 20")
    board_prizes = typed(raw.get("board_prizes", ""), str, "team_event.setup.board_prizes")
    try:
        board_prize_amounts(board_prizes)
    except UserError as exc:
        raise Invalid(f"team_event.setup.board_prizes: {exc}") from exc
    values["board_prizes"] = board_prizes
    models.TeamSetup.objects.create(event=event, **values)


def _min_games(value: Any) -> int | None:
    """``min_board_games``: the games a board prize needs, 0 to 99, or null for the default
    (8 of every 11 rounds)."""
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 99:
        raise Invalid("team_event.setup.min_board_games: 0 to 99, or null for the default")
    return value


def _flag(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise Invalid(f"{where}: expected true or false")
    return value


class _Loader:
    def __init__(self, event: Event, context: ImportContext) -> None:
        self.event = event
        self.players = {p.start_no: p for p in Player.objects.filter(event=event)}
        self.teams: dict[int, models.Team] = {}

    def player(self, value: Any, where: str) -> Player | None:
        if value is None:
            return None
        number = typed(value, int, where)
        if number not in self.players:
            raise Invalid(f"{where}: no player {number}")
        return self.players[number]

    def team(self, value: Any, where: str) -> models.Team:
        number = typed(value, int, where)
        if number not in self.teams:
            raise Invalid(f"{where}: no team {number}")
        return self.teams[number]

    def round_no(self, raw: Mapping[str, Any], where: str) -> int:
        number = typed(raw.get("round"), int, f"{where}.round")
        if not 1 <= number <= self.event.rounds:
            raise Invalid(f"{where}.round: {number} is outside 1-{self.event.rounds}")
        return number

    def teams_load(self, items: list[Any]) -> None:
        for i, raw in enumerate(items):
            where = f"team_event.teams[{i}]"
            typed(raw, dict, where)
            team = models.Team.objects.create(
                event=self.event,
                team_no=typed(raw.get("team_no"), int, f"{where}.team_no"),
                name=one_line(raw.get("name"), f"{where}.name"),
                club=one_line(raw.get("club", ""), f"{where}.club"),
                captain=one_line(raw.get("captain", ""), f"{where}.captain"),
            )
            self.teams[team.team_no] = team
            roster = typed(raw.get("roster", []), list, f"{where}.roster")
            for position, number in enumerate(roster, start=1):
                player = self.player(number, f"{where}.roster[{position - 1}]")
                models.RosterEntry.objects.create(team=team, position=position, player=player)

    def lineups_load(self, items: list[Any]) -> None:
        for i, raw in enumerate(items):
            where = f"team_event.lineups[{i}]"
            typed(raw, dict, where)
            lineup = models.LineUp.objects.create(
                event=self.event,
                round_no=self.round_no(raw, where),
                team=self.team(raw.get("team"), f"{where}.team"),
                override=raw.get("override") is True,
            )
            boards = typed(raw.get("boards", []), list, f"{where}.boards")
            for board, number in enumerate(boards, start=1):
                player = self.player(number, f"{where}.boards[{board - 1}]")
                if player is not None:
                    models.LineUpBoard.objects.create(lineup=lineup, board=board, player=player)

    def match_load(self, rnd: Round, raw: Any, where: str) -> None:
        typed(raw, dict, where)
        forfeit = typed(raw.get("forfeit", ""), str, f"{where}.forfeit")
        if forfeit not in models.MatchForfeit.values:
            raise Invalid(f"{where}.forfeit: +-, -+, -- or empty")
        white = self.team(raw.get("white"), f"{where}.white")
        black = self.team(raw.get("black"), f"{where}.black")
        reasons = [str(r)[:500] for r in typed(raw.get("reasons", []), list, f"{where}.reasons")]
        match = models.TeamMatch.objects.create(
            round=rnd,
            table=typed(raw.get("table"), int, f"{where}.table"),
            white=white,
            black=black,
            forfeit=forfeit,
            reasons=reasons,
        )
        for team in (white, black):
            models.TeamRoundSlot.objects.create(round=rnd, team=team, match=match)
        for j, game in enumerate(typed(raw.get("boards", []), list, f"{where}.boards")):
            at = f"{where}.boards[{j}]"
            typed(game, dict, at)
            result = typed(game.get("result", ""), str, f"{at}.result")
            if result not in ("", *models.BOARD_RESULTS):
                raise Invalid(f"{at}.result: unknown result")
            models.BoardGame.objects.create(
                match=match,
                board=typed(game.get("board"), int, f"{at}.board"),
                first_player=self.player(game.get("white"), f"{at}.white"),
                second_player=self.player(game.get("black"), f"{at}.black"),
                result=result,
            )

    def rounds_load(self, items: list[Any]) -> None:
        for i, raw in enumerate(items):
            where = f"team_event.rounds[{i}]"
            typed(raw, dict, where)
            number = self.round_no(raw, where)
            rnd, _ = Round.objects.get_or_create(event=self.event, number=number)
            rnd.published = raw.get("published") is not False
            rnd.save(update_fields=["published"])
            notes = [str(n)[:500] for n in typed(raw.get("notes", []), list, f"{where}.notes")]
            models.TeamRoundNotes.objects.create(round=rnd, notes=notes)
            for j, match in enumerate(typed(raw.get("matches", []), list, f"{where}.matches")):
                self.match_load(rnd, match, f"{where}.matches[{j}]")

    def byes_load(self, items: list[Any]) -> None:
        for i, raw in enumerate(items):
            where = f"team_event.byes[{i}]"
            typed(raw, dict, where)
            kind = typed(raw.get("kind"), str, f"{where}.kind")
            if kind not in models.TeamByeKind.values:
                raise Invalid(f"{where}.kind: pairing, full, half or zero")
            models.TeamBye.objects.create(
                event=self.event,
                round_no=self.round_no(raw, where),
                team=self.team(raw.get("team"), f"{where}.team"),
                kind=kind,
            )

    def adjustments_load(self, items: list[Any]) -> None:
        for i, raw in enumerate(items):
            where = f"team_event.adjustments[{i}]"
            typed(raw, dict, where)
            reason = typed(raw.get("reason"), str, f"{where}.reason")
            if not reason.strip() or len(reason) > 200:
                raise Invalid(f"{where}.reason: 1 to 200 characters")
            points = {}
            for key in ("match_points", "game_points"):
                text = typed(raw.get(key), str, f"{where}.{key}")
                negative = text.startswith("-")
                value = _decimal(text.lstrip("-"), f"{where}.{key}") or Decimal(0)
                points[key] = -value if negative else value
                refusal = adjustment_refusal(points[key], f"{where}.{key}")
                if refusal:
                    raise Invalid(refusal)
            models.TeamAdjustment.objects.create(
                event=self.event,
                team=self.team(raw.get("team"), f"{where}.team"),
                round_no=self.round_no(raw, where),
                standings_only=_flag(raw.get("standings_only"), f"{where}.standings_only"),
                reason=reason,
                **points,
            )

    def prohibited_load(self, items: list[Any]) -> None:
        for i, raw in enumerate(items):
            where = f"team_event.prohibited[{i}]"
            typed(raw, dict, where)
            pair = typed(raw.get("teams"), list, f"{where}.teams")
            if len(pair) != 2:
                raise Invalid(f"{where}.teams: two teams")
            models.ProhibitedPairing.objects.create(
                event=self.event,
                team_a=self.team(pair[0], f"{where}.teams[0]"),
                team_b=self.team(pair[1], f"{where}.teams[1]"),
                first_round=typed(raw.get("first_round"), int, f"{where}.first_round"),
                last_round=typed(raw.get("last_round"), int, f"{where}.last_round"),
            )


def _deadlines_load(event: Event, items: list[Any]) -> None:
    import datetime as dt

    seen: set[int] = set()
    for i, raw in enumerate(items):
        where = f"team_event.lineup_deadlines[{i}]"
        typed(raw, dict, where)
        number = typed(raw.get("round"), int, f"{where}.round")
        if not 1 <= number <= event.rounds or number in seen:
            raise Invalid(f"{where}.round: {number} is outside 1-{event.rounds} or given twice")
        seen.add(number)
        text = typed(raw.get("closes_at"), str, f"{where}.closes_at")[:40]
        try:
            moment = dt.datetime.fromisoformat(text)
        except ValueError as exc:
            raise Invalid(f"{where}.closes_at: an ISO 8601 date and time") from exc
        if moment.tzinfo is None:
            raise Invalid(f"{where}.closes_at: give the offset (+00:00)")
        models.LineUpDeadline.objects.create(event=event, round_no=number, closes_at=moment)


def team_event_load(doc: Mapping[str, Any], event: Event, context: ImportContext) -> None:
    raw = doc.get("team_event")
    if raw is None:
        return
    typed(raw, dict, "team_event")
    from formats.teams.systems import TEAM_SYSTEMS

    if event.system not in TEAM_SYSTEMS:
        raise Invalid(f"team_event: the system is {event.system!r}, not a team system")
    _setup_load(raw.get("setup", {}), event)
    loader = _Loader(event, context)
    loader.teams_load(typed(raw.get("teams", []), list, "team_event.teams"))
    loader.lineups_load(typed(raw.get("lineups", []), list, "team_event.lineups"))
    loader.rounds_load(typed(raw.get("rounds", []), list, "team_event.rounds"))
    loader.byes_load(typed(raw.get("byes", []), list, "team_event.byes"))
    loader.prohibited_load(typed(raw.get("prohibited", []), list, "team_event.prohibited"))
    loader.adjustments_load(typed(raw.get("adjustments", []), list, "team_event.adjustments"))
    deadlines = typed(raw.get("lineup_deadlines", []), list, "team_event.lineup_deadlines")
    _deadlines_load(event, deadlines)
    if event.status == EventStatus.DRAFT and Round.objects.filter(event=event, published=True):
        Event.objects.filter(pk=event.pk).update(status=EventStatus.RUNNING)
        event.status = EventStatus.RUNNING  # a published round: the event is in progress


def register() -> None:
    section_register(Section("team_event", 55, team_event_export, team_event_load))
