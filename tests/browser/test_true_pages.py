"""Issue 20, "Pages that say what is true" and "Printing", in Chromium at 1366 × 900 and on a
390 px phone: the event page's status and Next card of a format of its own (GNOT), the denied
page, the live crosstable's provisional totals, category prizes from form fields (Enter saves
what was typed), and the alphabetical "find your board" sheet on A4.

Every wait is on something the user would see, never a sleep.
"""

from __future__ import annotations

import re
from io import BytesIO

import pytest
from django.core.management import call_command
from playwright.sync_api import Page, expect
from pypdf import PdfReader

from events.models import Game
from events.services import game_result_record
from prizes.models import CategoryPrize
from tests.browser.test_result_entry import log_in

pytestmark = pytest.mark.browser

VIEWPORTS = {"desktop": {"width": 1366, "height": 900}, "phone": {"width": 390, "height": 844}}


def opened(new_page, viewport: str) -> Page:  # type: ignore[no-untyped-def]
    page = new_page()
    page.set_viewport_size(VIEWPORTS[viewport])
    return page


def fits_the_width(page: Page) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"))


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_the_gnot_event_page_says_where_the_knockouts_are_and_what_is_next(
    db, new_page, viewport, django_user_model
) -> None:  # type: ignore[no-untyped-def]
    call_command("load_demo", verbosity=0, stdout=open("/dev/null", "w"))  # noqa: SIM115
    user = django_user_model.objects.get(username="director")
    user.set_password("pw-director")
    user.save()
    page = opened(new_page, viewport)
    log_in(page, "director")
    page.goto("/e/gnot-2012/")
    status = page.locator("#event-status")
    expect(status).to_contain_text("matches decided")
    expect(status).not_to_contain_text("Registration")
    card = page.locator("#next-card")
    expect(
        card.get_by_role("link", name=re.compile(r"^Enter Session 3 \(Double KO\)'s results"))
    ).to_be_visible()
    card.get_by_role("link", name=re.compile(r"^Enter Session 3")).click()
    expect(page).to_have_url(re.compile(r"/gnot/sessions/3/$|/gnot/session/3/$|/3/$"))
    page.goto("/e/mso-settlers-2021/")
    expect(page.locator("#event-status")).to_have_text("Round 3 of 3 complete")
    expect(page.locator("#next-card")).not_to_contain_text("Pair round 1")
    assert fits_the_width(page)


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_an_arbiter_on_a_directors_page_is_told_what_to_do_and_whom_to_ask(
    event, arbiter, director, new_page, viewport
) -> None:  # type: ignore[no-untyped-def]
    page = opened(new_page, viewport)
    log_in(page, arbiter.username)
    response = page.goto(f"/e/{event.slug}/players/")
    assert response is not None and response.status == 403
    expect(
        page.get_by_role("heading", name=f"This page of {event.name} is not open to you")
    ).to_be_visible()
    expect(page.locator("main")).to_contain_text("you may enter and correct its results")
    expect(page.locator("main")).to_contain_text(f"ask the event's director: {director.username}")
    page.get_by_role("link", name=re.compile("The event page")).click()
    expect(page.locator("#next-card")).to_contain_text("Enter round 1's results")
    assert fits_the_width(page)


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_the_crosstable_marks_live_totals_while_the_standings_count_complete_rounds(
    event, new_page, viewport
) -> None:  # type: ignore[no-untyped-def]
    first = Game.objects.get(round__event=event, board=1)
    game_result_record(game_id=first.pk, result="1-0", expected_version=first.version, user=None)
    page = opened(new_page, viewport)
    page.goto(f"/e/{event.slug}/crosstable/")
    expect(page.locator("#live-note")).to_contain_text("live and provisional")
    expect(page.locator("table.crosstable thead")).to_contain_text("Pts*")
    page.locator("#live-note").get_by_role("link", name="standings").click()
    expect(page.locator("#live-note")).to_contain_text("Round 1 is in progress (1 of 2 results)")


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_a_category_prize_from_the_fields_enter_saves_what_was_typed(
    event, director, new_page, viewport
) -> None:  # type: ignore[no-untyped-def]
    page = opened(new_page, viewport)
    log_in(page, director.username)
    page.goto(f"/e/{event.slug}/prizes/setup/")
    section = page.locator("#prize-categories")
    section.get_by_label("Code", exact=True).fill("u1990")
    section.get_by_label("Amounts").fill("50")
    section.get_by_label("Rating at most").fill("1985")
    section.get_by_label("Name", exact=True).fill("Best under 1990")
    section.get_by_label("Name", exact=True).press("Enter")
    expect(page.locator("#prize-categories")).to_contain_text("Best under 1990")
    record = CategoryPrize.objects.get(event=event, code="u1990")
    assert record.conditions == [{"field": "rating", "op": "le", "value": 1985}]
    assert fits_the_width(page)


def test_find_your_board_prints_on_one_upright_a4_page(event, new_page) -> None:  # type: ignore[no-untyped-def]
    page = new_page()
    page.emulate_media(media="print")
    page.goto(f"/e/{event.slug}/rounds/1/print/find/")
    expect(page.locator("#find-board tbody tr")).to_have_count(4)
    expect(page.locator("#find-board tbody tr").first).to_contain_text("Player 1")
    pdf = PdfReader(BytesIO(page.pdf(prefer_css_page_size=True)))
    assert len(pdf.pages) == 1
    box = pdf.pages[0].mediabox
    assert box.width < box.height
    assert "Player 4" in pdf.pages[0].extract_text()
