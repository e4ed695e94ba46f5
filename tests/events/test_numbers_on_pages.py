"""Numbers in one form on every page (issue 29): a draw reads ``½-½`` (never ``1/2-1/2``, the
TRF's and the exchange format's code, which files written for other programs keep), half points
``1½`` (never ``1.5``), and what a person reads of the demo events' pages as a director and as
a player follows it. Attribute values (a button's ``value="1/2-1/2"``) are not read."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client

from events.models import Event, Round
from playerpage.models import PlayerLink

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker) -> Iterator[Client]:  # type: ignore[no-untyped-def]
    with django_db_blocker.unblock():
        call_command("load_demo", stdout=io.StringIO())
        client = Client()
        client.force_login(get_user_model().objects.get(username="director"))
        yield client
        call_command("flush", interactive=False, verbosity=0)


def _text(html: str) -> str:
    html = re.sub(r"<(script|style)\b.*?</\1>", "", html, flags=re.S)
    return re.sub(r"<[^>]*>", " ", html)


def _pages(slug: str, rounds: list[int]) -> list[str]:
    pages = [f"/e/{slug}/", f"/e/{slug}/standings/", f"/e/{slug}/crosstable/"]
    for n in rounds:
        pages += [f"/e/{slug}/rounds/{n}/", f"/e/{slug}/rounds/{n}/results/"]
        pages += [f"/e/{slug}/rounds/{n}/print/"]
    return pages


def test_a_draw_reads_one_way_on_every_page(demo: Client, django_db_blocker: Any) -> None:
    with django_db_blocker.unblock():
        events = list(Event.objects.exclude(system__startswith="team").values_list("slug", "pk"))
        rounds = {
            pk: list(Round.objects.filter(event_id=pk).values_list("number", flat=True))
            for _, pk in events
        }
        links = list(PlayerLink.objects.values_list("token", flat=True)[:20])
    found = {}
    for slug, pk in events:
        for url in _pages(slug, rounds[pk]) + [f"/p/{token}/" for token in links]:
            response = demo.get(url, follow=True)
            if response.status_code != 200 or "html" not in response["Content-Type"]:
                continue
            text = _text(response.content.decode())
            if "1/2-1/2" in text:
                found[url] = text[text.index("1/2-1/2") - 60 : text.index("1/2-1/2") + 20]
    assert found == {}


@pytest.mark.parametrize(
    ("federation", "currency"),
    # ISO 4217: Norway's krone, the euro in Germany, the pound in England, none given: USD.
    [("NOR", "NOK"), ("GER", "EUR"), ("ENG", "GBP"), ("", "USD")],
)
def test_the_currency_defaults_to_the_host_federations(
    client_for, director, federation, currency
) -> None:  # type: ignore[no-untyped-def]
    form = {
        "name": f"Open {federation or 'none'}",
        "system": "swiss",
        "time_control": "classical",
        "rounds": "5",
        "preset": "fide-2024",
        "currency": "",
        "federation": federation,
    }
    response = client_for(director).post("/events/new/", form)
    assert response.status_code == 302, response.content.decode()[:500]
    assert Event.objects.get(name=form["name"]).currency == currency


def test_the_preset_is_shown_with_its_description(client_for, director) -> None:  # type: ignore[no-untyped-def]
    from tests.conftest import make_event

    event = make_event(director)
    page = client_for(director).get(f"/e/{event.slug}/").content.decode()
    assert "FIDE (C.07, 2024 edition) · fide-2024" in page
    form = client_for(director).get("/events/new/").content.decode()
    assert '<option value="fide-2024">FIDE (C.07, 2024 edition) · fide-2024</option>' in form


def test_counts_are_grouped_by_thousands_and_results_read_as_on_pages() -> None:
    from events.numbers import count_text, result_text

    assert count_text(4004) == "4,004" and count_text(999) == "999"
    assert result_text("1/2-1/2") == "½-½" and result_text("1-0") == "1-0"
    assert result_text("-/+") == "−/+"


def test_team_points_read_as_points(demo: Client) -> None:
    """Game and board points of a team event (the demo's club league has half points): 10½,
    2½, as on every chess page, not 10.5 (tie-break values stay decimals, issue 20)."""
    boards = _text(demo.get("/e/team-league-2026/team/boards/").content.decode())
    assert re.search(r"\d½", boards) and not re.search(r"(?<![\d.])\d+\.5(?!\d)", boards)
    standings = demo.get("/e/team-league-2026/team/standings/").content.decode()
    # MP and GP follow the team's name.
    gp = re.findall(r'</a></td><td class="num">([^<]*)</td><td class="num">([^<]*)</td>', standings)
    assert any("½" in points for _, points in gp)
    assert not any(re.fullmatch(r"\d+\.5", cell) for pair in gp for cell in pair)
