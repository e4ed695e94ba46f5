"""Chess team events run in a real browser (issue #22's "done when"): a 12-team, 4-board,
7-round team Swiss from registration to the standings — a reserve used (round 2), a forfeited
board (round 1), a forfeited match (round 2), a requested bye that leaves 11 teams and so the
pairing-allocated bye (round 3) — and a 6-team double round robin. Only the director persona
comes from the ORM; every wait is on something the user sees, never a sleep.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from events.models import Event, Round
from formats.teams.models import BoardGame, LineUpBoard, TeamBye, TeamMatch
from tests.browser.test_result_entry import log_in

pytestmark = pytest.mark.browser

BOARDS = 4
RESERVE_TEAM, RESERVE_ROUND = 1, 2
BYE_TEAM, BYE_ROUND = 12, 3


def create(page: Page, name: str, system: str, rounds: int) -> str:
    page.goto("/events/new/")
    page.get_by_label("Name:", exact=True).fill(name)
    page.get_by_label("System").select_option(label=system)
    page.get_by_label("Time control").select_option(label="Classical")
    page.get_by_label("Rounds").fill(str(rounds))
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("status")).to_contain_text(f"Created {name}.")
    return page.url.rstrip("/").split("/")[-2]


def register(page: Page, slug: str, teams: int) -> None:
    page.goto(f"/e/{slug}/teams/")
    for t in range(1, teams + 1):
        roster = "\n".join(
            f"Player {t:02d}.{b},NOR,{2500 - 40 * t - 10 * b}" for b in range(1, BOARDS + 2)
        )
        page.get_by_label("Name", exact=True).fill(f"Team {t:02d}")
        page.get_by_label("Captain").fill(f"Captain {t}")
        page.get_by_label("Roster in board order").fill(roster)
        page.get_by_role("button", name="Register the team").click()
        expect(page.get_by_role("status")).to_have_text("Team registered.")
        expect(page.locator(f"#team-{t}")).to_contain_text(f"{t}. Team {t:02d}")


def results_for(table: int) -> list[str]:
    """Board results, the white team's player first: odd tables won by White 2.5-1.5, even
    tables by Black."""
    if table % 2:
        return ["1-0", "0-1", "1/2-1/2", "1-0"]
    return ["0-1", "1/2-1/2", "0-1", "1-0"]


KEYS = {"1-0": "1", "1/2-1/2": "=", "0-1": "0", "+/-": "+"}  # the result entry page's keys
TAPS = {"1-0": "1-0", "1/2-1/2": "½-½", "0-1": "0-1"}


def enter_cards(page: Page, round_no: int, matches: int, *, tap: bool = False) -> None:
    """The round's boards, table by table: at the desk by the keys (the next board is chosen
    after each save), on a phone (``tap``) by a tap each; round 2's table 2 is forfeited as a
    whole first."""
    progress = page.locator("#round-progress")
    forfeited = round_no == 2
    if forfeited:
        card = page.locator("#match-2")
        card.get_by_text("Whole match forfeited?").click()
        card.get_by_label("Whole match forfeited").select_option("+-")
        card.get_by_role("button", name="Save the forfeit").click()
        expect(page.locator("#match-2 .match-status")).to_contain_text("Saved")
    done = int(progress.inner_text().split()[0])
    if not tap:
        page.locator("#match-1 tbody tr").first.locator("td.board").click()  # chooses the row
    for table in range(1, matches + 1):
        if forfeited and table == 2:
            continue
        results = results_for(table)
        if round_no == 1 and table == 1:
            results[3] = "+/-"  # the black team's board 4 did not come
        rows = page.locator(f"#match-{table} tbody tr")
        for board, result in enumerate(results):
            if tap:
                rows.nth(board).get_by_role("button", name=TAPS[result], exact=True).click()
            else:
                page.keyboard.press(KEYS[result])
            done += 1
            expect(progress).to_contain_text(f"{done} of ")
        expect(page.locator(f"#match-{table} .match-status")).to_contain_text("4 of 4 boards")
    expect(progress).to_contain_text("round complete")


def pair_and_publish(page: Page, slug: str, round_no: int, matches: int) -> None:
    page.goto(f"/e/{slug}/team/rounds/{round_no}/")
    page.get_by_role("button", name=f"Pair round {round_no}", exact=True).click()
    expect(page.get_by_role("heading", name="Review the pairing")).to_be_visible()
    expect(page.locator(".match-card")).to_have_count(matches)
    page.get_by_role("button", name=f"Publish round {round_no}").click()
    expect(page.get_by_role("status")).to_have_text(f"Round {round_no} published.")


def test_team_swiss_of_twelve_teams(browser, new_page, director) -> None:  # type: ignore[no-untyped-def]
    page = new_page()
    log_in(page, director.username)
    slug = create(page, "Team Swiss Cup", "Team Swiss (FIDE C.04.6)", 7)
    register(page, slug, 12)
    page.goto(f"/e/{slug}/team/rounds/")
    page.get_by_label("Team").select_option(str(BYE_TEAM))
    page.get_by_label("Round").fill(str(BYE_ROUND))
    page.get_by_label("Kind").select_option("half")
    page.get_by_role("button", name="Record the bye").click()
    expect(page.get_by_role("status")).to_have_text("Bye recorded.")
    for round_no in range(1, 8):
        if round_no == RESERVE_ROUND:
            page.goto(f"/e/{slug}/team/rounds/{round_no}/")
            lineup = page.locator(f"#lineup-{RESERVE_TEAM}")
            lineup.get_by_label("Line-up of").fill("1 2 3 5")  # 5: the reserve
            lineup.get_by_label("Line-up of").press("Enter")
            expect(page.get_by_role("status")).to_have_text(
                f"Line-up of team {RESERVE_TEAM} saved."
            )
        matches = 5 if round_no == BYE_ROUND else 6
        pair_and_publish(page, slug, round_no, matches)
        enter_cards(page, round_no, matches)
    page.goto(f"/e/{slug}/team/standings/")
    rows = page.locator("#team-standings tbody tr")
    expect(rows).to_have_count(12)
    leader = rows.first.locator("td").nth(2).inner_text()
    expect(page.locator("#team-crosstable thead th")).to_have_count(2 + 7)
    event = Event.objects.get(slug=slug)
    assert Round.objects.filter(event=event, published=True).count() == 7
    assert TeamBye.objects.filter(event=event, round_no=BYE_ROUND, kind="pairing").count() == 1
    assert TeamBye.objects.filter(event=event, round_no=BYE_ROUND, kind="half").count() == 1
    assert LineUpBoard.objects.filter(
        lineup__round_no=RESERVE_ROUND, board=4, player__start_no=5
    ).exists()
    assert TeamMatch.objects.filter(round__event=event, forfeit="+-").count() == 1
    assert BoardGame.objects.filter(match__round__event=event, result="+/-").count() >= 1
    assert not BoardGame.objects.filter(match__round__event=event, result="").exists()
    page.goto(f"/e/{slug}/team/boards/")
    expect(page.locator("#board-ranking tbody tr").first).to_be_visible()
    prize_sheets(page, slug, leader)


def prize_sheets(page: Page, slug: str, leader: str) -> None:
    """The team and board prize sheets: board prizes in the team settings, the place prizes
    on the prizes page (reached from the event's navigation), the draft, approval."""
    page.goto(f"/e/{slug}/teams/")
    page.get_by_label("Board prizes").fill("200, 100")
    page.get_by_label("Minimum games for a board prize").fill("5")
    page.get_by_label("Board prizes").press("Enter")
    expect(page.get_by_role("status")).to_have_text("Settings saved.")
    page.goto(f"/e/{slug}/")
    page.locator("nav.event-nav").get_by_role("link", name="Prizes", exact=True).click()
    expect(page.get_by_role("heading", name="Prize sheet")).to_be_visible()
    page.get_by_role("link", name="Prize fund, settings and categories").click()
    fund = page.locator("#prize-fund")
    fund.get_by_label("Place prizes").fill("1 1000\n2 600\n3 400")
    fund.get_by_role("button", name="Save the fund").click()
    expect(fund).to_contain_text("Prize fund saved.")
    page.get_by_role("link", name="See the prize sheet").click()
    draft = page.locator("#prize-draft")
    expect(draft.locator(".prize-table tbody tr").first).to_contain_text(leader)
    board_rows = draft.locator(".board-prizes tbody tr")
    expect(board_rows.first).to_contain_text("%")
    for board in range(1, BOARDS + 1):
        expect(
            board_rows.filter(has=page.locator("td:first-child", has_text=str(board))).first
        ).to_be_visible()
    page.get_by_role("button", name="Approve and publish").click()
    expect(page.locator("#prize-sheet .board-prizes")).to_be_visible()
    expect(page.locator("#prize-sheet .prize-table tbody tr").first).to_contain_text(leader)


def test_team_double_round_robin_of_six(browser, new_page, director) -> None:  # type: ignore[no-untyped-def]
    page = new_page()
    log_in(page, director.username)
    slug = create(page, "Club League", "Team double round robin", 10)
    register(page, slug, 6)
    for round_no in range(1, 11):
        if round_no == 10:  # the last round's cards on a phone: nothing wider than the screen
            page.set_viewport_size({"width": 390, "height": 844})
        pair_and_publish(page, slug, round_no, 3)
        enter_cards(page, round_no, 3, tap=round_no == 10)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.goto(f"/e/{slug}/team/standings/")
    expect(page.locator("#team-standings tbody tr")).to_have_count(6)
    event = Event.objects.get(slug=slug)
    met: dict[frozenset[int], list[int]] = {}
    for white, black in TeamMatch.objects.filter(round__event=event).values_list(
        "white__team_no", "black__team_no"
    ):
        met.setdefault(frozenset((white, black)), []).append(white)
    assert len(met) == 15  # every pair of six teams
    assert all(len(whites) == 2 and len(set(whites)) == 2 for whites in met.values())
