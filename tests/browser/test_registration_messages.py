"""Issue 29, registration at 1366 × 900 and on a 390 px phone: a refused duplicate and a
"possible duplicate" question are shown where the eye is (the top of the form, scrolled into
view and focused), and a successful Add says "Added NAME" above the forms with the focus back
in the first field, ready for the next player."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from events.services import PlayerFields, players_register_many
from tests.browser.test_result_entry import log_in
from tests.conftest import make_event

pytestmark = pytest.mark.browser

VIEWPORTS = {"desk": {"width": 1366, "height": 900}, "phone": {"width": 390, "height": 844}}


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_messages_where_the_eye_is(new_page, director, viewport) -> None:  # type: ignore[no-untyped-def]
    event = make_event(director, players=30, rounds=5)  # the forms are below 30 rows
    players_register_many(
        event=event,
        players=[PlayerFields(name="Holder, Ida", fide_id="1503014")],
        user=director,
        append=True,
    )
    page = new_page()
    page.set_viewport_size(VIEWPORTS[viewport])
    log_in(page, director.username)
    page.goto(f"/e/{event.slug}/players/")
    form = page.locator("#player-add")

    # A FIDE id registered already: refused, said at the top of the form, in view.
    form.get_by_label("Name:", exact=True).fill("Someone, Else")
    form.get_by_label("FIDE id:", exact=True).fill("1503014")
    form.get_by_role("button", name="Add").click()
    alert = page.locator("#player-add .form-alert")
    expect(alert).to_contain_text("1503014")
    expect(alert).to_be_in_viewport()
    expect(alert).to_be_focused()
    assert event.players.count() == 31

    # The same name: a question, in view; ticked, the player is added.
    form = page.locator("#player-add")
    form.get_by_label("Name:", exact=True).fill("Player 2")
    form.get_by_label("FIDE id:", exact=True).fill("")
    form.get_by_role("button", name="Add").click()
    alert = page.locator("#player-add .form-alert")
    expect(alert).to_contain_text("may be the same person as 2. Player 2")
    expect(alert).to_be_in_viewport()
    page.locator("#player-add").get_by_label("They are different people: register anyway").check()
    page.locator("#player-add").get_by_role("button", name="Add").click()

    added = page.locator("#registration-message")
    expect(added).to_have_text("Added 32. Player 2.")
    expect(added).to_be_in_viewport()
    expect(page.locator("#player-add").get_by_label("Name:", exact=True)).to_be_focused()
    expect(page.locator("#player-add .form-alert")).to_have_count(0)
    assert event.players.count() == 32
