"""The JSON Schema in docs/ describes what import_event accepts and export_event writes."""

from __future__ import annotations

import json
from io import StringIO

import jsonschema
import pytest
from django.core.management import call_command

from tests.conftest import REPO, TIEBREAK_DATA

SCHEMA = json.loads((REPO / "docs" / "exchange-format.schema.json").read_text())
EXAMPLES = sorted((REPO / "examples").glob("*.json"))


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_every_example_is_valid(path):
    jsonschema.validate(json.loads(path.read_text()), SCHEMA)


@pytest.mark.django_db
def test_an_export_is_valid():
    out = StringIO()
    call_command(
        "import_trf",
        str(TIEBREAK_DATA / "swiss_with_many_unplayed_rounds.trf"),
        "--slug",
        "many",
        stdout=StringIO(),
    )
    call_command("export_event", "many", stdout=out)
    jsonschema.validate(json.loads(out.getvalue()), SCHEMA)
