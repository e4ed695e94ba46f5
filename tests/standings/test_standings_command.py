"""The real ``manage.py standings`` process (docs/performance.md, "Standings (issue 3)").

manage.py starts this command without the cyclic garbage collector, and the command freezes
what start-up built and reads past the standings cache. What the process prints must be
exactly what ``call_command`` prints in the test process, in every format, and
``call_command`` must leave the test process's collector as it found it.
"""

from __future__ import annotations

import gc
import subprocess
from io import StringIO

import pytest
from django.core.management import call_command

from tests.conftest import TIEBREAK_DATA, manage_process
from tests.standings.test_standings_pages import big_swiss

pytestmark = pytest.mark.django_db(transaction=True)  # the process must see the rows


def run(*args: str) -> str:
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def manage(*args: str) -> subprocess.CompletedProcess[str]:
    return manage_process("standings", *args)


@pytest.fixture
def held_swiss() -> str:
    return run("import_trf", str(TIEBREAK_DATA / "held_swiss_5.trf"), "--slug", "held5").strip()


@pytest.mark.parametrize(
    "args",
    [
        pytest.param([], id="text-with-the-events-tiebreaks"),
        pytest.param(["--format", "json", "--tiebreaks", "BH/C1,BH,SB,PS"], id="json-bench"),
        pytest.param(["--format", "csv", "--after-round", "3"], id="csv-after-round-3"),
        pytest.param(
            ["--format", "json", "--edition", "2026", "--tiebreaks", "DE,BH,WIN"],
            id="json-2026-direct-encounter",
        ),
    ],
)
def test_the_process_prints_what_call_command_prints(held_swiss: str, args: list[str]) -> None:
    done = manage(held_swiss, *args)
    assert done.returncode == 0, done.stderr
    assert done.stdout == run("standings", held_swiss, *args)


def test_a_large_field_with_shared_places_prints_the_same() -> None:
    slug = big_swiss(300).slug
    args = ["--format", "json", "--tiebreaks", "BH/C1,BH,SB,PS"]
    done = manage(slug, *args)
    assert done.returncode == 0, done.stderr
    assert done.stdout == run("standings", slug, *args)
    assert '"decided_by": null' in done.stdout  # some players stay tied


def test_a_refusal_is_one_line_and_a_non_zero_exit() -> None:
    done = manage("no-such-event", "--format", "json")
    assert done.returncode != 0 and done.stdout == ""
    assert done.stderr.strip().splitlines() == [
        "CommandError: no event with the slug 'no-such-event'"
    ]


def test_call_command_leaves_the_collector_alone(held_swiss: str) -> None:
    frozen = gc.get_freeze_count()
    run("standings", held_swiss, "--format", "json")
    assert gc.isenabled()
    assert gc.get_freeze_count() == frozen
