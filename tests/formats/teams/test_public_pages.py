"""A team event's public pages (issue 29, "Team events at the venue"): the chess addresses
(``/standings/``, ``/crosstable/``, the hall screen, their print and PDF, a round's page and
sheets) answer with the teams through the format seam (``Format.pages``); the team standings
show MP and GP once; the hall screen turns between the round's matches with their board
results, the standings and the board leaders; every sheet prints and comes as a PDF; the home
page says the event is in progress once a round is published."""

from __future__ import annotations

import re

import pytest

from events.services import access_grant
from formats.teams import selectors, services
from formats.teams.models import TeamMatch
from tests.formats.teams.test_services import team_event

pytestmark = pytest.mark.django_db


def _play(event, director, number: int, results: tuple[str, ...]) -> None:  # type: ignore[no-untyped-def]
    services.team_round_pair(event=event, round_no=number, user=director)
    services.team_round_publish(event=event, round_no=number, user=director)
    for match in TeamMatch.objects.filter(round__event=event, round__number=number):
        services.match_card_record(
            event=event,
            match_id=match.pk,
            results=dict(enumerate(results, start=1)),
            expected_version=match.version,
            user=director,
        )


@pytest.fixture
def cup(director, arbiter):  # type: ignore[no-untyped-def]
    """Four teams on two boards; round 1 played (each white team wins 1½-½), round 2
    published with no result yet."""
    event = team_event(director, teams=4, boards=2, rounds=3)
    access_grant(event=event, username=arbiter.username, role="arbiter", user=director)
    _play(event, director, 1, ("1-0", "1/2-1/2"))
    services.team_round_pair(event=event, round_no=2, user=director)
    services.team_round_publish(event=event, round_no=2, user=director)
    event.refresh_from_db()
    return event


CORE_PAGES = [
    ("standings/", "team/standings/"),
    ("standings/?after=1", "team/standings/?after=1"),
    ("standings/explain/?a=1&b=2", "team/standings/?a=1&b=2"),
    ("standings/print/", "team/standings/print/"),
    ("standings/print.pdf", "team/standings/print.pdf"),
    ("hall/", "team/hall/"),
    ("crosstable/", "team/standings/#team-crosstable"),
    ("crosstable/print/", "team/crosstable/print/"),
    ("crosstable/print.pdf", "team/crosstable/print.pdf"),
    ("rounds/2/", "team/rounds/2/"),
    ("rounds/2/print/", "team/rounds/2/print/"),
    ("rounds/2/print.pdf", "team/rounds/2/print.pdf"),
]


def test_the_chess_addresses_of_a_team_event_lead_to_its_teams(cup, client_for) -> None:  # type: ignore[no-untyped-def]
    """issue 29: "The hall screen, /standings/ and /crosstable/ of a team event show every
    individual player tied 1–55 on 0 points": each address answers with the team page that
    stands for it, the query kept."""
    visitor = client_for(None)
    for core, team in CORE_PAGES:
        response = visitor.get(f"/e/{cup.slug}/{core}")
        assert (response.status_code, response["Location"]) == (302, f"/e/{cup.slug}/{team}")
        page = visitor.get(response["Location"].split("#")[0])
        assert page.status_code == 200, core
        if page["Content-Type"].startswith("text/html"):
            assert "Team 1" in page.content.decode(), core


def test_an_individual_event_keeps_its_own_pages(event, client_for) -> None:  # type: ignore[no-untyped-def]
    for core in ("standings/", "crosstable/", "hall/", "rounds/1/"):
        assert client_for(None).get(f"/e/{event.slug}/{core}").status_code == 200


def test_the_team_standings_show_mp_and_gp_once(cup, client_for) -> None:  # type: ignore[no-untyped-def]
    """issue 29: "team standings show MP and GP twice" (the default tie-breaks are MP, GP,
    EDE: MP and GP are the score columns already)."""
    page = client_for(None).get(f"/e/{cup.slug}/team/standings/").content.decode()
    table = page[page.index('id="team-standings"') : page.index("</thead>")]
    headers = re.findall(r"<th[^>]*>([^<]*)</th>", table)
    assert headers == ["Rank", "No.", "Team", "MP", "GP", "EDE", "Above the next on"]
    assert "tie-breaks MP, GP, EDE" in page  # the order the event ranks by is still said
    for link in ("standings/print/", "standings/print.pdf", "crosstable/print/", "hall/"):
        assert f'href="/e/{cup.slug}/team/{link}"' in page
    # ?after=N, as on the chess standings (the redirect keeps it), and its refusals
    visitor = client_for(None)
    after = visitor.get(f"/e/{cup.slug}/team/standings/?after=1").content.decode()
    assert "After round 1 of 3" in after
    assert f'href="/e/{cup.slug}/team/standings/print/?after=1"' in after
    for query, message in (("9", "the event has 3 rounds"), ("x", "not a round number")):
        page = visitor.get(f"/e/{cup.slug}/team/standings/?after={query}").content.decode()
        assert message in page and 'id="team-standings"' in page


def test_the_hall_screen_shows_the_round_the_standings_and_the_boards(cup, client_for) -> None:  # type: ignore[no-untyped-def]
    page = client_for(None).get(f"/e/{cup.slug}/team/hall/").content.decode()
    assert 'data-hall-panel="pairings"' in page and "Round 2" in page
    assert "0 of 2 matches decided" in page
    round_one = client_for(None).get(f"/e/{cup.slug}/team/rounds/1/").content.decode()
    assert "1½–½" in round_one  # each white team won 1½-½ in round 1
    standings = selectors.standings_of(cup)
    leader = standings["rows"][0]
    assert 'data-hall-panel="standings"' in page and "after round 1 of 3" in page
    assert f"<td>{leader['team_no']}. {leader['name']}</td>" in page
    assert 'data-hall-panel="boards"' in page and "Bd 1" in page and "Bd 2" in page
    assert "Live results on your phone" in page  # the QR code
    poll = client_for(None).get(f"/e/{cup.slug}/team/hall/", HTTP_HX_REQUEST="true")
    body = poll.content.decode().lstrip()
    assert body.startswith('<main id="hall"') and "Live results" not in body


def test_every_sheet_prints_and_comes_as_a_pdf(cup, client_for) -> None:  # type: ignore[no-untyped-def]
    visitor = client_for(None)
    standings = visitor.get(f"/e/{cup.slug}/team/standings/print/").content.decode()
    assert "Team standings after round 1 of 3" in standings and "Team 1" in standings
    assert re.findall(r"<th[^>]*>([^<]*)</th>", standings) == [
        "Rk",
        "No.",
        "Team",
        "MP",
        "GP",
        "EDE",
    ]
    crosstable = visitor.get(f"/e/{cup.slug}/team/crosstable/print/").content.decode()
    assert (
        "Team crosstable after round 1 of 3" in crosstable
        and '<th class="result">R1</th>' in crosstable
    )
    first = TeamMatch.objects.get(round__event=cup, round__number=1, table=1)
    round_one = visitor.get(f"/e/{cup.slug}/team/rounds/1/print/").content.decode()
    assert f"{first.white.team_no}. {first.white.name}" in round_one and "1½–½" in round_one
    assert round_one.count('<tbody class="block">') == 2  # a block a match
    assert "Live results:" in round_one
    boards = visitor.get(f"/e/{cup.slug}/team/boards/print/").content.decode()
    assert "A board prize needs 3 games" in boards  # 3 rounds: 8 of every 11, rounded up
    for sheet, name in (
        ("standings/print.pdf", "standings"),
        ("crosstable/print.pdf", "crosstable"),
        ("rounds/1/print.pdf", "round-1"),
        ("boards/print.pdf", "boards"),
    ):
        response = visitor.get(f"/e/{cup.slug}/team/{sheet}")
        assert response.status_code == 200 and response.content.startswith(b"%PDF")
        assert response["Content-Disposition"] == f'inline; filename="{cup.slug}-{name}.pdf"'


def test_a_draft_round_is_printed_for_nobody_outside(cup, director, client_for) -> None:  # type: ignore[no-untyped-def]
    for match in TeamMatch.objects.filter(round__event=cup, round__number=2):
        services.match_card_record(
            event=cup, match_id=match.pk, results={1: "1-0", 2: "0-1"},
            expected_version=match.version, user=director,
        )  # fmt: skip
    services.team_round_pair(event=cup, round_no=3, user=director)
    for sheet in ("print/", "print.pdf"):
        assert client_for(None).get(f"/e/{cup.slug}/team/rounds/3/{sheet}").status_code == 404


def test_the_home_and_event_pages_say_where_the_event_stands(director, client_for) -> None:  # type: ignore[no-untyped-def]
    """issue 29: "team events say Registration on the home page after three rounds"."""
    event = team_event(director, teams=4, boards=2, rounds=3)

    def home_status() -> str:
        page = client_for(None).get("/").content.decode()
        row = page[page.index(f'href="/e/{event.slug}/"') :]
        return re.search(r'<span class="pill">([^<]*)</span>', row)[1]  # type: ignore[index]

    assert home_status() == "Registration"
    services.team_round_pair(event=event, round_no=1, user=director)
    assert home_status() == "Registration"  # a draft is nobody's yet
    services.team_round_publish(event=event, round_no=1, user=director)
    assert home_status() == "In progress"
    page = client_for(None).get(f"/e/{event.slug}/").content.decode()
    assert f'href="/e/{event.slug}/team/hall/">Hall screen</a>' in page
    assert "Round 1" in page and "0 of 2 matches decided" in page
