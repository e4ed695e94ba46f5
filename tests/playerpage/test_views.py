"""The player's page and reporting from it (issue 21): personas are the players of a game
(white, black), a stranger with a made-up or revoked link, the arbiter and the director.

The conftest event: a 4-player Swiss, round 1 paired (1-2 on board 1, 3-4 on board 2).
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from events.models import AuditEntry, Event, EventStatus, Game, Player, Round
from events.services import (
    ByeInput,
    PairingInput,
    event_close,
    game_result_record,
    round_pairings_set,
)
from playerpage.models import PlayerLink, Policy, ResultReport
from playerpage.selectors import THROTTLE_REPORTS
from playerpage.services import player_link_reissue, player_link_revoke, reporting_policy_set
from standings.selectors import event_standings
from tests.playerpage.helpers import board, token_of, url_of

pytestmark = pytest.mark.django_db


def report(event: Event, start_no: int, result: str, client: Client | None = None):  # type: ignore[no-untyped-def]
    return (client or Client()).post(url_of(event, start_no), {"result": result})


def everything(event: Event) -> tuple[object, ...]:
    """What a refused report must leave as it was."""
    return (
        list(Game.objects.filter(round__event=event).values_list("result", "version")),
        ResultReport.objects.count(),
        AuditEntry.objects.filter(event=event).count(),
        Event.objects.get(pk=event.pk).results_version,
    )


# -- The page ----------------------------------------------------------------------------------


def test_the_page_shows_board_colour_and_opponent(event) -> None:  # type: ignore[no-untyped-def]
    response = Client().get(url_of(event, 2))
    assert response.status_code == 200
    text = response.content.decode()
    assert "Board 1" in text and "you play <strong>Black</strong>" in text
    assert "1. Player 1" in text and "Spring Open" in text
    assert response["Referrer-Policy"] == "same-origin"
    assert "private" in response["Cache-Control"]


@pytest.mark.parametrize(
    ("setup", "said"),
    [
        pytest.param("unpublished", "Not paired yet", id="round-under-review"),
        pytest.param("bye", "You have a bye (Half-point bye)", id="bye"),
        pytest.param("withdrew", "You withdrew", id="withdrew"),
    ],
)
def test_the_page_says_when_there_is_no_game(event, director, setup, said) -> None:  # type: ignore[no-untyped-def]
    if setup == "unpublished":
        Round.objects.filter(event=event).update(published=False)
    if setup in ("bye", "withdrew"):
        for game in Game.objects.filter(round__event=event):
            game_result_record(game_id=game.pk, result="1-0", expected_version=None, user=director)
        pairings = [PairingInput(1, 2, 1)]
        byes = [ByeInput(3, "half")] if setup == "bye" else []
        round_pairings_set(event=event, round_no=2, pairings=pairings, byes=byes, user=director)
        Player.objects.filter(event=event, start_no=3).update(
            withdrawn_after_round=None if setup == "bye" else 1
        )
    text = Client().get(url_of(event, 3)).content.decode()
    assert said in text
    assert 'name="result"' not in text  # nothing to report


def test_the_page_shows_results_score_and_place(event, director) -> None:  # type: ignore[no-untyped-def]
    game_result_record(
        game_id=board(event, 1).pk, result="0-1", expected_version=None, user=director
    )
    game_result_record(
        game_id=board(event, 2).pk, result="1/2-1/2", expected_version=None, user=director
    )
    text = Client().get(url_of(event, 2)).content.decode()
    row = next(r for r in event_standings(event).rows if r.start_no == 2)
    assert f"Score 1 · place {row.rank}" in text
    assert "<td>1. Player 1</td><td>Black</td><td>1</td>" in text


@pytest.mark.parametrize(
    "token",
    [
        pytest.param("A" * 24, id="well-formed-unknown"),
        pytest.param("short", id="malformed"),
        pytest.param("x" * 200, id="too-long"),
        pytest.param("%00%27--", id="injection"),
    ],
)
@pytest.mark.parametrize("method", ["get", "post"])
def test_an_unknown_token_gets_a_404_and_nothing_else(event, token, method) -> None:  # type: ignore[no-untyped-def]
    before = everything(event)
    response = getattr(Client(), method)(f"/p/{token}/", {"result": "1-0"})
    assert response.status_code == 404
    assert "Spring Open" not in response.content.decode()
    assert everything(event) == before


def test_a_revoked_link_is_a_404_and_a_new_one_works(event, director) -> None:  # type: ignore[no-untyped-def]
    old = url_of(event, 1)
    assert Client().get(old).status_code == 200  # the token's player is now cached
    player_link_revoke(event=event, start_no=1, user=director)
    assert Client().get(old).status_code == 404
    assert (
        report(event, 1, "1-0").status_code == 404
        or Client().post(old, {"result": "1-0"}).status_code == 404
    )
    assert Client().post(old, {"result": "1-0"}).status_code == 404
    player_link_reissue(event=event, start_no=1, user=director)
    new = url_of(event, 1)
    assert new != old
    assert Client().get(old).status_code == 404
    assert Client().get(new).status_code == 200
    actions = list(
        AuditEntry.objects.filter(
            event=event, action__in=["link.revoke", "link.reissue"]
        ).values_list("action", flat=True)
    )
    assert sorted(actions) == ["link.reissue", "link.revoke"]
    assert not any(token_of(event, 1) in str(e.after) + e.summary for e in AuditEntry.objects.all())


def test_tokens_are_long_random_and_distinct(director) -> None:  # type: ignore[no-untyped-def]
    from tests.conftest import make_event

    event = make_event(director, players=50)
    tokens = [token_of(event, n) for n in range(1, 51)]
    assert len(set(tokens)) == 50
    assert all(len(t) >= 22 for t in tokens)  # 128 bits at least in URL-safe base64


def test_the_page_shows_nothing_private_of_others(event) -> None:  # type: ignore[no-untyped-def]
    report(event, 1, "0-1")  # white's report, which black's page must not show
    text = Client().get(url_of(event, 2)).content.decode()
    for other in (1, 3, 4):
        assert token_of(event, other) not in text
    assert "reported" not in text


def test_an_unchanged_page_answers_304(event, django_assert_max_num_queries) -> None:  # type: ignore[no-untyped-def]
    client = Client()
    url = url_of(event, 1)
    first = client.get(url)
    assert first.status_code == 200 and first.has_header("ETag")
    with django_assert_max_num_queries(1):
        again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    game_result_record(game_id=board(event, 1).pk, result="1-0", expected_version=None, user=None)
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 200


def test_a_second_player_page_costs_no_recomputation(event, django_assert_max_num_queries) -> None:  # type: ignore[no-untyped-def]
    url = url_of(event, 1)
    Client().get(url)
    with django_assert_max_num_queries(1):  # another device of the player: cached data
        assert Client().get(url).status_code == 200


# -- Reporting -----------------------------------------------------------------------------------


def test_a_player_who_corrects_their_report_to_match_enters_it(event) -> None:  # type: ignore[no-untyped-def]
    report(event, 1, "0-1")
    report(event, 2, "1-0")
    assert board(event, 1).result == ""
    report(event, 1, "1-0")  # the latest report of each player counts
    assert board(event, 1).result == "1-0"


def test_two_matching_reports_enter_the_result_once(event) -> None:  # type: ignore[no-untyped-def]
    first = report(event, 1, "1-0")
    assert first.status_code == 302
    assert board(event, 1).result == ""
    second = report(event, 2, "1-0")
    assert second.status_code == 302
    game = board(event, 1)
    assert game.result == "1-0"
    entries = AuditEntry.objects.filter(game=game, action__startswith="result.")
    assert [e.action for e in entries] == ["result.record"]
    assert "reported by both players" in entries[0].summary
    assert AuditEntry.objects.filter(game=game, action="report.submit").count() == 2
    assert set(ResultReport.objects.values_list("status", flat=True)) == {"entered"}
    text = Client().get(f"/e/{event.slug}/rounds/1/").content.decode()
    assert "1-0" in text


@pytest.mark.parametrize(
    ("reports", "policy"),
    [
        pytest.param([(1, "1-0")], Policy.TWO_MATCHING, id="one-report"),
        pytest.param([(1, "1-0"), (2, "0-1")], Policy.TWO_MATCHING, id="disagreeing"),
        pytest.param([(1, "1-0"), (2, "1-0")], Policy.ARBITER, id="matching-but-arbiter-policy"),
        pytest.param(
            [(1, "1-0"), (2, "0-1"), (2, "1/2-1/2"), (1, "0-1")],
            Policy.TWO_MATCHING,
            id="crossed-changes",
        ),
    ],
)
def test_reports_that_wait_enter_nothing(event, director, reports, policy) -> None:  # type: ignore[no-untyped-def]
    reporting_policy_set(event=event, policy=policy, user=director)
    for start_no, result in reports:
        assert report(event, start_no, result).status_code == 302
    assert board(event, 1).result == ""
    assert ResultReport.objects.filter(status="waiting").count() == len(reports)


def test_a_report_after_the_result_is_refused_changes_nothing_and_is_shown_to_the_arbiter(
    event, arbiter, client_for
) -> None:  # type: ignore[no-untyped-def]
    """Issue 29: a refused late report moved the results version and wrote an audit entry, so
    20 of them made every cached public page again 20 times. Now the spectators' pages answer
    304 to the ETag they had, and only the arbiter's queue shows the reports."""
    game_result_record(
        game_id=board(event, 1).pk, result="1-0", expected_version=None, user=arbiter
    )
    standings = f"/e/{event.slug}/standings/"
    etag = Client().get(standings)["ETag"]
    phone = Client()
    page_before = phone.get(url_of(event, 2)).content
    before = everything(event)[2:]  # the audit entries and the results version
    for _ in range(THROTTLE_REPORTS):
        response = report(event, 2, "0-1", phone)
        assert response.status_code == 409
        assert "see the arbiter" in response.content.decode()
    assert report(event, 2, "0-1", phone).status_code == 429  # the throttle counts them
    assert everything(event)[2:] == before
    assert board(event, 1).result == "1-0"
    assert Client().get(standings, HTTP_IF_NONE_MATCH=etag).status_code == 304
    assert phone.get(url_of(event, 2)).content == page_before
    assert set(ResultReport.objects.values_list("status", flat=True)) == {"late"}
    queue = client_for(arbiter).get(f"/e/{event.slug}/rounds/1/results/").content.decode()
    assert queue.count("2. Player 2 reported 0-1") == THROTTLE_REPORTS


@pytest.mark.parametrize(
    ("case", "status"),
    [
        pytest.param("bad-result", 400, id="bad-result"),
        pytest.param("forfeit", 400, id="forfeit-is-the-arbiters"),
        pytest.param("policy-off", 403, id="players-may-not-report"),
        pytest.param("closed", 403, id="closed-event"),
        pytest.param("no-game", 409, id="bye-no-game"),
        pytest.param("nothing-published", 409, id="round-not-published"),
    ],
)
def test_refused_reports_change_nothing(event, director, case, status) -> None:  # type: ignore[no-untyped-def]
    result = {"bad-result": "2-0", "forfeit": "+/-"}.get(case, "1-0")
    start_no = 1
    token_of(event, 1)  # every player's link, issued while the event is open
    if case == "policy-off":
        reporting_policy_set(event=event, policy=Policy.OFF, user=director)
    if case == "closed":
        for game in Game.objects.filter(round__event=event):
            game_result_record(game_id=game.pk, result="1-0", expected_version=None, user=director)
        event_close(event=event, user=director)
    if case == "no-game":
        for game in Game.objects.filter(round__event=event):
            game_result_record(game_id=game.pk, result="1-0", expected_version=None, user=director)
        round_pairings_set(
            event=event,
            round_no=2,
            pairings=[PairingInput(1, 1, 3)],
            byes=[ByeInput(2, "half"), ByeInput(4, "zero")],
            user=director,
        )
        start_no = 2
    if case == "nothing-published":
        Round.objects.filter(event=event).update(published=False)
    url = url_of(event, start_no)
    before = everything(event)
    response = Client().post(url, {"result": result})
    assert response.status_code == status, response.content[:300]
    assert 'role="alert"' in response.content.decode()
    assert everything(event) == before


def test_a_player_reports_only_the_current_round(event, director) -> None:  # type: ignore[no-untyped-def]
    """Round 2 published: round 1's game (still without a result) is the arbiter's alone."""
    game_result_record(
        game_id=board(event, 2).pk, result="1-0", expected_version=None, user=director
    )
    round_pairings_set(
        event=event,
        round_no=2,
        pairings=[PairingInput(1, 3, 1), PairingInput(2, 4, 2)],
        user=director,
    )
    assert report(event, 1, "1-0").status_code == 302
    assert report(event, 2, "1-0").status_code == 302
    assert board(event, 1, round_no=1).result == ""
    assert {r.game.round.number for r in ResultReport.objects.select_related("game__round")} == {2}


def test_reports_are_throttled_per_link(event) -> None:  # type: ignore[no-untyped-def]
    token_of(event, 1)
    player = Player.objects.get(event=event, start_no=1)
    game = board(event, 1)
    now = timezone.now()
    ResultReport.objects.bulk_create(
        ResultReport(
            game=game, player=player, result="1-0", reported_at=now - dt.timedelta(seconds=i)
        )
        for i in range(THROTTLE_REPORTS)
    )
    before = everything(event)
    assert report(event, 1, "1-0").status_code == 429
    assert everything(event) == before
    assert report(event, 2, "0-1").status_code == 302  # another link is not held back


def test_a_report_needs_the_csrf_token(event) -> None:  # type: ignore[no-untyped-def]
    client = Client(enforce_csrf_checks=True)
    url = url_of(event, 1)
    before = everything(event)
    assert client.post(url, {"result": "1-0"}).status_code == 403
    assert everything(event) == before
    page = client.get(url)
    csrf = page.content.decode().split('name="csrfmiddlewaretoken" value="')[1].split('"')[0]
    assert client.post(url, {"result": "1-0", "csrfmiddlewaretoken": csrf}).status_code == 302


def test_the_report_conflicts_with_an_arbiter_who_saved_meanwhile(event, arbiter) -> None:  # type: ignore[no-untyped-def]
    """The second report enters through the arbiter's service with the version it read: an
    arbiter's save in between is never overwritten (the game row lock orders them)."""
    report(event, 1, "1-0")
    game_result_record(
        game_id=board(event, 1).pk, result="0-1", expected_version=None, user=arbiter
    )
    assert report(event, 2, "1-0").status_code == 409
    assert board(event, 1).result == "0-1"


# -- The arbiter's queue --------------------------------------------------------------------------


def _six_boards(director):  # type: ignore[no-untyped-def]
    from tests.conftest import make_event

    event = make_event(director, name="Queue Open", players=12)
    round_pairings_set(
        event=event,
        round_no=1,
        pairings=[PairingInput(b, 2 * b - 1, 2 * b) for b in range(1, 7)],
        user=director,
    )
    return event


def test_the_queue_puts_disagreements_first_then_single_reports(director, client_for) -> None:  # type: ignore[no-untyped-def]
    event = _six_boards(director)
    report(event, 1, "1-0")  # board 1: one report
    report(event, 5, "1-0")  # board 3: they disagree
    report(event, 6, "0-1")
    report(event, 9, "1/2-1/2")  # board 5: both agree → entered, not in the queue
    report(event, 10, "1/2-1/2")
    text = client_for(director).get(f"/e/{event.slug}/rounds/1/results/").content.decode()
    queue = text.split('id="report-queue"')[1].split("</section>")[0]
    ids = [board(event, n).pk for n in (3, 1)]
    positions = [queue.index(f'id="queue-{pk}"') for pk in ids]
    assert positions == sorted(positions)
    assert 'class="queue-disagree conflict"' in queue
    assert f'id="queue-{board(event, 5).pk}"' not in queue
    assert "3 games without a result or a report" in queue


def test_the_arbiter_confirms_a_report_in_one_tap(event, arbiter, client_for) -> None:  # type: ignore[no-untyped-def]
    report(event, 3, "0-1")
    pending = ResultReport.objects.get()
    game = board(event, 2)
    url = reverse("playerpage:confirm", args=[event.slug, pending.pk])
    response = client_for(arbiter).post(url, {"version": str(game.version)})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.result == "0-1"
    entry = AuditEntry.objects.get(game=game, action="result.record")
    assert entry.user == arbiter and "confirmed from 3. Player 3's report" in entry.summary


def test_a_stale_confirmation_is_a_conflict(event, arbiter, director, client_for) -> None:  # type: ignore[no-untyped-def]
    report(event, 3, "0-1")
    pending = ResultReport.objects.get()
    seen = board(event, 2).version
    game_result_record(
        game_id=board(event, 2).pk, result="1-0", expected_version=None, user=director
    )
    url = reverse("playerpage:confirm", args=[event.slug, pending.pk])
    client_for(arbiter).post(url, {"version": str(seen)})
    assert board(event, 2).result == "1-0"
    assert ResultReport.objects.get().status == "waiting"


@pytest.mark.parametrize("who", ["visitor", "other_arbiter", None])
def test_only_the_events_arbiters_confirm(event, who, request, client_for) -> None:  # type: ignore[no-untyped-def]
    report(event, 3, "0-1")
    pending = ResultReport.objects.get()
    user = request.getfixturevalue(who) if who else None
    before = everything(event)
    response = client_for(user).post(
        reverse("playerpage:confirm", args=[event.slug, pending.pk]), {"version": "1"}
    )
    assert response.status_code in (302, 403)
    if response.status_code == 302:
        assert "/accounts/login/" in response["Location"]
    assert everything(event) == before


def test_a_report_of_another_event_cannot_be_confirmed_here(event, director, client_for) -> None:  # type: ignore[no-untyped-def]
    other = _six_boards(director)
    report(other, 1, "1-0")
    pending = ResultReport.objects.get()
    response = client_for(director).post(
        reverse("playerpage:confirm", args=[event.slug, pending.pk]), {"version": "1"}
    )
    assert response.status_code == 404
    assert board(other, 1).result == ""


# -- The director's side ---------------------------------------------------------------------------


def test_the_director_sees_every_link_and_sets_the_policy(event, director, client_for) -> None:  # type: ignore[no-untyped-def]
    client = client_for(director)
    links = reverse("playerpage:links", args=[event.slug])
    assert "Issue links to 4 players without one" in client.get(links).content.decode()
    client.post(reverse("playerpage:links_issue", args=[event.slug]))
    assert PlayerLink.objects.filter(player__event=event).count() == 4
    assert AuditEntry.objects.filter(event=event, action="link.issue").count() == 1
    text = client.get(links).content.decode()
    assert "Issue links" not in text
    for start_no in range(1, 5):
        assert url_of(event, start_no) in text
    players_page = client.get(f"/e/{event.slug}/players/").content.decode()
    for start_no in range(1, 5):
        assert url_of(event, start_no) in players_page
    client.post(reverse("playerpage:policy", args=[event.slug]), {"policy": "arbiter"})
    assert event.reporting.policy == "arbiter"
    assert AuditEntry.objects.filter(event=event, action="reporting.policy").count() == 1
    client.post(reverse("playerpage:policy", args=[event.slug]), {"policy": "anything"})
    event.reporting.refresh_from_db()
    assert event.reporting.policy == "arbiter"


@pytest.mark.parametrize("who", ["arbiter", "visitor", None])
def test_links_and_cards_are_the_directors(event, who, request, client_for) -> None:  # type: ignore[no-untyped-def]
    user = request.getfixturevalue(who) if who else None
    client = client_for(user)
    for name in ("links", "cards", "cards_pdf"):
        response = client.get(reverse(f"playerpage:{name}", args=[event.slug]))
        assert response.status_code in (302, 403)
        assert not any(
            t in response.content.decode(errors="replace")
            for t in PlayerLink.objects.values_list("token", flat=True)
        )


def test_the_cards_carry_each_link_and_its_qr_code(event, director, client_for) -> None:  # type: ignore[no-untyped-def]
    token_of(event, 1)
    client = client_for(director)
    text = client.get(reverse("playerpage:cards", args=[event.slug])).content.decode()
    assert text.count('class="player-card"') == 4
    assert text.count("<svg") == 4
    assert url_of(event, 3) in text
    pdf = client.get(reverse("playerpage:cards_pdf", args=[event.slug]))
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")


def test_the_cards_come_a_page_at_a_time(event, director, client_for, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Issue 29: one request for the cards of a 5,000-player event took 25 s (the page) and
    2.2 GB until the worker was killed (the PDF). A request now makes one page of cards, at
    most CARDS_PER_PAGE (here 2; of the 4 players' cards the revoked link's is left out),
    and says which page it is; a page the event lacks is a 404."""
    from io import BytesIO

    from pypdf import PdfReader

    from playerpage import selectors

    monkeypatch.setattr(selectors, "CARDS_PER_PAGE", 2)
    token_of(event, 1)
    player_link_revoke(event=event, start_no=2, user=director)
    client = client_for(director)
    cards, pdf = (
        reverse(f"playerpage:{name}", args=[event.slug]) for name in ("cards", "cards_pdf")
    )
    first = client.get(cards).content.decode()
    assert first.count('class="player-card"') == 2 and first.count("<svg") == 2
    assert url_of(event, 1) in first and url_of(event, 3) in first
    assert "Cards 1–2 of 3, page 1 of 2" in first
    assert f'href="{pdf}?page=2"' in first and 'href="?page=2"' in first
    second = client.get(cards, {"page": "2"}).content.decode()
    assert second.count('class="player-card"') == 1 and url_of(event, 4) in second
    assert "Cards 3–3 of 3, page 2 of 2" in second
    printed = client.get(pdf, {"page": "2"})
    assert printed["Content-Disposition"].endswith('-player-cards-2.pdf"')
    text = " ".join(page.extract_text() for page in PdfReader(BytesIO(printed.content)).pages)
    assert "4. Player 4" in text and "1. Player 1" not in text
    for page in ("3", "0", "x", "²", "1" * 20):
        assert client.get(cards, {"page": page}).status_code == 404
        assert client.get(pdf, {"page": page}).status_code == 404


def test_a_closed_event_refuses_link_changes(event, director, client_for) -> None:  # type: ignore[no-untyped-def]
    token = token_of(event, 1)
    for game in Game.objects.filter(round__event=event):
        game_result_record(game_id=game.pk, result="1-0", expected_version=None, user=director)
    event_close(event=event, user=director)
    response = client_for(director).post(
        reverse("playerpage:link_action", args=[event.slug, 1]), {"action": "revoke"}
    )
    assert response.status_code == 303
    assert PlayerLink.objects.get(token=token).active
    assert Event.objects.get(pk=event.pk).status == EventStatus.FINISHED
