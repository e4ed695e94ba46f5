"""A 25-team GNOT in a real browser (issue 8): the director types the event's own band table,
chooses it for the American Whist group (3.2.4.1), draws session 2a and sees the whist group;
later, lets the Double Knockout winner play the Swiss as a non-contending team (3.1.8).

Every wait is on something the user would see, never a sleep.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from draws.lots import LotDrawer
from formats.gnot import services
from formats.gnot.models import GnotSetup, SwissEntry
from tests.browser.test_result_entry import log_in
from tests.formats.gnot.helpers import choose_all, play_pending, seeded

pytestmark = pytest.mark.browser


def test_band_table_and_the_whist_group_on_screen(new_page, director):
    event = seeded(director, teams=25, name="GNOT Whist Browser")
    play_pending(event, director, LotDrawer("browser", "whist"), "1")
    page = new_page()
    log_in(page, director.username)
    page.goto(f"/e/{event.slug}/gnot/teams/")
    bands = page.get_by_label("Band table")
    # the shipped 14-board bands are the starting text
    assert bands.input_value().startswith("14 0 15 15\n14 3 16 14")
    # a table that is not a scale: the reason is shown where the director typed it
    bands.fill("8 0 15 15\n8 4 14 16")
    page.get_by_role("button", name="Save the band table").click()
    expect(page.locator("#band-table")).to_contain_text("at least the loser's")
    assert not GnotSetup.objects.filter(event=event).exclude(vp_bands={}).exists()
    page.get_by_label("Band table").fill("8 0 15 15\n8 4 18 12\n8 12 25 5")
    page.get_by_role("button", name="Save the band table").click()
    expect(page.get_by_label("Band table")).to_have_value("8 0 15 15\n8 4 18 12\n8 12 25 5")
    page.get_by_label("American Whist VP scale (3.2.4.1)").select_option("event-bands")
    page.locator("#whist-scale").get_by_role("button", name="Save").click()
    expect(page.get_by_label("American Whist VP scale (3.2.4.1)")).to_have_value("event-bands")

    page.goto(f"/e/{event.slug}/gnot/sessions/2a/")
    page.get_by_role("button", name="Draw session 2a").click()
    whist = page.locator("#whist-group")
    expect(whist).to_contain_text("The event's own band table, its 8-board table")
    expect(whist.locator("table").first.locator("tbody tr")).to_have_count(5)
    expect(page.locator("#whist-movement tbody tr")).to_have_count(5)


def test_director_lets_the_dko_winner_play_the_swiss(new_page, director):
    event = seeded(director, teams=16, name="GNOT Guest Browser")
    lots = LotDrawer("browser", "guest")
    play_pending(event, director, lots, "1")
    services.session_draw(event=event, session="2a", user=director)
    play_pending(event, director, lots, "2a")
    for session in ("2", "3", "4"):
        choose_all(event, director, session)
        play_pending(event, director, lots, session)
    page = new_page()
    log_in(page, director.username)
    page.goto(f"/e/{event.slug}/gnot/swiss/")
    page.locator("#dko-guest").get_by_role("button").click()
    expect(page.locator("#dko-guest")).to_contain_text("enters the next Swiss round paired")
    page.get_by_role("button", name="Pair Swiss round 1").click()
    expect(page.locator("#swiss-table abbr", has_text="NC")).to_have_count(1)
    assert SwissEntry.objects.filter(event=event, non_contending=True).count() == 1
