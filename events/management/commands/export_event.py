"""``manage.py export_event SLUG``: the JSON exchange format on stdout."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from events.exchange import event_export_document
from events.management import event_or_fail


class Command(BaseCommand):
    help = "Write the event in the JSON exchange format (tournament-event/1) to stdout."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")

    def handle(self, *args: Any, **options: Any) -> None:
        event = event_or_fail(options["slug"])
        document = event_export_document(event)
        self.stdout.write(json.dumps(document, indent=2, ensure_ascii=False))
