"""The Swiss screens (draws/swiss/views.py; issue 14) by persona: the director's Swiss page and
round review, publishing, a manual change with its confirmation, the printable sheets, and what
the public sees before and after publishing."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from draws.swiss import selectors, services
from events.models import AuditEntry, Game, Round
from events.services import access_grant, game_result_record
from tests.conftest import make_event


@pytest.fixture
def swiss(director, arbiter):  # type: ignore[no-untyped-def]
    event = make_event(director, players=8, rounds=5)
    access_grant(event=event, username=arbiter.username, role="arbiter", user=director)
    return event


def test_personas_on_the_swiss_page(swiss, client_for, director, arbiter, visitor) -> None:
    url = reverse("draws:swiss", args=[swiss.slug])
    page = client_for(director).get(url)
    assert page.status_code == 200
    assert b"Pair round 1" in page.content and b"Pairing numbers" in page.content
    assert client_for(arbiter).get(url).status_code == 403
    assert client_for(visitor).get(url).status_code == 403
    assert client_for(None).get(url).status_code == 302  # to the login page


def test_a_round_robin_has_no_swiss_page(director, client_for) -> None:
    event = make_event(director, system="round_robin")
    assert client_for(director).get(reverse("draws:swiss", args=[event.slug])).status_code == 404


def test_pair_review_publish_and_the_public_round(swiss, client_for, director, visitor) -> None:
    client = client_for(director)
    response = client.post(reverse("draws:swiss_pair", args=[swiss.slug, 1]))
    review_url = reverse("draws:swiss_round", args=[swiss.slug, 1])
    assert response.status_code == 302 and response["Location"] == review_url
    review = client.get(review_url)
    assert b"awaiting review" in review.content and b"Publish round 1" in review.content
    white, black = selectors.round_as_played(swiss, 1)[0][0]
    assert f"{white}. Player {white}".encode() in review.content
    public = reverse("events:round_detail", args=[swiss.slug, 1])
    assert client_for(visitor).get(public).status_code == 404  # not published yet
    assert client.get(public).status_code == 200  # the director sees it
    client.post(reverse("draws:swiss_round_action", args=[swiss.slug, 1, "publish"]))
    assert Round.objects.get(event=swiss, number=1).published
    shown = client_for(visitor).get(public)
    assert shown.status_code == 200 and f"Player {black}".encode() in shown.content


def test_a_refused_pairing_is_a_message_on_the_swiss_page(swiss, client_for, director) -> None:
    client = client_for(director)
    response = client.post(reverse("draws:swiss_pair", args=[swiss.slug, 2]), follow=True)
    assert b"round 1 has not been paired yet" in response.content
    assert not Round.objects.filter(event=swiss).exists()


def test_a_manual_change_asks_for_a_confirmation_with_the_reasons(swiss, client_for, director):  # type: ignore[no-untyped-def]
    services.swiss_round_pair(event=swiss, round_no=1, user=director)
    before = selectors.round_as_played(swiss, 1)[0]
    (w1, _), (w2, _) = before[:2]
    client = client_for(director)
    edit = reverse("draws:swiss_edit", args=[swiss.slug, 1])
    shown = client.post(edit, {"change": "exchange", "first": w1, "second": w2})
    assert shown.status_code == 200
    assert b"Make the change anyway" in shown.content and b"C.04.3" in shown.content
    assert selectors.round_as_played(swiss, 1)[0] == before  # nothing changed yet
    done = client.post(edit, {"change": "exchange", "first": w1, "second": w2, "confirm": "on"})
    assert done.status_code == 302
    assert selectors.round_as_played(swiss, 1)[0] != before
    assert AuditEntry.objects.filter(event=swiss, action="swiss.edit").count() == 1
    assert (
        b"changed by hand" in client.get(reverse("draws:swiss_round", args=[swiss.slug, 1])).content
    )


def test_byes_forbidden_pairs_withdrawals_and_late_entries_from_the_page(
    swiss, client_for, director
) -> None:
    client = client_for(director)
    slug = swiss.slug
    client.post(
        reverse("draws:swiss_bye_add", args=[slug]), {"start_no": 3, "round": 1, "kind": "half"}
    )
    twice = client.post(
        reverse("draws:swiss_bye_add", args=[slug]),
        {"start_no": 3, "round": 1, "kind": "zero"},
        follow=True,
    )
    assert b"already asked for a bye in round 1" in twice.content
    client.post(reverse("draws:swiss_forbidden_add", args=[slug]), {"first": 1, "second": 2})
    no_show = client.post(
        reverse("draws:swiss_withdrawal", args=[slug]),
        {"start_no": 8, "after_round": 0},
        follow=True,
    ).content.decode()
    assert "has not played a game: delete them on the Players page instead" in no_show
    page = client.get(reverse("draws:swiss", args=[slug])).content.decode()
    assert "Half-point bye" in page and "withdrawn before round 1" not in page
    client.post(
        reverse("events:player_delete", args=[slug, 8]), {"version": "1", "confirm_delete": "on"}
    )
    client.post(reverse("draws:swiss_pair", args=[slug, 1]))
    paired = {p for pair in selectors.round_as_played(swiss, 1)[0] for p in pair}
    assert 3 not in paired and 8 not in paired
    assert (1, 2) not in selectors.round_as_played(swiss, 1)[0]
    client.post(reverse("draws:swiss_round_action", args=[slug, 1, "publish"]))
    late = client.post(
        reverse("draws:swiss_late_entry", args=[slug]),
        {"name": "Late Larsen", "rating": 1999, "missed": "zero"},
        follow=True,
    )
    assert b"Late entry registered" in late.content


def test_printable_pairings_and_standings(swiss, client_for, director) -> None:
    services.swiss_round_pair(event=swiss, round_no=1, user=director)
    sheet = reverse("draws:print", args=[swiss.slug, 1])
    assert client_for(None).get(sheet).status_code == 404  # not published
    services.swiss_round_publish(event=swiss, round_no=1, user=director)
    for game in Game.objects.filter(round__event=swiss):
        game_result_record(game_id=game.pk, result="1-0", expected_version=None, user=None)
    printed = client_for(None).get(sheet)
    assert printed.status_code == 200
    content = printed.content.decode()
    assert "css/print." in content and "event-nav" not in content
    assert content.count("1-0") == 4
    standings = client_for(None).get(reverse("standings:print", args=[swiss.slug]))
    assert standings.status_code == 200 and b"Standings after round 1" in standings.content


def test_a_round_under_review_comes_before_the_next(swiss, client_for, director) -> None:
    services.swiss_round_pair(event=swiss, round_no=1, user=director)
    page = client_for(director).get(reverse("draws:swiss", args=[swiss.slug])).content.decode()
    assert "Review and publish round 1" in page and "Pair round 2" not in page


# -- Round numbers in the URL and numbers in the forms (issue 19) --------------------------------

ROUND_PAGES = [
    ("get", "draws:swiss_round", ()),
    ("post", "draws:swiss_pair", ()),
    ("post", "draws:swiss_edit", ()),
    ("post", "draws:swiss_round_action", ("publish",)),
    ("post", "draws:swiss_round_action", ("discard",)),
    ("get", "draws:print", ()),
    ("get", "draws:print_pdf", ()),
]


@pytest.mark.parametrize("number", [0, 6, 2**40])
def test_a_round_the_event_does_not_have_is_not_found(swiss, client_for, director, number) -> None:
    """``POST .../swiss/rounds/1099511627776/pair/`` grew a worker by 330 MB a second."""
    client = client_for(director)
    entries = AuditEntry.objects.filter(event=swiss).count()
    for method, name, extra in ROUND_PAGES:
        response = getattr(client, method)(reverse(name, args=[swiss.slug, number, *extra]))
        assert response.status_code == 404, (name, number)
    assert not Round.objects.filter(event=swiss).exists()
    assert AuditEntry.objects.filter(event=swiss).count() == entries


def test_a_late_entry_rated_2_to_the_40_is_refused_with_a_message(swiss, client_for, director):  # type: ignore[no-untyped-def]
    client = client_for(director)
    client.post(reverse("draws:swiss_pair", args=[swiss.slug, 1]))
    client.post(reverse("draws:swiss_round_action", args=[swiss.slug, 1, "publish"]))
    response = client.post(
        reverse("draws:swiss_late_entry", args=[swiss.slug]),
        {"name": "Late Larsen", "rating": 2**40, "missed": "zero"},
        follow=True,
    )
    assert response.status_code == 200
    assert b"rating: Ensure this value is less than or equal to 4000." in response.content
    assert not swiss.players.filter(name="Late Larsen").exists()


def test_the_next_card_pairs_the_round_with_one_button(swiss, client_for, director):  # type: ignore[no-untyped-def]
    """Issue 29: "Pair round N" on the event page pairs the round, not only opens the page."""
    client = client_for(director)
    page = client.get(reverse("events:event_detail", args=[swiss.slug])).content.decode()
    action = reverse("draws:swiss_pair", args=[swiss.slug, 1])
    assert f'action="{action}"' in page and ">Pair round 1</button>" in page
    done = client.post(action)
    assert done["Location"] == reverse("draws:swiss_round", args=[swiss.slug, 1])
    assert selectors.paired_rounds(swiss) == {1}


def test_the_review_page_names_colour_histories_and_numbers_as_the_rules_do(
    swiss, client_for, director
):  # type: ignore[no-untyped-def]
    """Issue 29: the W/B letters are labelled as the colour history, and the reasons name
    players by start no.; "pairing number" is the C.04.3 number the pairing used. In round 1
    nobody has a preference, so every board's colours come from the higher-ranked player's
    pairing number (C.04.3, colour allocation, last rule); with ratings 1990, 1980, ... in
    start-number order, the initial order (C.04.2) gives each player the pairing number equal
    to their start no."""
    client = client_for(director)
    client.post(reverse("draws:swiss_pair", args=[swiss.slug, 1]))
    page = client.get(reverse("draws:swiss_round", args=[swiss.slug, 1])).content.decode()
    assert "<strong>colour history</strong> (W White, B Black" in page
    reasons = re.findall(r"by the higher-ranked player&#x27;s pairing number \(([^)]*)\)", page)
    assert len(reasons) == 4
    for said in reasons:
        start, number = re.fullmatch(r"start no\. (\d+): pairing number (\d+)", said).groups()
        assert start == number
