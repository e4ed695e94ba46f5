"""The README and the ``make run`` banner say which demo events the demo arbiter may work on,
and it is what ``load_demo`` grants (issue 20: they said two GCT events; the demo grants seven)."""

from __future__ import annotations

import io
import re

import pytest
from django.core.management import call_command

from events.models import Event
from tests.conftest import REPO

pytestmark = pytest.mark.django_db


def _granted() -> set[str]:
    return set(
        Event.objects.filter(access__user__username="arbiter", access__role="arbiter").values_list(
            "slug", flat=True
        )
    )


def test_the_readme_and_the_banner_name_the_events_load_demo_grants_the_arbiter() -> None:
    out = io.StringIO()
    call_command("load_demo", stdout=out)
    granted = _granted()
    assert granted and len(granted) < Event.objects.count()  # some, not all: worth saying
    row = next(
        line for line in (REPO / "README.md").read_text().splitlines() if "`arbiter-demo`" in line
    )
    may, _, not_granted = row.partition("(not ")
    assert set(re.findall(r"`([a-z0-9-]+)`", may)) - {"arbiter", "arbiter-demo"} == granted
    assert (
        set(re.findall(r"`([a-z0-9-]+)`", not_granted))
        == set(Event.objects.values_list("slug", flat=True)) - granted
    )
    banner = out.getvalue().strip().splitlines()[-1]
    names = Event.objects.filter(slug__in=granted).values_list("name", flat=True)
    assert f"in {len(granted)} demo events" in banner
    assert all(name in banner for name in names)
    others = Event.objects.exclude(slug__in=granted).values_list("name", flat=True)
    assert not any(name in banner for name in others)
