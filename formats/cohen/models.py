"""Cohen Chess stages (seed 002).

CohenStage: one stage of a Cohen Chess event: its pools in ranking order (the colour table's
1st–4th), its first crosstable round and number of game slots, and once the director advanced
it, who went on and why (the engine's decisions, stored as recorded). The games themselves are
ordinary Game rows in the event's rounds.

The table keeps the name it had when the model lived in the ``events`` app (``db_table``), so
the move copied no data (migration ``cohen.0001``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from events.models import Event


class CohenStageName(models.TextChoices):
    """Seed 002's stages. The 7-or-fewer format plays ``small_field`` then the Final Four."""

    FIRST_ROUND = "first_round", "First round (pools)"
    ELITE_EIGHT = "elite_eight", "Elite Eight"
    FINAL_FOUR = "final_four", "Final Four"
    CONSOLATION_FIRST_ROUND = "consolation_first_round", "Consolation after the first round"
    CONSOLATION_ELITE_EIGHT = "consolation_elite_eight", "Consolation after the Elite Eight"
    SMALL_FIELD = "small_field", "Round robin (7 or fewer players)"
    SMALL_CONSOLATION = "small_consolation", "Consolation (7 or fewer players)"


class CohenStageStatus(models.TextChoices):
    PLAYING = "playing", "Playing"
    ADVANCED = "advanced", "Advanced"


class CohenStage(models.Model):
    """One stage: ``pools`` maps a pool name ("A", "B", or "single") to start numbers in
    ranking order; ``advanced`` and ``decisions`` are written by ``cohen_stage_advance``."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="cohen_stages")
    name = models.CharField(max_length=32, choices=CohenStageName.choices)
    pools = models.JSONField()
    first_round = models.PositiveSmallIntegerField()
    slots = models.PositiveSmallIntegerField()
    status = models.CharField(
        max_length=16, choices=CohenStageStatus.choices, default=CohenStageStatus.PLAYING
    )
    advanced = models.JSONField(null=True, blank=True)  # start numbers, next stage's order
    decisions = models.JSONField(default=list, blank=True)  # [{start_no, route, place, ...}]
    lot_order = models.JSONField(null=True, blank=True)  # a recorded lot, best first
    lot_source = models.CharField(max_length=16, blank=True)  # "", "seed" or "entered"
    advanced_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    advanced_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "events_cohenstage"  # kept from before the move (no copy)
        ordering = ["event", "first_round", "id"]
        constraints = [
            models.UniqueConstraint(fields=["event", "name"], name="cohen_stage_once_per_event"),
            models.CheckConstraint(
                condition=Q(name__in=CohenStageName.values), name="cohen_stage_name_valid"
            ),
            models.CheckConstraint(
                condition=Q(status__in=CohenStageStatus.values), name="cohen_stage_status_valid"
            ),
            models.CheckConstraint(
                condition=Q(first_round__gte=1), name="cohen_stage_first_round_positive"
            ),
            models.CheckConstraint(
                condition=Q(status="playing", advanced__isnull=True)
                | Q(status="advanced", advanced__isnull=False),
                name="cohen_stage_advanced_when_advanced",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_name_display()} of {self.event}"

    @property
    def rounds(self) -> tuple[int, ...]:
        return tuple(range(self.first_round, self.first_round + self.slots))

    @property
    def players(self) -> tuple[int, ...]:
        return tuple(p for members in self.pools.values() for p in members)
