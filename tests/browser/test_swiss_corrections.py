"""A result of round 1 corrected at the desk after round 2 was paired (issue 29): the notice
comes with the save, under the eye, and its buttons work from there (the notice is brought out
of band with the table row, where a plain <form> would be closed by the parser)."""

from __future__ import annotations

from playwright.sync_api import expect

from draws.swiss import services as swiss_services
from events.models import Game
from events.services import game_result_record
from tests.browser.test_result_entry import log_in
from tests.conftest import make_event


def test_a_correction_offers_to_re_pair_or_keep_the_next_round(new_page, director) -> None:  # type: ignore[no-untyped-def]
    event = make_event(director, players=8, rounds=5)
    swiss_services.swiss_round_pair(event=event, round_no=1, user=director)
    swiss_services.swiss_round_publish(event=event, round_no=1, user=director)
    for game in Game.objects.filter(round__event=event, round__number=1):
        game_result_record(game_id=game.pk, result="1-0", expected_version=None, user=director)
    swiss_services.swiss_round_pair(event=event, round_no=2, user=director)
    swiss_services.swiss_round_publish(event=event, round_no=2, user=director)

    page = new_page()
    log_in(page, director.username)
    page.goto(f"/e/{event.slug}/rounds/1/results/")
    notice = page.locator("#round-notices")
    expect(notice).to_be_empty()
    first = Game.objects.get(round__event=event, round__number=1, board=1)
    page.locator(f"#game-{first.pk}").get_by_role("button", name="0-1").click()
    expect(notice).to_contain_text("Round 2 was paired before this result changed")
    expect(notice).to_contain_text("Round 1, board 1: 1-0 → 0-1")
    notice.get_by_role("button", name="Keep round 2 as paired").click()
    expect(page.get_by_role("heading", name="Round 2 pairing")).to_be_visible()
    expect(page.get_by_text("Round 2 kept as paired")).to_be_visible()
    expect(page.get_by_text("as the Dutch system pairs it")).to_be_visible()

    page.goto(f"/e/{event.slug}/rounds/1/results/")
    second = Game.objects.get(round__event=event, round__number=1, board=2)
    page.locator(f"#game-{second.pk}").get_by_role("button", name="0-1").click()
    notice.get_by_role("button", name="Re-pair round 2").click()
    expect(page.get_by_role("heading", name="Round 2 pairing")).to_be_visible()
    expect(page.get_by_text("awaiting review")).to_be_visible()
    expect(page.get_by_text("as the Dutch system pairs it")).to_be_visible()
