"""FIDE TRF16 / TRF-2026 reader and TRF16 writer. Pure: no Django, no models.

The reader turns a tournament report file into the engines' :class:`Crosstable`
(``events.records``) plus the event metadata an import needs. The writer produces TRF16 that
FIDE's own tie-break calculator reads (rules-notes, "TRF16" and "Reference oracle").

Column layout of a ``001`` player record (1-based, rules-notes "TRF16"): start number 5-8,
sex 10, title 11-13, name 15-47, rating 49-52, federation 54-56, FIDE id 58-68, birth date
70-79 (``YYYY/MM/DD``; ``YYYY/00/00`` when only the year is known), points 81-84, rank 86-89,
then one 10-column block per round starting at column 92: opponent (4 digits, ``0000`` for
none), a blank, the colour, a blank, the result code.

Decisions:

* The points and rank columns are not trusted; tie-breaks recompute them from the results.
* ``Crosstable.rounds`` is the number of rounds that carry data in the player records; the
  scheduled number of rounds (``XXR`` or ``142``) is kept as :attr:`ParsedTrf.rounds`, so a
  file written mid-event yields standings as of the last round with results.
* A blank result code is a zero-point bye (``Z``), as TRF16 says.
* TRF16 has no scoring-system record; TRF-2026's ``162`` is kept verbatim and the crosstable
  gets FIDE's default scoring.
* Records this module does not interpret are kept verbatim in :attr:`ParsedTrf.other_records`.
* The writer keeps every field in its columns, whatever text it holds (issue 28): a control
  character or line separator becomes a space (the inputs refuse them:
  :func:`events.limits.text_check`), a text is cut to its width, and points that four columns
  cannot hold exactly are refused rather than pushed into the rank column.

Continuing an event paired elsewhere (issue 20): a file written after round N by Swiss-Manager,
Vega or a pairing program may carry the next round's requested byes as one more round in
which nobody is paired, as bbpPairings and JaVaFo read it. The last round is read so, into
:attr:`ParsedTrf.next_round_byes`, when it has no game, no pairing-allocated bye and no forfeit
win, and some player has no entry in it at all (the players still to be paired); a round in
which every player has an entry is a round played (everyone had a bye). The pairing records
bbpPairings and JaVaFo read are kept as data: ``XXC white1|black1|rank`` and TRF-2026 ``152``
(initial colour, pairing numbers by file order), ``XXA`` (acceleration per player and round),
``XXP`` (forbidden pairs), ``BBW``/``BBD``/``BBL``/``BBZ``/``BBF``/``BBU`` (points), and
``192`` with a ``_BAKU`` type. The tournament records of TRF16 (``022`` city, ``032``
federation, ``042``/``052`` dates, ``092`` type, ``102`` chief arbiter, ``112`` deputies, one
line each, ``122`` time control, ``132`` round dates in the fixed columns of the round blocks,
``YY/MM/DD``) are read and written; a date that is given but cannot be read is refused with
its line number.
"""

from __future__ import annotations

import codecs
import datetime as dt
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import TypeVar

from events import trf_fields as fields
from events.duplicates import fide_id_key
from events.limits import (
    MAX_DEPUTY_ARBITERS,
    MAX_PLAYERS,
    MAX_ROUNDS,
    InputTooLarge,
    event_size_check,
    on_one_line,
)
from events.records import ALL_CODES, Crosstable, Entrant, RoundResult, Scoring
from events.trf_fields import FieldNotes

_Value = TypeVar("_Value", str, int)

ROUND_BLOCK_START = 91  # 0-based index of column 92, where round 1's block begins
ROUND_BLOCK_WIDTH = 10

# Results that may face each other in one pairing (TRF16). A blank/Z against an opponent is a
# pairing whose game has no result yet or was not played by either side.
_COMPATIBLE_RESULTS = {
    "1": "0L",
    "0": "1W",
    "=": "=D",
    "W": "L0",
    "L": "W1",
    "D": "D=",
    "+": "-",
    "-": "+-Z",
    "Z": "Z-",
}


class TrfError(ValueError):
    """A file that is not valid TRF; the message names the line and what is wrong."""


@dataclass(frozen=True, slots=True)
class ParsedTrf:
    """A parsed TRF file: the crosstable plus the event metadata an import needs.

    ``rounds`` is the scheduled number of rounds (``XXR``/``142``, else the rounds present);
    ``round_robin`` is True/False when record ``092``/``192`` says so, else None.
    """

    crosstable: Crosstable
    name: str
    start_date: dt.date | None
    end_date: dt.date | None
    rounds: int
    round_robin: bool | None
    site: str = ""
    federation: str = ""
    tournament_type: str = ""
    other_records: tuple[str, ...] = ()
    records: TournamentRecords | None = None
    pairing: PairingRecords | None = None
    # The scheduled rounds as the file states them (XXR / 142); None when it does not.
    scheduled_rounds: int | None = None
    # The next round's requested byes: (start_no, "H" | "Z" | "F"), in start-number order.
    next_round_byes: tuple[tuple[int, str], ...] = ()
    # What the reader set aside or changed, one line each (issue 28): for the import notes.
    notes: tuple[str, ...] = ()
    # The rank column (start_no, rank) where the file gives one, and record 072, as written.
    file_ranks: tuple[tuple[int, int], ...] = ()
    rated_players: str = ""


@dataclass(frozen=True, slots=True)
class TournamentRecords:
    """TRF16's tournament section beyond the name and the start date (records 022-132).

    ``round_dates`` holds one entry per round up to the last date given (None: no date).
    """

    site: str = ""
    federation: str = ""
    end_date: dt.date | None = None
    tournament_type: str = ""
    chief_arbiter: str = ""
    deputy_arbiters: tuple[str, ...] = ()
    rate_of_play: str = ""
    round_dates: tuple[dt.date | None, ...] = ()


@dataclass(frozen=True, slots=True)
class PairingRecords:
    """What bbpPairings and JaVaFo read besides the results (their TRF(x) extensions and
    TRF-2026's ``152``/``192``): ``initial_colour`` "w", "b" or "" (not given);
    ``file_order`` when ``XXC rank`` makes the order of the 001 lines the pairing numbers;
    ``accelerations`` per start number, one value per round from round 1 (``XXA``);
    ``baku`` when record 192 names a Baku-accelerated system; ``forbidden`` the groups of an
    ``XXP`` record (no two of a group may meet); ``scoring`` the points of the ``BB?``
    records, by :class:`~events.records.Scoring` field."""

    initial_colour: str = ""
    file_order: bool = False
    accelerations: tuple[tuple[int, tuple[Fraction, ...]], ...] = ()
    baku: bool = False
    forbidden: tuple[tuple[int, ...], ...] = ()
    scoring: tuple[tuple[str, Fraction], ...] = ()


# ---------------------------------------------------------------------------------------------
# Reading


def parse_date(text: str) -> dt.date | None:
    """Read the date spellings found in TRF files (``2024-08-01``, ``2024/08/01``,
    ``01.08.2024``, ``01/08/2024``); None for blank, zero or unreadable dates."""
    value = text.strip()[:10]
    match = re.fullmatch(r"(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})", value)
    if match:
        year, month, day = (int(part) for part in match.groups())
    else:
        match = re.fullmatch(r"(\d{1,2})[-/.](\d{1,2})[-/.](\d{4})", value)
        if not match:
            return None
        day, month, year = (int(part) for part in match.groups())
    try:
        return dt.date(year, month, day)
    except ValueError:
        return None  # 0000/00/00 and other placeholders


def parse_birth_year(text: str) -> int | None:
    """The year of a birth date written with only its year known (``1990``, ``1990/00/00``,
    as a FIDE rating list gives it); None otherwise."""
    match = re.fullmatch(r"(\d{4})(?:[-/.]00[-/.]00)?", text.strip()[:10])
    year = int(match.group(1)) if match else 0
    return year if 1850 <= year <= 2100 else None


def _as_latin_1(error: UnicodeError) -> tuple[str, int]:
    assert isinstance(error, UnicodeDecodeError)
    byte = error.object[error.start]
    return chr(byte), error.start + 1


codecs.register_error("trf-latin-1", _as_latin_1)


def decode_file(raw: bytes) -> str:
    """A file's text: UTF-8 (a BOM dropped), else Windows-1252, as older TRF files from
    Windows programs are written; its five undefined bytes are read as Latin-1. Reading such a
    file as Latin-1 would turn ``Š``, ``ž`` or ``€`` into control characters, which names may
    not hold (:func:`events.limits.text_check`)."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return raw.decode("cp1252", errors="trf-latin-1")


def _split_lines(text: str) -> list[str]:
    # CRLF, CR and LF all occur in files from the wild; a BOM sometimes precedes record 012.
    return text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n").split("\n")


def _parse_int(field: str, lineno: int, what: str) -> int:
    cleaned = field.strip()
    if not cleaned:
        return 0
    if not cleaned.isdigit():
        raise TrfError(f"line {lineno}: {what} {cleaned!r} is not a number")
    return int(cleaned)


def _parse_round(block: str, round_no: int, lineno: int) -> RoundResult:
    block = block.ljust(8)
    opponent = _parse_int(block[0:4], lineno, f"round {round_no}: opponent")
    colour = block[5].lower()
    if colour == " ":
        colour = "-"
    if colour not in "wb-":
        raise TrfError(f"line {lineno}: round {round_no}: unknown colour {block[5]!r}")
    code = block[7].upper()
    if code == " ":
        code = "Z"  # TRF16: a blank result is a zero-point bye
    if code not in ALL_CODES:
        raise TrfError(f"line {lineno}: round {round_no}: unknown result code {block[7]!r}")
    return RoundResult(round=round_no, opponent=opponent or None, colour=colour, code=code)


def _round_blocks(line: str) -> list[str]:
    tail = line[ROUND_BLOCK_START:]
    blocks = [tail[i : i + ROUND_BLOCK_WIDTH][:8] for i in range(0, len(tail), ROUND_BLOCK_WIDTH)]
    while blocks and not blocks[-1].strip():
        blocks.pop()  # trailing spaces are not rounds
    return blocks


@dataclass(frozen=True, slots=True)
class _PlayerLine:
    lineno: int
    entrant: Entrant
    blocks: tuple[str, ...]
    points: Fraction | None = None  # the points column (81-84), as the file says
    rank: int | None = None  # the rank column (86-89), as the file says


_FILE_POINTS = re.compile(r"\d{1,3}(?:[.,]\d{1,2})?")


def _parse_player(line: str, lineno: int, notes: FieldNotes) -> _PlayerLine:
    if len(line) < 8 or not line[4:8].strip():
        raise TrfError(f"line {lineno}: player record without a start number (columns 5-8)")
    start_no = _parse_int(line[4:8], lineno, "start number")
    if start_no <= 0:
        raise TrfError(f"line {lineno}: start number must be positive")
    blocks = _round_blocks(line)
    if len(blocks) > MAX_ROUNDS:
        raise TrfError(f"line {lineno}: {len(blocks)} rounds; an event has at most {MAX_ROUNDS}")
    padded = line.ljust(ROUND_BLOCK_START)
    entrant = Entrant(
        start_no=start_no,
        name=padded[14:47].strip(),
        rating=_lenient(start_no, "rating", padded[48:52], fields.rating_read, 0, notes),
        federation=_lenient(
            start_no, "federation", padded[53:56], fields.federation_read, "", notes
        ),
        fide_id=_lenient(start_no, "FIDE id", padded[57:68], fields.fide_id_read, "", notes),
        title=_lenient(start_no, "title", padded[10:13], fields.title_read, "", notes),
        sex=_lenient(start_no, "sex", padded[9], fields.sex_read, "", notes),
        birth_date=parse_date(padded[69:79]),
        birth_year=parse_birth_year(padded[69:79]),
    )
    birth = padded[69:79].strip()
    unread = entrant.birth_date is None and entrant.birth_year is None
    if birth and unread and not fields.is_placeholder(birth):
        notes.add("Birth dates that are no dates, left empty: {cases}.", f"{start_no} {birth!r}")
    points_text, rank_text = padded[80:84].strip(), padded[85:89].strip()
    return _PlayerLine(
        lineno,
        entrant,
        tuple(blocks),
        points=Fraction(points_text.replace(",", "."))
        if _FILE_POINTS.fullmatch(points_text)
        else None,
        rank=int(rank_text) if rank_text.isascii() and rank_text.isdigit() else None,
    )


def _lenient(
    start_no: int,
    what: str,
    text: str,
    read: Callable[[str], _Value | None],
    empty: _Value,
    notes: FieldNotes,
) -> _Value:
    """A player's field as :mod:`events.trf_fields` reads it; what it cannot read is left
    empty and named in the notes (one line per field for the whole file)."""
    value = read(text)
    if value is None:
        notes.add(
            f"Players' {what} column, not read (left empty): {{cases}}.",
            f"{start_no} {text.strip()!r}",
        )
        return empty
    return value


@dataclass(slots=True)
class _Header:
    name: str = ""
    site: str = ""
    federation: str = ""
    start_date: dt.date | None = None
    end_date: dt.date | None = None
    rounds: int | None = None
    tournament_type: str = ""
    round_robin: bool | None = None
    chief_arbiter: str = ""
    deputy_arbiters: list[str] = field(default_factory=list)
    rate_of_play: str = ""
    round_dates: tuple[dt.date | None, ...] = ()
    initial_colour: str = ""
    file_order: bool = False
    accelerations: dict[int, tuple[Fraction, ...]] = field(default_factory=dict)
    baku: bool = False
    forbidden: list[tuple[int, ...]] = field(default_factory=list)
    scoring: dict[str, Fraction] = field(default_factory=dict)
    # The dates as written (042, 052, 132), read together at the end (events.trf_fields).
    date_fields: list[fields.DateField] = field(default_factory=list)
    notes: FieldNotes = field(default_factory=FieldNotes)
    rated_players: str = ""  # record 072 as the file says


def _round_robin_flag(text: str) -> bool | None:
    lowered = text.lower()
    if "swiss" in lowered or "dutch" in lowered:
        return False
    if re.search(r"robin|berger|\brr\b|schev", lowered):
        return True
    return None


def _scheduled_rounds(value: str, lineno: int) -> int | None:
    """The number of rounds of ``XXR``/``142``; None for 0 (some programs write it for "not
    known yet")."""
    rounds = _parse_int(value.split()[0] if value.split() else "", lineno, "rounds")
    if rounds > MAX_ROUNDS:
        raise TrfError(f"line {lineno}: {rounds} rounds; an event has at most {MAX_ROUNDS}")
    return rounds or None


def _round_date_texts(line: str) -> list[str]:
    """Record 132: round r's date in columns 92 + 10(r - 1) to 99 + 10(r - 1) (TRF16); a file
    that writes the dates one after the other from column 5 gives them in that order."""
    if line[3:ROUND_BLOCK_START].strip():
        return line[4:].split()
    return [block.strip() for block in _round_blocks(line)]


_POINTS = re.compile(r"\d{1,2}(?:\.\d{1,2})?")
# bbpPairings' point records (its README, "TRF(bx)") -> the Scoring fields they set.
POINT_RECORDS = {
    "BBW": ("win", "forfeit_win", "full_bye"),
    "BBD": ("draw", "half_bye"),
    "BBL": ("loss",),
    "BBZ": ("zero_bye",),
    "BBF": ("forfeit_loss",),
    "BBU": ("pairing_bye",),
}


def _points(text: str, lineno: int, what: str) -> Fraction:
    value = text.strip()
    if not _POINTS.fullmatch(value):
        raise TrfError(f"line {lineno}: {what} {value[:20]!r} is not a number of points")
    return Fraction(value)


def _read_points(header: _Header, record: str, value: str, lineno: int) -> None:
    points = _points(value, lineno, f"record {record}:")
    for key in POINT_RECORDS[record]:
        header.scoring[key] = points


def _read_acceleration(header: _Header, line: str, lineno: int) -> None:
    start_no = _parse_int(line[4:8], lineno, "XXA: start number")
    values = line[8:].split()
    if len(values) > MAX_ROUNDS:
        raise TrfError(f"line {lineno}: XXA: {len(values)} rounds; at most {MAX_ROUNDS}")
    header.accelerations[start_no] = tuple(
        _points(value, lineno, "XXA: acceleration") for value in values
    )


def _read_forbidden(header: _Header, value: str, lineno: int) -> None:
    numbers = tuple(_parse_int(word, lineno, "XXP: start number") for word in value.split())
    if len(numbers) < 2 or len(numbers) > MAX_PLAYERS:
        raise TrfError(f"line {lineno}: XXP lists 2 to {MAX_PLAYERS:,} start numbers")
    header.forbidden.append(numbers)


def _read_colour(header: _Header, record: str, value: str, lineno: int) -> None:
    if record == "152":
        colour = {"W": "w", "B": "b"}.get(value.strip().upper())
        if colour is None:
            raise TrfError(f"line {lineno}: record 152: {value.strip()!r} is neither W nor B")
        header.initial_colour = colour
        return
    for word in value.split():
        if word == "white1":
            header.initial_colour = "w"
        elif word == "black1":
            header.initial_colour = "b"
        elif word == "rank":
            header.file_order = True


def _read_type(header: _Header, record: str, value: str) -> None:
    if record == "092" or not header.tournament_type:
        header.tournament_type = value.strip()
    if record == "192" and value.strip().upper().endswith("_BAKU"):
        header.baku = True
    flag = _round_robin_flag(value)
    header.round_robin = header.round_robin if flag is None else flag


_TEXT_RECORDS = {
    "012": "name",
    "022": "site",
    "102": "chief_arbiter",
    "122": "rate_of_play",
}


def _read_text(header: _Header, record: str, value: str, line: str, lineno: int) -> None:
    setattr(header, _TEXT_RECORDS[record], value.strip())


def _read_federation(header: _Header, record: str, value: str, line: str, lineno: int) -> None:
    code = fields.federation_read(value)
    if code is None:
        header.notes.line(
            f"Record 032 {value.strip()[:40]!r} is not a federation code: the event's "
            "federation is left empty."
        )
    header.federation = code or ""


def _read_date(header: _Header, record: str, value: str, line: str, lineno: int) -> None:
    role = "start" if record == "042" else "end"
    header.date_fields = [f for f in header.date_fields if f.role != role]
    header.date_fields.append(fields.DateField(f"record {record}", value.strip(), role))


def _read_deputy(header: _Header, record: str, value: str, line: str, lineno: int) -> None:
    if not value.strip():
        return
    if len(header.deputy_arbiters) == MAX_DEPUTY_ARBITERS:
        header.notes.add(
            f"Deputy arbiters past the {MAX_DEPUTY_ARBITERS} an event keeps, left out: {{cases}}.",
            f"line {lineno}",
        )
        return
    header.deputy_arbiters.append(value.strip())


def _read_round_dates(header: _Header, record: str, value: str, line: str, lineno: int) -> None:
    texts = _round_date_texts(line)
    if len(texts) > MAX_ROUNDS:
        raise TrfError(f"line {lineno}: {len(texts)} round dates; at most {MAX_ROUNDS}")
    header.date_fields = [f for f in header.date_fields if f.role != "round"]
    header.date_fields += [
        fields.DateField(f"record 132, round {number}", text, "round")
        for number, text in enumerate(texts, start=1)
    ]


def _read_dates(header: _Header) -> None:
    """042, 052 and 132 together, once the whole section is read (events.trf_fields)."""
    read = fields.dates_read(header.date_fields)
    header.start_date, header.end_date, header.round_dates = read.start, read.end, read.rounds
    for note in read.notes:
        header.notes.line(note)


def _read_rounds(header: _Header, record: str, value: str, line: str, lineno: int) -> None:
    header.rounds = _scheduled_rounds(value, lineno)


_READERS: dict[str, Callable[[_Header, str, str, str, int], None]] = {
    **dict.fromkeys(_TEXT_RECORDS, _read_text),
    "032": _read_federation,
    "072": lambda h, _r, v, _line, _no: setattr(h, "rated_players", v.strip()),
    **dict.fromkeys(("042", "052"), _read_date),
    "112": _read_deputy,
    "132": _read_round_dates,
    **dict.fromkeys(("XXR", "142"), _read_rounds),
    **dict.fromkeys(("092", "192"), lambda h, r, v, _line, _no: _read_type(h, r, v)),
    **dict.fromkeys(("XXC", "152"), lambda h, r, v, _line, no: _read_colour(h, r, v, no)),
    "XXA": lambda h, _r, _v, line, no: _read_acceleration(h, line, no),
    "XXP": lambda h, _r, v, _line, no: _read_forbidden(h, v, no),
    **dict.fromkeys(POINT_RECORDS, lambda h, r, v, _line, no: _read_points(h, r, v, no)),
}


# A column ruler (``0123456789012...``) some programs write above the player section: it
# starts like record 012 but is no record.
_RULER = re.compile(r"\d{20,}")


def _read_header(header: _Header, record: str, value: str, line: str, lineno: int) -> bool:
    """Interpret a tournament-section record; False when the record is not one of ours."""
    reader = _READERS.get(record)
    if reader is None or _RULER.fullmatch(line):
        return False
    if record == "012" and header.name:
        header.notes.line(f"Record 012 is given twice (line {lineno}): the first name is kept.")
        return True
    reader(header, record, value, line, lineno)
    return True


# Records whose content the import does not take: the counts (062, 072, 082) are the event's
# own; these are said elsewhere (the Swiss part names 162, 240, 260).
_UNREAD_SILENT = frozenset({"062", "082", "162", "240", "260"})


def _unread_notes(other: list[str]) -> tuple[str, ...]:
    """One line naming the records the import leaves out (what they are, how many), and one
    for TRF16's team records (013) when the file has them."""
    counts: dict[str, int] = {}
    for line in other:
        code = "column ruler" if _RULER.fullmatch(line) else line[:3].strip() or "?"
        if code not in _UNREAD_SILENT:
            counts[code] = counts.get(code, 0) + 1
    teams = counts.pop("013", 0)
    notes = (_team_records_note(teams),) if teams else ()
    if not counts:
        return notes
    named = [f"{code} ({count} lines)" if count > 1 else code for code, count in counts.items()]
    return (*notes, f"Lines the import does not read, left out: {fields.listed(named)}.")


def _team_records_note(teams: int) -> str:
    """TRF16 team records (013: a team's name and its players) do not make a team event here:
    the file has no boards, no match colours and no team scoring, which a team event needs and
    could only be guessed (docs/teams.md, "TRF16 team records")."""
    return (
        f"Records 013 ({teams} team{'s' if teams != 1 else ''}) were not read as a team event: "
        "a TRF16 file gives no boards, match colours or team scoring; the players and their "
        "games are imported as an individual event (a TRF-2026 team file, records 310, "
        "imports as a team event)."
    )


def parse_trf(text: str) -> ParsedTrf:
    """Parse a TRF16 or TRF-2026 file into a :class:`ParsedTrf`; raise :class:`TrfError`."""
    header = _Header()
    players: list[_PlayerLine] = []
    other: list[str] = []
    for lineno, raw in enumerate(_split_lines(text), start=1):
        line = raw.rstrip()
        if not line.strip():
            continue
        record, value = line[:3], line[4:]
        if record == "001":
            if len(players) == MAX_PLAYERS:
                raise TrfError(f"line {lineno}: more than {MAX_PLAYERS:,} players")
            players.append(_parse_player(line, lineno, header.notes))
        elif not _read_header(header, record, value, line, lineno):
            other.append(line)
    _read_dates(header)
    if not players:
        raise TrfError("the file has no player records (001)")
    try:  # before the crosstable is built: its size is players x rounds
        event_size_check(players=len(players), rounds=max(1, *_rounds(players)))
    except InputTooLarge as exc:
        raise TrfError(str(exc)) from exc
    crosstable, next_round_byes = _build_crosstable(header, players)
    pairing = _pairing_records(header)
    return ParsedTrf(
        crosstable=crosstable,
        name=header.name,
        start_date=header.start_date,
        end_date=header.end_date,
        rounds=_rounds_of_event(header.rounds, crosstable.rounds, bool(next_round_byes)),
        round_robin=header.round_robin,
        site=header.site,
        federation=header.federation,
        tournament_type=header.tournament_type,
        other_records=tuple(other),
        records=TournamentRecords(
            site=header.site,
            federation=header.federation,
            end_date=header.end_date,
            tournament_type=header.tournament_type,
            chief_arbiter=header.chief_arbiter,
            deputy_arbiters=tuple(header.deputy_arbiters),
            rate_of_play=header.rate_of_play,
            round_dates=header.round_dates,
        ),
        pairing=pairing,
        scheduled_rounds=header.rounds,
        next_round_byes=next_round_byes,
        notes=header.notes.lines()
        + _unread_notes(other)
        + _points_notes(crosstable, players, pairing),
        file_ranks=tuple((p.entrant.start_no, p.rank) for p in players if p.rank),
        rated_players=header.rated_players,
    )


def _points_notes(
    crosstable: Crosstable, players: list[_PlayerLine], pairing: PairingRecords
) -> tuple[str, ...]:
    """The players whose points column is not what their results score (the file's points,
    ``BB?``, else FIDE's): never silently, but the results count (rules-notes, "TRF16")."""
    scoring = replace(Scoring(), **dict(pairing.scoring))  # type: ignore[arg-type]
    differ = []
    for player, entrant in zip(players, crosstable.entrants, strict=True):
        scored = sum((scoring.points(r) for r in entrant.results), Fraction(0))
        if player.points is not None and player.points != scored:
            differ.append(
                f"{entrant.start_no} (file {format_points(player.points)}, results "
                f"{format_points(scored)})"
            )
    if not differ:
        return ()
    return (
        f"The points column disagrees with the results for {len(differ)} "
        f"player{'s' if len(differ) > 1 else ''}; the results count: {fields.listed(differ)}.",
    )


def _rounds_of_event(scheduled: int | None, played: int, next_round: bool) -> int:
    """The scheduled rounds when the file states them (never fewer than it holds), else the
    rounds it holds, its next round included when it lists that round's requested byes."""
    held = played + (1 if next_round else 0)
    return max(scheduled or 0, held)


def _pairing_records(header: _Header) -> PairingRecords:
    scoring = dict(header.scoring)
    if "win" in scoring:
        scoring.setdefault("pairing_bye", scoring["win"])  # bbpPairings: BBU defaults to BBW
    return PairingRecords(
        initial_colour=header.initial_colour,
        file_order=header.file_order,
        accelerations=tuple(sorted(header.accelerations.items())),
        baku=header.baku,
        forbidden=tuple(header.forbidden),
        scoring=tuple(sorted(scoring.items())),
    )


def _rounds(players: list[_PlayerLine]) -> list[int]:
    return [len(player.blocks) for player in players]


def _build_crosstable(
    header: _Header, players: list[_PlayerLine]
) -> tuple[Crosstable, tuple[tuple[int, str], ...]]:
    rounds = max(_rounds(players))
    seen: dict[int, int] = {}
    entrants: list[Entrant] = []
    for player in players:
        start_no = player.entrant.start_no
        if start_no in seen:
            raise TrfError(
                f"line {player.lineno}: start number {start_no} already used on line "
                f"{seen[start_no]}"
            )
        seen[start_no] = player.lineno
        results = tuple(
            _round_read(player, r, header.notes) if r <= len(player.blocks) else _ABSENT(r)
            for r in range(1, rounds + 1)
        )
        entrants.append(_with_results(player.entrant, results))
    next_round_byes: tuple[tuple[int, str], ...] = ()
    if _is_next_round(players, entrants, rounds):
        next_round_byes = tuple(
            sorted(
                (e.start_no, "Z" if e.results[-1].code == "-" else e.results[-1].code)
                for e, player in zip(entrants, players, strict=True)
                if len(player.blocks) == rounds
            )
        )
        rounds -= 1
        entrants = [_with_results(e, e.results[:rounds]) for e in entrants]
    _check_pairings(entrants, seen, rounds)
    crosstable = Crosstable(
        name=header.name,
        rounds=rounds,
        entrants=tuple(entrants),
        start_date=header.start_date,
        round_robin=bool(header.round_robin),
    )
    return crosstable, next_round_byes


def _ABSENT(round_no: int) -> RoundResult:  # noqa: N802 - reads as the constant it stands for
    """A round after the player's last entry: not there (TRF16: no entry, no points)."""
    return RoundResult(round=round_no, opponent=None, colour="-", code="Z")


# Results written against no one, as national rating programs and lichess write byes
# (issue 28), and the byes they are: gacrux reads "=" as a draw, "+" as a win and "-" as a
# loss that were not played, bbpPairings the same (its trf.cpp: an unplayed "=" scores a
# draw); the game codes 1/W, D, 0/L alone have no reading of their own and score the same.
_BYE_OF = {"=": "H", "D": "H", "+": "F", "1": "F", "W": "F", "-": "Z", "0": "Z", "L": "Z"}
_BYE_NOTES = {
    "H": "Draws written against no one, read as half-point byes: {cases}.",
    "F": "Wins written against no one, read as full-point byes: {cases}.",
    "Z": "Losses written against no one, read as zero-point byes (absent): {cases}.",
    " ": "Rounds with neither opponent nor result, read as zero-point byes (absent): {cases}.",
}


def _round_read(player: _PlayerLine, round_no: int, notes: FieldNotes) -> RoundResult:
    """Round ``round_no`` of the player's line; a result against no one is the bye it stands
    for (:data:`_BYE_OF`), named in the notes."""
    block = player.blocks[round_no - 1]
    result = _parse_round(block, round_no, player.lineno)
    written = block.ljust(8)[7]
    if result.opponent is not None or written.upper() not in (*_BYE_OF, " "):
        return result
    code = _BYE_OF.get(written.upper(), "Z")
    notes.add(
        _BYE_NOTES[code if written != " " else " "],
        f"{player.entrant.start_no} in round {round_no}",
    )
    return RoundResult(round=round_no, opponent=None, colour="-", code=code)


# Codes of a player not paired in a round: requested byes (H, F), a zero-point bye or absence
# (Z, blank) and a forfeit loss without an opponent, which bbpPairings reads as not paired.
_NOT_PAIRED = frozenset("HFZ-")


def _is_next_round(players: list[_PlayerLine], entrants: list[Entrant], rounds: int) -> bool:
    """The last round holds the next round's requested byes: nobody in it is paired (no
    game, no pairing-allocated bye, no forfeit win) and some player has no entry in it."""
    if rounds < 1 or all(len(player.blocks) == rounds for player in players):
        return False
    if any(_won_against_no_one(p.blocks[-1]) for p in players if len(p.blocks) == rounds):
        return False  # bbpPairings: "+" without an opponent took part in the pairing
    return all(
        e.results[-1].opponent is None and e.results[-1].code in _NOT_PAIRED for e in entrants
    )


def _won_against_no_one(block: str) -> bool:
    return block.ljust(8)[7] == "+" and not block[:4].strip("0 ")


def _with_results(entrant: Entrant, results: tuple[RoundResult, ...]) -> Entrant:
    return Entrant(
        start_no=entrant.start_no,
        name=entrant.name,
        rating=entrant.rating,
        federation=entrant.federation,
        fide_id=entrant.fide_id,
        title=entrant.title,
        sex=entrant.sex,
        birth_date=entrant.birth_date,
        results=results,
        birth_year=entrant.birth_year,
    )


def _check_pairings(entrants: list[Entrant], lines: dict[int, int], rounds: int) -> None:
    """Every opponent exists, meets the player once per round, and the pairing is mutual."""
    by_start = {entrant.start_no: entrant for entrant in entrants}
    for round_no in range(1, rounds + 1):
        claimed: dict[int, int] = {}
        for entrant in entrants:
            result = entrant.results[round_no - 1]
            opponent = result.opponent
            if opponent is None:
                continue
            where = f"line {lines[entrant.start_no]}: round {round_no}"
            if opponent not in by_start:
                raise TrfError(f"{where}: opponent {opponent} is not a player in the file")
            if opponent == entrant.start_no:
                raise TrfError(f"{where}: player {opponent} is paired against themself")
            if opponent in claimed:
                raise TrfError(
                    f"{where}: player {opponent} appears twice in the round "
                    f"(against {claimed[opponent]} and {entrant.start_no})"
                )
            claimed[opponent] = entrant.start_no
            _check_pair(result, by_start[opponent].results[round_no - 1], entrant.start_no, where)


def _check_pair(result: RoundResult, other: RoundResult, start_no: int, where: str) -> None:
    if other.opponent != start_no:
        raise TrfError(
            f"{where}: asymmetric pairing: {start_no} meets {result.opponent}, "
            f"but {result.opponent} has {other.opponent or 'no opponent'}"
        )
    if other.code not in _COMPATIBLE_RESULTS.get(result.code, ""):
        raise TrfError(
            f"{where}: results {result.code!r} ({start_no}) and {other.code!r} "
            f"({result.opponent}) do not belong to one game"
        )


# ---------------------------------------------------------------------------------------------
# Writing


def format_points(points: Fraction) -> str:
    """Points as TRF writes them (``4.0``, ``12.5``); exact, or ValueError."""
    if (points * 100).denominator != 1:
        raise ValueError(f"{points} cannot be written as a decimal in TRF")
    hundredths = int(points * 100)
    sign = "-" if hundredths < 0 else ""
    whole, rest = divmod(abs(hundredths), 100)
    decimals = f"{rest // 10}" if rest % 10 == 0 else f"{rest:02d}"
    return f"{sign}{whole}.{decimals}"


def _entrant_points(entrant: Entrant, rounds: int, scoring: Scoring) -> Fraction:
    return sum(
        (scoring.points(result) for result in entrant.results if result.round <= rounds),
        Fraction(0),
    )


def _ranks(crosstable: Crosstable, ranked: Sequence[int] | None = None) -> dict[int, int]:
    """The rank column: the players' places in ``ranked`` (start numbers in the order of the
    standings, their tie-breaks included), 1 to N over the players written; without it, or for
    a player it leaves out, points then start number. Readers recompute it; the rating officer
    reads it."""
    position = {start_no: index for index, start_no in enumerate(ranked or ())}
    order = sorted(
        crosstable.entrants,
        key=lambda e: (
            position.get(e.start_no, len(position)),
            -_entrant_points(e, crosstable.rounds, crosstable.scoring),
            e.start_no,
        ),
    )
    return {entrant.start_no: rank for rank, entrant in enumerate(order, start=1)}


def _round_block(result: RoundResult | None) -> str:
    if result is None:
        return "0000 - Z"
    opponent = f"{result.opponent:4d}" if result.opponent else "0000"
    return f"{opponent} {result.colour or '-'} {result.code}"


def _cell(value: str, width: int, *, right: bool = False) -> str:
    """A text field in its ``width`` columns: on one line, cut to fit, padded."""
    text = on_one_line(value)[:width]
    return text.rjust(width) if right else text.ljust(width)


def _points_cell(points: Fraction) -> str:
    """Points in columns 81-84: ``4.0``, ``12.5``, ``100`` (a whole number past 99.5 without
    its decimal); points that four columns cannot hold exactly are refused."""
    text = format_points(points)
    if len(text) > 4 and points.denominator == 1:
        text = str(points.numerator)
    if len(text) > 4:
        raise ValueError(f"{points} points do not fit TRF's four columns")
    return text.rjust(4)


def _player_line(entrant: Entrant, rounds: int, points: Fraction, rank: int) -> str:
    """A ``001`` record: every field in its columns (TRF16), whatever text it holds."""
    birth = entrant.birth_date.strftime("%Y/%m/%d") if entrant.birth_date else ""
    if not birth and entrant.birth_year:
        birth = f"{entrant.birth_year:04d}/00/00"  # only the year is known: no invented date
    head = (
        f"001 {entrant.start_no:4d} {_cell(entrant.sex, 1)}{_cell(entrant.title, 3)} "
        f"{_cell(entrant.name, 33)} {entrant.rating:4d} {_cell(entrant.federation, 3)} "
        f"{_cell(entrant.fide_id, 11, right=True)} {birth:<10} {_points_cell(points)} {rank:4d}"
    )
    by_round = {result.round: result for result in entrant.results}
    blocks = "".join(f"  {_round_block(by_round.get(r))}" for r in range(1, rounds + 1))
    return (head + blocks).rstrip()


def write_trf(
    crosstable: Crosstable,
    *,
    tournament_type: str | None = None,
    site: str = "",
    federation: str = "",
    end_date: dt.date | None = None,
    extra_records: Iterable[str] = (),
    scheduled_rounds: int | None = None,
    records: TournamentRecords | None = None,
    next_round_byes: Sequence[tuple[int, str]] = (),
    player_order: Sequence[int] | None = None,
    rank_order: Sequence[int] | None = None,
) -> str:
    """Write TRF16 for ``crosstable`` (rounds after ``crosstable.rounds`` are left out).

    The tournament section in TRF16's order: ``012`` to ``132`` (dates as ``YYYY/MM/DD``,
    which FIDE's calculator reads for the C.07 edition; round dates as ``YY/MM/DD`` in the
    columns of their rounds; ``062``/``072``/``082`` counted, 072 as FIDE counts rated players:
    :func:`fide_rated`), then ``XXR`` with
    ``scheduled_rounds`` (default: the rounds written). ``092`` says Swiss or round robin
    unless ``tournament_type`` is given. ``next_round_byes`` (start number, ``H``/``Z``) are
    written as one more round in which only they appear, as bbpPairings and JaVaFo read the
    next round's requested byes. ``player_order`` (start numbers) is the order of the player
    records, which ``XXC rank`` makes the pairing numbers (bbpPairings, JaVaFo); players it
    does not name follow in start-number order; default: the crosstable's order.
    ``rank_order`` (start numbers in the order of the standings) gives the rank column
    (:func:`_ranks`).
    ``parse_trf(write_trf(x)).crosstable == x`` for crosstables with default scoring, up to the
    order of the entrants.
    """
    records = records or TournamentRecords()
    lines = [f"012 {on_one_line(crosstable.name)}".rstrip()]
    lines += _text_record("022", site)
    lines += _text_record("032", federation)
    lines += _date_record("042", crosstable.start_date)
    lines += _date_record("052", end_date)
    lines.append(f"062 {len(crosstable.entrants)}")
    lines.append(f"072 {sum(1 for entrant in crosstable.entrants if fide_rated(entrant))}")
    lines.append("082 0")  # an individual event: no teams
    kind = tournament_type or ("Round Robin" if crosstable.round_robin else "Swiss System")
    lines += _text_record("092", kind)
    lines += _text_record("102", records.chief_arbiter)
    for deputy in records.deputy_arbiters:
        lines += _text_record("112", deputy)
    lines += _text_record("122", records.rate_of_play)
    if any(records.round_dates):
        lines.append(_round_dates_record(records.round_dates))
    lines.append(f"XXR {scheduled_rounds or crosstable.rounds}")
    lines.extend(extra_records)
    ranks = _ranks(crosstable, rank_order)
    requested = dict(next_round_byes)
    for entrant in _in_order(crosstable.entrants, player_order):
        points = _entrant_points(entrant, crosstable.rounds, crosstable.scoring)
        if entrant.start_no in requested:  # JaVaFo counts the bye the file lists (gacrux too)
            bye = RoundResult(crosstable.rounds + 1, None, "-", requested[entrant.start_no])
            points += crosstable.scoring.points(bye)
        line = _player_line(entrant, crosstable.rounds, points, ranks[entrant.start_no])
        if entrant.start_no in requested:
            line = line.ljust(ROUND_BLOCK_START - 2 + ROUND_BLOCK_WIDTH * crosstable.rounds)
            line += f"  0000 - {requested[entrant.start_no]}"
        lines.append(line)
    return "\n".join(lines) + "\n"


def fide_rated(entrant: Entrant) -> bool:
    """Counted in record 072, "number of (FIDE) rated players": a rating and a FIDE id (a
    rating without an id is a national one; an id of zeros is none)."""
    return bool(entrant.rating) and bool(fide_id_key(entrant.fide_id))


def _in_order(entrants: Sequence[Entrant], order: Sequence[int] | None) -> list[Entrant]:
    if order is None:
        return list(entrants)
    by_start_no = {entrant.start_no: entrant for entrant in entrants}
    first = [by_start_no[n] for n in order if n in by_start_no]
    named = {entrant.start_no for entrant in first}
    return first + sorted(
        (e for e in entrants if e.start_no not in named), key=lambda e: e.start_no
    )


def points_records(scoring: Scoring) -> list[str]:
    """bbpPairings' ``BB?`` records for a point system other than FIDE's 1 / ½ / 0, when they
    can say it (a forfeit win and a full-point bye score a win, a half-point bye a draw);
    else none."""
    if scoring == Scoring() or (scoring.forfeit_win, scoring.full_bye) != (scoring.win,) * 2:
        return []
    if scoring.half_bye != scoring.draw or scoring.time_control_weights:
        return []
    values = {
        "BBW": scoring.win,
        "BBD": scoring.draw,
        "BBL": scoring.loss,
        "BBZ": scoring.zero_bye,
        "BBF": scoring.forfeit_loss,
        "BBU": scoring.pairing_bye,
    }
    return [f"{code} {format_points(value):>4}" for code, value in values.items()]


def _text_record(code: str, value: str) -> list[str]:
    # One line each: a line break in the value would start a record of its own.
    text = " ".join(on_one_line(value).split())
    return [f"{code} {text}"] if text else []


def _date_record(code: str, value: dt.date | None) -> list[str]:
    return [f"{code} {value.strftime('%Y/%m/%d')}"] if value else []


def _round_dates_record(dates: Sequence[dt.date | None]) -> str:
    """Record 132: round r's date as ``YY/MM/DD`` in columns 92 + 10(r - 1) on (TRF16)."""
    blocks = "".join(f"  {d.strftime('%y/%m/%d') if d else '':<8}" for d in dates)
    return ("132" + " " * (ROUND_BLOCK_START - 5) + blocks).rstrip()


def entrants_by_start_no(entrants: Sequence[Entrant]) -> dict[int, Entrant]:
    """Convenience for importers: the entrants keyed by start number."""
    return {entrant.start_no: entrant for entrant in entrants}
