"""``import_trf`` of a TRF-2026 team file (records 142, 152, 162, 192, 202, 300, 310, 320,
330, 352, 362): the pure reader (:func:`formats.teams.trf.read_team_trf`) gives the records,
this module stores them as a team event. All or nothing: the caller's transaction, and a bad
file is refused with the line at fault."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.db import transaction

from events.duplicates import Entry, duplicates_find
from events.errors import DuplicatesToConfirm, ImportFailed
from events.imports import IMPORT_ACTION
from events.models import Event, Player, Round
from events.services import (
    MAX_LISTED,
    EventFields,
    PlayerFields,
    UserLike,
    _players_create,
    audit_record,
    event_create,
)
from formats.teams import records as r
from formats.teams.models import (
    BoardGame,
    ProhibitedPairing,
    RosterEntry,
    Team,
    TeamAdjustment,
    TeamBye,
    TeamMatch,
    TeamRoundSlot,
    TeamSetup,
)
from formats.teams.trf import TeamTrfError, read_team_trf_noted

SYSTEMS = {
    r.SWISS: "team_swiss",
    r.ROUND_ROBIN: "team_round_robin",
    r.DOUBLE_ROUND_ROBIN: "team_double_round_robin",
}


def _is_team_file(text: str) -> bool:
    return any(line.startswith("310 ") for line in text.splitlines())


def _setup(event: Event, records: r.TeamEvent) -> None:
    scoring = records.scoring
    if scoring.match_win not in (2, 3) or scoring.match_draw != 1 or scoring.match_loss != 0:
        raise ImportFailed("record 362: match points other than 2/1/0 or 3/1/0 are not supported")
    if (scoring.game_win, scoring.game_draw * 2, scoring.game_loss) != (1, 1, 0):
        raise ImportFailed("record 162: game points other than 1/½/0 are not supported")
    if records.board_colours and records.board_colours != ("WB" * records.boards)[: records.boards]:
        raise ImportFailed("record 352: only alternating board colours (WBWB…) are supported")

    def points(value: Any) -> Decimal | None:
        return None if value is None else Decimal(value.numerator) / Decimal(value.denominator)

    TeamSetup.objects.create(
        event=event,
        boards=records.boards,
        match_points="3-1-0" if scoring.match_win == 3 else "2-1-0",
        primary=scoring.primary,
        bye_match_points=points(scoring.pairing_bye_match_points),
        bye_game_points=points(scoring.pairing_bye_game_points),
        colour_preferences=records.colour_preferences,
        initial_colour=records.initial_colour.lower()[:1],
        tiebreaks=",".join(records.tiebreaks)[:300],
    )


def _roster_duplicates(records: r.TeamEvent, *, confirm: bool) -> None:
    """A team file lists the players of each team's roster: the same name in two teams is two
    players (a club's and another club's *Hansen, Ole*), never a duplicate registration. The
    same person twice in one roster is what the import asks about, as registration does
    (:mod:`events.duplicates`), unless ``confirm``. Players in no team count as one group."""
    team_of = {number: team.tpn for team in records.teams for number in team.roster}
    groups: dict[int, list[Entry]] = {}
    for player in records.players:
        groups.setdefault(team_of.get(player.start_no, 0), []).append(
            Entry(where=f"{player.start_no}. {player.name}", name=player.name)
        )
    warnings = [w for entries in groups.values() for w in duplicates_find([], entries).warnings]
    if warnings and not confirm:
        raise DuplicatesToConfirm(tuple(warnings[:MAX_LISTED]))


def _teams(event: Event, records: r.TeamEvent, *, confirm: bool) -> dict[int, Team]:
    _roster_duplicates(records, confirm=confirm)
    # Duplicate FIDE ids are still refused by _players_create; names alike were asked above.
    players = _players_create(
        event,
        [
            PlayerFields(
                name=p.name,
                federation=p.federation,
                fide_id=p.fide_id,
                rating=p.rating or 0,
                title=p.title,
                start_no=p.start_no,
            )
            for p in records.players
        ],
        confirm_duplicates=True,
    )
    by_start = {p.start_no: p for p in players}
    teams = {}
    for team in records.teams:
        teams[team.tpn] = Team.objects.create(event=event, team_no=team.tpn, name=team.name)
        RosterEntry.objects.bulk_create(
            RosterEntry(team=teams[team.tpn], position=i, player=by_start[n])
            for i, n in enumerate(team.roster, start=1)
        )
    return teams


def _rounds(event: Event, records: r.TeamEvent, teams: dict[int, Team]) -> None:
    players = {p.start_no: p for p in Player.objects.filter(event=event)}
    numbers = sorted({m.round for m in records.matches} | {b.round for b in records.byes})
    rounds = {n: Round.objects.create(event=event, number=n) for n in numbers}
    tables: dict[int, int] = {}
    for match in sorted(records.matches, key=lambda m: (m.round, m.table)):
        tables[match.round] = tables.get(match.round, 0) + 1
        white, black = teams[match.white], teams[match.black]
        stored = TeamMatch.objects.create(
            round=rounds[match.round],
            table=match.table or tables[match.round],
            white=white,
            black=black,
            forfeit=match.forfeit,
        )
        for team in (white, black):
            TeamRoundSlot.objects.create(round=rounds[match.round], team=team, match=stored)
        BoardGame.objects.bulk_create(
            BoardGame(
                match=stored,
                board=game.board,
                first_player=players.get(game.first_player or 0),
                second_player=players.get(game.second_player or 0),
                result=game.result,
            )
            for game in match.boards
        )
    for bye in records.byes:
        TeamBye.objects.create(event=event, team=teams[bye.team], round_no=bye.round, kind=bye.kind)
    for pair in records.prohibited:
        ProhibitedPairing.objects.create(
            event=event,
            team_a=teams[pair.teams[0]],
            team_b=teams[pair.teams[1]],
            first_round=pair.first_round,
            last_round=pair.last_round,
        )


@transaction.atomic
def team_event_import_trf(
    *, text: str, user: UserLike, slug: str = "", confirm_duplicates: bool = False
) -> Event | None:
    """A team event from a TRF-2026 team file, or None when the file has no team records.
    ``confirm_duplicates``: the director confirmed a roster's players named alike."""
    if not _is_team_file(text):
        return None
    try:
        records, notes = read_team_trf_noted(text)
    except (TeamTrfError, r.TeamEventError) as exc:
        raise ImportFailed(str(exc)) from exc
    event = event_create(
        fields=EventFields(
            name=records.name or "Imported team event",
            system=SYSTEMS[records.system],
            time_control="classical",
            rounds=records.rounds,
            start_date=records.start_date,
            preset="fide-2026"
            if records.start_date and records.start_date.year >= 2026
            else "fide-2024",
        ),
        director=user,
        slug=slug,
    )
    _setup(event, records)
    teams = _teams(event, records, confirm=confirm_duplicates)
    _rounds(event, records, teams)
    for adjustment in records.adjustments:
        TeamAdjustment.objects.create(
            event=event,
            team=teams[adjustment.team],
            round_no=adjustment.round or event.rounds,
            match_points=_decimal(adjustment.match_points),
            game_points=_decimal(adjustment.game_points),
            standings_only=adjustment.standings_only,
            reason="record 299 of the imported file",
        )
    # What the file says that the event does not take: on stderr for import_trf, on the
    # event page until dismissed (events.imports.import_notes).
    audit_record(
        event=event,
        user=user,
        action=IMPORT_ACTION,
        summary=f"Imported from a TRF-2026 team file: {records.played_rounds} of "
        f"{records.rounds} rounds played",
        after={"notes": list(notes)},
    )
    return event


def _decimal(value: Fraction) -> Decimal:
    """An adjustment's points as stored (4 decimals, as record 299 writes them)."""
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    if exact != exact.quantize(Decimal("0.0001")):
        raise ImportFailed(f"record 299: {value} points is not a decimal of at most 4 places")
    return exact.quantize(Decimal("0.0001"))
