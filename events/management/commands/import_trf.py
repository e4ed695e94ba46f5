"""``manage.py import_trf PATH [--slug SLUG]``: create an event from a TRF16/TRF-2026 file."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from events.errors import UserError
from events.imports import event_import_trf, import_notes
from events.limits import MAX_UPLOAD_BYTES, size_check
from events.models import Event
from events.trf import decode_file


def read_text(path: str, *, limit: int = MAX_UPLOAD_BYTES) -> str:
    """The file's text (UTF-8, else Windows-1252: :func:`events.trf.decode_file`); a file past
    ``limit`` bytes is refused unread."""
    try:
        with Path(path).open("rb") as file:
            size_check(os.fstat(file.fileno()).st_size, limit=limit, what=path)
            raw = file.read(limit + 1)  # a file that grows while read stops here too
        size_check(len(raw), limit=limit, what=path)
    except OSError as exc:
        raise CommandError(f"cannot read {path}: {exc.strerror}") from exc
    except UserError as exc:
        raise CommandError(str(exc)) from exc
    return decode_file(raw)


class ImportCommand(BaseCommand):
    """Reads PATH, creates the event in one transaction, prints its slug as the last line; a
    refused import exits non-zero with one line naming the file and the reason. What the
    import decided for the director (``notes``) goes to stderr, a line each."""

    importer: Callable[..., Event]
    notes: Callable[[Event], list[str]] = staticmethod(lambda event: [])
    confirms_duplicates = False  # the importer takes confirm_duplicates (--confirm-duplicates)

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path")
        parser.add_argument("--slug", default="")
        if type(self).confirms_duplicates:
            parser.add_argument(
                "--confirm-duplicates",
                action="store_true",
                help="import players the file names alike (the import refuses them otherwise, "
                "naming them): the director has checked they are different people",
            )

    def handle(self, *args: Any, **options: Any) -> None:
        text = read_text(options["path"])
        extra = (
            {"confirm_duplicates": options["confirm_duplicates"]}
            if type(self).confirms_duplicates
            else {}
        )
        try:
            event = type(self).importer(text=text, user=None, slug=options["slug"], **extra)
        except UserError as exc:
            raise CommandError(f"{options['path']}: {exc}") from exc
        for note in type(self).notes(event):
            self.stderr.write(note)
        self.stdout.write(event.slug)


class Command(ImportCommand):
    help = "Create an event from a FIDE TRF16 (or TRF-2026) file; prints the slug last."
    importer = staticmethod(event_import_trf)
    notes = staticmethod(import_notes)
    confirms_duplicates = True
