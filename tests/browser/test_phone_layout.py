"""Phones (390 × 844): the standings and the crosstable scroll sideways inside their table,
never the page; the columns that say whose row it is stay on screen while the others pass
under them, and a hint says there is more to the right. The GNOT tables follow the same rule.

Every wait is on something the user would see, never a sleep.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Locator, Page, expect

from draws.lots import LotDrawer
from tests.browser.test_print import NAMES, played_event
from tests.formats.gnot.helpers import play_pending, seeded

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}


def phone(new_page, path: str) -> Page:  # type: ignore[no-untyped-def]
    page = new_page()
    page.set_viewport_size(PHONE)
    page.goto(path)
    return page


def page_width(page: Page) -> int:
    return int(page.evaluate("document.documentElement.scrollWidth"))


def left(cell: Locator) -> float:
    box = cell.bounding_box()
    assert box is not None
    return float(box["x"])


def on_screen(cell: Locator) -> bool:
    box = cell.bounding_box()
    return box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]


def scroll_to_the_end(wrapper: Locator) -> None:
    """Swipe a table's .scroll wrapper as far right as it goes (it must have somewhere to go)."""
    assert wrapper.evaluate("s => s.scrollWidth > s.clientWidth"), "the table should overflow"
    wrapper.evaluate("s => { s.scrollLeft = s.scrollWidth; }")
    assert wrapper.evaluate("s => s.scrollLeft") > 0


def test_standings_keep_place_name_and_points_while_the_tiebreaks_scroll(new_page, director):
    event = played_event(director)
    page = phone(new_page, f"/e/{event.slug}/standings/")
    expect(page.locator(".scroll-hint")).to_be_visible()
    assert page_width(page) <= PHONE["width"]

    row = page.locator("tbody tr").filter(has_text=NAMES[1])
    kept = [row.locator(f"td.{column}") for column in ("place", "name", "pts")]
    first_tiebreak = page.locator("thead th").nth(4)
    last_tiebreak = page.locator("thead th.num").last
    before = [left(cell) for cell in kept]
    tiebreak_before = left(first_tiebreak)
    assert all(on_screen(cell) for cell in kept)
    assert not on_screen(last_tiebreak)

    scroll_to_the_end(page.locator(".scroll").first)
    assert [left(cell) for cell in kept] == before
    assert all(on_screen(cell) for cell in kept)
    assert left(first_tiebreak) < tiebreak_before
    assert on_screen(last_tiebreak)
    expect(row.locator("td.name")).to_have_text(NAMES[1])
    assert page_width(page) <= PHONE["width"]


def test_the_crosstable_keeps_number_and_name_left_and_points_right(new_page, director):
    event = played_event(director)
    page = phone(new_page, f"/e/{event.slug}/crosstable/")
    assert page_width(page) <= PHONE["width"]
    row = page.locator("tbody tr").first
    number, name, points = row.locator("td").first, row.locator("td.name"), row.locator("td.pts")
    before = [left(number), left(name)]
    assert on_screen(points) and on_screen(name)

    scroll_to_the_end(page.locator(".scroll").first)
    assert [left(number), left(name)] == before
    assert on_screen(points) and on_screen(name)
    expect(page.locator("thead th", has_text="R7")).to_be_visible()
    assert on_screen(page.locator("thead th", has_text="R7"))
    assert page_width(page) <= PHONE["width"]


def test_the_gnot_pages_do_not_scroll_sideways_and_keep_the_home_team(new_page, director):
    event = seeded(director, teams=25, name="GNOT Phone")
    play_pending(event, director, LotDrawer("phone", "layout"), "1")
    page = phone(new_page, f"/e/{event.slug}/gnot/")
    assert page_width(page) <= PHONE["width"]
    matches = page.locator("table.matches").first
    home = matches.locator("tbody tr").first.locator("td").nth(2)
    expect(home).to_be_visible()
    before = left(home)
    scroll_to_the_end(matches.locator("xpath=.."))
    assert on_screen(home) and left(home) <= before
    page.goto(f"/e/{event.slug}/gnot/swiss/")
    assert page_width(page) <= PHONE["width"]
