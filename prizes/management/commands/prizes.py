"""``manage.py prizes SLUG [--format json|csv|xlsx|pdf] [--output FILE] [--approved] [--all]``
(design.md §4): the prize sheet.

Without ``--approved`` the sheet is computed now from the final standings (what the director
would approve); with it, the last approved snapshot is written as it was frozen, with who
approved it and when. CSV, XLSX and PDF list the prizes (place, category and board prizes);
``--all`` lists the players without a prize too (the JSON always has every row). JSON and CSV go
to stdout unless ``--output`` names a file. XLSX and PDF are binary: they need ``--output``, or
stdout redirected to a file or pipe (never a terminal). Bad input: a one-line reason and a
non-zero exit; the command only reads, so the database is unchanged.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from events.management import event_or_fail
from prizes import selectors
from prizes.exports import FORMATS, sheet_render


class Command(BaseCommand):
    help = "Write the prize sheet (split, rounding, tour points, breakdown per payee)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("--format", choices=FORMATS, default="json")
        parser.add_argument("--output", default="", help="write to this file instead of stdout")
        parser.add_argument(
            "--approved", action="store_true", help="the last approved snapshot, as frozen"
        )
        parser.add_argument(
            "--all",
            action="store_true",
            dest="every_player",
            help="list the players without a prize too (CSV, XLSX, PDF)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        document = self._document(options["slug"], approved=options["approved"])
        body = sheet_render(document, options["format"], every_player=options["every_player"])
        if options["output"]:
            self._write_file(Path(options["output"]), body)
        elif options["format"] in ("json", "csv"):
            self.stdout.write(body.decode(), ending="")
        else:
            self._write_binary(body, options["format"])

    def _document(self, slug: str, *, approved: bool) -> dict[str, Any]:
        event = event_or_fail(slug)
        if approved:
            approval = selectors.approval_latest(event)
            if approval is None:
                raise CommandError(f"{slug}: no prize sheet has been approved yet")
            return selectors.approved_document(approval)
        try:
            return selectors.sheet_document(selectors.prizes_allocate(event=event))
        except selectors.PrizesUnavailable as exc:
            raise CommandError(f"{slug}: {exc}") from exc

    def _write_file(self, path: Path, body: bytes) -> None:
        try:
            path.write_bytes(body)
        except OSError as exc:
            raise CommandError(f"cannot write {path}: {exc.strerror or exc}") from exc

    def _write_binary(self, body: bytes, fmt: str) -> None:
        stream = getattr(self.stdout, "_out", None)
        buffer = getattr(stream, "buffer", None)
        if buffer is None or stream.isatty():  # type: ignore[union-attr]
            raise CommandError(f"{fmt} is a binary format: give --output FILE or redirect stdout")
        stream.flush()  # type: ignore[union-attr]
        buffer.write(body)
        buffer.flush()
