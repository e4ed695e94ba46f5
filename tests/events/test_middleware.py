"""Requests larger than anything the application accepts (events/middleware.py and
config.views.bad_request, issue 19): the one-line "too large" page, status 413, with the way
back, and nothing read or changed; what fits goes on to the forms' own limits."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from events.limits import MAX_FORM_BYTES, MAX_UPLOAD_BYTES
from events.models import Event, Player
from tests.conftest import make_event

pytestmark = pytest.mark.django_db


def test_an_upload_past_every_cap_is_refused_unread_with_one_line(director, client_for):
    client = client_for(director)
    page = reverse("events:event_import")
    huge = SimpleUploadedFile("huge.trf", b" " * (MAX_UPLOAD_BYTES + MAX_FORM_BYTES + 1))
    response = client.post(page, {"file": huge}, HTTP_REFERER=f"http://testserver{page}")
    assert response.status_code == 413
    text = response.content.decode()
    assert (
        "What you sent is 11.0 MB; a file may have at most 10.0 MB. Nothing was read or changed."
    ) in text
    assert f'<a href="http://testserver{page}">Back to the page you came from</a>' in text
    assert not Event.objects.exists()


def test_the_way_back_is_offered_only_to_a_page_of_this_site(director, client_for):
    huge = SimpleUploadedFile("huge.trf", b" " * (MAX_UPLOAD_BYTES + MAX_FORM_BYTES + 1))
    response = client_for(director).post(
        reverse("events:event_import"), {"file": huge}, HTTP_REFERER="https://evil.example/"
    )
    assert response.status_code == 413
    assert "evil.example" not in response.content.decode()


def test_form_fields_past_their_cap_get_the_same_page_not_a_bare_400(director, client_for):
    event = make_event(director, players=0)
    pasted = "Player, NOR\n" * (2 * MAX_FORM_BYTES // 12)  # 2 MB of text in one field
    response = client_for(director).post(
        reverse("events:players", args=[event.slug]), {"paste": "1", "players_csv": pasted}
    )
    assert response.status_code == 413
    assert "The form you sent holds more than 1.0 MB of text, the most a form accepts." in (
        response.content.decode()
    )
    assert not Player.objects.filter(event=event).exists()


def test_a_form_with_too_many_fields_gets_the_same_page(director, client_for):
    event = make_event(director, players=0)
    fields = {f"field{n}": "x" for n in range(1001)}
    response = client_for(director).post(
        reverse("events:players", args=[event.slug]), {"paste": "1", **fields}
    )
    assert response.status_code == 400
    assert "The form you sent has more than 1,000 fields, the most a form accepts." in (
        response.content.decode()
    )


def test_a_request_within_the_caps_reaches_its_form(director, client_for):
    response = client_for(director).post(
        reverse("events:event_import"), {"file": SimpleUploadedFile("x.trf", b"012 Nothing\n")}
    )
    assert response.status_code == 200
    assert "the file has no player records (001)" in response.content.decode()
