"""Reads: narrow queries that return plain records for the engines and the pages.

A page never runs a query per player: each selector loads what it needs in a fixed number of
queries and does the rest on plain records.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.cache import cache
from django.db.models import Count, Q, QuerySet
from django.http import Http404
from django.urls import reverse

from events.contributions import (
    Step,
    close_refusal,
    next_steps,
    public_blocks,
    status_text,
)
from events.crosstable import RoundProgress, build_crosstable, last_complete
from events.formats import format_of, format_status, format_steps, owns_rounds
from events.models import (
    AuditEntry,
    Bye,
    Event,
    EventAccess,
    EventStatus,
    EventSystem,
    Game,
    Player,
    Role,
    Round,
)
from events.numbers import points_text
from events.records import Crosstable
from events.regulations import EffectiveRegulation, effective


def event_get(slug: str) -> Event:
    try:
        return Event.objects.select_related("regulation").get(slug=slug)
    except Event.DoesNotExist as exc:
        raise Http404("No such event") from exc


def event_list() -> QuerySet[Event]:
    return Event.objects.annotate(player_count=Count("players")).order_by("-start_date", "name")


def user_role(event: Event, user: AbstractBaseUser | AnonymousUser) -> str | None:
    """``"director"``, ``"arbiter"`` or None. Superusers act as directors."""
    if not user.is_authenticated:
        return None
    if user.is_superuser:
        return Role.DIRECTOR
    access = EventAccess.objects.filter(event=event, user=user).values_list("role", flat=True)
    return next(iter(access), None)


def regulation_of(event: Event) -> EffectiveRegulation:
    reg = event.regulation
    return effective(reg.preset, reg.overrides, round_robin=event.is_round_robin)


def rounds_progress(event: Event) -> list[RoundProgress]:
    rows = (
        Round.objects.filter(event=event)
        .annotate(
            n_games=Count("games", distinct=True),
            n_results=Count("games", filter=~Q(games__result=""), distinct=True),
            n_byes=Count("byes", distinct=True),
        )
        .order_by("number")
    )
    return [RoundProgress(r.number, r.n_games, r.n_results, r.n_byes, r.published) for r in rows]


@dataclass(frozen=True)
class LiveRound:
    """A published round with results still missing, after the last complete round: the
    crosstable's totals count its results so far (provisional), the standings do not
    (docs/architecture.md, "Live totals")."""

    number: int
    results: int
    games: int
    complete_through: int


def live_round(event: Event) -> LiveRound | None:
    """The round in progress, if any (one query)."""
    progress = rounds_progress(event)
    complete = last_complete(progress)
    found = next(
        (p for p in progress if p.number > complete and p.published and p.games and p.results),
        None,
    )
    return None if found is None else LiveRound(found.number, found.results, found.games, complete)


def last_complete_round(event: Event) -> int:
    """The last round of the unbroken run of complete rounds, as the event's format counts
    them when it scores its rounds itself (``Format.complete_rounds``)."""
    fmt = format_of(event)
    if fmt is not None and fmt.complete_rounds is not None:
        return fmt.complete_rounds(event)
    return last_complete(rounds_progress(event))


def round_number_or_404(event: Event, number: int) -> int:
    """A round number from a URL: one of the event's rounds, else "not found" (a number past
    the event is no page, and must never reach a loop or a query bounded by it)."""
    if not 1 <= number <= event.rounds:
        raise Http404(f"{event.name} has rounds 1–{event.rounds}")
    return number


def players_list(event: Event) -> QuerySet[Player]:
    """The players page's list, by start number (one query)."""
    return Player.objects.filter(event=event).order_by("start_no")


def player_find(event: Event, start_no: int) -> Player | None:
    return Player.objects.filter(event=event, start_no=start_no).first()


def player_get(event: Event, start_no: int) -> Player:
    player = player_find(event, start_no)
    if player is None:
        raise Http404(f"{event.name} has no player with start number {start_no}")
    return player


def withdrawals(event: Event) -> dict[int, int]:
    """Start number → the round after which the player withdrew, for every withdrawn player
    (one query): the pages mark them wherever they are listed."""
    return dict(
        Player.objects.filter(event=event, withdrawn_after_round__isnull=False).values_list(
            "start_no", "withdrawn_after_round"
        )
    )


def round_games(event: Event, number: int) -> tuple[Round, list[Game], list[Bye]]:
    round_number_or_404(event, number)
    try:
        rnd = Round.objects.get(event=event, number=number)
    except Round.DoesNotExist as exc:
        raise Http404("This round has not been paired yet") from exc
    games = list(Game.objects.filter(round=rnd).select_related("white", "black").order_by("board"))
    byes = list(Bye.objects.filter(round=rnd).select_related("player"))
    return rnd, games, byes


def event_crosstable(
    event: Event,
    *,
    rounds: int | None = None,
    pending_as_unplayed: bool = False,
    published_only: bool = False,
) -> Crosstable:
    """The event as engine records, in three queries whatever its size.

    A game without a result is left out (the player shows as absent, code Z) when
    ``pending_as_unplayed``; standings use complete rounds only, so this never reaches them.
    ``published_only`` leaves out a round under the director's review, its byes included: the
    public pages show nothing of it (issue 19).
    """
    n_rounds = event.rounds if rounds is None else rounds
    players = list(
        Player.objects.filter(event=event)
        .order_by("start_no")
        .values_list(
            "pk",
            "start_no",
            "name",
            "rating",
            "federation",
            "fide_id",
            "title",
            "sex",
            "birth_date",
        )
    )
    # Player ids, not joins on the players table, and the order of the games alone rather
    # than Meta's (which joins the event for nothing) (docs/performance.md, "Standings").
    shown = Q(round__event=event, round__number__lte=n_rounds)
    if published_only:
        shown &= Q(round__published=True)
    games = (
        Game.objects.filter(shown)
        .order_by("round__number", "board")
        .values_list("round__number", "white_id", "black_id", "result", "time_control")
    )
    byes = Bye.objects.filter(shown).values_list("round__number", "player__start_no", "kind")
    return build_crosstable(
        name=event.name,
        rounds=n_rounds,
        start_date=event.start_date,
        round_robin=event.is_round_robin,
        scoring=regulation_of(event).scoring,
        players=players,
        games=games,
        byes=byes,
    )


def player_crosstable(event: Event, player: Player, *, published_only: bool = True) -> Crosstable:
    """:func:`event_crosstable` for one player (issue 21's private page, polled by every
    player): their games and byes and their opponents' rows only, in three small queries; the
    player's entrant is the same as in the whole event's table (the opponents' entrants hold
    only their games against the player)."""
    shown = Q(round__event=event, round__number__lte=event.rounds)
    if published_only:
        shown &= Q(round__published=True)
    games = list(
        Game.objects.filter(shown & (Q(white=player) | Q(black=player)))
        .order_by("round__number", "board")
        .values_list("round__number", "white_id", "black_id", "result", "time_control")
    )
    ids = {player.pk} | {white for _, white, _, _, _ in games} | {b for _, _, b, _, _ in games}
    players = list(
        Player.objects.filter(pk__in=ids)
        .order_by("start_no")
        .values_list(
            "pk",
            "start_no",
            "name",
            "rating",
            "federation",
            "fide_id",
            "title",
            "sex",
            "birth_date",
        )
    )
    byes = Bye.objects.filter(shown, player=player).values_list(
        "round__number", "player__start_no", "kind"
    )
    return build_crosstable(
        name=event.name,
        rounds=event.rounds,
        start_date=event.start_date,
        round_robin=event.is_round_robin,
        scoring=regulation_of(event).scoring,
        players=players,
        games=games,
        byes=byes,
    )


@dataclass(frozen=True)
class CrosstableRow:
    start_no: int
    name: str
    federation: str
    rating: int
    points: Any
    cells: list[str]

    @property
    def points_text(self) -> str:
        return points_text(self.points)


def points_before(event: Event, number: int) -> dict[int, str]:
    """Each player's points before round ``number`` (published rounds), as printed: the
    pairing list shows them beside the names (three queries)."""
    table = event_crosstable(event, rounds=number - 1, published_only=True)
    return {row.start_no: row.points_text for row in crosstable_rows(table)}


def crosstable_rows(crosstable: Crosstable) -> list[CrosstableRow]:
    """Rows for the public crosstable: each cell "12w1" style, as printed crosstables do."""
    rows = []
    for entrant in crosstable.entrants:
        cells = []
        for result in entrant.results:
            symbol = {"=": "½", "H": "½", "D": "½", "W": "1", "L": "0"}.get(
                result.code, result.code
            )
            if result.opponent is None:
                cells.append(
                    {"Z": "–", "H": "½ bye", "F": "1 bye", "U": "1 bye"}.get(result.code, symbol)
                )
            else:
                cells.append(f"{result.opponent}{result.colour}{symbol}")
        points = sum(
            (crosstable.scoring.points(r) for r in entrant.results),
            start=crosstable.scoring.zero_bye * 0,
        )
        rows.append(
            CrosstableRow(
                entrant.start_no, entrant.name, entrant.federation, entrant.rating, points, cells
            )
        )
    return rows


def audit_entries(event: Event, limit: int = 200) -> list[AuditEntry]:
    """The latest entries, newest first, each with ``undoable``: a result change (or a change
    the event's format can undo) that nobody has undone yet."""
    entries = list(
        event.audit_entries.select_related("user", "undone_by", "undoes").order_by("-at", "-id")[
            :limit
        ]
    )
    fmt = format_of(event)
    by_format = [e for e in entries if fmt is not None and e.action in fmt.undo]
    format_ids = fmt.undoable(by_format) if fmt and fmt.undoable and by_format else set()
    for entry in entries:
        own = entry.game_id is not None and entry.action in UNDOABLE_RESULT_ACTIONS
        entry.undoable = entry.undone_by_id is None and (own or entry.pk in format_ids)
    return entries


# A game's result changes that the audit log can undo (events.services.audit_undo).
UNDOABLE_RESULT_ACTIONS = ("result.record", "result.correct")


def games_by_round(event: Event) -> dict[int, list[Game]]:
    by_round: dict[int, list[Game]] = defaultdict(list)
    for game in Game.objects.filter(round__event=event).select_related("round", "white", "black"):
        by_round[game.round.number].append(game)
    return by_round


VERSION_SECONDS = 2


def version_cache_key(slug: str) -> str:
    return f"results-version:{slug}"


def event_version(slug: str) -> int | None:
    """The results version alone, for ETags: from the shared cache, else one indexed query.

    The writes delete the cached value (``events.services.event_version_bump``); the short
    lifetime bounds how stale a value read during a concurrent write can be.
    """
    key = version_cache_key(slug)
    version = cache.get(key)
    if version is None:
        version = Event.objects.filter(slug=slug).values_list("results_version", flat=True).first()
        if version is not None:
            cache.set(key, version, VERSION_SECONDS)
    return version


def event_overview(event: Event, user: AbstractBaseUser | AnonymousUser) -> dict[str, Any]:
    """The event page's context: for the director and arbiters a dashboard (what to do next,
    then the rounds); for everyone else what a spectator wants on one phone screen (the
    current round with live results, then what the apps add: the leaders, the playoff, where
    to go next). A format adds its panel, its status and its next steps through the seam; a
    team event (bridge teams) has no players, rounds or chess prizes."""
    role = user_role(event, user)
    fmt = format_of(event)
    context: dict[str, Any] = {"event": event, "role": role, "format": fmt}
    if fmt is not None and fmt.panel_context is not None:
        context.update(fmt.panel_context(event, role))
    if fmt is not None and fmt.team_event:
        context["status"] = status_label(event, [])
        if role is not None:
            context["steps"] = format_steps(event, role)
        context["can_close"] = (
            role == Role.DIRECTOR
            and event.status != EventStatus.FINISHED
            and fmt.complete_rounds is not None  # the format counts its complete rounds
            and last_complete_round(event) == event.rounds
            and close_refusal(event) is None
        )
        return context
    progress = rounds_progress(event)
    own_rounds = owns_rounds(event)
    context.update(
        regulation=regulation_of(event),
        progress=progress,
        player_count=Player.objects.filter(event=event).count(),
        next_round=len(progress) + 1 if len(progress) < event.rounds and not own_rounds else None,
        rounds=range(1, event.rounds + 1),
        status=status_label(event, progress),
    )
    if role is not None:
        ahead = whats_next(event, role, progress)
        context.update(steps=ahead.steps, can_close=ahead.can_close)
    else:
        context["current"] = current_round(event, progress)
        context["blocks"] = public_blocks(event)
    return context


@dataclass(frozen=True)
class WhatsNext:
    """What the director or an arbiter should do next: the event page's "Next" card and the
    card a result entry page shows once its round is complete."""

    steps: list[Step]
    can_close: bool


def whats_next(event: Event, role: str, progress: Sequence[RoundProgress]) -> WhatsNext:
    """The director gets what the foundation, the event's format and the apps say (register
    the players, pair or publish the next round, a format's own stages, approve the prizes,
    the playoff) and may close the event once ``events.services.event_close`` would accept;
    both get the rounds (or the format's stages) still waiting for results."""
    director = role == Role.DIRECTOR
    own_rounds = owns_rounds(event)
    players = Player.objects.filter(event=event).count() if director else 0
    return WhatsNext(
        steps=[
            *(foundation_steps(event, progress, players) if director else []),
            *format_steps(event, role),
            *(next_steps(event) if director else []),
            *([] if own_rounds else results_steps(event, progress)),
        ],
        can_close=_can_close(event, role, progress),
    )


def _can_close(event: Event, role: str, progress: Sequence[RoundProgress]) -> bool:
    """The close button is offered only when ``events.services.event_close`` would accept."""
    return (
        role == Role.DIRECTOR
        and event.status != EventStatus.FINISHED
        and bool(progress)
        and (last_complete_round(event) if owns_rounds(event) else last_complete(progress))
        == event.rounds
        and close_refusal(event) is None
    )


def status_label(event: Event, progress: Sequence[RoundProgress]) -> str:
    """What is true of the event now: "Final" once the director has closed it, what an app
    says ("Playoff in progress"), what the event's format says of its own stages (through the
    seam), else the core's chess rounds: "Registration", "Round 4 of 9 in progress", "Round 9
    of 9 complete"."""
    if event.status == EventStatus.FINISHED:
        return "Final"
    paired = [p for p in progress if p.games or p.byes]
    said = (status_text(event) if paired else None) or format_status(event)
    if said:
        return said
    if not paired:
        return "Registration"
    unfinished = next((p for p in paired if not p.complete), None)
    if unfinished is not None:
        return f"Round {unfinished.number} of {event.rounds} in progress"
    return f"Round {paired[-1].number} of {event.rounds} complete"


@dataclass(frozen=True)
class CurrentRound:
    """The round a spectator follows, with its boards and results so far."""

    round: Round
    games: list[Game]
    byes: list[Bye]
    progress: RoundProgress


def current_round(event: Event, progress: Sequence[RoundProgress]) -> CurrentRound | None:
    """The latest published round that has games (a round under the director's review is not
    shown), in three queries, or None before round 1 is published. The event page and the
    hall screen show it."""
    shown = [p for p in progress if p.published and p.games]
    if not shown:
        return None
    rnd, games, byes = round_games(event, shown[-1].number)
    return CurrentRound(rnd, games, byes, shown[-1])


def foundation_steps(event: Event, progress: Sequence[RoundProgress], players: int) -> list[Step]:
    """The director's steps no app owns: register the players of an empty event; pair the next
    round of a knock-out (paired by hand, round by round) once the previous one is complete."""
    if event.status == EventStatus.FINISHED:
        return []
    if players == 0:
        return [Step("Register the players", reverse("events:players", args=[event.slug]))]
    if event.system != EventSystem.KNOCKOUT or format_of(event) is not None:
        return []
    paired = [p for p in progress if p.games or p.byes]
    following = len(paired) + 1
    if following > event.rounds or last_complete(progress) < len(paired):
        return []
    url = reverse("events:round_pairings", args=[event.slug, following])
    return [Step(f"Pair round {following}", url)]


def results_steps(event: Event, progress: Sequence[RoundProgress]) -> list[Step]:
    """For the director and arbiters: the rounds with games still waiting for a result."""
    return [
        Step(
            f"Enter round {p.number}'s results: {p.games - p.results} missing",
            reverse("events:round_results", args=[event.slug, p.number]),
        )
        for p in progress
        if p.published and p.games > p.results
    ]


def pairings_text(event: Event, number: int) -> str:
    """The round's current pairings in the pairings form's text format."""
    rnd = Round.objects.filter(event=event, number=number).first()
    if rnd is None:
        return ""
    lines = [
        f"{white} {black}"
        for white, black in Game.objects.filter(round=rnd)
        .order_by("board")
        .values_list("white__start_no", "black__start_no")
    ]
    lines += [
        f"bye {start_no} {kind}"
        for start_no, kind in Bye.objects.filter(round=rnd).values_list("player__start_no", "kind")
    ]
    return "\n".join(lines)


def result_entry_context(
    event: Event,
    number: int,
    only_game: int | None = None,
    *,
    viewer: AbstractBaseUser | AnonymousUser | None = None,
) -> dict[str, Any]:
    """The result entry page of round ``number`` (or, with ``only_game``, one row of it).
    Once every board has its result, ``next`` is what ``viewer`` should do next."""
    rnd, games, byes = round_games(event, number)
    done = sum(1 for g in games if g.result)
    game = next((g for g in games if g.pk == only_game), None)
    first_open = next((g.pk for g in games if not g.result), games[0].pk if games else None)
    role = user_role(event, viewer) if viewer is not None and games and done == len(games) else None
    return {
        "event": event,
        "round": rnd,
        "games": games,
        "game": game,
        "byes": byes,
        "done": done,
        "total": len(games),
        "first_open": first_open,
        "next": whats_next(event, role, rounds_progress(event)) if role else None,
        "result_common": RESULT_BUTTONS[:3],
        "result_rare": RESULT_BUTTONS[3:],
        "rounds": range(1, event.rounds + 1),
    }


# (value, label, keyboard key) for the one-tap buttons: the three common results, then the
# forfeits, which the result entry page keeps one tap further (behind "⋯") on a phone.
RESULT_BUTTONS = (
    ("1-0", "1-0", "1"),
    ("1/2-1/2", "½-½", "="),
    ("0-1", "0-1", "0"),
    ("+/-", "+/−", "+"),
    ("-/+", "−/+", "-"),
    ("-/-", "−/−", "x"),
)


def game_id_in_event(event: Event, game_id: int) -> int:
    """The game id if it belongs to the event; 404 otherwise (no cross-event writes)."""
    if not Game.objects.filter(pk=game_id, round__event=event).exists():
        raise Http404("No such game in this event")
    return game_id


def game_round_number(event: Event, game_id: int) -> int:
    number = (
        Game.objects.filter(pk=game_id, round__event=event)
        .values_list("round__number", flat=True)
        .first()
    )
    if number is None:
        raise Http404("No such game in this event")
    return number


def event_directors(event: Event, *, logins: bool) -> list[str]:
    """The names the event's directors go by, for the people who need to ask them for access:
    their full names; their logins only when ``logins`` (for someone who already works on the
    event). A stranger never learns a login: with the login throttle counting failures per
    login, it would let them lock a director out."""
    users = (
        EventAccess.objects.filter(event=event, role=Role.DIRECTOR)
        .select_related("user")
        .order_by("user__username")
    )
    names = (
        entry.user.get_full_name() or (entry.user.get_username() if logins else "")
        for entry in users
    )
    return [name for name in names if name]


def event_access(event: Event) -> QuerySet[EventAccess]:
    return EventAccess.objects.filter(event=event).select_related("user").order_by("role")
