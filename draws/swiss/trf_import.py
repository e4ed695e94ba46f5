"""What an imported TRF file says about pairing the rest of a Swiss (issue 20, "Switching from
another program mid-event"): a :class:`~events.imports.TrfPart` of the TRF import and export
(the export writes the next round's requested byes back as they were read).

A director who started in Swiss-Manager or Vega exports a TRF after round N and pairs round
N + 1 here; ``manage.py pair`` must then give the pairing bbpPairings gives for the same file
(``tests/draws/test_trf_continuation.py`` holds it to that). So the file is read as
bbpPairings reads it:

- **Pairing numbers** are the start numbers (with ``XXC rank``: the order of the player
  lines). Once a round was played they are facts of the event, so the list of participants is
  closed with them (C.04.2, "Late entries": a later entry takes the next number); a file with
  no round played keeps the product's provisional numbers (initial order by rating, C.04.2).
- **The next round's requested byes** (the round after the last one played in which nobody is
  paired, :mod:`events.trf`) become requested byes of round N + 1: ``H`` half a point, ``Z``
  (and a forfeit loss without an opponent) none, ``F`` a full point (granted in advance, as
  Swiss-Manager and JaVaFo write it; the director's own requests are half or zero, C.04.2).
- **The initial colour** is the file's (``XXC white1|black1``, ``152``), else read back from
  the rounds played (:func:`draws.swiss.pairing.continuation.inferred_initial_colour`), else the
  event's lot as for any event.
- **Acceleration**: TRF-2026 ``192 ..._BAKU`` or ``XXA`` points that are the Baku
  acceleration (C.04.5) make the event Baku-accelerated; other ``XXA`` points are kept as
  the event's table of virtual points per player and round, and the next rounds are paired
  with them as JaVaFo and bbpPairings pair the same file (issue 28). TRF-2026 acceleration
  records (``250``) are refused in one line: pairing with them silently dropped would not be
  the pairing the director expects.
- **Forbidden pairs** (``XXP``): every two players of a record must not meet, in every round.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

from draws.models import ByeRequest, ForbiddenPair, SwissRound, SwissSetup
from draws.swiss import selectors
from draws.swiss.pairing import baku_acceleration
from draws.swiss.pairing.continuation import acceleration_difference, inferred_initial_colour
from events.errors import UserError
from events.imports import TrfExport, TrfPart, trf_part_register
from events.models import Event, EventSystem, Player
from events.selectors import event_crosstable
from events.services import UserLike
from events.trf import PairingRecords, ParsedTrf, format_points

REQUESTED = {"H": "half", "Z": "zero", "F": "full"}
MAX_FORBIDDEN_PAIRS = 10_000
# TRF-2026 records about pairing that this import does not read (the director is told).
UNREAD = {"240": "byes", "260": "forbidden pairs", "162": "point system"}


def swiss_trf_load(parsed: ParsedTrf, event: Event, user: UserLike) -> list[str]:
    """Write what the file says about pairing the next rounds; return notes for the director."""
    records = parsed.pairing or PairingRecords()
    if event.system != EventSystem.SWISS:
        if parsed.next_round_byes:
            return [
                f"The file lists byes for round {parsed.crosstable.rounds + 1}; this event is "
                "not a Swiss, so they were not recorded."
            ]
        return []
    _refuse_unsupported(parsed)
    players = dict(Player.objects.filter(event=event).values_list("start_no", "pk"))
    notes: list[str] = []
    order = _pairing_order(parsed, records)
    setup = SwissSetup(event=event, pairing_order=order)
    if order is not None:
        notes.append(
            "Pairing numbers are the file's "
            + ("order of players (XXC rank)" if records.file_order else "start numbers")
            + ", as in the rounds played; the list of participants is closed."
        )
    setup.initial_colour, colour_note = _initial_colour(parsed, records, order)
    notes += colour_note
    if records.baku or records.accelerations:
        notes.append(_acceleration_set(setup, parsed, records, event, order or sorted(players)))
    if order is not None or setup.initial_colour or setup.acceleration:
        setup.save()
    notes += _bye_requests(parsed, players)
    notes += _forbidden_pairs(event, records, players)
    notes += [
        f"Record {code} ({what}) is not read: set it on the event's Swiss page."
        for code, what in UNREAD.items()
        if any(line.startswith(code) for line in parsed.other_records)
    ]
    return notes


def _refuse_unsupported(parsed: ParsedTrf) -> None:
    for line in parsed.other_records:
        if line.startswith("250"):
            raise UserError(
                "record 250 (acceleration): only the Baku acceleration is supported; give it "
                "as record 192 FIDE_DUTCH_2025_BAKU or as XXA points"
            )


def _pairing_order(parsed: ParsedTrf, records: PairingRecords) -> list[int] | None:
    entrants = parsed.crosstable.entrants
    if records.file_order:
        return [entrant.start_no for entrant in entrants]
    if parsed.crosstable.rounds or parsed.next_round_byes:
        return sorted(entrant.start_no for entrant in entrants)
    return None


def _initial_colour(
    parsed: ParsedTrf, records: PairingRecords, order: list[int] | None
) -> tuple[str, list[str]]:
    names = {"w": "White", "b": "Black"}
    if records.initial_colour:
        colour = records.initial_colour
        return colour, [f"Initial colour: {names[colour]} for pairing number 1 (the file's)."]
    start_order = order or sorted(e.start_no for e in parsed.crosstable.entrants)
    colour = inferred_initial_colour(parsed.crosstable, start_order)
    if not colour:
        return "", []
    return colour, [
        f"Initial colour: {names[colour]} for pairing number 1, read from the colours of the "
        "first round played (the file does not state it)."
    ]


def _acceleration_set(
    setup: SwissSetup, parsed: ParsedTrf, records: PairingRecords, event: Event, order: list[int]
) -> str:
    """Baku acceleration when the file names it or its ``XXA`` points are Baku's (C.04.5);
    otherwise the file's own points per player and round, which the next rounds are paired
    with exactly as JaVaFo and bbpPairings pair them (issue 28). Returns the note."""
    difference = _acceleration_difference(parsed, records, event, order)
    if difference is None:
        setup.acceleration = "baku"
        return "Baku acceleration (C.04.5), as the file's records give it."
    setup.acceleration = "table"
    setup.acceleration_table = {
        str(start_no): [str(points) for points in values]
        for start_no, values in records.accelerations
    }
    rounds = max((len(values) for _, values in records.accelerations), default=0)
    return (
        f"Acceleration: the file's virtual points (XXA) for {len(records.accelerations)} "
        f"players in rounds 1-{rounds}, as JaVaFo and bbpPairings read them; they are not the "
        f"Baku acceleration ({difference}), so the next rounds are paired with the file's points."
    )


def _acceleration_difference(
    parsed: ParsedTrf, records: PairingRecords, event: Event, order: list[int]
) -> str | None:
    """None when the file's acceleration is Baku's; else where it differs."""
    scoring = event_crosstable(event, rounds=0).scoring
    try:
        if not records.accelerations:
            baku_acceleration(order, event.rounds, 1, scoring)  # the scoring must fit it
            return None
        given = dict(records.accelerations)
        strangers = sorted(set(given) - set(order))
        if strangers:
            raise UserError(f"XXA: player {strangers[0]} is not in the file")
        through = min(parsed.crosstable.rounds + 1, event.rounds)
        return acceleration_difference(given, order, event.rounds, through, scoring)
    except ValueError as exc:  # a point system Baku acceleration does not fit
        if records.accelerations:
            return str(exc)
        raise UserError(f"acceleration: {exc}") from exc


def _bye_requests(parsed: ParsedTrf, players: dict[int, int]) -> list[str]:
    if not parsed.next_round_byes:
        return []
    round_no = parsed.crosstable.rounds + 1
    ByeRequest.objects.bulk_create(
        ByeRequest(
            player_id=players[start_no],
            round=round_no,
            kind=REQUESTED[code],
            note="from the imported TRF file",
        )
        for start_no, code in parsed.next_round_byes
    )
    listed = ", ".join(f"{start_no} ({code})" for start_no, code in parsed.next_round_byes)
    return [f"Round {round_no} is next; requested byes from the file: {listed}."]


def _forbidden_pairs(event: Event, records: PairingRecords, players: dict[int, int]) -> list[str]:
    pairs: set[tuple[int, int]] = set()
    for group in records.forbidden:
        for start_no in group:
            if start_no not in players:
                raise UserError(f"XXP: player {start_no} is not in the file")
        pairs.update((min(a, b), max(a, b)) for a, b in combinations(set(group), 2))
        if len(pairs) > MAX_FORBIDDEN_PAIRS:
            raise UserError(f"XXP: more than {MAX_FORBIDDEN_PAIRS:,} forbidden pairs")
    ForbiddenPair.objects.bulk_create(
        ForbiddenPair(
            event=event,
            first_id=players[a],
            second_id=players[b],
            reason="from the imported TRF file (XXP)",
        )
        for a, b in sorted(pairs)
    )
    return [f"{len(pairs)} forbidden pairs from the file (XXP)."] if pairs else []


def swiss_trf_export(event: Event, held: int, written: list[int]) -> TrfExport:
    """The export's share, written as it is read: the pairing numbers, the initial colour
    (``XXC``) and the Baku acceleration (``XXA``, rounds 1 to the next), the forbidden pairs in
    force in every round (``XXP``), and the requested byes of the round after the last one held,
    as one more round in which only they appear.

    The pairing numbers are the ones the engine pairs with (``pair``, ``pair --check``): when
    the players the file lists (``written``), in that order, are not simply 1 to N, the player
    records are written in pairing-number order and ``XXC rank`` says that their order is the
    pairing numbers (bbpPairings and JaVaFo read it so, and so does this program's import), so
    that the start numbers stay the event's own. A player left out of the file (who withdrew
    without playing) was never paired, so leaving them out moves nobody's number relative to
    the others."""
    if event.system != EventSystem.SWISS:
        return TrfExport()
    setup = selectors.setup_of(event)
    listed = set(written)
    everyone = selectors.pairing_numbers(event, setup)
    order = [n for n in everyone if n in listed]
    by_rank = order != list(range(1, len(order) + 1))
    colour, _ = selectors.initial_colour_of(event, setup)
    records = ["XXC " + ("rank " if by_rank else "") + ("white1" if colour == "w" else "black1")]
    records += _acceleration_records(event, setup, everyone, held, listed)
    forever = ForbiddenPair.objects.filter(event=event, until_round=None).values_list(
        "first__start_no", "second__start_no"
    )
    records += [f"XXP {a} {b}" for a, b in sorted(forever) if {a, b} <= listed]
    return TrfExport(records, _next_round_byes(event, held, listed), order if by_rank else None)


def _acceleration_records(
    event: Event, setup: SwissSetup, everyone: list[int], held: int, listed: set[int]
) -> list[str]:
    """``XXA``: Baku's points through the next round, or the imported table; none without."""
    if setup.acceleration == "baku":
        return _xxa_records(event, everyone, min(held + 1, event.rounds), listed)
    if setup.acceleration == "table":
        return _xxa_table_records(setup, listed)
    return []


def _next_round_byes(event: Event, held: int, listed: set[int]) -> list[tuple[int, str]]:
    """The byes requested for the round after the last one held, of the players listed."""
    if held >= event.rounds:
        return []
    requests = ByeRequest.objects.filter(player__event=event, round=held + 1).values_list(
        "player__start_no", "kind"
    )
    codes = {kind: code for code, kind in REQUESTED.items()}
    return [(start_no, codes[kind]) for start_no, kind in requests if start_no in listed]


def _xxa_records(event: Event, order: list[int], through: int, listed: set[int]) -> list[str]:
    """Baku's points per player and round as the engine applied them: a round already paired
    with the pairing numbers it was paired with (a late entry moves group A), the next one
    with today's."""
    scoring = event_crosstable(event, rounds=0).scoring
    recorded = dict(
        SwissRound.objects.filter(round__event=event, pairing_numbers__isnull=False).values_list(
            "round__number", "pairing_numbers"
        )
    )
    by_round = [
        dict(baku_acceleration(recorded.get(r, order), event.rounds, r, scoring))
        for r in range(1, through + 1)
    ]
    return [
        f"XXA {start_no:4d}"
        + "".join(f" {format_points(points.get(start_no, Fraction(0))):>4}" for points in by_round)
        for start_no in order
        if start_no in listed
    ]


def _xxa_table_records(setup: SwissSetup, listed: set[int]) -> list[str]:
    """The imported table written back as it was read (one value per round from round 1), for
    the players the file lists: one deleted since, or left out, is named nowhere else in it."""
    return [
        f"XXA {start_no:4d}" + "".join(f" {format_points(p):>4}" for p in points)
        for start_no, points in sorted(selectors.acceleration_table(setup).items())
        if start_no in listed
    ]


def register() -> None:
    trf_part_register(TrfPart("swiss", swiss_trf_load, swiss_trf_export))
