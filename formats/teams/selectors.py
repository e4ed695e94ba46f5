"""Reads of a chess team event: the rows, as :mod:`formats.teams.records` records, in a few
narrow queries; every score, pairing and standing is computed by the pure engines."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from typing import Any

from events.models import Event, Player, Round
from formats.teams import records as r
from formats.teams.models import (
    BoardGame,
    LineUpBoard,
    ProhibitedPairing,
    RosterEntry,
    Team,
    TeamBye,
    TeamMatch,
    TeamSetup,
)

SYSTEMS = {
    "team_swiss": r.SWISS,
    "team_round_robin": r.ROUND_ROBIN,
    "team_double_round_robin": r.DOUBLE_ROUND_ROBIN,
}
DEFAULT_TIEBREAKS = ("MP", "GP", "EDE")  # C.07 team tie-breaks; the event may name others


def setup_of(event: Event) -> TeamSetup:
    """The event's settings; the defaults (unsaved) until the director saves some."""
    return TeamSetup.objects.filter(event=event).first() or TeamSetup(event=event)


def _fraction(value: Any) -> Fraction | None:
    return None if value is None else Fraction(value)


def scoring_of(setup: TeamSetup) -> r.Scoring:
    """C.04.6 1.2-1.4: the competition's scoring, as stored."""
    win = Fraction(3) if setup.match_points == "3-1-0" else Fraction(2)
    return r.Scoring(
        match_win=win,
        primary=setup.primary,
        pairing_bye_match_points=_fraction(setup.bye_match_points),
        pairing_bye_game_points=_fraction(setup.bye_game_points),
    )


def tiebreaks_of(setup: TeamSetup) -> tuple[str, ...]:
    codes = tuple(code.strip() for code in setup.tiebreaks.split(",") if code.strip())
    return codes or DEFAULT_TIEBREAKS


def _games_by_match(event: Event, published_only: bool) -> dict[int, list[r.BoardGame]]:
    games: dict[int, list[r.BoardGame]] = defaultdict(list)
    rows = BoardGame.objects.filter(match__round__event=event).exclude(result="")
    if published_only:
        rows = rows.filter(match__round__published=True)
    for match_id, board, first, second, result in rows.values_list(
        "match_id", "board", "first_player__start_no", "second_player__start_no", "result"
    ):
        games[match_id].append(r.BoardGame(board, first, second, result))
    return games


def records_of(event: Event, *, published_only: bool = True) -> r.TeamEvent:
    """The event as the engines take it. Matches of unpublished rounds are left out unless
    asked for; a match counts once it has a forfeit or a board result."""
    setup = setup_of(event)
    rosters: dict[int, list[int]] = defaultdict(list)
    for team_no, start_no in RosterEntry.objects.filter(team__event=event).values_list(
        "team__team_no", "player__start_no"
    ):
        rosters[team_no].append(start_no)
    teams = tuple(
        r.Team(team_no, name, tuple(rosters[team_no]))
        for team_no, name in Team.objects.filter(event=event).values_list("team_no", "name")
    )
    rostered = {n for roster in rosters.values() for n in roster}
    players = tuple(
        r.TeamPlayer(p.start_no, p.name, p.rating or None, p.federation, p.fide_id, p.title)
        for p in Player.objects.filter(event=event, start_no__in=rostered)
    )
    games = _games_by_match(event, published_only)
    rounds = TeamMatch.objects.filter(round__event=event)
    if published_only:
        rounds = rounds.filter(round__published=True)
    matches = tuple(
        r.Match(number, table, white, black, tuple(games.get(pk, ())), forfeit)
        for pk, number, table, white, black, forfeit in rounds.values_list(
            "pk", "round__number", "table", "white__team_no", "black__team_no", "forfeit"
        )
        if forfeit or games.get(pk)
    )
    byes = tuple(
        r.Bye(round_no, team_no, kind)
        for round_no, team_no, kind in TeamBye.objects.filter(event=event).values_list(
            "round_no", "team__team_no", "kind"
        )
    )
    prohibited = tuple(
        r.ProhibitedPair(first, last, (a, b))
        for first, last, a, b in ProhibitedPairing.objects.filter(event=event).values_list(
            "first_round", "last_round", "team_a__team_no", "team_b__team_no"
        )
    )
    return r.TeamEvent(
        name=event.name,
        rounds=event.rounds,
        boards=setup.boards,
        teams=teams,
        players=players,
        matches=matches,
        byes=byes,
        scoring=scoring_of(setup),
        system=SYSTEMS[event.system],
        colour_preferences=setup.colour_preferences,
        initial_colour=setup.initial_colour.upper(),
        start_date=event.start_date,
        tiebreaks=tiebreaks_of(setup),
        prohibited=prohibited,
    )


def teams_of(event: Event) -> list[dict[str, Any]]:
    """Each team with its roster in board order, for the teams page."""
    roster: dict[int, list[Player]] = defaultdict(list)
    for entry in RosterEntry.objects.filter(team__event=event).select_related("player"):
        roster[entry.team_id].append(entry.player)
    return [{"team": team, "roster": roster[team.pk]} for team in Team.objects.filter(event=event)]


def rounds_of(event: Event) -> list[dict[str, Any]]:
    """Each paired round with its matches and board games, in table and board order."""
    matches: dict[int, list[TeamMatch]] = defaultdict(list)
    for match in (
        TeamMatch.objects.filter(round__event=event)
        .select_related("white", "black")
        .prefetch_related("games__first_player", "games__second_player")
    ):
        matches[match.round_id].append(match)
    byes: dict[int, list[TeamBye]] = defaultdict(list)
    for bye in TeamBye.objects.filter(event=event).select_related("team"):
        byes[bye.round_no].append(bye)
    return [
        {"round": rnd, "matches": matches[rnd.pk], "byes": byes[rnd.number]}
        for rnd in Round.objects.filter(event=event).order_by("number")
    ]


def lineup_of(event: Event, team: Team, round_no: int) -> list[int]:
    """The start numbers of ``team``'s line-up for the round (its first roster players when
    none was entered: the regular boards)."""
    chosen = list(
        LineUpBoard.objects.filter(lineup__team=team, lineup__round_no=round_no)
        .order_by("board")
        .values_list("player__start_no", flat=True)
    )
    if chosen:
        return chosen
    boards = setup_of(event).boards
    return list(
        RosterEntry.objects.filter(team=team)
        .order_by("position")
        .values_list("player__start_no", flat=True)[:boards]
    )


def panel_of(event: Event) -> dict[str, Any]:
    return {"team_count": Team.objects.filter(event=event).count(), "setup": setup_of(event)}
