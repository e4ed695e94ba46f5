"""Name keys: how a typed name meets a listed one (ratings/names.py; no database)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ratings.names import name_key, query_words


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("Carlsen, Magnus", " carlsen magnus"),
        ("CARLSEN,MAGNUS", " carlsen magnus"),
        ("Øye, Åsmund", " oye asmund"),
        ("Ðukić, Nikola", " dukic nikola"),
        ("Müller-Brandt, Jörg", " muller brandt jorg"),
        ("Łukaszewicz, Łucja", " lukaszewicz lucja"),
        ("Straße, Ærø", " strasse aero"),
        ("O'Connor,  Ana-María ", " o connor ana maria"),
        ("Nguyễn, Ngọc Trường Sơn", " nguyen ngoc truong son"),
        ("A C J John", " a c j john"),
        ("Иванов, Иван", " иванов иван"),  # other scripts are kept
        ("Ivanov_Ivan", " ivanov ivan"),
        ("", ""),
        ("—, …", ""),
    ],
)
def test_name_key(name: str, key: str) -> None:
    assert name_key(name) == key


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ("carlsen m", ["carlsen", "m"]),
        ("Carlsen, Magnus", ["carlsen", "magnus"]),
        ("  oye   åsmund ", ["oye", "asmund"]),
        ("a b c d e f g h", ["a", "b", "c", "d", "e", "f"]),  # at most six words
        (",,,", []),
    ],
)
def test_query_words(query: str, words: list[str]) -> None:
    assert query_words(query) == words


@given(st.text(max_size=60))
def test_a_key_is_its_own_key(name: str) -> None:
    """Folding twice changes nothing: what is stored and what is typed meet."""
    assert name_key(name_key(name)) == name_key(name)


@given(st.text(max_size=60))
def test_a_whole_name_typed_as_listed_begins_its_own_key(name: str) -> None:
    """A name typed as the list writes it finds itself by the names' starts (the first query),
    whatever its accents, case and punctuation."""
    words, key = query_words(name), name_key(name)
    assert key.startswith(" " + " ".join(words)) if words else key == ""
