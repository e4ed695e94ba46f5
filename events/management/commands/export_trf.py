"""``manage.py export_trf SLUG``: TRF16 on stdout."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from events.imports import event_trf_file
from events.management import event_or_fail


class Command(BaseCommand):
    help = "Write the event as TRF16 to stdout."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")

    def handle(self, *args: Any, **options: Any) -> None:
        event = event_or_fail(options["slug"])
        # The same writer as the director's export.trf (a team event: the TRF-2026 team file).
        self.stdout.write(event_trf_file(event), ending="")
