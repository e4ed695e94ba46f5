"""GNOT bridge teams (seed 004): writes. HackSoft style: ``noun_verb``, keyword-only, one
transaction, one audit entry, one results-version bump. A :class:`~events.errors.UserError`
(including :class:`~events.errors.ResultConflict`) leaves the database unchanged.

The engines decide; these services only load, ask and store:

- :func:`teams_seed` stores the week-one draw of :func:`formats.gnot.draw.week_one_draw` (1.5,
  3.1.1, 3.2.1–3.2.3, 3.3.1–3.3.2, 3.4.1).
- :func:`match_result_record` and :func:`match_playoff_record` store IMPs (or each board's net
  score, scored with :func:`formats.gnot.bridge.score_match`) and the engine's decision under the
  tie rules of 1.9 (:func:`formats.gnot.rules.decide_match`); then they schedule what follows on
  its own: the second half of a pool of four (3.2.3) and a pool playoff (3.1.1).
- :func:`choice_record`, :func:`choice_forfeit_record`, :func:`choice_lot_record` run the
  choice of opponents (1.10, 3.1.2–3.1.9) through :mod:`formats.gnot.draw`'s state machine; the
  session's draw is stored as soon as the last choice is made (1.10.5).
- :func:`session_draw` draws a session without choice (2a, 3.1.3; two-team sessions).
- :func:`appeal_swap_record` is 1.10.7; :func:`swiss_round_pair` is 1.8.2–1.8.6.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from itertools import combinations
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Max

from events.errors import ResultConflict, UserError
from events.limits import text_check
from events.models import Event, EventSystem
from events.services import UserLike, event_changed, event_require_open
from formats.gnot import draw as draw_engine
from formats.gnot import rules as engine
from formats.gnot import selectors
from formats.gnot.bridge import (
    EVENT_BANDS,
    VP_SCALES,
    BandRow,
    InvalidBandTable,
    event_band_scale,
    score_match,
)
from formats.gnot.draw import ChoiceRefused, GnotDrawError
from formats.gnot.models import (
    ChoiceKind,
    ChoiceRecord,
    GnotSetup,
    Half,
    MatchKind,
    MatchStatus,
    Section,
    SwissBye,
    SwissEntry,
    Team,
    TeamMatch,
    TeamMatchSlot,
)

POOL_BOARDS = 14  # 3.1.1 "a fourteen board match against each of the other teams"
DUEL_BOARDS = 28  # 3.3.2 "a twenty-eight board head-to-head match"
SWISS_BOARDS = 14  # 1.4


def _gnot(event: Event) -> None:
    if event.system != EventSystem.GNOT:
        raise UserError(f"{event.name} is not a GNOT bridge teams event")


def _done(event: Event, user: UserLike, action: str, summary: str, **values: Any) -> None:
    event_changed(event=event, user=user, action=action, summary=summary, **values)


# --- setup and teams ------------------------------------------------------------------------


def _known_scale(code: str, setup: GnotSetup) -> None:
    if code == EVENT_BANDS:
        if not setup.vp_bands:
            raise UserError("enter the event's band table first, then choose it")
        return
    if code not in VP_SCALES:
        known = ", ".join(sorted([*VP_SCALES, EVENT_BANDS]))
        raise UserError(f"unknown VP scale {code!r}; choose {known}")


def _swiss_started(event: Event) -> bool:
    return SwissEntry.objects.filter(event=event).exists()


def _whist_played(event: Event) -> bool:
    rows = TeamMatch.objects.filter(event=event, session="2a", stage=selectors.WHIST_STAGE)
    return rows.exclude(status=MatchStatus.SCHEDULED).exists()


@transaction.atomic
def gnot_setup_set(*, event: Event, vp_scale: str, user: UserLike) -> GnotSetup:
    """Choose the Swiss VP scale (1.8.1) from the registry or the event's own band table.

    Refused once a team has entered the Swiss: its entry score (1.8.3) was computed on the
    scale in use, so changing it would leave the stored scores on another scale.
    """
    event_require_open(event)
    _gnot(event)
    setup, _ = GnotSetup.objects.select_for_update().get_or_create(event=event)
    _known_scale(vp_scale, setup)
    if vp_scale != setup.vp_scale and _swiss_started(event):
        raise UserError(
            "teams have entered the Swiss on the current scale: it can no longer change"
        )
    if vp_scale != setup.vp_scale and not setup.whist_vp_scale and _whist_played(event):
        raise UserError(
            "the American Whist group, which uses the Swiss scale, has results: the scale can "
            "no longer change"
        )
    before = setup.vp_scale
    setup.vp_scale = vp_scale
    setup.save(update_fields=["vp_scale"])
    _done(event, user, "gnot.vp_scale", f"VP scale {vp_scale}", before=before, after=vp_scale)
    return setup


def parse_band_lines(text: str) -> dict[int, list[BandRow]]:
    """The band-table form: one band a line, ``BOARDS MARGIN WINNER LOSER`` (``14 3 16 14``);
    blank lines and lines starting with ``#`` are skipped. Tables are checked by the service."""
    tables: dict[int, list[BandRow]] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        parts = line.replace(",", " ").split()
        if not parts or parts[0].startswith("#"):
            continue
        if len(parts) != 4:
            raise UserError(f"line {number}: write BOARDS MARGIN WINNER LOSER, e.g. 14 3 16 14")
        try:
            boards, margin = int(parts[0]), int(parts[1])
            winner, loser = Decimal(parts[2]), Decimal(parts[3])
        except (ValueError, ArithmeticError):
            raise UserError(
                f"line {number}: boards and margin are whole numbers, VPs numbers"
            ) from None
        if boards < 1 or margin < 0 or not winner.is_finite() or not loser.is_finite():
            raise UserError(f"line {number}: boards start at 1, margins at 0")
        tables.setdefault(boards, []).append((margin, winner, loser))
    return tables


def band_lines(tables: dict[int, list[BandRow]]) -> str:
    """The inverse of :func:`parse_band_lines`, for the form's initial text."""
    return "\n".join(
        f"{boards} {margin} {winner} {loser}"
        for boards, rows in sorted(tables.items())
        for margin, winner, loser in rows
    )


@transaction.atomic
def gnot_bands_set(*, event: Event, tables: dict[int, list[BandRow]], user: UserLike) -> GnotSetup:
    """Store the event's own band table (scale ``event-bands``), checked band by band
    (:func:`formats.gnot.bridge.band_table`).

    Refused while the table is in use and something already depends on it: Swiss entries on
    the Swiss scale, or whist results on the whist scale.
    """
    event_require_open(event)
    _gnot(event)
    try:
        event_band_scale(tables)
    except InvalidBandTable as exc:
        raise UserError(str(exc)) from exc
    setup, _ = GnotSetup.objects.select_for_update().get_or_create(event=event)
    whist_code = setup.whist_vp_scale or setup.vp_scale
    if (setup.vp_scale == EVENT_BANDS and _swiss_started(event)) or (
        whist_code == EVENT_BANDS and _whist_played(event)
    ):
        raise UserError("results already depend on the event's band table: it can no longer change")
    stored = {
        str(boards): [[margin, str(winner), str(loser)] for margin, winner, loser in rows]
        for boards, rows in sorted(tables.items())
    }
    before = setup.vp_bands
    setup.vp_bands = stored
    setup.save(update_fields=["vp_bands"])
    count = sum(len(rows) for rows in tables.values())
    summary = f"Band table: {count} bands for {', '.join(map(str, sorted(tables)))} boards"
    _done(event, user, "gnot.vp_bands", summary, before=before, after=stored)
    return setup


@transaction.atomic
def gnot_whist_scale_set(*, event: Event, scale: str, boards: int, user: UserLike) -> GnotSetup:
    """The scale of the American Whist group (3.2.4.1 "the NSWBA scale for 8 board butler
    matches"): a registry code (blank: the Swiss scale) and the board count of its table.

    Refused once a whist match has a result: the group's VPs and the Swiss entry scores
    already depend on it.
    """
    event_require_open(event)
    _gnot(event)
    setup, _ = GnotSetup.objects.select_for_update().get_or_create(event=event)
    if scale:
        _known_scale(scale, setup)
    if not 1 <= boards <= 64:
        raise UserError("the scale's board count must be between 1 and 64")
    if _whist_played(event):
        raise UserError("the American Whist group has results: its scale can no longer change")
    before = {"scale": setup.whist_vp_scale, "boards": setup.whist_scale_boards}
    setup.whist_vp_scale, setup.whist_scale_boards = scale, boards
    setup.save(update_fields=["whist_vp_scale", "whist_scale_boards"])
    after = {"scale": scale, "boards": boards}
    summary = f"American Whist scale {scale or 'as the Swiss'} ({boards}-board table, 3.2.4.1)"
    _done(event, user, "gnot.whist_scale", summary, before=before, after=after)
    return setup


@transaction.atomic
def dko_winner_swiss_set(*, event: Event, joins: bool, user: UserLike) -> GnotSetup:
    """3.1.8: "At the Director's discretion the winner shall have the option of playing in the
    Swiss repechage on week five as a non-contending team."

    Offered once session 4 is decided; the winner then enters the next Swiss round paired
    (formats.gnot.selectors.swiss_droppers). Refused to withdraw once it has entered: its
    matches are part of its opponents' scores.
    """
    event_require_open(event)
    _gnot(event)
    rows = selectors.match_rows(event)
    dko = selectors.decided_outcome(rows, "4")
    if dko is None:
        raise UserError("session 4 is not decided: the Double Knockout has no winner yet (3.1.8)")
    setup, _ = GnotSetup.objects.select_for_update().get_or_create(event=event)
    winner = Team.objects.get(event=event, team_no=dko.winner)
    entered = SwissEntry.objects.filter(event=event, team=winner).exists()
    if entered and not joins:
        raise UserError(
            f"{winner.name} has already entered the Swiss; its matches stay in its opponents' "
            "scores"
        )
    before = setup.dko_winner_swiss
    setup.dko_winner_swiss = joins
    setup.save(update_fields=["dko_winner_swiss"])
    what = "plays the Swiss as a non-contending team" if joins else "does not play the Swiss"
    _done(
        event,
        user,
        "gnot.dko_winner_swiss",
        f"{winner.name} {what} (3.1.8)",
        before=before,
        after=joins,
    )
    return setup


@dataclass(frozen=True)
class TeamFields:
    name: str
    players: str = ""
    team_no: int | None = None


def parse_team_lines(text: str) -> list[TeamFields]:
    """One team a line: ``name`` or ``name; players`` (blank lines skipped)."""
    found = []
    for line_no, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        name, _, players = line.partition(";")
        if not name.strip():
            raise UserError(f"line {line_no}: a team needs a name")
        found.append(TeamFields(name.strip(), players.strip()))
    return found


@transaction.atomic
def teams_register(*, event: Event, teams: Sequence[TeamFields], user: UserLike) -> list[Team]:
    """Register teams; each gets the next team number unless one is given."""
    event_require_open(event)
    _gnot(event)
    if TeamMatch.objects.filter(event=event).exists():
        raise UserError("the field is seeded and drawn: teams cannot be added now")
    if not teams:
        raise UserError("enter at least one team")
    next_no = (Team.objects.filter(event=event).aggregate(m=Max("team_no"))["m"] or 0) + 1
    created = []
    for fields in teams:
        team_no = fields.team_no or next_no
        next_no = max(next_no, team_no) + 1
        if Team.objects.filter(event=event, team_no=team_no).exists():
            raise UserError(f"team number {team_no} is already used")
        text_check(fields.name, f"team {team_no}'s name")
        text_check(fields.players, f"team {team_no}'s players")
        created.append(
            Team.objects.create(
                event=event, team_no=team_no, name=fields.name[:200], players=fields.players
            )
        )
    names = ", ".join(t.name for t in created)
    _done(event, user, "gnot.teams_register", f"Registered {len(created)} teams: {names}")
    return created


def team_register(*, event: Event, name: str, players: str = "", user: UserLike) -> Team:
    """Register one team with the next team number."""
    return teams_register(event=event, teams=[TeamFields(name, players)], user=user)[0]


# --- seeding and week one (1.5, 3.1.1, 3.2, 3.3, 3.4.1) ------------------------------------


def _match_create(
    event: Event, *, session: str, pair: tuple[Team, Team], **fields: Any
) -> TeamMatch:
    home, away = pair
    try:
        with transaction.atomic():
            match = TeamMatch.objects.create(
                event=event, session=session, home=home, away=away, **fields
            )
            for team in pair:
                TeamMatchSlot.objects.create(
                    event=event, session=session, round=match.round, team=team, match=match
                )
    except IntegrityError as exc:
        raise UserError(
            f"{home.name} or {away.name} already plays in session {session} round "
            f"{fields.get('round', 1)}"
        ) from exc
    return match


def _pool_matches(
    event: Event, session: str, stage: str, teams: Sequence[Team], first_table: int
) -> int:
    """A pool or triangle: every team plays each other over 14 boards (3.1.1)."""
    table = first_table
    for round_no, pair in enumerate(combinations(teams, 2), start=1):
        _match_create(
            event,
            session=session,
            pair=pair,
            round=round_no,
            stage=stage,
            table=table,
            boards=POOL_BOARDS,
            half=Half.FULL,
        )
        table += 1
    return table


def _week_one_store(event: Event, draw: draw_engine.WeekOneDraw, teams: dict[int, Team]) -> None:
    table = 1
    for pool in draw.pools_of_three:
        for team_no in pool.teams:
            teams[team_no].pool = pool.name
        table = _pool_matches(event, "1", pool.name, [teams[n] for n in pool.teams], table)
    for pool in draw.pools_of_four:
        for team_no in pool.teams:
            teams[team_no].pool = pool.name
        for pair in draw_engine.pool_of_four_first_half(pool):
            _match_create(
                event,
                session="1",
                pair=(teams[pair[0]], teams[pair[1]]),
                round=1,
                stage=pool.name,
                table=table,
                boards=POOL_BOARDS,
                half=Half.FIRST,
            )
            table += 1
    for index, (top, middle) in enumerate(draw.head_to_heads, start=1):
        teams[top].pool = teams[middle].pool = f"H{index}"
        _match_create(
            event,
            session="1",
            pair=(teams[top], teams[middle]),
            round=1,
            stage=f"H{index}",
            table=table,
            boards=DUEL_BOARDS,
            half=Half.FULL,
        )
        table += 1


@transaction.atomic
def teams_seed(*, event: Event, order: Sequence[int], user: UserLike) -> None:
    """Seed the field (``order``: team numbers, best first) and store week one's draw."""
    event_require_open(event)
    _gnot(event)
    teams = {t.team_no: t for t in Team.objects.filter(event=event)}
    if sorted(order) != sorted(teams):
        raise UserError("the seeding must list every registered team exactly once")
    if TeamMatch.objects.filter(event=event).exclude(session="1").exists() or (
        TeamMatch.objects.filter(event=event).exclude(status=MatchStatus.SCHEDULED).exists()
    ):
        raise UserError("week one has results: the seeding can no longer change")
    try:
        draw = draw_engine.week_one_draw(list(order))
    except GnotDrawError as exc:
        raise UserError(str(exc)) from exc
    TeamMatch.objects.filter(event=event).delete()
    Team.objects.filter(event=event).update(seed=None, section="", pool="")
    sections = {
        Section.TOP: draw.sections.top,
        Section.MIDDLE: draw.sections.middle,
        Section.BOTTOM: draw.sections.bottom,
    }
    section_of = {no: section for section, nos in sections.items() for no in nos}
    for seed_no, team_no in enumerate(order, start=1):
        team = teams[team_no]
        team.seed, team.section = seed_no, section_of[team_no]
    _week_one_store(event, draw, teams)
    Team.objects.bulk_update(teams.values(), ["seed", "section", "pool"])
    summary = (
        f"Seeded {len(order)} teams: {len(draw.pools_of_three)} pools of three, "
        f"{len(draw.pools_of_four)} pools of four, {len(draw.head_to_heads)} head-to-heads"
    )
    _done(event, user, "gnot.seed", summary, after={"order": list(order)})


# --- results and the tie rules of 1.9 ------------------------------------------------------


@dataclass(frozen=True)
class ScoreInput:
    """What the director typed: IMPs, or each board's net score for the home team, or both."""

    home_imps: int | None = None
    away_imps: int | None = None
    board_nets: tuple[int, ...] = ()


def _imps(score: ScoreInput, boards: int, what: str) -> tuple[int, int, list[int]]:
    if score.board_nets:
        if len(score.board_nets) != boards:
            raise UserError(f"{what}: enter {boards} board scores, not {len(score.board_nets)}")
        scored = score_match(score.board_nets)
        given = (score.home_imps, score.away_imps)
        if given != (None, None) and given != (scored.home_imps, scored.away_imps):
            raise UserError(
                f"{what}: the board scores give {scored.home_imps}–{scored.away_imps} IMPs, "
                f"not {score.home_imps}–{score.away_imps}"
            )
        return scored.home_imps, scored.away_imps, list(score.board_nets)
    if score.home_imps is None or score.away_imps is None:
        raise UserError(f"{what}: enter both teams' IMPs or every board's net score")
    if score.home_imps < 0 or score.away_imps < 0:
        raise UserError(f"{what}: IMPs cannot be negative")
    return score.home_imps, score.away_imps, []


def _label(row: TeamMatch) -> str:
    return f"session {row.session} {row.stage or ''} {row.home.name} v {row.away.name}".replace(
        "  ", " "
    )


def _score_text(row: TeamMatch) -> str:
    if row.home_imps is None:
        return "not played"
    playoffs = "".join(f" (playoff {p['home_imps']}–{p['away_imps']})" for p in row.playoffs)
    return f"{row.home_imps}–{row.away_imps}{playoffs}"


def _snapshot(row: TeamMatch) -> dict[str, Any]:
    return {
        "match": row.pk,
        "final_spot": row.final_spot,
        "home_imps": row.home_imps,
        "away_imps": row.away_imps,
        "board_nets": row.board_nets,
        "playoffs": row.playoffs,
        "status": row.status,
        "winner": row.winner.team_no if row.winner else None,
        "decided_by": row.decided_by,
    }


def match_decide(*, event: Event, row: TeamMatch) -> None:
    """Set the row's status from the engine (no save): 1.9's tie rules for matches that need
    a winner; pool and Swiss matches simply stand, drawn or not."""
    row.playoff_boards, row.playoff_clause, row.decided_by, row.winner = None, "", "", None
    if row.home_imps is None:
        row.status = MatchStatus.SCHEDULED
        return
    if not selectors.needs_winner(row):
        row.status = MatchStatus.PLAYED
        winner = selectors.engine_match(row).imp_winner
        row.winner = None if winner is None else _side(row, winner)
        return
    try:
        decided = engine.decide_match(
            selectors.engine_match(row),
            selectors.tie_rule(row),
            playoffs=selectors.engine_playoffs(row),
            seed=event.lots_seed,
            purpose=selectors.lot_purpose(row),
        )
    except engine.MissingBoardScores as exc:
        raise UserError(
            f"{_label(row)}: the match is tied; 1.9.1 rescores it board by board, so enter "
            "every board's net score (and the playoff boards')"
        ) from exc
    except engine.GnotError as exc:
        raise UserError(f"{_label(row)}: {exc}") from exc
    if isinstance(decided, engine.PlayoffNeeded):
        row.status = MatchStatus.PLAYOFF_NEEDED
        row.playoff_boards, row.playoff_clause = decided.boards, decided.clause
        return
    row.status = MatchStatus.DECIDED
    row.winner, row.decided_by = _side(row, decided.winner), decided.decided_by


def _side(row: TeamMatch, team_no: int) -> Team:
    return row.home if row.home.team_no == team_no else row.away


def _locked_row(
    event: Event, match_id: int, expected_version: int | None, attempted: str
) -> TeamMatch:
    row = (
        TeamMatch.objects.select_for_update(of=("self",))
        .select_related("home", "away", "winner")
        .filter(event=event, pk=match_id)
        .first()
    )
    if row is None:
        raise UserError(f"there is no match {match_id} in {event.name}")
    if expected_version is not None and expected_version != row.version:
        raise ResultConflict(
            f"{_label(row)} was changed by someone else since you opened it: it is now "
            f"{_score_text(row)}",
            current=_score_text(row),
            attempted=attempted,
            current_version=row.version,
        )
    return row


@transaction.atomic
def match_result_record(
    *,
    event: Event,
    match_id: int,
    score: ScoreInput,
    user: UserLike,
    expected_version: int | None = None,
    final_spot: bool | None = None,
) -> TeamMatch:
    """Record a match's result (a correction clears its playoffs) and decide it under 1.9.

    A correction of a pool, triangle or whist match first removes what the old result had
    scheduled on its own and is still unplayed (a pool of four's second half, a pool
    playoff), so that :func:`schedule_follow_ups` pairs them again from the new result; it is
    refused while any of them has a result (undo that one first). A correction after a
    session was drawn from the result keeps the draw (1.10.7: the director swaps positions).
    """
    event_require_open(event)
    attempted = f"{score.home_imps}–{score.away_imps}"
    row = _locked_row(event, match_id, expected_version, attempted)
    before = _snapshot(row)
    row.home_imps, row.away_imps, row.board_nets = _imps(score, row.boards, _label(row))
    row.playoffs = []
    if final_spot is not None:
        row.final_spot = final_spot
    if before["status"] != MatchStatus.SCHEDULED:
        _follow_ups_clear(event, row)
    return _save_decided(event, row, user, before, "gnot.result")


def _follow_ups_clear(event: Event, row: TeamMatch) -> None:
    pending = selectors.follow_ups(row, selectors.match_rows(event))
    played = [f for f in pending if f.status != MatchStatus.SCHEDULED]
    if played:
        first = played[0]
        raise UserError(
            f"{_label(row)}: {first.home.name} v {first.away.name} (round {first.round}) was "
            "scheduled from this result and has been played; undo its result first"
        )
    TeamMatch.objects.filter(pk__in=[f.pk for f in pending]).delete()  # slots cascade


@transaction.atomic
def match_playoff_record(
    *,
    event: Event,
    match_id: int,
    score: ScoreInput,
    user: UserLike,
    expected_version: int | None = None,
) -> TeamMatch:
    """Record the playoff boards the engine asked for (1.9.2, 1.9.3) and decide again."""
    event_require_open(event)
    attempted = f"playoff {score.home_imps}–{score.away_imps}"
    row = _locked_row(event, match_id, expected_version, attempted)
    if row.status != MatchStatus.PLAYOFF_NEEDED or row.playoff_boards is None:
        raise UserError(f"{_label(row)} needs no playoff")
    before = _snapshot(row)
    home, away, nets = _imps(score, row.playoff_boards, f"{_label(row)} playoff")
    row.playoffs = [*row.playoffs, {"home_imps": home, "away_imps": away, "boards": nets}]
    return _save_decided(event, row, user, before, "gnot.playoff")


def _save_decided(
    event: Event, row: TeamMatch, user: UserLike, before: dict[str, Any], action: str
) -> TeamMatch:
    match_decide(event=event, row=row)
    row.version += 1
    row.save()
    schedule_follow_ups(event=event)
    after = _snapshot(row)
    summary = f"{_label(row)}: {_score_text(row)} ({row.get_status_display()}"
    if row.winner is not None and row.status == MatchStatus.DECIDED:
        summary += f", {row.winner.name} wins by {row.decided_by}"
        if row.decided_by == "lot":
            after["lot"] = {"seed": "event lots seed", "purpose": selectors.lot_purpose(row)}
    if row.status == MatchStatus.PLAYOFF_NEEDED:
        summary += f", {row.playoff_boards}-board playoff under {row.playoff_clause}"
    _done(event, user, action, summary + ")", before=before, after=after)
    return row


def schedule_follow_ups(*, event: Event) -> None:
    """What a result makes possible on its own: a pool of four's second half (3.2.3), a
    pool's or triangle's playoff (3.1.1, 3.3.3) and the American Whist group's two-board
    playoff for first place (3.2.4.1)."""
    rows = selectors.match_rows(event)
    for session in ("1", "2a"):
        for pool in selectors.pools(rows, session, event.lots_seed):
            if pool.kind == "four":
                _pool_of_four_second_half(event, pool)
            elif pool.playoff_needed is not None:
                _pool_playoff(event, pool, pool.playoff_needed)
    if any(r.stage == selectors.WHIST_STAGE for r in rows):
        whist = selectors.whist_group(rows, event.lots_seed, selectors.whist_scoring(event))
        if whist is not None and whist.playoff_needed is not None:
            _pool_playoff(event, whist, whist.playoff_needed)


def _first_half_decided(pool: selectors.PoolTable) -> list[TeamMatch] | None:
    """A pool of four's first-half matches once both are decided and the second half is not
    drawn yet (3.2.3); else None."""
    first = [m for m in pool.matches if m.round == 1]
    if len(pool.matches) != 2 or any(m.status != MatchStatus.DECIDED for m in first):
        return None
    return first


def _first_half_winners_losers(
    first: Sequence[TeamMatch],
) -> tuple[tuple[int, int], tuple[int, int]]:
    """The first half's two winners and two losers, in table order (3.2.3)."""
    teams = [t.team_no for m in first for t in (m.home, m.away)]
    winners = tuple(m.winner.team_no for m in first if m.winner is not None)
    losers = tuple(t for t in teams if t not in winners)
    return (winners[0], winners[1]), (losers[0], losers[1])


def _pool_of_four_second_half(event: Event, pool: selectors.PoolTable) -> None:
    first = _first_half_decided(pool)
    if first is None:
        return
    teams = {t.team_no: t for m in first for t in (m.home, m.away)}
    table = max(m.table for m in pool.matches) + 1
    halves = draw_engine.pool_of_four_second_half(*_first_half_winners_losers(first))
    for home, away in halves:
        _match_create(
            event,
            session="1",
            pair=(teams[home], teams[away]),
            round=2,
            stage=pool.name,
            table=table,
            boards=POOL_BOARDS,
            half=Half.SECOND,
        )
        table += 1


def _pool_playoff(event: Event, pool: selectors.PoolTable, needed: engine.PlayoffNeeded) -> None:
    """3.1.1: two teams tied for first play two boards; three tied play a one-board triangle.
    3.2.4.1: teams tied for first in the whist group play two boards, each pair of them."""
    if any(p.status == MatchStatus.SCHEDULED for p in pool.playoffs):
        return
    teams = {t.team_no: t for m in pool.matches for t in (m.home, m.away)}
    last = max(m.round for m in (*pool.matches, *pool.playoffs))
    table = max(m.table for m in (*pool.matches, *pool.playoffs)) + 1
    for offset, (a, b) in enumerate(combinations(needed.teams, 2), start=1):
        _match_create(
            event,
            session=pool.session,
            pair=(teams[a], teams[b]),
            round=last + offset,
            stage=pool.name,
            table=table,
            boards=needed.boards,
            half=Half.FULL,
            kind=MatchKind.POOL_PLAYOFF,
        )
        table += 1


# --- choice of opponents (1.10, 3.1.2–3.1.11) ---------------------------------------------


def _open_choice(event: Event, code: str) -> selectors.ChoiceStep:
    _gnot(event)
    if code not in draw_engine.SESSIONS or code == "2a":
        raise UserError(f"session {code} has no choice of opponents")
    view = selectors.choice_view(event, code)
    if not view.entrants.ready:
        raise UserError(f"session {code} cannot start: {view.entrants.waiting}")
    if view.drawn:
        raise UserError(f"session {code} has already been drawn")
    if view.problem or view.state is None:
        raise UserError(f"session {code}: {view.problem}")
    if view.next_chooser is None:
        raise UserError(f"choosing is over in session {code}")
    return view


def _teams_by_no(event: Event) -> dict[int, Team]:
    return {t.team_no: t for t in Team.objects.filter(event=event)}


def _next_seq(event: Event, code: str) -> int:
    last = ChoiceRecord.objects.filter(event=event, session=code).aggregate(m=Max("seq"))["m"]
    return (last or 0) + 1


def _store_choice(
    event: Event,
    view: selectors.ChoiceStep,
    state: draw_engine.ChoiceState,
    *,
    by_lot: bool,
    user: UserLike,
) -> ChoiceRecord:
    choice = state.choices[-1]
    teams = _teams_by_no(event)
    record = ChoiceRecord.objects.create(
        event=event,
        session=view.code,
        seq=_next_seq(event, view.code),
        kind=ChoiceKind.CHOICE,
        chooser=teams[choice.chooser],
        chosen=teams[choice.opponent],
        by_director=choice.by_director,
        by_lot=by_lot,
    )
    how = (
        " (drawn by lot by the director, 1.10.6)"
        if by_lot
        else (" (the director's choice, 1.10.6)" if choice.by_director else "")
    )
    chooser, chosen = teams[choice.chooser].name, teams[choice.opponent].name
    summary = f"Session {view.code}: {chooser} chose {chosen}{how}"
    if state.next_chooser is None:
        _draw_store(event, view.code, draw_engine.choice_draw(state), teams)
        summary += "; the draw is made"
    _done(
        event,
        user,
        "gnot.choice",
        summary,
        after={"chooser": choice.chooser, "chosen": choice.opponent},
    )
    return record


@transaction.atomic
def choice_record(
    *, event: Event, session: str, chosen: int, user: UserLike, by_director: bool = False
) -> ChoiceRecord:
    """The next chooser (or, after a forfeit, the director) takes ``chosen``; a refused choice
    raises :class:`UserError` with :class:`formats.gnot.draw.ChoiceRefused`'s reason."""
    event_require_open(event)
    view = _open_choice(event, session)
    assert view.state is not None
    try:
        state = draw_engine.choice_apply(view.state, chosen, by_director=by_director)
    except ChoiceRefused as exc:
        raise UserError(f"choice refused: {exc.reason}") from exc
    return _store_choice(event, view, state, by_lot=False, user=user)


@transaction.atomic
def choice_forfeit_record(*, event: Event, session: str, user: UserLike) -> ChoiceRecord:
    """1.10.6: the next chooser had no representative present; the director chooses for it."""
    event_require_open(event)
    view = _open_choice(event, session)
    chooser = view.next_chooser
    if view.forfeited:
        raise UserError(f"team {chooser} has already forfeited its choice")
    teams = _teams_by_no(event)
    record = ChoiceRecord.objects.create(
        event=event,
        session=session,
        seq=_next_seq(event, session),
        kind=ChoiceKind.FORFEIT,
        chooser=teams[chooser],  # type: ignore[index]
    )
    name = teams[chooser].name  # type: ignore[index]
    _done(
        event,
        user,
        "gnot.choice_forfeit",
        f"Session {session}: {name} forfeited its choice (1.10.6)",
    )
    return record


@transaction.atomic
def choice_lot_record(*, event: Event, session: str, user: UserLike) -> ChoiceRecord:
    """After a forfeit, the director's choice drawn by lot among the allowed opponents."""
    event_require_open(event)
    view = _open_choice(event, session)
    assert view.state is not None
    try:
        state = draw_engine.choice_by_lot(
            view.state, seed=event.lots_seed, purpose=f"gnot-choice-{session}"
        )
    except ChoiceRefused as exc:
        raise UserError(f"choice refused: {exc.reason}") from exc
    return _store_choice(event, view, state, by_lot=True, user=user)


def _draw_store(
    event: Event, code: str, pairs: Sequence[tuple[int, int]], teams: dict[int, Team]
) -> None:
    spec = draw_engine.SESSIONS[code]
    for table, (home, away) in enumerate(pairs, start=1):
        _match_create(
            event,
            session=code,
            pair=(teams[home], teams[away]),
            round=1,
            table=table,
            boards=spec.boards,
            half=spec.half,
            final_spot=code == "5",
        )


@transaction.atomic
def session_draw(*, event: Event, session: str, user: UserLike) -> int:
    """Draw a session without (or after) choice: 2a from week one (3.1.3, 3.3.3, 3.4.2), a
    two-team session (3.1.8, 3.1.10, 3.1.11). Returns the number of matches stored."""
    event_require_open(event)
    _gnot(event)
    if session not in draw_engine.SESSIONS:
        raise UserError(f"there is no session {session!r}")
    rows = selectors.match_rows(event)
    if any(r.session == session for r in rows):
        raise UserError(f"session {session} has already been drawn")
    teams = _teams_by_no(event)
    if session == "2a":
        count = _week_two_store(event, rows, teams)
    else:
        view = _open_or_finished(event, session)
        assert view.state is not None
        if view.next_chooser is not None:
            raise UserError(f"session {session}: team {view.next_chooser} has still to choose")
        pairs = draw_engine.choice_draw(view.state)
        _draw_store(event, session, pairs, teams)
        count = len(pairs)
    _done(event, user, "gnot.session_draw", f"Session {session} drawn: {count} matches")
    return count


def _open_or_finished(event: Event, code: str) -> selectors.ChoiceStep:
    view = selectors.choice_view(event, code)
    if not view.entrants.ready:
        raise UserError(f"session {code} cannot start: {view.entrants.waiting}")
    if view.problem or view.state is None:
        raise UserError(f"session {code}: {view.problem}")
    return view


def _week_two_store(event: Event, rows: Sequence[TeamMatch], teams: dict[int, Team]) -> int:
    first = selectors.week_one(rows, event.lots_seed)
    if not first.complete:
        raise UserError("session 2a cannot start: week one is not complete")
    entries = len(teams)
    try:
        draw = draw_engine.week_two_draw(
            entries,
            runners_up=first.runners_up,
            thirds=first.thirds,
            duel_losers=first.duel_losers,
            fourths=first.fourths,
            met=selectors.knockout_meetings(rows),
        )
    except GnotDrawError as exc:
        raise UserError(str(exc)) from exc
    table = 1
    for home, away in draw.session_2a:
        _match_create(
            event,
            session="2a",
            pair=(teams[home], teams[away]),
            round=1,
            table=table,
            boards=POOL_BOARDS,
            half=Half.FIRST,
        )
        table += 1
    for index, triangle in enumerate(draw.triangles, start=1):
        table = _pool_matches(event, "2a", f"T{index}", [teams[n] for n in triangle], table)
    for index, (home, away) in enumerate(draw.head_to_heads, start=1):
        _match_create(
            event,
            session="2a",
            pair=(teams[home], teams[away]),
            round=1,
            stage=f"H{index}",
            table=table,
            boards=DUEL_BOARDS,
            half=Half.FULL,
        )
        table += 1
    if draw.whist:
        for round_no, (home, away) in draw_engine.whist_schedule(draw.whist):
            _match_create(
                event,
                session="2a",
                pair=(teams[home], teams[away]),
                round=round_no,
                stage=selectors.WHIST_STAGE,
                table=table,
                boards=selectors.WHIST_BOARDS,
                half=Half.FULL,
            )
            table += 1
    return table - 1


def _appeal_swap_check(session: str, matches: Sequence[TeamMatch]) -> None:
    """1.10.7's swap is of a drawn session whose matches are not played yet."""
    if not matches:
        raise UserError(f"session {session} has not been drawn")
    if any(m.status != MatchStatus.SCHEDULED for m in matches):
        raise UserError(f"session {session} has results: positions can no longer be swapped")


def _matches_reseat(
    event: Event,
    session: str,
    matches: Sequence[TeamMatch],
    pairs: Sequence[tuple[int, int]],
    teams: dict[int, Team],
) -> None:
    """Give each match its new pair of teams, and the teams their slots in it."""
    TeamMatchSlot.objects.filter(match__in=matches).delete()
    for match, (home, away) in zip(matches, pairs, strict=True):
        match.home, match.away = teams[home], teams[away]
        match.version += 1
        match.save(update_fields=["home", "away", "version"])
        for team in (match.home, match.away):
            TeamMatchSlot.objects.create(
                event=event, session=session, round=match.round, team=team, match=match
            )


@transaction.atomic
def appeal_swap_record(
    *, event: Event, session: str, first: int, second: int, user: UserLike
) -> ChoiceRecord:
    """1.10.7: an appeal changed a result after the draw was made: the draw is unchanged
    except that the two teams of the appealed match swap positions."""
    event_require_open(event)
    _gnot(event)
    matches = list(
        TeamMatch.objects.select_for_update()
        .filter(event=event, session=session)
        .select_related("home", "away")
    )
    _appeal_swap_check(session, matches)
    teams = _teams_by_no(event)
    if first not in teams or second not in teams or first == second:
        raise UserError("name the two different teams of the appealed match")
    pairs = [(m.home.team_no, m.away.team_no) for m in matches]
    swapped = draw_engine.appeal_swap(pairs, first, second)
    _matches_reseat(event, session, matches, swapped, teams)
    record = ChoiceRecord.objects.create(
        event=event,
        session=session,
        seq=_next_seq(event, session),
        kind=ChoiceKind.APPEAL_SWAP,
        chooser=teams[first],
        chosen=teams[second],
        by_director=True,
    )
    summary = (
        f"Session {session}: {teams[first].name} and {teams[second].name} swap positions (1.10.7)"
    )
    _done(event, user, "gnot.appeal_swap", summary, before=pairs, after=[list(p) for p in swapped])
    return record


# --- the Swiss repechage (1.8) --------------------------------------------------------------


def _entry_scores(
    view: selectors.SwissTable, droppers: Sequence[selectors.Dropper], round_no: int
) -> dict[int, Fraction]:
    """1.8.3 for teams dropping from a knock-out; 3.3.3 / 3.4.2's own scores for triangles."""
    scores = {}
    for dropper in droppers:
        if dropper.fixed_entry is not None:
            scores[dropper.team_no] = dropper.fixed_entry
        elif round_no == 1 or not view.order:
            scores[dropper.team_no] = Fraction(0)
        else:
            scores[dropper.team_no] = engine.swiss_entry_score(
                view.scale, matches_played=round_no - 1, leader=view.leader_vps
            )
    return scores


def _ranked_by_loss(
    event: Event, droppers: Sequence[selectors.Dropper], round_no: int
) -> list[int]:
    """1.8.4: the teams dropping from a knock-out, ranked by the loss they suffered."""
    losses = [d.outcome for d in droppers if d.outcome is not None]
    order = engine.rank_droppers(
        losses, seed=event.lots_seed, purpose=f"gnot-swiss-drop-{round_no}"
    )
    return [r.team_no for r in order]


def _ranked_by_fixed_entry(droppers: Sequence[selectors.Dropper]) -> list[int]:
    """The contending teams with a fixed entry score (3.3.3, 3.4.2), best score first."""
    fixed = sorted(
        (d for d in droppers if d.outcome is None and not d.non_contending),
        key=lambda d: (-(d.fixed_entry or 0), d.team_no),
    )
    return [d.team_no for d in fixed]


def _ranked_droppers(
    event: Event, droppers: Sequence[selectors.Dropper], round_no: int
) -> list[int]:
    """1.8.4: by the loss suffered; teams with a fixed entry score follow, best score first;
    the non-contending Double Knockout winner (3.1.8) comes last (decision: it lost nothing)."""
    guests = sorted(d.team_no for d in droppers if d.non_contending)
    return _ranked_by_loss(event, droppers, round_no) + _ranked_by_fixed_entry(droppers) + guests


def _swiss_draw(
    event: Event, view: selectors.SwissTable, ranked: list[int]
) -> draw_engine.SwissDraw:
    """Round 1 by lot (1.8.2); later rounds the k-th Swiss team against the k-th dropper
    (1.8.5), the rest top against top without rematches (1.8.6)."""
    if not view.order:
        return draw_engine.swiss_first_round(ranked, seed=event.lots_seed, purpose="gnot-swiss-1")
    swiss_met = draw_engine.meetings(
        (m.home.team_no, m.away.team_no) for ms in view.rounds.values() for m in ms
    )
    had_bye = frozenset(b.team.team_no for b in view.byes.values())
    return draw_engine.swiss_round(view.order, ranked, met=swiss_met, had_bye=had_bye)


def _swiss_entries_create(
    event: Event,
    teams: dict[int, Team],
    droppers: Sequence[selectors.Dropper],
    ranked: Sequence[int],
    scores: dict[int, Fraction],
    round_no: int,
) -> None:
    """The teams entering the Swiss this round, with their entry score and rank (1.8.3, 1.8.4)."""
    guests = {d.team_no for d in droppers if d.non_contending}
    for rank, team_no in enumerate(ranked, start=1):
        SwissEntry.objects.create(
            event=event,
            team=teams[team_no],
            round=round_no,
            entry_score=str(scores[team_no]),
            entry_rank=rank,
            non_contending=team_no in guests,
        )


def _swiss_round_create(
    event: Event,
    teams: dict[int, Team],
    draw: draw_engine.SwissDraw,
    view: selectors.SwissTable,
    round_no: int,
) -> None:
    """The round's matches and its bye."""
    for table, (home, away) in enumerate(draw.pairings, start=1):
        _match_create(
            event,
            session="swiss",
            pair=(teams[home], teams[away]),
            round=round_no,
            table=table,
            boards=SWISS_BOARDS,
            half=Half.FULL,
        )
    if draw.bye is not None:
        SwissBye.objects.create(
            event=event,
            round=round_no,
            team=teams[draw.bye],
            vps=str(selectors.bye_vps(view.scale)),
        )


@transaction.atomic
def swiss_round_pair(*, event: Event, user: UserLike) -> int:
    """Pair the next Swiss round: round 1 by lot (1.8.2); later rounds the k-th Swiss team
    against the k-th dropper (1.8.5), the rest top against top without rematches (1.8.6)."""
    event_require_open(event)
    _gnot(event)
    view = selectors.swiss_view(event)
    round_no = view.next_round
    if not view.round_complete:
        raise UserError(f"Swiss round {round_no - 1} is not complete")
    droppers = list(view.waiting)
    ranked = _ranked_droppers(event, droppers, round_no)
    if len(view.order) + len(ranked) < 2:
        raise UserError("the Swiss needs at least two teams")
    scores = _entry_scores(view, droppers, round_no)
    draw = _swiss_draw(event, view, ranked)
    teams = _teams_by_no(event)
    _swiss_entries_create(event, teams, droppers, ranked, scores, round_no)
    _swiss_round_create(event, teams, draw, view, round_no)
    summary = f"Swiss round {round_no} paired: {len(draw.pairings)} matches, {len(ranked)} entering"
    if draw.rematches:
        summary += f", {len(draw.rematches)} unavoidable rematches"
    _done(event, user, "gnot.swiss_pair", summary, after={"entering": ranked})
    return round_no


# --- qualification (1.11.3) -----------------------------------------------------------------


@transaction.atomic
def team_decline_set(*, event: Event, team_no: int, declined: bool, user: UserLike) -> Team:
    """1.11.3: a qualified team opts not to proceed (or changes its mind)."""
    event_require_open(event)
    _gnot(event)
    team = Team.objects.select_for_update().filter(event=event, team_no=team_no).first()
    if team is None:
        raise UserError(f"there is no team {team_no}")
    before = team.declined
    team.declined = declined
    team.save(update_fields=["declined"])
    what = "opts not to proceed" if declined else "proceeds"
    _done(
        event, user, "gnot.decline", f"{team.name} {what} (1.11.3)", before=before, after=declined
    )
    return team
