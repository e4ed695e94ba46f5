"""Closed events and passwords in a real browser (issue 19).

An arbiter whose result page was open when the director closed the event taps a result: the
browser lands on the event page, which says Final and why nothing was saved; the director
reopens it there. A logged-in user changes their password from the header's link.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from events.errors import EventClosed
from events.models import Game
from events.services import event_close, game_result_record
from tests.browser.test_result_entry import log_in, result_button

pytestmark = pytest.mark.browser


def _played(event, director) -> Game:  # type: ignore[no-untyped-def]
    for game in Game.objects.filter(round__event=event):
        game_result_record(game_id=game.pk, result="1-0", expected_version=None, user=director)
    return Game.objects.get(round__event=event, board=1)


def test_a_result_tapped_after_the_closing_is_refused_on_the_event_page(
    new_page, event, director, arbiter
):  # type: ignore[no-untyped-def]
    board1 = _played(event, director)
    page: Page = new_page()
    log_in(page, arbiter.username)
    page.goto(f"/e/{event.slug}/rounds/1/results/")
    expect(page.locator("#round-progress")).to_contain_text("2 of 2 results in")
    event_close(event=event, user=director)  # meanwhile, at the director's desk

    result_button(page, board1, "0-1").click()
    expect(page).to_have_url(f"{page.url.split('/e/')[0]}/e/{event.slug}/")
    expect(page.get_by_role("status")).to_have_text(EventClosed.MESSAGE)
    expect(page.get_by_text("Final", exact=True)).to_be_visible()
    board1.refresh_from_db()
    assert board1.result == "1-0"

    directors = new_page()
    log_in(directors, director.username)
    directors.goto(f"/e/{event.slug}/")
    directors.get_by_role("button", name="Reopen the event").click()
    expect(directors.get_by_role("status")).to_have_text("The event is open again.")
    page.goto(f"/e/{event.slug}/rounds/1/results/")
    result_button(page, board1, "0-1").click()
    expect(result_button(page, board1, "0-1")).to_have_attribute("aria-pressed", "true")
    board1.refresh_from_db()
    assert board1.result == "0-1"


def test_a_password_changed_from_the_header_is_the_one_that_logs_in(new_page, director):  # type: ignore[no-untyped-def]
    page: Page = new_page()
    log_in(page, director.username)
    page.locator("header").get_by_role("link", name="Password").click()
    page.get_by_label("Old password").fill(f"pw-{director.username}")
    page.get_by_label("New password:", exact=True).fill("a-new-long-password")
    page.get_by_label("New password confirmation").fill("a-new-long-password")
    page.get_by_role("button", name="Change the password").click()
    expect(page.get_by_role("heading", name="Password changed")).to_be_visible()
    expect(page.locator("header .who")).to_have_text(director.username)  # still logged in

    page.locator("header").get_by_role("button", name="Log out").click()
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(director.username)
    page.get_by_label("Password").fill("a-new-long-password")
    page.get_by_role("button", name="Log in").click()
    expect(page.locator("header .who")).to_have_text(director.username)
