"""What a TRF import read, set aside or changed stays with the event (issue 29: the notes used to
vanish on reload): the director sees it on the event page until dismissing it; a FIDE id the
file gave two players waits on the players page until the director gives it to one (issue 28).
Personas from tests/conftest.py: the director imports and dismisses; an arbiter, a visitor and
an anonymous spectator see neither block and cannot dismiss."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from events.imports import import_notes
from events.models import Event, Player
from events.services import access_grant
from tests.events.test_player_views import edit_form, edit_url
from tests.events.test_trf import HEADER, player

pytestmark = pytest.mark.django_db

REAL = Path(__file__).resolve().parents[1] / "fixtures" / "trf" / "real"
HEADING = "What the import read, set aside or changed"


def imported_on_the_page(client: Client, name: str, content: bytes, slug: str) -> Event:
    response = client.post(
        reverse("events:event_import"),
        {"file": SimpleUploadedFile(name, content), "slug": slug},
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    event = Event.objects.get(slug=slug)
    assert response.url == reverse("events:event_detail", args=[event.slug])
    return event


def test_the_notes_stay_on_the_event_page_until_the_director_dismisses_them(  # type: ignore[no-untyped-def]
    client_for, director, arbiter, visitor
) -> None:
    client = client_for(director)
    lichess = (REAL / "sklangen-TRF" / "2020_06.trf").read_bytes()
    event = imported_on_the_page(client, "2020_06.trf", lichess, "lichess")
    access_grant(event=event, username=arbiter.username, role="arbiter", user=director)
    page_url = reverse("events:event_detail", args=[event.slug])
    dismiss_url = reverse("events:import_notes_dismiss", args=[event.slug])
    for _ in range(2):  # the page, then a reload: the notes are stored, not a message
        page = client.get(page_url).content.decode()
        assert HEADING in page
        assert "Record 032 &#x27;Lichess&#x27; is not a federation code" in page
        assert "record 042 &#x27;May 29, 2020&#x27; is 2020-05-29" in page
    for other in (arbiter, visitor, None):
        assert HEADING not in client_for(other).get(page_url).content.decode()
    for stranger in (arbiter, visitor):
        assert client_for(stranger).post(dismiss_url).status_code == 403
    assert client_for(None).post(dismiss_url).status_code == 302  # to the login page
    assert HEADING in client.get(page_url).content.decode()
    response = client.post(dismiss_url)
    assert response.status_code == 302 and response.url == page_url
    assert HEADING not in client.get(page_url).content.decode()
    assert (
        "Record 032 'Lichess' is not a federation code: the event's federation is left empty."
        in (
            import_notes(event)  # the audit log keeps them
        )
    )


def with_fide_id(line: str, fide_id: str) -> str:
    """A ``001`` line with ``fide_id`` in columns 58-68."""
    return line[:57] + f"{fide_id:>11}" + line[68:]


def test_a_fide_id_held_twice_waits_on_the_players_page_until_one_has_it(  # type: ignore[no-untyped-def]
    client_for, director, visitor
) -> None:
    """A registration error of the program that ran the event: the event is imported, the id
    is given to neither, and both are named until the director gives it to the right one."""
    lines = [
        with_fide_id(player(1, "   2 w 1", name="Hansen, Ola"), "1503014"),
        with_fide_id(player(2, "   1 b 0", name="Hansen, Kari"), "1503014"),
        player(3, "0000 - U"),
    ]
    client = client_for(director)
    event = imported_on_the_page(client, "twice.trf", (HEADER + "\n".join(lines)).encode(), "twice")
    assert list(Player.objects.filter(event=event).values_list("fide_id", flat=True)) == [""] * 3
    players_url = reverse("events:players", args=[event.slug])
    page = client.get(players_url).content.decode()
    assert "FIDE ids held twice in the imported file" in page
    assert (
        "<strong>1503014</strong>" in page
        and "1. Hansen, Ola" in page
        and "2. Hansen, Kari" in page
    )
    event_page = client.get(reverse("events:event_detail", args=[event.slug])).content.decode()
    assert "have the same FIDE id 1503014 in the file" in event_page
    assert client_for(visitor).get(players_url).status_code == 403
    kari = Player.objects.get(event=event, start_no=2)
    response = client.post(edit_url(event, 2), edit_form(kari, fide_id="1503014"))
    assert response.status_code == 302
    assert "FIDE ids held twice" not in client.get(players_url).content.decode()
