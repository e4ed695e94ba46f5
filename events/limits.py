"""How much of everything the application accepts: the caps on every input, and the checks
that apply them. Pure: no Django.

One source of truth for the forms, the services, the importers and the commands, so that an
event one of them accepts is never refused by another (an imported event is always savable by
its own edit form, and an exported one always imports again). ``docs/reliability.md``
("Limits") gives each figure with the measurement behind it.

The figures come from real events. The largest opens have 2,000-3,000 players and 9-13
rounds; a Swiss rarely has more than 25 rounds, and a round robin of N players has N - 1
rounds, or 2(N - 1) for a double one. Work grows with the crosstable (players x rounds), which
is capped on its own: 3,000 players x 20 rounds, or a double round robin of 50 players, fit;
5,000 players x 99 rounds does not.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from events.errors import UserError

MAX_PLAYERS = 5_000
MAX_ROUNDS = 99
MAX_PLAYER_ROUNDS = 60_000  # players x rounds: the cells of the crosstable
MAX_PAIRED_PLAYERS = 1_000  # players the Dutch engine pairs in one round (time, memory)
MAX_START_NO = 9_999  # TRF16 writes a start number in four columns
MAX_RATING = 4_000
MAX_K = 40  # FIDE's largest K (B.02 8.3.3: 40, 20, 10; lists before 2014 had 30, 25, 15)
MAX_UPLOAD_BYTES = 10 * 2**20  # an uploaded or imported TRF or JSON document
MAX_FORM_BYTES = 2**20  # a submitted form's fields (pasted lists), Django's own limit
MAX_BACKUP_BYTES = 512 * 2**20  # an ``export_all`` backup: every event of an installation
MAX_JSON_DEPTH = 32  # the exchange format nests 6 deep, a backup 10
MAX_JSON_ITEMS = 1_000_000  # values in a document; the largest event's export has about 400,000
MAX_BACKUP_JSON_ITEMS = 50_000_000
MAX_DEPUTY_ARBITERS = 20  # TRF record 112, one line each; FIDE's largest opens list a dozen

_MB = 2**20


class InputTooLarge(UserError):
    """An input past one of the caps; nothing has been read further or written."""


def megabytes(size: int) -> str:
    return f"{size / _MB:.1f} MB"


def size_check(size: int, *, limit: int = MAX_UPLOAD_BYTES, what: str = "the file") -> None:
    if size > limit:
        raise InputTooLarge(f"{what} is {megabytes(size)}; at most {megabytes(limit)} is accepted")


def rounds_check(rounds: int, where: str = "rounds") -> int:
    if not 1 <= rounds <= MAX_ROUNDS:
        raise InputTooLarge(f"{where}: {rounds}; an event has 1 to {MAX_ROUNDS} rounds")
    return rounds


def event_size_check(*, players: int, rounds: int) -> None:
    """The players and rounds of one event, together (the crosstable's size)."""
    if players > MAX_PLAYERS:
        raise InputTooLarge(f"{players:,} players; an event has at most {MAX_PLAYERS:,}")
    rounds_check(rounds)
    if players * rounds > MAX_PLAYER_ROUNDS:
        raise InputTooLarge(
            f"{players:,} players x {rounds} rounds is {players * rounds:,} results; at most "
            f"{MAX_PLAYER_ROUNDS:,} (e.g. {MAX_PLAYER_ROUNDS // rounds:,} players in "
            f"{rounds} rounds)"
        )


def start_no_check(start_no: int, where: str) -> int:
    if not 1 <= start_no <= MAX_START_NO:
        raise InputTooLarge(f"{where}: start number {start_no} is outside 1-{MAX_START_NO}")
    return start_no


def rating_check(rating: int, where: str) -> int:
    if not 0 <= rating <= MAX_RATING:
        raise InputTooLarge(f"{where}: rating {rating} is outside 0-{MAX_RATING} (0: unrated)")
    return rating


def k_listed_check(k: int | None, where: str) -> int | None:
    """A rating list's K (None: none): a whole number from 1 to :data:`MAX_K`."""
    if k is not None and (isinstance(k, bool) or not 1 <= k <= MAX_K):
        raise InputTooLarge(f"{where}: K {k} is outside 1-{MAX_K} (B.02 8.3.3)")
    return k


# Characters that are not text on a line: the C0 and C1 controls (line feed, carriage return,
# tab, NUL, escape, ...), DEL, and Unicode's line and paragraph separators. Any of them in a
# name would break the line it is written on in a file other programs read by lines and
# columns (a TRF's records: issue 28, "A name with a line break becomes records of its own").
_NOT_ON_A_LINE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_CHARACTER_NAMES = {
    "\n": "a line break",
    "\r": "a carriage return",
    "\t": "a tab",
    "\x85": "a line break",
    "\u2028": "a line separator",
    "\u2029": "a paragraph separator",
}


def text_check(text: str, where: str) -> str:
    """One line of text (a name, a title, a city): refused with the character named when it
    holds a control character or a line separator, never cleaned silently. Without ``where``
    the message is a sentence of its own (a form field's error)."""
    found = _NOT_ON_A_LINE.search(text)
    if found is None:
        return text
    char = found.group()
    named = _CHARACTER_NAMES.get(char, "a control character")
    said = f"{named} (U+{ord(char):04X}) is not allowed: one line of printable characters"
    raise UserError(f"{where}: {said}" if where else f"{said[0].upper()}{said[1:]}.")


def on_one_line(text: str) -> str:
    """``text`` with every character :func:`text_check` refuses made a space: what a writer of
    lines and columns does with text stored before the check (issue 28)."""
    return _NOT_ON_A_LINE.sub(" ", text)


def whole_number(text: str, *, digits: int = 9) -> int | None:
    """A count, number or version typed or posted as text: ASCII digits, at most ``digits`` of
    them; None for anything else. ``str.isdigit`` also admits ``²`` and 5,000-digit numbers,
    which ``int`` then refuses with an exception (a server error where a form error belongs)."""
    if 0 < len(text) <= digits and text.isascii() and text.isdigit():
        return int(text)
    return None


_THREE_LETTERS = re.compile(r"[A-Za-z]{3}")  # ASCII letters: no IGNORECASE, which admits "K"


def three_letter_code(text: str) -> str | None:
    """``text`` as a code of three letters in capitals (``nor`` -> ``NOR``), "" when blank,
    None when it is no such code. The letters are checked before they are put in capitals:
    ``"aß".upper()`` is ``ASS``."""
    value = text.strip()
    if not value:
        return ""
    return value.upper() if _THREE_LETTERS.fullmatch(value) else None


def federation_check(federation: str, where: str) -> str:
    """A FIDE federation code (``NOR``) or nothing; never cut to fit (``NORWAY``)."""
    code = three_letter_code(federation)
    if code is None:
        raise UserError(f"{where}: federation {federation!r} is not a three-letter code (NOR)")
    return code


def currency_check(currency: str) -> str:
    """An ISO 4217 code of three letters (``EUR``); never cut to fit (``EURO``)."""
    code = three_letter_code(currency)
    if not code:
        raise UserError(f"currency {currency!r} is not a three-letter ISO code (EUR, USD)")
    return code


# A JSON string token (JSON's own escapes), or a run of text without a bracket, comma or quote.
_STRINGS_AND_FILLER = re.compile(r'"(?:[^"\\]|\\.)*"|[^"\[\]{},]+', re.DOTALL)


@dataclass(frozen=True, slots=True)
class JsonShape:
    depth: int  # how deep arrays and objects nest
    items: int  # arrays, objects and the commas between values: at least the values - 1


def json_shape(text: str) -> JsonShape:
    """How deep the arrays and objects of ``text`` nest and about how many values it holds,
    without parsing it: strings are cut out first (a bracket or comma in a name does not
    count), then the brackets and commas are counted. Linear, and it cannot recurse, which the
    parser does once per level."""
    marks = _STRINGS_AND_FILLER.sub("", text)
    commas = marks.count(",")
    depth = deepest = containers = 0
    for char in marks.replace(",", ""):
        if char in "[{":
            depth += 1
            containers += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return JsonShape(deepest, containers + commas)


def json_parse(
    text: str,
    *,
    limit: int = MAX_UPLOAD_BYTES,
    items: int = MAX_JSON_ITEMS,
    what: str = "the document",
) -> Any:
    """``json.loads`` for input from outside: at most ``limit`` bytes, ``MAX_JSON_DEPTH``
    levels and ``items`` values (the parsed values of 10 MB can take 300 MB of memory), and a
    one-line reason instead of an exception for anything else."""
    if len(text) > limit // 4:  # else it cannot be past the limit, in any encoding
        size_check(len(text.encode("utf-8", "surrogatepass")), limit=limit, what=what)
    shape = json_shape(text)
    if shape.depth > MAX_JSON_DEPTH:
        raise InputTooLarge(f"{what}: nested {shape.depth} levels deep; at most {MAX_JSON_DEPTH}")
    if shape.items > items:
        raise InputTooLarge(f"{what}: more than {items:,} values (arrays, objects, items)")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise UserError(
            f"{what}: invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
        ) from exc
    except RecursionError as exc:  # the depth count is the guard; this is its backstop
        raise InputTooLarge(f"{what}: nested too deep") from exc
