"""The K set by hand and the norm conditions in the JSON exchange format: exported, valid
against the schema in docs/, imported again unchanged, and refused naming the key when bad."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from events.errors import UserError
from events.exchange import event_import_document
from events.models import Event
from fiderating.models import NormConditions, PlayerK
from fiderating.services import norm_conditions_set, player_k_set
from tests.conftest import REPO, export_document, import_copy, make_event

SCHEMA = json.loads((REPO / "docs" / "exchange-format.schema.json").read_text())


@pytest.fixture
def event(director: Any) -> Event:
    event = make_event(director, players=4)
    player_k_set(event=event, start_no=3, k=40, user=director)
    norm_conditions_set(event=event, kind="zonal", standings_columns=True, user=director)
    return event


def test_exported_and_imported_again(event: Event, tmp_path: Path) -> None:
    document = export_document(event.slug)
    jsonschema.validate(document, SCHEMA)
    assert document["fide_k"] == [{"start_no": 3, "k": 40}]
    assert document["norm_conditions"] == {"kind": "zonal", "standings_columns": True}
    copy = import_copy(document, tmp_path)
    assert list(
        PlayerK.objects.filter(player__event=copy).values_list("player__start_no", "k")
    ) == [(3, 40)]
    conditions = NormConditions.objects.get(event=copy)
    assert (conditions.kind, conditions.standings_columns) == ("zonal", True)
    assert export_document("copy")["fide_k"] == document["fide_k"]


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("fide_k", [{"start_no": 3, "k": 1_000_000_000}], "fide_k[0].k: 1000000000"),
        ("fide_k", [{"start_no": 99, "k": 20}], "fide_k[0].start_no: no player 99"),
        ("norm_conditions", {"kind": "olympiad"}, "norm_conditions.kind: 'olympiad'"),
    ],
)
def test_bad_keys_are_refused(event: Event, key: str, value: Any, message: str) -> None:
    document = {**export_document(event.slug), key: value, "slug": "bad"}
    with pytest.raises(UserError) as refused:
        event_import_document(text=json.dumps(document), user=None)
    assert message in str(refused.value)
    assert not Event.objects.filter(slug="bad").exists()
