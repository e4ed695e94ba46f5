"""``manage.py varma_draw SLUG --seed SEED [--format json|text]`` (design brief §4).

Performs the Varma drawing of lots (seed 001) by seeded lot, records it as the event's ceremony,
and prints it with the Berger schedule in pairing numbers. Exit 0 on success; on bad input a
one-line reason on stderr, a non-zero exit and the database unchanged (the whole run is one
transaction).
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from draws import selectors, services
from draws.models import CeremonyMode, DrawCeremony
from events.errors import UserError
from events.management import event_or_fail
from events.models import Event
from events.sources import FIDE_VARMA, cite

HELP = f"""Perform the {cite(FIDE_VARMA)} with SEED and print it with the
Berger schedule. The draw is recorded as the event's ceremony: the public draw page then shows
SEED, so anyone can re-run it. Running again with the same SEED prints the recorded draw
unchanged; a different SEED, or a physical ceremony already being recorded, is refused (reset
the draw on the ceremony page first). The event's games are created from the schedule too, when
the event is a round robin and no round has been paired yet; otherwise only the schedule is
printed. JSON keys: event, seed, table, order, rounds, warnings."""


def _existing_ceremony(ceremony: DrawCeremony, seed: str) -> DrawCeremony:
    """A re-run with the same seed reprints the draw; anything else would overwrite a record."""
    if ceremony.mode == CeremonyMode.RECORDED:
        state = "was recorded" if ceremony.is_complete else "is being recorded"
        raise UserError(
            f"the drawing of lots {state} from a physical ceremony; reset it on the ceremony "
            "page to draw by seed"
        )
    if ceremony.seed != seed:
        raise UserError(
            "the lots were already drawn with a different seed; reset the drawing of lots "
            "first to draw again"
        )
    return ceremony


def _draw(event: Event, seed: str) -> DrawCeremony:
    ceremony = selectors.ceremony_get(event)
    if ceremony is not None:
        ceremony = _existing_ceremony(ceremony, seed)
    else:
        ceremony = services.draw_perform(event=event, user=None, seed=seed)
    schedulable = event.is_round_robin and not ceremony.schedule_created
    if schedulable and not selectors.event_has_pairings(event):
        services.schedule_create(event=event, user=None)
        ceremony.refresh_from_db()
    return ceremony


def _games_line(event: Event, ceremony: DrawCeremony) -> str:
    if ceremony.schedule_created:
        return "Games: created in the event from this schedule."
    if not event.is_round_robin:
        return f"Games: not created (the event is a {event.get_system_display()})."
    return "Games: not created (rounds were already paired; use the ceremony page)."


def text_report(event: Event, ceremony: DrawCeremony, document: dict[str, Any]) -> str:
    """The human-readable form of the JSON document."""
    names = dict(event.players.values_list("start_no", "name"))
    lines = [
        f"Varma drawing of lots: {event.name} ({event.slug})",
        f"Table: {document['table']}   Seed: {document['seed']}",
        "",
        "Drawing order:",
    ]
    for position, row in enumerate(document["order"], start=1):
        lines.append(
            f"{position:>3}. {names.get(row['start_no'], '?')} ({row['federation'] or '-'}), "
            f"start no. {row['start_no']}: envelope {row['envelope']}, number {row['number']}"
        )
    lines += ["", "Warnings:"] + ([f"  {w['message']}" for w in document["warnings"]] or ["  none"])
    lines += ["", "Schedule (pairing numbers, White first):"]
    for round_no, games in enumerate(document["rounds"], start=1):
        pairs = "  ".join(f"{white}-{black}" for white, black in games)
        lines.append(f"Round {round_no:>2}: {pairs}")
    lines += ["", _games_line(event, ceremony)]
    return "\n".join(lines)


class Command(BaseCommand):
    help = HELP

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("--seed", required=True)
        parser.add_argument("--format", choices=["json", "text"], default="json")

    def handle(self, *args: Any, **options: Any) -> None:
        event = event_or_fail(options["slug"])
        try:
            with transaction.atomic():
                ceremony = _draw(event, options["seed"])
        except UserError as exc:
            raise CommandError(f"{event.slug}: {exc}") from exc
        event.refresh_from_db()
        document = selectors.draw_document(event, ceremony)
        if options["format"] == "json":
            self.stdout.write(json.dumps(document, indent=2, ensure_ascii=False))
        else:
            self.stdout.write(text_report(event, ceremony, document))
