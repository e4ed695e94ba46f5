"""A page someone's role does not open answers 403 with a page that says what they may do in
the event and whom to ask (its directors), not a bare "403" (issue 20, "Denied pages")."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.django_db


def _text(response) -> str:  # type: ignore[no-untyped-def]
    body = response.content.decode()
    main = body[body.index("<main") :] if "<main" in body else body
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", main))


@pytest.mark.parametrize(
    ("persona", "path", "may", "ask_for"),
    [
        ("arbiter", "players/", "you may enter and correct its results", "a director's access"),
        ("arbiter", "edit/", "you may enter and correct its results", "a director's access"),
        ("visitor", "rounds/1/results/", "you may follow its public pages", "an arbiter's access"),
        ("visitor", "audit/", "you may follow its public pages", "a director's access"),
    ],
)
def test_the_denied_page_says_what_the_person_may_do_and_whom_to_ask(
    event, director, arbiter, visitor, client_for, persona, path, may, ask_for
) -> None:  # type: ignore[no-untyped-def]
    director.first_name, director.last_name = "Dora", "Director"
    director.save()
    user = {"arbiter": arbiter, "visitor": visitor}[persona]
    response = client_for(user).get(f"/e/{event.slug}/{path}")
    assert response.status_code == 403
    text = _text(response)
    assert f"This page of {event.name} is not open to you" in text
    assert may in text
    assert f"To be given {ask_for}, ask the event's director: Dora Director" in text
    assert f'href="/e/{event.slug}/"' in response.content.decode()


def test_a_stranger_never_learns_a_directors_login(event, director, visitor, client_for) -> None:  # type: ignore[no-untyped-def]
    """The login throttle counts failures per login: a login shown to a stranger would let them
    lock the director out. An arbiter of the event may see it."""
    text = _text(client_for(visitor).get(f"/e/{event.slug}/audit/"))
    assert director.username not in text
    assert "ask the event's director to add you" in text


def test_a_refused_post_writes_nothing_and_gets_the_same_page(event, arbiter, client_for) -> None:  # type: ignore[no-untyped-def]
    from events.models import Player

    before = Player.objects.filter(event=event).count()
    response = client_for(arbiter).post(
        f"/e/{event.slug}/players/", {"name": "Intruder, Ivan", "rating": "1500"}
    )
    assert response.status_code == 403
    assert "ask the event's director" in _text(response)
    assert Player.objects.filter(event=event).count() == before


def test_a_page_outside_any_event_still_explains(visitor, client_for) -> None:  # type: ignore[no-untyped-def]
    response = client_for(visitor).post("/rating-lists/", {})
    assert response.status_code == 403
    text = _text(response)
    assert "Only a manager of rating lists may import them." in text
    assert "Ask whoever runs this site for access" in text
