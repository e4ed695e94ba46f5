"""``manage.py playoff SLUG [--format json|text]`` (design.md §4): the playoff plan and its
state. JSON keys of §4 exactly, plus the engine's extended keys and the confirmation."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from events.errors import UserError
from events.management import event_or_fail
from events.sources import GCT_2019, cite
from playoffs import output, rules
from playoffs.selectors import playoff_overview


class Command(BaseCommand):
    help = (
        "Print the playoff plan of an event and its state "
        f"({cite(GCT_2019, '§2–3')} for GCT events)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("--format", choices=["json", "text"], default="text")

    def handle(self, *args: Any, **options: Any) -> None:
        event = event_or_fail(options["slug"])
        try:
            overview = playoff_overview(event)
        except (UserError, rules.PlayoffInputError) as exc:
            raise CommandError(str(exc)) from exc
        if overview.error:
            raise CommandError(f"the stored playoff does not fit the schedule: {overview.error}")
        if options["format"] == "json":
            document = output.to_json(overview)
            self.stdout.write(json.dumps(document, indent=2, ensure_ascii=False))
        else:
            self.stdout.write(output.to_text(overview), ending="")
