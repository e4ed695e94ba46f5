"""Enter submits what was typed, in every form of the product (issue 20, "Data loss first").

Pressing Enter in a text field presses the form's *default button*: the first submit button
of the form in tree order (HTML, "implicit submission"). On the Swiss page that was a
bye's "cancel" (a ``formaction`` button inside the add form), so Enter cancelled the first
requested bye and threw away what was typed. This guard renders every page of the project as
its director (the URLs come from the resolver, as in ``test_permission_matrix``; a few pages
also in the states that show more forms) and fails when a form

- is nested in another (a browser drops the inner ``<form>`` tag: its buttons join the outer
  form), or
- has as its default button one that does something else than the form's own action: a
  ``formaction``/``formmethod``/``formnovalidate`` override, or a secondary button (class
  ``secondary`` or ``link``) ahead of the form's primary one, unless the template marks it
  ``data-enter-default`` on purpose (the rating list's Preview: it writes nothing and keeps
  the file and what was typed).

Every template that holds a ``<form>`` must have been rendered by the walk, so a new page
cannot escape it. ``tests/browser/test_enter_submits.py`` presses Enter in the real forms.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.tokens import default_token_generator
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from events.models import Game
from tests.conftest import make_event
from tests.test_permission_matrix import ROUTES, _build_world, _url, access_of

REPO = Path(__file__).resolve().parent.parent
OVERRIDES = ("formaction", "formmethod", "formnovalidate", "formenctype", "formtarget")
SECONDARY = {"secondary", "link"}


@dataclass
class Button:
    attrs: dict[str, str]
    text: str = ""

    @property
    def classes(self) -> set[str]:
        return set(self.attrs.get("class", "").split())

    def describe(self) -> str:
        return f"<button {self.attrs}>{self.text.strip()[:40]}</button>"


@dataclass
class Form:
    attrs: dict[str, str]
    line: int
    buttons: list[Button] = field(default_factory=list)
    nested_in: int | None = None  # the line of the form it sits in

    def describe(self) -> str:
        return f"form at line {self.line} (action={self.attrs.get('action', '')!r})"


def _is_submit(tag: str, attrs: dict[str, str]) -> bool:
    if tag == "button":
        return attrs.get("type", "submit").lower() == "submit"
    return tag == "input" and attrs.get("type", "").lower() in ("submit", "image")


class FormParser(HTMLParser):
    """The page's forms, each with its submit buttons in tree order (including buttons outside
    it that name it with ``form=``)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[Form] = []
        self.open: list[Form] = []
        self.by_id: dict[str, Form] = {}
        self.button: Button | None = None

    def handle_starttag(self, tag: str, attr_list: list[tuple[str, str | None]]) -> None:
        attrs = {name: value or "" for name, value in attr_list}
        if tag == "form":
            outer = self.open[-1].line if self.open else None
            form = Form(attrs, self.getpos()[0], nested_in=outer)
            self.forms.append(form)
            self.open.append(form)
            if attrs.get("id"):
                self.by_id[attrs["id"]] = form
        elif _is_submit(tag, attrs):
            owner = self.by_id.get(attrs["form"]) if "form" in attrs else None
            owner = owner or (self.open[-1] if self.open and "form" not in attrs else None)
            button = Button(attrs, attrs.get("value", "") if tag == "input" else "")
            if owner is not None:
                owner.buttons.append(button)
            self.button = button if tag == "button" else None

    def handle_endtag(self, tag: str) -> None:
        if tag == "form" and self.open:
            self.open.pop()
        elif tag == "button":
            self.button = None

    def handle_data(self, data: str) -> None:
        if self.button is not None:
            self.button.text += data


def forms_of(html: str) -> list[Form]:
    parser = FormParser()
    parser.feed(html)
    parser.close()
    return parser.forms


def form_problems(html: str) -> list[str]:
    """What is wrong with the page's forms, in words; empty when nothing is."""
    problems = []
    for form in forms_of(html):
        if form.nested_in is not None:
            problems.append(f"{form.describe()} is nested in the form at line {form.nested_in}")
        if not form.buttons:
            continue
        default = form.buttons[0]
        overrides = [name for name in OVERRIDES if name in default.attrs]
        if overrides:
            problems.append(
                f"{form.describe()}: Enter presses {default.describe()}, which overrides"
                f" {', '.join(overrides)}"
            )
        primary_later = any(not (b.classes & SECONDARY) for b in form.buttons[1:])
        chosen = "data-enter-default" in default.attrs  # a harmless default, said so on purpose
        if default.classes & SECONDARY and primary_later and not chosen:
            problems.append(
                f"{form.describe()}: Enter presses the secondary {default.describe()},"
                " ahead of the form's primary button"
            )
    return problems


# -- The guard checks itself on the mistakes it is there to catch -------------------------------

BAD_PAGES = {
    "formaction ahead (the Swiss page's requested byes before the fix)": """
        <form method="post" action="/byes/"><ul><li>Round 3: 17. Player
        <button class="link" type="submit" formnovalidate formaction="/byes/1/cancel/">cancel
        </button></li></ul><input name="start_no">
        <button type="submit">Record the bye</button></form>""",
    "secondary ahead": """
        <form method="post" action="/x/"><input name="a">
        <button class="secondary">Delete</button><button>Save</button></form>""",
    "button without a type ahead": """
        <form method="post" action="/x/"><input name="a">
        <button class="link">Remove</button><input type="submit" value="Save"></form>""",
    "nested forms": """
        <form method="post" action="/add/"><input name="a">
        <form method="post" action="/remove/"><button>Remove</button></form>
        <button>Add</button></form>""",
    "a button of another form, by form=, ahead": """
        <form id="other" method="post" action="/remove/"></form>
        <form id="add" method="post" action="/add/"><input name="a">
        <button form="add" formaction="/remove/">Remove</button><button>Add</button></form>""",
}

GOOD_PAGES = {
    "each remove its own form (the Swiss page after the fix)": """
        <ul><li>Round 3 <form method="post" action="/byes/1/cancel/" class="inline">
        <button class="link" type="submit">cancel</button></form></li></ul>
        <form method="post" action="/byes/"><input name="start_no">
        <button type="submit">Record the bye</button></form>""",
    "remove buttons outside the form, by form=": """
        <form id="rm1" method="post" action="/rm/1/"></form>
        <form method="post" action="/add/"><ul><li>x <button form="rm1" class="link">remove</button>
        </li></ul><input name="a"><button>Add</button></form>""",
    "a harmless secondary default, marked on purpose": """
        <form method="post" action="/lists/"><input name="name">
        <button name="preview" class="secondary" data-enter-default>Preview</button>
        <button name="import">Import</button></form>""",
    "a lone secondary button": """
        <form method="post" action="/reset/"><button class="secondary">Reset</button></form>""",
    "result buttons, then a secondary clear": """
        <form method="post" action="/r/"><button name="result" value="1-0">1-0</button>
        <button name="result" value="" class="secondary">clear</button></form>""",
}


@pytest.mark.parametrize("html", BAD_PAGES.values(), ids=BAD_PAGES.keys())
def test_the_guard_finds_a_wrong_default_button_or_nested_forms(html: str) -> None:
    assert form_problems(html)


@pytest.mark.parametrize("html", GOOD_PAGES.values(), ids=GOOD_PAGES.keys())
def test_the_guard_accepts_forms_whose_enter_submits_their_own_action(html: str) -> None:
    assert form_problems(html) == []


# -- Every page of the project -------------------------------------------------------------------


def templates_with_forms() -> set[str]:
    """Template names (as Django loads them) of every template file holding a <form>."""
    names = set()
    for path in REPO.glob("**/templates/**/*.html"):
        if ".venv" in path.parts or "<form" not in path.read_text():
            continue
        parts = path.parts
        names.add("/".join(parts[len(parts) - parts[::-1].index("templates") :]))
    return names


def _extra_world(world: dict[str, Any]) -> dict[str, Any]:
    """States that show more forms: a round robin before its drawing of lots (the ceremony's
    forms) and a rating list (the type-ahead and its hits)."""
    director = world["people"]["director"]
    round_robin = make_event(director, name="Guard Round Robin", system="round_robin", players=6)
    call_command("load_demo_ratings", verbosity=0)
    return {**world, "round_robin": round_robin}


@pytest.fixture(scope="module")
def pages_world(django_db_setup, django_db_blocker) -> Iterator[dict[str, Any]]:  # type: ignore[no-untyped-def]
    with django_db_blocker.unblock():
        world = _extra_world(_build_world())
    yield world
    with django_db_blocker.unblock():
        call_command("flush", interactive=False, verbosity=0)


def _client(user: Any) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _html_pages(world: dict[str, Any]) -> Iterator[tuple[str, Any]]:
    """(url, response) of every page a director (or, for the rating lists, a superuser) and an
    anonymous visitor can open, and of the extra states."""
    people = world["people"]
    director, superuser = _client(people["director"]), _client(people["superuser"])
    for route in ROUTES:
        access = access_of(route)
        if route.route.startswith("admin/") or access is None:
            continue
        url = _url(route, world)
        client = superuser if route.key.startswith("ratings:") else director
        if access.get.get("director") not in (200, 400, None) and route.key != "ratings:lists":
            continue
        yield url, client.get(url)
    yield "/accounts/login/ (anonymous)", Client().get("/accounts/login/")
    user = people["director"]
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    token = default_token_generator.make_token(user)
    reset = Client().get(f"/accounts/reset/{uid}/{token}/", follow=True)
    yield "the password reset link's page", reset
    yield from _extra_states(world, director)


def _extra_states(world: dict[str, Any], director: Client) -> Iterator[tuple[str, Any]]:
    main, swiss = world["events"]["main"], world["events"]["swiss"]
    for kind, event in world["events"].items():  # each format's panel on its event page
        yield f"the {kind} event's page", director.get(f"/e/{event.slug}/")
    game = world["game"]
    stale = {"result": "1-0", "version": str(game.version - 1 if game.version > 1 else 99)}
    url = f"/e/{main.slug}/games/{game.pk}/result/"
    yield f"{url} (a conflict)", director.post(url, stale)
    ceremony = reverse("draws:ceremony", args=[world["round_robin"].slug])
    yield f"{ceremony} (before the draw)", director.get(ceremony)
    search = reverse("ratings:search", args=[swiss.slug]) + "?q=a"  # with hits, each a form
    found = director.get(search)
    assert b"rating-hit" in found.content, search
    yield search, found
    yield from _a_player_page_with_its_report_form(world)
    yield from _a_correction_after_the_next_round_was_paired(world)
    number = Game.objects.filter(round__event=swiss).order_by("-round__number").first()
    if number is not None:
        rnd = number.round.number
        yield "the Swiss review", director.get(f"/e/{swiss.slug}/swiss/rounds/{rnd}/")


def _a_correction_after_the_next_round_was_paired(
    world: dict[str, Any],
) -> Iterator[tuple[str, Any]]:
    """A round 1 result corrected once round 2 is paired (issue 29): the result page and the
    review page offer to re-pair or keep round 2."""
    from draws.swiss import services as swiss_services
    from events.services import game_result_record

    user = world["people"]["director"]
    event = make_event(user, name="Guard Correction", players=4)
    swiss_services.swiss_round_pair(event=event, round_no=1, user=user)
    swiss_services.swiss_round_publish(event=event, round_no=1, user=user)
    games = list(Game.objects.filter(round__event=event))
    for game in games:
        game_result_record(game_id=game.pk, result="1-0", expected_version=None, user=user)
    swiss_services.swiss_round_pair(event=event, round_no=2, user=user)
    game_result_record(game_id=games[0].pk, result="0-1", expected_version=None, user=user)
    director = _client(user)
    yield "a corrected round's results", director.get(f"/e/{event.slug}/rounds/1/results/")
    yield "the outdated round's review", director.get(f"/e/{event.slug}/swiss/rounds/2/")


def _a_player_page_with_its_report_form(world: dict[str, Any]) -> Iterator[tuple[str, Any]]:
    """A player's private page (issue 21) while the player may report: its form."""
    from events.services import PairingInput, round_pairings_set
    from playerpage.models import PlayerLink
    from playerpage.services import player_links_issue

    director = world["people"]["director"]
    event = make_event(director, name="Guard Player Page", players=4)
    round_pairings_set(
        event=event,
        round_no=1,
        pairings=[PairingInput(1, 1, 2), PairingInput(2, 3, 4)],
        user=director,
    )
    player_links_issue(event=event, user=director)
    link = PlayerLink.objects.get(player__event=event, player__start_no=1)
    response = Client().get(f"/p/{link.token}/")
    assert b'id="report-form"' in response.content
    yield "a player's page", response
    Client().post(f"/p/{link.token}/", {"result": "1-0"})  # now the arbiter's queue shows
    results = _client(director).get(f"/e/{event.slug}/rounds/1/results/")
    assert b'id="report-queue"' in results.content
    yield "the result entry page with a report waiting", results


@pytest.mark.django_db
def test_every_form_of_every_page_submits_its_own_action_on_enter(pages_world):  # type: ignore[no-untyped-def]
    problems: list[str] = []
    rendered: set[str] = set()
    for url, response in _html_pages(pages_world):
        if "text/html" not in response.get("Content-Type", ""):
            continue
        assert response.status_code < 500, url
        rendered |= {t.name for t in response.templates if t.name}
        problems += [f"{url}: {problem}" for problem in form_problems(response.content.decode())]
    assert problems == []
    missed = templates_with_forms() - rendered
    assert not missed, f"templates with a <form> that no page rendered here: {sorted(missed)}"
