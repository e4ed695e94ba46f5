"""The prize fund of an event: place prizes in the event's currency."""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from events.models import Event


class PlacePrize(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="place_prizes")
    place = models.PositiveSmallIntegerField()
    amount = models.DecimalField(max_digits=14, decimal_places=2)

    class Meta:
        ordering = ["event", "place"]
        constraints = [
            models.UniqueConstraint(fields=["event", "place"], name="prize_place_unique"),
            models.CheckConstraint(condition=Q(place__gte=1), name="prize_place_positive"),
            models.CheckConstraint(condition=Q(amount__gte=0), name="prize_amount_nonnegative"),
        ]
