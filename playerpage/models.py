"""The player's private page and the results players report from it (issue 21).

- :class:`PlayerLink`: one private link per player, an unguessable token from ``secrets``
  (never derived from ids), which the director can revoke and re-issue.
- :class:`ReportingPolicy`: whether players may report, and whether two matching reports enter
  the result (absent: the default, two matching reports enter it).
- :class:`ResultReport`: every report a player sent, with time, source and what became of it.
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from events.models import Event, Game, Player

TOKEN_BYTES = 18  # 144 bits, 24 URL-safe characters
TOKEN_PATTERN = r"[A-Za-z0-9_-]{22,64}"


class Policy(models.TextChoices):
    TWO_MATCHING = "two_matching", "Two matching reports enter the result"
    ARBITER = "arbiter", "Every report waits for the arbiter"
    OFF = "off", "Players may not report"


class ReportingPolicy(models.Model):
    event = models.OneToOneField(Event, on_delete=models.CASCADE, related_name="reporting")
    policy = models.CharField(max_length=16, choices=Policy.choices, default=Policy.TWO_MATCHING)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(policy__in=Policy.values), name="reporting_policy_valid"
            )
        ]


class PlayerLink(models.Model):
    """A player's private link. Stored as issued (the cards and ``player_links`` print it);
    revoking keeps the row so that the card's old token stays dead (``active`` false)."""

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="link")
    token = models.CharField(max_length=64, unique=True)
    active = models.BooleanField(default=True)
    issued_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(token__regex=rf"^{TOKEN_PATTERN}$"), name="player_link_token_form"
            )
        ]


class ReportSource(models.TextChoices):
    PAGE = "page", "The player's page"


class ReportStatus(models.TextChoices):
    WAITING = "waiting", "Waiting for the arbiter or the opponent"
    ENTERED = "entered", "Entered: both players reported it"
    CONFIRMED = "confirmed", "Confirmed by the arbiter"
    LATE = "late", "Refused: the game already had a result"


REPORTABLE = ("1-0", "1/2-1/2", "0-1")


class ResultReport(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="reports")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="reports")
    result = models.CharField(max_length=8)
    reported_at = models.DateTimeField()
    source = models.CharField(max_length=8, choices=ReportSource.choices, default="page")
    status = models.CharField(max_length=10, choices=ReportStatus.choices, default="waiting")

    class Meta:
        ordering = ["game", "reported_at", "id"]
        indexes = [models.Index(fields=["player", "reported_at"])]
        constraints = [
            models.CheckConstraint(condition=Q(result__in=REPORTABLE), name="report_result_valid"),
            models.CheckConstraint(
                condition=Q(status__in=ReportStatus.values), name="report_status_valid"
            ),
            models.CheckConstraint(
                condition=Q(source__in=ReportSource.values), name="report_source_valid"
            ),
        ]
