"""``manage.py refresh_ratings SLUG --list ID [--apply]``: the event's players updated from a
newer rating list (their rating of the event's kind, title, K, federation, year of birth and
sex; never their names), as on the players page's *Update from a rating list* card.

Without ``--apply`` it prints what would change, player by player, and changes nothing; with
it, it applies exactly that and writes one audit entry. A refusal (an unknown event or list, a
list without the event's rating, round 1 paired, a closed event) exits non-zero with one line
on stderr, and nothing is changed.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from events.errors import UserError
from events.models import Event
from ratings.models import RatingList
from ratings.selectors import MAX_LIST_ID, RefreshPreview, rating_lists, rating_refresh_preview
from ratings.services import players_rating_refresh

MAX_SLUG = 100  # Event.slug
MAX_NAMED = 20  # lists named after an unknown id


def preview_lines(preview: RefreshPreview) -> list[str]:
    """The preview as text: a line per player who would change, then who was not found."""
    lines = [f"{preview.rating_list} ({preview.kind} ratings)"]
    for row in preview.rows:
        changes = "; ".join(f"{c.label} {c.before or '-'} -> {c.after}" for c in row.changes)
        lines.append(f"{row.start_no:>5}. {row.name}: {changes}")
    if preview.not_on_the_list:
        lines.append("Not on the list: " + ", ".join(preview.not_on_the_list))
    if preview.without_id:
        lines.append("No FIDE id to look up: " + ", ".join(preview.without_id))
    lines.append(f"{len(preview.rows):,} player(s), {preview.changes:,} field(s) to change.")
    return lines


class Command(BaseCommand):
    help = (
        "Print what a newer rating list would change in an event's players (rating, title, K, "
        "federation, year of birth, sex; never names); --apply changes it."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("--list", type=int, required=True, dest="list_id", metavar="ID")
        parser.add_argument("--apply", action="store_true", help="change what is printed")

    def handle(self, *args: Any, **options: Any) -> None:
        slug = options["slug"]
        event = Event.objects.filter(slug=slug).first() if len(slug) <= MAX_SLUG else None
        if event is None:
            raise CommandError(f"no event with the slug {slug[:MAX_SLUG]!r}")
        try:
            preview = rating_refresh_preview(event, list_id=options["list_id"])
            self.stdout.write("\n".join(preview_lines(preview)))
            if not options["apply"]:
                self.stdout.write("Nothing changed: run again with --apply to change it.")
                return
            done = players_rating_refresh(
                event=event, list_id=options["list_id"], digest=preview.digest, user=None
            )
        except UserError as exc:
            raise CommandError(f"{exc}{_known_lists(options['list_id'])}") from exc
        self.stdout.write(done.summary())


def _known_lists(list_id: int) -> str:
    """After an unknown list id, the lists there are, by id (the pages show none)."""
    if 0 < list_id <= MAX_LIST_ID and RatingList.objects.filter(pk=list_id).exists():
        return ""
    known = [f"{r.pk} ({r})" for r in rating_lists()[:MAX_NAMED]]
    return " Lists: " + ", ".join(known) + "." if known else " No list is loaded."
