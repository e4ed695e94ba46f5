"""``manage.py load_demo_cards``: the demo events' players get their private links, so that the
demo has printed player cards (``/e/SLUG/players/cards/``); run by ``load_demo``. Idempotent:
players who have a link keep it."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from events.models import Event, EventStatus, Player
from playerpage.services import player_links_issue


class Command(BaseCommand):
    help = "Issue the demo events' player links (their printed cards)."

    def handle(self, *args: Any, **options: Any) -> None:
        director = get_user_model().objects.filter(username="director").first()
        with_players = Player.objects.values("event")
        for event in Event.objects.filter(pk__in=with_players).exclude(status=EventStatus.FINISHED):
            player_links_issue(event=event, user=director)
        self.stdout.write("Player cards: /e/swiss-open/players/cards/ (the director's)")
