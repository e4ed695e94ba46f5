"""Who may open and write what: every URL of events/urls.py × every persona (issue 2).

Personas: anonymous, visitor (logged in, no role), arbiter of another event, arbiter of this
event, director. Anonymous users are sent to the login page; a logged-in user without the
right role gets 403; a write that is refused changes nothing in the database.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import URLPattern, reverse

from events import urls as event_urls
from events.models import AuditEntry, Event, EventAccess, Game, Player, Round
from events.services import PairingInput, game_result_record, round_pairings_set
from tests.conftest import TIEBREAK_DATA, make_event

pytestmark = pytest.mark.django_db

PERSONAS = ("anonymous", "visitor", "other_arbiter", "arbiter", "director")
LOGIN = "login"  # expected outcome: 302 to the login page

PUBLIC = dict.fromkeys(PERSONAS, 200)
LOGGED_IN = {**PUBLIC, "anonymous": LOGIN}
RESULTS = {**LOGGED_IN, "visitor": 403, "other_arbiter": 403}
DIRECTOR = {**RESULTS, "arbiter": 403}
POST_ONLY = dict.fromkeys(PERSONAS, 405)


def _with(expected: dict[str, Any], **changes: Any) -> dict[str, Any]:
    return {**expected, **changes}


@dataclass(frozen=True)
class Page:
    """One URL: how to build its arguments, who may GET it, and who may POST to it."""

    name: str
    kwargs: Callable[[Event, dict[str, int]], dict[str, Any]]
    get: dict[str, Any]
    post: dict[str, Any] | None = None  # None: the URL does not write
    data: Callable[[], dict[str, Any]] = field(default=lambda: {})
    writes: bool = True  # False: the allowed POST is refused here with a message (see below)


def _slug(event: Event, ids: dict[str, int]) -> dict[str, Any]:
    return {"slug": event.slug}


def _event_form() -> dict[str, Any]:
    return {
        "name": "Spring Open",
        "system": "swiss",
        "time_control": "classical",
        "rounds": "3",
        "start_date": "2025-05-01",
        "preset": "fide-2024",
        "currency": "USD",
        "site": "Oslo",
    }


def _upload() -> dict[str, Any]:
    source = (TIEBREAK_DATA / "held_round_robin.trf").read_bytes()
    return {"file": SimpleUploadedFile("held.trf", source, content_type="text/plain")}


# Every URL name in events/urls.py must appear here; test_every_url_is_in_the_matrix checks it.
PAGES = [
    Page("event_list", lambda e, ids: {}, PUBLIC),
    # Any logged-in user may create or import an event: they become its director.
    Page(
        "event_create",
        lambda e, ids: {},
        LOGGED_IN,
        post=_with(LOGGED_IN, visitor=302, other_arbiter=302, arbiter=302, director=302),
        data=_event_form,
    ),
    Page(
        "event_import",
        lambda e, ids: {},
        LOGGED_IN,
        post=_with(LOGGED_IN, visitor=302, other_arbiter=302, arbiter=302, director=302),
        data=_upload,
    ),
    Page("event_detail", _slug, PUBLIC),
    Page(
        "event_edit",
        _slug,
        DIRECTOR,
        post=_with(DIRECTOR, director=302),
        data=lambda: {**_event_form(), "name": "Renamed Open"},
    ),
    Page(
        "players",
        _slug,
        DIRECTOR,
        post=_with(DIRECTOR, director=302),
        data=lambda: {"add": "1", "name": "Newcomer, Nora", "rating": "1500"},
    ),
    Page(
        "player_edit",
        lambda e, ids: {"slug": e.slug, "start_no": 3},
        DIRECTOR,
        post=_with(DIRECTOR, director=302),
        data=lambda: {"start_no": "3", "name": "Player 3", "rating": "1999", "version": "1"},
    ),
    # Player 3 has a game in round 1: the director's delete is refused with a message.
    Page(
        "player_delete",
        lambda e, ids: {"slug": e.slug, "start_no": 3},
        POST_ONLY,
        post=_with(DIRECTOR, director=302),
        data=lambda: {"version": "1", "confirm_delete": "on"},
        writes=False,
    ),
    Page("crosstable", _slug, PUBLIC),
    Page("crosstable_print", _slug, PUBLIC),
    Page("crosstable_pdf", _slug, PUBLIC),
    Page("round_detail", lambda e, ids: {"slug": e.slug, "number": 1}, PUBLIC),
    Page(
        "round_pairings",
        lambda e, ids: {"slug": e.slug, "number": 2},
        DIRECTOR,
        post=_with(DIRECTOR, director=302),
        data=lambda: {"pairings": "1 3\n4 2"},
    ),
    Page("round_results", lambda e, ids: {"slug": e.slug, "number": 1}, RESULTS),
    Page(
        "game_result",
        lambda e, ids: {"slug": e.slug, "game_id": ids["board1"]},
        POST_ONLY,
        post=_with(RESULTS, arbiter=302, director=302),
        data=lambda: {"result": "0-1", "version": "1"},  # board 1 as the form shows it
    ),
    Page("audit_log", _slug, DIRECTOR),
    Page(
        "audit_undo",
        lambda e, ids: {"slug": e.slug, "entry_id": ids["undoable"]},
        POST_ONLY,
        post=_with(DIRECTOR, director=302),
    ),
    Page(
        "access",
        _slug,
        DIRECTOR,
        post=_with(DIRECTOR, director=302),
        data=lambda: {"username": "vera-visitor", "role": "arbiter"},
    ),
    Page("export_json", _slug, DIRECTOR),
    Page("export_trf", _slug, DIRECTOR),
    # Closing is refused with a message while round 1 lacks a result (as here): a redirect,
    # no write. Closing itself: tests/events/test_services.py.
    Page("event_close", _slug, POST_ONLY, post=_with(DIRECTOR, director=302), writes=False),
    # Nothing to dismiss on an event that was not imported: a redirect, no write. Dismissing
    # itself: tests/events/test_import_notes.py.
    Page(
        "import_notes_dismiss", _slug, POST_ONLY, post=_with(DIRECTOR, director=302), writes=False
    ),
]
PAGE_IDS = [page.name for page in PAGES]
WRITES = [page for page in PAGES if page.post is not None]
# Creating and importing are not scoped by an event: they make a new event of the user's own.
EVENT_WRITES = [page for page in WRITES if page.name not in ("event_create", "event_import")]


def db_state() -> tuple[Any, ...]:
    """Everything a write could change, as plain values."""
    return (
        sorted(Event.objects.values_list("slug", "name", "results_version")),
        sorted(Player.objects.values_list("event__slug", "start_no", "name")),
        sorted(Round.objects.values_list("event__slug", "number")),
        sorted(Game.objects.values_list("round__event__slug", "board", "result", "version")),
        sorted(EventAccess.objects.values_list("event__slug", "user__username", "role")),
        AuditEntry.objects.count(),
        sorted(AuditEntry.objects.filter(undone_by__isnull=False).values_list("pk", flat=True)),
    )


@pytest.fixture
def ids(event, director) -> dict[str, int]:
    """Board 1 without a result; board 2 with a result that can be undone."""
    board1, board2 = Game.objects.filter(round__event=event).order_by("board")
    game_result_record(game_id=board2.pk, result="1-0", expected_version=None, user=director)
    undoable = AuditEntry.objects.get(game=board2).pk
    return {"board1": board1.pk, "board2": board2.pk, "undoable": undoable}


@pytest.fixture
def persona(client_for, director, arbiter, other_arbiter, visitor):  # type: ignore[no-untyped-def]
    users = {
        "anonymous": None,
        "visitor": visitor,
        "other_arbiter": other_arbiter,
        "arbiter": arbiter,
        "director": director,
    }
    return lambda name: client_for(users[name])


def check_status(response, expected: Any, url: str) -> None:  # type: ignore[no-untyped-def]
    if expected == LOGIN:
        assert response.status_code == 302, response.content[:300]
        assert response["Location"] == f"{reverse('login')}?next={url}"
    else:
        assert response.status_code == expected, response.content[:300]


def test_every_url_is_in_the_matrix():
    names = {p.name for p in event_urls.urlpatterns if isinstance(p, URLPattern)}
    assert names == set(PAGE_IDS)


@pytest.mark.parametrize("who", PERSONAS)
@pytest.mark.parametrize("page", PAGES, ids=PAGE_IDS)
def test_get(page: Page, who: str, event, ids, persona):
    url = reverse(f"events:{page.name}", kwargs=page.kwargs(event, ids))
    before = db_state()
    check_status(persona(who).get(url), page.get[who], url)
    assert db_state() == before  # a GET never writes


@pytest.mark.parametrize("who", PERSONAS)
@pytest.mark.parametrize("page", WRITES, ids=[p.name for p in WRITES])
def test_post(page: Page, who: str, event, ids, persona):
    assert page.post is not None
    url = reverse(f"events:{page.name}", kwargs=page.kwargs(event, ids))
    before = db_state()
    expected = page.post[who]
    check_status(persona(who).post(url, page.data()), expected, url)
    if expected in (LOGIN, 403, 405) or not page.writes:
        assert db_state() == before  # refused: nothing written
    else:
        assert db_state() != before  # allowed: the write happened


# --- No reach into another event -----------------------------------------------------------


@pytest.fixture
def rival(db):  # type: ignore[no-untyped-def]
    """Rita directs her own event, paired like ``event``; she has no role in ``event``."""
    rita = get_user_model().objects.create_user(username="rita-rival", password="pw-rita")
    rival_event = make_event(rita, name="Rival Open")
    round_pairings_set(
        event=rival_event,
        round_no=1,
        pairings=[PairingInput(1, 1, 2), PairingInput(2, 3, 4)],
        user=rita,
    )
    return rita, rival_event


@pytest.mark.parametrize("page", EVENT_WRITES, ids=[p.name for p in EVENT_WRITES])
def test_a_director_of_another_event_can_write_nothing_here(
    page: Page, event, ids, rival, client_for
):
    rita, _ = rival
    before = db_state()
    url = reverse(f"events:{page.name}", kwargs=page.kwargs(event, ids))
    assert client_for(rita).post(url, page.data()).status_code == 403
    assert db_state() == before


@pytest.mark.parametrize("who", ["director", "arbiter"])
@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_a_game_of_another_event_posted_here_is_404_and_changes_nothing(
    who: str, htmx: bool, event, ids, rival, persona
):
    _, rival_event = rival
    foreign = Game.objects.get(round__event=rival_event, board=1)
    before = db_state()
    url = reverse("events:game_result", kwargs={"slug": event.slug, "game_id": foreign.pk})
    headers = {"HX-Request": "true"} if htmx else {}
    response = persona(who).post(url, {"result": "1-0", "version": "1"}, headers=headers)
    assert response.status_code == 404
    assert db_state() == before
    foreign.refresh_from_db()
    assert (foreign.result, foreign.version) == ("", 1)


def test_an_arbiter_of_another_event_cannot_enter_results_here(event, ids, persona):
    url = reverse("events:game_result", kwargs={"slug": event.slug, "game_id": ids["board1"]})
    before = db_state()
    response = persona("other_arbiter").post(url, {"result": "1-0"}, headers={"HX-Request": "true"})
    assert response.status_code == 403
    assert db_state() == before


def test_an_audit_entry_of_another_event_cannot_be_undone_from_here(
    event, director, rival, client_for
):
    rita, rival_event = rival
    foreign_game = Game.objects.get(round__event=rival_event, board=1)
    game_result_record(game_id=foreign_game.pk, result="1-0", expected_version=None, user=rita)
    entry = AuditEntry.objects.get(game=foreign_game)
    before = db_state()
    # Dora directs ``event``; the entry id belongs to Rita's event.
    response = client_for(director).post(
        reverse("events:audit_undo", kwargs={"slug": event.slug, "entry_id": entry.pk})
    )
    assert response.status_code == 302  # back to the audit log with an error message
    assert db_state() == before
    foreign_game.refresh_from_db()
    assert foreign_game.result == "1-0"


def test_unknown_event_is_404_for_everyone(persona):
    for who in PERSONAS:
        for name in ("event_detail", "round_results", "players", "export_json"):
            kwargs = {"slug": "no-such-event"}
            if name == "round_results":
                kwargs["number"] = 1
            assert persona(who).get(reverse(f"events:{name}", kwargs=kwargs)).status_code == 404
