"""Events, players, rounds, games, byes, regulation sets, access and the audit trail.

Every invariant a director relies on is a database constraint, not only a form check:
unique start numbers, one game per board, nobody twice in a round, nobody against themself.
"Nobody twice in a round" spans two tables (games and byes), so it is enforced through
:class:`RoundSlot`, one row per (round, player) with a unique constraint, written by the
services alongside every game and bye.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from events.limits import MAX_K


class EventSystem(models.TextChoices):
    ROUND_ROBIN = "round_robin", "Round robin"
    DOUBLE_ROUND_ROBIN = "double_round_robin", "Double round robin"
    SWISS = "swiss", "Swiss"
    KNOCKOUT = "knockout", "Knock-out"
    COHEN = "cohen", "Cohen Chess club format"
    GNOT = "gnot", "GNOT bridge teams"
    TEAM_SWISS = "team_swiss", "Team Swiss (FIDE C.04.6)"
    TEAM_ROUND_ROBIN = "team_round_robin", "Team round robin"
    TEAM_DOUBLE_ROUND_ROBIN = "team_double_round_robin", "Team double round robin"


class TimeControl(models.TextChoices):
    CLASSICAL = "classical", "Classical"
    RAPID = "rapid", "Rapid"
    BLITZ = "blitz", "Blitz"
    RAPID_BLITZ = "rapid_blitz", "Rapid & Blitz"


class GameTimeControl(models.TextChoices):
    NONE = "", "Event default"
    CLASSICAL = "classical", "Classical"
    RAPID = "rapid", "Rapid"
    BLITZ = "blitz", "Blitz"


class EventStatus(models.TextChoices):
    DRAFT = "draft", "Registration"
    RUNNING = "running", "In progress"
    FINISHED = "finished", "Finished"


class Event(models.Model):
    name = models.CharField(max_length=200)
    slug = models.SlugField(max_length=100, unique=True)
    system = models.CharField(max_length=32, choices=EventSystem.choices)
    time_control = models.CharField(max_length=16, choices=TimeControl.choices)
    start_date = models.DateField(null=True, blank=True)
    rounds = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=16, choices=EventStatus.choices, default="draft")
    # Bumped by every write (services.bump_version); public pages cache per (event, version).
    results_version = models.PositiveBigIntegerField(default=1)
    lots_seed = models.CharField(max_length=200)
    currency = models.CharField(max_length=3, default="USD")
    site = models.CharField(max_length=200, blank=True)  # the city (TRF record 022)
    # The tournament records of FIDE's rating report (TRF16 records 032-132; issue 20).
    federation = models.CharField(max_length=3, blank=True)
    end_date = models.DateField(null=True, blank=True)
    tournament_type = models.CharField(max_length=200, blank=True)  # 092, as given
    chief_arbiter = models.CharField(max_length=200, blank=True)
    deputy_arbiters = models.JSONField(default=list, blank=True)  # [name, ...], one per 112
    rate_of_play = models.CharField(max_length=200, blank=True)  # 122, e.g. 90'/40+30'+30"
    round_dates = models.JSONField(default=list, blank=True)  # ["YYYY-MM-DD" or null, ...]
    # An imported TRF's record 072 (rated players) as the file says it (issue 28); None: not
    # imported so, or not given. The export counts its own.
    trf_rated_players = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-start_date", "name"]
        constraints = [
            models.CheckConstraint(condition=Q(rounds__gte=1), name="event_rounds_positive"),
            models.CheckConstraint(
                condition=Q(system__in=[c.value for c in EventSystem]), name="event_system_valid"
            ),
            models.CheckConstraint(
                condition=Q(status__in=[c.value for c in EventStatus]), name="event_status_valid"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_round_robin(self) -> bool:
        return self.system in (EventSystem.ROUND_ROBIN, EventSystem.DOUBLE_ROUND_ROBIN)


class RegulationSet(models.Model):
    """A preset (shipped in code, ``events.regulations``) plus validated per-event overrides.

    Locked once round 1 has a result (design brief §3); a later change needs the director's
    confirmation and is audited.
    """

    event = models.OneToOneField(Event, on_delete=models.CASCADE, related_name="regulation")
    preset = models.CharField(max_length=40)
    overrides = models.JSONField(default=dict, blank=True)

    def __str__(self) -> str:
        return f"{self.preset} for {self.event}"


class Player(models.Model):
    """A player's entry in one event."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="players")
    start_no = models.PositiveIntegerField()
    name = models.CharField(max_length=200)
    federation = models.CharField(max_length=3, blank=True)
    fide_id = models.CharField(max_length=15, blank=True)
    rating = models.PositiveIntegerField(default=0)  # 0 means unrated
    title = models.CharField(max_length=3, blank=True)
    sex = models.CharField(max_length=1, blank=True)
    birth_date = models.DateField(null=True, blank=True)
    # The year of birth whenever one is known: a rating list publishes only the year, and a
    # date is never invented from it; set from birth_date when the date is known (services).
    birth_year = models.PositiveSmallIntegerField(null=True, blank=True)
    previous_rank = models.PositiveIntegerField(null=True, blank=True)
    # The K the rating list gives beside the player's rating (FIDE's lists publish it, B.02
    # 7.1.2), carried when the player is registered from the list; None: none known. The
    # rating report (fiderating) uses it before B.02 8.3.3's rules, after a K set by hand.
    k_listed = models.PositiveSmallIntegerField(null=True, blank=True)
    # The rank column of an imported TRF (the other program's tie-breaks gave it); None: none.
    file_rank = models.PositiveIntegerField(null=True, blank=True)
    withdrawn_after_round = models.PositiveSmallIntegerField(null=True, blank=True)
    # Optimistic concurrency, as for games: an edit names the version it was based on.
    version = models.PositiveIntegerField(default=1)

    class Meta:
        ordering = ["event", "start_no"]
        constraints = [
            models.UniqueConstraint(fields=["event", "start_no"], name="player_start_no_unique"),
            # A FIDE id once per event; "" and "0" (TRF files write 0 for none) are no id.
            models.UniqueConstraint(
                fields=["event", "fide_id"],
                condition=~Q(fide_id__in=["", "0"]),
                name="player_fide_id_unique",
            ),
            models.CheckConstraint(condition=Q(start_no__gte=1), name="player_start_no_positive"),
            models.CheckConstraint(condition=Q(sex__in=["", "m", "w"]), name="player_sex_valid"),
            models.CheckConstraint(
                condition=Q(k_listed__gte=1, k_listed__lte=MAX_K), name="player_k_listed_range"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.start_no}. {self.name}"


class Round(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    published = models.BooleanField(default=True)

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="round_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
        ]

    def __str__(self) -> str:
        return f"Round {self.number}"


class Result(models.TextChoices):
    WHITE_WINS = "1-0", "1-0"
    BLACK_WINS = "0-1", "0-1"
    DRAW = "1/2-1/2", "½-½"
    WHITE_FORFEIT_WIN = "+/-", "+/− (forfeit)"
    BLACK_FORFEIT_WIN = "-/+", "−/+ (forfeit)"
    DOUBLE_FORFEIT = "-/-", "−/− (double forfeit)"


class Game(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="games")
    board = models.PositiveSmallIntegerField()
    white = models.ForeignKey(Player, on_delete=models.RESTRICT, related_name="+")
    black = models.ForeignKey(Player, on_delete=models.RESTRICT, related_name="+")
    result = models.CharField(max_length=8, choices=Result.choices, blank=True)
    time_control = models.CharField(max_length=16, choices=GameTimeControl.choices, blank=True)
    # Optimistic concurrency: a save names the version it was based on (services).
    version = models.PositiveIntegerField(default=1)
    # A forfeit whose file gave no colours (TRF ``- -``): white and black are only the order
    # of the pair, and the TRF export writes it without colours again (issue 28). Ignored
    # once the result is one played over the board.
    colourless = models.BooleanField(default=False)

    class Meta:
        ordering = ["round", "board"]
        constraints = [
            models.UniqueConstraint(fields=["round", "board"], name="game_board_unique"),
            models.CheckConstraint(condition=~Q(white=models.F("black")), name="game_not_self"),
            models.CheckConstraint(
                condition=Q(result__in=["", *Result.values]), name="game_result_valid"
            ),
            models.CheckConstraint(condition=Q(board__gte=1), name="game_board_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.round} board {self.board}"


class ByeKind(models.TextChoices):
    HALF = "half", "Half-point bye"
    ZERO = "zero", "Zero-point bye"
    FULL = "full", "Full-point bye"
    PAIRING = "pairing", "Pairing-allocated bye"


class Bye(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="byes")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="byes")
    kind = models.CharField(max_length=8, choices=ByeKind.choices)

    class Meta:
        ordering = ["round", "player__start_no"]
        constraints = [
            models.UniqueConstraint(fields=["round", "player"], name="bye_once_per_round"),
            models.CheckConstraint(condition=Q(kind__in=ByeKind.values), name="bye_kind_valid"),
        ]


class RoundSlot(models.Model):
    """One row per (round, player) that has a game or a bye: the database refuses a second.

    Written and deleted only by the services, together with the game or bye it stands for.
    """

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, null=True, related_name="slots")
    bye = models.ForeignKey(Bye, on_delete=models.CASCADE, null=True, related_name="slots")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["round", "player"], name="player_once_per_round"),
            models.CheckConstraint(
                condition=Q(game__isnull=False, bye__isnull=True)
                | Q(game__isnull=True, bye__isnull=False),
                name="slot_game_xor_bye",
            ),
        ]


class Role(models.TextChoices):
    DIRECTOR = "director", "Director"
    ARBITER = "arbiter", "Arbiter"


class EventAccess(models.Model):
    """Who may do what in an event. The director owns it; arbiters enter and correct results."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="access")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    role = models.CharField(max_length=16, choices=Role.choices)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["event", "user"], name="access_once_per_user"),
            models.CheckConstraint(condition=Q(role__in=Role.values), name="access_role_valid"),
        ]


class AuditEntry(models.Model):
    """Who did what, when, with the values before and after. A game's result change can be
    undone here; a format links its own undoable entries to its records (formats/mso's tables)
    and undoes them through the seam (:mod:`events.formats`)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="audit_entries")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True
    )
    at = models.DateTimeField(auto_now_add=True)
    action = models.CharField(max_length=40)
    summary = models.CharField(max_length=300)
    game = models.ForeignKey(Game, on_delete=models.SET_NULL, null=True, blank=True)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    undone_by = models.OneToOneField(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="undoes"
    )

    class Meta:
        ordering = ["-at", "-id"]
        indexes = [models.Index(fields=["event", "-at"])]

    def __str__(self) -> str:
        return self.summary
