"""The ``standings`` command line's direct path (``standings.fastpath``; docs/performance.md).

It must print exactly what the Django command prints, for every event and option it accepts,
and decline everything else, having printed nothing, so that the Django command answers. The
differential tests read through the test's own database connection (the direct path's SQL on
Django's psycopg connection, inside the test's transaction); ``test_standings_command.py``
runs the real ``manage.py standings`` process.
"""

from __future__ import annotations

import random
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection

from events.imports import event_import_trf
from events.models import Event, EventSystem, Player
from events.services import event_version_bump
from events.trf import write_trf
from standings import fastpath
from tests.conftest import REPO, TIEBREAK_DATA, manage_process
from tests.standings.generate import generate_round_robin, generate_swiss

pytestmark = pytest.mark.django_db

# Option sets a director or a script would use; each is run against every generated event.
ARGUMENTS = [
    [],
    ["--format", "json"],
    ["--format", "csv"],
    ["--format=json", "--tiebreaks", "BH/C1,BH,SB,PS"],
    ["--format", "json", "--edition", "2026", "--tiebreaks", "DE,WIN,BPG,SB/C1,STD"],
    ["--tiebreaks", " ARO , TPR,APRO,AOB ", "--format", "text"],
    ["--format", "json", "--after-round", "1"],
    ["--after-round=2", "--format", "csv", "--tiebreaks", "KS,WON,BWG,REP"],
    ["--format", "json", "--edition=2026", "--tiebreaks", "PTP,RTNG,TPN,FB,BH/M1"],
]


def django_command(*args: str) -> str:
    out = StringIO()
    call_command("standings", *args, stdout=out)
    return out.getvalue()


def direct(*args: str) -> str:
    connection.ensure_connection()
    return fastpath.render(list(args), connection.connection)


def imported(crosstable: Any, slug: str) -> Event:
    return event_import_trf(text=write_trf(crosstable), user=None, slug=slug)


def check_same(slug: str, args: list[str]) -> str:
    """Both paths print the same, or both refuse; returns the output."""
    try:
        expected = django_command(slug, *args)
    except Exception as exc:  # the Django command refuses: the direct path must decline
        with pytest.raises(fastpath.Decline):
            direct(slug, *args)
        return f"refused: {exc}"
    assert direct(slug, *args) == expected
    return expected


@pytest.mark.parametrize("seed", range(12))
def test_generated_swiss_events_print_the_same(seed: int) -> None:
    """Byes of every kind, forfeits, double forfeits, withdrawals and unrated players
    (tests/standings/generate.py), in every format, with the event's chain and others."""
    event = imported(generate_swiss(seed), f"swiss-{seed}")
    outputs = [check_same(event.slug, args) for args in ARGUMENTS]
    assert not [out for out in outputs if out.startswith("refused")]


@pytest.mark.parametrize("seed", range(8))
def test_generated_round_robins_print_the_same(seed: int) -> None:
    """Round robins, with 2026 refusing the Buchholz family there (C.07 Art. 15.2)."""
    event = imported(generate_round_robin(seed), f"rr-{seed}")
    for args in ARGUMENTS:
        check_same(event.slug, args)
    refused = check_same(event.slug, ["--edition", "2026", "--tiebreaks", "BH"])
    assert refused.startswith("refused")


def test_previous_ranks_unrated_rating_and_rounds_in_progress() -> None:
    """Previous tournament ranks and an unrated players' rating from the regulation reach
    the ranking; a round without every result is not counted."""
    event = imported(generate_swiss(3, players=16, rounds=5), "in-progress")
    rng = random.Random(3)
    for player in Player.objects.filter(event=event):
        player.previous_rank = rng.choice([None, rng.randint(1, 50)])
        player.save(update_fields=["previous_rank"])
    regulation = event.regulation
    regulation.overrides = {**regulation.overrides, "unrated_rating": 1000}
    regulation.save()
    game = event.round_set.get(number=4).games.order_by("board").first()
    game.result = ""
    game.save(update_fields=["result"])
    event_version_bump(event=event)
    default = check_same(event.slug, ["--format", "json"])
    assert '"after_round": 3' in default
    check_same(event.slug, ["--tiebreaks", "ARO,APRO,TPR", "--format", "json"])
    with_previous = check_same(event.slug, ["--tiebreaks", "PREV", "--format", "csv"])
    assert "PREV" in with_previous
    check_same(event.slug, ["--after-round", "5", "--format", "csv"])


@pytest.mark.parametrize(
    "path",
    [
        TIEBREAK_DATA / "held_swiss_5.trf",
        REPO / "examples" / "held-swiss-9.trf",
    ],
    ids=lambda path: path.name,
)
def test_published_crosstables_print_the_same(path: Path) -> None:
    event = event_import_trf(text=path.read_text(), user=None, slug=path.stem.replace("_", "-"))
    for args in ARGUMENTS:
        check_same(event.slug, args)


@pytest.mark.parametrize("name", ["demo-classical.json", "demo-rapid-blitz.json"])
def test_exchange_examples_print_the_same(name: str) -> None:
    """A rapid game counting double (GCT Rapid & Blitz) comes through the same scoring."""
    out = StringIO()
    call_command("import_event", str(REPO / "examples" / name), stdout=out)
    slug = out.getvalue().strip().splitlines()[-1]
    check_same(slug, [])
    check_same(slug, ["--format", "json"])


@pytest.mark.parametrize("name", ["cohen-chess.json", "mso-multi-player.json", "gnot-2012.json"])
def test_events_with_standings_of_their_own_are_declined(name: str) -> None:
    """Cohen Chess final places, multi-player tables and bridge teams come from their own
    format apps: the direct path knows only the core presets and systems."""
    out = StringIO()
    call_command("import_event", str(REPO / "examples" / name), stdout=out)
    slug = out.getvalue().strip().splitlines()[-1]
    assert django_command(slug, "--format", "json")
    with pytest.raises(fastpath.Decline):
        direct(slug, "--format", "json")


@pytest.mark.parametrize(
    "args",
    [
        ["no-such-event"],
        ["{slug}", "--after-round", "12"],
        ["{slug}", "--after-round", "-1"],
        ["{slug}", "--tiebreaks", "XYZ"],
        ["{slug}", "--format", "xml"],
        ["{slug}", "--help"],
        ["{slug}", "--settings", "config.settings"],
        ["{slug}", "-v", "2"],
        ["{slug}", "--after", "2"],  # an abbreviation Django's parser accepts
        ["{slug}", "extra"],
        [],
    ],
)
def test_everything_else_is_declined(args: list[str]) -> None:
    event = imported(generate_swiss(1, players=10, rounds=4), "declined")
    with pytest.raises(fastpath.Decline):
        direct(*(arg.format(slug=event.slug) for arg in args))


def test_the_round_robin_systems_are_the_models() -> None:
    assert {
        system.value for system in EventSystem if Event(system=system.value).is_round_robin
    } == fastpath.ROUND_ROBIN_SYSTEMS


@pytest.mark.parametrize(
    ("database", "params"),
    [
        (
            {
                "ENGINE": "django.db.backends.postgresql",
                "NAME": "tournaments",
                "USER": "td",
                "PASSWORD": "secret",
                "HOST": "db.example",
                "PORT": 5433,
                "OPTIONS": {"sslmode": "require"},
            },
            {
                "dbname": "tournaments",
                "sslmode": "require",
                "client_encoding": "UTF8",
                "user": "td",
                "password": "secret",
                "host": "db.example",
                "port": 5433,
            },
        ),
        (
            {"ENGINE": "django.db.backends.postgresql", "NAME": "t", "USER": "", "HOST": ""},
            {"dbname": "t", "client_encoding": "UTF8"},
        ),
    ],
)
def test_connection_params_follow_djangos_backend(
    database: dict[str, Any], params: dict[str, Any]
) -> None:
    assert fastpath.connection_params(database) == params


@pytest.mark.parametrize(
    "database",
    [
        {"ENGINE": "django.db.backends.sqlite3", "NAME": "db.sqlite3"},
        {"ENGINE": "django.db.backends.postgresql", "NAME": "", "OPTIONS": {"service": "td"}},
        {"ENGINE": "django.db.backends.postgresql", "NAME": "t", "OPTIONS": {"pool": True}},
        {
            "ENGINE": "django.db.backends.postgresql",
            "NAME": "t",
            "OPTIONS": {"assume_role": "reader"},
        },
    ],
    ids=["sqlite", "service", "pool", "role"],
)
def test_other_databases_decline(database: dict[str, Any]) -> None:
    with pytest.raises(fastpath.Decline):
        fastpath.connection_params(database)


@pytest.mark.django_db(transaction=True)
def test_the_command_line_takes_the_direct_path() -> None:
    """The real ``manage.py standings`` process does not import Django's ORM on its ordinary
    path, and still prints what the Django command prints; a refusal still comes from the
    Django command, in its words."""
    event = imported(generate_swiss(5, players=30, rounds=7), "process")
    args = [event.slug, "--format", "json", "--tiebreaks", "BH/C1,BH,SB,PS"]
    traced = manage_process("standings", *args, env={"PYTHONPROFILEIMPORTTIME": "1"})
    assert traced.returncode == 0, traced.stderr
    imported_modules = {line.rsplit("|", 1)[-1].strip() for line in traced.stderr.splitlines()}
    assert "standings.fastpath" in imported_modules
    assert "django.db.models" not in imported_modules
    assert traced.stdout == django_command(*args)
    refused = manage_process("standings", event.slug, "--after-round", "9")
    assert refused.returncode != 0 and refused.stdout == ""
    assert refused.stderr.strip().splitlines() == [
        "CommandError: after round 9: the event has rounds 1–7"
    ]
