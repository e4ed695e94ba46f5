"""Who may open and write what, for every URL of the whole project (issue 9).

The URLs are enumerated from the resolver, so a URL added anywhere (events, standings, draws,
playoffs, prizes, the Cohen/MSO/GNOT screens, the admin) is caught: ``ACCESS`` must classify
it or ``test_every_url_is_classified`` fails. Each URL is then opened by six personas:
anonymous, visitor (logged in, no role), an arbiter of another event, the event's arbiter, its
director and a superuser. Every persona also POSTs (with a CSRF-exempt test client) to every
URL: a persona who may not write there is refused (login, 403 or 405) and the database is
unchanged; one who may gets an answer that is neither a refusal nor a server error.

``tests/events/test_permissions.py`` checks the events URLs in more depth (real form data,
writes that do happen); this file is the project-wide net.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.apps import apps
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from draws.models import ByeRequest, ForbiddenPair
from events.exchange import event_import_document
from events.models import AuditEntry, Event, Game, Role
from events.services import access_grant, game_result_record
from formats.mso.models import MultiGame
from prizes.models import Series
from prizes.services import prize_sheet_approve
from tests.conftest import make_event

REPO = Path(__file__).resolve().parent.parent
PERSONAS = ("anonymous", "visitor", "other_arbiter", "arbiter", "director", "superuser")
LOGIN = "login"  # a redirect to the login page
ADMIN_LOGIN = "admin-login"  # a redirect to the admin's login page
SERVED = "served"  # allowed: anything but a refusal or a server error
STAFF = "staff"  # in the admin: no login page, no server error (model permissions may say 403)
ANY = "any"  # Django's own login and logout pages: no server error

# Who reaches a URL. ``get`` is the GET status per persona; ``writers`` may POST there.
EVERYONE = frozenset(PERSONAS)
LOGGED_IN_USERS = EVERYONE - {"anonymous"}
RESULT_TEAM = frozenset({"arbiter", "director", "superuser"})
DIRECTORS = frozenset({"director", "superuser"})


@dataclass(frozen=True)
class Access:
    get: dict[str, Any]
    writers: frozenset[str] = frozenset()
    written: str = SERVED  # what a writer's POST must get


def _page(readers: frozenset[str], writers: frozenset[str] = frozenset()) -> Access:
    """A page that GET shows to ``readers``: the others get the login page or 403."""
    get = {
        who: 200 if who in readers else (LOGIN if who == "anonymous" else 403) for who in PERSONAS
    }
    return Access(get, writers)


def _post_only(writers: frozenset[str]) -> Access:
    return Access(dict.fromkeys(PERSONAS, 405), writers)


PUBLIC = _page(EVERYONE)  # GET for everyone; a POST writes nothing
LOGGED_IN = _page(LOGGED_IN_USERS, LOGGED_IN_USERS)
RESULTS = _page(RESULT_TEAM, RESULT_TEAM)
RESULTS_READ = _page(RESULT_TEAM)
DIRECTOR = _page(DIRECTORS, DIRECTORS)
DIRECTOR_READ = _page(DIRECTORS)
POST_RESULTS = _post_only(RESULT_TEAM)
POST_DIRECTOR = _post_only(DIRECTORS)
NO_ACCESS = Access({})  # stands in for an unclassified URL until the test names it
ADMIN = Access(
    {**dict.fromkeys(PERSONAS, ADMIN_LOGIN), "superuser": STAFF}, frozenset({"superuser"}), STAFF
)
DJANGO_AUTH = Access(dict.fromkeys(PERSONAS, ANY), EVERYONE, ANY)

# Every URL name of the project (``namespace:name``). The admin's URLs are classified by their
# prefix below: Django generates them per registered model.
ACCESS: dict[str, Access] = {
    "healthz": PUBLIC,
    "login": PUBLIC,
    # Django 5 logs out by POST only; a POST without a session just shows the page.
    "logout": Access(dict.fromkeys(PERSONAS, 405), EVERYONE),
    # accounts: a password change for the logged-in; the reset link's page for whoever holds
    # a link (here a broken one: the page says so), which sets a password by POST.
    "password_change": LOGGED_IN,
    "password_change_done": _page(LOGGED_IN_USERS),
    "password_reset": PUBLIC,
    "password_reset_confirm": _page(EVERYONE, EVERYONE),
    "password_reset_complete": PUBLIC,
    # events
    "events:event_list": PUBLIC,
    "events:event_create": LOGGED_IN,
    "events:event_import": LOGGED_IN,
    "events:event_detail": PUBLIC,
    "events:event_edit": DIRECTOR,
    "events:players": DIRECTOR,
    "events:player_edit": DIRECTOR,
    "events:player_delete": POST_DIRECTOR,
    "events:crosstable": PUBLIC,
    "events:crosstable_print": PUBLIC,
    "events:crosstable_pdf": PUBLIC,
    "events:round_detail": PUBLIC,
    "events:round_pairings": DIRECTOR,
    "events:round_results": RESULTS_READ,
    "events:game_result": POST_RESULTS,
    "events:audit_log": DIRECTOR_READ,
    "events:audit_undo": POST_DIRECTOR,
    "events:access": DIRECTOR,
    "events:export_json": DIRECTOR_READ,
    "events:export_trf": DIRECTOR_READ,
    "events:event_close": POST_DIRECTOR,
    "events:import_notes_dismiss": POST_DIRECTOR,
    # draws
    "draws:draw_public": PUBLIC,
    "draws:ceremony": Access(_page(DIRECTORS).get),  # GET only: a POST is 405 for everyone
    "draws:entry_record": POST_DIRECTOR,
    "draws:computer_draw": POST_DIRECTOR,
    "draws:reset": POST_DIRECTOR,
    "draws:schedule_create": POST_DIRECTOR,
    "draws:swiss": Access(_page(DIRECTORS).get),  # GET only
    "draws:swiss_setup": POST_DIRECTOR,
    "draws:swiss_close_list": POST_DIRECTOR,
    "draws:swiss_bye_add": POST_DIRECTOR,
    "draws:swiss_bye_cancel": POST_DIRECTOR,
    "draws:swiss_forbidden_add": POST_DIRECTOR,
    "draws:swiss_forbidden_remove": POST_DIRECTOR,
    "draws:swiss_withdrawal": POST_DIRECTOR,
    "draws:swiss_late_entry": POST_DIRECTOR,
    "draws:swiss_round": Access(_page(DIRECTORS).get),
    "draws:swiss_pair": POST_DIRECTOR,
    "draws:swiss_edit": POST_DIRECTOR,
    "draws:swiss_round_action": POST_DIRECTOR,
    "draws:print": PUBLIC,
    "draws:print_pdf": PUBLIC,
    "draws:print_find": PUBLIC,
    "draws:print_find_pdf": PUBLIC,
    # standings
    "standings:standings": PUBLIC,
    "standings:explain": Access(dict.fromkeys(PERSONAS, 400)),  # no players named: bad request
    "standings:print": PUBLIC,
    "standings:print_pdf": PUBLIC,
    "standings:hall": PUBLIC,
    "gnot:overview": PUBLIC,
    "gnot:teams": DIRECTOR,
    "gnot:match": RESULTS,
    "gnot:match_undo": POST_RESULTS,
    "gnot:final_spot": POST_DIRECTOR,
    "gnot:session": PUBLIC,
    "gnot:choice": POST_DIRECTOR,
    "gnot:session_draw": POST_DIRECTOR,
    "gnot:appeal": POST_DIRECTOR,
    "gnot:swiss": PUBLIC,
    "gnot:swiss_pair": POST_DIRECTOR,
    "gnot:dko_winner_swiss": POST_DIRECTOR,
    "gnot:qualification": PUBLIC,
    "gnot:decline": POST_DIRECTOR,
    "cohen:stages": PUBLIC,
    "cohen:start": POST_DIRECTOR,
    "cohen:advance": POST_DIRECTOR,
    "mso:tables": PUBLIC,
    "mso:tables_set": POST_DIRECTOR,
    "mso:scores": POST_RESULTS,
    # prizes
    "prizes:sheet": PUBLIC,
    "prizes:setup": DIRECTOR,
    "prizes:category_delete": POST_DIRECTOR,
    "prizes:approve": POST_DIRECTOR,
    "prizes:download": PUBLIC,  # the approved sheet
    "prizes:draft_download": DIRECTOR_READ,
    "prizes:series_list": PUBLIC,
    "prizes:series_create": LOGGED_IN,
    "prizes:series_detail": PUBLIC,
    # The series' creator (the director here) or a superuser.
    "prizes:series_edit": Access(
        {
            "anonymous": LOGIN,
            "visitor": 403,
            "other_arbiter": 403,
            "arbiter": 403,
            "director": 200,
            "superuser": 200,
        },
        DIRECTORS,
    ),
    # playoffs
    "playoffs:playoff": PUBLIC,
    "playoffs:proposal": PUBLIC,
    "playoffs:manage": Access(_page(RESULT_TEAM).get),
    "playoffs:confirm": POST_DIRECTOR,
    "playoffs:decision": POST_DIRECTOR,
    "playoffs:reset": POST_DIRECTOR,
    "playoffs:undo": POST_DIRECTOR,
    "playoffs:game_result": POST_RESULTS,
    "playoffs:coin_toss": POST_DIRECTOR,
    "mso:extra_round": POST_DIRECTOR,
    # chess team events (issue #22): public pages; the director registers, sets up and pairs,
    # the result team enters line-ups and match cards.
    "teams:teams": PUBLIC,
    "teams:register": POST_DIRECTOR,
    "teams:team": PUBLIC,
    "teams:settings": POST_DIRECTOR,
    "teams:numbers": POST_DIRECTOR,
    "teams:adjustment": POST_DIRECTOR,
    "teams:lineup_deadline": POST_DIRECTOR,
    "teams:bye": POST_DIRECTOR,
    "teams:rounds": PUBLIC,
    "teams:round": PUBLIC,
    "teams:pair": POST_DIRECTOR,
    "teams:publish": POST_DIRECTOR,
    "teams:discard": POST_DIRECTOR,
    "teams:lineup": POST_RESULTS,
    "teams:card": POST_RESULTS,
    "teams:standings": PUBLIC,
    "teams:boards": PUBLIC,
    "teams:board_result": POST_RESULTS,
    "teams:hall": PUBLIC,
    "teams:round_print": PUBLIC,
    "teams:round_pdf": PUBLIC,
    "teams:standings_print": PUBLIC,
    "teams:standings_pdf": PUBLIC,
    "teams:crosstable_print": PUBLIC,
    "teams:crosstable_pdf": PUBLIC,
    "teams:boards_print": PUBLIC,
    "teams:boards_pdf": PUBLIC,
    # ratings: every logged-in user sees the lists; importing and deleting need the
    # ratings.manage_rating_lists permission (the superuser's here); the search is the event's
    # director's (registration).
    "ratings:lists": Access(_page(LOGGED_IN_USERS).get, frozenset({"superuser"})),
    "ratings:list_delete": _post_only(frozenset({"superuser"})),
    "ratings:search": DIRECTOR_READ,
    "ratings:refresh": DIRECTOR,
    # the player's page: the token is the key (here a made-up one: 404 for everyone, a POST
    # writes nothing); the links, cards and policy are the director's, confirming a report
    # the result team's.
    "playerpage:page": Access(dict.fromkeys(PERSONAS, 404)),
    "playerpage:links": DIRECTOR_READ,
    "playerpage:link_action": POST_DIRECTOR,
    "playerpage:links_issue": POST_DIRECTOR,
    "playerpage:cards": DIRECTOR_READ,
    "playerpage:cards_pdf": DIRECTOR_READ,
    "playerpage:policy": POST_DIRECTOR,
    "playerpage:confirm": POST_RESULTS,
    # fiderating: the report and each player's games and norms are public; the director
    # sets K and the norm conditions; a certificate (none in this world: 404) for the result
    # team.
    "fiderating:report": PUBLIC,
    "fiderating:report_download": PUBLIC,
    "fiderating:player": PUBLIC,
    "fiderating:manage": DIRECTOR_READ,
    "fiderating:k_set": POST_DIRECTOR,
    "fiderating:conditions": POST_DIRECTOR,
    "fiderating:k_from_list": POST_DIRECTOR,
    "fiderating:certificate": Access(
        {
            who: 404 if who in RESULT_TEAM else (LOGIN if who == "anonymous" else 403)
            for who in PERSONAS
        }
    ),
}


# -- The URLs, from the resolver ---------------------------------------------------------------


@dataclass(frozen=True)
class Route:
    key: str  # "namespace:name", or the route itself for the admin's unnamed catch-alls
    route: str
    params: tuple[str, ...]


def _walk(patterns: list[Any], prefix: str, namespace: str) -> Iterator[Route]:
    for pattern in patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            inner = pattern.namespace or ""
            joined = ":".join(n for n in (namespace, inner) if n)
            yield from _walk(pattern.url_patterns, route, joined)
        elif isinstance(pattern, URLPattern):
            name = pattern.name and ":".join(n for n in (namespace, pattern.name) if n)
            params = tuple(pattern.pattern.regex.groupindex)
            yield Route(name or route, route, params)


ROUTES = list(_walk(get_resolver().url_patterns, "", ""))


def access_of(route: Route) -> Access | None:
    if route.key in ("admin:login", "admin:logout"):
        return DJANGO_AUTH
    if route.route.startswith("admin/"):
        return ADMIN
    return ACCESS.get(route.key)


def test_every_url_is_classified():
    unclassified = sorted(r.key for r in ROUTES if access_of(r) is None)
    assert not unclassified, f"add these URLs to ACCESS with who may see them: {unclassified}"
    stale = sorted(set(ACCESS) - {r.key for r in ROUTES})
    assert not stale, f"ACCESS names URLs that no longer exist: {stale}"


# -- The world: one event of every kind, committed once for the module ------------------------


EXAMPLES = {
    "main": "demo-rapid-blitz.json",
    "gnot": "gnot-2012.json",
    "cohen": "cohen-chess.json",
    "mso": "mso-multi-player.json",
    "swiss": "swiss-open.json",
    "teams": "team-swiss.json",
}


def _build_world() -> dict[str, Any]:
    users = get_user_model().objects
    people = {
        "visitor": users.create_user("vera-visitor", password="x"),
        "other_arbiter": users.create_user("otto-other", password="x"),
        "arbiter": users.create_user("arno-arbiter", password="x"),
        "director": users.create_user("dora-director", password="x"),
        "superuser": users.create_superuser("sam-super", password="x"),
    }
    director = people["director"]
    events = {}
    for kind, example in EXAMPLES.items():
        text = (REPO / "examples" / example).read_text()
        events[kind] = event_import_document(text=text, user=director, slug=f"pm-{kind}")
        access_grant(event=events[kind], username="arno-arbiter", role=Role.ARBITER, user=director)
    other = make_event(director, name="Other Event")
    access_grant(event=other, username="otto-other", role=Role.ARBITER, user=director)
    main = events["main"]
    prize_sheet_approve(event=main, user=director)  # the public sheet.csv needs an approval
    game = Game.objects.filter(round__event=main).order_by("round__number", "board").first()
    assert game is not None
    game_result_record(game_id=game.pk, result="0-1", expected_version=None, user=director)
    series = Series.objects.create(name="Tour", slug="pm-tour", created_by=director)
    series.events.add(main)
    sessions = {}
    for who, user in people.items():  # logged in once: a login per test would double the time
        client = Client()
        client.force_login(user)
        sessions[who] = client.cookies[settings.SESSION_COOKIE_NAME].value
    return {
        "people": people,
        "sessions": sessions,
        "events": events,
        "game": game,
        "series": series,
    }


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker) -> Iterator[dict[str, Any]]:  # type: ignore[no-untyped-def]
    """Committed once: importing four example events per test would take minutes."""
    with django_db_blocker.unblock():
        built = _build_world()
    yield built
    with django_db_blocker.unblock():
        call_command("flush", interactive=False, verbosity=0)


def _event_for(route: str, world: dict[str, Any]) -> Event:
    events = world["events"]
    markers = (("/gnot/", "gnot"), ("/cohen/", "cohen"), ("/tables/", "mso"), ("/swiss/", "swiss"))
    markers += (("/team/", "teams"), ("/teams/", "teams"))
    for marker, kind in markers:
        if marker in route:
            return events[kind]
    return events["main"]


def _kwargs(route: Route, world: dict[str, Any]) -> dict[str, Any]:
    """Real objects for every URL parameter, so that an allowed persona sees a real page."""
    from formats.gnot.models import TeamMatch

    event = _event_for(route.route, world)
    values: dict[str, Any] = {
        "slug": world["series"].slug if route.route.startswith("series/") else event.slug,
        "number": 1,
        "fmt": "csv",
        "game": 1,
        "stage": 1,
        "entry_id": AuditEntry.objects.filter(event=event).order_by("pk").last().pk,  # type: ignore[union-attr]
        "object_id": world["people"]["superuser"].pk,
        "id": world["people"]["superuser"].pk,
        "app_label": "auth",
        "url": "nowhere/",
        "content_type_id": 1,
        "uidb64": "MQ",
        "token": "not-a-token",
        "start_no": 1,
        "team_no": 1,
        "report_id": 1,  # no such report: the result team's confirmation is a 404
        "list_id": 1,  # no such list: the superuser's delete is a 404
        "title": "GM",
    }
    if "game_id" in route.params:
        multi = MultiGame.objects.filter(round__event=event).order_by("round__number", "board")
        values["game_id"] = (multi.first() if "/tables/" in route.route else world["game"]).pk  # type: ignore[union-attr]
    if "game_id" in route.params and route.key.startswith("teams:"):
        from formats.teams.models import BoardGame

        board = BoardGame.objects.filter(match__round__event=event, match__round__published=True)
        values["game_id"] = board.order_by("pk").first().pk  # type: ignore[union-attr]
    if "match_id" in route.params and route.key.startswith("teams:"):
        from formats.teams.models import TeamMatch as ChessTeamMatch

        first = ChessTeamMatch.objects.filter(round__event=event).order_by("pk").first()
        values["match_id"] = first.pk  # type: ignore[union-attr]
    elif "match_id" in route.params:
        values["match_id"] = TeamMatch.objects.filter(event=event).order_by("pk").first().pk  # type: ignore[union-attr]
    if route.key == "cohen:advance":
        values["stage"] = event.cohen_stages.order_by("first_round").first().name  # type: ignore[union-attr]
    if route.key == "draws:swiss_round_action":
        values["action"] = "publish"
    if "request_id" in route.params:
        values["request_id"] = ByeRequest.objects.filter(player__event=event).first().pk  # type: ignore[union-attr]
    if "pair_id" in route.params:
        values["pair_id"] = ForbiddenPair.objects.filter(event=event).first().pk  # type: ignore[union-attr]
    if "code" in route.params:
        values["code"] = "women" if route.route.startswith("e/<slug:slug>/prizes") else "2"
    return {name: values[name] for name in route.params}


def _url(route: Route, world: dict[str, Any]) -> str:
    """The route with its parameters filled in (works for the admin's regex routes too)."""
    kwargs = _kwargs(route, world)
    url = "/" + route.route.replace("^", "").replace("$", "")
    url = re.sub(r"\(\?P<(\w+)>[^)]*\)", lambda m: str(kwargs[m.group(1)]), url)
    return re.sub(r"<(?:\w+:)?(\w+)>", lambda m: str(kwargs[m.group(1)]), url)


# -- Checks --------------------------------------------------------------------------------------


IGNORED_MODELS = {"sessions.session", "axes.accessattempt", "axes.accesslog"}


def _state_query() -> str:
    """One round trip: the row count of every table, the sum of the results versions and a
    digest of every game's result (a refused write must change none of them)."""
    tables = sorted(
        model._meta.db_table
        for model in apps.get_models(include_auto_created=True)
        if model._meta.label_lower not in IGNORED_MODELS and model._meta.managed
    )
    counts = ", ".join(f'(SELECT count(*) FROM "{table}")' for table in tables)
    return (
        f"SELECT {counts}, (SELECT sum(results_version) FROM events_event), "
        "(SELECT md5(string_agg(id || result || version, ',' ORDER BY id)) FROM events_game)"
    )


def db_state() -> tuple[Any, ...]:
    with connection.cursor() as cursor:
        cursor.execute(_state_query())
        return tuple(cursor.fetchone())


def _client(who: str, world: dict[str, Any], **options: Any) -> Client:
    client = Client(**options)
    if who != "anonymous":
        client.cookies[settings.SESSION_COOKIE_NAME] = world["sessions"][who]
    return client


def check(response, expected: Any, url: str) -> None:  # type: ignore[no-untyped-def]
    status, where = response.status_code, response.get("Location", "")
    context = f"{url}: {status} {where} {response.content[:200]!r}"
    if expected == LOGIN:
        assert status == 302 and where.startswith("/accounts/login/?next="), context
    elif expected == ADMIN_LOGIN:
        assert status == 302 and where.startswith("/admin/login/?next="), context
    elif expected == SERVED:
        assert status < 500 and status not in (401, 403, 405), context
        assert "login/?next=" not in where, context
    elif expected == STAFF:
        assert status < 500 and "login/?next=" not in where, context
    elif expected == ANY:
        assert status < 500, context
    else:
        assert status == expected, context


# The admin treats every non-staff user alike: three personas are enough there.
ADMIN_PERSONAS = ("anonymous", "director", "superuser")
CASES = [
    pytest.param(route, who, id=f"{route.key}-{who}")
    for route in ROUTES
    for who in (ADMIN_PERSONAS if route.route.startswith("admin/") else PERSONAS)
]


@pytest.mark.django_db
@pytest.mark.parametrize(("route", "who"), CASES)
def test_get(route: Route, who: str, world):  # type: ignore[no-untyped-def]
    access = access_of(route)
    assert access is not None
    url = _url(route, world)
    client = _client(who, world)
    before = db_state()
    check(client.get(url), access.get[who], url)
    assert db_state() == before, f"GET {url} wrote to the database"


@pytest.mark.django_db
@pytest.mark.parametrize(("route", "who"), CASES)
def test_post(route: Route, who: str, world):  # type: ignore[no-untyped-def]
    access = access_of(route)
    assert access is not None
    url = _url(route, world)
    client = _client(who, world)
    before = db_state()
    response = client.post(url, {})
    if who in access.writers:
        check(response, access.written, url)
        return
    refused = response.status_code in (403, 405) or "login/?next=" in response.get("Location", "")
    # A read-only page may answer a POST like a GET (200, or 400/404 for what it cannot show).
    readable = access.get[who] in (200, 400, 404) and response.status_code == access.get[who]
    readable = readable or access.get[who] == ANY
    assert refused or readable, f"POST {url}: {response.status_code}"
    assert db_state() == before, f"POST {url} by {who} wrote to the database"


# An unclassified URL must reach test_every_url_is_classified, not break collection here.
WRITABLE = [route for route in ROUTES if (access_of(route) or NO_ACCESS).writers]


@pytest.mark.django_db
@pytest.mark.parametrize("route", WRITABLE, ids=[r.key for r in WRITABLE])
def test_every_post_without_a_csrf_token_is_refused(route: Route, world):  # type: ignore[no-untyped-def]
    """CSRF on every POST: a persona allowed to write, posting without the token, gets 403."""
    access = access_of(route)
    assert access is not None
    who = "superuser" if "superuser" in access.writers else sorted(access.writers)[0]
    if route.key == "login":
        who = "anonymous"
    client = _client(who, world, enforce_csrf_checks=True)
    url = _url(route, world)
    before = db_state()
    response = client.post(url, {})
    assert response.status_code == 403, f"POST {url} without a CSRF token: {response.status_code}"
    assert b"CSRF" in response.content
    assert db_state() == before


def _cache_control(response) -> set[str]:  # type: ignore[no-untyped-def]
    return {part.strip().split("=")[0] for part in response.get("Cache-Control", "").split(",")}


# Pages that need a login, each with a persona who may read it (issue 19: never stored).
PRIVATE = [
    pytest.param(route, who, id=f"{route.key}-{who}")
    for route in ROUTES
    if (access := access_of(route)) is not None and access.get.get("anonymous") == LOGIN
    for who in [next((p for p in PERSONAS if access.get.get(p) == 200), None)]
    if who is not None
]


@pytest.mark.django_db
@pytest.mark.parametrize(("route", "who"), PRIVATE)
def test_private_pages_are_never_stored(route: Route, who: str, world):  # type: ignore[no-untyped-def]
    """The audit log, the exports, the Swiss review, every director's and arbiter's page:
    ``Cache-Control: private, no-store``, so neither a shared cache nor the browser keeps them."""
    url = _url(route, world)
    response = _client(who, world).get(url)
    assert response.status_code == 200, url
    assert {"private", "no-store"} <= _cache_control(response), (url, response["Cache-Control"])


@pytest.mark.django_db
def test_public_pages_are_private_only_for_someone_logged_in(world):  # type: ignore[no-untyped-def]
    """A spectator's page stays revalidated by its ETag (no-cache, never no-store); the same
    page rendered for a director is ``private``: it carries their links and CSRF token."""
    slug = world["events"]["main"].slug
    spectator = _client("anonymous", world).get(f"/e/{slug}/standings/")
    assert "private" not in _cache_control(spectator) and "no-cache" in _cache_control(spectator)
    director = _client("director", world)
    seen = director.get(f"/e/{slug}/standings/")
    assert {"private", "no-cache"} <= _cache_control(seen)
    assert "no-store" not in _cache_control(seen)
    unchanged = director.get(f"/e/{slug}/standings/", HTTP_IF_NONE_MATCH=seen["ETag"])
    assert unchanged.status_code == 304 and "no-store" not in _cache_control(unchanged)


def test_the_private_pages_include_the_issues_list() -> None:
    keys = {param.values[0].key for param in PRIVATE}
    assert {
        "events:audit_log",
        "events:export_json",
        "draws:swiss_round",
        "events:round_results",
        "playoffs:manage",
        "prizes:draft_download",
    } <= keys


@pytest.mark.django_db
def test_the_matrix_reaches_json_exports(world):  # type: ignore[no-untyped-def]
    """A sanity check on the world itself: the director's export is the imported event."""
    slug = world["events"]["main"].slug
    response = _client("director", world).get(f"/e/{slug}/export.json")
    assert json.loads(response.content)["slug"] == slug
