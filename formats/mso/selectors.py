"""MSO multi-player events (seed 003) read from the database: the tables of a round, the event
as :class:`~formats.mso.rules.MultiEvent` records, and the standings ranked by
:func:`~formats.mso.rules.rank_multiplayer`, shaped as the same
:class:`~standings.compute.StandingsTable` the chess standings use, so the page, the
``standings`` command and ``output.to_json`` / ``to_csv`` / ``to_text`` work unchanged.

Decisions where the seed is silent:

- The points table comes from the regulation: the override ``points_table``
  (``{"4": ["3", "2", "1", "0"]}``) or the preset's (:data:`formats.mso.presets.MSO_POINTS_TABLE`).
- A bye (any kind) is a bye of :class:`~formats.mso.rules.MultiEvent`: it scores the
  options' ``bye_points`` (0), has no board and no opponents.
- A round is complete when it has a table or a bye and every seat of every table has a score.
- The standings list the chain's tie-breaks that were computed: the group-independent ones
  (LRB, LRR, PBO, WON) for every player, the Buchholz cuts (BHEQ/Cn, clarification 2's
  equalisation) for the players whose tie reached them, in the order of the growing cuts.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.core.cache import cache
from django.urls import reverse

from events.errors import UserError
from events.formats import Step
from events.models import Bye, Event, Player, Round
from events.numbers import points_text
from events.sources import MSO, cite
from formats.mso import rules as engine
from formats.mso.models import MultiGame, MultiGameScore
from formats.mso.presets import MSO_MULTI_PLAYER, MSO_POINTS_TABLE
from formats.mso.rules import MultiEvent, MultiOptions, MultiPlayer, PointsTable
from formats.mso.rules import MultiGame as GameRecord
from standings.compute import StandingsTable
from standings.output import exact_text
from standings.ranking import Standing

MULTI_PLAYER_PRESET = MSO_MULTI_PLAYER.code
CACHE_SECONDS = 3600


def is_multi_player(event: Event) -> bool:
    return event.regulation.preset == MULTI_PLAYER_PRESET


def points_table_of(event: Event) -> PointsTable:
    """The regulation's points table: the override, else the preset's."""
    override = event.regulation.overrides.get("points_table")
    if override:
        return PointsTable(
            tuple(
                (int(size), tuple(Fraction(points) for points in row))
                for size, row in sorted(override.items(), key=lambda item: int(item[0]))
            )
        )
    return PointsTable(MSO_POINTS_TABLE)


def score_fraction(score: Decimal) -> Fraction:
    return Fraction(score)


def _seats(
    event: Event, rounds: int | None = None
) -> list[tuple[int, int, int, int, Decimal | None]]:
    """(round, board, game id, start_no, score) of every seat, one query."""
    query = MultiGameScore.objects.filter(round__event=event)
    if rounds is not None:
        query = query.filter(round__number__lte=rounds)
    return list(
        query.order_by("round__number", "game__board", "seat").values_list(
            "round__number", "game__board", "game_id", "player__start_no", "score"
        )
    )


def multi_event(event: Event, *, rounds: int) -> MultiEvent:
    """The event as engine records after ``rounds`` rounds (tables with every score only)."""
    players = tuple(
        MultiPlayer(start_no, name)
        for start_no, name in Player.objects.filter(event=event)
        .order_by("start_no")
        .values_list("start_no", "name")
    )
    tables: dict[tuple[int, int], list[tuple[int, Decimal | None]]] = defaultdict(list)
    for round_no, board, _, start_no, score in _seats(event, rounds):
        tables[(round_no, board)].append((start_no, score))
    games = tuple(
        GameRecord(
            round_no, board, tuple((p, score_fraction(s)) for p, s in seats if s is not None)
        )
        for (round_no, board), seats in sorted(tables.items())
        if all(score is not None for _, score in seats)
    )
    byes = tuple(
        Bye.objects.filter(round__event=event, round__number__lte=rounds).values_list(
            "round__number", "player__start_no"
        )
    )
    return MultiEvent(
        name=event.name,
        players=players,
        games=games,
        points_table=points_table_of(event),
        byes=tuple(sorted(byes)),
        options=multi_options_of(event),
        rounds=rounds,
    )


def multi_options_of(event: Event) -> MultiOptions:
    """The regulation's choices for x/0, negative scores, byes and shared places (seed 003;
    the override ``multi_player``, validated in events.regulations), else the engine's."""
    chosen = dict(event.regulation.overrides.get("multi_player", {}))
    values: dict[str, Any] = {}
    for key, value in chosen.items():
        if key in ("negative_scores", "shared_positions", "shared_win_counts") or value is None:
            values[key] = value
        else:
            values[key] = Fraction(value)
    return MultiOptions(**values)


def multi_last_complete_round(event: Event) -> int:
    """The last round of an unbroken run of complete rounds (module docstring)."""
    numbers = list(
        Round.objects.filter(event=event).order_by("number").values_list("number", flat=True)
    )
    seats: dict[int, list[bool]] = defaultdict(list)
    for round_no, _, _, _, score in _seats(event):
        seats[round_no].append(score is not None)
    with_byes = set(Bye.objects.filter(round__event=event).values_list("round__number", flat=True))
    complete = 0
    for number in numbers:
        if not (seats.get(number) or number in with_byes) or not all(seats.get(number, [])):
            break
        complete = number
    return complete


def _bhe_order(code: str) -> tuple[int, int]:
    """BHEQ/C2, /C3, … then /C1, then BHEQ: the growing cuts' order (rule 5)."""
    if code == engine.BUCHHOLZ:
        return (2, 0)
    cut = int(code.rsplit("C", 1)[1])
    return (1, 0) if cut == 1 else (0, cut)


def _listed_codes(chain: Sequence[str], rows: Sequence[Standing]) -> tuple[str, ...]:
    present = {code for row in rows for code in row.values if code != engine.POINTS}
    simple = [code for code in chain if code in present or code in _GROUP_INDEPENDENT]
    buchholz = sorted(
        (code for code in present if code.startswith(engine.BUCHHOLZ) and code not in simple),
        key=_bhe_order,
    )
    return tuple(simple + buchholz)


_GROUP_INDEPENDENT = (
    engine.LAST_ROUND_BOARD,
    engine.LAST_ROUND_RESULT,
    engine.BEST_OPPONENT_PERCENTAGE,
    engine.GAMES_WON,
)


def _with_every_value(
    records: MultiEvent, chain: Sequence[str], rows: Sequence[Standing]
) -> tuple[Standing, ...]:
    """Show the group-independent criteria for everyone, not only for tied players."""
    everyone = [row.start_no for row in rows]
    filled = {
        code: engine.tiebreak_values(records, code, everyone)
        for code in chain
        if code in _GROUP_INDEPENDENT
    }
    return tuple(
        replace(
            row,
            values={
                **row.values,
                **{
                    code: values[row.start_no]
                    for code, values in filled.items()
                    if code not in row.values
                },
            },
        )
        for row in rows
    )


def multi_standings(
    event: Event, *, after_round: int | None = None, codes: Sequence[str] | None = None
) -> StandingsTable:
    """Seed 003 multi-player rules 1–5 under clarification 1 (restart on split), after
    ``after_round`` (default: the last complete round). The chain: ``codes`` (the command's
    ``--tiebreaks``), else the event's own override (the event form), else the preset's.
    Cached per results version."""
    after = multi_last_complete_round(event) if after_round is None else after_round
    if not 0 <= after <= event.rounds:
        raise UserError(f"after round {after}: the event has rounds 1–{event.rounds}")
    overridden = tuple(event.regulation.overrides.get("tiebreaks") or ())
    chosen = tuple(codes or overridden or MSO_MULTI_PLAYER.swiss_tiebreaks)
    key = f"multi-standings:{event.pk}:{event.results_version}:{after}:{','.join(chosen)}"
    table = cache.get(key)
    if table is None:
        table = _multi_compute(event, after, chosen)
        cache.set(key, table, CACHE_SECONDS)
    return table


def _multi_compute(event: Event, after: int, codes: Sequence[str]) -> StandingsTable:
    try:
        chain = engine.parse_codes(codes)
        records = multi_event(event, rounds=after)
        rows = _with_every_value(records, chain, engine.rank_multiplayer(records, chain))
    except engine.MultiPlayerError as exc:
        raise UserError(str(exc)) from exc
    return StandingsTable(
        event=event.slug,
        after_round=after,
        tiebreaks=_listed_codes(chain, rows),
        rows=rows,
        edition=MSO_MULTI_PLAYER.edition,
        rounds=event.rounds,
        notes=(
            f"Multi-player games ({cite(MSO)}): tournament points from the points table, then "
            f"{', '.join(chain)}; BHEQ/GROW stands for the growing Buchholz cuts.",
        ),
    )


# -- a round's tables, for the pages -----------------------------------------------------------


@dataclass(frozen=True)
class Seat:
    start_no: int
    name: str
    score: Decimal | None
    points: Fraction | None

    @property
    def score_text(self) -> str:
        return "" if self.score is None else exact_text(Fraction(self.score))

    @property
    def points_text(self) -> str:
        return "" if self.points is None else points_text(self.points)


@dataclass(frozen=True)
class Table:
    game_id: int
    board: int
    version: int
    seats: tuple[Seat, ...]

    @property
    def scored(self) -> bool:
        return all(seat.score is not None for seat in self.seats)


@dataclass(frozen=True)
class RoundTables:
    number: int
    tables: tuple[Table, ...]
    byes: tuple[tuple[int, str], ...]


def multi_round_tables(event: Event, number: int) -> RoundTables:
    """A round's tables with names, scores and the tournament points they earn."""
    games = list(
        MultiGame.objects.filter(round__event=event, round__number=number).order_by("board")
    )
    seats: dict[int, list[tuple[int, str, Decimal | None]]] = defaultdict(list)
    for game_id, start_no, name, score in (
        MultiGameScore.objects.filter(game__in=games)
        .order_by("game_id", "seat")
        .values_list("game_id", "player__start_no", "player__name", "score")
    ):
        seats[game_id].append((start_no, name, score))
    points_table = points_table_of(event)
    tables = []
    for game in games:
        rows = seats[game.pk]
        points: dict[int, Fraction] = {}
        if rows and all(score is not None for _, _, score in rows):
            record = GameRecord(number, game.board, tuple((p, Fraction(s)) for p, _, s in rows))  # type: ignore[arg-type]
            try:
                points = engine.game_points(record, points_table)
            except engine.MultiPlayerError:
                points = {}
        tables.append(
            Table(
                game.pk,
                game.board,
                game.version,
                tuple(Seat(p, name, s, points.get(p)) for p, name, s in rows),
            )
        )
    byes = tuple(
        Bye.objects.filter(round__event=event, round__number=number)
        .order_by("player__start_no")
        .values_list("player__start_no", "player__name")
    )
    return RoundTables(number, tuple(tables), byes)


def tables_text(event: Event, number: int) -> str:
    """The round's seating in the tables form's text format."""
    current = multi_round_tables(event, number)
    lines = [" ".join(str(seat.start_no) for seat in table.seats) for table in current.tables]
    lines += [f"bye {start_no}" for start_no, _ in current.byes]
    return "\n".join(lines)


def standings_of(
    event: Event,
    *,
    after_round: int | None = None,
    codes: Sequence[str] | None = None,
    edition: str | None = None,
) -> StandingsTable:
    """The format seam's standings hook: :func:`multi_standings`. The C.07 edition plays no
    part in the multi-player chain, but a bad one is refused as for any event."""
    if edition not in (None, "2024", "2026"):
        raise UserError(f"edition {edition!r}: use 2024 or 2026")
    return multi_standings(event, after_round=after_round, codes=codes)


# --- the event page's status and next steps (events.formats, ``status`` / ``steps``) ---------


@dataclass(frozen=True)
class MultiRoundState:
    """A round of multi-player tables: how many tables, how many have every score."""

    number: int
    tables: int
    scored: int
    byes: int

    @property
    def seated(self) -> bool:
        return bool(self.tables or self.byes)

    @property
    def complete(self) -> bool:
        return self.seated and self.scored == self.tables


def multi_rounds_state(event: Event) -> list[MultiRoundState]:
    """Every scheduled round's tables (seated, fully scored) in two queries."""
    tables: dict[int, dict[int, bool]] = defaultdict(dict)
    for round_no, _, game_id, _, score in _seats(event):
        tables[round_no][game_id] = tables[round_no].get(game_id, True) and score is not None
    byes: dict[int, int] = defaultdict(int)
    for round_no in Bye.objects.filter(round__event=event).values_list("round__number", flat=True):
        byes[round_no] += 1
    return [
        MultiRoundState(n, len(tables[n]), sum(tables[n].values()), byes[n])
        for n in range(1, event.rounds + 1)
    ]


def multi_status(event: Event) -> str | None:
    """Seed 003 multi-player rounds as the event page says them: a round is complete when
    every seat of every table has a score (module docstring)."""
    rounds = [r for r in multi_rounds_state(event) if r.seated]
    if not rounds:
        return None  # the core's "Registration"
    unfinished = next((r for r in rounds if not r.complete), None)
    if unfinished is not None:
        return (
            f"Round {unfinished.number} of {event.rounds} in progress: "
            f"{unfinished.scored} of {unfinished.tables} tables scored"
        )
    return f"Round {rounds[-1].number} of {event.rounds} complete"


def multi_steps(event: Event, role: str | None) -> list[Step]:
    """Enter the scores of a round's tables; the director seats the next round's tables."""
    rounds = multi_rounds_state(event)
    steps = [
        Step(
            f"Enter round {r.number}'s table scores: {r.tables - r.scored} of {r.tables} "
            "tables missing",
            reverse("mso:tables", args=[event.slug, r.number]),
        )
        for r in rounds
        if r.seated and not r.complete
    ]
    following = next((r for r in rounds if not r.seated), None)
    if role == "director" and following is not None and not steps:
        steps.append(
            Step(
                f"Seat round {following.number}'s tables",
                reverse("mso:tables", args=[event.slug, following.number]),
            )
        )
    return steps
