"""Rating lists: FIDE's monthly lists and national lists, each a table of players the
registration form searches (issue 20, "Registration from a rating list").

A list is known by its name ("FIDE standard") and dated by the month it was published; a
re-import under the same name replaces its players as a whole, in one transaction, so that the
type-ahead answers from the old players until the new ones are in (ratings/services.py).

Search indexes (migration 0001; ratings/selectors.py says which query uses which): on
PostgreSQL, B-trees on (list, name key), (list, FIDE id) and (list, national id) in the "C"
collation, which answer a prefix in index order (the first page of "ber…" without sorting the
40,000 names that begin so), and a trigram GIN index on the name key (any word of the name by
its first letters); on SQLite, the same B-trees in its own binary order.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from ratings.parsers import MAX_K, MAX_RATING, RATINGS


class RatingList(models.Model):
    name = models.CharField(max_length=100, unique=True)
    published = models.DateField(null=True, blank=True)  # the list's month (its first day)
    layout = models.CharField(max_length=16)  # ratings.parsers: fide-txt, fide-xml, csv
    # Which ratings the list carries (a FIDE single list one, the combined list three).
    standard = models.BooleanField(default=False)
    rapid = models.BooleanField(default=False)
    blitz = models.BooleanField(default=False)
    players = models.PositiveIntegerField(default=0)
    source = models.CharField(max_length=200, blank=True)  # the file it was imported from
    imported_at = models.DateTimeField()
    imported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )

    class Meta:
        ordering = ["name"]
        permissions = [("manage_rating_lists", "Import, replace and delete rating lists")]

    def __str__(self) -> str:
        return f"{self.name}, {self.published:%b %Y}" if self.published else self.name

    @property
    def ratings(self) -> tuple[str, ...]:
        return tuple(kind for kind in RATINGS if getattr(self, kind))


class RatingEntry(models.Model):
    """One player of a list, as published (the name verbatim) plus the name key searched."""

    # No index of its own (every index below starts with the list), and no database constraint:
    # PostgreSQL would check a deferred foreign key once per player at the import's commit
    # (1.2 million checks). Only ratings.services writes these rows, with its own list's id,
    # and deletes them with the list.
    rating_list = models.ForeignKey(
        RatingList,
        on_delete=models.CASCADE,
        related_name="entries",
        db_index=False,
        db_constraint=False,
    )
    fide_id = models.CharField(max_length=15, blank=True)
    national_id = models.CharField(max_length=15, blank=True)
    name = models.CharField(max_length=200)
    name_key = models.TextField()  # ratings.names.name_key(name)
    federation = models.CharField(max_length=3, blank=True)
    sex = models.CharField(max_length=1, blank=True)
    title = models.CharField(max_length=3, blank=True)
    birth_year = models.PositiveSmallIntegerField(null=True, blank=True)
    standard = models.PositiveSmallIntegerField(null=True, blank=True)
    rapid = models.PositiveSmallIntegerField(null=True, blank=True)
    blitz = models.PositiveSmallIntegerField(null=True, blank=True)
    inactive = models.BooleanField(default=False)
    # Each rating's K as the list publishes it (B.02 7.1.2, 8.3.3): carried to the player
    # registered from the list, and used by the rating report before 8.3.3's rules.
    standard_k = models.PositiveSmallIntegerField(null=True, blank=True)
    rapid_k = models.PositiveSmallIntegerField(null=True, blank=True)
    blitz_k = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(sex__in=["", "m", "w"]), name="rating_entry_sex"),
            *(
                models.CheckConstraint(
                    condition=Q(**{f"{kind}__lte": MAX_RATING}), name=f"rating_entry_{kind}_range"
                )
                for kind in RATINGS
            ),
            *(
                models.CheckConstraint(
                    condition=Q(**{f"{kind}_k__gte": 1, f"{kind}_k__lte": MAX_K}),
                    name=f"rating_entry_{kind}_k_range",
                )
                for kind in RATINGS
            ),
        ]

    def __str__(self) -> str:
        return self.name
