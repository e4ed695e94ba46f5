"""The exchange format's ``drawing_of_lots`` (issue 19): a Varma drawing of lots survives
export → import as it was held, and a draw the rules (seed 001) do not allow refuses the
import, naming the key."""

from __future__ import annotations

import pytest
from django.core.management.base import CommandError

from draws.models import DrawCeremony
from draws.services import draw_entry_record, draw_perform, schedule_create
from events.models import Event, Game
from tests.conftest import export_document, import_copy
from tests.draws.test_services import CEREMONY, make_field, stored

pytestmark = pytest.mark.django_db


def test_a_computer_draw_and_its_schedule_survive_export_and_import(director, tmp_path):
    event = make_field(director)
    draw_perform(event=event, user=director)
    schedule_create(event=event, user=director)
    document = export_document(event.slug)
    assert document["drawing_of_lots"]["schedule_created"] is True
    copy = import_copy(document, tmp_path)
    ceremony = DrawCeremony.objects.get(event=copy)
    original = DrawCeremony.objects.get(event=event)
    assert stored(copy) == stored(event)
    fields = ("mode", "seed", "table", "status", "warnings", "schedule_created", "completed_at")
    assert [getattr(ceremony, f) for f in fields] == [getattr(original, f) for f in fields]
    assert Game.objects.filter(round__event=copy).count() == 45
    assert export_document(copy.slug) == {**document, "slug": "copy"}


def test_a_ceremony_half_way_through_goes_on_after_import(director, tmp_path):
    event = make_field(director)
    for start_no, envelope, number in CEREMONY[:4]:
        draw_entry_record(
            event=event, start_no=start_no, envelope=envelope, number=number, user=director
        )
    copy = import_copy(export_document(event.slug), tmp_path)
    assert stored(copy) == CEREMONY[:4]
    start_no, envelope, number = CEREMONY[4]
    draw_entry_record(event=copy, start_no=start_no, envelope=envelope, number=number, user=None)
    assert stored(copy) == CEREMONY[:5]


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        pytest.param(
            lambda d: d["entries"][1].update(number=3),
            "drawing_of_lots.entries: the field has changed",
            id="a-number-drawn-twice",
        ),
        pytest.param(
            lambda d: d["entries"][0].update(envelope="E"),
            "drawing_of_lots.entries[0].envelope: 'E' is not one of A, B, C, D",
            id="no-such-envelope",
        ),
        pytest.param(
            lambda d: d.update(status="complete"),
            "drawing_of_lots.status: complete with 4 of 10 drawn",
            id="complete-too-soon",
        ),
        pytest.param(
            lambda d: d["entries"][0].update(start_no=99),
            "drawing_of_lots.entries[0].start_no: there is no player with start number 99",
            id="unknown-player",
        ),
    ],
)
def test_a_draw_the_rules_do_not_allow_refuses_the_import(director, tmp_path, change, reason):
    event = make_field(director)
    for start_no, envelope, number in CEREMONY[:4]:
        draw_entry_record(
            event=event, start_no=start_no, envelope=envelope, number=number, user=director
        )
    document = export_document(event.slug)
    change(document["drawing_of_lots"])
    with pytest.raises(CommandError) as refusal:
        import_copy(document, tmp_path)
    assert reason in str(refusal.value)
    assert not Event.objects.filter(slug="copy").exists()
