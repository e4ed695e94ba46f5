"""A team event at the venue, in a real browser (issue 29, "Team events at the venue"): the
director pairs from the top of the round page (at 1366×900, without scrolling) and sets the
line-up deadline; a captain reads it on a phone; an arbiter changes a line-up after the pairing,
then enters results at the desk by the keys, the match score filling as they go; the director,
on a page loaded before, meets the conflict card; an arbiter finishes the round by taps on a
390 px phone (a forfeit behind ⋯); a spectator lands on the team standings, crosstable, hall
screen and printed sheet from the chess addresses. Only the personas and the teams come from
the ORM; every wait is on something a person sees, never a sleep.
"""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from events.services import access_grant
from formats.teams import selectors, services
from formats.teams.models import BoardGame, TeamMatch
from tests.browser.test_result_entry import log_in
from tests.formats.teams.test_services import team_event

pytestmark = pytest.mark.browser

DESK = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}


def board_row(page: Page, table: int, board: int):  # type: ignore[no-untyped-def]
    return page.get_by_role("row", name=f"Table {table}, board {board}", exact=True)


def fits(page: Page, width: int) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def test_a_team_round_at_the_venue(new_page, director, arbiter) -> None:  # type: ignore[no-untyped-def]
    event = team_event(director, teams=4, boards=4, rounds=3)
    services.team_setup_update(
        event=event,
        fields=services.SetupFields(boards=4, lineups_close="deadline"),
        expected_version=selectors.setup_of(event).version,
        user=director,
    )
    access_grant(event=event, username=arbiter.username, role="arbiter", user=director)
    round_url = f"/e/{event.slug}/team/rounds/1/"

    # The director: the pairing first, within the screen; the deadline; pair and publish.
    boss = new_page()
    boss.set_viewport_size(DESK)
    log_in(boss, director.username)
    boss.goto(round_url)
    pair = boss.get_by_role("button", name="Pair round 1", exact=True)
    box = pair.bounding_box()
    assert box is not None and box["y"] + box["height"] <= DESK["height"]
    closes = timezone.localtime(timezone.now() + dt.timedelta(hours=1))
    boss.get_by_label("Line-ups close at").fill(f"{closes:%Y-%m-%dT%H:%M}")
    boss.get_by_role("button", name="Save the deadline").click()
    expect(boss.get_by_role("status")).to_have_text("Line-up deadline saved.")
    boss.get_by_role("button", name="Pair round 1", exact=True).click()
    expect(boss.get_by_role("status")).to_contain_text("Its line-ups stay open until")
    boss.get_by_role("button", name="Publish round 1").click()
    expect(boss.get_by_role("status")).to_have_text("Round 1 published.")

    # A captain on a phone: the deadline.
    captain = new_page()
    captain.set_viewport_size(PHONE)
    captain.goto(round_url)
    expect(captain.locator("#lineup-window")).to_have_text(
        f"Line-ups for round 1 close at {closes:%Y-%m-%d %H:%M} "
        f"({timezone.get_current_timezone_name()})."
    )
    fits(captain, PHONE["width"])

    # An arbiter at the desk: team 1's reserve on board 4, after the pairing.
    desk = new_page()
    desk.set_viewport_size(DESK)
    log_in(desk, arbiter.username)
    desk.goto(round_url)
    desk.get_by_label("Line-up of 1. Team 1").fill("1 2 3 5")
    desk.get_by_label("Line-up of 1. Team 1").press("Enter")
    expect(desk.get_by_role("status")).to_have_text("Line-up of team 1 saved.")
    first = TeamMatch.objects.get(round__event=event, table=1)
    expect(desk.locator("#match-1")).to_contain_text("5. Player T1B5")

    # ... then the results by the keys: table 1's four boards and table 2's board 1.
    board_row(desk, 1, 1).locator("td.board").click()
    progress, status = desk.locator("#round-progress"), desk.locator("#match-1 .match-status")
    for done, key in enumerate(["1", "=", "0", "1", "="], start=1):
        desk.keyboard.press(key)
        expect(progress).to_contain_text(f"{done} of 8 board results in")
    expect(status).to_contain_text("2½–1½")
    expect(status).to_contain_text("4 of 4 boards, decided")
    expect(status).to_contain_text("Saved")
    expect(board_row(desk, 1, 2).get_by_role("button", name="½-½")).to_have_attribute(
        "aria-pressed", "true"
    )
    assert first.games.get(board=4).result == "1-0"

    # The director's page was loaded before: the conflict card, and the saved result kept.
    board_row(boss, 2, 1).get_by_role("button", name="0-1", exact=True).click()
    conflict = board_row(boss, 2, 1).get_by_role("alert")
    expect(conflict).to_contain_text("Saved now: ½-½ · yours: 0-1")
    conflict.get_by_role("link", name="Keep saved").click()
    expect(board_row(boss, 2, 1).get_by_role("button", name="½-½")).to_have_attribute(
        "aria-pressed", "true"
    )
    second = TeamMatch.objects.get(round__event=event, table=2)
    assert second.games.get(board=1).result == "1/2-1/2"

    # An arbiter on a phone taps the rest, a board forfeit behind ⋯; the round is complete.
    phone = new_page()
    phone.set_viewport_size(PHONE)
    log_in(phone, arbiter.username)
    phone.goto(round_url)
    for board, label in ((2, "1-0"), (3, "0-1")):
        board_row(phone, 2, board).get_by_role("button", name=label, exact=True).click()
        expect(board_row(phone, 2, board).get_by_role("button", name=label)).to_have_attribute(
            "aria-pressed", "true"
        )
    board_row(phone, 2, 4).get_by_text("⋯").click()
    board_row(phone, 2, 4).get_by_role("button", name="+/−").click()
    expect(phone.locator("#round-progress")).to_contain_text("8 of 8 board results in")
    expect(phone.locator("#round-progress")).to_contain_text("round complete")
    expect(phone.locator("#match-2 .match-status")).to_contain_text("2½–1½")
    expect(phone.get_by_role("heading", name="Round 1 is complete: next")).to_be_visible()
    fits(phone, PHONE["width"])
    assert not BoardGame.objects.filter(match__round__event=event, result="").exists()

    # A spectator: the chess addresses answer with the teams.
    spectator = new_page()
    spectator.set_viewport_size(DESK)
    spectator.goto(f"/e/{event.slug}/standings/")
    expect(spectator).to_have_url(re.compile(f"/e/{event.slug}/team/standings/$"))
    headers = spectator.locator("#team-standings thead th")
    expect(headers.filter(has_text="MP")).to_have_count(1)
    expect(headers.filter(has_text="GP")).to_have_count(1)
    expect(spectator.locator("#team-standings tbody tr")).to_have_count(4)
    spectator.goto(f"/e/{event.slug}/crosstable/")
    expect(spectator.locator("#team-crosstable")).to_be_visible()
    spectator.get_by_role("link", name="Printable standings (A4)").click()
    expect(spectator.locator("h1")).to_have_text(event.name)
    expect(spectator.locator("table tbody tr")).to_have_count(4)
    pdf = spectator.request.get(f"/e/{event.slug}/standings/print.pdf")
    assert pdf.ok and pdf.headers["content-type"] == "application/pdf"
    spectator.goto(f"/e/{event.slug}/hall/")
    pairings = spectator.locator("#hall-pairings")
    expect(pairings).to_be_visible()
    expect(pairings).to_contain_text("Round 1")
    expect(pairings.locator("table.hall-match").first).to_contain_text("2½–1½")
    expect(spectator.locator("#hall-standings")).to_be_attached()
    expect(spectator.locator("#hall-boards")).to_be_attached()
    fits(spectator, DESK["width"])
    spectator.goto("/")
    expect(spectator.get_by_role("row").filter(has_text=event.name)).to_contain_text("In progress")
