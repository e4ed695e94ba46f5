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


# -- Swiss pairing (issue 14; FIDE C.04.1–C.04.3 2025, C.04.5) ---------------------------------
#
# What the director decides around the engine (draws.swiss.pairing) is stored; what the
# engine decides is stored as the round's games and byes, with its explanation beside them
# (SwissRound). The games themselves are ordinary Game rows in an unpublished Round until the
# director publishes.


class InitialColour(models.TextChoices):
    LOT = "", "By lot (from the event's lots seed)"
    WHITE = "w", "White"
    BLACK = "b", "Black"


class Acceleration(models.TextChoices):
    NONE = "", "None"
    BAKU = "baku", "Baku acceleration (C.04.5)"
    # An imported file's points per player and round (XXA, as JaVaFo and bbpPairings read
    # them): only an import sets it (issue 28).
    TABLE = "table", "The imported file's points per player and round (XXA)"


class SwissSetup(models.Model):
    """An event's Swiss settings. ``initial_colour`` is the colour of pairing number 1 in
    round 1 (C.04.3 colour allocation, last rule); ``pairing_order`` freezes the initial order
    (start numbers, pairing number 1 first) once the director closes the list of participants
    (C.04.2 "Late entries": until then the pairing numbers are provisional)."""

    event = models.OneToOneField(Event, on_delete=models.CASCADE, related_name="swiss_setup")
    initial_colour = models.CharField(
        max_length=1, choices=InitialColour.choices, blank=True, default=InitialColour.LOT
    )
    acceleration = models.CharField(
        max_length=8, choices=Acceleration.choices, blank=True, default=Acceleration.NONE
    )
    pairing_order = models.JSONField(null=True, blank=True)
    # With acceleration "table": {"start_no": ["1", "1/2", ...]}, the virtual points of each
    # round from round 1 (exact fractions as text); a player or round not listed has none.
    acceleration_table = models.JSONField(null=True, blank=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(initial_colour__in=InitialColour.values),
                name="swiss_setup_initial_colour_valid",
            ),
            models.CheckConstraint(
                condition=Q(acceleration__in=Acceleration.values),
                name="swiss_setup_acceleration_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"Swiss settings of {self.event}"


class RequestedBye(models.TextChoices):
    HALF = "half", "Half-point bye"
    ZERO = "zero", "Zero-point bye"
    # Only from an imported file whose next round lists one (``0000 - F``, as Swiss-Manager and
    # JaVaFo write a full point granted in advance): the director requests half or zero.
    FULL = "full", "Full-point bye (from the imported file)"


DIRECTOR_BYES = (RequestedBye.HALF, RequestedBye.ZERO)


class ByeRequest(models.Model):
    """A player asks not to be paired in a round and takes a half- or zero-point bye
    (C.04.2; TRF codes H and Z). Applied when the round is paired."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="bye_requests")
    round = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=8, choices=RequestedBye.choices)
    note = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["round", "player__start_no"]
        constraints = [
            models.UniqueConstraint(fields=["player", "round"], name="bye_request_once_a_round"),
            models.CheckConstraint(condition=Q(round__gte=1), name="bye_request_round_positive"),
            models.CheckConstraint(
                condition=Q(kind__in=RequestedBye.values), name="bye_request_kind_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} asks for a {self.kind} bye in round {self.round}"


class ForbiddenPair(models.Model):
    """Two players who must not meet (family members, the same club in the first rounds): an
    absolute criterion like a rematch, up to ``until_round`` (every round when empty). Stored
    with ``first`` the lower start number."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="forbidden_pairs")
    first = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    second = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    reason = models.CharField(max_length=200, blank=True)
    until_round = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["first", "second"], name="forbidden_pair_once"),
            models.CheckConstraint(
                condition=~Q(first=models.F("second")), name="forbidden_pair_two_players"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.first} must not meet {self.second}"


class PairingSource(models.TextChoices):
    ENGINE = "engine", "Paired by the Dutch system"
    EDITED = "edited", "Paired by the Dutch system, then changed by hand"


class SwissRound(models.Model):
    """How a round was paired: the engine's pairing with its explanation (``boards`` is
    [[white, black], ...] in board order, ``bye`` the pairing-allocated bye), whether the
    director changed it afterwards, and when it was paired."""

    round = models.OneToOneField(
        "events.Round", on_delete=models.CASCADE, related_name="swiss_round"
    )
    source = models.CharField(
        max_length=8, choices=PairingSource.choices, default=PairingSource.ENGINE
    )
    boards = models.JSONField()
    bye = models.PositiveIntegerField(null=True, blank=True)
    notes = models.JSONField(default=list)
    reasons = models.JSONField(default=dict)  # board number (text) -> [reason, ...]
    initial_colour = models.CharField(max_length=1)
    # Start numbers in pairing-number order as the engine used them: a later entry takes a
    # number, so pair --check re-pairs the round with these (null: paired before they were kept).
    pairing_numbers = models.JSONField(null=True, blank=True)
    # Results of earlier rounds changed after this round was paired (issue 29): "round.board"
    # -> the result the pairing was made from. Null: the pairing follows from the results (or
    # the director kept it); a change back to that result takes its entry away again.
    outdated_by = models.JSONField(null=True, blank=True)
    paired_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(source__in=PairingSource.values), name="swiss_round_source_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"Pairing of {self.round}"
