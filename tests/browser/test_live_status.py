"""Issue 29: the spectator's event page refreshes its status line with the current round, so
"Round 1 of 3 complete" never stays above round 2 in progress."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from draws.swiss import services as swiss_services
from tests.conftest import make_event, swiss_round_played

pytestmark = pytest.mark.browser


def test_the_status_refreshes_with_the_round(new_page, director) -> None:  # type: ignore[no-untyped-def]
    event = make_event(director, players=4, rounds=3)
    swiss_round_played(event, round_no=1, user=director)

    page = new_page()
    page.clock.install()
    page.goto(f"/e/{event.slug}/")
    status = page.locator("#event-status")
    expect(status).to_have_text("Round 1 of 3 complete")

    swiss_services.swiss_round_pair(event=event, round_no=2, user=director)
    swiss_services.swiss_round_publish(event=event, round_no=2, user=director)
    page.clock.fast_forward("00:21")  # the page polls every 20 s
    expect(page.locator("#current-round h2")).to_contain_text("Round 2")
    expect(status).to_have_text("Round 2 of 3 in progress")
