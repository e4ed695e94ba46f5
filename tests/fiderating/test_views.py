"""The rating report's pages with the personas (house style 6): the public report and a
player's page, the director's page (K set by hand, norm conditions, norm watch), the norm
certificate, and the player's private page. The event is helpers.norm_event: player 1 reaches
a GM and an IM norm in a 10-player round robin."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from pypdf import PdfReader

from events.models import AuditEntry, Event
from events.services import access_grant
from fiderating.models import NormConditions, PlayerK
from playerpage.selectors import player_links
from playerpage.services import player_links_issue
from tests.fiderating.helpers import CHIEF_ARBITER, norm_event


@pytest.fixture
def event(director: Any, arbiter: Any, tmp_path: Path) -> Event:
    event = norm_event(tmp_path)
    access_grant(event=event, username=director.username, role="director", user=None)
    access_grant(event=event, username=arbiter.username, role="arbiter", user=director)
    return event


def _text(response: Any) -> str:
    return response.content.decode()


def test_the_public_report(event: Event, client_for: Any) -> None:
    anonymous = client_for(None)
    page = _text(anonymous.get(f"/e/{event.slug}/rating/"))
    assert "Rating report" in page and "FIDE standard rating, after round 9 of 9" in page
    row = page.split('id="player-1"')[1].split("</tr>")[0]
    assert "Seeker, Nora" in row and "GM IM" in row
    assert f'href="/e/{event.slug}/rating/"' in _text(anonymous.get(f"/e/{event.slug}/"))


def test_a_players_games_terms_and_norms(event: Event, client_for: Any) -> None:
    page = _text(client_for(None).get(f"/e/{event.slug}/rating/players/1/"))
    assert "GM norm: <strong>reached</strong>" in page
    assert "Opponents' average 2392 · performance 2612 · 9 games" in page
    assert page.count('<tr><td class="num">') == 9  # one row per rated game
    assert "K 10" in page and "the rating has reached 2400" in page
    assert "certificate" not in page.lower()  # the certificate is the result team's


def test_the_directors_page(event: Event, client_for: Any, director: Any, arbiter: Any) -> None:
    page = _text(client_for(director).get(f"/e/{event.slug}/rating/manage/"))
    assert "Norm watch" in page and "GM norm reached" in page
    assert "The rating report is complete" in page
    assert f"/e/{event.slug}/rating/players/1/certificate/GM.pdf" in page
    assert client_for(arbiter).get(f"/e/{event.slug}/rating/manage/").status_code == 403
    assert "login" in client_for(None).get(f"/e/{event.slug}/rating/manage/")["Location"]


def test_k_set_by_hand(event: Event, client_for: Any, director: Any) -> None:
    client: Client = client_for(director)
    url = f"/e/{event.slug}/rating/manage/k/3/"
    client.post(url, {"k": "40"})
    assert PlayerK.objects.get(player__event=event, player__start_no=3).k == 40
    assert AuditEntry.objects.filter(event=event, action="player.k").count() == 1
    report = _text(client_for(None).get(f"/e/{event.slug}/rating/"))
    assert '<td class="num">40</td>' in report.split('id="player-3"')[1].split("</tr>")[0]
    player = _text(client_for(None).get(f"/e/{event.slug}/rating/players/3/"))
    assert 'K 40 <span class="muted">set by the arbiter</span>' in player
    k_row = _text(client.get(f"/e/{event.slug}/rating/manage/")).split('id="k-3"')[1]
    assert '<td class="k-why">set by the arbiter</td>' in k_row.split("</tr>")[0]
    for hostile in ("1000000000", "1e9", "30", "-5", "0"):  # B.02 8.3.3 gives 40, 20, 10
        refused = client.post(url, {"k": hostile}, follow=True)
        assert "K is 40, 20 or 10 (B.02 8.3.3)." in _text(refused)
    assert PlayerK.objects.get(player__event=event, player__start_no=3).k == 40
    assert AuditEntry.objects.filter(event=event, action="player.k").count() == 1
    client.post(url, {"k": ""})
    assert not PlayerK.objects.filter(player__event=event).exists()


def test_the_norm_conditions(event: Event, client_for: Any, director: Any) -> None:
    client_for(director).post(
        f"/e/{event.slug}/rating/manage/conditions/",
        {"kind": "national_championship", "standings_columns": "on"},
    )
    conditions = NormConditions.objects.get(event=event)
    assert (conditions.kind, conditions.standings_columns) == ("national_championship", True)
    assert AuditEntry.objects.filter(event=event, action="event.norm_conditions").exists()


def test_the_norm_certificate(event: Event, client_for: Any, arbiter: Any) -> None:
    response = client_for(arbiter).get(f"/e/{event.slug}/rating/players/1/certificate/GM.pdf")
    assert response["Content-Type"] == "application/pdf"
    text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(response.content)).pages)
    for words in (
        "Certificate of Title Result",
        "GM norm",
        "Seeker, Nora",
        "1503014",
        "Norm Invitational",
        "Oslo, NOR",
        "Opponent, GM 2",
        "2392",
        "2612",
        f"Chief arbiter: {CHIEF_ARBITER}",
        "Signature",
    ):
        assert words in text, words
    missing = client_for(arbiter).get(f"/e/{event.slug}/rating/players/2/certificate/GM.pdf")
    assert missing.status_code == 404


def test_no_certificate_without_a_chief_arbiter(
    tmp_path: Path, client_for: Any, director: Any
) -> None:
    event = norm_event(tmp_path, slug="no-arbiter", arbiter="")
    access_grant(event=event, username=director.username, role="director", user=None)
    response = client_for(director).get(
        f"/e/{event.slug}/rating/players/1/certificate/GM.pdf", follow=True
    )
    assert "name no chief arbiter to sign the certificate" in _text(response)


def test_the_players_private_page(event: Event, client: Client) -> None:
    player_links_issue(event=event, user=None)
    token = next(link.token for link in player_links(event) if link.start_no == 1)
    page = _text(client.get(f"/p/{token}/"))
    assert 'id="my-rating"' in page and "GM norm reached" in page and "change" in page


def test_what_the_last_round_needs_on_the_pages(
    tmp_path: Path, client_for: Any, director: Any
) -> None:
    event = norm_event(tmp_path, played=8, slug="norm-8")
    page = _text(client_for(None).get(f"/e/{event.slug}/rating/players/1/"))
    assert "What round 9 needs against" in page
    assert "<li>GM norm:" in page and "<li>IM norm:" in page
    player_links_issue(event=event, user=None)
    token = next(link.token for link in player_links(event) if link.start_no == 1)
    mine = _text(Client().get(f"/p/{token}/"))
    assert "For a norm, round 9 against" in mine and "GM norm:" in mine
