"""Pasted lists as spreadsheets paste them (issue 29), through the players page: tabs, ``;``
and ``,`` separated columns, a one-column list of ``Surname, First`` names without quotes,
every bad line named at once, and nothing registered until every line is right."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.conftest import make_event


@pytest.fixture
def event(director):  # type: ignore[no-untyped-def]
    return make_event(director, players=0)


def _paste(client, event, text: str):  # type: ignore[no-untyped-def]
    url = reverse("events:players", args=[event.slug])
    return client.post(url, {"paste": "1", "players_csv": text}, follow=True)


def _registered(event) -> list[tuple[str, str, int]]:  # type: ignore[no-untyped-def]
    return list(event.players.order_by("start_no").values_list("name", "federation", "rating"))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(
            "Carlsen, Magnus\nØye, Åsmund\nVik Ola\n",
            [("Carlsen, Magnus", "", 0), ("Øye, Åsmund", "", 0), ("Vik Ola", "", 0)],
            id="one-column-names-with-commas",
        ),
        pytest.param(
            "Vik;NOR;1700\nBerg, Ola;SWE;1650\n",
            [("Vik", "NOR", 1700), ("Berg, Ola", "SWE", 1650)],
            id="semicolons",
        ),
        pytest.param(
            "Vik\tNOR\t1700\nBerg, Ola\tswe\t1650\n",
            [("Vik", "NOR", 1700), ("Berg, Ola", "SWE", 1650)],
            id="tabs-from-a-spreadsheet",
        ),
        pytest.param(
            'Vik,NOR,1700\n"Berg, Ola",SWE,1650\n',
            [("Vik", "NOR", 1700), ("Berg, Ola", "SWE", 1650)],
            id="commas-with-quotes",
        ),
        pytest.param(
            "Vik, NOR\nBerg, SWE\n",
            [("Vik", "NOR", 0), ("Berg", "SWE", 0)],
            id="commas-name-and-federation",
        ),
    ],
)
def test_a_list_as_it_is_pasted(event, client_for, director, text, expected) -> None:  # type: ignore[no-untyped-def]
    page = _paste(client_for(director), event, text)
    assert page.status_code == 200
    assert _registered(event) == expected
    assert f"Added {len(expected)} players, 1–{len(expected)}." in page.content.decode()


def test_every_bad_line_is_named_and_nothing_registered(event, client_for, director) -> None:  # type: ignore[no-untyped-def]
    text = "Vik;NOR;1700\nBerg;SWE;many\nDahl;NOR;1600;1;2;3;4;5;6\n;NOR;1500\nLie;NORWAY;1500\n"
    page = _paste(client_for(director), event, text).content.decode()
    assert "Nothing was registered: correct these lines." in page
    assert "line 2: rating &#x27;many&#x27; is not a number" in page
    assert "line 3: 9 columns, expected at most 7" in page
    assert "line 4: the name is missing" in page
    assert "line 5: federation &#x27;NORWAY&#x27; is not a three-letter code" in page
    assert "line 1:" not in page
    assert _registered(event) == []


def test_the_bad_lines_named_are_bounded(event, client_for, director) -> None:  # type: ignore[no-untyped-def]
    text = "".join(f"P{i};NOR;x\n" for i in range(1, 201))
    page = _paste(client_for(director), event, text).content.decode()
    assert "line 50: rating" in page and "line 51: rating" not in page
    assert "and 150 more" in page
    assert _registered(event) == []
