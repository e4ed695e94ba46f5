"""``manage.py export_trf SLUG``: TRF16 on stdout."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from events.imports import event_export_trf
from events.models import Event


class Command(BaseCommand):
    help = "Write the event as TRF16 to stdout."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            event = Event.objects.get(slug=options["slug"])
        except Event.DoesNotExist as exc:
            raise CommandError(f"no event with the slug {options['slug']!r}") from exc
        self.stdout.write(event_export_trf(event), ending="")
