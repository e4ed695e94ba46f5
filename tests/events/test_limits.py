"""The caps on every input (events/limits.py): the checks themselves, table-driven, no database.

How each cap reaches the user (the forms, the importers, the commands) is tested beside the
module that applies it: tests/events/test_imports.py, test_exchange.py, test_middleware.py.
"""

from __future__ import annotations

import json

import pytest

from events.errors import UserError
from events.limits import (
    MAX_JSON_DEPTH,
    MAX_PLAYER_ROUNDS,
    MAX_PLAYERS,
    MAX_ROUNDS,
    InputTooLarge,
    currency_check,
    event_size_check,
    federation_check,
    json_parse,
    json_shape,
    rating_check,
    size_check,
    whole_number,
)


@pytest.mark.parametrize(
    ("text", "depth"),
    [
        ("7", 0),
        ("{}", 1),
        ("[[]]", 2),
        ('[1, {"b": [2]}]', 3),
        ('"[[["', 0),  # brackets in a string do not count
        ('{"a": "]]]", "b": [[1]]}', 3),
        ('["\\"[[", [1]]', 2),  # an escaped quote does not end the string
        ('{"name": "\\\\", "x": [[[]]]}', 4),  # an escaped backslash does not escape the quote
        ("[" * 5000 + "]" * 5000, 5000),
    ],
)
def test_json_depth_counts_brackets_outside_strings(text: str, depth: int) -> None:
    assert json_shape(text).depth == depth


def test_json_depth_agrees_with_the_parser_on_valid_documents() -> None:
    def real_depth(value: object) -> int:
        if isinstance(value, dict):
            return 1 + max((real_depth(v) for v in value.values()), default=0)
        if isinstance(value, list):
            return 1 + max((real_depth(v) for v in value), default=0)
        return 0

    documents = [
        {"players": [{"name": "a[b{c", "x": [[1, [2]], {"y": "}"}]}], "z": '"'},
        [[["\\"]], {"deep": [[[[[[[]]]]]]]}],
    ]
    for document in documents:
        assert json_shape(json.dumps(document)).depth == real_depth(document)


def test_json_parse_accepts_the_deepest_allowed_and_refuses_one_more() -> None:
    assert json_parse("[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH) == _nested(MAX_JSON_DEPTH)
    with pytest.raises(InputTooLarge, match=f": nested 33 levels deep; at most {MAX_JSON_DEPTH}"):
        json_parse("[" * 33 + "]" * 33)


def test_json_parse_refuses_a_nesting_the_parser_cannot_survive_without_recursing() -> None:
    with pytest.raises(InputTooLarge, match=": nested 100000 levels deep"):
        json_parse("[" * 100_000 + "]" * 100_000)
    with pytest.raises(InputTooLarge, match=": nested 1001 levels"):  # unbalanced: never parsed
        json_parse('{"a": ' + "[" * 1000)


def test_json_parse_says_where_invalid_json_goes_wrong() -> None:
    with pytest.raises(
        UserError, match="the document: invalid JSON at line 2, column 11: Expecting value"
    ):
        json_parse('{"a":\n  1, "b": }', what="the document")


def test_json_parse_refuses_more_bytes_than_the_limit() -> None:
    with pytest.raises(InputTooLarge, match="at most"):
        json_parse('["' + "é" * 600 + '"]', limit=1000)  # 600 characters, 1,204 bytes
    assert json_parse('["' + "é" * 400 + '"]', limit=1000) == ["é" * 400]


@pytest.mark.parametrize(
    ("text", "items"),
    [
        ("7", 0),
        ("[1, 2, 3]", 3),  # an array and two commas: values - 1 + containers
        ('{"a": "x,y", "b": [1, 2]}', 4),  # the comma in the string does not count
        ("[" + ",".join(["{}"] * 1000) + "]", 1000 + 1 + 999),
    ],
)
def test_json_shape_counts_the_values_outside_strings(text: str, items: int) -> None:
    assert json_shape(text).items == items


def test_json_parse_refuses_more_values_than_the_cap_before_parsing_them() -> None:
    """10 MB of empty objects parse into 3.5 million dicts, 300 MB; the cap stops it first."""
    text = "[" + ",".join(["{}"] * 1_000_000) + "]"
    with pytest.raises(
        InputTooLarge, match="the document: more than 1,000,000 values \\(arrays, objects, items\\)"
    ):
        json_parse(text)
    assert len(json_parse(text, items=2_000_000)) == 1_000_000


def _nested(depth: int) -> object:
    value: object = []
    for _ in range(depth - 1):
        value = [value]
    return value


@pytest.mark.parametrize(
    ("text", "number"),
    [
        ("7", 7),
        ("0", 0),
        ("000123", 123),
        ("999999999", 999_999_999),
        ("1000000000", None),  # ten digits: no round, version or start number is that long
        ("9" * 5000, None),  # int() itself refuses past 4,300 digits, with an exception
        ("", None),
        ("²", None),  # str.isdigit() says yes, int() says no
        ("٣", None),  # an Arabic-Indic three: int() would take it, we do not
        ("-1", None),
        (" 7", None),
        ("7.0", None),
    ],
)
def test_whole_number_takes_short_ascii_digits_only(text: str, number: int | None) -> None:
    assert whole_number(text) == number


@pytest.mark.parametrize(
    ("given", "stored"), [("NOR", "NOR"), ("nor", "NOR"), (" ger ", "GER"), ("", "")]
)
def test_a_federation_is_a_three_letter_code(given: str, stored: str) -> None:
    assert federation_check(given, "player 1") == stored


# "aß" and "ﬀa" are no codes, though Python puts them in capitals as "ASS" and "FFA".
@pytest.mark.parametrize("given", ["NORWAY", "NO", "N0R", "<b>", "ÆØÅ", "aß", "ﬀa"])
def test_a_federation_is_never_cut_to_fit(given: str) -> None:
    with pytest.raises(UserError, match="not a three-letter code"):
        federation_check(given, "player 1")


@pytest.mark.parametrize(("given", "stored"), [("EUR", "EUR"), ("usd", "USD"), (" NOK", "NOK")])
def test_a_currency_is_an_iso_code(given: str, stored: str) -> None:
    assert currency_check(given) == stored


@pytest.mark.parametrize("given", ["EURO", "€", "<b>", "", "EU", "E1R", "uß"])
def test_a_currency_is_never_cut_to_fit_nor_left_empty(given: str) -> None:
    with pytest.raises(UserError, match="not a three-letter ISO code"):
        currency_check(given)


@pytest.mark.parametrize(
    ("players", "rounds", "message"),
    [
        (MAX_PLAYERS + 1, 1, "5,001 players; an event has at most 5,000"),
        (10, MAX_ROUNDS + 1, "rounds: 100; an event has 1 to 99 rounds"),
        (10, 0, "rounds: 0"),
        (5000, 13, "65,000 results; at most 60,000 \\(e.g. 4,615 players in 13 rounds\\)"),
    ],
)
def test_an_event_past_a_cap_is_refused_with_the_figure(
    players: int, rounds: int, message: str
) -> None:
    with pytest.raises(InputTooLarge, match=message):
        event_size_check(players=players, rounds=rounds)


@pytest.mark.parametrize(
    ("players", "rounds"), [(MAX_PLAYERS, 12), (3000, 20), (50, 98), (606, MAX_ROUNDS)]
)
def test_the_largest_real_events_fit(players: int, rounds: int) -> None:
    assert players * rounds <= MAX_PLAYER_ROUNDS
    event_size_check(players=players, rounds=rounds)


def test_ratings_and_sizes() -> None:
    assert rating_check(2882, "player 1") == 2882
    with pytest.raises(InputTooLarge, match="player 3: rating 1099511627776 is outside 0-4000"):
        rating_check(2**40, "player 3")
    size_check(10 * 2**20)
    with pytest.raises(InputTooLarge, match="the file is 10.0 MB; at most 10.0 MB is accepted"):
        size_check(10 * 2**20 + 1)
