"""``manage.py export_all [--output FILE]``: every account, every event with its access and
audit history."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from events.backup import backup_export


class Command(BaseCommand):
    help = (
        "Write every account and every event with its access and audit history "
        "(tournament-backup/3)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--output", default="", help="a file instead of stdout")

    def handle(self, *args: Any, **options: Any) -> None:
        text = json.dumps(backup_export(), indent=1, ensure_ascii=False)
        if options["output"]:
            Path(options["output"]).write_text(text, encoding="utf-8")
        else:
            self.stdout.write(text)
