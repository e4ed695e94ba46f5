"""The players page in a real browser, on a desktop (1366 × 900) and a phone (390 × 844)
(issue 20): a name registered twice is shown as a probable duplicate and goes in once the
director ticks the confirmation; Edit opens the player's page, Enter saves a correction; a
player who has not played is deleted there; a withdrawn player is marked in the list.

Every wait is on something the user would see, never a sleep.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from draws.swiss.services import withdrawal_record
from events.models import Event, Game, Player
from events.services import game_result_record
from tests.browser.test_event_pages import VIEWPORTS, page_width
from tests.browser.test_result_entry import log_in

pytestmark = pytest.mark.browser


def players_page(page: Page, event: Event) -> None:
    page.goto(f"/e/{event.slug}/players/")
    expect(page.get_by_role("heading", name="Players", exact=True)).to_be_visible()


def row(page: Page, start_no: int):  # type: ignore[no-untyped-def]
    return page.locator(f"#player-{start_no}")


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_a_duplicate_is_confirmed_then_corrected_then_deleted(
    event, director, new_page, viewport
) -> None:
    page = new_page()
    page.set_viewport_size(VIEWPORTS[viewport])
    log_in(page, director.username)
    players_page(page, event)

    form = page.locator("#player-add")
    form.get_by_label("Name:", exact=True).fill("Player 2")
    form.get_by_label("Rating:", exact=True).fill("1500")
    form.get_by_label("Name:", exact=True).press("Enter")
    expect(form).to_contain_text("may be the same person as 2. Player 2")
    confirm = form.get_by_label("They are different people: register anyway")
    expect(confirm).not_to_be_checked()
    expect(form.get_by_label("Rating:", exact=True)).to_have_value("1500")
    assert event.players.count() == 4
    confirm.check()
    form.get_by_label("Name:", exact=True).press("Enter")
    expect(row(page, 5)).to_contain_text("Player 2")
    assert page_width(page) <= VIEWPORTS[viewport]["width"]

    row(page, 5).get_by_role("link", name="Edit").click()
    edit = page.locator("#player-edit")
    expect(edit.get_by_label("Name:", exact=True)).to_have_value("Player 2")
    edit.get_by_label("Name:", exact=True).fill("Player Two")
    edit.get_by_label("Rating:", exact=True).fill("1550")
    edit.get_by_label("Rating:", exact=True).press("Enter")
    expect(row(page, 5)).to_contain_text("Player Two")
    expect(row(page, 5)).to_contain_text("1550")
    assert Player.objects.get(event=event, start_no=5).version == 2

    row(page, 5).get_by_role("link", name="Edit").click()
    remove = page.locator("#player-remove")
    remove.get_by_label("Yes, delete this player").check()
    assert page_width(page) <= VIEWPORTS[viewport]["width"]
    remove.get_by_role("button", name="Delete Player Two").click()
    expect(page.get_by_text("Deleted 5. Player Two.")).to_be_visible()
    expect(row(page, 5)).to_have_count(0)
    assert not event.players.filter(start_no=5).exists()


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_a_player_who_played_cannot_be_deleted_and_shows_as_withdrawn(
    event, director, new_page, viewport
) -> None:
    for game in Game.objects.filter(round__event=event):
        game_result_record(game_id=game.pk, result="1-0", expected_version=None, user=director)
    withdrawal_record(event=event, start_no=4, after_round=1, user=director)
    page = new_page()
    page.set_viewport_size(VIEWPORTS[viewport])
    log_in(page, director.username)
    players_page(page, event)
    expect(row(page, 4).locator(".withdrawn")).to_have_text("withdrawn after round 1")
    expect(row(page, 3).locator(".withdrawn")).to_have_count(0)
    row(page, 4).get_by_role("link", name="Edit").click()
    expect(page.locator("#player-remove")).to_contain_text("has a game in round 1")
    expect(page.get_by_role("button", name="Delete Player 4")).to_have_count(0)
    assert page_width(page) <= VIEWPORTS[viewport]["width"]
