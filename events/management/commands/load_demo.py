"""``manage.py load_demo``: demo logins and demo events for ``make run`` (idempotent)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.apps import apps
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand

from events.exchange import event_import_document
from events.imports import event_import_trf
from events.models import Event
from events.services import access_grant

EXAMPLES = Path(settings.BASE_DIR) / "examples"
DEMO_USERS = (("director", "director-demo"), ("arbiter", "arbiter-demo"))


class Command(BaseCommand):
    help = "Create the demo director and arbiter logins and load the example events."

    def handle(self, *args: Any, **options: Any) -> None:
        users = {}
        for username, password in DEMO_USERS:
            user, created = get_user_model().objects.get_or_create(username=username)
            if created:
                user.set_password(password)
                user.save()
            users[username] = user
        director = users["director"]
        if not Event.objects.filter(slug="demo-classical").exists():
            event = event_import_document(
                text=(EXAMPLES / "demo-classical.json").read_text(), user=director
            )
            access_grant(event=event, username="arbiter", role="arbiter", user=director)
        if not Event.objects.filter(slug="demo-rapid-blitz").exists():
            event = event_import_document(
                text=(EXAMPLES / "demo-rapid-blitz.json").read_text(), user=director
            )
            access_grant(event=event, username="arbiter", role="arbiter", user=director)
        if not Event.objects.filter(slug="demo-swiss").exists():
            event_import_trf(
                text=(EXAMPLES / "held-swiss-9.trf").read_text(), user=director, slug="demo-swiss"
            )
        if not Event.objects.filter(slug="gnot-2012").exists():
            # GNOT bridge teams (seed 004): week one and part of week two.
            event = event_import_document(
                text=(EXAMPLES / "gnot-2012.json").read_text(), user=director
            )
            access_grant(event=event, username="arbiter", role="arbiter", user=director)
        # Cohen Chess (seed 002, every stage played), MSO multi-player tables (seed 003) and a
        # 25-team GNOT played to the end: the American Whist group (3.2.4.1) and the Double
        # Knockout winner playing the Swiss as a non-contending team (3.1.8). A 40-player Swiss
        # whose first four rounds the Dutch engine paired (scripts/make_swiss_example.py):
        # round 5 is the director's to pair.
        for slug, example in (
            ("swiss-open", "swiss-open.json"),
            ("gnot-2012-25", "gnot-2012-25.json"),
            ("cohen-club-night", "cohen-chess.json"),
            ("mso-settlers-2021", "mso-multi-player.json"),
            # Chess team events (issue #22): an 11-team, 4-board team Swiss three rounds in
            # (a reserve used, a board and a match forfeited, the bye, a requested half bye),
            # and a 6-team double round robin four rounds in.
            ("team-swiss-2026", "team-swiss.json"),
            ("team-league-2026", "team-round-robin.json"),
        ):
            if not Event.objects.filter(slug=slug).exists():
                event = event_import_document(text=(EXAMPLES / example).read_text(), user=director)
                access_grant(event=event, username="arbiter", role="arbiter", user=director)
        call_command("load_demo_series", stdout=self.stdout)
        self._optional_demos()
        self.stdout.write(demo_logins_text())

    def _optional_demos(self) -> None:
        """What the apps above the foundation add, when installed: a rating list to register
        players from, by name; the players' private links (their printed cards)."""
        for app, command in (("ratings", "load_demo_ratings"), ("playerpage", "load_demo_cards")):
            if apps.is_installed(app):
                call_command(command, stdout=self.stdout)


def arbiter_events() -> list[str]:
    """The demo events the demo arbiter may work on, by name, as the database says."""
    return list(
        Event.objects.filter(access__user__username="arbiter", access__role="arbiter")
        .order_by("name")
        .values_list("name", flat=True)
    )


def demo_logins_text() -> str:
    """The banner ``make run`` prints: derived from the grants, so it cannot drift from them."""
    events = arbiter_events()
    return (
        "Demo logins: director / director-demo (directs the demo events), "
        f"arbiter / arbiter-demo (enters and corrects results in {len(events)} demo events: "
        f"{'; '.join(events)})"
    )
