"""Rating lists as files: FIDE's downloads and national lists. Pure: no Django.

What is read (FIDE's download page, ratings.fide.com/download_lists.phtml):

* **FIDE TXT**, fixed width, one header line naming the columns: the combined list
  (``players_list_foa.txt``: ``ID Number  Name  Fed Sex Tit WTit OTit FOA SRtng SGm SK RRtng RGm
  Rk BRtng BGm BK B-day Flag``) and the single lists (``standard_rating_list.txt``, rapid,
  blitz: one rating column headed by the month, ``NOV26``, then ``Gms K B-day Flag``). Each
  rating's K (``SK``, ``Rk``, ``BK``; a single list's ``K``) is kept beside it (B.02 7.1.2
  lists K among the published fields; fiderating uses it before 8.3.3's rules). Column
  positions are read from the header (a column runs from its label to the next label), never
  hard-coded: FIDE has moved them before (the legacy list has no FOA column). A handful of lines
  in the real list are one character longer because the other-titles text overflows into the
  FOA column; the columns after it are shifted for those lines.
* **FIDE XML** (``players_list_xml.zip``): ``<playerslist><player><fideid>…<name>…<country>…
  <sex>…<title>…<w_title>…<rating>…<k>…<rapid_rating>…<rapid_k>…<blitz_rating>…<blitz_k>…
  <birthday>…<flag>…``; a single list's ``<rating>`` and ``<k>`` are that list's rating and K.
  Read with expat in chunks (memory does not grow with the file); a DOCTYPE, entity
  declarations and nesting deeper than the list's three levels are refused.
* **National lists**: CSV with a header line and a column mapping (which column is the name,
  the FIDE id, the rating, …), given by the director.

Either file may come zipped as downloaded: the one list inside is read from the archive as a
stream. Bounds (documented in the README, one-line refusals): :data:`MAX_UNPACKED_BYTES`,
:data:`MAX_PLAYERS`, :data:`MAX_LINE_BYTES`, :data:`MAX_PACKING`; the bytes are counted in a
first pass (:func:`_survey`), so that a file past them is refused before its lines are read.

Decisions:

* A malformed line (or ``<player>``) is skipped and reported with its line number, because a
  real FIDE list has a few odd lines and a director should not lose the import for one. A file
  with too many (:func:`too_many_problems`: more than 100 and more than 1 % of its lines) is
  refused as a whole: its layout is not what the reader thinks.
* A rating of 0 or blank is "unrated"; a birth year of 0 or blank is unknown; a K of 0 or
  blank is none. A K is kept only beside a rating, and only from 1 to :data:`MAX_K` (B.02
  8.3.3's largest; older lists have 15, 25 and 30): anything else makes the line
  malformed. Only the year of birth is published, and only the year is kept.
* Titles: the player's title (``Tit``), else the woman's title (``WTit``); FIDE's old one- and
  two-letter codes (``g``, ``wm``, …) are read as the titles they stand for; other values
  (arbiter, trainer and FIDE Online Arena titles) are not playing titles and are left out.
* A name that starts like a spreadsheet formula (``=``, ``+``, ``-``, ``@``) or holds control
  characters is malformed: no real list has one, and no such text reaches an export this way.
"""

from __future__ import annotations

import csv
import datetime as dt
import re
import zipfile
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from itertools import chain
from typing import IO, NoReturn
from xml.parsers import expat

STANDARD, RAPID, BLITZ = "standard", "rapid", "blitz"
RATINGS = (STANDARD, RAPID, BLITZ)

MAX_UNPACKED_BYTES = 2 * 1024**3  # FIDE's XML list unpacked: 856 MB (Oct 2026)
MAX_PLAYERS = 3_000_000  # FIDE's combined list: 1.93 million lines (Oct 2026)
MAX_LINE_BYTES = 1024  # a FIDE TXT line has 136 to 163 characters
MAX_RATING = 4000
MAX_K = 40  # B.02 8.3.3: K is 40, 20 or 10 (older lists: 30, 25, 15)
# Issue 29: a 2.6 MB zip of 3 million one-field lines held a worker 48.7 s before the player
# cap refused it, and a small zip of blank lines or of one endless line would have held it
# longer. So the bytes are counted before anything is parsed (:func:`_survey`, at the speed of
# zlib and ``bytes.count``), and these refuse the file at once:
HEADER_LINES = 1  # a list's header line (XML: its <playerslist>); blank lines count as players
MAX_PACKING = 100  # unpacked ÷ zipped: FIDE's TXT zips pack 8 times, its XML 20 times
PACKING_FLOOR = 1024**2  # a zip unpacking to no more than this is never refused for its packing
EARLY_PROBLEMS = 1000  # more bad lines than this, and more than a tenth of those read: refused
PROBLEMS_KEPT = 50  # the problems a report lists; the rest are counted
CHUNK_BYTES = 1 << 16

TXT, XML, CSV = "fide-txt", "fide-xml", "csv"
LIST_SUFFIXES = (".txt", ".xml", ".csv", ".tsv")

CSV_FIELDS = (
    "name",
    "surname",
    "first_name",
    "fide_id",
    "national_id",
    "federation",
    "sex",
    "title",
    "birth_year",
    *RATINGS,
)
CSV_DELIMITERS = {"comma": ",", "semicolon": ";", "tab": "\t", "pipe": "|"}  # by their names
MAX_CSV_COLUMNS = 200

_TITLES = {
    **{t: t for t in ("GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM")},
    **{"G": "GM", "M": "IM", "F": "FM", "C": "CM"},
    **{"WG": "WGM", "WM": "WIM", "WF": "WFM", "WC": "WCM"},
}
_SEXES = {"M": "m", "F": "w", "W": "w", "MALE": "m", "FEMALE": "w"}
_MONTHS = ("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC")
_MONTH_LABEL = re.compile(rf"({'|'.join(_MONTHS)})(\d{{2}})", re.IGNORECASE)
_FEDERATION = re.compile(r"[A-Z]{3}")
_FORMULA_START = ("=", "+", "-", "@")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_YEAR = re.compile(r"(?<!\d)(\d{4})(?!\d)")


class ListError(ValueError):
    """A file refused as a whole; the message names the line and what is wrong."""


class _Skip(Exception):
    """One line or record that cannot be read: skipped and reported."""


@dataclass(frozen=True, slots=True)
class ListedPlayer:
    """One player of a rating list, as the registration form takes them."""

    name: str
    fide_id: str = ""
    national_id: str = ""
    federation: str = ""
    sex: str = ""  # "m", "w" or unknown
    title: str = ""
    birth_year: int | None = None
    standard: int | None = None
    rapid: int | None = None
    blitz: int | None = None
    inactive: bool = False
    # Each rating's K as the list publishes it (B.02 8.3.3); None beside no rating.
    standard_k: int | None = None
    rapid_k: int | None = None
    blitz_k: int | None = None


def k_field(kind: str) -> str:
    """The field of a rating's K: ``standard_k`` for ``standard``."""
    return f"{kind}_k"


@dataclass(frozen=True, slots=True)
class Problem:
    line: int
    reason: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.reason}"


@dataclass
class Tally:
    """What reading a list found, filled in while its players stream past."""

    layout: str = ""
    lines: int = 0  # player records read, good or bad
    players: int = 0
    problems: int = 0
    first_problems: list[Problem] = field(default_factory=list)
    ratings: set[str] = field(default_factory=set)  # the rating columns the list has
    period: dt.date | None = None  # the month a FIDE single list names in its header
    columns: tuple[str, ...] = ()  # the header's column names (CSV preview)

    def skip(self, line: int, reason: str) -> None:
        self.problems += 1
        if len(self.first_problems) < PROBLEMS_KEPT:
            self.first_problems.append(Problem(line, reason))
        if self.problems > max(EARLY_PROBLEMS, self.lines // 10):
            raise ListError(
                f"{self.problems:,} of the first {self.lines:,} lines could not be read "
                f"({self.examples()}): is this the right file, and the right column mapping?"
            )

    def examples(self) -> str:
        return "; ".join(str(problem) for problem in self.first_problems[:3])

    def count(self) -> None:
        self.lines += 1
        if self.lines > MAX_PLAYERS:
            raise ListError(f"more than {MAX_PLAYERS:,} players: refused")


def too_many_problems(tally: Tally) -> bool:
    """More bad lines than a real list has: the file is not laid out as the reader thinks.
    (Checked at the end; a file is refused as it is read once more than :data:`EARLY_PROBLEMS`
    and more than a tenth of its lines so far are bad: see :meth:`Tally.skip`.)"""
    return tally.problems > max(100, tally.lines // 100)


@dataclass(frozen=True)
class ListFile:
    """An opened list: its players, read lazily, and the tally they fill in."""

    players: Iterator[ListedPlayer]
    tally: Tally


def read_list(
    stream: IO[bytes],
    *,
    filename: str = "",
    kind: str | None = None,
    mapping: Mapping[str, str] | None = None,
    delimiter: str | None = None,
) -> ListFile:
    """Open a list file (zipped or not): FIDE TXT or XML, or, given a column ``mapping``, a
    CSV list. ``kind`` says which rating a single FIDE list holds (a CSV mapping names each);
    without it, the file name decides (``rapid…``, ``blitz…``), else standard."""
    _survey(stream, filename)
    chunks, member = _unpacked_chunks(stream, filename)
    kind = kind or _kind_from_name(member.filename if member is not None else filename)
    if kind not in RATINGS:
        raise ListError(f"unknown rating kind {kind!r} (standard, rapid or blitz)")
    head, chunks = _head(chunks)
    tally = Tally()
    if mapping is not None:
        tally.layout = CSV
        players = _csv_players(_lines(chunks), mapping, delimiter, tally)
    elif head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<"):
        tally.layout = XML
        players = _xml_players(chunks, kind, tally)
    elif _looks_like_fide_txt(head):
        tally.layout = TXT
        players = _txt_players(_lines(chunks), kind, tally)
    else:
        raise ListError(
            "line 1: not a FIDE rating list (TXT or XML); for a national list give the CSV "
            "column mapping"
        )
    return ListFile(players=_started(players), tally=tally)


def _started(players: Iterator[ListedPlayer]) -> Iterator[ListedPlayer]:
    """Read the header now (so that a wrong file is refused before anything is written)."""
    first = next(players, None)
    return iter(()) if first is None else chain([first], players)


def _kind_from_name(name: str) -> str:
    lowered = name.lower()
    return next((kind for kind in (RAPID, BLITZ) if kind in lowered), STANDARD)


# Bytes: the zip, the byte cap, lines ------------------------------------------------------


def _survey(stream: IO[bytes], filename: str) -> None:
    """Refuse, before a line is parsed or a row written, a file whose bytes are more than a list
    can be: past :data:`MAX_UNPACKED_BYTES`, a zip unpacking to more than :data:`MAX_PACKING`
    times its size, more lines than :data:`MAX_PLAYERS` players and a header (``<player``
    elements, for XML). One pass at C speed: 0.02 s of CPU for 3 million one-letter lines, 0.4
    s for a 1.2-million-player FIDE TXT zip; then the stream is read again from its start."""
    chunks, member = _unpacked_chunks(stream, filename)
    packed = member.compress_size if member is not None else None
    first = next(chunks, b"")
    xml = first.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<")
    mark, carry = (b"<player", 6) if xml else (b"\n", 0)
    found, total, tail = 0, 0, b""
    for chunk in chain([first], chunks):
        total += len(chunk)
        if packed is not None and total > max(PACKING_FLOOR, MAX_PACKING * packed):
            raise ListError(
                f"the zip file unpacks to more than {MAX_PACKING} times its size (FIDE's lists "
                "pack 8 to 20 times): not a rating list"
            )
        found += (tail + chunk).count(mark)
        tail = chunk[-carry:] if carry else b""
        if found > MAX_PLAYERS + HEADER_LINES:  # the header line, or <playerslist>
            what = "<player> elements" if xml else "lines after the header"
            raise ListError(
                f"more than {MAX_PLAYERS:,} players: refused (over {found - HEADER_LINES:,} {what})"
            )
    stream.seek(0)


def _unpacked_chunks(
    stream: IO[bytes], filename: str
) -> tuple[Iterator[bytes], zipfile.ZipInfo | None]:
    """The list's bytes in chunks, from inside the zip if it is one (with the zip's member)."""
    start = stream.read(4)
    stream.seek(0)
    if start != b"PK\x03\x04":
        return _capped(stream), None
    try:
        archive = zipfile.ZipFile(stream)
        member = _list_member(archive)
        source = archive.open(member)
    except (zipfile.BadZipFile, RuntimeError, NotImplementedError, OSError) as exc:
        raise ListError(f"{filename or 'the file'} is not a readable zip file ({exc})") from exc
    return _capped(source), member


def _list_member(archive: zipfile.ZipFile) -> zipfile.ZipInfo:
    lists = [
        info
        for info in archive.infolist()
        if not info.is_dir() and info.filename.lower().endswith(LIST_SUFFIXES)
    ]
    if len(lists) != 1:
        names = ", ".join(info.filename for info in archive.infolist()[:5]) or "nothing"
        raise ListError(f"the zip file should hold one list (.txt, .xml or .csv); it holds {names}")
    if lists[0].file_size > MAX_UNPACKED_BYTES:
        raise ListError(_too_big(lists[0].file_size))
    return lists[0]


def _too_big(size: int) -> str:
    return f"the list unpacks to more than {MAX_UNPACKED_BYTES // 1024**2:,} MB ({size:,} bytes)"


def _capped(source: IO[bytes]) -> Iterator[bytes]:
    """Chunks of ``source``; reading past :data:`MAX_UNPACKED_BYTES` refuses the file (a zip
    may lie about its sizes), and so does a zip damaged past its first bytes."""
    total = 0
    while chunk := _read(source):
        total += len(chunk)
        if total > MAX_UNPACKED_BYTES:
            raise ListError(_too_big(total))
        yield chunk


def _read(source: IO[bytes]) -> bytes:
    try:
        return source.read(CHUNK_BYTES)
    except (zipfile.BadZipFile, zlib.error, EOFError) as exc:
        raise ListError(f"the zip file is damaged ({exc})") from exc


def _head(chunks: Iterator[bytes]) -> tuple[bytes, Iterator[bytes]]:
    """The first bytes (to tell the layout), and the chunks with them put back."""
    first = next(chunks, b"")
    return first[:4096], chain([first], chunks)


def _lines(chunks: Iterable[bytes]) -> Iterator[tuple[int, bytes | None]]:
    """(line number, the line without its ending) for every line; ``None`` instead of the
    bytes of a line longer than :data:`MAX_LINE_BYTES`, whose bytes are dropped as they come."""
    number, rest, overlong = 0, b"", False
    for chunk in chunks:
        pieces = (rest + chunk).split(b"\n")
        rest = pieces.pop()
        for piece in pieces:
            number += 1
            too_long = overlong or len(piece) > MAX_LINE_BYTES
            yield number, None if too_long else piece.rstrip(b"\r")
            overlong = False
        if len(rest) > MAX_LINE_BYTES:
            rest, overlong = b"", True
    if rest or overlong:
        yield number + 1, None if overlong else rest.rstrip(b"\r")


def _text(raw: bytes) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("cp1252", errors="replace")  # older lists are Windows-1252


# One player's fields, whatever the layout ---------------------------------------------------


def _player(values: Mapping[str, str], rating_of: Mapping[str, str]) -> ListedPlayer:
    """A player from text fields (``name``, ``fide_id``, …) and the fields that hold each
    rating (``{"standard": "SRtng"}``); :class:`_Skip` names what is wrong."""
    get = values.get
    flag = get("flag", "").strip().lower()
    return ListedPlayer(
        name=_name(get("name", ""), get("surname", ""), get("first_name", "")),
        fide_id=_identifier(get("fide_id", ""), "FIDE id"),
        national_id=_identifier(get("national_id", ""), "national id", digits=False),
        federation=_federation(get("federation", "")),
        sex=_sex(get("sex", ""), flag),
        title=_title(get("title", ""), get("woman_title", "")),
        birth_year=_birth_year(get("birth_year", "")),
        inactive="i" in flag,
        **_ratings(values, rating_of),
    )


def _ratings(values: Mapping[str, str], rating_of: Mapping[str, str]) -> dict[str, int | None]:
    """Each rating and its K: a rating held in the field ``rating`` has its K in ``k`` (FIDE's
    XML), any other (``standard``, ``rapid``) in ``standard_k``, ``rapid_k``."""
    found: dict[str, int | None] = {}
    for kind, column in rating_of.items():
        rating = _rating(values.get(column, ""), kind)
        k = _number(
            values.get("k" if column == "rating" else k_field(column), ""), f"{kind} K", MAX_K
        )
        found[kind] = rating
        found[k_field(kind)] = k if rating is not None else None
    return found


def _name(name: str, surname: str, first_name: str) -> str:
    surname, first_name = surname.strip(), first_name.strip()
    name = " ".join(name.split()) or ", ".join(part for part in (surname, first_name) if part)
    if not name:
        raise _Skip("no name")
    if len(name) > 200:
        raise _Skip(f"a name of {len(name)} characters (at most 200)")
    if name.startswith(_FORMULA_START) or _CONTROL.search(name):
        raise _Skip(f"{name[:40]!r} is not a name")
    return name


def _identifier(text: str, what: str, *, digits: bool = True) -> str:
    value = text.strip()
    if len(value) > 15 or (digits and value and not _digits(value)):
        raise _Skip(f"{what} {value[:20]!r} is not a number of at most 15 digits")
    if not digits and _CONTROL.search(value):
        raise _Skip(f"{what} {value[:20]!r} holds control characters")
    return "" if value.strip("0") == "" else value


def _federation(text: str) -> str:
    value = text.strip().upper()
    if value and not _FEDERATION.fullmatch(value):
        raise _Skip(f"federation {text.strip()[:10]!r} is not three letters")
    return value


def _sex(text: str, flag: str) -> str:
    value = text.strip().upper()
    if not value:
        return "w" if "w" in flag else ""
    if value not in _SEXES:
        raise _Skip(f"sex {text.strip()[:10]!r} is neither M nor F")
    return _SEXES[value]


def _title(title: str, woman_title: str) -> str:
    for value in (title.strip().upper(), woman_title.strip().upper()):
        if value in _TITLES:
            return _TITLES[value]
    return ""


def _digits(value: str) -> bool:
    return value.isascii() and value.isdigit()  # not "²", which str.isdigit() also accepts


def _number(text: str, what: str, largest: int) -> int | None:
    value = text.strip()
    if not value:
        return None
    if not _digits(value) or len(value) > len(str(largest)) or int(value) > largest:
        raise _Skip(f"{what} {value[:20]!r} is not a number from 0 to {largest}")
    return int(value) or None


def _rating(text: str, kind: str) -> int | None:
    return _number(text, f"{kind} rating", MAX_RATING)


def _birth_year(text: str) -> int | None:
    value = text.strip()
    if value and not _digits(value):
        found = _YEAR.search(value)  # a national list's birth date: its year
        if found is None:
            raise _Skip(f"birth year {value[:20]!r} is not a year")
        value = found.group(1)
    year = _number(value, "birth year", 9999)
    if year is not None and not 1850 <= year <= 2100:
        raise _Skip(f"birth year {year} is not a year of birth")
    return year


def _each(
    records: Iterable[tuple[int, Mapping[str, str] | str]],
    rating_of: Callable[[Mapping[str, str]], Mapping[str, str]],
    tally: Tally,
) -> Iterator[ListedPlayer]:
    """Players from (line, fields) records; a record that is a string is a problem already."""
    for line, record in records:
        tally.count()
        if isinstance(record, str):
            tally.skip(line, record)
            continue
        try:
            player = _player(record, rating_of(record))
        except _Skip as problem:
            tally.skip(line, str(problem))
            continue
        tally.players += 1
        yield player


# FIDE TXT ------------------------------------------------------------------------------------

_TXT_FIELDS = {
    "ID_NUMBER": "fide_id",
    "ID": "fide_id",
    "NAME": "name",
    "FED": "federation",
    "SEX": "sex",
    "TIT": "title",
    "WTIT": "woman_title",
    "OTIT": "other_titles",
    "SRTNG": STANDARD,
    "RRTNG": RAPID,
    "BRTNG": BLITZ,
    "SK": k_field(STANDARD),
    "RK": k_field(RAPID),
    "BK": k_field(BLITZ),
    "B-DAY": "birth_year",
    "BDAY": "birth_year",
    "BORN": "birth_year",
    "FLAG": "flag",
}
_SINGLE_RATING_LABELS = ("RTNG", "RATING", "ELO")


@dataclass(frozen=True)
class _Columns:
    """Where each field of a TXT list is: (start, end), from the header's labels."""

    spans: dict[str, tuple[int, int]]
    width: int
    overflow_at: int | None  # where the other-titles column ends (its text may overflow)


def _looks_like_fide_txt(head: bytes) -> bool:
    first = head.removeprefix(b"\xef\xbb\xbf").split(b"\n", 1)[0].upper()
    return first.startswith(b"ID NUMBER") or (
        first.startswith(b"ID") and b"NAME" in first and b"FED" in first
    )


def _txt_columns(header: str, kind: str, tally: Tally) -> _Columns:
    """Each field's span, from the header's labels (a column runs from its label to the next)."""
    labels = [
        (match.start(), match.group())
        for match in re.finditer(r"\S+", header.replace("ID Number", "ID_Number"))
    ]
    ends = [start for start, _ in labels[1:]] + [MAX_LINE_BYTES]
    spans: dict[str, tuple[int, int]] = {}
    for (start, label), end in zip(labels, ends, strict=True):
        key = _txt_field(label, kind, tally)
        if key is not None and key not in spans:
            spans[key] = (start, end)
    _txt_columns_check(spans, header)
    tally.ratings = set(RATINGS) & set(spans)
    tally.columns = tuple(label for _, label in labels)
    overflow = spans["other_titles"][1] if "other_titles" in spans else None
    return _Columns(spans=spans, width=len(header), overflow_at=overflow)


def _txt_field(label: str, kind: str, tally: Tally) -> str | None:
    """The field a header label names; a single list's rating column is headed by its month
    (``NOV26``, which dates the list) or a plain label, and its ``K`` is that rating's K."""
    key = _TXT_FIELDS.get(label.upper())
    if key is not None:
        return key
    if label.upper() == "K":
        return k_field(kind)
    month = _MONTH_LABEL.fullmatch(label)
    if month:
        tally.period = _period(month)
        return kind
    return kind if label.upper() in _SINGLE_RATING_LABELS else None


def _txt_columns_check(spans: Mapping[str, tuple[int, int]], header: str) -> None:
    missing = [what for what in ("fide_id", "name") if what not in spans]
    if missing or not set(RATINGS) & set(spans):
        absent = ", ".join(missing) or "no rating"
        raise ListError(f"line 1: the header names no column for {absent}: {header[:80]!r}")


def _period(month: re.Match[str]) -> dt.date:
    return dt.date(2000 + int(month.group(2)), _MONTHS.index(month.group(1).upper()) + 1, 1)


def _txt_fields(line: str, columns: _Columns) -> dict[str, str]:
    """The line's fields; a line longer than the header whose other-titles text runs to the
    end of its column has the columns after it shifted by the overflow."""
    shift = len(line) - columns.width
    overflowing = (
        0 < shift < 16
        and columns.overflow_at is not None
        and line[columns.overflow_at - 1 : columns.overflow_at].strip() != ""
    )
    fields = {}
    for key, (start, end) in columns.spans.items():
        if overflowing and columns.overflow_at is not None and start >= columns.overflow_at:
            start, end = start + shift, end + shift
        fields[key] = line[start:end]
    return fields


def _txt_records(
    lines: Iterator[tuple[int, bytes | None]], kind: str, tally: Tally
) -> Iterator[tuple[int, Mapping[str, str] | str]]:
    _, header = next(lines, (1, b""))
    if header is None:
        raise ListError(f"line 1: the header is longer than {MAX_LINE_BYTES} bytes")
    columns = _txt_columns(_text(header).lstrip("\ufeff"), kind, tally)
    for number, raw in lines:
        if raw is None:
            yield number, f"longer than {MAX_LINE_BYTES} bytes"
        elif raw.strip():
            yield number, _txt_fields(_text(raw), columns)


def _txt_players(
    lines: Iterator[tuple[int, bytes | None]], kind: str, tally: Tally
) -> Iterator[ListedPlayer]:
    records = _txt_records(lines, kind, tally)
    first = next(records, None)  # reads the header: a wrong one is refused here
    if first is None:
        return
    rating_of = {kind: kind for kind in tally.ratings}
    yield from _each(chain([first], records), lambda _: rating_of, tally)


# FIDE XML ------------------------------------------------------------------------------------

_XML_FIELDS = {
    "fideid": "fide_id",
    "name": "name",
    "country": "federation",
    "sex": "sex",
    "title": "title",
    "w_title": "woman_title",
    "rating": "rating",
    "k": "k",
    "rapid_rating": RAPID,
    "rapid_k": k_field(RAPID),
    "blitz_rating": BLITZ,
    "blitz_k": k_field(BLITZ),
    "birthday": "birth_year",
    "flag": "flag",
}


class _XmlPlayers:
    """expat handlers that collect each ``<player>``'s fields; the finished records wait in
    ``done`` until the reader takes them after each chunk."""

    def __init__(self, parser: expat.XMLParserType) -> None:
        self.parser = parser
        self.depth = 0
        self.fields: dict[str, str] = {}
        self.text: list[str] = []
        self.size = 0
        self.line = 0
        self.done: list[tuple[int, Mapping[str, str] | str]] = []

    def start(self, tag: str, attributes: object) -> None:
        self.depth += 1
        if self.depth == 1 and tag != "playerslist":
            raise ListError(f"line 1: the list's root is <{tag[:20]}>, not <playerslist>")
        if self.depth > 3:
            raise ListError(f"line {self.parser.CurrentLineNumber}: <{tag[:20]}> nests too deep")
        if self.depth == 2:
            self.fields, self.line = {}, self.parser.CurrentLineNumber
        self.text, self.size = [], 0

    def characters(self, data: str) -> None:
        self.size += len(data)
        if self.size <= MAX_LINE_BYTES:
            self.text.append(data)

    def end(self, tag: str) -> None:
        if self.depth == 3 and tag in _XML_FIELDS:
            if self.size > MAX_LINE_BYTES:
                self.fields["_problem"] = f"<{tag}> is longer than {MAX_LINE_BYTES} characters"
            self.fields[_XML_FIELDS[tag]] = "".join(self.text)
        elif self.depth == 2 and tag == "player":
            self.done.append((self.line, self.fields.get("_problem", self.fields)))
        self.depth -= 1

    def refuse(self, *_: object) -> NoReturn:
        raise ListError(
            f"line {self.parser.CurrentLineNumber}: DOCTYPE and entities are refused in a list"
        )


def _xml_records(chunks: Iterator[bytes]) -> Iterator[tuple[int, Mapping[str, str] | str]]:
    parser = expat.ParserCreate()
    players = _XmlPlayers(parser)
    parser.StartElementHandler = players.start
    parser.EndElementHandler = players.end
    parser.CharacterDataHandler = players.characters
    parser.StartDoctypeDeclHandler = players.refuse
    parser.EntityDeclHandler = players.refuse
    parser.ExternalEntityRefHandler = players.refuse
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    try:
        for chunk in chain(chunks, [b""]):
            parser.Parse(chunk, not chunk)
            yield from players.done
            players.done.clear()
    except expat.ExpatError as exc:
        raise ListError(
            f"line {exc.lineno}: not well-formed XML ({expat.errors.messages[exc.code]})"
        ) from exc


def _xml_rating_of(kind: str, tally: Tally) -> Callable[[Mapping[str, str]], Mapping[str, str]]:
    """A combined list's ``<rating>`` is the standard rating; a single list's is its own."""

    def rating_of(record: Mapping[str, str]) -> Mapping[str, str]:
        combined = RAPID in record or BLITZ in record
        columns = {STANDARD if combined else kind: "rating"} if "rating" in record else {}
        columns.update({k: k for k in (RAPID, BLITZ) if k in record})
        tally.ratings.update(columns)
        return columns

    return rating_of


def _xml_players(chunks: Iterator[bytes], kind: str, tally: Tally) -> Iterator[ListedPlayer]:
    yield from _each(_xml_records(chunks), _xml_rating_of(kind, tally), tally)


# National lists: CSV with a column mapping -----------------------------------------------------


def _csv_row(line: str, delimiter: str) -> list[str]:
    return next(csv.reader([line], delimiter=delimiter), [])


def _csv_delimiter(header: str, delimiter: str | None) -> str:
    if delimiter:
        if delimiter not in CSV_DELIMITERS.values():
            raise ListError(f"delimiter {delimiter!r}: use one of , ; | or a tab")
        return delimiter
    return max(CSV_DELIMITERS.values(), key=header.count)


def _csv_positions(columns: list[str], mapping: Mapping[str, str]) -> dict[str, int]:
    """Each mapped field's column: by its header name (any case) or its number from 1."""
    unknown = sorted(set(mapping) - set(CSV_FIELDS))
    if unknown:
        raise ListError(f"unknown field {unknown[0]!r} in the mapping ({', '.join(CSV_FIELDS)})")
    if not (mapping.get("name") or mapping.get("surname")):
        raise ListError("the mapping needs the column of the name (or of the surname)")
    by_name = {name.strip().lower(): index for index, name in reversed(list(enumerate(columns)))}
    positions = {}
    for key, column in mapping.items():
        wanted = column.strip()
        if not wanted:
            continue
        if _digits(wanted) and 1 <= int(wanted) <= len(columns):
            positions[key] = int(wanted) - 1
        elif wanted.lower() in by_name:
            positions[key] = by_name[wanted.lower()]
        else:
            shown = ", ".join(columns[:12])
            raise ListError(f"line 1: no column {wanted[:40]!r} (the columns are: {shown})")
    return positions


def _csv_records(
    lines: Iterator[tuple[int, bytes | None]],
    mapping: Mapping[str, str],
    delimiter: str | None,
    tally: Tally,
) -> Iterator[tuple[int, Mapping[str, str] | str]]:
    _, header = next(lines, (1, b""))
    if header is None:
        raise ListError(f"line 1: the header is longer than {MAX_LINE_BYTES} bytes")
    if not header.strip():
        raise ListError("line 1: the header line with the column names is missing")
    text = _text(header).lstrip("\ufeff")
    sep = _csv_delimiter(text, delimiter)
    columns = _csv_row(text, sep)
    if len(columns) > MAX_CSV_COLUMNS:
        raise ListError(f"line 1: {len(columns)} columns (at most {MAX_CSV_COLUMNS})")
    tally.columns = tuple(columns)
    positions = _csv_positions(columns, mapping)
    tally.ratings = set(RATINGS) & set(positions)
    for number, raw in lines:
        if raw is None:
            yield number, f"longer than {MAX_LINE_BYTES} bytes"
            continue
        if not raw.strip():
            continue
        cells = _csv_row(_text(raw), sep)
        yield number, {key: cells[i] if i < len(cells) else "" for key, i in positions.items()}


def _csv_players(
    lines: Iterator[tuple[int, bytes | None]],
    mapping: Mapping[str, str],
    delimiter: str | None,
    tally: Tally,
) -> Iterator[ListedPlayer]:
    records = _csv_records(lines, mapping, delimiter, tally)
    first = next(records, None)
    if first is None:
        return
    rating_of = {kind: kind for kind in tally.ratings}
    yield from _each(chain([first], records), lambda _: rating_of, tally)
