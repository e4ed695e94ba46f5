"""The exchange format's ``swiss`` key (draws/swiss/exchange.py, issue 19): every value is checked
before anything is written, naming the key at fault, so that an import never stores what the
Swiss pages then fail on (a bye that is an object, reasons that are not lists of text, a
pairing order with a player twice, a round the event does not have); and the pairing numbers
a round was paired with travel with it."""

from __future__ import annotations

import copy
import json
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from draws.swiss import services
from events.models import Event, EventAccess, Role
from events.services import PlayerFields
from tests.conftest import REPO, make_event

SWISS_OPEN = json.loads((REPO / "examples" / "swiss-open.json").read_text())  # 7 rounds, 4 paired


def run(*args: str) -> str:
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def imported(document: dict[str, Any], tmp_path: Path) -> str:
    path = tmp_path / "event.json"
    path.write_text(json.dumps(document))
    return run("import_event", str(path)).strip().splitlines()[-1]


def with_swiss(change: str, value: Any) -> dict[str, Any]:
    """The Riverside Open with one value of its ``swiss`` key replaced: ``change`` is a path
    such as ``rounds.0.bye``."""
    document = copy.deepcopy(SWISS_OPEN)
    *parents, last = change.split(".")
    target: Any = document["swiss"]
    for key in parents:
        target = target[int(key)] if isinstance(target, list) else target[key]
    target[int(last) if isinstance(target, list) else last] = value
    return document


JUNK = [
    ("rounds.0.bye", {"start_no": 1}, "swiss.rounds\\[0\\].bye: expected an integer"),
    ("rounds.0.bye", 99, "swiss.rounds\\[0\\].bye: there is no player with start number 99"),
    ("rounds.0.reasons", {"1": 5}, "swiss.rounds\\[0\\].reasons.1: expected a list"),
    ("rounds.0.reasons", {"1": [{"x": 1}]}, "swiss.rounds\\[0\\].reasons.1\\[0\\]: expected a str"),
    ("rounds.0.reasons", {"99": ["far"]}, "'99' is not a board of the round \\(1–20\\)"),
    ("rounds.0.notes", "one note", "swiss.rounds\\[0\\].notes: expected a list"),
    (
        "rounds.0.boards",
        [[1, 2, 3]],
        "swiss.rounds\\[0\\].boards\\[0\\]: expected \\[white, black\\]",
    ),
    ("rounds.1.round", 1, "swiss.rounds\\[1\\].round: round 1 is listed twice"),
    ("pairing_order", [1, 1, 2], "swiss.pairing_order: start number 1 is listed twice"),
    (
        "pairing_order",
        [1, 99],
        "swiss.pairing_order\\[1\\]: there is no player with start number 99",
    ),
    ("pairing_order", {"1": 1}, "swiss.pairing_order: expected a list"),
    ("bye_requests.0.round", 99, "swiss.bye_requests\\[0\\].round: 99 is outside 1–7"),
    ("forbidden_pairs.0.until_round", 99, "swiss.forbidden_pairs\\[0\\].until_round: 99 is out"),
    ("acceleration_table", {"1": ["1"]}, 'acceleration_table: only with acceleration "table"'),
    ("rounds.1.outdated_by", {"1.0": "1-0"}, "'1.0' is not \"round.board\" of an earlier"),
    ("rounds.1.outdated_by", {"9" * 5000 + ".1": "1-0"}, "'9+' is not \"round.board\""),
]
TABLE_JUNK = [
    ({"99": ["1"]}, "acceleration_table: '99' is not the start number of a player"),
    ({"1": ["1"] * 8}, "acceleration_table.1: more values than the event's 7 rounds"),
    ({"1": ["-1"]}, "acceleration_table.1\\[0\\]: '-1' is not a number of points"),
    ({"1": ["9" * 5000]}, "acceleration_table.1\\[0\\]: '9+' is not a number of points"),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("table", "message"), TABLE_JUNK, ids=[m[:30] for _, m in TABLE_JUNK])
def test_an_acceleration_table_out_of_shape_is_refused(
    table: dict[str, Any], message: str, tmp_path: Path
) -> None:
    document = with_swiss("acceleration", "table")
    document["swiss"]["acceleration_table"] = table
    with pytest.raises(CommandError, match=message):
        imported(document, tmp_path)
    assert not Event.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("change", "value", "message"), JUNK, ids=[(j[0] + str(j[1]))[:60] for j in JUNK]
)
def test_a_swiss_value_out_of_shape_is_refused_naming_its_key(
    change: str, value: Any, message: str, tmp_path: Path
) -> None:
    with pytest.raises(CommandError, match=message):
        imported(with_swiss(change, value), tmp_path)
    assert not Event.objects.exists()


@pytest.mark.django_db
def test_a_requested_bye_asked_twice_is_refused(tmp_path: Path) -> None:
    document = copy.deepcopy(SWISS_OPEN)
    document["swiss"]["bye_requests"] *= 2
    with pytest.raises(CommandError, match="asks for a bye in round 3 twice"):
        imported(document, tmp_path)
    assert not Event.objects.exists()


@pytest.mark.django_db
def test_every_imported_round_opens_on_its_review_page(director, client_for, tmp_path) -> None:
    slug = imported(SWISS_OPEN, tmp_path)
    EventAccess.objects.create(
        event=Event.objects.get(slug=slug), user=director, role=Role.DIRECTOR
    )
    client = client_for(director)
    for number in range(1, 5):
        response = client.get(reverse("draws:swiss_round", args=[slug, number]))
        assert response.status_code == 200


@pytest.mark.django_db
def test_the_pairing_numbers_of_each_round_travel_with_it(director, tmp_path: Path) -> None:
    event = make_event(director, players=6, rounds=3)
    services.swiss_round_pair(event=event, round_no=1, user=director)
    services.late_entry_register(
        event=event, fields=PlayerFields(name="Late", rating=2500), missed="zero", user=director
    )
    exported = json.loads(run("export_event", event.slug))
    assert exported["swiss"]["rounds"][0]["pairing_numbers"] == [1, 2, 3, 4, 5, 6]
    exported["slug"] = "again"
    slug = imported(exported, tmp_path)
    again = json.loads(run("export_event", slug))
    assert again["swiss"] == exported["swiss"]


@pytest.mark.django_db
def test_an_imported_trfs_acceleration_table_and_full_bye_travel(tmp_path: Path) -> None:
    """An event continued from a TRF whose ``XXA`` points are not Baku's and whose next round
    grants a full-point bye (issue 28) exports and imports as the same Swiss event: the table
    travels with ``acceleration`` "table", the bye as kind "full"."""
    from tests.draws.test_trf_import import cut
    from tests.draws.test_trf_import import imported as trf_imported

    text = cut("XXR 5\nXXA    4  1.0  0.5\nXXA    6  0.0  1.0\n", ["0000 - F", "", "", "", "", ""])
    event, _ = trf_imported(tmp_path, text)
    exported = json.loads(run("export_event", event.slug))
    assert exported["swiss"]["acceleration"] == "table"
    assert exported["swiss"]["acceleration_table"] == {"4": ["1", "1/2"], "6": ["0", "1"]}
    assert [r["kind"] for r in exported["swiss"]["bye_requests"]] == ["full"]
    exported["slug"] = "again"
    slug = imported(exported, tmp_path)
    again = json.loads(run("export_event", slug))
    assert again["swiss"] == exported["swiss"]
