"""``manage.py import_event PATH``: create an event from the JSON exchange format."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from events.errors import UserError
from events.exchange import event_import_document
from events.management.commands.import_trf import read_text


class Command(BaseCommand):
    help = "Create an event from a JSON exchange document; prints the slug last."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path")
        parser.add_argument("--slug", default="")

    def handle(self, *args: Any, **options: Any) -> None:
        text = read_text(options["path"])
        try:
            event = event_import_document(text=text, user=None, slug=options["slug"])
        except UserError as exc:
            raise CommandError(f"{options['path']}: {exc}") from exc
        self.stdout.write(event.slug)
