"""The playoff's recorded inputs. The plan itself is never stored: :mod:`playoffs.selectors`
re-runs the engine from these rows on every read (seed 000 §2–3).

- :class:`PlayoffGame`: the entered games, matched to the engine's scheduled stages in order
  (``results_from_rows``: stage, then round, then row id), so the services write one row per
  scheduled game in schedule order (design.md §4 ``playoff_games``).
- :class:`PlayoffState`: the director's confirmation of the proposed playoff, with the tie as it
  stood then, so a later change of the standings is noticed instead of silently played on.
- :class:`CoinToss`: the chief arbiter's toss and the winner's choice of colour (2.5.3).
- :class:`ArbiterDecision`: the chief arbiter's decision "by other means" (3.5).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from events.models import Event

PLAYOFF_RESULTS = ["1-0", "0-1", "1/2-1/2"]


class PlayoffGame(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="playoff_games")
    stage = models.PositiveSmallIntegerField()
    round = models.PositiveSmallIntegerField()
    white = models.PositiveIntegerField()  # start numbers of the event's players
    black = models.PositiveIntegerField()
    result = models.CharField(max_length=8, blank=True)
    # Optimistic concurrency, as for regular games: a save names the version it was based on.
    version = models.PositiveIntegerField(default=1)

    class Meta:
        ordering = ["event", "stage", "round", "id"]
        constraints = [
            models.CheckConstraint(condition=~Q(white=models.F("black")), name="playoff_not_self"),
            models.CheckConstraint(
                condition=Q(result__in=["", *PLAYOFF_RESULTS]), name="playoff_result_valid"
            ),
            models.CheckConstraint(
                condition=Q(stage__gte=1, round__gte=1), name="playoff_game_stage_round_positive"
            ),
        ]


class PlayoffState(models.Model):
    """The director's confirmation of the proposed playoff (one per event).

    ``tied`` is the tie for first at confirmation, in final-ranking order. ``start_day`` and
    ``not_before`` come from seed 000 2.2 (thirty minutes after the last game) or 3.2 (the
    reserve day), ``start_clause`` names which.
    """

    event = models.OneToOneField(Event, on_delete=models.CASCADE, related_name="playoff_state")
    rule = models.CharField(max_length=40)
    tied = models.JSONField()
    start_day = models.DateField()
    not_before = models.DateTimeField(null=True, blank=True)
    start_clause = models.CharField(max_length=40)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    confirmed_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.CheckConstraint(condition=~Q(rule=""), name="playoff_state_rule_set"),
        ]


class TossChoice(models.TextChoices):
    WHITE = "white", "White"
    BLACK = "black", "Black"


class CoinToss(models.Model):
    """Seed 000 2.5.3: who won the toss of an Armageddon game and which colour they chose."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="playoff_coin_tosses")
    stage = models.PositiveSmallIntegerField()
    game = models.PositiveSmallIntegerField()  # the game's number within the stage, from 1
    toss_winner = models.PositiveIntegerField()  # start number
    choice = models.CharField(max_length=5, choices=TossChoice.choices)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    recorded_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["event", "stage", "game"]
        constraints = [
            models.UniqueConstraint(
                fields=["event", "stage", "game"], name="playoff_one_toss_per_game"
            ),
            models.CheckConstraint(
                condition=Q(choice__in=TossChoice.values), name="playoff_toss_choice_valid"
            ),
            models.CheckConstraint(
                condition=Q(stage__gte=1, game__gte=1), name="playoff_toss_game_positive"
            ),
        ]


class ArbiterDecision(models.Model):
    """Seed 000 3.5: the order the chief arbiter gave the players still tied, and the means."""

    event = models.OneToOneField(
        Event, on_delete=models.CASCADE, related_name="playoff_arbiter_decision"
    )
    order = models.JSONField()  # start numbers, best first
    reason = models.TextField()
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    decided_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=~Q(reason=""), name="playoff_decision_has_reason"),
        ]
