"""Updating the registered players from a newer rating list in a real browser: on the players
page, *Preview* shows each change old → new in the card (htmx, the page stays), and *Apply*
changes exactly that (ratings/refresh.py).

Every wait is on something the user would see, never a sleep.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from events.models import Event
from events.services import EventFields, event_create, players_register_many
from tests.browser.test_rating_registration import players_page
from tests.browser.test_result_entry import log_in
from tests.ratings.conftest import SMALL_LIST, import_list
from tests.ratings.test_refresh import ENTRANTS, REFRESHED, state

pytestmark = pytest.mark.browser


@pytest.fixture
def entrants(director) -> Event:  # type: ignore[no-untyped-def]
    import_list(SMALL_LIST, name="FIDE")
    event = event_create(
        fields=EventFields(name="Autumn Open", system="swiss", time_control="classical", rounds=5),
        director=director,
    )
    players_register_many(event=event, players=ENTRANTS, user=director)
    return event


def test_preview_then_apply_updates_the_players_on_the_players_page(
    entrants, director, new_page
) -> None:
    page: Page = new_page()
    log_in(page, director.username)
    players_page(page, entrants)
    before = state(entrants)

    card = page.locator("#rating-refresh")
    card.get_by_role("button", name="Preview").click()
    changes = card.locator("#refresh-changes tbody tr")
    expect(changes).to_have_count(2)
    expect(changes.nth(0)).to_contain_text("2830 → 2823")
    expect(changes.nth(1)).to_contain_text("WCM → WFM")
    expect(card).to_contain_text("Not on FIDE (they keep what they have): 3. Nobody, Known.")
    expect(page.get_by_role("heading", name="Players", exact=True)).to_be_visible()  # same page
    assert state(entrants) == before

    card.get_by_role("button", name="Apply").click()
    expect(
        page.get_by_role("status").filter(has_text="Updated 2 player(s) from FIDE")
    ).to_be_visible()
    expect(page.locator("#player-1")).to_contain_text("2823")
    expect(page.locator("#player-2")).to_contain_text("Lindqvist, Ebba Maria")
    assert state(entrants) == REFRESHED
