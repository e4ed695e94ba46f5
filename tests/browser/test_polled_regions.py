"""The regions that refresh themselves every 20 s (a player's page, the standings) are not
swapped while a person presses inside them: a button held for a tenth of a second, as people
hold it, would be replaced between mouse-down and mouse-up, and the click would land on
nothing (the race CI met on the rating type-ahead, here met by every poll).

The poll is brought by the page's own clock, fast-forwarded past 20 s while the button is held;
the test waits for the poll's answer to be handled (counted by a listener), never sleeps.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Locator, Page, expect

from events.services import PairingInput, round_pairings_set
from playerpage.models import PlayerLink
from playerpage.services import player_links_issue
from tests.conftest import make_event, swiss_round_played

pytestmark = pytest.mark.browser

# The count is written on <html> so that Playwright's expect can wait for it (the pages' CSP
# refuses the string predicates of wait_for_function).
COUNT_POLLS = (
    "const html = document.documentElement; html.dataset.polls = 0;"
    " document.body.addEventListener('htmx:afterRequest', () => { html.dataset.polls++; });"
)


def press_through_a_poll(page: Page, control: Locator) -> None:
    """Hold the mouse on the control while the region polls (its answer handled), then let go."""
    control.hover()
    page.mouse.down()
    poll(page)
    page.mouse.up()


def poll(page: Page) -> None:
    page.evaluate(COUNT_POLLS)
    page.clock.fast_forward("00:21")  # the region polls every 20 s
    expect(page.locator("html")).to_have_attribute("data-polls", "1")


def players_page(new_page, director) -> Page:  # type: ignore[no-untyped-def]
    """Player 1's private page, paired on board 1, on a page whose clock the test moves."""
    event = make_event(director, players=2, rounds=3)
    round_pairings_set(event=event, round_no=1, pairings=[PairingInput(1, 1, 2)], user=director)
    player_links_issue(event=event, user=director)
    token = PlayerLink.objects.get(player__event=event, player__start_no=1).token
    phone = new_page()
    phone.clock.install()
    phone.goto(f"/p/{token}/")
    expect(phone.locator("#my-game")).to_contain_text("Board 1")
    return phone


def test_a_report_pressed_while_the_player_s_page_polls_is_reported(new_page, director) -> None:  # type: ignore[no-untyped-def]
    phone = players_page(new_page, director)
    press_through_a_poll(phone, phone.locator("#report-form").get_by_role("button", name="1-0"))
    expect(phone.locator(".messages")).to_contain_text("Thank you")
    expect(phone.locator("#player-now")).to_contain_text("You reported 1-0")


def test_a_why_link_pressed_while_the_standings_poll_opens_its_explanation(
    new_page, director
) -> None:  # type: ignore[no-untyped-def]
    event = make_event(director, players=4, rounds=3)
    swiss_round_played(event, round_no=1, user=director)

    page = new_page()
    page.clock.install()
    page.goto(f"/e/{event.slug}/standings/")
    expect(page.locator("#standings-table")).to_contain_text("updates itself")
    leader = page.locator("#standings-table tbody tr").first
    name = leader.locator("td.name").inner_text()
    press_through_a_poll(page, leader.get_by_role("link"))
    expect(page.locator("#explanation").get_by_role("heading")).to_contain_text(f"{name} (no.")


def test_a_report_button_keeps_the_keyboard_s_focus_through_a_poll(new_page, director) -> None:  # type: ignore[no-untyped-def]
    """The poll swaps the region: a button without an id lost the focus to the page's body, and
    the next Tab started again from the top."""
    phone = players_page(new_page, director)
    draw = phone.locator("#report-form").get_by_role("button", name="½-½")
    draw.focus()
    poll(phone)
    expect(draw).to_be_focused()
    phone.keyboard.press("Enter")
    expect(phone.locator(".messages")).to_contain_text("Thank you")
