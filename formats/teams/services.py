"""Writes of a chess team event (issue #22): each a ``noun_verb`` service with keyword-only
arguments, in one transaction, behind the closed-event guard, audited, moving the results
version; a form's stale version is a conflict, never a silent overwrite."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.db import transaction
from django.db.models import F, Q

from events.errors import ResultConflict, UserError
from events.limits import text_check
from events.models import Event, EventStatus, Player, Round
from events.services import (
    PlayerFields,
    UserLike,
    _players_create,
    check_length,
    event_changed,
    event_require_open,
    parse_player_csv,
)
from formats.teams import records as r
from formats.teams import selectors
from formats.teams.berger import team_round_robin_round
from formats.teams.history import pairing_request
from formats.teams.lineups import LineUpRefused, lineup_check
from formats.teams.models import (
    BOARD_RESULTS,
    BoardGame,
    LineUp,
    LineUpBoard,
    LineUpDeadline,
    LineUpsClose,
    MatchForfeit,
    ProhibitedPairing,
    RosterEntry,
    Team,
    TeamAdjustment,
    TeamBye,
    TeamByeKind,
    TeamMatch,
    TeamRoundNotes,
    TeamRoundSlot,
    TeamSetup,
)
from formats.teams.pairing import PairingImpossible, TeamPairing, TeamPairingError, pair_team_round
from formats.teams.tiebreaks import TeamTiebreakError, parse_code
from formats.teams.trf import adjustment_refusal, bye_points_refusal

MAX_ROSTER = 30  # boards plus reserves: an Olympiad team has 5 for 4 boards; leagues more


@dataclass(frozen=True)
class SetupFields:
    boards: int = 4
    match_points: str = "2-1-0"
    primary: str = "MP"
    colour_preferences: str = "A"
    tiebreaks: str = ""
    min_board_games: int | None = None  # None: 8 of every 11 rounds (board_prizes.min_board_games)
    board_prizes: str = ""
    bye_match_points: Decimal | None = None
    bye_game_points: Decimal | None = None
    lineups_close: str = "pairing"


def _paired_rounds(event: Any) -> int:
    return Round.objects.filter(event=event).count()


def _check_setup(fields: SetupFields) -> None:
    if not 1 <= fields.boards <= 20:
        raise UserError(f"a match has 1 to 20 boards, not {fields.boards}")
    if fields.match_points not in ("2-1-0", "3-1-0"):
        raise UserError("match points are 2-1-0 or 3-1-0")
    if fields.primary not in ("MP", "GP"):
        raise UserError("the primary score is MP (match points) or GP (game points)")
    if fields.colour_preferences not in ("A", "B", "none"):
        raise UserError("colour preferences are A, B or none")
    _check_venue_settings(fields)
    for points, label in (
        (fields.bye_match_points, "the bye's match points"),
        (fields.bye_game_points, "the bye's game points"),
    ):
        refusal = "" if points is None else bye_points_refusal(points, label)
        if refusal:
            raise UserError(refusal)
    _check_tiebreaks(fields.tiebreaks)
    board_prize_amounts(fields.board_prizes)


def _check_venue_settings(fields: SetupFields) -> None:
    if fields.min_board_games is not None and not 0 <= fields.min_board_games <= 99:
        raise UserError("the minimum number of games for a board prize is 0 to 99")
    if fields.lineups_close not in LineUpsClose.values:
        raise UserError("line-ups close at the pairing or at the round's deadline")


MAX_BOARD_PRIZES = 10


def board_prize_amounts(text: str) -> list[Decimal]:
    """Each board's prizes from the settings' text, highest first: "100, 50" → [100, 50]."""
    check_length(TeamSetup, "board_prizes", text, "the board prizes")
    words = text.replace(";", ",").split(",") if text.strip() else []
    if len(words) > MAX_BOARD_PRIZES:
        raise UserError(f"at most {MAX_BOARD_PRIZES} prizes a board, not {len(words)}")
    amounts = []
    for word in words:
        try:
            amount = Decimal(word.strip()[:20])
        except ArithmeticError as exc:
            raise UserError(f"board prize {word.strip()[:20]!r}: an amount such as 100") from exc
        if not amount.is_finite() or not 0 < amount <= 10**9:
            raise UserError(f"board prize {word.strip()[:20]!r}: more than 0, at most 10^9")
        amounts.append(amount)
    if amounts != sorted(amounts, reverse=True):
        raise UserError("the board prizes go from the highest to the lowest")
    return amounts


ROUND_ROBINS = ("team_round_robin", "team_double_round_robin")


def _check_round_robin_codes(event: Any, text: str) -> None:
    """C.07 (2026 edition): the Buchholz family (BH, FB, AOB, on match or game points) is not
    used in round robins. The edition is the event's by its start date (C.07 2026 is in force
    for events from 2026), or the code's own ``/V1`` (2024) or ``/V2`` (2026)."""
    from standings.tiebreaks import BUCHHOLZ_FAMILY, edition_for

    if event.system not in ROUND_ROBINS:
        return
    for word in filter(None, (w.strip() for w in text.split(","))):
        code = parse_code(word)
        if (
            code.name in BUCHHOLZ_FAMILY
            and (code.edition or edition_for(event.start_date)) == "2026"
        ):
            raise UserError(
                f"{word} is not allowed in a round robin under the 2026 tie-break rules: C.07 "
                "(2026) forbids the Buchholz family there"
            )


def _check_tiebreaks(text: str) -> None:
    check_length(TeamSetup, "tiebreaks", text, "the tie-breaks")
    for code in text.split(","):
        if code.strip():
            try:
                parse_code(code.strip())
            except TeamTiebreakError as exc:
                raise UserError(f"tie-break {code.strip()[:20]!r}: {exc}") from exc


@transaction.atomic
def team_setup_update(
    *, event: Any, fields: SetupFields, expected_version: int | None, user: UserLike
) -> TeamSetup:
    """The event's team settings (C.04.6 1.2-1.4, 1.7). The number of boards is fixed once a
    round is paired (every match card has that many boards)."""
    event_require_open(event)
    _check_setup(fields)
    _check_round_robin_codes(event, fields.tiebreaks)
    setup = TeamSetup.objects.select_for_update().filter(event=event).first()
    setup = setup or TeamSetup.objects.create(event=event)
    if expected_version is not None and expected_version != setup.version:
        raise UserError("someone else changed the settings meanwhile: reload and try again")
    if fields.boards != setup.boards and _paired_rounds(event):
        raise UserError("the number of boards cannot change once a round is paired")
    before = {"boards": setup.boards, "tiebreaks": setup.tiebreaks, "primary": setup.primary}
    for name, value in fields.__dict__.items():
        setattr(setup, name, value)
    setup.version += 1
    setup.save()
    event_changed(
        event=event,
        user=user,
        action="teams.setup",
        summary="Changed the team settings",
        before=before,
        after={"boards": setup.boards, "tiebreaks": setup.tiebreaks, "primary": setup.primary},
    )
    return setup


@transaction.atomic
def team_register(
    *,
    event: Any,
    name: str,
    club: str = "",
    captain: str = "",
    roster_text: str = "",
    team_no: int | None = None,
    confirm_duplicates: bool = False,
    user: UserLike,
) -> Team:
    """Register a team with its roster in board order (reserves after the regular boards),
    one player a line as on the players page: ``name[,federation,rating,fide_id,title,...]``.
    The pairing number (C.04.6 1.1) is the next free one unless the competition sets it. A
    player who may already be registered (the same name and birth data, on this team or
    another) needs ``confirm_duplicates``, as on the players page (:mod:`events.duplicates`)."""
    event_require_open(event)
    name = name.strip()
    if not name:
        raise UserError("a team needs a name")
    for field, value in (("name", name), ("club", club), ("captain", captain)):
        check_length(Team, field, value, f"the team's {field}")
        text_check(value, f"the team's {field}")
    if Team.objects.filter(event=event, name=name).exists():
        raise UserError(f"there is already a team called {name!r}")
    taken = set(Team.objects.filter(event=event).values_list("team_no", flat=True))
    number = team_no if team_no is not None else max(taken, default=0) + 1
    if not 1 <= number <= r.MAX_TEAMS or number in taken:
        raise UserError(f"pairing number {number} is taken or outside 1 to {r.MAX_TEAMS}")
    roster = parse_player_csv(roster_text) if roster_text.strip() else []
    if len(roster) > MAX_ROSTER:
        raise UserError(f"a roster has at most {MAX_ROSTER} players, not {len(roster)}")
    roster = _from_rating_list(event, roster)
    team = Team.objects.create(
        event=event, team_no=number, name=name, club=club.strip(), captain=captain.strip()
    )
    players = _players_create(event, roster, confirm_duplicates=confirm_duplicates)
    RosterEntry.objects.bulk_create(
        RosterEntry(team=team, position=i, player=player) for i, player in enumerate(players, 1)
    )
    event_changed(
        event=event,
        user=user,
        action="teams.register",
        summary=f"Registered team {number}. {name} ({len(players)} players)",
        after={"team_no": number, "name": name, "roster": [p.start_no for p in players]},
    )
    return team


NUMBERING_RULES = {
    "rating": "by the average rating of each team's top players (one per board; unrated: 0)",
    "lot": "by lot (the event's recorded lots seed)",
    "registration": "in the order the teams registered",
}
MAX_RENUMBERED = 333  # numbers are moved through free ones below 1000 (record 310: 3 digits)


def _averages_top(event: Any, boards: int) -> dict[int, Fraction]:
    """Each team's average of its ``boards`` highest roster ratings (unrated: 0), one query."""
    ratings: dict[int, list[int]] = {}
    for team_id, rating in RosterEntry.objects.filter(team__event=event).values_list(
        "team_id", "player__rating"
    ):
        ratings.setdefault(team_id, []).append(rating or 0)
    return {
        team_id: Fraction(sum(sorted(found, reverse=True)[:boards]), boards)
        for team_id, found in ratings.items()
    }


@transaction.atomic
def team_numbers_assign(*, event: Any, rule: str, user: UserLike) -> list[Team]:
    """Give the teams their pairing numbers 1..N by the rule the competition states (C.04.6
    1.1: the numbers are the competition's, not the engine's): ``rating``, the average of the
    ``boards`` highest ratings on the roster, highest first (unrated players count 0; level
    averages by name); ``lot``, a shuffle by the event's recorded lots seed (a round robin's
    Berger numbers); ``registration``, the order the teams were registered. Refused once a
    round is paired."""
    event_require_open(event)
    if rule not in NUMBERING_RULES:
        raise UserError(
            f"pairing numbers are given {', '.join(NUMBERING_RULES)}, not {rule[:20]!r}"
        )
    if _paired_rounds(event):
        raise UserError("the pairing numbers are fixed once a round is paired")
    teams = list(Team.objects.select_for_update().filter(event=event).order_by("pk"))
    if len(teams) > MAX_RENUMBERED:
        raise UserError(f"at most {MAX_RENUMBERED} teams can be renumbered at once")
    if rule == "rating":
        boards = selectors.setup_of(event).boards
        average = _averages_top(event, boards)
        teams.sort(
            key=lambda team: (-average.get(team.pk, Fraction(0)), team.name.casefold(), team.pk)
        )
    elif rule == "lot":
        random.Random(f"{event.lots_seed}:team-numbers").shuffle(teams)
    before = {team.name: team.team_no for team in teams}
    taken = {team.team_no for team in teams} | set(range(1, len(teams) + 1))
    spare = iter(n for n in range(1, r.MAX_TEAMS + 1) if n not in taken)
    for team in teams:  # first out of the way (the numbers are unique at every moment)
        team.team_no = next(spare)
    Team.objects.bulk_update(teams, ["team_no"])
    for number, team in enumerate(teams, start=1):
        team.team_no = number
        team.version += 1
    Team.objects.bulk_update(teams, ["team_no", "version"])
    event_changed(
        event=event,
        user=user,
        action="teams.numbers",
        summary=f"Pairing numbers given {NUMBERING_RULES[rule]}",
        before=before,
        after={team.name: team.team_no for team in teams},
    )
    return teams


@transaction.atomic
def lineup_deadline_set(*, event: Any, round_no: int, closes_at: Any, user: UserLike) -> None:
    """Set (or with ``closes_at`` None, lift) when the line-ups of a round close: before the
    pairing, or after it too when the event takes line-ups until the round's deadline."""
    event_require_open(event)
    _check_round_no(event, round_no)
    window = selectors.lineup_window(event, round_no)
    if window.locked:
        raise UserError(window.why)
    before = LineUpDeadline.objects.filter(event=event, round_no=round_no).first()
    LineUpDeadline.objects.filter(event=event, round_no=round_no).delete()
    if closes_at is not None:
        LineUpDeadline.objects.create(event=event, round_no=round_no, closes_at=closes_at)
    event_changed(
        event=event,
        user=user,
        action="teams.lineup_deadline",
        summary=f"Round {round_no}: line-ups "
        + (f"close at {selectors.deadline_text(closes_at)}" if closes_at else "have no deadline"),
        before={"closes_at": before.closes_at.isoformat() if before else None},
        after={"closes_at": closes_at.isoformat() if closes_at else None},
    )


def _from_rating_list(event: Any, roster: list[PlayerFields]) -> list[PlayerFields]:
    """Roster lines that hold a FIDE id alone (``1503014``) are filled in from the event's
    rating list (name, federation, the event's rating, title, sex, year of birth), as the
    players page's search does; an id the list does not hold is refused with its line."""
    from events.contributions import players_by_fide_id  # the rating lists, through the seam

    wanted = [
        fields.name
        for fields in roster
        if fields.name.isdigit() and not (fields.federation or fields.fide_id or fields.rating)
    ]
    if not wanted:
        return roster
    answer = players_by_fide_id(event, wanted)
    if answer is None:
        raise UserError(
            f"{wanted[0]}: a FIDE id alone needs a rating list, and none is loaded; type the "
            "player's name"
        )
    list_name, found = answer
    filled = []
    for line, fields in enumerate(roster, start=1):
        if fields.name not in wanted:
            filled.append(fields)
            continue
        hit = found.get(fields.name)
        if hit is None:
            raise UserError(f"line {line}: FIDE id {fields.name} is not on {list_name}")
        filled.append(
            PlayerFields(
                name=hit["name"],
                federation=hit["federation"],
                fide_id=hit["fide_id"],
                rating=int(hit["rating"] or 0),
                title=hit["title"],
                sex=hit["sex"],
                birth_year=int(hit["birth_year"]) if hit["birth_year"] else None,
                where=fields.where,
            )
        )
    return filled


def _team(event: Any, team_no: int) -> Team:
    team = Team.objects.filter(event=event, team_no=team_no).first()
    if team is None:
        raise UserError(f"there is no team {team_no}")
    return team


def _check_round_no(event: Any, round_no: int) -> None:
    if not 1 <= round_no <= event.rounds:
        raise UserError(f"round {round_no}: the event has {event.rounds} rounds")


def _lineup_match(event: Any, team: Team, round_no: int) -> TeamMatch | None:
    """The team's match in a paired round (None before the pairing, or with a bye)."""
    return (
        TeamMatch.objects.select_for_update()
        .filter(Q(white=team) | Q(black=team), round__event=event, round__number=round_no)
        .first()
    )


def _lineup_lateness(event: Any, team: Team, round_no: int, override: bool) -> str:
    """Whether the team's line-up for the round may still change, by the event's rule
    (:class:`selectors.LineUpWindow`): refused with the reason when the pairing locked it or
    its match has begun; after the deadline only with the director's ``override``, and then
    the deadline is returned, to be recorded."""
    window = selectors.lineup_window(event, round_no)
    if window.locked:
        raise UserError(window.why)
    match = _lineup_match(event, team, round_no) if window.paired else None
    begun = match is not None and (match.forfeit or match.games.exclude(result="").exists())
    if begun:
        raise UserError(
            f"round {round_no}: the match of {team.name} has begun (a result is in): its "
            "line-up is locked"
        )
    if window.late and not override:
        raise UserError(
            f"the line-ups for round {round_no} closed at {window.deadline['text']}: only the "
            "director can accept one now, against the rule"
        )
    return window.deadline["text"] if window.late else ""


def _lineup_checked(
    roster: Sequence[int], boards: Sequence[int | None], board_count: int, override: bool
) -> tuple[tuple[int | None, ...], str]:
    """The line-up padded to the boards, and the rule it breaks when the director accepted it
    anyway (``override``: out of roster order, or an empty board above a player); a player
    outside the roster, on two boards, or too many boards are refused even then."""
    try:
        return lineup_check(roster=roster, boards=boards, board_count=board_count), ""
    except LineUpRefused as exc:
        named = [n for n in boards if n is not None]
        hopeless = (
            any(n not in roster for n in named)
            or len(set(named)) != len(named)
            or len(boards) > board_count
        )
        if not override or hopeless:
            raise UserError(str(exc)) from exc
        return (*boards, *([None] * (board_count - len(boards)))), str(exc)


def _lineup_store(
    event: Any, team: Team, round_no: int, padded: Sequence[int | None], broken: str
) -> LineUp:
    LineUp.objects.filter(team=team, round_no=round_no).delete()
    lineup = LineUp.objects.create(event=event, team=team, round_no=round_no, override=bool(broken))
    players = {p.start_no: p for p in Player.objects.filter(event=event, start_no__in=padded)}
    LineUpBoard.objects.bulk_create(
        LineUpBoard(lineup=lineup, board=board, player=players[number])
        for board, number in enumerate(padded, start=1)
        if number is not None
    )
    return lineup


def _match_seats(event: Any, team: Team, round_no: int, padded: Sequence[int | None]) -> None:
    """A paired round's match takes the new line-up: the team's side of every board."""
    match = _lineup_match(event, team, round_no)
    if match is None:
        return
    players = {p.start_no: p for p in Player.objects.filter(event=event, start_no__in=padded)}
    side = "first_player" if match.white_id == team.pk else "second_player"
    games = list(match.games.order_by("board"))
    for game in games:
        number = padded[game.board - 1] if game.board <= len(padded) else None
        setattr(game, side, None if number is None else players[number])
        game.version += 1
    BoardGame.objects.bulk_update(games, [side, "version"])
    match.version += 1
    match.save(update_fields=["version"])


@transaction.atomic
def lineup_set(
    *,
    event: Any,
    team_no: int,
    round_no: int,
    boards: Sequence[int | None],
    override: bool = False,
    user: UserLike,
) -> LineUp:
    """A team's line-up for a round (:func:`formats.teams.lineups.lineup_check`), while the
    event's rule takes it (:func:`_lineup_lateness`): once the round is paired its match seats
    the new players. ``override``: the director accepts a line-up against the rule or after
    the deadline (audited)."""
    event_require_open(event)
    team = _team(event, team_no)
    _check_round_no(event, round_no)
    late = _lineup_lateness(event, team, round_no, override)
    roster = list(
        RosterEntry.objects.filter(team=team)
        .order_by("position")
        .values_list("player__start_no", flat=True)
    )
    board_count = selectors.setup_of(event).boards
    padded, broken = _lineup_checked(roster, boards, board_count, override)
    if late:
        broken = "; ".join(filter(None, (broken, f"after the deadline, {late}")))
    lineup = _lineup_store(event, team, round_no, padded, broken)
    _match_seats(event, team, round_no, padded)
    event_changed(
        event=event,
        user=user,
        action="teams.lineup_override" if broken else "teams.lineup",
        summary=(
            f"Round {round_no}, team {team_no}: line-up "
            + (f"accepted against the rule ({broken})" if broken else "set")
        ),
        after={"round": round_no, "team": team_no, "boards": list(padded), "override": broken},
    )
    return lineup


@transaction.atomic
def team_bye_request(
    *, event: Any, team_no: int, round_no: int, kind: str, user: UserLike
) -> TeamBye:
    """A requested bye (half-, zero- or full-point) for a round not paired yet."""
    event_require_open(event)
    team = _team(event, team_no)
    if kind not in (TeamByeKind.HALF, TeamByeKind.ZERO, TeamByeKind.FULL):
        raise UserError("a requested bye is half, zero or full")
    if not 1 <= round_no <= event.rounds:
        raise UserError(f"round {round_no}: the event has {event.rounds} rounds")
    if Round.objects.filter(event=event, number=round_no).exists():
        raise UserError(f"round {round_no} is already paired")
    if TeamBye.objects.filter(team=team, round_no=round_no).exists():
        raise UserError(f"team {team_no} already has a bye in round {round_no}")
    bye = TeamBye.objects.create(event=event, team=team, round_no=round_no, kind=kind)
    event_changed(
        event=event,
        user=user,
        action="teams.bye_request",
        summary=f"Round {round_no}: team {team_no} requested a {kind}-point bye",
        after={"round": round_no, "team": team_no, "kind": kind},
    )
    return bye


@transaction.atomic
def prohibited_pairing_add(
    *, event: Any, team_a: int, team_b: int, first_round: int, last_round: int, user: UserLike
) -> ProhibitedPairing:
    """Two teams that may not meet in rounds ``first_round`` to ``last_round``."""
    event_require_open(event)
    if team_a == team_b:
        raise UserError("a prohibited pairing names two different teams")
    if not 1 <= first_round <= last_round <= event.rounds:
        raise UserError(f"the rounds must be 1 to {event.rounds}, first before last")
    pair = ProhibitedPairing.objects.create(
        event=event,
        team_a=_team(event, team_a),
        team_b=_team(event, team_b),
        first_round=first_round,
        last_round=last_round,
    )
    event_changed(
        event=event,
        user=user,
        action="teams.prohibit",
        summary=f"Teams {team_a} and {team_b} may not meet in rounds {first_round}-{last_round}",
        after={"teams": [team_a, team_b], "rounds": [first_round, last_round]},
    )
    return pair


MAX_ADJUSTMENTS = 200


@transaction.atomic
def team_adjustment_add(
    *,
    event: Any,
    team_no: int,
    round_no: int,
    match_points: Decimal,
    game_points: Decimal,
    standings_only: bool = False,
    reason: str,
    user: UserLike,
) -> TeamAdjustment:
    """Add or take points from a team (TRF-2026 record 299), with the reason the arbiter gives:
    from round ``round_no`` on, or with ``standings_only`` in the final score only."""
    event_require_open(event)
    team = _team(event, team_no)
    reason = reason.strip()
    if not reason:
        raise UserError("an adjustment needs its reason (it is shown with the standings)")
    check_length(TeamAdjustment, "reason", reason, "the reason")
    if not 1 <= round_no <= event.rounds:
        raise UserError(f"round {round_no}: the event has {event.rounds} rounds")
    for points, label in ((match_points, "match points"), (game_points, "game points")):
        refusal = adjustment_refusal(points, f"the {label}")
        if refusal:
            raise UserError(refusal)
    if not match_points and not game_points:
        raise UserError("an adjustment adds or takes some points")
    if TeamAdjustment.objects.filter(event=event).count() >= MAX_ADJUSTMENTS:
        raise UserError(f"an event has at most {MAX_ADJUSTMENTS} score adjustments")
    adjustment = TeamAdjustment.objects.create(
        event=event,
        team=team,
        round_no=round_no,
        match_points=match_points,
        game_points=game_points,
        standings_only=standings_only,
        reason=reason,
    )
    when = "in the final score only" if standings_only else f"from round {round_no}"
    event_changed(
        event=event,
        user=user,
        action="teams.adjustment",
        summary=f"Team {team_no}: {match_points:+} MP, {game_points:+} GP {when} ({reason})",
        after={
            "team": team_no,
            "round": round_no,
            "match_points": str(match_points),
            "game_points": str(game_points),
            "standings_only": standings_only,
            "reason": reason,
        },
    )
    return adjustment


@transaction.atomic
def team_adjustment_remove(*, event: Any, adjustment_id: int, user: UserLike) -> None:
    event_require_open(event)
    found = TeamAdjustment.objects.filter(event=event, pk=adjustment_id).select_related("team")
    adjustment = found.first()
    if adjustment is None:
        raise UserError("that adjustment is gone already")
    adjustment.delete()
    event_changed(
        event=event,
        user=user,
        action="teams.adjustment_remove",
        summary=f"Team {adjustment.team.team_no}: adjustment removed ({adjustment.reason})",
        before={"team": adjustment.team.team_no, "reason": adjustment.reason},
    )


# -- pairing: pair → review → publish ----------------------------------------------------------


def next_round_number(event: Any) -> int:
    return _paired_rounds(event) + 1


def _unfinished(event: Any, round_no: int) -> list[int]:
    """Tables of round ``round_no`` without a complete result."""
    missing = []
    for match in TeamMatch.objects.filter(round__event=event, round__number=round_no).order_by(
        "table"
    ):
        if not match.forfeit and match.games.filter(result="").exists():
            missing.append(match.table)
    return missing


def _initial_colour(event: Any) -> str:
    """C.04.6 4.1: drawn by lot before round 1, from the event's recorded seed."""
    setup = selectors.setup_of(event)
    if not setup.initial_colour:
        setup.initial_colour = random.Random(f"{event.lots_seed}:team-initial-colour").choice("wb")
        setup.save()
    return setup.initial_colour


def team_pairing_compute(event: Any, round_no: int) -> TeamPairing:
    """The round's pairing by the engine, storing nothing (``pair --dry-run``)."""
    if round_no != next_round_number(event):
        raise UserError(f"the next round to pair is {next_round_number(event)}, not {round_no}")
    if round_no > event.rounds:
        raise UserError(f"the event has {event.rounds} rounds: all are paired")
    if round_no > 1 and Round.objects.filter(event=event, published=False).exists():
        raise UserError(f"round {round_no - 1} is not published yet")
    unfinished = _unfinished(event, round_no - 1)
    if unfinished:
        raise UserError(
            f"round {round_no - 1} has matches without a complete result (table "
            f"{', '.join(map(str, unfinished))})"
        )
    records = selectors.records_of(event)
    if len(records.teams) < 2:
        raise UserError("a team event needs at least two teams")
    try:
        if records.system != r.SWISS:
            return team_round_robin_round(
                len(records.teams), round_no, double=records.system == r.DOUBLE_ROUND_ROBIN
            )
        requested = {bye.team: bye.kind for bye in records.byes if bye.round == round_no}
        if any(kind == "full" for kind in requested.values()):
            raise UserError("a full-point bye is not paired by C.04.6: use half or zero")
        request = pairing_request(records, round_no=round_no, requested_byes=requested)
        return pair_team_round(request)
    except (TeamPairingError, PairingImpossible, r.TeamEventError) as exc:
        raise UserError(str(exc)) from exc


def _boards_for(event: Any, team: Team, round_no: int, boards: int) -> list[Player | None]:
    numbers = selectors.lineup_of(event, team, round_no)
    players = {p.start_no: p for p in Player.objects.filter(event=event, start_no__in=numbers)}
    chosen: list[Player | None] = [players[n] for n in numbers[:boards]]
    return chosen + [None] * (boards - len(chosen))


@transaction.atomic
def team_round_pair(*, event: Any, round_no: int, user: UserLike) -> Round:
    """Pair round ``round_no`` (C.04.6, or the Berger table of a round robin) as a draft to
    review: matches with the engine's reasons, each board's players from the line-ups, the
    byes and the engine's notes. Published by :func:`team_round_publish`."""
    event_require_open(event)
    if selectors.SYSTEMS[event.system] == r.SWISS and round_no == 1:
        _initial_colour(event)
    pairing = team_pairing_compute(event, round_no)
    boards = selectors.setup_of(event).boards
    teams = {team.team_no: team for team in Team.objects.filter(event=event)}
    rnd = Round.objects.create(event=event, number=round_no, published=False)
    for match in pairing.matches:
        white, black = teams[match.white], teams[match.black]
        stored = TeamMatch.objects.create(
            round=rnd, table=match.table, white=white, black=black, reasons=list(match.reasons)
        )
        TeamRoundSlot.objects.bulk_create(
            TeamRoundSlot(round=rnd, team=team, match=stored) for team in (white, black)
        )
        firsts = _boards_for(event, white, round_no, boards)
        seconds = _boards_for(event, black, round_no, boards)
        BoardGame.objects.bulk_create(
            BoardGame(match=stored, board=b, first_player=first, second_player=second)
            for b, (first, second) in enumerate(zip(firsts, seconds, strict=True), start=1)
        )
    for bye in pairing.byes:
        # A round robin's free round (odd field) scores nothing: stored as a zero-point bye,
        # as the TRF-2026 file must write it for gacrux (docs/teams.md, "Not covered yet").
        if bye.kind in ("pairing", "free"):
            kind = "pairing" if bye.kind == "pairing" else "zero"
            TeamBye.objects.create(event=event, team=teams[bye.team], round_no=round_no, kind=kind)
    TeamRoundNotes.objects.create(round=rnd, notes=list(pairing.notes))
    event_changed(
        event=event,
        user=user,
        action="teams.round_pair",
        summary=f"Paired round {round_no} ({len(pairing.matches)} matches), not published",
        after=pair_document(event, round_no, pairing),
    )
    return rnd


def pair_document(event: Any, round_no: int, pairing: TeamPairing) -> dict[str, Any]:
    """The ``pair --format json`` document of a team Swiss (design brief §4)."""
    return {
        "event": event.slug,
        "round": round_no,
        "matches": [
            {"table": m.table, "white": m.white, "black": m.black} for m in pairing.matches
        ],
        "byes": [
            {"team": bye.team, "kind": "zero" if bye.kind == "free" else bye.kind}
            for bye in pairing.byes
        ],
        "notes": list(pairing.notes),
    }


def _draft(event: Any, round_no: int) -> Round:
    rnd = Round.objects.filter(event=event, number=round_no, published=False).first()
    if rnd is None:
        raise UserError(f"round {round_no} has no draft pairing to publish or discard")
    return rnd


@transaction.atomic
def team_round_publish(*, event: Any, round_no: int, user: UserLike) -> Round:
    """Publish the draft: spectators see the round, and the event is in progress (the home
    page stops saying "Registration")."""
    event_require_open(event)
    rnd = _draft(event, round_no)
    rnd.published = True
    rnd.save(update_fields=["published"])
    if event.status == EventStatus.DRAFT:
        Event.objects.filter(pk=event.pk).update(status=EventStatus.RUNNING)
        event.status = EventStatus.RUNNING
    event_changed(
        event=event, user=user, action="teams.round_publish", summary=f"Published round {round_no}"
    )
    return rnd


@transaction.atomic
def team_round_discard(*, event: Any, round_no: int, user: UserLike) -> None:
    """Throw away a draft pairing (its matches and its pairing-allocated bye)."""
    event_require_open(event)
    rnd = _draft(event, round_no)
    TeamBye.objects.filter(event=event, round_no=round_no, kind="pairing").delete()
    rnd.delete()
    event_changed(
        event=event,
        user=user,
        action="teams.round_discard",
        summary=f"Discarded the draft pairing of round {round_no}",
    )


# -- the match card -----------------------------------------------------------------------------


def _card_state(match: TeamMatch) -> dict[str, Any]:
    return {
        "forfeit": match.forfeit,
        "boards": {str(g.board): g.result for g in match.games.order_by("board")},
    }


# A forfeited match is a forfeit on every board (C.04.6 1.3, C.07 11.1), as the TRF-2026 file
# records it (boards with + and -, and record 330).
_FORFEIT_BOARDS = {"+-": "+/-", "-+": "-/+", "--": "-/-"}


def _match_locked(event: Any, match_id: int) -> TeamMatch:
    """The match, locked for the write, of a published round of the event."""
    match = (
        TeamMatch.objects.select_for_update()
        .filter(pk=match_id, round__event=event)
        .select_related("round", "white", "black")
        .first()
    )
    if match is None:
        raise UserError("that match does not exist (was the round re-paired?)")
    if not match.round.published:
        raise UserError(f"round {match.round.number} is not published yet")
    return match


def _match_label(match: TeamMatch) -> str:
    return f"Round {match.round.number}, {match.white.name} - {match.black.name}"


def _check_card(boards: Mapping[int, BoardGame], results: Mapping[int, str], forfeit: str) -> None:
    if forfeit not in MatchForfeit.values:
        raise UserError("a forfeited match is +-, -+ or --")
    unknown = [b for b in results if b not in boards]
    if unknown:
        raise UserError(f"board {unknown[0]} is not a board of this match")
    for board, result in results.items():
        if result not in ("", *BOARD_RESULTS):
            raise UserError(f"board {board}: unknown result {result[:10]!r}")


def _card_apply(
    match: TeamMatch, boards: Mapping[int, BoardGame], results: Mapping[int, str], forfeit: str
) -> None:
    """Every board of a forfeited match becomes a forfeit; the boards given take their result;
    taking a match forfeit back clears the boards it had set."""
    undone = _FORFEIT_BOARDS[match.forfeit] if match.forfeit and not forfeit else None
    for board, game in boards.items():
        if forfeit:
            result = _FORFEIT_BOARDS[forfeit]
        elif board in results:
            result = results[board]
        else:
            result = "" if game.result == undone else game.result
        if result != game.result:
            game.result, game.version = result, game.version + 1
    BoardGame.objects.bulk_update(list(boards.values()), ["result", "version"])
    match.forfeit = forfeit
    match.version += 1
    match.save(update_fields=["forfeit", "version"])


@transaction.atomic
def match_card_record(
    *,
    event: Any,
    match_id: int,
    results: Mapping[int, str],
    forfeit: str = "",
    expected_version: int | None,
    user: UserLike,
) -> TeamMatch:
    """Record a match card: the given boards' results (white team's player first; ``+/-``,
    ``-/+``, ``-/-`` for a board forfeit; boards not given keep theirs) or the whole match
    forfeited (``+-``, ``-+``, ``--``, TRF-2026 record 330: every board a forfeit then). A
    card saved by someone else since the form was loaded is a conflict."""
    event_require_open(event)
    match = _match_locked(event, match_id)
    boards = {g.board: g for g in match.games.all()}
    _check_card(boards, results, forfeit)
    if expected_version is not None and expected_version != match.version:
        raise ResultConflict(
            f"Someone else changed {_match_label(match)} while you were editing it.",
            current=str(_card_state(match)),
            attempted=str({"forfeit": forfeit, "boards": dict(results)}),
            current_version=match.version,
        )
    before = _card_state(match)
    _card_apply(match, boards, results, forfeit)
    event_changed(
        event=event,
        user=user,
        action="teams.match_card",
        summary=f"{_match_label(match)}: match card recorded",
        before=before,
        after=_card_state(match),
    )
    return match


def _board_locked(event: Any, game_id: int) -> BoardGame:
    game = (
        BoardGame.objects.select_for_update()
        .filter(pk=game_id, match__round__event=event)
        .select_related("match__round", "match__white", "match__black")
        .first()
    )
    if game is None:
        raise UserError("that board does not exist (was the round re-paired?)")
    if not game.match.round.published:
        raise UserError(f"round {game.match.round.number} is not published yet")
    if game.match.forfeit:
        raise UserError(
            f"the whole match is forfeited ({game.match.forfeit}): take that back first"
        )
    if game.first_player_id is None and game.second_player_id is None:
        raise UserError(f"board {game.board} has no player on either side: it needs no result")
    return game


@transaction.atomic
def board_result_record(
    *, event: Any, game_id: int, result: str, expected_version: int | None, user: UserLike
) -> BoardGame:
    """One board's result, as a chess game's is entered (``events.services.
    game_result_record``): the white team's player first (``1-0``, ``1/2-1/2``, ``0-1``; board
    forfeits ``+/-``, ``-/+``, ``-/-``; ``""`` clears it). A save from a page that saw an older
    version of the board is a conflict carrying both results, never an overwrite."""
    event_require_open(event)
    if result not in ("", *BOARD_RESULTS):
        raise UserError(f"unknown result {result[:10]!r}")
    game = _board_locked(event, game_id)
    label = f"{_match_label(game.match)}, board {game.board}"
    if expected_version is not None and expected_version != game.version:
        raise ResultConflict(
            f"Someone else saved {label} while you were entering it.",
            current=game.result,
            attempted=result,
            current_version=game.version,
        )
    if game.result == result:
        return game
    before = game.result
    game.result, game.version = result, game.version + 1
    game.save(update_fields=["result", "version"])
    TeamMatch.objects.filter(pk=game.match_id).update(version=F("version") + 1)
    event_changed(
        event=event,
        user=user,
        action="teams.board_result",
        summary=f"{label}: {before or 'no result'} → {result or 'no result'}",
        before={"board": game.board, "result": before},
        after={"board": game.board, "result": result},
    )
    return game


# -- the command line (design brief §4) ----------------------------------------------------------


def pair_command(
    event: Any, *, round_no: int | None, dry_run: bool, publish: bool
) -> dict[str, Any]:
    """``manage.py pair SLUG [--round N] [--dry-run]`` on a team event: the round's matches
    (``white`` = White on board 1), byes and the engine's notes; ``--dry-run`` stores nothing."""
    number = next_round_number(event) if round_no is None else round_no
    if dry_run:
        if selectors.SYSTEMS[event.system] == r.SWISS and number == 1:
            with transaction.atomic():  # the lot for the initial colour is drawn and kept
                event_require_open(event)
                _initial_colour(event)
        return pair_document(event, number, team_pairing_compute(event, number))
    team_round_pair(event=event, round_no=number, user=None)
    if publish:
        team_round_publish(event=event, round_no=number, user=None)
    return stored_pair_document(event, number)


def stored_pair_document(event: Any, round_no: int) -> dict[str, Any]:
    matches = TeamMatch.objects.filter(round__event=event, round__number=round_no).order_by("table")
    notes = TeamRoundNotes.objects.filter(round__event=event, round__number=round_no).first()
    return {
        "event": event.slug,
        "round": round_no,
        "matches": [
            {"table": m.table, "white": m.white.team_no, "black": m.black.team_no}
            for m in matches.select_related("white", "black")
        ],
        "byes": [
            {"team": team_no, "kind": kind}
            for team_no, kind in TeamBye.objects.filter(event=event, round_no=round_no)
            .order_by("team__team_no")
            .values_list("team__team_no", "kind")
        ],
        "notes": notes.notes if notes else [],
    }
