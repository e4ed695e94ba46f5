"""``manage.py export_trf SLUG``: TRF16 on stdout."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from events.formats import format_of
from events.imports import event_export_trf
from events.management import event_or_fail


class Command(BaseCommand):
    help = "Write the event as TRF16 to stdout."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")

    def handle(self, *args: Any, **options: Any) -> None:
        event = event_or_fail(options["slug"])
        fmt = format_of(event)
        if fmt is not None and fmt.trf_export is not None:  # a team event: TRF-2026 team file
            self.stdout.write(fmt.trf_export(event), ending="")
            return
        self.stdout.write(event_export_trf(event), ending="")
