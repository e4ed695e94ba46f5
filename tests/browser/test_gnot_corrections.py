"""A GNOT match page in a real browser (issue 8): the director enters a result, undoes it from
the match's changes, and marks the match as deciding a final spot; each step swaps the page's
match region with htmx and the tie rule shown follows.

Every wait is on something the user would see, never a sleep.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from formats.gnot.models import TeamMatch
from tests.browser.test_result_entry import log_in
from tests.formats.gnot.helpers import gnot_event
from tests.formats.gnot.test_corrections import ko_match

pytestmark = pytest.mark.browser


def test_director_undoes_a_result_and_marks_a_final_spot(new_page, director):
    event = gnot_event(director, teams=16, name="GNOT Browser")
    row = ko_match(event, "4", 28, "full")
    page = new_page()
    log_in(page, director.username)
    page.goto(f"/e/{event.slug}/gnot/matches/{row.pk}/")
    rule = page.locator("#tie-rule")
    expect(rule).to_contain_text("1.9.3 (28-board match)")

    page.get_by_label("Team 1 IMPs").fill("52")
    page.get_by_label("Team 2 IMPs").fill("31")
    page.get_by_role("button", name="Save the match result").click()
    changes = page.locator("#match-corrections tbody tr")
    expect(changes).to_have_count(1)
    expect(changes.first).to_contain_text("52–31")

    page.get_by_role("button", name="Undo").click()
    expect(page.locator("#match-corrections [role=status]")).to_contain_text("Undid: session 4")
    expect(page.locator("#match-form")).to_contain_text("not played")
    expect(changes).to_have_count(2)
    expect(changes.nth(1)).to_contain_text("undone")
    assert TeamMatch.objects.get(pk=row.pk).status == "scheduled"

    page.get_by_role("button", name="Mark as deciding a final spot (1.9.3)").click()
    expect(rule).to_contain_text("1.9.3 (final spot)")
    expect(rule).to_contain_text("four board playoff")
    expect(page.get_by_role("button", name="Unmark: its tie decides no final spot")).to_be_visible()

    # the form carries the new version: a tie entered now asks for the four-board playoff
    page.get_by_label("Team 1 IMPs").fill("40")
    page.get_by_label("Team 2 IMPs").fill("40")
    page.get_by_role("button", name="Save the match result").click()
    expect(page.locator("#match-form .notice").first).to_contain_text(
        "play a 4-board playoff (1.9.3-final-spot)"
    )
    # the tie is waiting for its playoff: the mark may still change
    expect(page.get_by_role("button", name="Unmark: its tie decides no final spot")).to_be_visible()
