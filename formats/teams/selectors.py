"""Reads of a chess team event: the rows, as :mod:`formats.teams.records` records, in a few
narrow queries; every score, pairing and standing is computed by the pure engines."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
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
    """Each paired round with its matches (in table order) and byes, for the rounds page."""
    matches: dict[int, int] = defaultdict(int)
    for round_id in TeamMatch.objects.filter(round__event=event).values_list("round", flat=True):
        matches[round_id] += 1
    return [
        {"round": rnd, "matches": matches[rnd.pk]}
        for rnd in Round.objects.filter(event=event).order_by("number")
    ]


@dataclass(frozen=True)
class MatchCard:
    """A match as its card shows it: the boards (the white team's player first), the match
    score so far in game points (C.07 11.1, the competition's game points), and whether it is
    decided (a whole-match forfeit, or a result on every board with a player)."""

    match: TeamMatch
    games: list[BoardGame]
    white_points: Fraction
    black_points: Fraction
    boards: int  # boards with a player on them (a board empty on both sides needs nothing)
    entered: int  # of those, the boards with a result
    decided: bool

    @property
    def score(self) -> str:
        return f"{points_text(self.white_points)}–{points_text(self.black_points)}"


def match_card(match: TeamMatch, games: list[BoardGame], scoring: r.Scoring) -> MatchCard:
    seated = [game for game in games if game.seated]
    entered = [game for game in seated if game.result]
    return MatchCard(
        match=match,
        games=games,
        white_points=_side_points(games, True, scoring),
        black_points=_side_points(games, False, scoring),
        boards=len(seated),
        entered=len(entered),
        decided=bool(match.forfeit) or len(entered) == len(seated),
    )


def _side_points(games: list[BoardGame], first: bool, scoring: r.Scoring) -> Fraction:
    """One team's game points in a match so far (C.07 11.1)."""
    from formats.teams.scoring import game_points

    return sum((game_points(g.result, first, scoring) for g in games if g.result), Fraction(0))


def round_of(event: Event, number: int) -> dict[str, Any] | None:
    """A paired round: its matches as cards (table order), its byes, and how far it is: boards
    with a result of the boards with a player, matches decided."""
    rnd = Round.objects.filter(event=event, number=number).select_related("team_notes").first()
    if rnd is None:
        return None
    scoring = scoring_of(setup_of(event))
    matches = (
        TeamMatch.objects.filter(round=rnd)
        .select_related("white", "black")
        .prefetch_related("games__first_player", "games__second_player")
        .order_by("table")
    )
    cards = [match_card(match, list(match.games.all()), scoring) for match in matches]
    return {
        "round": rnd,
        "cards": cards,
        "byes": list(TeamBye.objects.filter(event=event, round_no=number).select_related("team")),
        "done": sum(card.entered for card in cards),
        "total": sum(card.boards for card in cards),
        "decided": sum(card.decided for card in cards),
    }


def board_round_number(event: Event, game_id: int) -> int:
    """The round of a board of the event; 404 for a board of another event (or none)."""
    from django.http import Http404

    number = (
        BoardGame.objects.filter(pk=game_id, match__round__event=event)
        .values_list("match__round__number", flat=True)
        .first()
    )
    if number is None:
        raise Http404("No such board in this event")
    return number


def card_of_board(paired: dict[str, Any], game_id: int) -> tuple[MatchCard, BoardGame]:
    """The match card holding a board of the round, and the board."""
    return next(
        (card, game) for card in paired["cards"] for game in card.games if game.pk == game_id
    )


def first_open_board(paired: dict[str, Any]) -> int | None:
    """The board the result entry page opens on: the first without a result (table order)."""
    return next(
        (
            game.pk
            for card in paired["cards"]
            if not card.match.forfeit
            for game in card.games
            if game.seated and not game.result
        ),
        None,
    )


def current_round_number(event: Event) -> int | None:
    """The round spectators follow: the last published one."""
    return (
        Round.objects.filter(event=event, published=True)
        .order_by("-number")
        .values_list("number", flat=True)
        .first()
    )


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


# The scores the standings show as their own columns (MP, GP): a tie-break code naming one of
# them plainly is not shown a second time.
SCORE_CODES = ("MP", "GP")


def standings_of(event: Event, *, codes: Any = None, after_round: int | None = None) -> Any:
    """The team standings by the event's C.07 team tie-breaks (``formats.teams.tiebreaks``):
    rows of (rank, shared, team, match points, game points, tie-break values), and the
    crosstable (each round's opponent, colour and game points). The match and game points
    are the final ones, as the ranking counts them: with every adjustment, the final
    standings' own included. ``shown`` are the tie-break columns a page shows besides MP and
    GP (``shown_text`` each row's values of them)."""
    from formats.teams import scoring
    from formats.teams.tiebreaks import team_standings

    records = records_of(event)
    codes = tuple(codes or records.tiebreaks)
    if len(records.teams) < 2:
        return {"codes": codes, "shown": [], "rows": [], "after_round": 0, "rounds": []}
    table = team_standings(records, codes, after_round=after_round)
    played = scoring.team_rounds(records, table.after_round)
    shown = [i for i, code in enumerate(table.codes) if code not in SCORE_CODES]
    rows = _standings_rows(records, table, played, shown)
    for above, below in zip(rows, rows[1:], strict=False):
        above.update(_why_above(above, below, table.codes))
    return {
        "codes": table.codes,
        "shown": [table.codes[i] for i in shown],
        "rows": rows,
        "after_round": table.after_round,
        "rounds": range(1, table.after_round + 1),
    }


def _standings_rows(records: r.TeamEvent, table: Any, played: Any, shown: list[int]) -> list[Any]:
    from formats.teams import scoring

    totals = scoring.scores(records, table.after_round, played)
    finals = scoring.adjustments(records, table.after_round, final=True)
    names = {team.tpn: team.name for team in records.teams}
    ranks = [row.rank for row in table.rows]
    return [
        {
            "rank": row.rank,
            "shared": ranks.count(row.rank) > 1,
            "team_no": row.team,
            "name": names[row.team],
            **_score_columns(records, totals[row.team], finals[row.team]),
            **_tiebreak_columns(table.codes, row.values, shown),
            "cells": [_cell(one) for one in played[row.team]],
        }
        for row in table.rows
    ]


def _score_columns(records: r.TeamEvent, total: Any, final: Any) -> dict[str, Any]:
    """A team's match and game points in the standings: with every adjustment, the final
    standings' own (``final``) included, as the ranking counts them."""
    from formats.teams import scoring

    score = scoring.TeamScore(
        total.match_points + final.match_points, total.game_points + final.game_points
    )
    return {
        "match_points": score.match_points,
        "game_points": score.game_points,
        "points": scoring.primary(score, records.scoring),
        "mp_text": exact_text(score.match_points),
        "gp_text": exact_text(score.game_points),
    }


def _tiebreak_columns(codes: Any, values: Any, shown: list[int]) -> dict[str, Any]:
    texts = [value_text(v) for v in values]
    return {
        "values": dict(zip(codes, values, strict=True)),
        "values_text": texts,
        "shown_text": [texts[i] for i in shown],
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


_PLAYED = {"1-0": (1, 0), "0-1": (0, 1), "1/2-1/2": (Fraction(1, 2), Fraction(1, 2))}


def _board_tallies(event: Event) -> dict[int, dict[str, Any]]:
    """Each player's played games of the published rounds (forfeits are not games here): the
    board of their first game, points, games and the rated opponents' ratings, in one query."""
    tallies: dict[int, dict[str, Any]] = {}
    rows = BoardGame.objects.filter(
        match__round__event=event, match__round__published=True, result__in=_PLAYED
    ).order_by("match__round__number", "board")
    for board, first, second, result, r1, r2 in rows.values_list(
        "board",
        "first_player_id",
        "second_player_id",
        "result",
        "first_player__rating",
        "second_player__rating",
    ):
        for player, score, opponent_rating in zip(
            (first, second), _PLAYED[result], (r2, r1), strict=True
        ):
            tally = tallies.setdefault(
                player, {"board": board, "points": Fraction(0), "games": 0, "rated": []}
            )
            tally["points"] += score
            tally["games"] += 1
            if opponent_rating:
                tally["rated"].append(opponent_rating)
    return tallies


def board_games_needed(event: Event) -> int:
    """The games a board prize needs in this event: its own minimum, else 8 of every 11
    rounds (:func:`formats.teams.board_prizes.min_board_games`)."""
    from formats.teams.board_prizes import min_board_games

    return min_board_games(event.rounds, setup_of(event).min_board_games)


def board_ranking(event: Event) -> list[dict[str, Any]]:
    """Each player's games on their board (the board of their first game), points, %, the
    opponents' average rating and a performance (average + dp of the FIDE table, C.07's TPR
    reading), board by board, best percentage first. ``eligible``: they played the games a
    board prize needs (:func:`formats.teams.board_prizes.min_board_games`); ``in_running``:
    they can still play them in the rounds to come (the same once the last round is
    published). Those out of the running come after the others."""
    minimum = board_games_needed(event)
    to_come = event.rounds - Round.objects.filter(event=event, published=True).count()
    tallies = _board_tallies(event)
    players = {p.pk: p for p in Player.objects.filter(pk__in=tallies)}
    ranking = [
        {
            "player": players[pk],
            "board": tally["board"],
            "eligible": tally["games"] >= minimum,
            "in_running": tally["games"] + to_come >= minimum,
            **_board_figures(tally),
        }
        for pk, tally in tallies.items()
    ]
    ranking.sort(
        key=lambda row: (
            (row["board"], not row["in_running"], -row["score"] / row["games"])
            + (-row["games"], row["player"].name)
        )
    )
    return ranking


def _board_figures(tally: dict[str, Any]) -> dict[str, Any]:
    """Games, points, % (half up), the rated opponents' average and the performance."""
    from standings.tiebreaks import rating_difference_for as dp  # FIDE B.02 table 8.1(a)

    rated, count = tally["rated"], tally["games"]
    average = int(Fraction(sum(rated), len(rated)) + Fraction(1, 2)) if rated else None
    percent = int(tally["points"] * 100 / count + Fraction(1, 2))
    return {
        "games": count,
        "score": tally["points"],
        "points": exact_text(tally["points"]),
        "percent": percent,
        "average": average,
        "performance": None if average is None else average + dp(percent),
    }


_KIND_WORDS = {
    "pairing_bye": "pairing-allocated bye",
    "full_bye": "full-point bye",
    "half_bye": "half-point bye",
    "zero_bye": "zero-point bye",
    "absent": "absent",
}


def _team_rounds(records: r.TeamEvent, team_no: int) -> list[dict[str, Any]]:
    """One team's rounds as the scoring engine scores them: opponent, board 1's colour, what
    the round was, match and game points."""
    from formats.teams import scoring

    if len(records.teams) < 2:
        return []
    names = {t.tpn: t.name for t in records.teams}
    played = scoring.team_rounds(records, records.played_rounds)
    return [
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


_FORFEIT_SIGNS = {"+/-": ("+", "-"), "-/+": ("-", "+"), "-/-": ("-", "-")}


def _game_cell(game: BoardGame, first: bool) -> tuple[str, Fraction | None]:
    """A roster player's game as their row shows it ("bd 2: ½ – Berg, Kari"), and the points
    it scored them when it was played (None for a forfeit or no result yet)."""
    opponent = game.second_player if first else game.first_player
    score = None
    if game.result in _PLAYED:
        score = Fraction(_PLAYED[game.result][0 if first else 1])
        shown = points_text(score)
    elif game.result in _FORFEIT_SIGNS:
        shown = _FORFEIT_SIGNS[game.result][0 if first else 1] + " (forfeit)"
    else:
        shown = "…"
    against = opponent.name if opponent else "(empty board)"
    return f"bd {game.board}: {shown} – {against}", score


def _player_rows(event: Event, team: Team, rounds: int) -> list[dict[str, Any]]:
    """Each roster player's games round by round, with their points and games played."""
    roster = [e.player for e in team.roster.select_related("player").order_by("position")]
    mine = {player.pk for player in roster}
    cells: dict[int, dict[int, str]] = defaultdict(dict)
    scores: dict[int, list[Fraction]] = defaultdict(list)
    games = BoardGame.objects.filter(
        Q(first_player__in=mine) | Q(second_player__in=mine),
        match__round__event=event,
        match__round__published=True,
    ).select_related("match__round", "first_player", "second_player")
    for game in games:
        first = game.first_player_id in mine
        player = game.first_player_id if first else game.second_player_id
        cells[player][game.match.round.number], score = _game_cell(game, first)
        if score is not None:
            scores[player].append(score)
    return [
        {
            "player": player,
            "cells": [cells[player.pk].get(n, "") for n in range(1, rounds + 1)],
            "points": points_text(sum(scores[player.pk], Fraction(0))),
            "games": len(scores[player.pk]),
        }
        for player in roster
    ]


def team_detail(event: Event, team_no: int) -> dict[str, Any] | None:
    """One team's page: its rounds (opponent, board 1's colour, match and game points, from the
    scoring engine) and each roster player's games round by round (board, opponent, result in
    the player's own points), with their points and games; published rounds only."""
    team = Team.objects.filter(event=event, team_no=team_no).first()
    if team is None:
        return None
    records = records_of(event)
    return {
        "team": team,
        "rounds": _team_rounds(records, team_no),
        "round_numbers": range(1, records.played_rounds + 1),
        "players": _player_rows(event, team, records.played_rounds),
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


@dataclass(frozen=True)
class LineUpWindow:
    """When a round's line-ups are taken, by the event's rule (``TeamSetup.lineups_close``):
    before the pairing (the pairing locks them), or after it too, until the round's deadline
    (without one, until each match begins). ``deadline`` as :func:`lineup_deadline_of`."""

    round_no: int
    rule: str
    paired: bool
    deadline: dict[str, Any] | None

    @property
    def locked(self) -> bool:
        """No line-up goes in any more, not even the director's."""
        return self.paired and self.rule == "pairing"

    @property
    def late(self) -> bool:
        """The deadline has passed: the director's line-up only, against the rule."""
        return bool(self.deadline and self.deadline["passed"])

    @property
    def why(self) -> str:
        """The window in a sentence, for the round page and the refusals."""
        n = self.round_no
        if self.locked:
            return (
                f"Round {n} is paired, and this event takes line-ups before the pairing: its "
                "line-ups are locked."
            )
        if self.deadline:
            verb = "closed" if self.late else "close"
            return f"Line-ups for round {n} {verb} at {self.deadline['text']}."
        if self.rule == "pairing":
            return f"Line-ups for round {n} are taken until the round is paired."
        return (
            f"Line-ups for round {n} are taken after the pairing too, until the round's "
            "deadline; none is set, so until each match begins."
        )


def lineup_window(event: Event, round_no: int) -> LineUpWindow:
    return LineUpWindow(
        round_no=round_no,
        rule=setup_of(event).lineups_close,
        paired=Round.objects.filter(event=event, number=round_no).exists(),
        deadline=lineup_deadline_of(event, round_no),
    )


def teams_begun(event: Event, round_no: int) -> set[int]:
    """The teams (by id) whose match of the round has begun: a result or a match forfeit is
    in. Their line-ups are locked whatever the rule."""
    begun = TeamMatch.objects.filter(round__event=event, round__number=round_no).filter(
        Q(forfeit__gt="") | Q(games__result__gt="")
    )
    return {team for pair in begun.values_list("white_id", "black_id") for team in pair}


def lineups_for(event: Event, round_no: int) -> list[dict[str, Any]]:
    """Each team's line-up for a round that may still change (not the teams whose match has
    begun), with its roster to choose from: the start numbers entered board by board (``-``
    for an empty board), else the roster's first players (what the pairing seats when none
    was entered)."""
    entered: dict[int, dict[int, int]] = defaultdict(dict)
    for team_id, board, start_no in LineUpBoard.objects.filter(
        lineup__event=event, lineup__round_no=round_no
    ).values_list("lineup__team_id", "board", "player__start_no"):
        entered[team_id][board] = start_no
    boards = setup_of(event).boards
    begun = teams_begun(event, round_no)
    rows = []
    for row in teams_of(event):
        if row["team"].pk in begun:
            continue
        chosen = entered.get(row["team"].pk)
        if chosen:
            shown = [str(chosen.get(b, "-")) for b in range(1, max(chosen) + 1)]
        else:
            shown = [str(player.start_no) for player in row["roster"][:boards]]
        rows.append({**row, "lineup": shown, "entered": bool(chosen)})
    return rows


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
