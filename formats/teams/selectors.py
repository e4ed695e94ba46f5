"""Reads of a chess team event: the rows, as :mod:`formats.teams.records` records, in a few
narrow queries; every score, pairing and standing is computed by the pure engines."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from typing import Any

from django.db.models import Q

from events.models import Event, Player, Round
from events.numbers import points_text
from formats.teams import records as r
from formats.teams.models import (
    BoardGame,
    LineUpBoard,
    ProhibitedPairing,
    RosterEntry,
    Team,
    TeamAdjustment,
    TeamBye,
    TeamMatch,
    TeamSetup,
)
from standings.output import exact_text, value_text

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
    adjustments = tuple(
        r.Adjustment(team_no, 0 if only else round_no, Fraction(mp), Fraction(gp), only)
        for team_no, round_no, mp, gp, only in TeamAdjustment.objects.filter(event=event)
        .order_by("pk")
        .values_list("team__team_no", "round_no", "match_points", "game_points", "standings_only")
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
        adjustments=adjustments,
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


def _undecided(match: TeamMatch, games: list[tuple[Any, Any, str]]) -> bool:
    """A match waits for its card while it has no match forfeit and a board with a player on
    it has no result (a board empty on both sides needs none)."""
    if match.forfeit:
        return False
    return any(not result and (first or second) for first, second, result in games)


def open_matches(event: Event) -> dict[int, tuple[int, int]]:
    """For each published round: (matches waiting for their card, matches), in two queries."""
    games: dict[int, list[tuple[Any, Any, str]]] = defaultdict(list)
    for match_id, first, second, result in BoardGame.objects.filter(
        match__round__event=event, match__round__published=True
    ).values_list("match_id", "first_player_id", "second_player_id", "result"):
        games[match_id].append((first, second, result))
    counts: dict[int, tuple[int, int]] = {}
    for match in (
        TeamMatch.objects.filter(round__event=event, round__published=True)
        .only("pk", "forfeit", "round__number")
        .select_related("round")
    ):
        waiting, total = counts.get(match.round.number, (0, 0))
        counts[match.round.number] = (waiting + _undecided(match, games[match.pk]), total + 1)
    return counts


def team_status(event: Event) -> str:
    """What is true of a team event now (issue #20's event page): registration, a draft to
    review, the round in play with its cards entered, or the rounds complete."""
    rounds = list(Round.objects.filter(event=event).order_by("number"))
    if not rounds:
        teams = Team.objects.filter(event=event).count()
        return f"Registration, {teams} team{'s' if teams != 1 else ''}"
    last = rounds[-1]
    if not last.published:
        return f"Round {last.number} of {event.rounds} paired: a draft to review and publish"
    waiting, total = open_matches(event).get(last.number, (0, 0))
    if waiting:
        return (
            f"Round {last.number} of {event.rounds}: {total - waiting} of {total} matches decided"
        )
    if last.number >= event.rounds:
        return f"All {event.rounds} rounds played"
    return f"Round {last.number} of {event.rounds} complete"


def team_steps(event: Event, role: str | None) -> list[Any]:
    """Match cards to enter (director and arbiters); for the director the registration, the
    draft to publish and the next round to pair."""
    from django.urls import reverse

    from events.formats import Step

    rounds = list(Round.objects.filter(event=event).order_by("number"))
    steps = []
    for number, (waiting, _total) in sorted(open_matches(event).items()):
        if waiting:
            url = reverse("teams:round", args=[event.slug, number])
            steps.append(Step(f"Enter round {number}'s match cards: {waiting} missing", url))
    if role != "director":
        return steps
    if Team.objects.filter(event=event).count() < 2:
        return [Step("Register the teams", reverse("teams:teams", args=[event.slug]))]
    if rounds and not rounds[-1].published:
        url = reverse("teams:round", args=[event.slug, rounds[-1].number])
        steps.append(Step(f"Review and publish round {rounds[-1].number}", url))
    elif not steps and len(rounds) < event.rounds:
        url = reverse("teams:round", args=[event.slug, len(rounds) + 1])
        steps.append(Step(f"Pair round {len(rounds) + 1}", url))
    elif not steps:
        from prizes.contributions import prize_steps

        steps += prize_steps(event)  # every round in: the prize fund or the sheet to approve
    return steps


def adjustments_of(event: Event) -> list[TeamAdjustment]:
    """The score adjustments (record 299), in the order they were made."""
    return list(TeamAdjustment.objects.filter(event=event).select_related("team").order_by("pk"))


def panel_of(event: Event) -> dict[str, Any]:
    return {"team_count": Team.objects.filter(event=event).count(), "setup": setup_of(event)}


# -- standings, crosstable, board ranking ---------------------------------------------------


def standings_of(event: Event, *, codes: Any = None, after_round: int | None = None) -> Any:
    """The team standings by the event's C.07 team tie-breaks (``formats.teams.tiebreaks``):
    rows of (rank, shared, team, match points, game points, tie-break values), and the
    crosstable (each round's opponent, colour and game points)."""
    from formats.teams import scoring
    from formats.teams.tiebreaks import team_standings

    records = records_of(event)
    codes = tuple(codes or records.tiebreaks)
    if len(records.teams) < 2:
        return {"codes": codes, "rows": [], "after_round": 0, "rounds": []}
    table = team_standings(records, codes, after_round=after_round)
    played = scoring.team_rounds(records, table.after_round)
    totals = scoring.scores(records, table.after_round, played)
    names = {team.tpn: team.name for team in records.teams}
    ranks = [row.rank for row in table.rows]
    rows = [
        {
            "rank": row.rank,
            "shared": ranks.count(row.rank) > 1,
            "team_no": row.team,
            "name": names[row.team],
            "match_points": totals[row.team].match_points,
            "game_points": totals[row.team].game_points,
            "points": scoring.primary(totals[row.team], records.scoring),
            "values": dict(zip(table.codes, row.values, strict=True)),
            "values_text": [value_text(v) for v in row.values],
            "mp_text": exact_text(totals[row.team].match_points),
            "gp_text": exact_text(totals[row.team].game_points),
            "cells": [_cell(one) for one in played[row.team]],
        }
        for row in table.rows
    ]
    for above, below in zip(rows, rows[1:], strict=False):
        above.update(_why_above(above, below, table.codes))
    return {
        "codes": table.codes,
        "rows": rows,
        "after_round": table.after_round,
        "rounds": range(1, table.after_round + 1),
    }


def _why_above(above: dict[str, Any], below: dict[str, Any], codes: Any) -> dict[str, Any]:
    """Why a team is above the next one ("why A above B"): the first code of the event's list
    on which their values differ, with both values, after the codes they are level on. Ties
    (the same rank) say so. Codes that rank inside a tie (EDE, TBR, BBE: C.07 art. 12-14) are
    compared as the ranks they give."""
    if above["rank"] == below["rank"]:
        return {"decided_by": "", "why": f"level with {below['name']} on every tie-break"}
    level = []
    for code in codes:
        mine, theirs = above["values"][code], below["values"][code]
        if mine != theirs:
            shown = value_text(mine) or "–", value_text(theirs) or "–"
            sentence = f"above {below['name']} on {code} ({shown[0]} to {shown[1]})"
            if level:
                sentence += "; level on " + ", ".join(level)
            return {"decided_by": code, "why": sentence}
        level.append(f"{code} {value_text(mine) or '–'}")
    return {"decided_by": "", "why": f"above {below['name']} by the order of the table"}


_KIND_CELLS = {
    "pairing_bye": "bye",
    "full_bye": "+bye",
    "half_bye": "½bye",
    "zero_bye": "0bye",
    "absent": "–",
}


def _cell(one: Any) -> str:
    """A crosstable cell: the opponent, board 1's colour and the game points ("5w 2.5")."""
    if one.opponent is None:
        return _KIND_CELLS.get(one.kind, "–")
    colour = "w" if one.white else "b"
    forfeit = "" if one.kind == "played" else " (forfeit)"
    return f"{one.opponent}{colour} {exact_text(one.game_points)}{forfeit}"


def board_ranking(event: Event) -> list[dict[str, Any]]:
    """Each player's games on their boards (played and forfeited), points, %, the opponents'
    average rating and a performance (average + dp of the FIDE table, C.07's TPR reading),
    for board prizes; players under the event's minimum number of games are left out."""
    from standings.tiebreaks import rating_difference_for as dp  # FIDE B.02 table 8.1(a)

    setup = setup_of(event)
    points: dict[int, Fraction] = defaultdict(Fraction)
    games: dict[int, int] = defaultdict(int)
    opponents: dict[int, list[int]] = defaultdict(list)
    board_of: dict[int, int] = {}
    rows = BoardGame.objects.filter(match__round__event=event, match__round__published=True)
    for board, first, second, result, r1, r2 in rows.exclude(result="").values_list(
        "board",
        "first_player_id",
        "second_player_id",
        "result",
        "first_player__rating",
        "second_player__rating",
    ):
        mine = {"1-0": (1, 0), "0-1": (0, 1), "1/2-1/2": (Fraction(1, 2), Fraction(1, 2))}
        if result not in mine:
            continue  # forfeits are not games for a board prize
        a, b = mine[result]
        for player, score, opponent_rating in ((first, a, r2), (second, b, r1)):
            points[player] += Fraction(score)
            games[player] += 1
            board_of.setdefault(player, board)
            if opponent_rating:
                opponents[player].append(opponent_rating)
    players = {p.pk: p for p in Player.objects.filter(pk__in=games)}
    ranking = []
    for pk, count in games.items():
        if count < setup.min_board_games:
            continue
        rated = opponents[pk]
        average = int(Fraction(sum(rated), len(rated)) + Fraction(1, 2)) if rated else None
        percent = int(points[pk] * 100 / count + Fraction(1, 2))  # half up
        ranking.append(
            {
                "player": players[pk],
                "board": board_of[pk],
                "games": count,
                "score": points[pk],
                "points": exact_text(points[pk]),
                "percent": percent,
                "average": average,
                "performance": None if average is None else average + dp(percent),
            }
        )
    ranking.sort(key=lambda row: (row["board"], -row["percent"], -row["score"]))
    return ranking


_KIND_WORDS = {
    "pairing_bye": "pairing-allocated bye",
    "full_bye": "full-point bye",
    "half_bye": "half-point bye",
    "zero_bye": "zero-point bye",
    "absent": "absent",
}


def team_detail(event: Event, team_no: int) -> dict[str, Any] | None:
    """One team's page: its rounds (opponent, board 1's colour, match and game points, from the
    scoring engine) and each roster player's games round by round (board, opponent, result in
    the player's own points), with their points and games; published rounds only."""
    from formats.teams import scoring

    team = Team.objects.filter(event=event, team_no=team_no).first()
    if team is None:
        return None
    records = records_of(event)
    names = {t.tpn: t.name for t in records.teams}
    rounds = []
    if len(records.teams) >= 2:
        played = scoring.team_rounds(records, records.played_rounds)
        rounds = [
            {
                "round": one.round,
                "opponent": names.get(one.opponent) if one.opponent else "",
                "opponent_no": one.opponent,
                "colour": "" if one.opponent is None else ("White" if one.white else "Black"),
                "kind": _KIND_WORDS.get(one.kind, "" if one.played else "forfeit"),
                "match_points": one.match_points,
                "game_points": one.game_points,
            }
            for one in played.get(team_no, ())
        ]
    roster = [e.player for e in team.roster.select_related("player").order_by("position")]
    mine = {player.pk for player in roster}
    cells: dict[int, dict[int, str]] = defaultdict(dict)
    totals: dict[int, list[Fraction]] = defaultdict(lambda: [Fraction(0), Fraction(0)])
    games = BoardGame.objects.filter(
        match__round__event=event, match__round__published=True
    ).select_related("match__round", "first_player", "second_player")
    points = {"1-0": (1, 0), "0-1": (0, 1), "1/2-1/2": (Fraction(1, 2), Fraction(1, 2))}
    forfeits = {"+/-": ("+", "-"), "-/+": ("-", "+"), "-/-": ("-", "-")}
    for game in games.filter(Q(first_player__in=mine) | Q(second_player__in=mine)):
        first = game.first_player_id in mine
        player = game.first_player if first else game.second_player
        opponent = game.second_player if first else game.first_player
        number = game.match.round.number
        if game.result in points:
            score = Fraction(points[game.result][0 if first else 1])
            totals[player.pk][0] += score
            totals[player.pk][1] += 1
            shown = points_text(score)
        elif game.result in forfeits:
            shown = forfeits[game.result][0 if first else 1] + " (forfeit)"
        else:
            shown = "…"
        against = opponent.name if opponent else "(empty board)"
        cells[player.pk][number] = f"bd {game.board}: {shown} – {against}"
    numbers = range(1, records.played_rounds + 1)
    return {
        "team": team,
        "rounds": rounds,
        "round_numbers": numbers,
        "players": [
            {
                "player": player,
                "cells": [cells[player.pk].get(n, "") for n in numbers],
                "points": points_text(totals[player.pk][0]),
                "games": int(totals[player.pk][1]),
            }
            for player in roster
        ],
    }


def deadline_text(moment: Any) -> str:
    """A line-up deadline as people read it, in the site's time zone, which it names."""
    from django.utils import timezone

    local = timezone.localtime(moment)
    return f"{local:%Y-%m-%d %H:%M} ({timezone.get_current_timezone_name()})"


def lineup_deadline_of(event: Event, round_no: int) -> dict[str, Any] | None:
    """The round's line-up deadline: when, as text, whether it has passed, and the value for a
    ``datetime-local`` field."""
    from django.utils import timezone

    from formats.teams.models import LineUpDeadline

    found = LineUpDeadline.objects.filter(event=event, round_no=round_no).first()
    if found is None:
        return None
    local = timezone.localtime(found.closes_at)
    return {
        "text": deadline_text(found.closes_at),
        "passed": timezone.now() > found.closes_at,
        "value": f"{local:%Y-%m-%dT%H:%M}",
    }


def lineups_for(event: Event, round_no: int) -> list[dict[str, Any]]:
    """Each team's line-up for a round not paired yet, with its roster to choose from."""
    return [
        {
            "team": row["team"],
            "roster": row["roster"],
            "lineup": lineup_of(event, row["team"], round_no),
            "entered": LineUpBoard.objects.filter(
                lineup__team=row["team"], lineup__round_no=round_no
            ).exists(),
        }
        for row in teams_of(event)
    ]


def standings_document(
    event: Event, *, after_round: int | None = None, codes: Any = None
) -> dict[str, Any]:
    """``manage.py standings SLUG --format json`` on a team event (design brief §4): rows with
    ``team_no`` and ``name``; ``points`` is the primary score; TRF-2026 tie-break codes."""
    from events.errors import UserError
    from formats.teams.tiebreaks import TeamTiebreakError

    try:
        table = standings_of(event, codes=codes, after_round=after_round)
    except TeamTiebreakError as exc:
        raise UserError(str(exc)) from exc
    rows = table["rows"]
    return {
        "event": event.slug,
        "after_round": table["after_round"],
        "tiebreaks": list(table["codes"]),
        "rows": [
            {
                "rank": row["rank"],
                "shared": row["shared"],
                "team_no": row["team_no"],
                "name": row["name"],
                "points": exact_text(row["points"]),
                "tiebreaks": dict(zip(table["codes"], row["values_text"], strict=True)),
                "decided_by": None,
            }
            for row in rows
        ],
    }


def trf_export(event: Event) -> str:
    """``manage.py export_trf SLUG`` on a team event: the TRF-2026 team file (records 142,
    152, 162, 192, 202, 300, 310, 320, 330, 352, 362; :mod:`formats.teams.trf`)."""
    from formats.teams.trf import write_team_trf

    return write_team_trf(records_of(event))
