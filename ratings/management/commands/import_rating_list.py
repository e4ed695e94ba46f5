"""``manage.py import_rating_list PATH``: import a rating list (FIDE's TXT or XML, zipped or
not; a national CSV list with ``--column``), replacing the list of the same name.

Prints what was imported as the last line; each skipped line goes to stderr with its number.
A refused file exits non-zero with one line naming the file and the reason, and changes
nothing. ``--preview`` prints the first players as they would be imported, and imports nothing.
"""

from __future__ import annotations

from pathlib import Path
from typing import IO, Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from events.errors import UserError
from ratings.forms import parse_month
from ratings.parsers import CSV_DELIMITERS, CSV_FIELDS, RATINGS, ListedPlayer
from ratings.selectors import rating_list_preview
from ratings.services import rating_list_import


def _mapping(columns: list[str]) -> dict[str, str] | None:
    if not columns:
        return None
    mapping = {}
    for column in columns:
        field, sep, value = column.partition("=")
        if not sep or field.strip() not in CSV_FIELDS:
            raise CommandError(
                f"--column {column!r}: write FIELD=COLUMN, FIELD one of {', '.join(CSV_FIELDS)}"
            )
        mapping[field.strip()] = value.strip()
    return mapping


def _line(player: ListedPlayer) -> str:
    ratings = " ".join(f"{kind}={getattr(player, kind) or '-'}" for kind in RATINGS)
    return (
        f"{player.fide_id or player.national_id or '-':>10}  {player.name}  "
        f"{player.federation or '-'} {player.sex or '-'} {player.title or '-'} "
        f"{player.birth_year or '-'}  {ratings}"
    )


class Command(BaseCommand):
    help = "Import a rating list (FIDE's TXT or XML, or a national CSV list with --column)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path")
        parser.add_argument("--name", default="", help="the list's name (default: FIDE's)")
        parser.add_argument("--published", default="", help="the list's month, YYYY-MM")
        parser.add_argument("--kind", choices=RATINGS, help="the rating of a single FIDE list")
        parser.add_argument(
            "--column",
            action="append",
            default=[],
            metavar="FIELD=COLUMN",
            help=f"a CSV list's column (header name or number) for {', '.join(CSV_FIELDS)}",
        )
        parser.add_argument("--delimiter", choices=sorted(CSV_DELIMITERS), help="a CSV list's")
        parser.add_argument("--preview", action="store_true", help="print, import nothing")

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["path"]
        try:
            with Path(path).open("rb") as source:
                self._run(source, options)
        except OSError as exc:
            raise CommandError(f"cannot read {path}: {exc.strerror}") from exc
        except (UserError, ValueError) as exc:
            raise CommandError(f"{path}: {exc}") from exc

    def _run(self, source: IO[bytes], options: dict[str, Any]) -> None:
        common = {
            "source": source,
            "filename": Path(options["path"]).name,
            "kind": options["kind"],
            "mapping": _mapping(options["column"]),
            "delimiter": CSV_DELIMITERS.get(options["delimiter"] or ""),
        }
        if options["preview"]:
            preview = rating_list_preview(**common)
            for player in preview.players:
                self.stdout.write(_line(player))
            for problem in preview.tally.first_problems:
                self.stderr.write(f"{problem} (would be skipped)")
            return
        imported = rating_list_import(
            **common, name=options["name"], published=parse_month(options["published"]), user=None
        )
        for problem in imported.first_skipped:
            self.stderr.write(f"{problem} (skipped)")
        if imported.skipped > len(imported.first_skipped):
            self.stderr.write(f"… and {imported.skipped - len(imported.first_skipped):,} more")
        self.stdout.write(imported.summary())
