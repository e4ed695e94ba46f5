"""Result entry in a real browser: log in, tap and type results, see them on the public page,
and resolve a conflict between two people entering the same board (issue 2).

Every wait is on something the user would see (a text, a pressed button), never a sleep.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from events.models import Event, Game

pytestmark = pytest.mark.browser


def log_in(page: Page, username: str) -> None:
    """Through the real login form; the personas' password is "pw-" + username."""
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(f"pw-{username}")
    page.get_by_role("button", name="Log in").click()
    expect(page.locator("header .who")).to_have_text(username)


def save_at_the_desk(desk: Page, event: Event, round_no: int, board_no: int, label: str) -> None:
    """A logged-in arbiter taps a result on the round's result entry page; it is saved."""
    game = Game.objects.get(round__event=event, round__number=round_no, board=board_no)
    desk.goto(f"/e/{event.slug}/rounds/{round_no}/results/")
    done = int(desk.locator("#round-progress").inner_text().split()[0])
    desk.locator(f"#game-{game.pk}").get_by_role("button", name=label, exact=True).click()
    expect(desk.locator("#round-progress")).to_contain_text(f"{done + 1} of ")


def open_result_entry(page: Page, event: Event) -> None:
    """From the event list, as a director or arbiter would get there."""
    page.goto("/")
    page.get_by_role("link", name=event.name, exact=True).click()
    # The event page's "Next" list: the round's results still to enter.
    page.get_by_role("link", name="Enter round 1's results: 2 missing").click()
    expect(page.get_by_role("heading", name="Results of round 1")).to_be_visible()
    expect(page.locator("#round-progress")).to_have_text("0 of 2 results in")


def board(event: Event, number: int) -> Game:
    return Game.objects.get(round__event=event, board=number)


def result_button(page: Page, game: Game, label: str):  # type: ignore[no-untyped-def]
    return page.locator(f"#game-{game.pk}").get_by_role("button", name=label, exact=True)


def test_director_taps_and_types_results_and_the_public_sees_them(new_page, event, director):
    board1, board2 = board(event, 1), board(event, 2)
    page = new_page()
    log_in(page, director.username)
    open_result_entry(page, event)

    result_button(page, board1, "1-0").click()
    expect(page.locator("#round-progress")).to_have_text("1 of 2 results in")
    expect(result_button(page, board1, "1-0")).to_have_attribute("aria-pressed", "true")

    # Keyboard entry: focus a button in board 2's row and type "=" for a draw.
    result_button(page, board2, "0-1").focus()
    page.keyboard.press("=")
    expect(page.locator("#round-progress")).to_have_text("2 of 2 results in — round complete")
    expect(result_button(page, board2, "½-½")).to_have_attribute("aria-pressed", "true")
    assert [board(event, n).result for n in (1, 2)] == ["1-0", "1/2-1/2"]

    public = new_page()  # a fresh context: anonymous, no cookies
    public.goto(f"/e/{event.slug}/rounds/1/")
    expect(public.locator("header").get_by_role("link", name="Log in")).to_be_visible()
    rows = public.locator("tbody tr")
    expect(rows.nth(0)).to_contain_text("1. Player 1")
    expect(rows.nth(0)).to_contain_text("1-0")
    expect(rows.nth(1)).to_contain_text("3. Player 3")
    expect(rows.nth(1)).to_contain_text("½-½")


def test_a_second_save_of_the_same_board_shows_the_conflict_and_keeps_the_saved_result(
    new_page, event, director, arbiter
):
    board1 = board(event, 1)
    directors, arbiters = new_page(), new_page()
    log_in(directors, director.username)
    log_in(arbiters, arbiter.username)
    open_result_entry(directors, event)
    open_result_entry(arbiters, event)  # both pages now hold the same version of board 1

    result_button(directors, board1, "1-0").click()
    expect(directors.locator("#round-progress")).to_have_text("1 of 2 results in")

    result_button(arbiters, board1, "0-1").click()
    conflict = arbiters.locator(f"#game-{board1.pk}").get_by_role("alert")
    expect(conflict).to_contain_text("Someone else changed round 1 board 1")
    expect(conflict).to_contain_text("Saved now: 1-0 · yours: 0-1")
    expect(conflict.get_by_role("button", name="Replace with mine")).to_be_visible()
    board1.refresh_from_db()
    assert (board1.result, board1.version) == ("1-0", 2)  # nothing overwritten

    conflict.get_by_role("link", name="Keep saved").click()
    expect(arbiters.locator(f"#game-{board1.pk} .conflict")).to_have_count(0)
    expect(result_button(arbiters, board1, "1-0")).to_have_attribute("aria-pressed", "true")
    board1.refresh_from_db()
    assert (board1.result, board1.version) == ("1-0", 2)

    # The refreshed row carries the saved version, so a deliberate correction now goes through.
    result_button(arbiters, board1, "0-1").click()
    expect(result_button(arbiters, board1, "0-1")).to_have_attribute("aria-pressed", "true")
    expect(arbiters.locator(f"#game-{board1.pk} .conflict")).to_have_count(0)
    board1.refresh_from_db()
    assert (board1.result, board1.version) == ("0-1", 3)
