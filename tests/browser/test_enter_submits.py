"""Enter in a form submits what was typed, in every form of the product with a field to type
in (issue 20, "Data loss first").

For each form: open its page, fill the other fields, type into the form's first text field
and press Enter there. The one request that Enter sends must go to the form's own action with
the typed text in it; the text must then be stored (or, for a search, shown); and no table
may have lost a row (on the Swiss page Enter used to cancel the first requested bye).

``tests/test_form_buttons.py`` is the static guard over every rendered page; this file is the
same promise in a real Chromium. Forms whose only field is a textarea (Enter is a new line
there), a file, a checkbox or a select have no typed Enter to test. The category prize form
is left to its own tests: issue 20 replaces its JSON conditions with fields.

Every wait is on something the user would see, never a sleep.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote_plus, urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.contrib.auth.tokens import default_token_generator
from django.core.management import call_command
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from playwright.sync_api import Page, expect

from draws.models import ByeRequest, DrawEntry, ForbiddenPair
from draws.swiss.services import swiss_round_pair
from events.exchange import event_import_document
from events.models import Event, EventAccess, Player, Round
from formats.gnot.models import GnotSetup
from formats.mso.models import MultiGame, MultiGameScore
from prizes.models import PrizeSettings, Series
from prizes.services import prize_category_save
from tests.browser.test_result_entry import log_in
from tests.conftest import make_event
from tests.test_permission_matrix import db_state

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = {
    "swiss": "swiss-open.json",
    "main": "demo-rapid-blitz.json",
    "gnot": "gnot-2012.json",
    "mso": "mso-multi-player.json",
}


class World:
    """The events a case needs, imported on first use (each import takes a second)."""

    def __init__(self, director: Any) -> None:
        self.director = director
        self.events: dict[str, Event] = {}

    def event(self, kind: str) -> Event:
        if kind not in self.events:
            if kind == "round_robin":
                made = make_event(self.director, name="Enter Round Robin", system="round_robin")
            elif kind == "draft":  # a Swiss whose round 1 waits for review
                made = make_event(self.director, name="Enter Draft", players=8)
                swiss_round_pair(event=made, round_no=1, user=self.director)
            else:
                text = (REPO / "examples" / EXAMPLES[kind]).read_text()
                made = event_import_document(text=text, user=self.director, slug=f"enter-{kind}")
            self.events[kind] = made
        return self.events[kind]

    def slug(self, kind: str) -> str:
        return self.event(kind).slug


@dataclass(frozen=True)
class Case:
    page: Callable[[World], str]  # the page's path
    form: str  # a CSS selector of the form
    typed: tuple[str, str]  # the first text field's name and what is typed into it
    stored: Callable[[World, Page], None]  # asserts that what was typed was kept
    fills: dict[str, str] = field(default_factory=dict)  # the other fields, by name
    files: dict[str, Path] = field(default_factory=dict)  # by CSS selector
    logged_in: bool = True


def _swiss_rounds(world: World) -> str:
    return str(Round.objects.filter(event=world.event("swiss")).count())


def _password_is(password: str) -> Callable[[World, Page], None]:
    def check(world: World, page: Page) -> None:
        expect(page.locator("main")).to_be_visible()
        world.director.refresh_from_db()
        assert world.director.check_password(password)

    return check


def _exists(query: Callable[[World], Any]) -> Callable[[World, Page], None]:
    """The check that the row ``query`` looks for exists once the page has answered."""

    def check(world: World, page: Page) -> None:
        expect(page.locator("main")).to_be_visible()
        assert query(world).exists()

    return check


def _shown(selector: str, text: str) -> Callable[[World, Page], None]:
    def check(world: World, page: Page) -> None:
        expect(page.locator(selector)).to_contain_text(text)

    return check


def _previewed_as(name: str) -> Callable[[World, Page], None]:
    """Enter previews the list (nothing stored yet) and keeps what was typed for the import."""

    def check(world: World, page: Page) -> None:
        expect(page.locator("#list-preview")).to_contain_text("Preview")
        expect(page.locator("#list-upload [name=name]")).to_have_value(name)

    return check


def _change_held(first: str) -> Callable[[World, Page], None]:
    """A change by hand that departs from the Dutch pairing waits for confirmation, holding
    what was typed."""

    def check(world: World, page: Page) -> None:
        held = page.locator("section.conflict")
        expect(held.get_by_role("button", name="Make the change anyway")).to_be_visible()
        expect(held.locator("input[name=first]")).to_have_value(first)

    return check


def _reset_link(world: World) -> str:
    user = world.director
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    return f"/accounts/reset/{uid}/{default_token_generator.make_token(user)}/"


def _rating_lists(world: World) -> str:
    call_command("load_demo_ratings", verbosity=0)
    permission = Permission.objects.get(codename="manage_rating_lists")
    world.director.user_permissions.add(permission)
    return "/rating-lists/"


def _with_ratings(path: str) -> Callable[[World], str]:
    def page(world: World) -> str:
        call_command("load_demo_ratings", verbosity=0)
        return path.format(slug=world.slug("swiss"))

    return page


def _open_match(world: World) -> str:
    from formats.gnot.models import TeamMatch

    match = TeamMatch.objects.filter(event=world.event("gnot"), home_imps__isnull=True).first()
    assert match is not None, "the GNOT example has a match still to play"
    return f"/e/{world.slug('gnot')}/gnot/matches/{match.pk}/"


def _first_table(world: World) -> str:
    return f"/e/{world.slug('mso')}/tables/1/"


def _mso_scored(world: World, page: Page) -> None:
    expect(page.locator("#multi-tables")).to_be_visible()
    game = MultiGame.objects.filter(round__event=world.event("mso"), round__number=1).order_by(
        "board"
    )[0]
    assert 7 in {s.score for s in MultiGameScore.objects.filter(game=game)}


NEW_PASSWORD = "Enter-Kept-2026!"
CASES: dict[str, Case] = {
    "login": Case(
        page=lambda w: "/accounts/login/",
        form="form:has([name=password])",
        typed=("username", "dora-director"),
        fills={"password": "pw-dora-director"},
        stored=_shown("header .who", "dora-director"),
        logged_in=False,
    ),
    "password change": Case(
        page=lambda w: "/accounts/password_change/",
        form="form:has([name=old_password])",
        typed=("old_password", "pw-dora-director"),
        fills={"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
        stored=_password_is(NEW_PASSWORD),
    ),
    "password reset link": Case(
        page=_reset_link,
        form="form:has([name=new_password1])",
        typed=("new_password1", NEW_PASSWORD),
        fills={"new_password2": NEW_PASSWORD},
        stored=_password_is(NEW_PASSWORD),
        logged_in=False,
    ),
    "new event": Case(
        page=lambda w: "/events/new/",
        form="form:has([name=rounds])",
        typed=("name", "Typed Enter Cup"),
        fills={"rounds": "5"},
        stored=_exists(lambda w: Event.objects.filter(name="Typed Enter Cup")),
    ),
    "import an event": Case(
        page=lambda w: "/events/import/",
        form="form:has([name=slug])",
        typed=("slug", "typed-slug"),
        files={"input[type=file]": REPO / "examples" / "swiss-open.json"},
        stored=_exists(lambda w: Event.objects.filter(slug="typed-slug")),
    ),
    "event settings": Case(
        page=lambda w: f"/e/{w.slug('main')}/edit/",
        form="form:has([name=rounds])",
        typed=("name", "Renamed by Enter"),
        stored=_exists(lambda w: Event.objects.filter(name="Renamed by Enter")),
    ),
    "add a player": Case(
        page=lambda w: f"/e/{w.slug('swiss')}/players/",
        form="#player-add",
        typed=("name", "Typed, Tanja"),
        stored=_exists(lambda w: Player.objects.filter(name="Typed, Tanja")),
    ),
    "the players page's rating search": Case(
        page=_with_ratings("/e/{slug}/players/"),
        form="#rating-search form",
        typed=("q", "a"),
        stored=_shown("#rating-hits", "·"),
    ),
    "the rating search page": Case(
        page=_with_ratings("/e/{slug}/players/rating-list/"),
        form="form[role=search]",
        typed=("q", "a"),
        stored=_shown("#rating-hits", "·"),
    ),
    "give access": Case(
        page=lambda w: f"/e/{w.slug('main')}/access/",
        form="form:has([name=username])",
        typed=("username", "arno-arbiter"),
        stored=_exists(lambda w: EventAccess.objects.filter(user__username="arno-arbiter")),
    ),
    "a draw of the ceremony": Case(
        page=lambda w: f"/e/{w.slug('round_robin')}/draw/ceremony/",
        form="form:has([name=number])",
        typed=("number", "1"),
        stored=_exists(lambda w: DrawEntry.objects.filter(number=1)),
    ),
    "requested bye": Case(
        page=lambda w: f"/e/{w.slug('swiss')}/swiss/",
        form="#bye-add",
        typed=("start_no", "12"),
        fills={"note": "typed note"},
        stored=_exists(lambda w: ByeRequest.objects.filter(player__start_no=12, note="typed note")),
    ),
    "forbidden pair": Case(
        page=lambda w: f"/e/{w.slug('swiss')}/swiss/",
        form="#forbidden-add",
        typed=("first", "13"),
        fills={"second": "14", "reason": "typed reason"},
        stored=_exists(lambda w: ForbiddenPair.objects.filter(reason="typed reason")),
    ),
    "withdrawal": Case(
        page=lambda w: f"/e/{w.slug('swiss')}/swiss/",
        form="form[action$='/swiss/withdrawals/']",
        typed=("start_no", "15"),
        fills={"after_round": "__rounds__"},
        stored=_exists(
            lambda w: Player.objects.filter(start_no=15, withdrawn_after_round__isnull=False)
        ),
    ),
    "late entry": Case(
        page=lambda w: f"/e/{w.slug('swiss')}/swiss/",
        form="form[action$='/swiss/late-entry/']",
        typed=("name", "Latecomer, Lena"),
        stored=_exists(lambda w: Player.objects.filter(name="Latecomer, Lena")),
    ),
    "exchange two players (Swiss review)": Case(
        page=lambda w: f"/e/{w.slug('draft')}/swiss/rounds/1/",
        form="form:has(input[value=exchange])",
        typed=("first", "1"),
        fills={"second": "2"},
        stored=_change_held("1"),
    ),
    "set a board by hand (Swiss review)": Case(
        page=lambda w: f"/e/{w.slug('draft')}/swiss/rounds/1/",
        form="form:has(input[value=set])",
        typed=("first", "1"),
        fills={"second": "2", "third": "1"},
        stored=_change_held("1"),
    ),
    "prize settings": Case(
        page=lambda w: f"/e/{w.slug('main')}/prizes/setup/",
        form="#prize-settings form",
        typed=("unit", "5"),
        stored=_exists(lambda w: PrizeSettings.objects.filter(unit=5)),
    ),
    "new series": Case(
        page=lambda w: "/series/new/",
        form="form:has([name=slug])",
        typed=("name", "Typed Tour"),
        stored=_exists(lambda w: Series.objects.filter(name="Typed Tour")),
    ),
    "rating list upload (Enter previews)": Case(
        page=_rating_lists,
        form="#list-upload",
        typed=("name", "Typed list"),
        files={"input[type=file]": REPO / "ratings" / "fixtures" / "demo-fide.txt"},
        stored=_previewed_as("Typed list"),
    ),
    "GNOT whist boards": Case(
        page=lambda w: f"/e/{w.slug('gnot')}/gnot/teams/",
        form="form:has([name=whist_boards])",
        typed=("whist_boards", "9"),
        stored=_exists(lambda w: GnotSetup.objects.filter(whist_scale_boards=9)),
    ),
    "GNOT match result": Case(
        page=_open_match,
        form="#match-form form:has([name=home_imps])",
        typed=("home_imps", "31"),
        fills={"away_imps": "17"},
        stored=_shown("#match-form", "31–17"),
    ),
    "MSO table scores": Case(
        page=_first_table,
        form="#table-1 form",
        typed=("score", "7"),
        stored=_mso_scored,
    ),
}


def _fill(form: Any, name: str, value: str) -> None:
    control = form.locator(f'[name="{name}"]').first
    if control.evaluate("e => e.tagName") == "SELECT":
        control.select_option(value)
    else:
        control.fill(value)


def _sent(request: Any) -> dict[str, list[str]]:
    """The fields a request carried: the query of a GET, the body of a POST."""
    if request.method == "GET":
        return parse_qs(urlsplit(request.url).query)
    return parse_qs(request.post_data or "")


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_enter_in_the_first_field_submits_what_was_typed(new_page, director, case: Case):
    get_user_model().objects.create_user("arno-arbiter", password="pw-arno-arbiter")
    world = World(director)
    path = case.page(world)
    page = new_page()
    if case.logged_in:
        log_in(page, director.username)
    page.goto(path)
    form = page.locator(case.form).first
    expect(form).to_be_visible()
    action = form.evaluate("f => new URL(f.action, location.href).pathname")
    for name, value in case.fills.items():
        _fill(form, name, _swiss_rounds(world) if value == "__rounds__" else value)
    for selector, path_of_file in case.files.items():
        form.locator(selector).set_input_files(str(path_of_file))
    name, text = case.typed
    typed = form.locator(f'[name="{name}"]').first
    typed.fill("")
    typed.press_sequentially(text)
    before = db_state()

    with page.expect_request(lambda r: r.resource_type in ("document", "xhr", "fetch")) as sent:
        typed.press("Enter")
    request = sent.value
    assert urlsplit(request.url).path == action, (request.url, action)
    # Chromium does not show a file upload's body: its stored check finds the typed text.
    if "multipart/form-data" not in request.headers.get("content-type", ""):
        values = _sent(request)
        assert any(text in unquote_plus(v) for vs in values.values() for v in vs), values
    request.response()  # answered
    case.stored(world, page)

    after = db_state()
    tables = len(before) - 2  # row counts first, then two digests
    lost = [i for i in range(tables) if after[i] < before[i]]
    assert not lost, "Enter removed rows"


@pytest.mark.parametrize(
    ("kind", "path", "label"),
    [
        ("swiss", "/e/{slug}/swiss/", "cancel"),  # a requested bye's
        ("swiss", "/e/{slug}/swiss/", "remove"),  # a forbidden pair's
        ("main", "/e/{slug}/prizes/setup/", "Remove"),  # a prize category's
    ],
)
def test_buttons_that_read_as_links_are_not_white_on_white(new_page, director, kind, path, label):
    """``button.link`` took the buttons' white text on no background: invisible on a card."""
    world = World(director)
    if kind == "main":  # the service, not the form: the form is issue 20's to change
        prize_category_save(
            event=world.event(kind),
            code="women",
            name="Women",
            conditions=[{"field": "sex", "op": "eq", "value": "w"}],
            amounts=["100"],
            user=director,
        )
    page = new_page()
    log_in(page, director.username)
    page.goto(path.format(slug=world.slug(kind)))
    link = page.locator("main button.link", has_text=label).first
    expect(link).to_be_visible()
    colour = link.evaluate("b => getComputedStyle(b).color")
    accent = page.evaluate(
        "getComputedStyle(document.documentElement).getPropertyValue('--accent').trim()"
    )
    assert colour != "rgb(255, 255, 255)" and accent == "#1f5fa8"
    assert colour == "rgb(31, 95, 168)"  # the links' accent colour
