"""The hall screen in a real browser: the current round's pairings and the standings, in turn,
on a wall-sized screen, refreshing itself when a result is entered, within the content
security policy (its script is a file, its QR code inline SVG).

The turn and the refresh are shortened from seconds to one for the test; every wait is on
something the user would see, never a sleep.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.test_print import NAMES, played_event
from tests.browser.test_result_entry import log_in, save_at_the_desk

pytestmark = pytest.mark.browser


@pytest.fixture
def quick_hall(monkeypatch):  # type: ignore[no-untyped-def]
    """The live server runs in this process: the views read these at every request."""
    monkeypatch.setattr("standings.views.HALL_ROTATE_SECONDS", 1)
    monkeypatch.setattr("standings.views.HALL_POLL_SECONDS", 1)


def test_the_screen_turns_between_pairings_and_standings(new_page, director, quick_hall):
    event = played_event(director)  # rounds 1-2 played, round 3 paired
    page = new_page()
    violations: list[str] = []
    page.on("console", lambda m: violations.append(m.text) if "Content Security" in m.text else 0)
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(f"/e/{event.slug}/hall/")

    pairings, standings = page.locator("#hall-pairings"), page.locator("#hall-standings")
    expect(pairings).to_be_visible()
    expect(standings).to_be_hidden()
    expect(pairings.get_by_role("heading")).to_contain_text("Round 3")
    expect(pairings).to_contain_text(NAMES[0])
    expect(page.locator("svg.qr")).to_be_visible()
    expect(page.locator(".hall-qr .url")).to_have_text(
        f"{page.url.split('/e/')[0]}/e/{event.slug}/"
    )

    expect(standings).to_be_visible()  # the turn
    expect(pairings).to_be_hidden()
    expect(standings.get_by_role("heading")).to_contain_text("after round 2 of 7")
    expect(standings.locator("tbody tr")).to_have_count(12)

    expect(pairings).to_be_visible()  # and back
    expect(standings).to_be_hidden()
    assert violations == []


def test_the_screen_refreshes_when_a_result_is_entered(new_page, director, quick_hall):
    event = played_event(director)
    hall = new_page()
    hall.set_viewport_size({"width": 1920, "height": 1080})
    hall.goto(f"/e/{event.slug}/hall/")
    heading = hall.locator("#hall-pairings h2")
    expect(heading).to_contain_text("0 of 6 results")

    arbiter_desk = new_page()
    log_in(arbiter_desk, director.username)
    save_at_the_desk(arbiter_desk, event, 3, 1, "0-1")
    expect(arbiter_desk.locator("#round-progress")).to_contain_text("1 of 6 results in")

    expect(heading).to_contain_text("1 of 6 results")  # the next poll brings it
    first_row = hall.locator("#hall-pairings tbody tr").first
    expect(first_row.locator("td.result")).to_have_text("0-1")
    # The panel on show survives the refresh: still one panel at a time.
    expect(hall.locator("[data-hall-panel]:visible")).to_have_count(1)
