"""The tournament records of FIDE's rating report (issue 20): TRF records 022-132 survive
``import_trf`` → ``export_trf``, the JSON exchange format and the event form; bad values are
refused by the form with the field at fault and change nothing, and left empty by the import
with a note (issue 28)."""

from __future__ import annotations

import datetime as dt
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import reverse

from events.models import Event
from tests.conftest import export_document, import_copy, make_event
from tests.events.test_trf import GOOD, round_dates_line

pytestmark = pytest.mark.django_db

RECORDS = (
    "012 Tromsø Open\n022 Tromsø\n032 NOR\n042 2026-04-01\n052 09.04.2026\n"
    "092 Individual: Swiss-System\n102 IA Kari Nordmann 1503014\n112 FA Ola Nordmann\n"
    "112 Per Hansen\n122 90'/40+30'+30\" per move\n"
    + round_dates_line("26/04/01", "26/04/02")
    + "\nXXR 2\n"
)
# The same records as export_trf writes them: dates as TRF16 spells them (042/052
# YYYY/MM/DD, 132 YY/MM/DD in the round columns), the counts 062/072/082 computed.
EXPECTED = [
    "012 Tromsø Open",
    "022 Tromsø",
    "032 NOR",
    "042 2026/04/01",
    "052 2026/04/09",
    "062 3",
    "072 0",  # FIDE-rated players: a rating and a FIDE id (these have no id)
    "082 0",
    "092 Individual: Swiss-System",
    "102 IA Kari Nordmann 1503014",
    "112 FA Ola Nordmann",
    "112 Per Hansen",
    "122 90'/40+30'+30\" per move",
    round_dates_line("26/04/01", "26/04/02"),
    "XXR 2",
]


def body() -> str:
    return "\n".join(line for line in GOOD.splitlines() if line.startswith("001")) + "\n"


def import_trf(tmp_path: Path, text: str, slug: str = "records") -> Event:
    path = tmp_path / f"{slug}.trf"
    path.write_text(text, encoding="utf-8")
    call_command("import_trf", str(path), "--slug", slug, stdout=StringIO(), stderr=StringIO())
    return Event.objects.get(slug=slug)


def export_trf(slug: str) -> list[str]:
    out = StringIO()
    call_command("export_trf", slug, stdout=out)
    return out.getvalue().splitlines()


def test_every_record_survives_import_and_export(tmp_path: Path) -> None:
    event = import_trf(tmp_path, RECORDS + body())
    assert (event.site, event.federation, event.end_date) == ("Tromsø", "NOR", dt.date(2026, 4, 9))
    assert event.deputy_arbiters == ["FA Ola Nordmann", "Per Hansen"]
    assert event.round_dates == ["2026-04-01", "2026-04-02"]
    exported = export_trf(event.slug)
    assert exported[: len(EXPECTED)] == EXPECTED
    again = import_trf(tmp_path, "\n".join(exported) + "\n", slug="again")
    assert export_trf(again.slug) == exported


def test_the_records_travel_in_the_exchange_format(tmp_path: Path) -> None:
    event = import_trf(tmp_path, RECORDS + body())
    document = export_document(event.slug)
    assert {key: document[key] for key in ("site", "federation", "end_date", "round_dates")} == {
        "site": "Tromsø",
        "federation": "NOR",
        "end_date": "2026-04-09",
        "round_dates": ["2026-04-01", "2026-04-02"],
    }
    assert document["deputy_arbiters"] == ["FA Ola Nordmann", "Per Hansen"]
    copy = import_copy(document, tmp_path)
    assert export_document(copy.slug) == {**document, "slug": copy.slug}


def test_an_event_without_records_exports_none_of_their_keys(director) -> None:  # type: ignore[no-untyped-def]
    event = make_event(director, players=2, rounds=1)
    document = export_document(event.slug)
    for key in ("federation", "end_date", "tournament_type", "chief_arbiter", "deputy_arbiters"):
        assert key not in document


@pytest.mark.parametrize(
    ("record", "field", "value", "note"),
    [
        ("042 2026/02/30", "start_date", None, "record 042 '2026/02/30' (no such day)"),
        (round_dates_line("26/04/01", "tomorrow"), "round_dates", ["2026-04-01", None],
         "record 132, round 2 'tomorrow'"),
        ("052 2026/03/01\n042 2026/04/01", "end_date", None,
         "The end date (record 052) 2026-03-01 is before the start 2026-04-01: left empty."),
        ("102 " + "x" * 201, "chief_arbiter", "",
         "Longer than 200 characters, left empty: the event's chief arbiter."),
        ("032 Norway", "federation", "",
         "Record 032 'Norway' is not a federation code: the event's federation is left empty."),
        (round_dates_line("26/04/01", "26/04/02", "26/04/03"), "round_dates",
         ["2026-04-01", "2026-04-02"], "the dates past round 2 are left out"),
    ],
    ids=["start date", "round date", "end before start", "long", "federation", "dates"],
)  # fmt: skip
def test_a_bad_informational_record_is_left_empty_with_a_note(
    tmp_path: Path, record: str, field: str, value: object, note: str
) -> None:
    """Issue 28: the records 022-132 inform the rating officer; a played event is never
    refused for one that does not read: it is left empty (or left out), and the notes say so
    in one line (issue 20 refused the whole file)."""
    path = tmp_path / "bad.trf"
    path.write_text(record + "\n" + body())
    err = StringIO()
    call_command("import_trf", str(path), "--slug", "bad", stdout=StringIO(), stderr=err)
    event = Event.objects.get(slug="bad")
    assert getattr(event, field) == value
    assert note in err.getvalue()


def form_data(event: Event, **changes: str) -> dict[str, str]:
    data = {
        "name": event.name,
        "system": event.system,
        "time_control": event.time_control,
        "rounds": str(event.rounds),
        "preset": "fide-2024",
        "currency": "EUR",
        "site": "Tromsø",
        "federation": "nor",
        "start_date": "2026-04-01",
        "end_date": "2026-04-09",
        "tournament_type": "Individual: Swiss-System",
        "chief_arbiter": "IA Kari Nordmann",
        "deputy_arbiters": "FA Ola Nordmann\n\nPer Hansen\n",
        "rate_of_play": "90'/40+30'+30\"",
        "round_dates": "2026-04-01\n\n2026-04-03\n",
    }
    return {**data, **changes}


def test_the_event_form_sets_every_record(director, client_for) -> None:  # type: ignore[no-untyped-def]
    event = make_event(director, players=4, rounds=5)
    url = reverse("events:event_edit", kwargs={"slug": event.slug})
    response = client_for(director).post(url, form_data(event))
    assert response.status_code == 302, response.content.decode()[:2000]
    event.refresh_from_db()
    assert (event.federation, event.end_date) == ("NOR", dt.date(2026, 4, 9))
    assert event.deputy_arbiters == ["FA Ola Nordmann", "Per Hansen"]
    assert event.round_dates == ["2026-04-01", None, "2026-04-03"]
    page = client_for(director).get(url).content.decode()
    assert "FA Ola Nordmann\nPer Hansen</textarea>" in page
    assert "2026-04-01\n\n2026-04-03</textarea>" in page
    lines = export_trf(event.slug)
    assert "102 IA Kari Nordmann" in lines and "112 Per Hansen" in lines


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("round_dates", "2026-04-01\n1 April", "line 2: &#x27;1 April&#x27; is not a date"),
        ("round_dates", "\n".join(["2026-04-01"] * 6), "6 round dates for 5 rounds"),
        ("end_date", "2026-03-01", "the end date 2026-03-01 is before the start date"),
        ("deputy_arbiters", "\n".join(f"D{n}" for n in range(21)), "at most 20 deputy"),
        ("federation", "N0R", "is not a three-letter code"),
        ("chief_arbiter", "x" * 201, "at most 200 characters"),
    ],
    ids=["bad round date", "too many dates", "end before start", "deputies", "fed", "long"],
)
def test_the_event_form_refuses_bad_records(  # type: ignore[no-untyped-def]
    director, client_for, field: str, value: str, message: str
) -> None:
    event = make_event(director, players=4, rounds=5)
    url = reverse("events:event_edit", kwargs={"slug": event.slug})
    response = client_for(director).post(url, form_data(event, **{field: value}))
    assert response.status_code == 200 and message in response.content.decode()
    event.refresh_from_db()
    assert (event.federation, event.chief_arbiter, event.round_dates) == ("", "", [])
