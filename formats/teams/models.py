"""Chess team events (issue #22): what a director enters, stored per event.

Only inputs are stored: the settings, teams and their ordered rosters, each round's line-ups,
matches with their board games, byes and prohibited pairings. Scores, standings and pairings
are never stored: the selectors build a :class:`formats.teams.records.TeamEvent` from these
rows and run the pure engines on it.

Players are the event's :class:`events.models.Player` rows (start number, rating, FIDE id,
title, federation), so the exchange format's ``players`` carry them; a roster entry places a
player in one team, at a board position (reserves after the regular boards).

A match is written from the side of the team with White on board 1 (C.04.6 1.6.1); each board
game names that team's player first. Invariants are constraints: unique pairing numbers, a
player in one team only, one team once per round in the matches (``TeamRoundSlot``, written
with every match and bye, like ``events.RoundSlot``), nobody twice in a line-up.
"""

from __future__ import annotations

from django.db import models
from django.db.models import F, Q

from events.models import Event, Player, Round


class PointsScale(models.TextChoices):
    TWO = "2-1-0", "2 / 1 / 0"
    THREE = "3-1-0", "3 / 1 / 0"


class PrimaryScore(models.TextChoices):
    MATCH_POINTS = "MP", "Match points"
    GAME_POINTS = "GP", "Game points"


class ColourPreferences(models.TextChoices):
    TYPE_A = "A", "Type A (C.04.6 1.7.1)"
    TYPE_B = "B", "Type B (C.04.6 1.7.2)"
    NONE = "none", "None"


class LineUpsClose(models.TextChoices):
    """When a round's line-ups close: the competition's rule."""

    PAIRING = "pairing", "Before the round is paired: the pairing locks them"
    DEADLINE = "deadline", "After the pairing too, until the round's deadline (the Olympiad's way)"


class TeamSetup(models.Model):
    """A team event's settings (C.04.6 1.2-1.4, 1.7; C.07 art. 11)."""

    event = models.OneToOneField(Event, on_delete=models.CASCADE, related_name="team_setup")
    boards = models.PositiveSmallIntegerField(default=4)
    match_points = models.CharField(
        max_length=8, choices=PointsScale.choices, default=PointsScale.TWO
    )
    primary = models.CharField(
        max_length=2, choices=PrimaryScore.choices, default=PrimaryScore.MATCH_POINTS
    )
    # C.04.6 1.4: the pairing-allocated bye; None = the default, a drawn match.
    bye_match_points = models.DecimalField(max_digits=8, decimal_places=4, null=True, blank=True)
    bye_game_points = models.DecimalField(max_digits=8, decimal_places=4, null=True, blank=True)
    colour_preferences = models.CharField(
        max_length=4, choices=ColourPreferences.choices, default=ColourPreferences.TYPE_A
    )
    # C.04.6 4.1: drawn by lot before round 1 ("w" or "b"); blank until drawn.
    initial_colour = models.CharField(max_length=1, blank=True)
    tiebreaks = models.CharField(max_length=300, blank=True)  # TRF-2026 codes, comma-separated
    # The games a player needs for a board prize; None: the default rule, 8 of every 11 rounds
    # (formats.teams.board_prizes.min_board_games); 0: no minimum.
    min_board_games = models.PositiveSmallIntegerField(null=True, blank=True, default=None)
    lineups_close = models.CharField(
        max_length=8, choices=LineUpsClose.choices, default=LineUpsClose.PAIRING
    )
    # Each board's prizes, highest first, the same on every board ("100, 50"); blank: none.
    board_prizes = models.CharField(max_length=200, blank=True)
    version = models.PositiveIntegerField(default=1)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(boards__gte=1) & Q(boards__lte=99), name="team_setup_boards_range"
            ),
            models.CheckConstraint(
                condition=Q(match_points__in=PointsScale.values), name="team_setup_points_valid"
            ),
            models.CheckConstraint(
                condition=Q(primary__in=PrimaryScore.values), name="team_setup_primary_valid"
            ),
            models.CheckConstraint(
                condition=Q(colour_preferences__in=ColourPreferences.values),
                name="team_setup_colours_valid",
            ),
            models.CheckConstraint(
                condition=Q(initial_colour__in=["", "w", "b"]), name="team_setup_initial_valid"
            ),
            models.CheckConstraint(
                condition=Q(lineups_close__in=LineUpsClose.values),
                name="team_setup_lineups_close_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"team setup of {self.event}"


class Team(models.Model):
    """A team: its pairing number (TPN, set by the competition, C.04.6 1.1), name, club or
    federation and captain."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="chess_teams")
    team_no = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=200)
    club = models.CharField(max_length=200, blank=True)
    captain = models.CharField(max_length=200, blank=True)
    version = models.PositiveIntegerField(default=1)

    class Meta:
        ordering = ["event", "team_no"]
        constraints = [
            models.UniqueConstraint(fields=["event", "team_no"], name="chess_team_no_unique"),
            models.UniqueConstraint(fields=["event", "name"], name="chess_team_name_unique"),
            models.CheckConstraint(
                condition=Q(team_no__gte=1) & Q(team_no__lte=999), name="chess_team_no_range"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.team_no}. {self.name}"


class RosterEntry(models.Model):
    """A player's place in a team's roster: board order, reserves after the regular boards."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="roster")
    position = models.PositiveSmallIntegerField()
    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="roster_entry")

    class Meta:
        ordering = ["team", "position"]
        constraints = [
            models.UniqueConstraint(fields=["team", "position"], name="roster_position_unique"),
            models.CheckConstraint(condition=Q(position__gte=1), name="roster_position_positive"),
        ]


class LineUp(models.Model):
    """A team's line-up for one round: its boards are a subsequence of the roster in roster
    order (checked by :mod:`formats.teams.lineups`); ``override`` records that the director
    accepted one that breaks the rule (audited)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="team_lineups")
    round_no = models.PositiveSmallIntegerField()
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="lineups")
    override = models.BooleanField(default=False)
    version = models.PositiveIntegerField(default=1)

    class Meta:
        ordering = ["event", "round_no", "team"]
        constraints = [
            models.UniqueConstraint(fields=["team", "round_no"], name="lineup_once_per_round"),
            models.CheckConstraint(condition=Q(round_no__gte=1), name="lineup_round_positive"),
        ]


class LineUpBoard(models.Model):
    lineup = models.ForeignKey(LineUp, on_delete=models.CASCADE, related_name="boards")
    board = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")

    class Meta:
        ordering = ["lineup", "board"]
        constraints = [
            models.UniqueConstraint(fields=["lineup", "board"], name="lineup_board_unique"),
            models.UniqueConstraint(fields=["lineup", "player"], name="lineup_player_once"),
            models.CheckConstraint(condition=Q(board__gte=1), name="lineup_board_positive"),
        ]


class TeamRoundNotes(models.Model):
    """The pairing engine's notes for a paired round (score groups, concessions, the bye), shown
    on the review before publishing and kept after."""

    round = models.OneToOneField(Round, on_delete=models.CASCADE, related_name="team_notes")
    notes = models.JSONField(default=list, blank=True)


class MatchForfeit(models.TextChoices):
    NONE = "", "Played"
    WHITE_WINS = "+-", "+- (black team forfeits)"
    BLACK_WINS = "-+", "-+ (white team forfeits)"
    BOTH = "--", "-- (both forfeit)"


class TeamMatch(models.Model):
    """A match: ``white`` has White on board 1 (C.04.6 1.6.1); ``forfeit`` a whole match
    forfeited (TRF-2026 record 330), whose boards are all forfeits."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="chess_team_matches")
    table = models.PositiveSmallIntegerField()
    white = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="+")
    black = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="+")
    forfeit = models.CharField(max_length=2, choices=MatchForfeit.choices, blank=True)
    reasons = models.JSONField(default=list, blank=True)  # the engine's words, for the review
    version = models.PositiveIntegerField(default=1)

    class Meta:
        ordering = ["round", "table"]
        constraints = [
            models.UniqueConstraint(fields=["round", "table"], name="chess_match_table_unique"),
            models.CheckConstraint(condition=Q(table__gte=1), name="chess_match_table_positive"),
            models.CheckConstraint(condition=~Q(white=F("black")), name="chess_match_two_teams"),
            models.CheckConstraint(
                condition=Q(forfeit__in=MatchForfeit.values), name="chess_match_forfeit_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"round {self.round.number} table {self.table}"


BOARD_RESULTS = ("1-0", "1/2-1/2", "0-1", "+/-", "-/+", "-/-")


class BoardGame(models.Model):
    """One board of a match, the white team's player first; a player is None on an empty
    board (a forfeit against nobody, TRF-2026 record 300)."""

    match = models.ForeignKey(TeamMatch, on_delete=models.CASCADE, related_name="games")
    board = models.PositiveSmallIntegerField()
    first_player = models.ForeignKey(
        Player, on_delete=models.RESTRICT, null=True, blank=True, related_name="+"
    )
    second_player = models.ForeignKey(
        Player, on_delete=models.RESTRICT, null=True, blank=True, related_name="+"
    )
    result = models.CharField(max_length=8, blank=True)
    version = models.PositiveIntegerField(default=1)  # a stale save is a conflict

    class Meta:
        ordering = ["match", "board"]
        constraints = [
            models.UniqueConstraint(fields=["match", "board"], name="chess_board_unique"),
            models.CheckConstraint(condition=Q(board__gte=1), name="chess_board_positive"),
            models.CheckConstraint(
                condition=Q(result__in=["", *BOARD_RESULTS]), name="chess_board_result_valid"
            ),
        ]

    @property
    def seated(self) -> bool:
        """A player sits on at least one side: the board needs a result."""
        return self.first_player_id is not None or self.second_player_id is not None


class TeamByeKind(models.TextChoices):
    PAIRING = "pairing", "Pairing-allocated bye (C.04.6 1.4)"
    FULL = "full", "Full-point bye"
    HALF = "half", "Half-point bye (requested)"
    ZERO = "zero", "Zero-point bye (requested)"


class TeamBye(models.Model):
    """A team without a match in a round: the pairing-allocated bye, or one requested ahead
    (``round_no`` may lie beyond the rounds paired so far)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="chess_team_byes")
    round_no = models.PositiveSmallIntegerField()
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="byes")
    kind = models.CharField(max_length=8, choices=TeamByeKind.choices)

    class Meta:
        ordering = ["event", "round_no", "team"]
        constraints = [
            models.UniqueConstraint(fields=["team", "round_no"], name="chess_team_bye_once"),
            models.CheckConstraint(condition=Q(round_no__gte=1), name="chess_bye_round_positive"),
            models.CheckConstraint(
                condition=Q(kind__in=TeamByeKind.values), name="chess_team_bye_kind_valid"
            ),
        ]


class TeamRoundSlot(models.Model):
    """One row per (round, team) with a match: the database refuses a team twice in a round."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="+")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="+")
    match = models.ForeignKey(TeamMatch, on_delete=models.CASCADE, related_name="slots")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["round", "team"], name="chess_team_once_per_round"),
        ]


class ProhibitedPairing(models.Model):
    """Two teams that may not meet in rounds ``first_round`` to ``last_round`` (record 260)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="team_prohibitions")
    first_round = models.PositiveSmallIntegerField()
    last_round = models.PositiveSmallIntegerField()
    team_a = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="+")
    team_b = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="+")

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(first_round__gte=1) & Q(last_round__gte=F("first_round")),
                name="prohibited_rounds_valid",
            ),
            models.CheckConstraint(condition=~Q(team_a=F("team_b")), name="prohibited_two_teams"),
        ]


class LineUpDeadline(models.Model):
    """When the line-ups of a round close (issue #22: "entered ... before a deadline"): after
    it an arbiter's line-up is refused, the director's goes in only against the rule
    (audited)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="+")
    round_no = models.PositiveSmallIntegerField()
    closes_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["event", "round_no"], name="chess_lineup_deadline_unique"
            ),
        ]


class TeamAdjustment(models.Model):
    """Points the arbiter adds to or takes from a team (TRF-2026 record 299; C.04.6 1.2-1.3
    scores, C.07 16): from round ``round_no`` on they count in the scores used for pairing and
    tie-breaks, or with ``standings_only`` in the final score alone."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="+")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="adjustments")
    round_no = models.PositiveSmallIntegerField()
    match_points = models.DecimalField(max_digits=8, decimal_places=4, default=0)
    game_points = models.DecimalField(max_digits=8, decimal_places=4, default=0)
    standings_only = models.BooleanField(default=False)
    reason = models.CharField(max_length=200)
