"""The ceremony page (director) and the public draw page, with personas (house style 6)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from draws.lots import derived_seed, seed_hash
from draws.models import DrawCeremony
from draws.selectors import ceremony_entries
from events.models import Event, Game
from events.services import access_grant
from tests.draws.test_services import CEREMONY, make_field

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def varma_event(director, arbiter):  # type: ignore[no-untyped-def]
    event = make_field(director)
    access_grant(event=event, username=arbiter.username, role="arbiter", user=director)
    return event


def url(name: str, event: Event) -> str:
    return reverse(f"draws:{name}", args=[event.slug])


def entries(event: Event) -> list[tuple[int, str, int]]:
    return ceremony_entries(DrawCeremony.objects.filter(event=event).first())


# --- who may see what -------------------------------------------------------------------------


def test_director_sees_the_ceremony_page(client_for, director, varma_event):
    response = client_for(director).get(url("ceremony", varma_event))
    assert response.status_code == 200
    page = response.content.decode()
    assert '<section id="ceremony"' in page and "<html" in page
    assert "Next to draw: Anand" in page  # seed 001 clause 2: IND first, by name
    assert "Computer draw" in page and "Record the draw" in page
    assert 'id="envelope-A"' in page and "3, 4, 8" in page


@pytest.mark.parametrize(
    "name", ["ceremony", "entry_record", "computer_draw", "reset", "schedule_create"]
)
@pytest.mark.parametrize("persona", ["arbiter", "other_arbiter", "visitor"])
def test_other_people_are_refused_the_director_pages(
    request, client_for, varma_event, name, persona
):
    client = client_for(request.getfixturevalue(persona))
    method = client.get if name == "ceremony" else client.post
    assert method(url(name, varma_event)).status_code == 403
    assert not DrawCeremony.objects.filter(event=varma_event).exists()


@pytest.mark.parametrize("name", ["ceremony", "entry_record", "computer_draw"])
def test_anonymous_visitors_are_sent_to_log_in(client_for, varma_event, name):
    client = client_for(None)
    method = client.get if name == "ceremony" else client.post
    response = method(url(name, varma_event))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    assert not DrawCeremony.objects.filter(event=varma_event).exists()


def test_unknown_event_is_404(client_for, director):
    client = client_for(director)
    assert client.get(reverse("draws:ceremony", args=["no-such-event"])).status_code == 404
    assert client.get(reverse("draws:draw_public", args=["no-such-event"])).status_code == 404


def test_event_page_links_to_the_draw(client_for, director, varma_event):
    page = client_for(director).get(reverse("events:event_detail", args=[varma_event.slug]))
    assert url("ceremony", varma_event) in page.content.decode()
    public = client_for(None).get(reverse("events:event_detail", args=[varma_event.slug]))
    assert url("draw_public", varma_event) in public.content.decode()
    assert url("ceremony", varma_event) not in public.content.decode()


# --- recording a physical ceremony ------------------------------------------------------------


def test_htmx_entry_returns_the_ceremony_region_alone(client_for, director, varma_event):
    response = client_for(director).post(
        url("entry_record", varma_event), {"start_no": 1, "envelope": "A", "number": 3}, **HTMX
    )
    assert response.status_code == 200
    region = response.content.decode()
    assert region.lstrip().startswith('<section id="ceremony"') and "<html" not in region
    assert "Next to draw: Gukesh" in region
    assert entries(varma_event) == [(1, "A", 3)]


def test_htmx_entry_refused_shows_the_reason_inline(client_for, director, varma_event):
    response = client_for(director).post(
        url("entry_record", varma_event), {"start_no": 1, "envelope": "A", "number": 5}, **HTMX
    )
    assert response.status_code == 200
    assert "number 5 is not in envelope A" in response.content.decode()
    assert not DrawCeremony.objects.filter(event=varma_event).exists()


def test_entry_without_javascript_redirects_then_errors_render_the_page(
    client_for, director, varma_event
):
    client = client_for(director)
    response = client.post(
        url("entry_record", varma_event), {"start_no": 1, "envelope": "A", "number": 3}
    )
    assert response.status_code == 302 and response["Location"] == url("ceremony", varma_event)
    stale = client.post(
        url("entry_record", varma_event), {"start_no": 1, "envelope": "A", "number": 4}
    )
    page = stale.content.decode()
    assert stale.status_code == 200 and "<html" in page
    assert "it is Gukesh&#x27;s turn" in page  # another director recorded meanwhile
    assert entries(varma_event) == [(1, "A", 3)]


def test_malformed_entry_is_a_form_error(client_for, director, varma_event):
    response = client_for(director).post(
        url("entry_record", varma_event), {"start_no": 1, "envelope": "Z", "number": "x"}
    )
    assert response.status_code == 200 and "errorlist" in response.content.decode()
    assert not DrawCeremony.objects.filter(event=varma_event).exists()


def test_a_whole_ceremony_then_the_schedule(client_for, director, varma_event):
    client = client_for(director)
    for start_no, envelope, number in CEREMONY:
        data = {"start_no": start_no, "envelope": envelope, "number": number}
        assert client.post(url("entry_record", varma_event), data, **HTMX).status_code == 200
    page = client.get(url("ceremony", varma_event)).content.decode()
    assert "Create the schedule" in page and "Next to draw" not in page
    response = client.post(url("schedule_create", varma_event), **HTMX)
    assert "The schedule has been created" in response.content.decode()
    assert Game.objects.filter(round__event=varma_event).count() == 45
    assert "Reset the drawing of lots" not in response.content.decode()


# --- computer draw, reset, schedule buttons ---------------------------------------------------


def test_computer_draw_and_reset_without_javascript(client_for, director, varma_event):
    client = client_for(director)
    response = client.post(url("computer_draw", varma_event), follow=True)
    assert "The lots have been drawn by computer." in response.content.decode()
    assert len(entries(varma_event)) == 10
    again = client.post(url("computer_draw", varma_event), follow=True)
    assert "already been drawn" in again.content.decode()
    client.post(url("reset", varma_event))
    assert not DrawCeremony.objects.filter(event=varma_event).exists()


def test_refused_action_over_htmx_shows_the_reason_in_the_region(client_for, director, varma_event):
    response = client_for(director).post(url("schedule_create", varma_event), **HTMX)
    region = response.content.decode()
    assert response.status_code == 200 and "<html" not in region
    assert "the drawing of lots is not finished" in region


# --- public page ------------------------------------------------------------------------------


def test_public_page_shows_the_seed_hash_before_and_the_seed_after(
    client_for, director, varma_event
):
    # The ceremony's own seed derives from the event's master seed, which stays secret because
    # the event's later lots derive from it too (draws.lots.derived_seed).
    seed = derived_seed(varma_event.lots_seed, "varma")
    before = client_for(None).get(url("draw_public", varma_event))
    assert before.status_code == 200
    page = before.content.decode()
    assert seed_hash(seed) in page and seed not in page
    assert "Anand" in page  # the drawing order is known before anyone draws
    client_for(director).post(url("computer_draw", varma_event))
    after = client_for(None).get(url("draw_public", varma_event)).content.decode()
    assert f"<code>{seed}</code>" in after and seed_hash(seed) in after
    assert varma_event.lots_seed not in after


def test_public_page_shows_each_draw_and_the_schedule_with_names(client_for, director, varma_event):
    client_for(director).post(url("computer_draw", varma_event))
    page = client_for(None).get(url("draw_public", varma_event)).content.decode()
    assert "Schedule" in page and "Round 9" in page
    numbers = {start_no: number for start_no, _, number in entries(varma_event)}
    assert f"{numbers[1]}. Anand" in page


def test_public_page_during_a_recorded_ceremony_polls_and_hides_no_seed(
    client_for, director, varma_event
):
    client_for(director).post(
        url("entry_record", varma_event), {"start_no": 1, "envelope": "A", "number": 3}
    )
    response = client_for(None).get(url("draw_public", varma_event), **HTMX)
    region = response.content.decode()
    assert region.lstrip().startswith('<section id="draw-public"') and "<html" not in region
    assert 'hx-trigger="every 10s"' in region and "physical ceremony" in region
    assert varma_event.lots_seed not in region


def test_public_page_answers_conditional_requests_with_304(client_for, varma_event):
    client = client_for(None)
    first = client.get(url("draw_public", varma_event))
    again = client.get(url("draw_public", varma_event), HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
