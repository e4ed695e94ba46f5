"""What a FIDE-rated event keeps beyond the foundation's records (issue 30).

- :class:`PlayerK`: a K set by hand for a player (B.02 8.3.3), audited: the report's K where the
  rating list has none and the rules cannot tell (a player's first 30 rated games).
- :class:`NormConditions`: the event's own conditions for title norms (B.01 1.4.1 b, 1.4.3 a-c)
  and whether the standings show the rating columns.
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from events.models import Event, Player

K_LIMIT = 40  # fiderating.rating.K_LIMIT: B.02 8.3.3 gives at most 40


class PlayerK(models.Model):
    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="fide_k")
    k = models.PositiveSmallIntegerField()

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(k__gte=1, k__lte=K_LIMIT), name="player_k_range")
        ]

    def __str__(self) -> str:
        return f"K {self.k} for {self.player}"


class EventKind(models.TextChoices):
    """The kinds of event B.01 treats on their own terms (fiderating.norms.EVENT_KINDS)."""

    ORDINARY = "ordinary", "An ordinary tournament"
    NATIONAL_CHAMPIONSHIP = (
        "national_championship",
        "Final stage of a national championship (B.01 1.4.3 a)",
    )
    NATIONAL_TEAM_CHAMPIONSHIP = (
        "national_team_championship",
        "National team championship (B.01 1.4.3 b)",
    )
    ZONAL = "zonal", "Zonal or sub-zonal tournament (B.01 1.4.3 c)"
    TEAM_CHAMPIONSHIP = (
        "team_championship",
        "World or continental team or club championship (B.01 1.4.1 b)",
    )
    WORLD_CUP = "world_cup", "World Cup or Women's World Cup (B.01 1.4.1 b)"


class NormConditions(models.Model):
    event = models.OneToOneField(Event, on_delete=models.CASCADE, related_name="norm_conditions")
    kind = models.CharField(max_length=32, choices=EventKind.choices, default=EventKind.ORDINARY)
    # The standings page's rating columns (change, performance): the director shows or hides.
    standings_columns = models.BooleanField(default=False)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(kind__in=EventKind.values), name="norm_conditions_kind_valid"
            )
        ]
