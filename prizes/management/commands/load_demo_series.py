"""``manage.py load_demo_series``: the demo tour series (idempotent; run after ``load_demo``).

Collects every GCT event (preset ``gct-2019-*``) the demo director directs into the series
``demo-tour``, creating it on the first run and updating its events afterwards, so a demo event
loaded later joins on the next run.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from events.errors import UserError
from prizes.models import Series
from prizes.selectors import events_directed_by
from prizes.services import series_create, series_update

SLUG = "demo-tour"
NAME = "Demo Grand Chess Tour"


class Command(BaseCommand):
    help = "Create or refresh the demo tour series from the demo director's GCT events."

    def handle(self, *args: Any, **options: Any) -> None:
        director = get_user_model().objects.filter(username="director").first()
        if director is None:
            raise CommandError("no demo director: run load_demo first")
        events = list(events_directed_by(director).filter(regulation__preset__startswith="gct-"))
        try:
            series = Series.objects.filter(slug=SLUG).first()
            if series is None:
                series = series_create(name=NAME, slug=SLUG, events=events, user=director)
            else:
                series = series_update(series=series, name=NAME, events=events, user=director)
        except UserError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(f"Demo tour series: /series/{series.slug}/ ({len(events)} events)")
