"""GNOT screens with personas (house style 6): the director runs everything, an arbiter enters
match results only, a visitor or another event's arbiter gets 403 on every write, anonymous
visitors are sent to log in; public pages answer conditional requests with 304."""

from __future__ import annotations

import pytest
from django.urls import reverse

from draws.lots import LotDrawer
from events.services import access_grant
from formats.gnot import selectors
from formats.gnot.models import ChoiceRecord, GnotSetup, SwissEntry, Team, TeamMatch
from tests.conftest import make_event
from tests.formats.gnot.helpers import choose_all, play_pending, play_through, seeded

pytestmark = pytest.mark.django_db


@pytest.fixture
def gnot(director, arbiter, other_arbiter):  # type: ignore[no-untyped-def]
    """24 teams, week one played, session 2a drawn; the arbiter has access."""
    event = seeded(director, teams=24, name="GNOT Views")
    access_grant(event=event, username=arbiter.username, role="arbiter", user=director)
    other = make_event(director, name="Other Event")
    access_grant(event=other, username=other_arbiter.username, role="arbiter", user=director)
    play_pending(event, director, LotDrawer("views", "results"), "1")
    from formats.gnot.services import session_draw

    session_draw(event=event, session="2a", user=director)
    return event


def urls(event) -> dict[str, str]:  # type: ignore[no-untyped-def]
    match = TeamMatch.objects.filter(event=event, session="2a").first()
    slug = event.slug
    return {
        "overview": reverse("gnot:overview", args=[slug]),
        "session": reverse("gnot:session", args=[slug, "2"]),
        "swiss": reverse("gnot:swiss", args=[slug]),
        "qualification": reverse("gnot:qualification", args=[slug]),
        "teams": reverse("gnot:teams", args=[slug]),
        "match": reverse("gnot:match", args=[slug, match.pk]),
        "choice": reverse("gnot:choice", args=[slug, "2"]),
        "draw": reverse("gnot:session_draw", args=[slug, "2b"]),
        "appeal": reverse("gnot:appeal", args=[slug, "2a"]),
        "swiss_pair": reverse("gnot:swiss_pair", args=[slug]),
        "decline": reverse("gnot:decline", args=[slug]),
    }


PUBLIC = ("overview", "session", "swiss", "qualification")
DIRECTOR_POSTS = {
    "teams": {"scale": "1", "vp_scale": "wbf-2013-20"},
    "choice": {"action": "forfeit"},
    "draw": {},
    "appeal": {"first": "1", "second": "2"},
    "swiss_pair": {},
    "decline": {"team_no": "1", "declined": "on"},
}


@pytest.mark.parametrize("page", PUBLIC)
@pytest.mark.parametrize("persona", [None, "visitor", "other_arbiter", "arbiter", "director"])
def test_public_pages_are_open_to_everybody(gnot, client_for, request, page, persona):
    user = request.getfixturevalue(persona) if persona else None
    response = client_for(user).get(urls(gnot)[page])
    assert response.status_code == 200
    assert b"GNOT Views" in response.content


@pytest.mark.parametrize("page", PUBLIC)
def test_public_pages_answer_conditional_requests(gnot, client_for, page):
    client = client_for(None)
    first = client.get(urls(gnot)[page])
    again = client.get(urls(gnot)[page], HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304


@pytest.mark.parametrize(
    ("page", "element"),
    [
        ("overview", 'id="gnot-bracket"'),
        ("session", 'id="choice-ceremony"'),
        ("swiss", 'id="swiss-table"'),
        ("qualification", 'id="qualification"'),
    ],
)
def test_htmx_gets_the_partial_alone(gnot, client_for, page, element):
    response = client_for(None).get(urls(gnot)[page], HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert html.lstrip().startswith(f"<div {element}") or html.lstrip().startswith(
        f"<section {element}"
    )
    assert "<html" not in html


def test_a_chess_event_has_no_gnot_pages(director, client_for):
    event = make_event(director, name="Chess Only")
    response = client_for(None).get(reverse("gnot:overview", args=[event.slug]))
    assert response.status_code == 404


def test_director_can_do_everything(gnot, director, client_for):
    client = client_for(director)
    pages = urls(gnot)
    assert client.get(pages["teams"]).status_code == 200
    assert client.get(pages["match"]).status_code == 200
    for page in DIRECTOR_POSTS:
        assert client.post(pages[page], DIRECTOR_POSTS[page]).status_code == 302, page


def test_arbiter_enters_match_results_only(gnot, arbiter, client_for):
    client = client_for(arbiter)
    pages = urls(gnot)
    assert client.get(pages["match"]).status_code == 200
    response = client.post(pages["match"], {"home_imps": "30", "away_imps": "12", "version": "1"})
    assert response.status_code == 302
    match = TeamMatch.objects.filter(event=gnot, session="2a").first()
    assert (match.home_imps, match.status) == (30, "decided")
    assert client.get(pages["teams"]).status_code == 403
    for page, data in DIRECTOR_POSTS.items():
        assert client.post(pages[page], data).status_code == 403, page


@pytest.mark.parametrize("persona", ["visitor", "other_arbiter"])
def test_strangers_get_403_on_every_write(gnot, client_for, request, persona):
    client = client_for(request.getfixturevalue(persona))
    pages = urls(gnot)
    assert client.get(pages["match"]).status_code == 403
    assert client.post(pages["match"], {"home_imps": "1", "away_imps": "0"}).status_code == 403
    for page, data in DIRECTOR_POSTS.items():
        assert client.post(pages[page], data).status_code == 403, page
    assert not ChoiceRecord.objects.filter(event=gnot).exists()


def test_anonymous_is_sent_to_log_in(gnot, client_for):
    client = client_for(None)
    pages = urls(gnot)
    for page in ("teams", "match", *DIRECTOR_POSTS):
        response = client.post(pages[page], DIRECTOR_POSTS.get(page, {}))
        assert response.status_code == 302 and "/accounts/login/" in response["Location"], page


def test_match_form_shows_errors_inline_for_htmx(gnot, director, client_for):
    pages = urls(gnot)
    response = client_for(director).post(
        pages["match"], {"board_nets": "10 20", "version": "1"}, HTTP_HX_REQUEST="true"
    )
    html = response.content.decode()
    assert response.status_code == 200 and html.lstrip().startswith('<div id="match-form">')
    assert "enter 14 board scores, not 2" in html
    assert TeamMatch.objects.filter(event=gnot, session="2a").first().home_imps is None


def test_stale_match_form_shows_the_conflict(gnot, director, arbiter, client_for):
    pages = urls(gnot)
    client_for(director).post(
        pages["match"], {"home_imps": "30", "away_imps": "12", "version": "1"}
    )
    response = client_for(arbiter).post(
        pages["match"], {"home_imps": "2", "away_imps": "40", "version": "1"}
    )
    assert "changed by someone else" in response.content.decode()
    assert TeamMatch.objects.filter(event=gnot, session="2a").first().home_imps == 30


def test_choice_ceremony_shows_who_chooses_and_refusals(gnot, director, client_for):
    client = client_for(director)
    pages = urls(gnot)
    view = selectors.choice_view(gnot, "2")
    page = client.get(pages["session"]).content.decode()
    assert f"Next to choose: team {view.next_chooser}" in page
    assert "from the teams ranked 4 to 8" in page
    response = client.post(
        pages["choice"], {"action": "choose", "chosen": str(view.entrants.order[1])}, follow=True
    )
    assert "out of range" in response.content.decode()
    assert not ChoiceRecord.objects.filter(event=gnot).exists()
    client.post(pages["choice"], {"action": "choose", "chosen": str(view.allowed[0])})
    assert ChoiceRecord.objects.filter(event=gnot, kind="choice").count() == 1


def test_teams_page_registers_and_seeds(director, client_for):
    from tests.formats.gnot.helpers import gnot_event

    event = gnot_event(director, teams=0, name="Fresh GNOT")
    client = client_for(director)
    page = reverse("gnot:teams", args=[event.slug])
    lines = "\n".join(f"Team {i}; players {i}" for i in range(1, 17))
    assert client.post(page, {"add": "1", "teams": lines}).status_code == 302
    order = " ".join(str(i) for i in range(16, 0, -1))
    assert client.post(page, {"seed": "1", "order": order}).status_code == 302
    assert Team.objects.get(event=event, team_no=16).seed == 1
    bad = client.post(page, {"seed": "1", "order": "1 2 3"})
    assert "every registered team exactly once" in bad.content.decode()


def test_bracket_and_swiss_pages_render(director, client_for):
    event = play_through(director, 24)
    client = client_for(None)
    overview = client.get(reverse("gnot:overview", args=[event.slug])).content.decode()
    assert overview.count("<svg") == 2 and "Double Knockout" in overview
    swiss = client.get(reverse("gnot:swiss", args=[event.slug])).content.decode()
    assert "Round 6" in swiss
    qualification = client.get(reverse("gnot:qualification", args=[event.slug]))
    assert "National final" in qualification.content.decode()


def test_25_teams_session_2a_page_shows_the_american_whist_group(director, client_for):
    event = seeded(director, teams=25, name="GNOT Whist")
    client = client_for(director)
    teams_page = reverse("gnot:teams", args=[event.slug])
    saved = client.post(
        teams_page, {"whist": "1", "whist_scale": "wbf-2013-20", "whist_boards": "8"}
    )
    assert saved.status_code == 302
    assert GnotSetup.objects.get(event=event).whist_vp_scale == "wbf-2013-20"
    lots = LotDrawer("views", "whist")
    play_pending(event, director, lots, "1")
    page = reverse("gnot:session", args=[event.slug, "2a"])
    assert client.post(reverse("gnot:session_draw", args=[event.slug, "2a"])).status_code == 302
    html = client_for(None).get(page).content.decode()
    assert "American Whist group (3.2.4.1)" in html
    assert "WBF 2013 continuous 20-VP scale, its 8-board table" in html
    # the movement card: five tables, four rounds, boards 1-70 in sets of seven
    assert html.count("boards 1–7") == 2 and html.count("boards 64–70") == 2
    play_pending(event, director, lots, "2a")
    html = client_for(None).get(page).content.decode()
    assert html.count("<td>session 3a</td>") == 1 and html.count("<td>Swiss</td>") == 4
    # once a whist match has a result the scale is locked, and the page says why
    refused = client.post(teams_page, {"whist": "1", "whist_scale": "", "whist_boards": "8"})
    assert "American Whist group has results" in refused.content.decode()
    assert GnotSetup.objects.get(event=event).whist_vp_scale == "wbf-2013-20"


def test_director_lets_the_dko_winner_play_the_swiss_3_1_8(director, client_for):
    event = seeded(director, teams=16, name="GNOT Guest")
    lots = LotDrawer("views", "guest")
    play_pending(event, director, lots, "1")
    from formats.gnot import services

    services.session_draw(event=event, session="2a", user=director)
    play_pending(event, director, lots, "2a")  # its losers are the Swiss the guest joins
    for session in ("2", "3", "4"):
        choose_all(event, director, session)
        play_pending(event, director, lots, session)
    swiss_page = reverse("gnot:swiss", args=[event.slug])
    html = client_for(director).get(swiss_page).content.decode()
    assert 'id="dko-guest"' in html and "non-contending" in html
    assert 'id="dko-guest"' not in client_for(None).get(swiss_page).content.decode()
    action = reverse("gnot:dko_winner_swiss", args=[event.slug])
    assert client_for(director).post(action, {"joins": "on"}).status_code == 302
    assert GnotSetup.objects.get(event=event).dko_winner_swiss
    services.swiss_round_pair(event=event, user=director)
    guest = SwissEntry.objects.get(event=event, non_contending=True)
    html = client_for(None).get(swiss_page).content.decode()
    assert f"{guest.team.team_no}. {guest.team.name} <abbr" in html
    # withdrawing after it has entered is refused, and the message says why
    refused = client_for(director).post(action, {}, follow=True).content.decode()
    assert "already entered the Swiss" in refused
    assert GnotSetup.objects.get(event=event).dko_winner_swiss


def test_teams_page_edits_the_band_table_and_shows_refusals_in_place(director, client_for):
    event = seeded(director, teams=16, name="GNOT Bands")
    client = client_for(director)
    page = reverse("gnot:teams", args=[event.slug])
    html = client.get(page).content.decode()
    # the shipped WBF 25-VP bands are the starting text, flagged as unchecked
    assert "14 0 15 15" in html and "have not been checked" in html
    bad = client.post(page, {"band_table": "1", "bands": "14 0 15 15\n14 2 14 16"})
    assert "at least the loser&#x27;s" in bad.content.decode()
    assert not GnotSetup.objects.filter(event=event).exclude(vp_bands={}).exists()
    good = client.post(page, {"band_table": "1", "bands": "14 0 15 15\n14 2 16 14\n14 9 25 5"})
    assert good.status_code == 302
    chosen = client.post(page, {"scale": "1", "vp_scale": "event-bands"})
    assert chosen.status_code == 302
    assert selectors.scale_of(event).victory_points(9, 0, 14) == 25


@pytest.mark.parametrize("teams", [16, 25, 32])
def test_public_pages_run_a_fixed_number_of_queries(director, client_for, teams):
    """Every public GNOT page reads the event in a few queries whatever the entry size (the
    engines re-run on the rows in memory)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    event = play_through(director, teams, dko_winner_in_swiss=True)
    client = client_for(None)
    pages = [
        reverse("gnot:overview", args=[event.slug]),
        *(reverse("gnot:session", args=[event.slug, c]) for c in ("2", "2a", "3a")),
        reverse("gnot:swiss", args=[event.slug]),
        reverse("gnot:qualification", args=[event.slug]),
    ]
    for page in pages:
        with CaptureQueriesContext(connection) as queries:
            assert client.get(page).status_code == 200
        assert len(queries) <= 12, (page, len(queries))


def test_a_gnot_event_page_speaks_of_teams_not_players(gnot, director, client_for):
    page = reverse("events:event_detail", args=[gnot.slug])
    public = client_for(None).get(page).content.decode()
    assert "24 teams" in public and reverse("gnot:swiss", args=[gnot.slug]) in public
    assert "players" not in public and "Crosstable" not in public
    mine = client_for(director).get(page).content.decode()
    assert reverse("gnot:teams", args=[gnot.slug]) in mine
    assert "Export TRF" not in mine
