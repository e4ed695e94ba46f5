"""Issue 29: a player whose report the arbiter overruled reads so (not "Waiting for the
arbiter"), and on a phone the result page opens at the players' reports, not scrolled past
them to the first board without a result (which still has the focus for the keys)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from events.models import Game
from events.services import PairingInput, access_grant, game_result_record, round_pairings_set
from playerpage.services import player_links_issue
from tests.browser.test_player_page import PHONE, card_urls, on_the_phone, report
from tests.browser.test_result_entry import log_in
from tests.conftest import make_event

pytestmark = pytest.mark.browser

BOARDS = 20


def test_an_overruled_report_and_the_queue_on_a_phone(new_page, director, arbiter) -> None:  # type: ignore[no-untyped-def]
    event = make_event(director, name="Queue Open", players=2 * BOARDS, rounds=3)
    access_grant(event=event, username=arbiter.username, role="arbiter", user=director)
    pairings = [PairingInput(n, n, BOARDS + n) for n in range(1, BOARDS + 1)]
    round_pairings_set(event=event, round_no=1, pairings=pairings, user=director)
    player_links_issue(event=event, user=director)
    for number in range(1, 16):  # the first board without a result is board 16, far down
        game = Game.objects.get(round__event=event, board=number)
        game_result_record(game_id=game.pk, result="1-0", expected_version=None, user=director)

    desk = new_page()
    log_in(desk, director.username)
    player = on_the_phone(new_page, card_urls(desk, event)[17])  # White on board 17
    report(player, "1-0")
    expect(player.locator("#player-now")).to_contain_text("Waiting for the arbiter")

    table = new_page()
    table.set_viewport_size(PHONE)
    log_in(table, arbiter.username)
    table.goto(f"/e/{event.slug}/rounds/1/results/")
    queue = table.locator("#report-queue")
    expect(queue).to_be_in_viewport()
    assert table.evaluate("window.scrollY") == 0
    board_16 = Game.objects.get(round__event=event, board=16)
    expect(table.locator(f"#game-{board_16.pk}")).to_be_focused()

    # The arbiter enters another result than the one reported: the report is overruled.
    board_17 = Game.objects.get(round__event=event, board=17)
    table.locator(f"#game-{board_17.pk}").get_by_role("button", name="0-1").click()
    expect(table.locator("#round-progress")).to_have_text("16 of 20 results in")
    player.reload()
    expect(player.locator("#player-now")).to_contain_text("You reported 1-0 at")
    expect(player.locator("#player-now")).to_contain_text("Overruled: the arbiter entered 0-1")
    expect(player.locator("#player-now")).not_to_contain_text("Waiting for the arbiter")
