"""The drawing of lots as a recorded ceremony (issue 4, seed 001).

One ceremony per event. A computer draw is stored complete in one go, with the seed it used so
that anyone can re-run it (design brief §3, "Randomness is auditable"); a physical ceremony is
stored entry by entry as the director records it, each entry validated by the pure engine
(:mod:`draws.varma`) before it is written. The rules the engine checks are backed here by
constraints: a pairing number is drawn once per ceremony, a player draws once, and the schedule
is only ever created from a complete draw.
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from draws.varma import ENVELOPE_LABELS
from events.models import Event, Player


class CeremonyMode(models.TextChoices):
    COMPUTER = "computer", "Computer draw (seeded)"
    RECORDED = "recorded", "Physical ceremony (recorded)"


class CeremonyStatus(models.TextChoices):
    OPEN = "open", "In progress"
    COMPLETE = "complete", "Complete"


class DrawCeremony(models.Model):
    """The Varma drawing of lots of one event (seed 001, clauses 1–5)."""

    event = models.OneToOneField(Event, on_delete=models.CASCADE, related_name="draw_ceremony")
    mode = models.CharField(max_length=16, choices=CeremonyMode.choices)
    # The seed fed to draws.lots.LotDrawer for a computer draw (the event's lots_seed unless the
    # command was given another); blank for a physical ceremony, where nothing is drawn by lot.
    seed = models.CharField(max_length=200, blank=True)
    table = models.CharField(max_length=8)  # "19/20", or "plain" outside 9–24 players
    status = models.CharField(
        max_length=16, choices=CeremonyStatus.choices, default=CeremonyStatus.OPEN
    )
    # draws.varma.VarmaWarning as dicts: round, federation, start_nos, numbers, message.
    warnings = models.JSONField(default=list, blank=True)
    schedule_created = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    completed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(mode__in=CeremonyMode.values), name="draw_ceremony_mode_valid"
            ),
            models.CheckConstraint(
                condition=Q(status__in=CeremonyStatus.values), name="draw_ceremony_status_valid"
            ),
            models.CheckConstraint(
                condition=~Q(mode=CeremonyMode.COMPUTER, seed=""),
                name="draw_ceremony_computer_has_seed",
            ),
            models.CheckConstraint(
                condition=Q(schedule_created=False) | Q(status=CeremonyStatus.COMPLETE),
                name="draw_ceremony_schedule_needs_complete_draw",
            ),
        ]

    def __str__(self) -> str:
        return f"Drawing of lots for {self.event}"

    @property
    def is_complete(self) -> bool:
        return self.status == CeremonyStatus.COMPLETE


class DrawEntry(models.Model):
    """One player's draw: the envelope and the pairing number, in drawing order."""

    ceremony = models.ForeignKey(DrawCeremony, on_delete=models.CASCADE, related_name="entries")
    position = models.PositiveSmallIntegerField()  # 1-based drawing order
    # RESTRICT: a player who has drawn cannot be deleted on their own (the draw would silently
    # change), but deleting the whole event still removes both.
    player = models.ForeignKey(Player, on_delete=models.RESTRICT, related_name="+")
    envelope = models.CharField(max_length=1)
    number = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["ceremony", "position"]
        constraints = [
            models.UniqueConstraint(fields=["ceremony", "number"], name="draw_number_once"),
            models.UniqueConstraint(fields=["ceremony", "player"], name="draw_player_once"),
            models.UniqueConstraint(fields=["ceremony", "position"], name="draw_position_once"),
            models.CheckConstraint(condition=Q(number__gte=1), name="draw_number_positive"),
            models.CheckConstraint(condition=Q(position__gte=1), name="draw_position_positive"),
            models.CheckConstraint(
                condition=Q(envelope__in=ENVELOPE_LABELS), name="draw_envelope_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.position}. start no. {self.player_id}: {self.envelope}{self.number}"
