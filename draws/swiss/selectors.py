"""Reads for Swiss pairing (issue 14): the engine's input from the database, whether a round
can be paired now, and what the director's review page shows.

The engine (:mod:`draws.swiss.pairing`) takes the event's crosstable records of the rounds
before the one to pair, as the tie-break engine does, plus a
:class:`~draws.swiss.pairing.PairingRequest` built here from the director's settings:
withdrawals, requested byes, forbidden pairs, the initial colour and the acceleration.

Decisions (docs/pairing.md, "Running a Swiss"):

- Initial order (C.04.2, "Initial order"): rating, highest first; then FIDE title (GM, IM, WGM,
  FM, WIM, CM, WFM, WCM, none); then name; then start number (a tie-break of our own that no
  real field reaches). Unrated players sort below every rated one.
- Pairing numbers are provisional until the director closes the list of participants (C.04.2,
  "Late entries"); from then on the order is frozen and a later entry takes the next number.
- The initial colour, unless the director sets it, is a lot of the event: the first draw of
  ``LotDrawer(lots_seed, "swiss-initial-colour")`` between White and Black.
- A withdrawn player (withdrawn after round k) is not paired from round k + 1 on; their games
  keep counting, and they show as absent in the rounds they miss.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from django.db.models import Count, Q
from django.http import Http404

from draws.lots import LotDrawer
from draws.models import ByeRequest, ForbiddenPair, SwissRound, SwissSetup
from draws.swiss.pairing import PairingRequest, baku_acceleration
from events.limits import MAX_PAIRED_PLAYERS, InputTooLarge
from events.models import Bye, Event, EventSystem, Game, Player, Result, Round
from events.records import Crosstable
from events.selectors import event_crosstable

TITLE_ORDER = ("GM", "IM", "WGM", "FM", "WIM", "CM", "WFM", "WCM")
INITIAL_COLOUR_PURPOSE = "swiss-initial-colour"
BYE_CODES = {"half": "H", "zero": "Z", "full": "F"}


def is_swiss(event: Event) -> bool:
    return event.system == EventSystem.SWISS


def _title_rank(title: str) -> int:
    cleaned = title.strip().upper()
    return TITLE_ORDER.index(cleaned) if cleaned in TITLE_ORDER else len(TITLE_ORDER)


def initial_order(
    players: Iterable[tuple[int, int, str, str]], frozen: Sequence[int] | None = None
) -> list[int]:
    """Start numbers in pairing-number order (C.04.2 "Initial order"), from (start_no, rating,
    title, name) rows. With a frozen order (the list of participants is closed) those keep
    their numbers and anyone registered later follows, in initial order among themselves."""
    rows = list(players)
    ranked = sorted(rows, key=lambda p: (-p[1], _title_rank(p[2]), p[3].casefold(), p[0]))
    if frozen is None:
        return [p[0] for p in ranked]
    known = [n for n in frozen if any(p[0] == n for p in rows)]
    return known + [p[0] for p in ranked if p[0] not in set(known)]


def setup_of(event: Event) -> SwissSetup:
    """The event's Swiss settings (defaults until the director saves some; nothing written)."""
    return SwissSetup.objects.filter(event=event).first() or SwissSetup(event=event)


def initial_colour_of(event: Event, setup: SwissSetup | None = None) -> tuple[str, str]:
    """(colour of pairing number 1 in round 1, how it was decided)."""
    chosen = (setup or setup_of(event)).initial_colour
    if chosen:
        return chosen, "set by the director"
    colour = LotDrawer(event.lots_seed, INITIAL_COLOUR_PURPOSE).pick(["w", "b"])
    return colour, f"drawn by lot (purpose {INITIAL_COLOUR_PURPOSE!r} of the event's lots seed)"


FIXED_AFTER_ROUND = 4  # C.04.2, Initial order: no new pairing numbers once round 4 is paired


def fixed_order(event: Event, setup: SwissSetup | None = None) -> list[int] | None:
    """The pairing numbers that may no longer change, as start numbers in order: those of the
    closed list of participants, else those round 4 was paired with (C.04.2, Initial order:
    "No modification of a pairing number is allowed after the fourth round has been paired";
    a correction of rating, title or name after that leaves the numbers as they are). None
    while they are provisional."""
    closed = (setup or setup_of(event)).pairing_order
    if closed is not None:
        return list(closed)
    recorded = (
        SwissRound.objects.filter(
            round__event=event,
            round__number__gte=FIXED_AFTER_ROUND,
            pairing_numbers__isnull=False,
        )
        .order_by("round__number")
        .values_list("pairing_numbers", flat=True)
        .first()
    )
    return list(recorded) if recorded is not None else None


def pairing_numbers(event: Event, setup: SwissSetup | None = None) -> list[int]:
    rows = Player.objects.filter(event=event).values_list("start_no", "rating", "title", "name")
    return initial_order(rows, fixed_order(event, setup))


@dataclass(frozen=True)
class EngineInput:
    crosstable: Crosstable
    request: PairingRequest
    colour_source: str


def acceleration_table(setup: SwissSetup) -> dict[int, tuple[Fraction, ...]]:
    """An imported file's virtual points (``XXA``): start number -> points of round 1, 2..."""
    table = setup.acceleration_table or {}
    return {int(start_no): tuple(Fraction(p) for p in points) for start_no, points in table.items()}


def _table_round(
    table: dict[int, tuple[Fraction, ...]], round_no: int
) -> tuple[tuple[int, Fraction], ...]:
    return tuple(
        (start_no, points[round_no - 1])
        for start_no, points in sorted(table.items())
        if round_no <= len(points) and points[round_no - 1]
    )


def _acceleration(
    event: Event, setup: SwissSetup, order: Sequence[int], round_no: int
) -> tuple[tuple[tuple[int, Fraction], ...], tuple[tuple[int, int, Fraction], ...]]:
    """This round's virtual points and every earlier round's (C.04.5; the floats of earlier
    rounds compare the scores the pairing used): Baku's, or the imported file's table."""
    if setup.acceleration == "table":
        table = acceleration_table(setup)
        history = tuple(
            (number, start_no, points)
            for number in range(1, round_no)
            for start_no, points in _table_round(table, number)
        )
        return _table_round(table, round_no), history
    if setup.acceleration != "baku":
        return (), ()
    scoring = event_crosstable(event, rounds=0).scoring
    now = baku_acceleration(order, event.rounds, round_no, scoring)
    history = tuple(
        (number, start_no, points)
        for number in range(1, round_no)
        for start_no, points in baku_acceleration(order, event.rounds, number, scoring)
    )
    return now, history


def forbidden_pairs_in_force(event: Event, round_no: int) -> frozenset[frozenset[int]]:
    rows = ForbiddenPair.objects.filter(event=event).values_list(
        "first__start_no", "second__start_no", "until_round"
    )
    return frozenset(
        frozenset((a, b)) for a, b, until in rows if until is None or round_no <= until
    )


def engine_input(event: Event, round_no: int, order: Sequence[int] | None = None) -> EngineInput:
    """The engine's records and request for round ``round_no``: the rounds before it (a game
    still without a result counts as not played), the players not to pair, the requested
    byes, the forbidden pairs in force, the initial colour and the acceleration. ``order``:
    the pairing numbers to use instead of today's (those a past round was paired with)."""
    setup = setup_of(event)
    order = pairing_numbers(event, setup) if order is None else order
    withdrawn = Player.objects.filter(
        event=event, withdrawn_after_round__isnull=False, withdrawn_after_round__lt=round_no
    ).values_list("start_no", flat=True)
    requested = tuple(
        (start_no, BYE_CODES[kind])
        for start_no, kind in ByeRequest.objects.filter(
            player__event=event, round=round_no
        ).values_list("player__start_no", "kind")
    )
    colour, source = initial_colour_of(event, setup)
    accelerated, history = _acceleration(event, setup, order, round_no)
    request = PairingRequest(
        round=round_no,
        total_rounds=event.rounds,
        initial_colour=colour,
        absent=frozenset(withdrawn) - {start_no for start_no, _ in requested},
        requested_byes=requested,
        forbidden_pairs=forbidden_pairs_in_force(event, round_no),
        acceleration=accelerated,
        acceleration_history=history,
        pairing_numbers=tuple(order),
    )
    crosstable = event_crosstable(event, rounds=round_no - 1, pending_as_unplayed=True)
    return EngineInput(crosstable, request, source)


def pairing_size_check(inputs: EngineInput, round_no: int) -> None:
    """At most ``MAX_PAIRED_PLAYERS`` to pair in one round: the engine's time and memory grow
    faster than the square of the field (docs/reliability.md, "Limits")."""
    away = set(inputs.request.absent) | {start_no for start_no, _ in inputs.request.requested_byes}
    count = sum(1 for entrant in inputs.crosstable.entrants if entrant.start_no not in away)
    if count > MAX_PAIRED_PLAYERS:
        raise InputTooLarge(
            f"round {round_no} has {count:,} players to pair; the Dutch pairing engine pairs at "
            f"most {MAX_PAIRED_PLAYERS:,} in a round"
        )


@dataclass(frozen=True)
class Readiness:
    """Whether round ``number`` can be paired now: ``blockers`` refuse it; ``unfinished`` are
    the boards of the previous round without a result (the director may confirm pairing
    anyway, those games then count as not played)."""

    number: int
    blockers: tuple[str, ...]
    unfinished: tuple[int, ...]

    @property
    def ready(self) -> bool:
        return not self.blockers and not self.unfinished


def paired_rounds(event: Event) -> set[int]:
    """The rounds that have games or byes (two indexed queries)."""
    games = Game.objects.filter(round__event=event).values_list("round__number", flat=True)
    byes = Bye.objects.filter(round__event=event).values_list("round__number", flat=True)
    return set(games) | set(byes)


def next_round_number(event: Event) -> int:
    """The first round that has no games and no byes yet."""
    paired = paired_rounds(event)
    number = 1
    while number in paired:
        number += 1
    return number


def readiness(event: Event, number: int) -> Readiness:
    blockers: list[str] = []
    if not is_swiss(event):
        blockers.append("only a Swiss event is paired by the Dutch system")
    if not 1 <= number <= event.rounds:
        # Said at once: the checks below look at every round before this one.
        return Readiness(number, (*blockers, f"round {number} is outside 1–{event.rounds}"), ())
    if Game.objects.filter(round__event=event, round__number=number).exclude(result="").exists():
        blockers.append(
            f"round {number} already has results; correct single results instead of "
            "re-pairing the round"
        )
    paired = paired_rounds(event)
    earlier = [n for n in range(1, number) if n not in paired]
    if earlier:
        blockers.append(f"round {earlier[0]} has not been paired yet")
    draft = (
        Round.objects.filter(event=event, number__lt=number, published=False, number__in=paired)
        .order_by("number")
        .values_list("number", flat=True)
        .first()
    )
    if draft is not None:
        blockers.append(f"round {draft} is still under review: publish it first")
    unfinished = tuple(
        Game.objects.filter(round__event=event, round__number=number - 1, result="")
        .order_by("board")
        .values_list("board", flat=True)
    )
    return Readiness(number, tuple(blockers), unfinished)


def swiss_round_of(event: Event, number: int) -> SwissRound:
    found = (
        SwissRound.objects.filter(round__event=event, round__number=number)
        .select_related("round")
        .first()
    )
    if found is None:
        raise Http404("This round was not paired by the Dutch system")
    return found


def recorded_input(event: Event, round_no: int) -> EngineInput:
    """The engine's input for a round as it was played: who had a bye in it (requested byes:
    half, zero, full) and who was absent (neither a game nor a bye) come from the round itself,
    not from today's requests. What ``manage.py pair --check`` compares a stored round with."""
    first = SwissRound.objects.filter(round__event=event, round__number=1).first()
    paired = SwissRound.objects.filter(round__event=event, round__number=round_no).first()
    # The pairing numbers the round was paired with: a later entry takes a number, and a
    # changed order (or field size, for Baku acceleration) would pair the round differently.
    recorded = paired.pairing_numbers if paired is not None else None
    current = engine_input(event, round_no, recorded)
    kinds = {"half": "H", "zero": "Z", "full": "F"}
    byes = Bye.objects.filter(round__event=event, round__number=round_no).values_list(
        "player__start_no", "kind"
    )
    requested = tuple((start_no, kinds[kind]) for start_no, kind in byes if kind in kinds)
    in_round = set(
        Game.objects.filter(round__event=event, round__number=round_no).values_list(
            "white__start_no", "black__start_no"
        )
    )
    seated = {p for pair in in_round for p in pair} | {start_no for start_no, _ in byes}
    everyone = set(Player.objects.filter(event=event).values_list("start_no", flat=True))
    colour = first.initial_colour if first is not None else current.request.initial_colour
    request = replace(
        current.request,
        absent=frozenset(everyone - seated),
        requested_byes=requested,
        initial_colour=colour,
    )
    return EngineInput(current.crosstable, request, current.colour_source)


def round_as_played(event: Event, round_no: int) -> tuple[list[tuple[int, int]], int | None]:
    """The stored round: (white, black) in board order, and the pairing-allocated bye."""
    boards = list(
        Game.objects.filter(round__event=event, round__number=round_no)
        .order_by("board")
        .values_list("white__start_no", "black__start_no")
    )
    bye = (
        Bye.objects.filter(round__event=event, round__number=round_no, kind="pairing")
        .values_list("player__start_no", flat=True)
        .first()
    )
    return boards, bye


# -- rounds paired before a result changed (issue 29) ---------------------------------------------


@dataclass(frozen=True)
class ChangedResult:
    round: int
    board: int
    was: str  # as shown: "1-0", "½-½", "no result"
    now: str


@dataclass(frozen=True)
class OutdatedRound:
    """A paired round whose pairing no longer follows from the results: earlier results
    changed after it was paired. ``repairable``: it has no result yet, so it can be paired
    again."""

    number: int
    repairable: bool
    changes: tuple[ChangedResult, ...]


def _shown(result: str) -> str:
    return Result(result).label if result else "no result"


def outdated_rounds(
    event: Event, after: int = 0, through: int | None = None
) -> list[OutdatedRound]:
    """The rounds after ``after`` (up to ``through``) whose pairing no longer follows from the
    results (three queries; the games read are those of the changed boards' rounds and of the
    rounds listed, not the event's)."""
    records = SwissRound.objects.filter(
        round__event=event, round__number__gt=after, outdated_by__isnull=False
    )
    if through is not None:
        records = records.filter(round__number__lte=through)
    return _outdated(event, list(records.select_related("round").order_by("round__number")))


def _outdated(event: Event, records: list[SwissRound]) -> list[OutdatedRound]:
    if not records:
        return []
    changed = {key: _round_board(key) for record in records for key in record.outdated_by}
    games = Game.objects.filter(round__event=event)
    now = {
        (n, b): r
        for n, b, r in games.filter(round__number__in={n for n, _ in changed.values()}).values_list(
            "round__number", "board", "result"
        )
    }
    numbers = [record.round.number for record in records]
    with_results = set(
        games.filter(round__number__in=numbers)
        .exclude(result="")
        .values_list("round__number", flat=True)
        .distinct()
    )
    found = []
    for record, number in zip(records, numbers, strict=True):
        was = {changed[key]: result for key, result in record.outdated_by.items()}
        changes = tuple(
            ChangedResult(n, b, _shown(was[n, b]), _shown(now.get((n, b), "")))
            for n, b in sorted(was)
        )
        found.append(OutdatedRound(number, number not in with_results, changes))
    return found


def _round_board(key: str) -> tuple[int, int]:
    """ "3.12" -> (3, 12): how ``SwissRound.outdated_by`` names a board of an earlier round."""
    number, board = key.split(".")
    return int(number), int(board)


# -- the director's pages ------------------------------------------------------------------------


@dataclass(frozen=True)
class NumberedPlayer:
    pairing_no: int
    start_no: int
    name: str
    rating: int
    title: str
    federation: str
    withdrawn_after_round: int | None


@dataclass(frozen=True)
class RoundState:
    number: int
    paired: bool
    published: bool
    results: int
    games: int
    edited: bool
    outdated: bool = False  # earlier results changed since it was paired (issue 29)


@dataclass(frozen=True)
class SwissPage:
    """What the director's Swiss page shows."""

    setup: SwissSetup
    colour: str
    colour_source: str
    players: tuple[NumberedPlayer, ...]
    list_closed: bool
    bye_requests: tuple[ByeRequest, ...]
    forbidden: tuple[ForbiddenPair, ...]
    rounds: tuple[RoundState, ...]
    next_round: int | None
    readiness: Readiness | None
    settings_locked: bool
    draft_round: int | None  # a paired round still under review: publish it before the next


def _round_states(event: Event) -> tuple[RoundState, ...]:
    rows = {
        r.number: r
        for r in Round.objects.filter(event=event).annotate(
            n_games=Count("games", distinct=True),
            n_results=Count("games", filter=~Q(games__result=""), distinct=True),
        )
    }
    paired = paired_rounds(event)
    records = SwissRound.objects.filter(round__event=event)
    edited = set(records.filter(source="edited").values_list("round__number", flat=True))
    outdated = set(
        records.filter(outdated_by__isnull=False).values_list("round__number", flat=True)
    )
    return tuple(
        RoundState(
            number=n,
            paired=n in paired,
            published=n in paired and rows[n].published,
            results=rows[n].n_results if n in rows else 0,
            games=rows[n].n_games if n in rows else 0,
            edited=n in edited,
            outdated=n in outdated,
        )
        for n in range(1, event.rounds + 1)
    )


def swiss_page(event: Event) -> SwissPage:
    setup = setup_of(event)
    colour, source = initial_colour_of(event, setup)
    players = {p.start_no: p for p in Player.objects.filter(event=event)}
    order = initial_order(
        ((p.start_no, p.rating, p.title, p.name) for p in players.values()),
        fixed_order(event, setup),
    )
    numbered = tuple(
        NumberedPlayer(
            i,
            n,
            players[n].name,
            players[n].rating,
            players[n].title,
            players[n].federation,
            players[n].withdrawn_after_round,
        )
        for i, n in enumerate(order, start=1)
    )
    nxt = next_round_number(event)
    upcoming = nxt if nxt <= event.rounds else None
    rounds = _round_states(event)
    return SwissPage(
        setup=setup,
        colour=colour,
        colour_source=source,
        players=numbered,
        list_closed=setup.pairing_order is not None,
        bye_requests=tuple(ByeRequest.objects.filter(player__event=event).select_related("player")),
        forbidden=tuple(
            ForbiddenPair.objects.filter(event=event)
            .select_related("first", "second")
            .order_by("first__start_no", "second__start_no")
        ),
        rounds=rounds,
        next_round=upcoming,
        readiness=readiness(event, upcoming) if upcoming else None,
        settings_locked=bool(paired_rounds(event)),
        draft_round=next((r.number for r in rounds if r.paired and not r.published), None),
    )


@dataclass(frozen=True)
class Side:
    start_no: int
    name: str
    points: Fraction
    colours: str  # the colours of the games played so far, e.g. "WBW"


@dataclass(frozen=True)
class ReviewBoard:
    number: int
    white: Side
    black: Side
    result: str
    reasons: tuple[str, ...]


@dataclass(frozen=True)
class ReviewPage:
    """A paired round as the director reviews it before publishing."""

    number: int
    published: bool
    source: str
    boards: tuple[ReviewBoard, ...]
    byes: tuple[tuple[Side, str], ...]  # (player, bye kind label)
    absent: tuple[Side, ...]
    notes: tuple[str, ...]
    has_results: bool
    outdated: OutdatedRound | None  # earlier results changed since it was paired


def _sides(event: Event, round_no: int) -> dict[int, Side]:
    crosstable = event_crosstable(event, rounds=round_no - 1, pending_as_unplayed=True)
    scoring = crosstable.scoring
    sides = {}
    for entrant in crosstable.entrants:
        points = sum((scoring.points(r) for r in entrant.results), Fraction(0))
        colours = "".join(r.colour.upper() for r in entrant.results if r.played)
        sides[entrant.start_no] = Side(entrant.start_no, entrant.name, points, colours)
    return sides


def review_page(event: Event, round_no: int) -> ReviewPage:
    record = swiss_round_of(event, round_no)
    sides = _sides(event, round_no)
    games = Game.objects.filter(round=record.round).order_by("board")
    reasons = record.reasons if record.source == "engine" else {}
    boards = tuple(
        ReviewBoard(
            g.board,
            sides[g.white.start_no],
            sides[g.black.start_no],
            g.get_result_display() if g.result else "",
            tuple(reasons.get(str(g.board), ())),
        )
        for g in games.select_related("white", "black")
    )
    byes = tuple(
        (sides[b.player.start_no], b.get_kind_display())
        for b in Bye.objects.filter(round=record.round).select_related("player")
    )
    seated = {b.white.start_no for b in boards} | {b.black.start_no for b in boards}
    seated |= {side.start_no for side, _ in byes}
    return ReviewPage(
        number=round_no,
        published=record.round.published,
        source=record.source,
        boards=boards,
        byes=byes,
        absent=tuple(side for n, side in sorted(sides.items()) if n not in seated),
        notes=tuple(record.notes),
        has_results=any(board.result for board in boards),
        outdated=_outdated_round(event, record),
    )


def _outdated_round(event: Event, record: SwissRound) -> OutdatedRound | None:
    """The round's own changes since it was paired; no query when it has none."""
    if not record.outdated_by:
        return None
    number = record.round.number
    return next(iter(outdated_rounds(event, after=number - 1, through=number)), None)
