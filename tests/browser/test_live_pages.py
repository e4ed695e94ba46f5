"""Spectators' pages during a live round, in a real browser, with the shared rendering as in
production (issue 24): the page polls, an arbiter saves a result, the spectators' screens show
it within the staleness bound, and the arbiter's own pages show it at once.

The polls and the refresh interval are shortened from seconds to one; the staleness bound is
production's. Every wait is on something the user would see, never a sleep.
"""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from events import caching
from tests.browser.test_print import played_event
from tests.browser.test_result_entry import log_in, save_at_the_desk

pytestmark = pytest.mark.browser

STALE_SECONDS = 10  # config/settings.py's default for PUBLIC_PAGE_STALE_SECONDS


@pytest.fixture
def live_round(settings, monkeypatch):  # type: ignore[no-untyped-def]
    """The live server runs in this process: the views and events.caching read these at every
    request."""
    settings.PUBLIC_PAGE_STALE_SECONDS = STALE_SECONDS
    monkeypatch.setattr(caching, "REFRESH_SECONDS", 1)
    monkeypatch.setattr("standings.views.HALL_POLL_SECONDS", 1)


def test_spectators_screens_show_a_saved_result_within_the_bound(new_page, director, live_round):
    event = played_event(director)  # rounds 1-2 played, round 3 paired
    screens = [new_page() for _ in range(3)]  # three spectators' hall screens, polling
    for screen in screens:
        screen.set_viewport_size({"width": 1920, "height": 1080})
        screen.goto(f"/e/{event.slug}/hall/")
        expect(screen.locator("#hall-pairings h2")).to_contain_text("0 of 6 results")

    desk = new_page()
    log_in(desk, director.username)
    save_at_the_desk(desk, event, 3, 1, "0-1")
    saved = time.monotonic()

    # The director's own view of the public page is current at once.
    desk.goto(f"/e/{event.slug}/rounds/3/")
    expect(desk.locator("tbody tr").first.locator("strong")).to_have_text("0-1")

    for screen in screens:
        first_row = screen.locator("#hall-pairings tbody tr").first
        expect(first_row.locator("td.result")).to_have_text(
            "0-1", timeout=(STALE_SECONDS + 5) * 1000
        )
        expect(screen.locator("#hall-pairings h2")).to_contain_text("1 of 6 results")
    assert time.monotonic() - saved < STALE_SECONDS + 2  # the bound, and the version's 2 s
