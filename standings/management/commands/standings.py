"""``manage.py standings SLUG [--tiebreaks CODES] [--edition 2024|2026] [--after-round N]
[--format json|csv|text]`` (design brief §4)."""

from __future__ import annotations

import gc
import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from events.errors import UserError
from events.formats import format_of
from events.management import event_or_fail
from standings.output import json_text, to_csv, to_text
from standings.selectors import event_standings


class Command(BaseCommand):
    help = "Print the standings with the event's tie-breaks (or --tiebreaks CODES)."
    # A read-only command: the system checks would import every URL and view for nothing
    # (about half of its run time; docs/performance.md).
    requires_system_checks: list[str] = []

    def run_from_argv(self, argv: list[str]) -> None:
        # The command line only (call_command does not come here): the process exits once it
        # has printed. What start-up built (Django, the models, psycopg: some 70,000 objects)
        # lives until then, and a run leaves under a hundred objects in garbage cycles. Left
        # on, the cyclic collector walked all of it in every full collection and again at
        # exit: 0.12 s of a 2000-player run (docs/performance.md). manage.py has kept it off
        # since start-up.
        gc.freeze()
        gc.disable()
        super().run_from_argv(argv)

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("--tiebreaks", default="", help="comma-separated, e.g. BH/C1,BH,SB")
        parser.add_argument("--edition", choices=["2024", "2026"])
        parser.add_argument("--after-round", type=int, dest="after_round")
        parser.add_argument("--format", choices=["json", "csv", "text"], default="text")

    def handle(self, *args: Any, **options: Any) -> None:
        event = event_or_fail(options["slug"])
        codes = [c.strip() for c in options["tiebreaks"].split(",") if c.strip()]
        fmt = format_of(event)
        if fmt is not None and fmt.standings_document is not None:
            try:
                document = fmt.standings_document(
                    event, after_round=options["after_round"], codes=codes or None
                )
            except UserError as exc:
                raise CommandError(str(exc)) from exc
            self.stdout.write(json.dumps(document, indent=2, ensure_ascii=False))
            return
        try:
            table = event_standings(
                event,
                after_round=options["after_round"],
                codes=codes or None,
                edition=options["edition"],
                # Always from the database: a new process's local cache is empty, and what it
                # stored there would die with it (docs/performance.md).
                use_cache=False,
            )
        except UserError as exc:
            raise CommandError(str(exc)) from exc
        if options["format"] == "json":
            self.stdout.write(json_text(table))
        elif options["format"] == "csv":
            self.stdout.write(to_csv(table), ending="")
        else:
            self.stdout.write(to_text(table), ending="")
