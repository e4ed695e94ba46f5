"""GNOT bridge teams (seed 004, NSWBA GNOT 2012): the recorded inputs of the event.

Only what people enter is stored: teams and their seeding, each match's IMPs (and optionally
each board's net score and the playoff boards), each choice of opponents, the Swiss entries.
Rankings, pool standings, the Swiss table and the qualification list are never stored: the
selectors (:mod:`formats.gnot.selectors`) re-run the pure engines (:mod:`formats.gnot.rules`,
:mod:`formats.gnot.draw`) on these rows on every read. Every lot is drawn from the event's recorded
``lots_seed`` with a named purpose, so a re-run gives the same answer.

Invariants a director relies on are database constraints: unique team numbers and seeds, no
team against itself, a team at most once per session round (through :class:`TeamMatchSlot`,
one row per (session, round, team), written by the services with every match), a winner that
played the match, one choice per step of a ceremony.

The tables keep the names they had when these models lived in the ``standings`` app
(``db_table``), so moving them here copied no data (migration ``gnot.0001``).
"""

from __future__ import annotations

from django.db import models
from django.db.models import F, Q

from events.models import Event

SESSION_CODES = ("1", "2", "2a", "2b", "3", "3a", "3b", "4", "4a", "4b", "5", "swiss")


class GnotSetup(models.Model):
    """Per-event settings of a GNOT event: the VP scale of the Swiss (1.8.1).

    1.8.1 names "the standard WBF 14 board match IMP to VP conversion scale": in 2012 that was
    the WBF 25-VP scale, so ``wbf-25`` is the default (rules-notes "GNOT bridge (seed 004)").
    """

    event = models.OneToOneField(Event, on_delete=models.CASCADE, related_name="gnot_setup")
    vp_scale = models.CharField(max_length=40, default="wbf-25")
    # 3.2.4.1 (exactly 25 teams): the American Whist matches are converted "using the NSWBA
    # scale for 8 board butler matches": a scale code (blank: the Swiss scale) and the board
    # count whose table is used.
    whist_vp_scale = models.CharField(max_length=40, blank=True)
    # The event's own band table (scale code ``event-bands``): {"14": [[margin, "winner",
    # "loser"], ...], "8": [...]}, one table per number of boards, VPs as exact strings.
    vp_bands = models.JSONField(default=dict, blank=True)
    whist_scale_boards = models.PositiveSmallIntegerField(default=8)
    # 3.1.8: "At the Director's discretion the winner [of session 4] shall have the option of
    # playing in the Swiss repechage on week five as a non-contending team."
    dko_winner_swiss = models.BooleanField(default=False)

    class Meta:
        db_table = "standings_gnotsetup"  # kept from before the move (no copy)

    def __str__(self) -> str:
        return f"GNOT setup of {self.event}"


class Section(models.TextChoices):
    NONE = "", "Not seeded"
    TOP = "top", "Top"
    MIDDLE = "middle", "Middle"
    BOTTOM = "bottom", "Bottom"


class Team(models.Model):
    """A team's entry. ``team_no`` is its identity (like a start number); ``seed`` its place in
    the seeding (1.5 "The initial field will be seeded"); ``pool`` its week-one pool ("P3") or
    head-to-head ("H2")."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="teams")
    team_no = models.PositiveIntegerField()
    name = models.CharField(max_length=200)
    players = models.TextField(blank=True)
    seed = models.PositiveIntegerField(null=True, blank=True)
    section = models.CharField(max_length=8, choices=Section.choices, blank=True)
    pool = models.CharField(max_length=8, blank=True)
    # 1.11.3: qualified but opts not to proceed.
    declined = models.BooleanField(default=False)

    class Meta:
        db_table = "standings_team"  # kept from before the move (no copy)
        ordering = ["event", "team_no"]
        constraints = [
            models.UniqueConstraint(fields=["event", "team_no"], name="team_no_unique"),
            models.UniqueConstraint(
                fields=["event", "seed"], condition=Q(seed__isnull=False), name="team_seed_unique"
            ),
            models.CheckConstraint(condition=Q(team_no__gte=1), name="team_no_positive"),
            models.CheckConstraint(
                condition=Q(seed__isnull=True) | Q(seed__gte=1), name="team_seed_positive"
            ),
            models.CheckConstraint(
                condition=Q(section__in=Section.values), name="team_section_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.team_no}. {self.name}"


class MatchKind(models.TextChoices):
    MATCH = "match", "Match"
    POOL_PLAYOFF = "playoff", "Pool playoff (3.1.1)"


class MatchStatus(models.TextChoices):
    SCHEDULED = "scheduled", "To play"
    PLAYED = "played", "Played"  # a pool or Swiss match: a draw stands
    PLAYOFF_NEEDED = "playoff_needed", "Playoff needed"
    DECIDED = "decided", "Decided"


class Half(models.TextChoices):
    FIRST = "first", "First half"
    SECOND = "second", "Second half"
    FULL = "full", "Whole evening"


class TeamMatch(models.Model):
    """One match (or a week-one pool playoff) of a session.

    ``session`` is a code of :data:`formats.gnot.draw.SESSIONS` ("2", "2a", …), "1" for week one or
    "swiss"; ``round`` numbers the matches a team plays within it (pool rounds, Swiss rounds);
    ``stage`` names the week-one pool ("P3"), head-to-head ("H2") or week-two triangle ("T1").
    ``board_nets`` are each board's net score for the home team (optional; 1.9.1 rescoring
    needs them); ``playoffs`` the playoff boards of a tied knock-out match, in order, as
    ``{"home_imps", "away_imps", "boards"}``. ``status``, ``winner`` and ``decided_by`` are the
    engine's answer (:func:`formats.gnot.rules.decide_match`), kept so lists need no re-run.
    """

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="team_matches")
    session = models.CharField(max_length=8)
    round = models.PositiveSmallIntegerField(default=1)
    stage = models.CharField(max_length=8, blank=True)
    table = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=8, choices=MatchKind.choices, default=MatchKind.MATCH)
    home = models.ForeignKey(Team, on_delete=models.RESTRICT, related_name="+")
    away = models.ForeignKey(Team, on_delete=models.RESTRICT, related_name="+")
    boards = models.PositiveSmallIntegerField()
    half = models.CharField(max_length=8, choices=Half.choices, default=Half.FULL)
    # 1.9.3 (final spot): the tie decides a spot in the National or Metropolitan final.
    final_spot = models.BooleanField(default=False)
    home_imps = models.IntegerField(null=True, blank=True)
    away_imps = models.IntegerField(null=True, blank=True)
    board_nets = models.JSONField(default=list, blank=True)
    playoffs = models.JSONField(default=list, blank=True)
    status = models.CharField(
        max_length=16, choices=MatchStatus.choices, default=MatchStatus.SCHEDULED
    )
    winner = models.ForeignKey(
        Team, on_delete=models.RESTRICT, null=True, blank=True, related_name="+"
    )
    decided_by = models.CharField(max_length=20, blank=True)
    playoff_boards = models.PositiveSmallIntegerField(null=True, blank=True)
    playoff_clause = models.CharField(max_length=40, blank=True)
    # Optimistic concurrency: a save names the version it was based on (services).
    version = models.PositiveIntegerField(default=1)

    class Meta:
        db_table = "standings_teammatch"  # kept from before the move (no copy)
        ordering = ["event", "session", "round", "table"]
        constraints = [
            models.CheckConstraint(condition=~Q(home=F("away")), name="team_match_not_self"),
            models.UniqueConstraint(
                fields=["event", "session", "round", "table"], name="team_match_table_unique"
            ),
            models.CheckConstraint(
                condition=Q(session__in=SESSION_CODES), name="team_match_session_valid"
            ),
            models.CheckConstraint(
                condition=Q(kind__in=MatchKind.values), name="team_match_kind_valid"
            ),
            models.CheckConstraint(
                condition=Q(status__in=MatchStatus.values), name="team_match_status_valid"
            ),
            models.CheckConstraint(condition=Q(half__in=Half.values), name="team_match_half_valid"),
            models.CheckConstraint(condition=Q(boards__gte=1), name="team_match_boards_positive"),
            models.CheckConstraint(
                condition=Q(home_imps__isnull=True, away_imps__isnull=True)
                | Q(home_imps__gte=0, away_imps__gte=0),
                name="team_match_imps_both_or_none",
            ),
            models.CheckConstraint(
                condition=Q(winner__isnull=True) | Q(winner=F("home")) | Q(winner=F("away")),
                name="team_match_winner_played",
            ),
            models.CheckConstraint(
                condition=Q(status="scheduled") | Q(home_imps__isnull=False),
                name="team_match_status_needs_imps",
            ),
        ]

    def __str__(self) -> str:
        return f"Session {self.session} round {self.round} table {self.table}"


class TeamMatchSlot(models.Model):
    """One row per (session, round, team) with a match: the database refuses a second.

    Written and deleted only by the services, together with the match it stands for.
    """

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="+")
    session = models.CharField(max_length=8)
    round = models.PositiveSmallIntegerField()
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="+")
    match = models.ForeignKey(TeamMatch, on_delete=models.CASCADE, related_name="slots")

    class Meta:
        db_table = "standings_teammatchslot"  # kept from before the move (no copy)
        constraints = [
            models.UniqueConstraint(
                fields=["event", "session", "round", "team"], name="team_once_per_session_round"
            ),
        ]


class ChoiceKind(models.TextChoices):
    CHOICE = "choice", "Choice of opponents"
    FORFEIT = "forfeit", "Choice forfeited (1.10.6)"
    APPEAL_SWAP = "appeal_swap", "Positions swapped after an appeal (1.10.7)"


class ChoiceRecord(models.Model):
    """A step of a session's choice ceremony, in order (``seq``).

    ``choice``: ``chooser`` took ``chosen`` (``by_director`` after a forfeit, ``by_lot`` when
    the director drew it by lot). ``forfeit``: ``chooser`` had no representative present
    (1.10.6). ``appeal_swap``: an appeal changed a result after the draw; ``chooser`` and
    ``chosen`` swapped positions in this session's draw (1.10.7).
    """

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="gnot_choices")
    session = models.CharField(max_length=8)
    seq = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=12, choices=ChoiceKind.choices)
    chooser = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="+")
    chosen = models.ForeignKey(
        Team, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    by_director = models.BooleanField(default=False)
    by_lot = models.BooleanField(default=False)

    class Meta:
        db_table = "standings_choicerecord"  # kept from before the move (no copy)
        ordering = ["event", "session", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["event", "session", "seq"], name="choice_seq_unique"),
            models.CheckConstraint(
                condition=Q(kind__in=ChoiceKind.values), name="choice_kind_valid"
            ),
            models.CheckConstraint(condition=~Q(chooser=F("chosen")), name="choice_not_self"),
            models.CheckConstraint(
                condition=Q(kind="forfeit", chosen__isnull=True)
                | (~Q(kind="forfeit") & Q(chosen__isnull=False)),
                name="choice_chosen_unless_forfeit",
            ),
        ]


class SwissEntry(models.Model):
    """A team's entry into the Swiss repechage: the round it first plays and its entry score
    (1.8.3; 3.3.3, 3.4.2 for week-two triangles; 3.2.4.1 for the American Whist group), an
    exact fraction written as text."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="swiss_entries")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="+")
    round = models.PositiveSmallIntegerField()
    entry_score = models.CharField(max_length=40, default="0")
    # 1.8.4: the dropper's rank among the teams entering in the same round (1.8.5 pairs by it).
    entry_rank = models.PositiveSmallIntegerField(null=True, blank=True)
    # 3.1.8: the Double Knockout winner playing the Swiss as a non-contending team.
    non_contending = models.BooleanField(default=False)

    class Meta:
        db_table = "standings_swissentry"  # kept from before the move (no copy)
        ordering = ["event", "round", "entry_rank", "team__team_no"]
        constraints = [
            models.UniqueConstraint(fields=["event", "team"], name="swiss_entry_once"),
            models.CheckConstraint(condition=Q(round__gte=1), name="swiss_entry_round_positive"),
        ]


class SwissBye(models.Model):
    """A Swiss round's bye (an odd field, formats.gnot.draw decision 5) and the VPs it scores."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="swiss_byes")
    round = models.PositiveSmallIntegerField()
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="+")
    vps = models.CharField(max_length=40)

    class Meta:
        db_table = "standings_swissbye"  # kept from before the move (no copy)
        ordering = ["event", "round"]
        constraints = [
            models.UniqueConstraint(fields=["event", "round"], name="swiss_bye_once_per_round"),
        ]
