"""The prize pages with personas (house style 6): director, arbiter, visitor (logged in, no role)
and anonymous; the full page, the htmx partial, and 403/404/login for the wrong person."""

from __future__ import annotations

import io

import pytest
from openpyxl import load_workbook

from events.models import AuditEntry, Game
from events.services import game_result_record

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def people(director, arbiter, visitor, client_for):
    return {
        "director": client_for(director),
        "arbiter": client_for(arbiter),
        "visitor": client_for(visitor),
        "anonymous": client_for(None),
    }


def url(event, tail: str = "") -> str:
    return f"/e/{event.slug}/prizes/{tail}"


DIRECTOR_ONLY = [
    ("get", "setup/", {}, 200),
    ("post", "setup/", {"form": "fund", "prizes": "1 100"}, 302),
    ("post", "approve/", {}, 302),
    ("post", "categories/women/delete/", {}, 302),
    ("get", "draft.csv", {}, 200),
    ("get", "draft.pdf", {}, 200),
]


@pytest.mark.parametrize(("method", "tail", "data", "director_status"), DIRECTOR_ONLY)
def test_director_only_urls(addendum_event, people, method, tail, data, director_status):
    for persona in ("arbiter", "visitor"):
        response = getattr(people[persona], method)(url(addendum_event, tail), data)
        assert response.status_code == 403, persona
    response = getattr(people["anonymous"], method)(url(addendum_event, tail), data)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    response = getattr(people["director"], method)(url(addendum_event, tail), data)
    assert response.status_code == director_status


def test_unknown_event_is_404_for_everyone(people):
    for client in people.values():
        assert client.get("/e/no-such-event/prizes/").status_code == 404


def test_draft_is_for_the_director_only(addendum_event, people):
    page = people["director"].get(url(addendum_event)).content.decode()
    assert "Draft from the current results" in page
    assert "shared 27,500 + divisible 21,667 = 49,167" in page
    assert "Approve and publish" in page
    assert "Policy: <strong>GCT 2019 Classical (Hort variant for first)" in page
    for persona in ("arbiter", "visitor", "anonymous"):
        page = people[persona].get(url(addendum_event)).content.decode()
        assert "No prize sheet has been approved yet" in page
        assert "49,167" not in page and "Approve" not in page
    # The approved downloads do not exist before an approval.
    assert people["visitor"].get(url(addendum_event, "sheet.csv")).status_code == 404


def test_approve_publishes_the_sheet_to_everyone(addendum_event, people):
    version = addendum_event.results_version
    response = people["director"].post(
        url(addendum_event, "approve/"), {"results_version": version}
    )
    assert response.status_code == 302
    page = people["anonymous"].get(url(addendum_event)).content.decode()
    assert "72,500" in page and "49,167" in page
    assert "shared 27,500 + divisible 21,667 = 49,167" in page
    assert "difference (paid − fund) <strong>+1</strong>" in page
    assert "Outdated" not in page and "Draft from" not in page
    assert "/static/css/prizes." in page  # with the print stylesheet
    csv_response = people["visitor"].get(url(addendum_event, "sheet.csv"))
    assert csv_response.status_code == 200 and csv_response["Content-Type"].startswith("text/csv")
    assert "72500" in csv_response.content.decode()
    xlsx = people["anonymous"].get(url(addendum_event, "sheet.xlsx"))
    assert load_workbook(io.BytesIO(xlsx.content)).active["A1"].value.startswith("Prize sheet")
    pdf = people["anonymous"].get(url(addendum_event, "sheet.pdf"))
    assert pdf["Content-Type"] == "application/pdf" and pdf.content.startswith(b"%PDF")


def test_approve_with_htmx_returns_the_region(addendum_event, people):
    response = people["director"].post(
        url(addendum_event, "approve/"), {"results_version": addendum_event.results_version}, **HTMX
    )
    body = response.content.decode()
    assert response.status_code == 200
    assert body.lstrip().startswith('<section id="prize-sheet"') and "<html" not in body
    assert "72,500" in body and "Approved by dora-director" in body


def test_stale_approval_is_refused(addendum_event, people):
    stale = addendum_event.results_version - 1
    response = people["director"].post(
        url(addendum_event, "approve/"), {"results_version": stale}, follow=True
    )
    assert "changed since this page was loaded" in response.content.decode()
    assert "No prize sheet has been approved yet" in response.content.decode()


def test_a_result_change_marks_the_approved_sheet_outdated(addendum_event, people, director):
    people["director"].post(url(addendum_event, "approve/"))
    game = Game.objects.get(
        round__event=addendum_event, white__start_no__in=(5, 6), black__start_no__in=(5, 6)
    )
    game_result_record(game_id=game.pk, result="1-0", expected_version=None, user=director)
    public = people["visitor"].get(url(addendum_event)).content.decode()
    assert "Outdated:" in public and "The director has not approved the new sheet yet" in public
    assert "72,500" in public  # the approved amounts stay
    own = people["director"].get(url(addendum_event)).content.decode()
    assert "The current results give a different sheet" in own and "Approve again" in own


def test_sheet_page_htmx_partial_and_conditional_get(addendum_event, people):
    partial = people["visitor"].get(url(addendum_event), **HTMX).content.decode()
    assert partial.lstrip().startswith('<section id="prize-sheet"')
    first = people["visitor"].get(url(addendum_event))
    again = people["visitor"].get(url(addendum_event), HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304


def test_incomplete_event_explains_why_there_is_no_draft(event, people):
    page = people["director"].get(f"/e/{event.slug}/prizes/").content.decode()
    assert "the event is not complete" in page


# --- set-up ---------------------------------------------------------------------------------


def test_setup_page_shows_the_three_regions(addendum_event, people):
    page = people["director"].get(url(addendum_event, "setup/")).content.decode()
    for region in ("prize-fund", "prize-settings", "prize-categories"):
        assert f'id="{region}"' in page
    assert "1 90000\n2 60000" in page
    assert "As the regulation: GCT 2019 Classical" in page


def test_fund_errors_are_shown_inline(addendum_event, people):
    response = people["director"].post(
        url(addendum_event, "setup/"), {"form": "fund", "prizes": "1 100\n2 lots"}
    )
    assert response.status_code == 400
    assert "line 2: &#x27;lots&#x27; is not an amount" in response.content.decode()
    assert not AuditEntry.objects.filter(action="prizes.fund").exists()


def test_fund_saved_with_htmx_returns_the_region(addendum_event, people):
    response = people["director"].post(
        url(addendum_event, "setup/"), {"form": "fund", "prizes": "1 1000\n500\n250"}, **HTMX
    )
    body = response.content.decode()
    assert response.status_code == 200 and body.lstrip().startswith('<section id="prize-fund"')
    assert "Prize fund saved." in body and "Total 1,750 USD" in body
    assert AuditEntry.objects.filter(event=addendum_event, action="prizes.fund").count() == 1


def test_settings_error_inline_and_saved(addendum_event, people):
    response = people["director"].post(
        url(addendum_event, "setup/"), {"form": "settings", "unit": "7"}, **HTMX
    )
    assert "not a whole number of the rounding unit 7" in response.content.decode()
    response = people["director"].post(
        url(addendum_event, "setup/"), {"form": "settings", "rounding": "largest-remainder"}
    )
    assert response.status_code == 302
    page = people["director"].get(url(addendum_event)).content.decode()
    assert "Largest remainder" in page and "The total paid equals the fund." in page


def test_category_saved_shown_and_removed(addendum_event, people):
    data = {
        "form": "category",
        "code": "women",
        "name": "Best woman",
        "conditions": '[{"field": "sex", "op": "eq", "value": "w"}]',
        "amounts": "50000",
    }
    bad = people["director"].post(url(addendum_event, "setup/"), {**data, "conditions": "[{"})
    assert bad.status_code == 400 and "invalid JSON at line 1" in bad.content.decode()
    assert people["director"].post(url(addendum_event, "setup/"), data).status_code == 302
    page = people["director"].get(url(addendum_event)).content.decode()
    assert "Category prizes (one prize per player" in page
    assert "Best woman, prize 1 = 50,000" in page
    people["director"].post(url(addendum_event, "categories/women/delete/"))
    page = people["director"].get(url(addendum_event)).content.decode()
    assert "Category prizes (one prize per player" not in page
    actions = set(AuditEntry.objects.filter(event=addendum_event).values_list("action", flat=True))
    assert {"prizes.category", "prizes.category_delete"} <= actions


def test_event_navigation_links_to_prizes(addendum_event, people):
    page = people["director"].get(f"/e/{addendum_event.slug}/").content.decode()
    assert url(addendum_event) in page and url(addendum_event, "setup/") in page
    assert (
        url(addendum_event, "setup/")
        not in people["visitor"].get(f"/e/{addendum_event.slug}/").content.decode()
    )


def test_category_conditions_nested_5000_deep_are_refused_on_the_form(addendum_event, people):
    """The conditions field is JSON like an import, and as bounded (issue 19): a 500 before."""
    deep = "[" * 5000 + "]" * 5000
    data = {"form": "category", "code": "deep", "name": "Deep", "conditions": deep, "amounts": "1"}
    response = people["director"].post(url(addendum_event, "setup/"), data)
    assert response.status_code == 400
    assert "the conditions: nested 5000 levels deep; at most 32" in response.content.decode()
    assert not addendum_event.category_prizes.exists()
