"""``manage.py import_all PATH``: restore an ``export_all`` backup, all or nothing."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from events.backup import backup_import
from events.errors import UserError
from events.limits import MAX_BACKUP_BYTES
from events.management.commands.import_trf import read_text


class Command(BaseCommand):
    help = "Restore every event of an export_all backup; prints the slugs, one a line."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            events = backup_import(text=read_text(options["path"], limit=MAX_BACKUP_BYTES))
        except UserError as exc:
            raise CommandError(f"{options['path']}: {exc}") from exc
        for event in events:
            self.stdout.write(event.slug)
