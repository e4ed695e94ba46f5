"""MSO multi-player writes (seed 003 multi-player games): seat a round's tables, record a
table's scores. HackSoft style: ``noun_verb``, keyword-only, one transaction, one audit entry,
the results version bumped; a :class:`~events.errors.UserError` changes nothing.

- :func:`multi_round_tables_set` seats the players of a round at numbered tables (and records
  byes through ``round_pairings_set``, so a bye still takes the player's ``RoundSlot``);
  it replaces the seating only while no score is in.
- :func:`multi_game_scores_record` records every seat's game score in one go: all seats, each
  a number, nobody twice; ``expected_version`` makes two people editing one table a clear
  :class:`~events.errors.ResultConflict`, never a silent overwrite.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from django.db import IntegrityError, transaction

from events.errors import ImportFailed, ResultConflict, UserError
from events.models import AuditEntry, Event, Player, Round
from events.services import (
    ByeInput,
    UserLike,
    event_changed,
    event_require_open,
    event_version_bump,
    round_pairings_set,
)
from formats.mso.models import MultiGame, MultiGameScore, TableAuditEntry
from formats.mso.rules import MultiPlayerError
from formats.mso.selectors import is_multi_player, points_table_of

SCORE_PLACES = Decimal("0.0001")  # the model keeps four decimal places
SCORE_LIMIT = Decimal("1e10")


class ScoreError(UserError):
    """A table's scores a user can fix; ``start_no`` names the seat at fault (None: the table)."""

    def __init__(self, message: str, start_no: int | None = None) -> None:
        super().__init__(message)
        self.start_no = start_no


@dataclass(frozen=True)
class TableInput:
    board: int
    players: tuple[int, ...]  # start numbers, seat order
    scores: tuple[str, ...] = ()  # optional (imports): one per seat, exact decimal text


def parse_score(text: str, start_no: int) -> Decimal:
    """A game score as an exact decimal (no floats): "12", "-3", "7.5"."""
    raw = str(text).strip()
    if not raw:
        raise ScoreError(f"player {start_no} has no score: every seat needs one", start_no)
    try:
        value = Decimal(raw)
    except InvalidOperation as exc:
        raise ScoreError(f"player {start_no}: {raw!r} is not a number", start_no) from exc
    if not value.is_finite() or abs(value) >= SCORE_LIMIT:
        raise ScoreError(f"player {start_no}: {raw!r} is not a game score", start_no)
    if value != value.quantize(SCORE_PLACES):
        raise ScoreError(f"player {start_no}: at most four decimal places ({raw!r})", start_no)
    return value


def _check_tables(
    event: Event, round_no: int, tables: Sequence[TableInput], byes: Sequence[ByeInput]
) -> dict[int, Player]:
    players = {p.start_no: p for p in Player.objects.filter(event=event)}
    seen: dict[int, str] = {}
    boards: set[int] = set()
    sizes = {size for size, _ in points_table_of(event).by_size}
    for table in tables:
        where = f"round {round_no}, table {table.board}"
        if table.board < 1 or table.board in boards:
            raise UserError(f"{where}: the table number is used twice or is not positive")
        boards.add(table.board)
        if len(table.players) not in sizes:
            raise UserError(
                f"{where}: {len(table.players)} players; the points table covers tables of "
                f"{', '.join(str(size) for size in sorted(sizes))}"
            )
        for start_no in table.players:
            _claim(seen, start_no, where, players)
    for bye in byes:
        _claim(seen, bye.start_no, f"round {round_no}, bye", players)
    return players


def _claim(seen: dict[int, str], start_no: int, where: str, players: Mapping[int, Player]) -> None:
    if start_no not in players:
        raise UserError(f"{where}: there is no player with start number {start_no}")
    if start_no in seen:
        raise UserError(f"{where}: player {start_no} is already in this round ({seen[start_no]})")
    seen[start_no] = where


def _round_open(event: Event, round_no: int) -> None:
    if not is_multi_player(event):
        raise UserError("this event does not use the multi-player regulation")
    if not 1 <= round_no <= event.rounds:
        raise UserError(f"round {round_no} is outside 1–{event.rounds}")
    scored = MultiGameScore.objects.filter(
        round__event=event, round__number=round_no, score__isnull=False
    )
    if scored.exists():
        raise UserError(f"round {round_no} already has scores; correct single tables instead")


def _tables_write(
    event: Event, rnd: Round, tables: Sequence[TableInput], players: Mapping[int, Player]
) -> None:
    MultiGame.objects.filter(round=rnd).delete()
    seats = []
    for table in tables:
        game = MultiGame.objects.create(round=rnd, board=table.board)
        scores = [parse_score(s, p) for s, p in zip(table.scores, table.players, strict=False)]
        for seat, start_no in enumerate(table.players, start=1):
            score = scores[seat - 1] if scores else None
            seats.append(
                MultiGameScore(
                    game=game, round=rnd, player=players[start_no], seat=seat, score=score
                )
            )
    try:
        with transaction.atomic():
            MultiGameScore.objects.bulk_create(seats)
    except IntegrityError as exc:  # the checks make this a bug, not a user error
        raise UserError(f"round {rnd.number}: a player is seated twice") from exc


@transaction.atomic
def multi_round_tables_set(
    *,
    event: Event,
    round_no: int,
    tables: Sequence[TableInput],
    byes: Sequence[ByeInput] = (),
    user: UserLike,
    audit: bool = True,
) -> Round:
    """Seat a round (seed 003 multi-player games): numbered tables and byes."""
    event_require_open(event)
    _round_open(event, round_no)
    players = _check_tables(event, round_no, tables, byes)
    rnd = round_pairings_set(
        event=event, round_no=round_no, pairings=[], byes=byes, user=user, audit=False
    )
    _tables_write(event, rnd, tables, players)
    if not audit:
        event_version_bump(event=event)
    else:
        event_changed(
            event=event,
            user=user,
            action="multi.tables",
            summary=f"Seated round {round_no}: {len(tables)} tables, {len(byes)} byes",
            after={str(t.board): list(t.players) for t in tables},
        )
    return rnd


def _check_scores(seated: Sequence[int], scores: Sequence[tuple[int, str]]) -> dict[int, Decimal]:
    """All seats, each once, each a number (the form's three checks)."""
    given: dict[int, Decimal] = {}
    for start_no, text in scores:
        if start_no in given:
            raise ScoreError(f"player {start_no} is listed twice at this table", start_no)
        if start_no not in seated:
            raise ScoreError(f"player {start_no} does not sit at this table", start_no)
        given[start_no] = parse_score(text, start_no)
    missing = [p for p in seated if p not in given]
    if missing:
        raise ScoreError(f"player {missing[0]} has no score: every seat needs one", missing[0])
    return given


def _text(value: Decimal | None) -> str | None:
    return None if value is None else format(value.normalize(), "f")


@transaction.atomic
def multi_game_scores_record(
    *,
    event: Event,
    game_id: int,
    scores: Sequence[tuple[int, str]],
    expected_version: int | None,
    user: UserLike,
) -> MultiGame:
    """Record (or correct) every seat's game score of one table together."""
    event_require_open(event)
    try:
        game = (
            MultiGame.objects.select_for_update()
            .select_related("round")
            .get(pk=game_id, round__event=event)
        )
    except MultiGame.DoesNotExist as exc:
        raise UserError("that table does not exist (was the round seated again?)") from exc
    seats = list(MultiGameScore.objects.filter(game=game).select_related("player").order_by("seat"))
    before = {str(s.player.start_no): _text(s.score) for s in seats}
    if expected_version is not None and expected_version != game.version:
        raise ResultConflict(
            f"Someone else changed round {game.round.number} table {game.board} while you were "
            "editing it.",
            current=", ".join(f"{p}: {s}" for p, s in before.items()),
            attempted=", ".join(f"{p}: {s}" for p, s in scores),
            current_version=game.version,
        )
    given = _check_scores([s.player.start_no for s in seats], scores)
    try:
        points_table_of(event).for_size(len(seats))
    except MultiPlayerError as exc:
        raise ScoreError(str(exc)) from exc
    for seat in seats:
        seat.score = given[seat.player.start_no]
    MultiGameScore.objects.bulk_update(seats, ["score"])
    game.version += 1
    game.save(update_fields=["version"])
    after = {str(s.player.start_no): _text(s.score) for s in seats}
    entry = event_changed(
        event=event,
        user=user,
        action="multi.scores.record" if None in before.values() else "multi.scores.correct",
        summary=f"Round {game.round.number} table {game.board}: "
        + ", ".join(f"{p}: {s}" for p, s in after.items()),
        before=before,
        after=after,
    )
    TableAuditEntry.objects.create(entry=entry, game=game)
    return game


def multi_scores_undo(*, event: Event, entry: AuditEntry, user: UserLike) -> AuditEntry:
    """Undo an audited score change of one table (from the audit log, like a game's result):
    every seat gets back its score before the change (no score at all for a first entry), as
    a new audited change ``multi.scores.undo``. Runs inside ``events.services.audit_undo``'s
    transaction with ``entry`` locked (the format seam's ``undo`` hook).

    Refused, changing nothing, when the change was already undone, the table no longer exists
    (the round was seated again) or its scores have changed since (undo the later change
    first): an undo never overwrites a later entry.
    """
    event_require_open(event)
    if entry.undone_by_id is not None:
        raise UserError("this change has already been undone")
    link = TableAuditEntry.objects.filter(entry=entry).first()
    if link is None or link.game_id is None:
        raise UserError(
            "that table no longer exists (the round was seated again); enter its scores anew"
        )
    game = MultiGame.objects.select_for_update().select_related("round").get(pk=link.game_id)
    seats = list(MultiGameScore.objects.filter(game=game).select_related("player").order_by("seat"))
    now = {str(s.player.start_no): _text(s.score) for s in seats}
    after = entry.after if isinstance(entry.after, dict) else {}
    before = entry.before if isinstance(entry.before, dict) else {}
    if now != after or set(before) != set(now):
        current = ", ".join(f"{p}: {s or '-'}" for p, s in now.items())
        raise UserError(
            f"round {game.round.number} table {game.board} has changed since this entry; undo "
            f"the later change first (it now reads {current})"
        )
    for seat in seats:
        old = before[str(seat.player.start_no)]
        seat.score = None if old is None else Decimal(old)
    MultiGameScore.objects.bulk_update(seats, ["score"])
    game.version += 1
    game.save(update_fields=["version"])
    undo = event_changed(
        event=event,
        user=user,
        action="multi.scores.undo",
        summary=f"Undid: {entry.summary}",
        before=now,
        after=before,
    )
    TableAuditEntry.objects.create(entry=undo, game=game)
    entry.undone_by = undo
    entry.save(update_fields=["undone_by"])
    return undo


def multi_tables_import(*, event: Event, round_no: int, tables: Sequence[TableInput]) -> None:
    """An import's tables for one round, scores included (all seats of a table or none),
    beside the byes the import already recorded; inside the import's transaction."""
    if not is_multi_player(event):
        raise UserError("multi_games need the regulation preset mso-2021-multi-player")
    if not 1 <= round_no <= event.rounds:
        raise UserError(f"round {round_no} is outside 1–{event.rounds}")
    byes = [
        ByeInput(start_no=start_no, kind="zero")
        for start_no in Round.objects.filter(event=event, number=round_no).values_list(
            "byes__player__start_no", flat=True
        )
        if start_no is not None
    ]
    players = _check_tables(event, round_no, tables, byes)
    for table in tables:
        if table.scores and len(table.scores) != len(table.players):
            raise UserError(f"round {round_no}, table {table.board}: every seat needs a score")
    rnd, _ = Round.objects.get_or_create(event=event, number=round_no)
    _tables_write(event, rnd, tables, players)


# -- the audit log and the backup (the format seam's hooks) -----------------------------------


UNDOABLE_ACTIONS = ("multi.scores.record", "multi.scores.correct")


def undoable_entries(entries: list[AuditEntry]) -> set[int]:
    """The entries whose table still exists (one query): those the audit log can undo."""
    return set(
        TableAuditEntry.objects.filter(entry__in=entries, game__isnull=False).values_list(
            "entry_id", flat=True
        )
    )


def table_audit_export(event: Event) -> dict[int, dict[str, Any]]:
    """``multi_game``: the table an audit entry changed, by round and board, for the backup."""
    return {
        entry_id: {"multi_game": {"round": number, "board": board}}
        for entry_id, number, board in TableAuditEntry.objects.filter(
            entry__event=event, game__isnull=False
        ).values_list("entry_id", "game__round__number", "game__board")
    }


def table_audit_import(
    event: Event, restored: list[tuple[int, AuditEntry, Mapping[str, Any]]]
) -> None:
    """Links restored audit entries to their tables again; a table that is not in the event
    refuses the whole restore, naming the entry."""
    tables = {
        (table.round.number, table.board): table
        for table in MultiGame.objects.filter(round__event=event).select_related("round")
    }
    links = []
    for index, entry, raw in restored:
        at_table = raw.get("multi_game")
        if not at_table:
            continue
        table = tables.get((at_table["round"], at_table["board"]))
        if table is None:
            raise ImportFailed(
                f"audit[{index}].multi_game: round {at_table['round']} table {at_table['board']}"
            )
        links.append(TableAuditEntry(entry=entry, game=table))
    TableAuditEntry.objects.bulk_create(links)
