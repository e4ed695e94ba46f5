"""Playoff screens with personas (house style 6): the full page, the htmx partial, and the
403/404 (or the login redirect) for the wrong person, on every playoff URL."""

from __future__ import annotations

import pytest
from django.urls import reverse

from playoffs import selectors
from playoffs.models import ArbiterDecision, CoinToss, PlayoffGame, PlayoffState
from tests.playoffs.conftest import confirm, drawn, gct_event, plan_of, play_current_stage

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def url(name: str, slug: str, *args: int) -> str:
    return reverse(f"playoffs:{name}", args=[slug, *args])


def people(director, arbiter, other_arbiter, visitor):  # type: ignore[no-untyped-def]
    return {
        "director": director,
        "arbiter": arbiter,
        "other_arbiter": other_arbiter,
        "visitor": visitor,
        "anonymous": None,
    }


# (url name, url args, method, who may) — everyone else gets 403, anonymous the login page.
EVERYONE = {"director", "arbiter", "other_arbiter", "visitor", "anonymous"}
RESULTS = {"director", "arbiter"}
DIRECTOR = {"director"}
URLS = [
    ("playoff", (), "get", EVERYONE),
    ("proposal", (), "get", EVERYONE),
    ("manage", (), "get", RESULTS),
    ("confirm", (), "post", DIRECTOR),
    ("decision", (), "post", DIRECTOR),
    ("reset", (), "post", DIRECTOR),
    ("undo", (999,), "post", DIRECTOR),
    ("game_result", (1, 1), "post", RESULTS),
    ("coin_toss", (1, 1), "post", DIRECTOR),
]


@pytest.mark.parametrize(("name", "args", "method", "allowed"), URLS, ids=[u[0] for u in URLS])
@pytest.mark.parametrize("who", sorted(EVERYONE))
def test_personas_on_every_playoff_url(
    classical,
    director,
    arbiter,
    other_arbiter,
    visitor,
    client_for,
    name,
    args,
    method,
    allowed,
    who,
):
    client = client_for(people(director, arbiter, other_arbiter, visitor)[who])
    response = getattr(client, method)(url(name, classical.slug, *args))
    if who in allowed:
        assert response.status_code in (200, 302, 400)
        if response.status_code == 302:
            assert "/accounts/login/" not in response["Location"]
    elif who == "anonymous":
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    else:
        assert response.status_code == 403


@pytest.mark.parametrize(("name", "args", "method", "allowed"), URLS, ids=[u[0] for u in URLS])
def test_unknown_event_is_404(director, client_for, name, args, method, allowed):
    response = getattr(client_for(director), method)(url(name, "no-such-event", *args))
    assert response.status_code == 404


def test_event_page_loads_the_proposal_and_the_director_confirms(classical, director, client_for):
    client = client_for(director)
    page = client.get(reverse("events:event_detail", args=[classical.slug]))
    assert url("proposal", classical.slug) in page.content.decode()
    box = client.get(url("proposal", classical.slug), **HTMX).content.decode()
    assert box.lstrip().startswith('<div id="playoff-proposal">')
    assert "Confirm the playoff" in box and "Player 1, 2. Player 2, 3. Player 3" in box
    assert "reserve day after the last scheduled round (3.2)" in box
    response = client.post(url("confirm", classical.slug), {"last_round_date": "2019-08-28"})
    assert response.status_code == 302 and response["Location"] == url("manage", classical.slug)
    assert PlayoffState.objects.get(event=classical).start_day.isoformat() == "2019-08-29"
    box = client.get(url("proposal", classical.slug), **HTMX).content.decode()
    assert "Confirm the playoff" not in box and "Manage the playoff" in box


def test_visitor_sees_the_proposal_without_a_confirm_button(classical, visitor, client_for):
    box = client_for(visitor).get(url("proposal", classical.slug), **HTMX).content.decode()
    assert "Playoff for first place" in box and "Confirm" not in box


def test_arbiter_cannot_confirm(classical, arbiter, client_for):
    response = client_for(arbiter).post(
        url("confirm", classical.slug), {"last_round_date": "2019-08-28"}
    )
    assert response.status_code == 403
    assert not PlayoffState.objects.exists()


def test_arbiter_enters_a_result_with_htmx_and_gets_the_row(
    classical, director, arbiter, client_for
):
    confirm(classical, director)
    game = plan_of(classical).stages[0].games[0]
    version = selectors.numbered_rows(classical)[(1, 1)].version
    response = client_for(arbiter).post(
        url("game_result", classical.slug, 1, 1),
        {"result": "1-0", "version": version, "white": game.white, "black": game.black},
        **HTMX,
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<tr id="playoff-game-1-1"')
    assert 'class="chosen" aria-pressed="true">1-0' in html
    assert PlayoffGame.objects.filter(event=classical, result="1-0").count() == 1


def shown(event, game: int, stage: int = 1) -> int:  # type: ignore[no-untyped-def]
    """The version the manage page puts in a playoff game's form (its hidden field)."""
    return selectors.numbered_rows(event)[(stage, game)].version


def test_a_playoff_result_without_a_version_is_a_conflict(classical, director, client_for):
    """As on the result-entry page (issue 19): no version, no overwrite."""
    confirm(classical, director)
    client_for(director).post(
        url("game_result", classical.slug, 1, 1), {"result": "1-0", "version": shown(classical, 1)}
    )
    page = client_for(director).post(url("game_result", classical.slug, 1, 1), {"result": "0-1"})
    assert page.status_code == 409
    assert PlayoffGame.objects.get(event=classical, stage=1, result="1-0")


def test_result_without_javascript_redirects_back_to_the_game(classical, director, client_for):
    confirm(classical, director)
    response = client_for(director).post(
        url("game_result", classical.slug, 1, 1),
        {"result": "1/2-1/2", "version": shown(classical, 1)},
    )
    assert response.status_code == 302
    assert response["Location"] == url("manage", classical.slug) + "#playoff-game-1-1"


def test_conflict_on_a_playoff_game(classical, director, arbiter, client_for):
    confirm(classical, director)
    version = selectors.numbered_rows(classical)[(1, 1)].version
    client_for(arbiter).post(
        url("game_result", classical.slug, 1, 1), {"result": "1-0", "version": version}, **HTMX
    )
    # The director's page still shows the old version.
    row = client_for(director).post(
        url("game_result", classical.slug, 1, 1), {"result": "0-1", "version": version}, **HTMX
    )
    html = row.content.decode()
    assert row.status_code == 200 and 'class="conflict"' in html
    assert "Saved now: <strong>1-0</strong>" in html and "Replace with mine" in html
    page = client_for(director).post(
        url("game_result", classical.slug, 1, 1), {"result": "0-1", "version": version}
    )
    assert page.status_code == 409
    assert PlayoffGame.objects.get(event=classical, stage=1, result="1-0")


def test_completing_a_stage_refreshes_the_whole_page(classical, director, client_for):
    confirm(classical, director)
    client = client_for(director)
    for number in (1, 2, 3):
        response = client.post(
            url("game_result", classical.slug, 1, number),
            {"result": "1/2-1/2", "version": shown(classical, number)},
            **HTMX,
        )
    assert response["HX-Refresh"] == "true"
    page = client.get(url("manage", classical.slug)).content.decode()
    assert "Stage 2: Blitz round robin" in page and "colours reversed (3.6)" in page


def test_coin_toss_form_and_public_bracket(director, client_for):
    event = gct_event(director, preset="gct-2019-rapid-blitz", name="Rapid Cup")
    confirm(event, director)
    play_current_stage(event, director, drawn)
    client = client_for(director)
    manage = client.get(url("manage", event.slug)).content.decode()
    assert "Record toss" in manage and "Colours pending" in manage
    game = plan_of(event).stages[1].games[0]
    row = client.post(
        url("coin_toss", event.slug, 2, 1),
        {"toss_winner": game.players[1], "choice": "white"},
        **HTMX,
    ).content.decode()
    assert CoinToss.objects.get(event=event).toss_winner == game.players[1]
    assert "Record toss" not in row and 'name="result"' in row
    public = client_for(None).get(url("playoff", event.slug))
    html = public.content.decode()
    assert public.status_code == 200 and "<svg" in html and "Armageddon round 1" in html
    assert "· bye" in html and "White 5 min, Black 4 min" in html
    assert "30" in html  # the start, 2.2
    board = client_for(None).get(url("playoff", event.slug), **HTMX).content.decode()
    assert board.lstrip().startswith('<div id="playoff-board"') and "every 20s" in board


def test_public_page_answers_304_for_an_unchanged_version(classical, client_for):
    client = client_for(None)
    first = client.get(url("playoff", classical.slug))
    again = client.get(url("playoff", classical.slug), HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304


def test_decision_form_after_four_round_robins(classical, director, client_for):
    confirm(classical, director)
    for _ in range(4):
        play_current_stage(classical, director, drawn)
    client = client_for(director)
    assert "decision (3.5)</h2>" in client.get(url("manage", classical.slug)).content.decode()
    bad = client.post(url("decision", classical.slug), {"order": "1, 2", "reason": "lots"})
    assert bad.status_code == 400 and "exactly the players still tied" in bad.content.decode()
    good = client.post(url("decision", classical.slug), {"order": "2, 1, 3", "reason": "lots"})
    assert good.status_code == 302
    assert ArbiterDecision.objects.get(event=classical).order == [2, 1, 3]
    public = client_for(None).get(url("playoff", classical.slug)).content.decode()
    assert "Winner: <strong>2. Player 2</strong>" in public


def test_stale_tie_is_shown_on_the_manage_page(classical, director, client_for):
    from events.models import Game
    from events.services import game_result_record

    confirm(classical, director)
    game = Game.objects.get(round__event=classical, round__number=1, white__start_no=1)
    game_result_record(game_id=game.pk, result="0-1", expected_version=None, user=director)
    page = client_for(director).get(url("manage", classical.slug)).content.decode()
    assert "The standings changed after the director confirmed" in page
    assert "Confirm the new tie" in page


def test_reset_needs_the_tick_and_then_deletes_the_playoff(classical, director, client_for):
    confirm(classical, director)
    client = client_for(director)
    client.post(url("reset", classical.slug))
    assert PlayoffState.objects.filter(event=classical).exists()
    response = client.post(url("reset", classical.slug), {"confirm_reset": "yes"})
    assert response.status_code == 302
    assert not PlayoffState.objects.filter(event=classical).exists()


def test_director_undoes_a_playoff_result_from_the_manage_page(classical, director, client_for):
    from events.models import AuditEntry

    confirm(classical, director)
    client = client_for(director)
    client.post(
        url("game_result", classical.slug, 1, 1), {"result": "1-0", "version": shown(classical, 1)}
    )
    page = client.get(url("manage", classical.slug)).content.decode()
    entry = AuditEntry.objects.get(event=classical, action="playoff.result.record")
    assert url("undo", classical.slug, entry.pk) in page
    client.post(url("undo", classical.slug, entry.pk))
    assert not PlayoffGame.objects.filter(event=classical).exclude(result="").exists()


def test_no_tie_no_proposal(director, client_for):
    event = gct_event(director, rounds={1: [(1, 4, "1-0"), (2, 3, "1-0")]}, name="Early")
    box = client_for(director).get(url("proposal", event.slug), **HTMX).content.decode()
    assert box.strip() == '<div id="playoff-proposal">\n\n</div>'.strip() or "Confirm" not in box
    public = client_for(None).get(url("playoff", event.slug)).content.decode()
    assert "No playoff" in public
