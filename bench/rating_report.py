"""Rating report benchmark (issue 30): the whole report for 1,000 players x 11 rounds.

A generated Swiss (tests/standings/generate.py's large Swiss) with titles and federations
spread over the field, so that the norm checks do their full work for the strong players.
It prints, best of 3:

- ``engine``: the pure computation: every player's rated games, K and change (B.02), every
  norm (B.01) and the JSON document;
- ``report``: what ``rating_report`` does once Django runs: the event read from PostgreSQL
  (the crosstable's three queries and the players' K), the same computation and the JSON,
  nothing kept from the run before;
- ``command``: ``manage.py rating_report SLUG`` as its own process (Django's start included).

The target is the ``report`` figure under one second. It asserts nothing. Usage (PostgreSQL
on 127.0.0.1:5432, or DATABASE_URL; the database ``tournament_bench_fiderating`` is created
and migrated if missing):

    .venv/bin/python bench/rating_report.py [--sizes 1000,2000]
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
DATABASE = "tournament_bench_fiderating"
os.environ.setdefault("DATABASE_URL", f"postgres://postgres@127.0.0.1:5432/{DATABASE}")
os.environ.setdefault("DEBUG", "1")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from events.records import Crosstable  # noqa: E402
from events.trf import write_trf  # noqa: E402
from fiderating.norms import NormEvent, event_norms  # noqa: E402
from fiderating.rating import STANDARD, Rules, event_ratings  # noqa: E402
from fiderating.report import RatingReport, ReportRow, report_document  # noqa: E402
from tests.standings.generate import generate_large_swiss  # noqa: E402

ROUNDS = 11
FEDERATIONS = ("NOR", "GER", "FRA", "ESP", "NED", "SWE", "ITA", "POL")


def best_of(runs: int, action: Callable[[], object]) -> float:
    times = []
    for _ in range(runs):
        gc.collect()
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return min(times)


def field(size: int) -> Crosstable:
    """The large Swiss with a title for every player rated 2300 or more and federations."""
    table = generate_large_swiss(size, ROUNDS)
    titles = ((2500, "GM"), (2400, "IM"), (2300, "FM"))
    entrants = tuple(
        replace(
            e,
            federation=FEDERATIONS[e.start_no % len(FEDERATIONS)],
            title=next((t for floor, t in titles if e.rating >= floor), ""),
            fide_id=str(100000 + e.start_no),
        )
        for e in table.entrants
    )
    return replace(table, entrants=entrants)


def compute(table: Crosstable) -> str:
    ratings = event_ratings(table, {}, Rules.for_event(STANDARD, table.start_date))
    norms = event_norms(table, NormEvent(rounds=ROUNDS))
    by_no = {e.start_no: e for e in table.entrants}
    rows = tuple(
        ReportRow(
            r.start_no,
            by_no[r.start_no].name,
            by_no[r.start_no].fide_id,
            by_no[r.start_no].title,
            by_no[r.start_no].federation,
            r,
            norms[r.start_no],
        )
        for r in ratings
    )
    return json.dumps(report_document(RatingReport("bench", "Bench", STANDARD, ROUNDS, rows)))


def ensure_database() -> None:
    url = os.environ["DATABASE_URL"]
    if url.startswith("postgres") and url.rsplit("/", 1)[-1] == DATABASE:
        import psycopg

        admin = url.rsplit("/", 1)[0] + "/postgres"
        with psycopg.connect(admin, autocommit=True) as conn:
            found = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [DATABASE])
            if not found.fetchone():
                conn.execute(f"CREATE DATABASE {DATABASE}")
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=REPO, check=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="1000")
    args = parser.parse_args()
    ensure_database()
    import django

    django.setup()
    from django.core.management import call_command

    from events.models import Event
    from fiderating.selectors import _KEPT, rating_report

    print(f"{'players':>8} {'engine s':>9} {'report s':>9} {'command s':>10}")
    with tempfile.TemporaryDirectory() as tmp:
        for size in (int(s) for s in args.sizes.split(",")):
            table = field(size)
            engine = best_of(3, lambda t=table: compute(replace(t)))  # type: ignore[misc]
            path = Path(tmp) / f"bench-{size}.trf"
            path.write_text(write_trf(table))
            slug = f"rating-bench-{size}-{int(time.time())}"
            with open(os.devnull, "w") as quiet:
                call_command("import_trf", str(path), "--slug", slug, stdout=quiet)

            def report(slug: str = slug) -> str:
                _KEPT.clear()
                event = Event.objects.get(slug=slug)
                return json.dumps(report_document(rating_report(event)))

            in_django = best_of(3, report)
            command = best_of(
                3,
                lambda slug=slug: subprocess.run(  # type: ignore[misc]
                    [sys.executable, "manage.py", "rating_report", slug],
                    cwd=REPO,
                    check=True,
                    capture_output=True,
                ),
            )
            print(f"{size:>8} {engine:>9.3f} {in_django:>9.3f} {command:>10.2f}")


if __name__ == "__main__":
    main()
