"""The event page as each person uses it, on a desktop (1366 × 900) and a phone (390 × 844):
the spectator's round with live results, the leaders and only the links the event has; the
director's next steps and compact rounds; the event's true status and closing it; and no
"seed" reaching a page of the demo (issue 16).

Every wait is on something the user would see, never a sleep.
"""

from __future__ import annotations

import re

import pytest
from django.core.management import call_command
from playwright.sync_api import Page, expect

from events.models import Event
from tests.browser.test_result_entry import log_in

pytestmark = pytest.mark.browser

VIEWPORTS = {
    "desktop": {"width": 1366, "height": 900},
    "phone": {"width": 390, "height": 844},
}


@pytest.fixture
def demo(db):  # type: ignore[no-untyped-def]
    call_command("load_demo", verbosity=0, stdout=open("/dev/null", "w"))  # noqa: SIM115
    return Event.objects.get(slug="swiss-open")


def opened(new_page, viewport: str, path: str) -> Page:  # type: ignore[no-untyped-def]
    page = new_page()
    page.set_viewport_size(VIEWPORTS[viewport])
    page.goto(path)
    return page


def page_width(page: Page) -> int:
    return int(page.evaluate("document.documentElement.scrollWidth"))


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_the_spectator_sees_the_round_the_leaders_and_only_what_the_event_has(
    demo, new_page, viewport
) -> None:
    page = opened(new_page, viewport, f"/e/{demo.slug}/")
    expect(page.locator("#event-status")).to_have_text("Round 4 of 7 complete")
    current = page.locator("#current-round")
    expect(current.get_by_role("heading", name=re.compile("^Round 4"))).to_be_visible()
    expect(current.locator("tbody tr")).to_have_count(20)  # 19 boards and the bye
    leaders = page.locator("#leaders")
    expect(leaders.locator("tbody tr")).to_have_count(10)
    nav = page.locator("nav.event-nav")
    expect(nav.get_by_role("link", name="Standings")).to_be_visible()
    # A FIDE Swiss without prizes has no playoff and no prize sheet: no links to them.
    expect(nav.get_by_role("link", name="Playoff")).to_have_count(0)
    expect(nav.get_by_role("link", name="Prizes")).to_have_count(0)
    expect(page.get_by_role("link", name="Hall screen")).to_be_visible()
    assert page_width(page) <= VIEWPORTS[viewport]["width"]


def test_a_gct_event_links_its_playoff_and_prizes(demo, new_page) -> None:
    page = opened(new_page, "desktop", "/e/demo-classical/")
    nav = page.locator("nav.event-nav")
    expect(nav.get_by_role("link", name="Playoff")).to_be_visible()
    expect(nav.get_by_role("link", name="Prizes")).to_be_visible()
    expect(page.locator("#event-status")).to_have_text("Playoff in progress")


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_the_director_sees_what_to_do_next(demo, new_page, viewport) -> None:
    page = new_page()
    page.set_viewport_size(VIEWPORTS[viewport])
    log_in_demo(page)
    page.goto(f"/e/{demo.slug}/")
    steps = page.locator(".dashboard .steps")
    expect(steps.get_by_role("button", name="Pair round 5")).to_be_visible()
    expect(steps.get_by_role("link", name="Swiss page (byes, withdrawals first)")).to_be_visible()
    chips = page.locator(".round-chips a.chip")
    expect(chips).to_have_count(4)  # one compact link per round, not three
    steps.get_by_role("button", name="Pair round 5").click()  # pairs it from the card
    expect(page.get_by_role("heading", name="Round 5 pairing")).to_be_visible()
    assert page_width(page) <= VIEWPORTS[viewport]["width"]


def log_in_demo(page: Page) -> None:
    """The demo director (make run prints the login): director / director-demo."""
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill("director")
    page.get_by_label("Password").fill("director-demo")
    page.get_by_role("button", name="Log in").click()
    expect(page.locator("header .who")).to_have_text("director")


def test_closing_the_event_makes_the_standings_final(director, new_page) -> None:
    from tests.conftest import make_event, swiss_round_played

    event = make_event(director, players=4, rounds=1)
    swiss_round_played(event, round_no=1, user=director)
    page = new_page()
    log_in(page, director.username)
    page.goto(f"/e/{event.slug}/")
    expect(page.locator("#event-status")).to_have_text("Round 1 of 1 complete")
    page.get_by_role("button", name=re.compile("Close the event")).click()
    expect(page.locator("#event-status")).to_have_text("Final")
    page.goto(f"/e/{event.slug}/standings/")
    expect(page.get_by_text("Final standings")).to_be_visible()
    expect(page.locator("#standings-table")).not_to_have_attribute("hx-trigger", re.compile("."))


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_no_page_of_the_demo_says_seed(demo, new_page, viewport) -> None:
    """The words a reader sees, as the browser renders them, on the main page of every demo
    event and its chess pages (tests/test_words.py checks every URL and export as HTML)."""
    page = new_page()
    page.set_viewport_size(VIEWPORTS[viewport])
    log_in_demo(page)
    for event in Event.objects.order_by("slug"):
        paths = [f"/e/{event.slug}/"]
        for link in page.goto(f"/e/{event.slug}/") and page.locator("nav.event-nav a").all():
            href = link.get_attribute("href")
            if href and href.startswith("/e/"):
                paths.append(href)
        for path in dict.fromkeys(paths):
            page.goto(path)
            text = page.locator("body").inner_text()
            assert not re.search(r"seed 0", text, re.IGNORECASE), f"{path} says 'seed 0'"
