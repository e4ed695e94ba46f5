"""The player's phone (issue 21), in Chromium at 390 × 844: players open their cards' links,
see board and colour, report their results; two matching reports are in the public
standings, a disagreeing pair is resolved by the arbiter from the queue, and a lone report is
confirmed in one tap.

Every wait is on something the user would see, never a sleep.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from events.models import Event, Game
from events.services import PairingInput, round_pairings_set
from playerpage.services import player_links_issue
from tests.browser.test_result_entry import log_in
from tests.conftest import make_event

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}


def card_urls(desk: Page, event: Event) -> dict[int, str]:
    """The links printed on the cards, as the director's sheet shows them."""
    desk.goto(f"/e/{event.slug}/players/cards/")
    urls = {}
    for card in desk.locator(".player-card").all():
        start_no = int(card.locator(".card-name").inner_text().split(".")[0])
        urls[start_no] = card.locator(".card-url").inner_text()
    return urls


def on_the_phone(new_page, url: str) -> Page:  # type: ignore[no-untyped-def]
    phone = new_page()
    phone.set_viewport_size(PHONE)
    phone.goto(url)
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    return phone


def report(phone: Page, label: str) -> None:
    phone.locator("#report-form").get_by_role("button", name=label, exact=True).click()
    expect(phone.locator(".messages")).to_contain_text("Thank you")


def test_players_report_from_their_phones_and_the_arbiter_resolves_the_rest(
    new_page, director, arbiter
) -> None:  # type: ignore[no-untyped-def]
    from events.services import access_grant

    event = make_event(director, name="Phone Open", players=6, rounds=3)
    access_grant(event=event, username=arbiter.username, role="arbiter", user=director)
    pairings = [PairingInput(1, 1, 2), PairingInput(2, 3, 4), PairingInput(3, 5, 6)]
    round_pairings_set(event=event, round_no=1, pairings=pairings, user=director)
    player_links_issue(event=event, user=director)

    desk = new_page()
    log_in(desk, director.username)
    urls = card_urls(desk, event)
    assert sorted(urls) == [1, 2, 3, 4, 5, 6]

    # Board 1: both players report 1-0 → it is the result, on the public pages.
    white = on_the_phone(new_page, urls[1])
    expect(white.locator("#my-game")).to_contain_text("Board 1")
    expect(white.locator("#my-game")).to_contain_text("you play White")
    expect(white.locator("#my-game")).to_contain_text("2. Player 2")
    black = on_the_phone(new_page, urls[2])
    expect(black.locator("#my-game")).to_contain_text("you play Black")
    report(white, "1-0")
    expect(white.locator("#player-now")).to_contain_text("You reported 1-0")
    report(black, "1-0")
    expect(black.locator("#my-result")).to_have_text("1-0")
    spectator = new_page()
    spectator.goto(f"/e/{event.slug}/rounds/1/")
    expect(spectator.locator("tbody tr").first).to_contain_text("1-0")

    # Board 2: they disagree; board 3: one player reports. Nothing is entered.
    report(on_the_phone(new_page, urls[3]), "½-½")
    report(on_the_phone(new_page, urls[4]), "0-1")
    lone = on_the_phone(new_page, urls[6])
    report(lone, "0-1")
    assert not Game.objects.filter(round__event=event, board__in=(2, 3)).exclude(result="")

    # The arbiter's queue: the disagreement first, highlighted; then the lone report.
    table = new_page()
    log_in(table, arbiter.username)
    table.goto(f"/e/{event.slug}/rounds/1/results/")
    rows = table.locator("#report-queue tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text("The reports disagree")
    expect(rows.nth(0)).to_have_class("queue-disagree conflict")
    expect(rows.nth(1)).to_contain_text("6. Player 6: 0-1")
    # The disagreement: the arbiter asks the players and confirms the draw in one tap.
    rows.nth(0).get_by_role("button", name="Confirm ½-½").click()
    expect(table.locator(".messages")).to_contain_text("Confirmed.")
    # The lone report: confirmed as it is.
    table.locator("#report-queue").get_by_role("button", name="Confirm 0-1").click()
    expect(table.locator(".messages")).to_contain_text("Confirmed.")
    expect(table.locator("#report-queue")).to_contain_text("No report waits.")
    expect(table.locator("#round-progress")).to_have_text("3 of 3 results in — round complete")

    # Round 1 complete: the public standings show the three results.
    spectator.goto(f"/e/{event.slug}/standings/")
    for name, points in (
        ("Player 1", "1"),
        ("Player 3", "½"),
        ("Player 4", "½"),
        ("Player 6", "1"),
    ):
        row = spectator.locator("#standings-table tbody tr").filter(has_text=name)
        expect(row.locator("td.pts")).to_have_text(points)
    # The lone reporter's page shows the confirmed result and the score, by itself.
    expect(lone.locator("#my-result")).to_have_text("0-1", timeout=30_000)
    expect(lone.locator("#player-now")).to_contain_text("Score 1")
