"""Names that are HTML, scripts, very long or not Latin, in a real browser (issue 9).

Every page that shows them must show them as text: no script of theirs runs
(``window.pwned`` stays undefined, no dialog opens), no element of theirs exists, and the
browser reports no Content-Security-Policy violation at all (our own pages have no inline
script or style, so any violation would be ours or an injection).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from events.models import Event, Game, Player
from events.services import (
    PairingInput,
    PlayerFields,
    access_grant,
    game_result_record,
    players_register_many,
    round_pairings_set,
)
from tests.browser.test_result_entry import log_in
from tests.conftest import make_event

pytestmark = pytest.mark.browser

SCRIPT = "<script>window.pwned=1</script>"
IMAGE = '"><img src=x onerror="window.pwned=2">'
LONGEST = "Ω" + "x" * 198 + "Z"  # 200 characters: the longest name a player may have
ARABIC = "عبد الرحمن، محمد"
CHINESE = "丁立人"
TEMPLATE = "{{ 7|add:7 }} {% now 'Y' %} &amp;"
NAMES = [SCRIPT, IMAGE, LONGEST, ARABIC, CHINESE, TEMPLATE]

# Collects what the browser reports: CSP violations (the DOM event) and dialogs opened.
WATCH = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__csp.push(e.violatedDirective + " " + e.blockedURI);
});
"""


@pytest.fixture
def hostile_event(director, arbiter) -> Event:
    event = make_event(director, name="Hostile Open", players=0)
    players_register_many(
        event=event, players=[PlayerFields(name=name) for name in NAMES], user=director
    )
    access_grant(event=event, username=arbiter.username, role="arbiter", user=director)
    round_pairings_set(
        event=event,
        round_no=1,
        pairings=[PairingInput(1, 1, 2), PairingInput(2, 3, 4), PairingInput(3, 5, 6)],
        user=director,
    )
    first = Game.objects.get(round__event=event, board=1)
    game_result_record(game_id=first.pk, result="1-0", expected_version=None, user=director)
    event.refresh_from_db()
    return event


@pytest.fixture
def watched(new_page):  # type: ignore[no-untyped-def]
    """A page whose CSP violations, console errors and dialogs are recorded."""
    opened: list[tuple[Page, list[str]]] = []

    def open_page() -> Page:
        page = new_page()
        problems: list[str] = []
        page.add_init_script(WATCH)
        page.on(
            "dialog", lambda dialog: (problems.append(f"dialog {dialog.message}"), dialog.dismiss())
        )
        page.on(
            "console",
            lambda message: message.type == "error" and problems.append(f"console {message.text}"),
        )
        opened.append((page, problems))
        return page

    yield open_page
    for _, problems in opened:
        assert problems == [], problems


def assert_shown_as_text(page: Page, names: list[str]) -> None:
    body = page.locator("body").inner_text()
    for name in names:
        assert name in body, f"{name[:40]!r} is not shown as text on {page.url}"
    assert page.evaluate("typeof window.pwned") == "undefined"
    assert page.locator("img[src='x']").count() == 0
    assert page.evaluate("window.__csp") == [], page.evaluate("window.__csp")


# The event's front page lists no players; the others list them all.
PUBLIC_PAGES = {
    "/e/{slug}/": [],
    "/e/{slug}/crosstable/": NAMES,
    "/e/{slug}/standings/": NAMES,
    "/e/{slug}/rounds/1/": NAMES,
}


def test_public_pages_show_hostile_names_as_text(watched, hostile_event):
    page = watched()
    for path, names in PUBLIC_PAGES.items():
        page.goto(path.format(slug=hostile_event.slug))
        assert_shown_as_text(page, names)


def test_result_entry_and_audit_log_show_hostile_names_as_text(watched, hostile_event, director):
    page = watched()
    log_in(page, director.username)
    page.goto(f"/e/{hostile_event.slug}/rounds/1/results/")
    assert_shown_as_text(page, NAMES)

    # An htmx swap puts the row back from the server: still text.
    board2 = Game.objects.get(round__event=hostile_event, board=2)
    row = page.locator(f"#game-{board2.pk}")
    row.get_by_role("button", name="½-½", exact=True).click()
    expect(row.get_by_role("button", name="½-½", exact=True)).to_have_attribute(
        "aria-pressed", "true"
    )
    assert_shown_as_text(page, NAMES)

    page.goto(f"/e/{hostile_event.slug}/audit/")
    assert_shown_as_text(page, [f"3. {LONGEST}", f"4. {ARABIC}"])


def test_a_name_too_long_is_refused_with_the_reason_and_nothing_is_added(
    watched, hostile_event, director
):
    page = watched()
    log_in(page, director.username)
    page.goto(f"/e/{hostile_event.slug}/players/")
    before = Player.objects.filter(event=hostile_event).count()
    too_long = "L" * 300
    page.get_by_label("Paste a list").fill(f'"{SCRIPT}"\n{too_long}\n')
    page.get_by_role("button", name="Register all").click()
    expect(
        page.get_by_text(re.compile(r"300 characters is too long \(at most 200\)"))
    ).to_be_visible()
    assert Player.objects.filter(event=hostile_event).count() == before  # all or nothing
    assert_shown_as_text(page, NAMES)


def test_the_watch_sees_an_injection_that_the_policy_blocks(new_page, hostile_event):
    """Guards the checks above: an inline handler slipped into the page is blocked by the
    policy, and the watch records the violation."""
    page = new_page()
    page.add_init_script(WATCH)
    page.goto(f"/e/{hostile_event.slug}/crosstable/")
    page.evaluate("document.body.insertAdjacentHTML('beforeend', `" + IMAGE + "`)")
    page.wait_for_function("window.__csp.length > 0")
    assert page.evaluate("typeof window.pwned") == "undefined"
