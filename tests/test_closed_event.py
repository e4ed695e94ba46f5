"""A closed ("Final") event is closed; an event always has a director (issue 19).

Three nets, so that a write path added later cannot forget the guard:

- every write URL of the project posted to a closed event (tests/test_closed_event_urls.py);
- every write service (every public function of the apps taking keyword-only ``event`` and
  ``user``, found by walking the packages) called on a closed event: ``EventClosed`` before
  it touches anything else;
- the write commands (``pair``, ``varma_draw``).

The writes that stay allowed on a closed event are listed here with the reason, as in
``events.services.event_require_open`` and docs/reliability.md.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from collections.abc import Callable
from typing import Any

import pytest
from django.core.management import CommandError, call_command

import tests.test_permission_matrix as matrix
from events.errors import EventClosed, UserError
from events.models import AuditEntry, Event, EventAccess, EventStatus, Game, Player, Role
from events.services import access_grant, event_close, game_result_record

MESSAGE = EventClosed.MESSAGE

# Write services that stay allowed, and the two audit primitives every service ends with.
ALLOWED_SERVICES = {
    "events.services.event_reopen": "reopening is how a closed event takes writes again",
    "events.services.event_close": "refuses a closed event itself: 'already closed'",
    "events.services.access_grant": "who manages the event, not its results",
    "events.services.audit_record": "the audit primitive the services end with",
    "events.services.event_changed": "the audit primitive the services end with",
    "events.imports.import_notes_dismiss": "hides the import's notes (audited); no result changes",
    "prizes.services.prize_fund_set": "prizes: after the final standings",
    "prizes.services.prize_settings_set": "prizes: after the final standings",
    "prizes.services.prize_category_save": "prizes: after the final standings",
    "prizes.services.prize_category_delete": "prizes: after the final standings",
    "prizes.services.prize_sheet_approve": "prizes: approved on the final standings",
}


# -- The seven writes, with real form data ----------------------------------------------


@pytest.fixture
def closed_event(event, director):  # type: ignore[no-untyped-def]
    """conftest's 4-player Swiss, round 1 played, closed by its director."""
    for game in Game.objects.filter(round__event=event):
        game_result_record(game_id=game.pk, result="1-0", expected_version=None, user=director)
    event_close(event=event, user=director)
    return event


def _seven_writes(event: Event) -> list[tuple[str, str, dict[str, str]]]:
    """The issue's list: a result changed by the director and by an arbiter, a late entry, a
    bye request, a forbidden pair, a new player, pairing a round (last: it fixes round 2)."""
    first, second = Game.objects.filter(round__event=event).order_by("board")
    swiss = f"/e/{event.slug}/swiss"
    return [
        ("director", _result_url(first), {"result": "0-1", "version": str(first.version)}),
        ("arbiter", _result_url(second), {"result": "0-1", "version": str(second.version)}),
        ("director", f"{swiss}/late-entry/", {"name": "Late, Lena", "missed": "zero"}),
        ("director", f"{swiss}/byes/", {"start_no": "1", "round": "2", "kind": "half"}),
        ("director", f"{swiss}/forbidden/", {"first": "1", "second": "3"}),
        ("director", f"/e/{event.slug}/players/", {"add": "1", "name": "New, Nils"}),
        ("director", f"{swiss}/rounds/2/pair/", {}),
    ]


def _result_url(game: Game) -> str:
    return f"/e/{game.round.event.slug}/games/{game.pk}/result/"


def _open_and_write(client_for, people, event) -> list[str]:  # type: ignore[no-untyped-def]
    """Which of the seven writes change the database (the control: on an open event,
    all seven do, so the refusals below are refusals and not bad form data)."""
    written = []
    for who, url, data in _seven_writes(event):
        before = matrix.db_state()
        client_for(people[who]).post(url, data)
        if matrix.db_state() != before:
            written.append(url)
    return written


def test_the_seven_writes_write_on_an_open_event(event, director, arbiter, client_for):  # type: ignore[no-untyped-def]
    for game in Game.objects.filter(round__event=event):
        game_result_record(game_id=game.pk, result="1-0", expected_version=None, user=director)
    people = {"director": director, "arbiter": arbiter}
    assert len(_open_and_write(client_for, people, event)) == 7


def test_the_seven_writes_are_refused_on_a_closed_event(
    closed_event, director, arbiter, client_for
):  # type: ignore[no-untyped-def]
    people = {"director": director, "arbiter": arbiter}
    for who, url, data in _seven_writes(closed_event):
        before = matrix.db_state()
        response = client_for(people[who]).post(url, data, follow=True)
        assert response.redirect_chain[-1] == (f"/e/{closed_event.slug}/", 303), url
        page = response.content.decode()
        assert MESSAGE in page.replace("&#x27;", "'"), url
        assert "Final" in page
        assert matrix.db_state() == before, f"{who} wrote to a closed event through {url}"


def test_the_director_and_arbiter_pages_say_the_event_is_closed(
    closed_event, director, arbiter, client_for
):  # type: ignore[no-untyped-def]
    note = "This event is closed (final): its results, pairings and players cannot change"
    for who, page in ((director, "players/"), (arbiter, "rounds/1/results/")):
        assert note in client_for(who).get(f"/e/{closed_event.slug}/{page}").content.decode()
    assert note not in client_for(None).get(f"/e/{closed_event.slug}/").content.decode()


def test_only_the_director_reopens_and_the_reopening_is_audited(
    closed_event, director, arbiter, client_for
):  # type: ignore[no-untyped-def]
    url = f"/e/{closed_event.slug}/close/"
    assert client_for(arbiter).post(url, {"reopen": "1"}).status_code == 403
    closed_event.refresh_from_db()
    assert closed_event.status == EventStatus.FINISHED
    client_for(director).post(url, {"reopen": "1"})
    closed_event.refresh_from_db()
    assert closed_event.status == EventStatus.RUNNING
    entry = AuditEntry.objects.filter(event=closed_event).order_by("-id").first()
    assert entry is not None and (entry.action, entry.user) == ("event.reopen", director)
    # Open again: the director's new player is registered.
    client_for(director).post(f"/e/{closed_event.slug}/players/", {"add": "1", "name": "N, N"})
    assert Player.objects.filter(event=closed_event, name="N, N").exists()


# -- Every write service ------------------------------------------------------------------------


def _write_services() -> list[tuple[str, Callable[..., Any]]]:
    """Every public function of the apps that takes keyword-only ``event`` and ``user``: by
    the house style, the services that write to an event."""
    found = []
    tops = (
        "events",
        "draws",
        "standings",
        "playoffs",
        "prizes",
        "formats",
        "fiderating",
        "ratings",
    )
    for top in tops:
        package = importlib.import_module(top)
        for info in pkgutil.walk_packages(package.__path__, f"{top}."):
            if any(part in info.name for part in (".migrations", ".management")):
                continue
            module = importlib.import_module(info.name)
            for name, function in vars(module).items():
                if name.startswith("_") or not inspect.isfunction(function):
                    continue
                if function.__module__ != module.__name__:
                    continue
                keywords = {
                    p.name
                    for p in inspect.signature(function).parameters.values()
                    if p.kind is p.KEYWORD_ONLY
                }
                if {"event", "user"} <= keywords:
                    found.append((f"{module.__name__}.{name}", function))
    return found


WRITE_SERVICES = _write_services()


def test_the_service_walk_finds_the_services_of_every_app() -> None:
    names = {name for name, _ in WRITE_SERVICES}
    modules = {name.rsplit(".", 1)[0] for name in names}
    assert len(names) > 50, names
    assert {
        "events.services",
        "draws.services",
        "draws.swiss.services",
        "playoffs.services",
        "prizes.services",
        "formats.gnot.services",
        "formats.gnot.corrections",
        "formats.cohen.services",
        "formats.mso.services",
        "formats.mso.extra_rounds",
        "fiderating.services",
        "ratings.services",
    } <= modules
    assert set(ALLOWED_SERVICES) <= names


@pytest.mark.django_db
@pytest.mark.parametrize(
    "function",
    [pytest.param(f, id=name) for name, f in WRITE_SERVICES if name not in ALLOWED_SERVICES],
)
def test_every_write_service_refuses_a_closed_event(function, closed_event, director) -> None:  # type: ignore[no-untyped-def]
    """Called with nothing but the closed event and the user (every other argument None), a
    service must refuse before it reads anything else: the guard comes first."""
    required = {
        p.name: None
        for p in inspect.signature(function).parameters.values()
        if p.kind is p.KEYWORD_ONLY and p.default is p.empty
    }
    before = matrix.db_state()
    with pytest.raises(EventClosed, match="This event is closed"):
        function(**{**required, "event": closed_event, "user": director})
    assert matrix.db_state() == before


@pytest.mark.django_db
def test_a_result_of_a_closed_event_is_refused(closed_event, arbiter) -> None:  # type: ignore[no-untyped-def]
    game = Game.objects.filter(round__event=closed_event).first()
    assert game is not None
    with pytest.raises(EventClosed):
        game_result_record(game_id=game.pk, result="0-1", expected_version=None, user=arbiter)
    game.refresh_from_db()
    assert game.result == "1-0"


# -- The write commands --------------------------------------------------------------------------


@pytest.mark.django_db
def test_pair_refuses_a_closed_event(closed_event) -> None:  # type: ignore[no-untyped-def]
    before = matrix.db_state()
    with pytest.raises(CommandError, match="This event is closed"):
        call_command("pair", closed_event.slug)
    assert matrix.db_state() == before


@pytest.mark.django_db
def test_varma_draw_refuses_a_closed_event(director) -> None:  # type: ignore[no-untyped-def]
    from tests.conftest import make_event

    event = make_event(director, players=10, system="round_robin", rounds=9)
    Event.objects.filter(pk=event.pk).update(status=EventStatus.FINISHED)
    before = matrix.db_state()
    with pytest.raises(CommandError, match="This event is closed"):
        call_command("varma_draw", event.slug, "--seed", "s")
    assert matrix.db_state() == before


# -- An event always has a director ---------------------------------------------------------------


def test_the_last_director_cannot_demote_themself(event, director, client_for) -> None:  # type: ignore[no-untyped-def]
    url = f"/e/{event.slug}/access/"
    before = matrix.db_state()
    response = client_for(director).post(url, {"username": director.username, "role": "arbiter"})
    assert "is the event&#x27;s only director" in response.content.decode()
    assert matrix.db_state() == before
    assert EventAccess.objects.get(event=event, user=director).role == Role.DIRECTOR


def test_a_director_may_step_down_once_there_is_another(event, director, visitor) -> None:  # type: ignore[no-untyped-def]
    access_grant(event=event, username=visitor.username, role=Role.DIRECTOR, user=director)
    access_grant(event=event, username=director.username, role=Role.ARBITER, user=director)
    assert EventAccess.objects.get(event=event, user=director).role == Role.ARBITER
    with pytest.raises(UserError, match="only director"):
        access_grant(event=event, username=visitor.username, role=Role.ARBITER, user=visitor)


def test_a_closed_event_still_takes_a_new_director(closed_event, director, visitor, client_for):  # type: ignore[no-untyped-def]
    response = client_for(director).post(
        f"/e/{closed_event.slug}/access/", {"username": visitor.username, "role": "director"}
    )
    assert response.status_code == 302
    assert EventAccess.objects.get(event=closed_event, user=visitor).role == Role.DIRECTOR
