"""Tour series (seed 000 §4): the selector, the page, the 4.3 tie-break order, 4.2's ties for
fifth and below, players matched by FIDE id else exact name, and who may build a series.

Most events here carry a hand-written approved snapshot (the sheet a director froze), so each
case states exactly the tour points and money it needs; one case counts a real imported event's
draft sheet.
"""

from __future__ import annotations

import datetime as dt
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command

from events.models import Event
from events.services import EventFields, event_create
from prizes import selectors, services
from prizes.models import PrizeSheetApproval, Series
from tests.conftest import make_event
from tests.prizes.conftest import ADDENDUM_FUND, gct_event

pytestmark = pytest.mark.django_db


def approved_event(
    director: Any, slug: str, time_control: str, results: list[tuple[str, str, str, str]]
) -> Event:
    """An event whose approved sheet pays ``results``: (name, fide id, tour points, money)."""
    event = event_create(
        fields=EventFields(
            name=slug,
            system="round_robin",
            time_control=time_control,
            rounds=1,
            start_date=dt.date(2019, 6, 1),
            preset="gct-2019-classical" if time_control == "classical" else "gct-2019-rapid-blitz",
        ),
        director=director,
        slug=slug,
    )
    rows = [
        {
            "rank": rank,
            "shared": False,
            "start_no": rank,
            "name": name,
            "fide_id": fide_id,
            "amount": money,
            "tour_points": points,
            "breakdown": "",
        }
        for rank, (name, fide_id, points, money) in enumerate(results, 1)
    ]
    PrizeSheetApproval.objects.create(
        event=event,
        results_version=event.results_version,
        snapshot={"event": slug, "currency": "USD", "rows": rows, "categories": None},
    )
    return event


@pytest.fixture
def tour_43ac(director) -> Series:
    """Places 1–2 decided by 4.3.A, 3–4 by 4.3.C; a tie for 5th that 4.3.A could break stays
    tied (4.2)."""
    classical = approved_event(
        director,
        "tour-classical",
        "classical",
        [
            ("Alpha", "100", "10", "100"),
            ("Bravo", "", "5", "100"),
            ("Echo", "", "6", "50"),
            ("Foxtrot", "", "6", "40"),
            ("Golf", "", "2", "5"),
            ("Hotel", "", "3", "0"),
        ],
    )
    rapid = approved_event(
        director,
        "tour-rapid",
        "rapid_blitz",
        [
            ("Alpha, A.", "100", "5", "10"),  # same FIDE id: the same player as "Alpha"
            ("Bravo", "", "10", "10"),
            ("Echo", "", "6", "20"),
            ("Foxtrot", "", "6", "30"),
            ("Golf", "", "3", "0"),
            ("Hotel", "", "2", "0"),
        ],
    )
    return services.series_create(name="Test Tour", events=[classical, rapid], user=director)


def test_series_standings_apply_43a_43c_and_leave_fifth_tied(tour_43ac):
    rows = selectors.series_standings(tour_43ac).rows
    table = [
        (row.place, row.standing.totals.name, row.tour_points, row.standing.decided_by)
        for row in rows
    ]
    assert table[:4] == [
        ("1", "Alpha", "15", "4.3.A"),
        ("2", "Bravo", "15", "4.3.A"),
        ("3", "Echo", "12", "4.3.C"),
        ("4", "Foxtrot", "12", "4.3.C"),
    ]
    assert [(place, name, decided) for place, name, _, decided in table[4:]] == [
        ("5–6", "Golf", None),
        ("5–6", "Hotel", None),
    ]
    assert all(row.standing.shared for row in rows[4:])
    alpha = rows[0]
    assert alpha.per_event == ("10", "5") and alpha.standing.totals.events == 2
    assert (alpha.classical_tour_points, alpha.prize_money, alpha.classical_prize_money) == (
        "10",
        "110",
        "100",
    )


def test_series_page_shows_the_order_and_the_deciding_criterion(tour_43ac, client_for):
    page = client_for(None).get(f"/series/{tour_43ac.slug}/").content.decode()
    positions = [page.index(name) for name in ("Alpha", "Bravo", "Echo", "Foxtrot", "Golf")]
    assert positions == sorted(positions)
    assert page.count("4.3.A") >= 2 and page.count("4.3.C") >= 2
    assert "<td>5–6</td><td>Golf</td>" in page and "approved sheet" in page


def test_43b_total_prize_money(director):
    classical = approved_event(
        director, "b-classical", "classical", [("Charlie", "", "8", "30"), ("Delta", "", "8", "30")]
    )
    rapid = approved_event(
        director, "b-rapid", "rapid_blitz", [("Charlie", "", "4", "20"), ("Delta", "", "4", "10")]
    )
    series = services.series_create(name="B", events=[classical, rapid], user=director)
    rows = selectors.series_standings(series).rows
    assert [(r.place, r.standing.totals.name, r.standing.decided_by) for r in rows] == [
        ("1", "Charlie", "4.3.B"),
        ("2", "Delta", "4.3.B"),
    ]


def test_names_match_exactly_without_a_fide_id(director):
    one = approved_event(director, "n-one", "classical", [("Kilo, K.", "", "3", "0")])
    two = approved_event(director, "n-two", "classical", [("K. Kilo", "", "3", "0")])
    series = services.series_create(name="N", events=[one, two], user=director)
    names = [row.standing.totals.name for row in selectors.series_standings(series).rows]
    assert names == ["Kilo, K.", "K. Kilo"]  # two players: the names differ


def test_draft_and_unavailable_events(tmp_path, director):
    """Without an approval an event counts with its current sheet, marked provisional; an
    incomplete event counts nothing yet and says why."""
    imported = gct_event(tmp_path, "tour-draft", ADDENDUM_FUND, director=director)
    unfinished = make_event(director, name="Unfinished")
    series = services.series_create(name="D", events=[imported, unfinished], user=director)
    standings = selectors.series_standings(series)
    sources = {sheet.event.slug: (sheet.source, sheet.note) for sheet in standings.sheets}
    assert sources["tour-draft"] == ("draft", "")
    assert sources[unfinished.slug][0] == "unavailable"
    assert "not complete" in sources[unfinished.slug][1]
    top = standings.rows[0]
    assert top.standing.totals.name == "Player 3"  # 72,500 (4.3.B) after 55/4 points each
    assert top.prize_money == "72,500" and top.standing.decided_by == "4.3.B"


# --- building a series ----------------------------------------------------------------------


def test_director_creates_a_series_from_their_events(director, client_for):
    mine = make_event(director, name="Mine")
    client = client_for(director)
    assert "Mine" in client.get("/series/new/").content.decode()
    response = client.post(
        "/series/new/", {"name": "My Tour", "slug": "", "events": [str(mine.pk)]}
    )
    assert response.status_code == 302 and response["Location"] == "/series/my-tour/"
    series = Series.objects.get(slug="my-tour")
    assert list(series.events.all()) == [mine] and series.created_by == director
    assert mine.audit_entries.filter(action="series.create").exists()
    assert "My Tour" in client_for(None).get("/series/").content.decode()


def test_others_cannot_add_events_they_do_not_direct(director, visitor, client_for):
    theirs = make_event(director, name="Theirs")
    response = client_for(visitor).post(
        "/series/new/", {"name": "Stolen", "events": [str(theirs.pk)]}
    )
    assert response.status_code == 200 and not Series.objects.exists()
    with pytest.raises(Exception, match="you do not direct Theirs"):
        services.series_create(name="Stolen", events=[theirs], user=visitor)


def test_series_edit_personas(tour_43ac, director, arbiter, visitor, client_for):
    edit = f"/series/{tour_43ac.slug}/edit/"
    assert client_for(director).get(edit).status_code == 200
    assert client_for(visitor).get(edit).status_code == 403
    assert client_for(arbiter).get(edit).status_code == 403
    anonymous = client_for(None).get(edit)
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
    assert client_for(None).get("/series/new/").status_code == 302
    assert client_for(None).get("/series/no-such-series/").status_code == 404
    response = client_for(director).post(edit, {"name": "Renamed", "events": []})
    assert response.status_code == 302
    tour_43ac.refresh_from_db()
    assert tour_43ac.name == "Renamed" and not tour_43ac.events.exists()


def test_load_demo_series_is_idempotent(django_user_model):
    demo_director = django_user_model.objects.create_user(username="director", password="x")
    make_event(demo_director, name="Demo GCT", preset="gct-2019-classical")
    make_event(demo_director, name="Demo FIDE")
    for _ in range(2):
        call_command("load_demo_series", stdout=StringIO())
    series = Series.objects.get(slug="demo-tour")
    assert [event.name for event in series.events.all()] == ["Demo GCT"]
