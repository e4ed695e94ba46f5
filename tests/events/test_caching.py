"""The public pages' shared rendering (events/caching.py, issues 24 and 19).

One computation per page after a write however many spectators ask at once (across threads
here; across app servers through Redis), the previous rendering to everyone meanwhile, never
older than the bound, logged-in people always current, and the query parameters a page does
not read never reaching it nor the cache key.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connections
from django.test import Client, RequestFactory, override_settings
from django.urls import reverse

from events import caching
from events import views as event_views
from events.models import Event, Game, Round
from events.services import event_version_bump, game_result_record

HTMX = {"HX-Request": "true"}


def board_one(event: Event) -> Game:
    return Game.objects.get(round__event=event, board=1)


def save_result(event: Event, director: Any, result: str = "1-0") -> None:
    game_result_record(
        game_id=board_one(event).pk, result=result, expected_version=None, user=director
    )


def round_page(event: Event) -> str:
    return reverse("events:round_detail", args=[event.slug, 1])


class Renders:
    """Counts the round page's computations (its one ``render`` call); each one is slowed
    down so that requests sent together overlap it."""

    def __init__(self, delay: float) -> None:
        self.count = 0
        self.delay = delay
        self._lock = threading.Lock()
        self._render = event_views.render

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        with self._lock:
            self.count += 1
        time.sleep(self.delay)
        return self._render(*args, **kwargs)


@pytest.fixture
def renders(monkeypatch: pytest.MonkeyPatch) -> Callable[[float], Renders]:
    def install(delay: float = 0.0) -> Renders:
        counter = Renders(delay)
        monkeypatch.setattr(event_views, "render", counter)
        return counter

    return install


class Clock:
    """events.caching's wall clock, standing still unless a test moves it, so that the ages the
    tests compare with the staleness bound and the refresh interval do not grow with a slow
    machine (a save that took a second on a busy CI runner made a one-second bound pass)."""

    monotonic = staticmethod(time.monotonic)  # the waits for a lock run on real time
    sleep = staticmethod(time.sleep)

    def __init__(self) -> None:
        self.now = time.time()

    def time(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    stopped = Clock()
    monkeypatch.setattr(caching, "time", stopped)
    return stopped


@pytest.fixture(params=["per-process", "redis"])
def shared_cache(request: pytest.FixtureRequest) -> Iterator[str]:
    """The cache of one process (locmem, as without ``REDIS_URL``), or Redis as several app
    servers share it."""
    if request.param == "redis":
        import redis

        client = redis.Redis.from_url("redis://127.0.0.1:6379/0", socket_connect_timeout=1)
        try:
            client.ping()
        except redis.RedisError:
            pytest.skip("no Redis on 127.0.0.1:6379")
        prefix = f"td-test-{uuid.uuid4().hex[:12]}"
        redis_cache = {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:6379/0",
            "KEY_PREFIX": prefix,
        }
        # Left before any other fixture's teardown: the suite's cache.clear() must never reach
        # a Redis that others share (it would empty the whole database).
        with override_settings(CACHES={"default": redis_cache}):
            yield request.param
        keys = client.keys(f"{prefix}:*")
        if keys:
            client.delete(*keys)
    else:
        yield request.param


@pytest.fixture
def rendered(event, settings, monkeypatch, clock):  # type: ignore[no-untyped-def]
    """The round page rendered once for spectators, under a staleness bound and a refresh
    interval, its age read from the stopped clock; its address."""

    def render_once(stale: int, refresh: float) -> str:
        settings.PUBLIC_PAGE_STALE_SECONDS = stale
        monkeypatch.setattr(caching, "REFRESH_SECONDS", refresh)
        address = round_page(event)
        assert Client().get(address).status_code == 200
        return address

    return render_once


def together(address: str, count: int = 2, **headers: str) -> list[Any]:
    """``count`` anonymous spectators asking for the page at the same moment, each on its own
    thread (and so its own database connection)."""
    start = threading.Barrier(count)
    answers: list[Any] = [None] * count

    def spectator(number: int) -> None:
        try:
            start.wait()
            answers[number] = Client().get(address, headers=headers)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=spectator, args=(n,)) for n in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return answers


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("stale_seconds", [10, 0], ids=["stale-while-revalidate", "current-only"])
def test_two_spectators_after_a_result_compute_the_page_once(
    event, director, renders, settings, monkeypatch, shared_cache, stale_seconds, clock
):
    settings.PUBLIC_PAGE_STALE_SECONDS = stale_seconds
    monkeypatch.setattr(caching, "REFRESH_SECONDS", 0)  # recompute as soon as it is stale
    address = round_page(event)
    assert "<strong>–</strong>" in Client().get(address).content.decode()
    counter = renders(delay=0.5)

    save_result(event, director)
    first, second = together(address)

    assert counter.count == 1, "the page was computed once per spectator, not once"
    assert first.status_code == second.status_code == 200
    # Whoever came second had the rendering the first one made, or the previous one while
    # it was being made (stale-while-revalidate); in either case nobody computed it again.
    latest = Client().get(address).content.decode()
    assert "<strong>1-0</strong>" in latest
    assert counter.count == 1


@pytest.mark.django_db(transaction=True)
def test_spectators_arriving_together_at_a_page_nobody_has_rendered_compute_it_once(
    event, renders, shared_cache
):
    counter = renders(delay=0.5)
    answers = together(round_page(event), count=4)
    assert counter.count == 1
    assert {answer.status_code for answer in answers} == {200}
    assert len({answer.content for answer in answers}) == 1
    assert len({answer["ETag"] for answer in answers}) == 1


@pytest.mark.django_db
def test_a_spectator_gets_the_previous_page_while_it_is_recomputed_then_the_new_one(
    event, director, rendered
):
    address = rendered(stale=10, refresh=0)
    spectator = Client()
    before = spectator.get(address)
    save_result(event, director)

    # The first reader after the write is answered at once with what is kept (its browser
    # already has it: 304); the page is recomputed once that answer has gone out.
    stale = spectator.get(address, headers={"If-None-Match": before["ETag"]})
    assert stale.status_code == 304
    assert stale["ETag"] == before["ETag"]
    fresh = spectator.get(address, headers={"If-None-Match": before["ETag"]})
    assert fresh.status_code == 200
    assert "<strong>1-0</strong>" in fresh.content.decode()
    assert fresh["ETag"] != before["ETag"]


@pytest.mark.django_db
def test_a_page_is_recomputed_at_most_every_refresh_interval(event, director, rendered, renders):
    address = rendered(stale=10, refresh=5)
    counter = renders()
    for result in ("1-0", "0-1", "1/2-1/2"):
        save_result(event, director, result)
        assert "<strong>–</strong>" in Client().get(address).content.decode()
    assert counter.count == 0


@pytest.mark.django_db
def test_a_stale_page_is_never_served_past_the_bound(event, director, rendered, renders, clock):
    address = rendered(stale=1, refresh=60)  # no recomputation in the background
    save_result(event, director)
    assert "<strong>–</strong>" in Client().get(address).content.decode()
    clock.advance(1.1)
    counter = renders()
    assert "<strong>1-0</strong>" in Client().get(address).content.decode()
    assert counter.count == 1


@pytest.mark.django_db
def test_a_reader_does_not_wait_for_ever_for_a_worker_that_died(event, monkeypatch, renders):
    monkeypatch.setattr(caching, "WAIT_SECONDS", 0.3)
    address = round_page(event)
    dead = caching.LivePage(
        event_views.round_detail, RequestFactory().get(address), event.slug, (), {}
    )
    assert cache.add(dead.lock_key, "a worker killed while computing", caching.LOCK_SECONDS)
    counter = renders()
    started = time.monotonic()
    assert Client().get(address).status_code == 200
    assert counter.count == 1
    assert 0.3 <= time.monotonic() - started < caching.LOCK_SECONDS


@pytest.mark.django_db
def test_a_page_that_is_gone_is_dropped_at_its_refresh(event, rendered):
    address = rendered(stale=10, refresh=0)
    Round.objects.filter(event=event, number=1).update(published=False)
    event_version_bump(event=event)  # as the Swiss workflow does when it takes a round back
    assert Client().get(address).status_code == 200  # the kept page, while it is recomputed
    assert Client().get(address).status_code == 404


@pytest.mark.django_db
def test_directors_and_arbiters_always_see_the_current_page(event, director, arbiter, rendered):
    address = rendered(stale=10, refresh=60)
    save_result(event, director)
    assert "<strong>–</strong>" in Client().get(address).content.decode()
    for person in (director, arbiter):
        client = Client()
        client.force_login(person)
        assert "<strong>1-0</strong>" in client.get(address).content.decode()


@pytest.mark.django_db
def test_the_htmx_partial_and_the_page_are_kept_apart(event):
    address = reverse("events:event_detail", args=[event.slug])
    page, partial = Client().get(address), Client().get(address, headers=HTMX)
    assert b"<!doctype html>" in page.content and b"<!doctype html>" not in partial.content
    assert Client().get(address, headers=HTMX).content == partial.content
    assert page["ETag"] != partial["ETag"]


# -- Issue 19: query parameters a page does not read -----------------------------------------------


@pytest.mark.django_db
def test_made_up_query_strings_do_not_make_the_crosstable_pdf_again(event, monkeypatch):
    made = []
    real = event_views.wall_chart_pdf

    def counted(**kwargs: Any) -> bytes:
        made.append(kwargs)
        return real(**kwargs)

    monkeypatch.setattr(event_views, "wall_chart_pdf", counted)
    address = reverse("events:crosstable_pdf", args=[event.slug])
    answers = [Client().get(f"{address}?x={n}") for n in range(5)]
    answers.append(Client().get(f"{address}?x=1&utm_source=qr"))
    assert len(made) == 1
    assert {answer.status_code for answer in answers} == {200}
    assert len({answer.content for answer in answers}) == 1
    assert answers[0]["Content-Disposition"] == f'inline; filename="{event.slug}-crosstable.pdf"'


@pytest.mark.django_db
def test_a_page_never_sees_a_parameter_it_does_not_declare(event):
    """The login link carries the page's address: an undeclared parameter must not be in it
    (else each made-up value would be a different page to render)."""
    address = reverse("events:crosstable", args=[event.slug])
    page = Client().get(f"{address}?evil=%3Cscript%3E").content.decode()
    assert "evil" not in page and "script%3E" not in page


@pytest.mark.django_db
def test_the_standings_read_their_round_in_one_spelling(event, director, monkeypatch):
    for result, number in (("1-0", 1), ("0-1", 2)):
        game = Game.objects.get(round__event=event, board=number)
        game_result_record(game_id=game.pk, result=result, expected_version=None, user=director)
    from standings import views as standings_views

    made = []
    real = standings_views.render

    def counted(*args: Any, **kwargs: Any) -> Any:
        made.append(args[1])
        return real(*args, **kwargs)

    monkeypatch.setattr(standings_views, "render", counted)
    address = reverse("standings:standings", args=[event.slug])
    same = [Client().get(f"{address}?after={after}") for after in ("1", "01", "001", "1&x=2")]
    assert len(made) == 1
    assert len({answer.content for answer in same}) == 1
    # A round the event does not have still says so, where the visitor is.
    assert "the event has rounds 1–3" in Client().get(f"{address}?after=7").content.decode()
    # Numbers no event has (the event form stops at 99 rounds) are not kept apart.
    for after in ("100", "123456789", "abc", "²"):
        Client().get(f"{address}?after={after}")
    assert len(made) == 3


@pytest.mark.django_db
def test_the_explanation_keeps_its_three_parameters(event, director):
    for result, number in (("1-0", 1), ("1-0", 2)):
        game = Game.objects.get(round__event=event, board=number)
        game_result_record(game_id=game.pk, result=result, expected_version=None, user=director)
    address = reverse("standings:explain", args=[event.slug])
    one = Client().get(f"{address}?a=1&b=3&after=1&junk=1")
    assert one.status_code == 200
    assert Client().get(f"{address}?a=01&b=3&after=1").content == one.content
    assert Client().get(f"{address}?a=1&b=4&after=1").content != one.content
