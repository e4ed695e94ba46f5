"""Names as the type-ahead compares them. Pure: no Django.

A rating list spells a name the way its federation does ("Nepomniachtchi, Ian", "Øye, Åsmund",
"Ðukić, Nikola"); a director types "nepo", "oye asmund" or "dukic n". Both are reduced to the
same *name key*: lower case, accents and special Latin letters folded to plain ones (other
scripts' letters are kept, in lower case), everything that is not a letter or a digit a single
space, with one leading space so that "a word starting
with X" is the plain substring `` X`` (which PostgreSQL's trigram index answers; see
``ratings/selectors.py``). The key is computed once, at import, and stored beside the name.
"""

from __future__ import annotations

import re
import unicodedata

# Letters that NFKD does not split into a base letter and a combining mark.
_FOLDED = str.maketrans(
    {
        "ø": "o",
        "Ø": "o",
        "đ": "d",
        "Đ": "d",
        "ð": "d",
        "Ð": "d",
        "ł": "l",
        "Ł": "l",
        "ħ": "h",
        "Ħ": "h",
        "ı": "i",
        "ß": "ss",
        "æ": "ae",
        "Æ": "ae",
        "œ": "oe",
        "Œ": "oe",
        "þ": "th",
        "Þ": "th",
    }
)
_NOT_WORD = re.compile(r"[\W_]+")  # letters and digits of any script stay

MAX_QUERY_CHARS = 100
MAX_QUERY_WORDS = 6


def name_key(name: str) -> str:
    """`` carlsen magnus`` for "Carlsen, Magnus"; ``""`` for a name with no letter or digit."""
    if not name.isascii():  # FIDE's lists are ASCII: the million-line import skips this
        decomposed = unicodedata.normalize("NFKD", name.translate(_FOLDED))
        name = "".join(c for c in decomposed if not unicodedata.combining(c))
    words = _NOT_WORD.sub(" ", name.casefold()).split()
    return " " + " ".join(words) if words else ""


def query_words(query: str) -> list[str]:
    """The words of a search as typed ("Carlsen, M" → ``["carlsen", "m"]``), at most
    :data:`MAX_QUERY_WORDS`; the caller bounds the query's length first."""
    return name_key(query).split()[:MAX_QUERY_WORDS]
