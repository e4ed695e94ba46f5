"""``manage.py rating_report SLUG [--format json|text]``: each player's FIDE rating change,
performance and title norms (B.02, B.01), and what the rating report still lacks (design.md
§4; the JSON keys are stable). Bad input exits non-zero with one line on stderr."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from events.errors import UserError
from events.models import Event
from fiderating.report import report_document, report_text
from fiderating.selectors import rating_report


class Command(BaseCommand):
    help = (
        "Print each player's FIDE rating change, performance and title norms (B.02, B.01) "
        "and what the rating report still lacks."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("slug")
        parser.add_argument("--format", choices=["json", "text"], default="json")

    def handle(self, *args: Any, **options: Any) -> None:
        event = Event.objects.filter(slug=options["slug"]).first()
        if event is None:
            raise CommandError(f"no event with the slug {options['slug']!r}")
        try:
            report = rating_report(event)
        except UserError as exc:
            raise CommandError(str(exc)) from exc
        if options["format"] == "json":
            self.stdout.write(json.dumps(report_document(report), ensure_ascii=False))
        else:
            self.stdout.write(report_text(report))
