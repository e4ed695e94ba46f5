"""Playoff games as entered; the playoff engine matches them to its scheduled stages in order."""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from events.models import Event


class PlayoffGame(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="playoff_games")
    stage = models.PositiveSmallIntegerField()
    round = models.PositiveSmallIntegerField()
    white = models.PositiveIntegerField()  # start numbers of the event's players
    black = models.PositiveIntegerField()
    result = models.CharField(max_length=8, blank=True)

    class Meta:
        ordering = ["event", "stage", "round", "id"]
        constraints = [
            models.CheckConstraint(condition=~Q(white=models.F("black")), name="playoff_not_self"),
            models.CheckConstraint(
                condition=Q(result__in=["", "1-0", "0-1", "1/2-1/2"]), name="playoff_result_valid"
            ),
        ]
