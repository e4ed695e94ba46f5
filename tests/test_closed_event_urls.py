"""Every write URL of the project refuses a closed ("Final") event (issue 19).

The URLs are enumerated from the resolver through the permission matrix, so a URL added later
is here as soon as it is classified there; each is posted by its director (and its arbiter,
where arbiters write) to a closed event of its kind: refused with the message, on the event
page, nothing written. The few URLs a closed event still takes are listed with the reason
(``events.services.event_require_open`` says the same). A module of its own: its world is
committed once for the module, which other tests' fixtures would collide with.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.messages import get_messages
from django.core.management import call_command

import tests.test_permission_matrix as matrix
from events.errors import EventClosed
from events.models import Event, EventStatus

MESSAGE = EventClosed.MESSAGE

# URLs a closed event still takes a POST on, and why.
ALLOWED_URLS = {
    "events:event_close": "reopening (the director only, audited) is the way back",
    "events:access": "who manages the event is not its results; a new director can reopen",
    "events:import_notes_dismiss": "hides the import's notes (audited); a restored backup can "
    "bring a closed event with its notes unread",
    "prizes:setup": "prize fund and categories: an organiser's work after the final standings",
    "prizes:category_delete": "prize categories, as above",
    "prizes:approve": "approving the prize sheet is done on the final standings",
}


# -- The URLs --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def closed_world(django_db_setup, django_db_blocker) -> Iterator[dict[str, Any]]:  # type: ignore[no-untyped-def]
    """The permission matrix's world (one event of every kind), every event closed. Closed by
    setting the status: event_close wants every game played, which the examples are not."""
    with django_db_blocker.unblock():
        world = matrix._build_world()
        Event.objects.update(status=EventStatus.FINISHED)
    yield world
    with django_db_blocker.unblock():
        call_command("flush", interactive=False, verbosity=0)


def _event_writes() -> list[Any]:
    cases = []
    for route in matrix.ROUTES:
        access = matrix.access_of(route)
        if access is None or "slug" not in route.params or route.route.startswith("series/"):
            continue
        for who in sorted({"director", "arbiter"} & access.writers):
            cases.append(pytest.param(route, who, id=f"{route.key}-{who}"))
    return cases


EVENT_WRITES = _event_writes()


def test_the_enumeration_reaches_every_app() -> None:
    """A guard on the net itself: write URLs of events, draws, playoffs, prizes and formats."""
    apps = {param.values[0].key.split(":")[0] for param in EVENT_WRITES}
    assert {"events", "draws", "playoffs", "prizes", "gnot", "cohen", "mso"} <= apps
    assert {key for key in ALLOWED_URLS} <= {p.values[0].key for p in EVENT_WRITES}


def _refused(response: Any, slug: str) -> bool:
    said = [str(m) for m in get_messages(response.wsgi_request)]
    return response.status_code == 303 and response["Location"] == f"/e/{slug}/" and MESSAGE in said


@pytest.mark.django_db
@pytest.mark.parametrize(("route", "who"), EVENT_WRITES)
def test_every_write_url_refuses_a_closed_event(route, who, closed_world):  # type: ignore[no-untyped-def]
    url = matrix._url(route, closed_world)
    slug = url.split("/")[2]
    before = matrix.db_state()
    response = matrix._client(who, closed_world).post(url, {})
    if route.key in ALLOWED_URLS:
        assert not _refused(response, slug), f"{url}: {ALLOWED_URLS[route.key]}"
        assert response.status_code < 500
        return
    assert _refused(response, slug), (
        f"POST {url}: {response.status_code} {response.content[:200]!r}"
    )
    assert matrix.db_state() == before, f"POST {url} wrote to a closed event"


@pytest.mark.django_db
def test_an_htmx_post_to_a_closed_event_is_sent_to_the_event_page(closed_world):  # type: ignore[no-untyped-def]
    game = closed_world["game"]
    slug = closed_world["events"]["main"].slug
    before = matrix.db_state()
    response = matrix._client("arbiter", closed_world).post(
        f"/e/{slug}/games/{game.pk}/result/",
        {"result": "1-0", "version": str(game.version)},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 409
    assert response["HX-Redirect"] == f"/e/{slug}/"
    assert MESSAGE in response.content.decode()
    assert matrix.db_state() == before
