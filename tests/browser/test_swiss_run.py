"""A 40-player Swiss of 7 rounds run in a real browser, from registration to the prize sheet,
without typing a pairing (issue 14's "done when").

The director creates the event, pastes the players, and for every round presses "Pair round
N", reviews and publishes the Dutch system's pairing and types the results; a requested bye
(round 3) and a withdrawal (after round 4) are recorded on the Swiss page on the way. A visitor
then reads the standings and the printable sheets, and the director sets the prizes and opens
the prize sheet. The ORM only creates the director (the persona fixture) and checks the end.

Every wait is on something the user would see, never a sleep.
"""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command
from django.db.models import Q
from playwright.sync_api import Locator, Page, expect

from events.models import Bye, Event, Game, Round
from tests.browser.test_result_entry import log_in

pytestmark = pytest.mark.browser

EVENT_NAME = "Autumn Swiss Open"
PLAYERS = 40
ROUNDS = 7
FEDERATIONS = ("NOR", "SWE", "DEN", "FIN", "ISL")
BYE_PLAYER, BYE_ROUND = 17, 3  # asks for a half-point bye before round 3 is paired
WITHDRAWN, WITHDRAWN_AFTER = 33, 4  # leaves after round 4
PRIZES = "1 1000\n2 600\n3 400"


def player_name(start_no: int) -> str:
    return f"Player {start_no:02d}"  # two digits: "Player 1" is no prefix of "Player 10"


def player_list() -> str:
    """The pasted registration: name, federation, rating, strongest first and all distinct, so
    the start numbers are the pasted order and equal the pairing numbers."""
    return "\n".join(
        f"{player_name(n)},{FEDERATIONS[n % len(FEDERATIONS)]},{2450 - 15 * n}"
        for n in range(1, PLAYERS + 1)
    )


def result_key(board: int) -> tuple[str, str]:
    """The key typed for a board and the button it presses: deterministic by board number."""
    if board % 2:
        return "1", "1-0"
    if board % 3 == 0:
        return "=", "½-½"
    return "0", "0-1"


def expected_seating(round_no: int) -> tuple[int, int]:
    """(boards, bye rows) of a round: the requested bye and the withdrawal leave 39 players,
    and an odd number of players gives one pairing-allocated bye."""
    requested = 1 if round_no == BYE_ROUND else 0
    available = PLAYERS - requested - (1 if round_no > WITHDRAWN_AFTER else 0)
    return available // 2, available % 2 + requested


def form_titled(page: Page, heading: str) -> Locator:
    """The card under a heading: a form, or a list with its add form (Requested byes)."""
    return page.locator(".card", has=page.get_by_role("heading", name=heading, exact=True))


def create_event(page: Page) -> str:
    page.goto("/events/new/")
    page.get_by_label("Name:", exact=True).fill(EVENT_NAME)
    page.get_by_label("System").select_option(label="Swiss")
    page.get_by_label("Time control").select_option(label="Classical")
    page.get_by_label("Rounds").fill(str(ROUNDS))
    page.get_by_label("Regulation preset").select_option("fide-2024")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("heading", name="Players", exact=True)).to_be_visible()
    expect(page.get_by_role("status")).to_contain_text(f"Created {EVENT_NAME}.")
    return page.url.rstrip("/").split("/")[-2]  # /e/SLUG/players/


def register_players(page: Page) -> None:
    page.get_by_label("Paste a list").fill(player_list())
    page.get_by_role("button", name="Register all").click()
    rows = page.locator("table").first.locator("tbody tr")
    expect(rows).to_have_count(PLAYERS)
    expect(rows.nth(BYE_PLAYER - 1)).to_contain_text(player_name(BYE_PLAYER))


def director_panel(page: Page, slug: str) -> Locator:
    page.goto(f"/e/{slug}/")
    return page.locator(".card").filter(
        has=page.get_by_role("heading", name="Director", exact=True)
    )


def open_swiss_page(page: Page, slug: str) -> None:
    director_panel(page, slug).get_by_role("link", name="Swiss pairing").click()
    expect(page.get_by_role("heading", name="Swiss pairing", exact=True)).to_be_visible()


def request_bye(page: Page) -> None:
    form = form_titled(page, "Requested byes")
    form.get_by_label("Start no.").fill(str(BYE_PLAYER))
    form.get_by_label("Round").fill(str(BYE_ROUND))
    form.get_by_label("Bye").select_option(label="Half-point bye")
    form.get_by_role("button", name="Record the bye").click()
    expect(page.get_by_role("status")).to_have_text("Bye recorded.")
    expect(form_titled(page, "Requested byes")).to_contain_text(
        f"Round {BYE_ROUND}: {BYE_PLAYER}. {player_name(BYE_PLAYER)} · Half-point bye"
    )


def record_withdrawal(page: Page) -> None:
    form = form_titled(page, "Withdrawals")
    form.get_by_label("Start no.").fill(str(WITHDRAWN))
    form.get_by_label("Withdrew after round").fill(str(WITHDRAWN_AFTER))
    form.get_by_role("button", name="Record", exact=True).click()
    expect(page.get_by_role("status")).to_have_text("Withdrawal recorded.")
    withdrawn = page.get_by_role("row").filter(has_text=player_name(WITHDRAWN))
    expect(withdrawn).to_contain_text(f"withdrawn after round {WITHDRAWN_AFTER}")


def pair_and_publish(page: Page, round_no: int) -> None:
    """Press "Pair round N", check the review page's boards and byes, publish."""
    page.get_by_role("button", name=f"Pair round {round_no}", exact=True).click()
    expect(page.get_by_role("heading", name=f"Round {round_no} pairing")).to_be_visible()
    boards, byes = expected_seating(round_no)
    rows = page.locator("table tbody tr")
    expect(rows).to_have_count(boards + byes)
    expect(rows.nth(boards - 1).locator("td").first).to_have_text(str(boards))
    if round_no == BYE_ROUND:
        requested = rows.filter(has_text=f"{BYE_PLAYER}. {player_name(BYE_PLAYER)}")
        expect(requested).to_contain_text("Half-point bye")
    if round_no > WITHDRAWN_AFTER:
        expect(page.locator("table")).not_to_contain_text(player_name(WITHDRAWN))
        expect(page.get_by_text("Not paired:")).to_contain_text(player_name(WITHDRAWN))
    page.get_by_role("button", name=f"Publish round {round_no}").click()
    expect(page.get_by_role("status")).to_have_text(f"Round {round_no} published.")
    expect(page.locator(".pill.done", has_text="published")).to_be_visible()


def enter_results(page: Page, slug: str, round_no: int) -> None:
    """Every result typed on a focused board row."""
    page.goto(f"/e/{slug}/rounds/{round_no}/results/")
    expect(page.get_by_role("heading", name=f"Results of round {round_no}")).to_be_visible()
    boards, _ = expected_seating(round_no)
    rows = page.locator("tr[data-game]")
    expect(rows).to_have_count(boards)
    for board in range(1, boards + 1):
        row = rows.nth(board - 1)
        key, label = result_key(board)
        row.get_by_role("button").first.focus()
        page.keyboard.press(key)
        pressed = row.get_by_role("button", name=label, exact=True)
        expect(pressed).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#round-progress")).to_have_text(
        f"{boards} of {boards} results in — round complete"
    )


def expect_nothing_to_click_in_print(page: Page, back_link: str) -> None:
    """On screen the sheet has its way back; printed, no link or button is left."""
    expect(page.get_by_role("link", name=back_link)).to_be_visible()
    page.emulate_media(media="print")
    expect(page.locator("nav:visible, a:visible, button:visible")).to_have_count(0)
    expect(page.locator("table tbody tr").first).to_be_visible()
    page.emulate_media(media="screen")


def check_public_pages(visitor: Page, slug: str) -> str:
    """The standings and the printable sheets as an anonymous visitor; returns the winner."""
    visitor.goto(f"/e/{slug}/standings/")
    expect(visitor.locator("header").get_by_role("link", name="Log in")).to_be_visible()
    table = visitor.locator("#standings-table")
    expect(table).to_contain_text(f"After round {ROUNDS} of {ROUNDS}")
    expect(table.locator("tbody tr")).to_have_count(PLAYERS)
    winner = table.locator("tbody tr").first.locator("td").nth(2).inner_text().strip()
    assert winner.startswith("Player ")

    visitor.get_by_role("link", name="Printable standings (A4)").click()
    expect(visitor.locator(".sub")).to_contain_text(f"Standings after round {ROUNDS} of {ROUNDS}")
    expect(visitor.locator("tbody tr")).to_have_count(PLAYERS)
    expect_nothing_to_click_in_print(visitor, "Back to the standings")

    visitor.goto(f"/e/{slug}/rounds/{ROUNDS}/print/")
    expect(visitor.locator(".sub")).to_contain_text(f"Round {ROUNDS} · pairings")
    expect_nothing_to_click_in_print(visitor, "Back to the round")
    return winner


def set_prizes_and_open_the_sheet(page: Page, slug: str, winner: str) -> None:
    director_panel(page, slug).get_by_role("link", name="Prizes", exact=True).click()
    fund = page.locator("#prize-fund")
    fund.get_by_label("Place prizes").fill(PRIZES)
    fund.get_by_role("button", name="Save the fund").click()
    expect(page.locator("#prize-fund")).to_contain_text("Prize fund saved.")
    expect(page.locator("#prize-fund")).to_contain_text("Total 2,000 USD")
    page.get_by_role("link", name="See the prize sheet").click()
    expect(page.get_by_role("heading", name="Prize sheet")).to_be_visible()
    first_place = page.locator("#prize-draft tbody tr").first
    expect(first_place).to_contain_text(winner)
    expect(first_place).to_contain_text("1,000")
    page.get_by_role("button", name="Approve and publish").click()
    expect(page.locator("#prize-sheet .prize-table tbody tr").first).to_contain_text(winner)


def assert_the_event_as_stored(slug: str) -> None:
    event = Event.objects.get(slug=slug)
    assert Round.objects.filter(event=event, published=True).count() == ROUNDS
    games = Game.objects.filter(round__event=event)
    assert games.count() == sum(expected_seating(n)[0] for n in range(1, ROUNDS + 1))
    assert not games.filter(result="").exists()
    meetings = [frozenset(pair) for pair in games.values_list("white_id", "black_id")]
    assert len(set(meetings)) == len(meetings), "two players met twice"
    after_withdrawal = games.filter(round__number__gt=WITHDRAWN_AFTER)
    withdrawn_games = Q(white__start_no=WITHDRAWN) | Q(black__start_no=WITHDRAWN)
    assert not after_withdrawal.filter(withdrawn_games).exists()
    assert Bye.objects.filter(
        round__event=event, round__number=BYE_ROUND, player__start_no=BYE_PLAYER, kind="half"
    ).exists()
    report = io.StringIO()
    call_command("pair", slug, "--check", stdout=report)  # SystemExit(1) on any difference
    assert json.loads(report.getvalue())["differences"] == 0


def test_a_40_player_swiss_runs_from_registration_to_the_prize_sheet(new_page, director):
    page = new_page()
    log_in(page, director.username)
    slug = create_event(page)
    register_players(page)

    for round_no in range(1, ROUNDS + 1):
        open_swiss_page(page, slug)
        if round_no == BYE_ROUND:
            request_bye(page)
        if round_no == WITHDRAWN_AFTER + 1:
            record_withdrawal(page)
        pair_and_publish(page, round_no)
        enter_results(page, slug, round_no)

    open_swiss_page(page, slug)
    expect(page.get_by_text("Every round has been paired.")).to_be_visible()

    winner = check_public_pages(new_page(), slug)
    set_prizes_and_open_the_sheet(page, slug, winner)
    assert_the_event_as_stored(slug)
