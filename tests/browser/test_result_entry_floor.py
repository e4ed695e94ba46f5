"""Result entry on the floor (a 390 × 844 phone) and at the desk (the keyboard), issue 20.

On a phone a board is one line: its number, the two players, 1-0 ½-½ 0-1 and "⋯", behind
which the forfeits (and ✕) wait for a second tap; at least 8 boards of a 19-board round fit on
one screen. Without JavaScript the same buttons post the form. At the desk the page opens with
the focus on the first board without a result, a click on a row chooses it, the keys the page
lists enter results, and the card that says what comes next appears with the round's last
result.

Every wait is on something the user would see, never a sleep.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Locator, Page, expect

from events.models import Event, Game, Role
from events.services import PairingInput, access_grant, game_result_record, round_pairings_set
from tests.browser.conftest import TIMEOUT_MS
from tests.browser.test_result_entry import log_in
from tests.conftest import make_event

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
DESK = {"width": 1366, "height": 900}
BOARDS = 19


@pytest.fixture
def big_round(director, arbiter) -> Event:  # type: ignore[no-untyped-def]
    """A 38-player Swiss with round 1 published: board n is n against 19 + n; long names, as
    a FIDE list has them."""
    event = make_event(director, name="Floor Open", players=2 * BOARDS, rounds=5)
    event.players.filter(start_no=1).update(name="Abdusattorov, Nodirbek Kholmatovich")
    round_pairings_set(
        event=event,
        round_no=1,
        pairings=[PairingInput(n, n, BOARDS + n) for n in range(1, BOARDS + 1)],
        user=director,
    )
    access_grant(event=event, username=arbiter.username, role=Role.ARBITER, user=director)
    event.refresh_from_db()
    return event


def board(event: Event, number: int) -> Game:
    return Game.objects.get(round__event=event, round__number=1, board=number)


def row(page: Page, event: Event, number: int) -> Locator:
    return page.locator(f"#game-{board(event, number).pk}")


def button(page: Page, event: Event, number: int, label: str) -> Locator:
    return row(page, event, number).get_by_role("button", name=label, exact=True)


def open_results(new_page, who: str, event: Event, viewport) -> Page:  # type: ignore[no-untyped-def]
    page = new_page()
    page.set_viewport_size(viewport)
    log_in(page, who)
    page.goto(f"/e/{event.slug}/rounds/1/results/")
    expect(page.get_by_role("heading", name="Results of round 1")).to_be_visible()
    return page


@pytest.fixture
def own_page(browser, live_server):  # type: ignore[no-untyped-def]
    """Like new_page, with the context's options: a phone (touch, its viewport), JavaScript
    off (every button a plain form post)."""
    contexts = []

    def open_page(**options):  # type: ignore[no-untyped-def]
        context = browser.new_context(base_url=live_server.url, **options)
        context.set_default_timeout(TIMEOUT_MS)
        contexts.append(context)
        return context.new_page()

    yield open_page
    for context in contexts:
        context.close()


def phone(own_page, **options):  # type: ignore[no-untyped-def]
    """A 390 × 844 touch screen that honours the page's viewport tag, as a phone does."""
    return lambda: own_page(viewport=PHONE, is_mobile=True, has_touch=True, **options)


def rows_on_screen(page: Page) -> int:
    """Board rows whose whole box lies inside the viewport."""
    return int(
        page.evaluate(
            """() => Array.from(document.querySelectorAll("tr[data-game]")).filter(r => {
                 const b = r.getBoundingClientRect();
                 return b.top >= 0 && b.bottom <= window.innerHeight && b.height > 0; }).length"""
        )
    )


def focused_id(page: Page) -> str:
    return str(page.evaluate("document.activeElement && document.activeElement.id"))


# -- The phone -----------------------------------------------------------------------------------


def test_a_phone_screen_holds_eight_boards_one_line_each_and_a_tap_saves(
    own_page, big_round, director
):
    page = open_results(phone(own_page), director.username, big_round, PHONE)
    page.evaluate("window.scrollTo(0, 0)")
    assert rows_on_screen(page) >= 8, rows_on_screen(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    first = row(page, big_round, 1)
    box, one = first.bounding_box(), button(page, big_round, 1, "1-0").bounding_box()
    assert box is not None and one is not None
    # One line: the number, both players and the result buttons share one band of the screen.
    assert box["height"] < 70
    assert box["y"] <= one["y"] and one["y"] + one["height"] <= box["y"] + box["height"] + 1
    expect(first).to_contain_text("1. Abdusattorov")  # the long name is cut, not wrapped
    for label in ("1-0", "½-½", "0-1"):
        expect(button(page, big_round, 2, label)).to_be_visible()
    expect(button(page, big_round, 2, "+/−")).to_be_hidden()

    button(page, big_round, 3, "½-½").tap()
    expect(page.locator("#round-progress")).to_have_text(f"1 of {BOARDS} results in")
    expect(button(page, big_round, 3, "½-½")).to_have_attribute("aria-pressed", "true")
    assert board(big_round, 3).result == "1/2-1/2"


def test_a_forfeit_on_a_phone_is_a_second_tap_behind_the_dots(own_page, big_round, director):
    page = open_results(phone(own_page), director.username, big_round, PHONE)
    forfeit = button(page, big_round, 4, "−/+")
    expect(forfeit).to_be_hidden()
    row(page, big_round, 4).locator("summary").tap()
    expect(forfeit).to_be_visible()
    forfeit.tap()
    expect(page.locator("#round-progress")).to_have_text(f"1 of {BOARDS} results in")
    assert board(big_round, 4).result == "-/+"
    # The row says which forfeit it holds without opening the menu again.
    expect(row(page, big_round, 4).locator("summary .chosen-rare")).to_have_text("−/+")
    expect(row(page, big_round, 4).locator("summary .dots")).to_be_hidden()


def test_without_javascript_the_buttons_post_and_a_stale_save_is_a_conflict(
    own_page, big_round, director, arbiter
):
    no_script = phone(own_page, java_script_enabled=False)
    directors = open_results(no_script, director.username, big_round, PHONE)
    arbiters = open_results(no_script, arbiter.username, big_round, PHONE)

    button(directors, big_round, 1, "1-0").tap()  # a plain POST, then the page again
    expect(directors.locator("#round-progress")).to_have_text(f"1 of {BOARDS} results in")
    expect(button(directors, big_round, 1, "1-0")).to_have_attribute("aria-pressed", "true")

    row(directors, big_round, 2).locator("summary").tap()  # <details> needs no script
    button(directors, big_round, 2, "+/−").tap()
    expect(directors.locator("#round-progress")).to_have_text(f"2 of {BOARDS} results in")
    assert (board(big_round, 1).result, board(big_round, 2).result) == ("1-0", "+/-")

    # The arbiter's page still holds board 1's old version: the save is refused, nothing lost.
    button(arbiters, big_round, 1, "0-1").tap()
    conflict = row(arbiters, big_round, 1).get_by_role("alert")
    expect(conflict).to_contain_text("Saved now: 1-0 · yours: 0-1")
    expect(conflict.get_by_role("link", name="Keep saved")).to_be_in_viewport()
    assert arbiters.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    saved = board(big_round, 1)
    assert (saved.result, saved.version) == ("1-0", 2)
    conflict.get_by_role("button", name="Replace with mine").tap()
    expect(button(arbiters, big_round, 1, "0-1")).to_have_attribute("aria-pressed", "true")
    assert board(big_round, 1).result == "0-1"


# -- The desk ------------------------------------------------------------------------------------


def test_the_desk_shows_every_result_and_the_keyboard_starts_on_board_one(
    new_page, big_round, director
):
    page = open_results(new_page, director.username, big_round, DESK)
    for label in ("1-0", "½-½", "0-1", "+/−", "−/+", "−/−"):
        expect(button(page, big_round, 1, label)).to_be_visible()  # no "⋯" at the desk
    expect(row(page, big_round, 1).locator("summary")).to_be_hidden()

    expect(row(page, big_round, 1)).to_be_focused()  # the page opens on board 1
    page.keyboard.press("1")
    expect(button(page, big_round, 1, "1-0")).to_have_attribute("aria-pressed", "true")
    expect(row(page, big_round, 2)).to_be_focused()  # and moves on to board 2
    page.keyboard.press("=")
    expect(button(page, big_round, 2, "½-½")).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("+")  # a forfeit by key, on board 3
    expect(button(page, big_round, 3, "+/−")).to_have_attribute("aria-pressed", "true")
    assert [board(big_round, n).result for n in (1, 2, 3)] == ["1-0", "1/2-1/2", "+/-"]


def test_the_first_tab_lands_on_board_one_and_reopening_starts_where_results_stop(
    new_page, big_round, director
):
    page = open_results(new_page, director.username, big_round, DESK)
    page.keyboard.press("Tab")
    expect(button(page, big_round, 1, "1-0")).to_be_focused()

    for number in (1, 2, 3):
        game_result_record(
            game_id=board(big_round, number).pk, result="0-1", expected_version=None, user=director
        )
    page.reload()
    expect(row(page, big_round, 4)).to_be_focused()
    page.keyboard.press("0")
    expect(button(page, big_round, 4, "0-1")).to_have_attribute("aria-pressed", "true")


def test_a_click_on_a_row_chooses_it_for_the_keys(new_page, big_round, director):
    page = open_results(new_page, director.username, big_round, DESK)
    row(page, big_round, 7).locator("td.black").click()
    expect(row(page, big_round, 7)).to_be_focused()
    page.keyboard.press("0")
    expect(button(page, big_round, 7, "0-1")).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("ArrowUp")  # row 8 had the focus after the save; up is row 7 again
    expect(row(page, big_round, 7)).to_be_focused()
    assert board(big_round, 7).result == "0-1" and board(big_round, 8).result == ""


def test_the_last_result_brings_the_next_step_card(new_page, big_round, director):
    for number in range(1, BOARDS):
        game_result_record(
            game_id=board(big_round, number).pk, result="1-0", expected_version=None, user=director
        )
    page = open_results(new_page, director.username, big_round, DESK)
    card = page.locator("#round-next")
    expect(card).to_be_hidden()
    expect(row(page, big_round, BOARDS)).to_be_focused()  # the one board left

    page.keyboard.press("=")
    expect(card).to_be_visible()
    expect(card).to_contain_text("Round 1 is complete")
    pair = card.get_by_role("button", name="Pair round 2")
    expect(pair).to_be_focused()  # Enter goes on to the next step: it pairs the round
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name="Round 2 pairing", exact=True)).to_be_visible()
    expect(page.get_by_text("awaiting review")).to_be_visible()
