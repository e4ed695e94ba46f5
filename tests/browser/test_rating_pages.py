"""The rating report's pages in Chromium, on a phone (390 × 844) and at the desk (1280 × 800):
the report, a player's games with K and where it comes from, and the answer to "what do I need
in the last round for the norm?" on the player's rating page and on their private page.

The event is tests/fiderating/helpers.norm_event after 8 rounds: player 1 (2450) is on course
for a GM and an IM norm, and round 9 is paired. Every wait is on something the user would see.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from playerpage.selectors import player_links
from playerpage.services import player_links_issue
from tests.fiderating.helpers import norm_event

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
DESK = {"width": 1280, "height": 800}


def opened(new_page, path: str, viewport: dict[str, int]) -> Page:  # type: ignore[no-untyped-def]
    page = new_page()
    page.set_viewport_size(viewport)
    page.goto(path)
    return page


def page_width(page: Page) -> int:
    return int(page.evaluate("document.documentElement.scrollWidth"))


def overflows(page: Page, selector: str) -> bool:
    return bool(page.locator(selector).first.evaluate("s => s.scrollWidth > s.clientWidth"))


@pytest.fixture
def event(tmp_path: Path):  # type: ignore[no-untyped-def]
    return norm_event(tmp_path, played=8, slug="norm-8")


@pytest.mark.parametrize("viewport", [PHONE, DESK], ids=["phone", "desk"])
def test_the_player_s_rating_page_answers_what_the_last_round_needs(
    new_page, event, viewport: dict[str, int]
) -> None:
    page = opened(new_page, f"/e/{event.slug}/rating/players/1/", viewport)
    answer = page.locator("#next-round")
    expect(answer.locator("h3")).to_contain_text("What round 9 needs against")
    expect(answer.locator("li").filter(has_text="GM norm:")).to_be_visible()
    expect(answer.locator("li").filter(has_text="IM norm:")).to_be_visible()
    expect(page.locator("#rating-summary")).to_contain_text("K 10 by B.02 8.3.3")
    expect(page.locator("table.rated-games tbody tr")).to_have_count(8)
    assert page_width(page) <= viewport["width"]  # the page never scrolls sideways
    answer.scroll_into_view_if_needed()
    box = answer.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]
    if viewport is DESK:
        assert not overflows(page, ".scroll")  # the games' table fits beside nothing


@pytest.mark.parametrize("viewport", [PHONE, DESK], ids=["phone", "desk"])
def test_the_report_s_table_scrolls_inside_itself_on_a_phone(
    new_page, event, viewport: dict[str, int]
) -> None:
    page = opened(new_page, f"/e/{event.slug}/rating/", viewport)
    row = page.locator("#player-1")
    expect(row.locator("td.name")).to_contain_text("Seeker, Nora")
    expect(page.locator("#rating-report tbody tr")).to_have_count(10)
    assert page_width(page) <= viewport["width"]
    if viewport is DESK:
        assert not overflows(page, ".scroll")
        expect(row.locator("td").nth(3)).to_have_text("10")  # K, every column on screen
    row.locator("td.name a").click()
    expect(page.locator("#next-round h3")).to_contain_text("What round 9 needs")


def test_the_player_s_own_page_on_a_phone_says_what_round_9_needs(new_page, event) -> None:
    player_links_issue(event=event, user=None)
    token = next(link.token for link in player_links(event) if link.start_no == 1)
    page = opened(new_page, f"/p/{token}/", PHONE)
    block = page.locator("#my-rating")
    expect(block).to_contain_text("For a norm, round 9 against")
    expect(block.locator("li").filter(has_text="GM norm:")).to_be_visible()
    assert page_width(page) <= PHONE["width"]
    block.get_by_role("link", name="Your games, their terms and your norms").click()
    expect(page.locator("#next-round h3")).to_contain_text("What round 9 needs")
