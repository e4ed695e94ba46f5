"""The prize side of an event: the fund, the prize settings, category prizes, approved sheets,
and tour series (issue 6, "Prizes and tour points").

Money is ``DecimalField`` or a decimal string inside JSON, never a float (design.md §3). The
engines (:mod:`prizes.split`, :mod:`prizes.tour`, :mod:`prizes.categories`) own the rules; these
tables only store what a director entered and what they approved.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from events.models import Event


class PlacePrize(models.Model):
    """One place prize of the fund (the JSON exchange format's ``"prizes"``)."""

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


class PrizeSettings(models.Model):
    """Per-event overrides of the regulation's prize settings (design.md §3: a preset plus
    overrides). An empty ``split_rule``/``rounding`` or a null ``unit`` means "the regulation's"
    (:func:`prizes.split.prize_regulation`); codes are validated against the registries by the
    service that writes them."""

    event = models.OneToOneField(Event, on_delete=models.CASCADE, related_name="prize_settings")
    split_rule = models.CharField(max_length=40, blank=True)
    rounding = models.CharField(max_length=40, blank=True)
    unit = models.DecimalField(max_digits=14, decimal_places=2, null=True, blank=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(unit__isnull=True) | Q(unit__gt=0), name="prize_unit_positive"
            ),
        ]


class CategoryPrize(models.Model):
    """A category (best woman, best under 2000, …): conditions as the JSON list
    ``[{"field": "rating", "op": "lt", "value": 2000}]`` of :class:`prizes.categories.Condition`
    and ``amounts`` as decimal strings, 1st prize first."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="category_prizes")
    code = models.SlugField(max_length=40)
    name = models.CharField(max_length=100)
    position = models.PositiveSmallIntegerField(default=1)  # the listing order (a tie-break)
    conditions = models.JSONField(default=list)
    amounts = models.JSONField(default=list)

    class Meta:
        ordering = ["event", "position", "code"]
        constraints = [
            models.UniqueConstraint(fields=["event", "code"], name="category_code_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.code})"


class PrizeSheetApproval(models.Model):
    """A frozen prize sheet: the director approved it at ``results_version``. A later write to
    the event moves the version on and makes this snapshot *outdated* (shown, never silently
    recomputed); approving again adds a new row, so the history stays."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="prize_approvals")
    results_version = models.PositiveBigIntegerField()
    snapshot = models.JSONField()
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True
    )
    approved_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["event", "-approved_at", "-id"]
        get_latest_by = ["approved_at", "id"]


class Series(models.Model):
    """A tour (seed 000 §4): events whose tour points and prize money add up. An event is
    classical when its time control is ``classical`` (4.3.A, 4.3.C)."""

    name = models.CharField(max_length=200)
    slug = models.SlugField(max_length=100, unique=True)
    events = models.ManyToManyField(Event, related_name="series", blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name_plural = "series"

    def __str__(self) -> str:
        return self.name
