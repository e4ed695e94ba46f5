"""Paper in a real browser: the standings, the crosstable, the prize sheet and the printable
sheets (pairing list, standings, wall chart) printed with the print stylesheet. No navigation
on paper, the event's name above the heading instead, rows that never split, A4 (landscape for
the prize sheet and a wide wall chart), and a pairing list whose pages end between two blocks
of boards.

Every wait is on something the user would see, never a sleep.
"""

from __future__ import annotations

import re
from io import BytesIO

import pytest
from playwright.sync_api import Page, expect
from pypdf import PdfReader

from draws.pdf import BOARDS_PER_BLOCK
from events.models import Event, Player
from events.services import PairingInput, round_pairings_set
from prizes.services import prize_sheet_approve
from tests.conftest import make_event
from tests.prizes.conftest import ADDENDUM_FUND, gct_event

pytestmark = pytest.mark.browser

NAMES = ("Zoë Ødegård-Łukasiewicz", "Jean-Baptiste de la Fontaine-Rivière", "Ηλίας Παπαδόπουλος")
RESULTS = ("1-0", "1/2-1/2", "0-1")
A4 = (595, 842)  # points, upright


def circle_pairings(players: int, number: int) -> list[tuple[int, int]]:
    """Round ``number`` of a round robin by the circle method: nobody meets anyone twice."""
    field = list(range(1, players + 1))
    for _ in range(number - 1):
        field = [field[0], field[-1], *field[1:-1]]
    return [(field[i], field[players - 1 - i]) for i in range(players // 2)]


def played_event(director, *, players: int = 12, rounds: int = 7, played: int = 2) -> Event:  # type: ignore[no-untyped-def]
    """A Swiss with long names in three alphabets, ``played`` rounds with results and the next
    one paired and waiting for its results."""
    event = make_event(director, name="Café Open", players=players, rounds=rounds)
    for start_no, name in enumerate(NAMES, 1):
        Player.objects.filter(event=event, start_no=start_no).update(name=name)
    for number in range(1, played + 2):
        pairings = [
            PairingInput(board, white, black, RESULTS[board % 3] if number <= played else "")
            for board, (white, black) in enumerate(circle_pairings(players, number), 1)
        ]
        round_pairings_set(event=event, round_no=number, pairings=pairings, user=director)
    event.refresh_from_db()
    return event


def printed(page: Page, path: str) -> PdfReader:
    page.emulate_media(media="print")
    page.goto(path)
    return PdfReader(BytesIO(page.pdf(prefer_css_page_size=True)))


def size(reader: PdfReader) -> tuple[int, int]:
    box = reader.pages[0].mediabox
    return round(float(box.width)), round(float(box.height))


def expect_no_navigation(page: Page, event: Event) -> None:
    expect(page.locator("header.top")).to_be_hidden()
    expect(page.locator("nav.event-nav")).to_be_hidden()
    for link in page.locator(".no-print").all():
        expect(link).to_be_hidden()
    expect(page.locator(".print-only")).to_have_text(event.name)
    expect(page.locator("h1")).to_be_visible()


def expect_rows_kept_whole(page: Page) -> None:
    row = page.locator("tbody tr").first
    expect(row).to_be_visible()
    assert row.evaluate("tr => getComputedStyle(tr).breakInside") == "avoid"
    header = page.locator("thead").first
    assert header.evaluate("h => getComputedStyle(h).display") == "table-header-group"


@pytest.mark.parametrize("page_name", ["standings", "crosstable"])
def test_the_live_pages_print_without_navigation(new_page, director, page_name):
    event = played_event(director)
    page = new_page()
    reader = printed(page, f"/e/{event.slug}/{page_name}/")
    expect_no_navigation(page, event)
    expect_rows_kept_whole(page)
    expect(page.locator("table").first).to_contain_text(NAMES[0])
    expect(page.locator(".scroll-hint")).to_be_hidden()
    assert size(reader) == A4


def test_the_prize_sheet_prints_on_landscape_a4_without_navigation(new_page, director, tmp_path):
    event = gct_event(tmp_path, "gct-print", ADDENDUM_FUND, director=director)
    prize_sheet_approve(event=event, user=director)
    page = new_page()
    reader = printed(page, f"/e/{event.slug}/prizes/")
    expect_no_navigation(page, event)
    expect_rows_kept_whole(page)
    expect(page.locator(".prize-table").first).to_contain_text("72,500")
    assert size(reader) == A4[::-1]
    assert "72,500" in reader.pages[0].extract_text()


def test_the_pairing_sheet_prints_with_its_qr_code_and_breaks_between_blocks(new_page, director):
    event = played_event(director, players=80, played=0)  # 40 boards: more than one page
    page = new_page()
    reader = printed(page, f"/e/{event.slug}/rounds/1/print/")
    expect(page.locator(".no-print")).to_be_hidden()
    expect(page.locator("svg.qr")).to_be_visible()
    expect(page.get_by_text(f"Live results: {page.url.split('/rounds')[0]}/")).to_be_visible()
    expect(page.locator("tbody.block")).to_have_count(40 // BOARDS_PER_BLOCK)
    assert size(reader) == A4 and len(reader.pages) > 1
    for sheet in reader.pages[:-1]:
        boards = [int(n) for n in re.findall(r"^(\d+) \d+\. ", sheet.extract_text(), re.M)]
        assert boards and max(boards) % BOARDS_PER_BLOCK == 0, boards


@pytest.mark.parametrize(
    ("rounds", "expected"),
    [pytest.param(5, A4, id="five-rounds-upright"), pytest.param(9, A4[::-1], id="nine-landscape")],
)
def test_the_wall_chart_turns_to_landscape_when_the_rounds_need_it(
    new_page, director, rounds, expected
):
    event = played_event(director, rounds=rounds)
    page = new_page()
    reader = printed(page, f"/e/{event.slug}/crosstable/print/")
    expect(page.locator(".no-print")).to_be_hidden()
    expect(page.locator("table.wall-chart")).to_contain_text(NAMES[1])
    assert size(reader) == expected
