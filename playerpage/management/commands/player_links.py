"""``manage.py player_links SLUG [--format json|text]``: each player's private link (design.md
§4). Players without a link get one first (``playerpage.services.player_links_issue``, audited)
while the event is open; a revoked link is left out until the director issues a new one."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.urls import reverse

from events.models import Event, EventStatus
from playerpage.selectors import player_links
from playerpage.services import player_links_issue


class Command(BaseCommand):
    help = "Print each player's private link (their page: next game, results, reporting)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("slug")
        parser.add_argument("--format", choices=["json", "text"], default="json")

    def handle(self, *args: Any, **options: Any) -> None:
        event = Event.objects.filter(slug=options["slug"]).first()
        if event is None:
            raise CommandError(f"no event with the slug {options['slug']!r}")
        if event.status != EventStatus.FINISHED:
            player_links_issue(event=event, user=None)
        players = [
            {
                "start_no": row.start_no,
                "name": row.name,
                "url": reverse("playerpage:page", args=[row.token]),
            }
            for row in player_links(event)
            if row.active
        ]
        if options["format"] == "json":
            self.stdout.write(
                json.dumps({"event": event.slug, "players": players}, ensure_ascii=False)
            )
            return
        for player in players:
            self.stdout.write(f"{player['start_no']:>4}  {player['name']}  {player['url']}")
