"""Mind Sports Olympiad multi-player tables (seed 003 multi-player games).

MultiGame and MultiGameScore: a multi-player table and each seat's game score.
MultiGameScore.round repeats the game's round so that the database itself refuses a player at
two tables of one round (the multi-player counterpart of RoundSlot, which names a two-player
game or a bye and cannot name a table). TableAuditEntry links an audit entry to the table whose
scores it changed, so the audit log can undo it like a game's result.

The tables of MultiGame and MultiGameScore keep the names they had when the models lived in the
``events`` app (``db_table``), so the move copied no data (migration ``mso.0001``).
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from events.models import AuditEntry, Player, Round


class MultiGame(models.Model):
    """A multi-player table of one round (seed 003 multi-player games)."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="multi_games")
    board = models.PositiveSmallIntegerField()
    # Optimistic concurrency, as for two-player games: a save names the version it saw.
    version = models.PositiveIntegerField(default=1)

    class Meta:
        db_table = "events_multigame"  # kept from before the move (no copy)
        ordering = ["round", "board"]
        constraints = [
            models.UniqueConstraint(fields=["round", "board"], name="multi_game_board_unique"),
            models.CheckConstraint(condition=Q(board__gte=1), name="multi_game_board_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.round} table {self.board}"


class MultiGameScore(models.Model):
    """One seat: the player and their game score (None until the table's result is in; the
    service records every seat of a table together, never one alone)."""

    game = models.ForeignKey(MultiGame, on_delete=models.CASCADE, related_name="scores")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    seat = models.PositiveSmallIntegerField()
    score = models.DecimalField(max_digits=14, decimal_places=4, null=True, blank=True)

    class Meta:
        db_table = "events_multigamescore"  # kept from before the move (no copy)
        ordering = ["game", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["round", "player"], name="multi_player_once_per_round"),
            models.UniqueConstraint(fields=["game", "seat"], name="multi_seat_unique"),
            models.CheckConstraint(condition=Q(seat__gte=1), name="multi_seat_positive"),
        ]


class TableAuditEntry(models.Model):
    """An audit entry that changed a table's scores: the audit log can undo it
    (:func:`formats.mso.services.multi_scores_undo`, through the format seam)."""

    entry = models.OneToOneField(
        AuditEntry, on_delete=models.CASCADE, primary_key=True, related_name="mso_table"
    )
    game = models.ForeignKey(MultiGame, on_delete=models.SET_NULL, null=True, related_name="+")

    def __str__(self) -> str:
        return f"{self.entry} at {self.game}"
