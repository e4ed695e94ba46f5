"""``manage.py load_demo_ratings``: the demo's rating list (``make run``, via ``load_demo``).

Imports ``ratings/fixtures/demo-fide.txt`` (300 fictitious players in FIDE's combined TXT
layout) as "FIDE (demo)" unless a list of that name exists, and lets the demo director manage
rating lists. Idempotent."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.management.base import BaseCommand

from ratings.models import RatingList
from ratings.services import rating_list_import

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "demo-fide.txt"
NAME = "FIDE (demo)"


class Command(BaseCommand):
    help = "Load the demo's rating list and let the demo director manage rating lists."

    def handle(self, *args: Any, **options: Any) -> None:
        director = get_user_model().objects.filter(username="director").first()
        if director is not None:
            director.user_permissions.add(Permission.objects.get(codename="manage_rating_lists"))
        if not RatingList.objects.filter(name=NAME).exists():
            with FIXTURE.open("rb") as source:
                imported = rating_list_import(
                    source=source, filename=FIXTURE.name, user=director, name=NAME
                )
            self.stdout.write(imported.summary())
