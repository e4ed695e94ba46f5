"""What the apps above the foundation add to an event's pages, without the foundation knowing
them: links in the event's navigation, the director's next steps, the event's status when it
is theirs to say ("Playoff in progress"), why it cannot be closed yet, blocks on the
spectator's event page, and blocks on the director's players page (ratings: registering from
a rating list; the player's page: the players' links) and on a round's result-entry page (the
player's page: the arbiter's queue).

Each app registers one :class:`Contributor` from its ``AppConfig.ready()`` (standings: the
leaders; draws: the drawing of lots and Swiss pairing; playoffs: the playoff; prizes: the prize
sheet). The foundation calls them in registration order. A contributor answers with nothing
when its part does not apply to the event (a FIDE Swiss has no playoff and, unless someone set
prizes, no prize sheet): pages show only what the event has. Every hook runs a fixed number of
queries, never one per player (design.md §3, "Live pages are cheap").

A format (events.formats) with teams instead of players replaces the chess pages: its events
get no contributed navigation or blocks.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from events.formats import NavLink, Step, format_of
from events.registries import Registry

if TYPE_CHECKING:
    from events.models import Event, Game


@dataclass(frozen=True)
class Block:
    """A region of the spectator's event page: a template and its context, placed by
    ``order`` (the current round's pairings, from the foundation, are at 10)."""

    template: str
    context: dict[str, Any] = field(default_factory=dict)
    order: int = 50
    # On a round's result-entry page: brought again with each save (htmx, out of band, after
    # the saved table row: its forms must name their <form> by id, see events/_step.html).
    live: bool = False


@dataclass(frozen=True)
class Columns:
    """Columns added to a table of players (the players page, the standings, the
    crosstable): their headings, with a title each, and by start number the cells."""

    headings: tuple[tuple[str, str], ...]  # (heading, title)
    cells: Mapping[int, tuple[str, ...]] = field(default_factory=dict)

    def row(self, start_no: int) -> tuple[str, ...]:
        return self.cells.get(start_no) or ("",) * len(self.headings)


@dataclass(frozen=True)
class Contributor:
    code: str
    nav: Callable[[Event], Sequence[NavLink]] | None = None
    steps: Callable[[Event], Sequence[Step]] | None = None
    status: Callable[[Event], str | None] | None = None
    block: Callable[[Event], Block | None] | None = None
    registration: Callable[[Event], Block | None] | None = None
    close_refusal: Callable[[Event], str | None] | None = None
    # Why the event's start numbers can no longer change (a closed list of participants, a
    # drawing of lots name players by them), or None: asked before a start number is edited.
    start_numbers_fixed: Callable[[Event], str | None] | None = None
    # A block on the result-entry page of a round (the player's page: the arbiter's queue).
    results: Callable[[Event, int], Block | None] | None = None
    # A block on a player's private page (issue 21), by start number (the rating report: the
    # player's rating change, performance and what the next game needs for a norm).
    player: Callable[[Event, int], Block | None] | None = None
    # Columns of a table of players (page: one of COLUMN_PAGES; after_round: the round the
    # table shows, None for the latest): the rating report's change and performance.
    columns: Callable[[Event, str, int | None], Columns | None] | None = None
    # Players of the event's rating list by exact FIDE id, for registering by the id alone (a
    # team roster): the list's name and each found id's registration fields, or None when
    # there is no list.
    players_by_id: (
        Callable[[Event, list[str]], tuple[str, dict[str, dict[str, str]]] | None] | None
    ) = None
    # A game's result was recorded or corrected (the game with its new result, and the result
    # before): told inside the same transaction, so that what was built on the old result (a
    # Swiss round paired from it) can say it no longer follows from the results (issue 29).
    result_changed: Callable[[Game, str], None] | None = None


CONTRIBUTORS: Registry[Contributor] = Registry("event page contributor")

# The tables of players that take contributed columns (``Contributor.columns``).
# "wall_chart" is the crosstable printed (page and PDF), where paper is short.
COLUMN_PAGES = ("players", "standings", "crosstable", "wall_chart")


def contributor_register(contributor: Contributor) -> Contributor:
    return CONTRIBUTORS.register(contributor.code, contributor)


def _chess(event: Event) -> bool:
    fmt = format_of(event)
    return fmt is None or not fmt.team_event


def nav_links(event: Event) -> list[NavLink]:
    if not _chess(event):
        return []
    return [link for c in CONTRIBUTORS.values() if c.nav for link in c.nav(event)]


def next_steps(event: Event) -> list[Step]:
    return [step for c in CONTRIBUTORS.values() if c.steps for step in c.steps(event)]


def status_text(event: Event) -> str | None:
    """The first contributor's word on the event's status (the playoff's), if any."""
    for contributor in CONTRIBUTORS.values():
        said = contributor.status(event) if contributor.status else None
        if said:
            return said
    return None


def players_by_fide_id(
    event: Event, ids: list[str]
) -> tuple[str, dict[str, dict[str, str]]] | None:
    """The first contributor's rating list and its players with these FIDE ids, or None when
    no list is there to ask."""
    for contributor in CONTRIBUTORS.values():
        found = contributor.players_by_id(event, ids) if contributor.players_by_id else None
        if found is not None:
            return found
    return None


def close_refusal(event: Event) -> str | None:
    """Why the event cannot be closed yet, in the format's words (a team match card still
    open) or the first contributor's (a playoff still running), or None."""
    fmt = format_of(event)
    said = fmt.close_refusal(event) if fmt is not None and fmt.close_refusal else None
    if said:
        return said
    for contributor in CONTRIBUTORS.values():
        said = contributor.close_refusal(event) if contributor.close_refusal else None
        if said:
            return said
    return None


def public_blocks(event: Event) -> list[Block]:
    if not _chess(event):
        return []
    found = [c.block(event) for c in CONTRIBUTORS.values() if c.block]
    return sorted((b for b in found if b is not None), key=lambda b: b.order)


def registration_blocks(event: Event) -> list[Block]:
    """Blocks for the players page, beside the form that registers one player."""
    found = [c.registration(event) for c in CONTRIBUTORS.values() if c.registration]
    return sorted((b for b in found if b is not None), key=lambda b: b.order)


def start_numbers_fixed(event: Event) -> str | None:
    """The first contributor's reason why the start numbers are fixed, if any."""
    for contributor in CONTRIBUTORS.values():
        reason = contributor.start_numbers_fixed(event) if contributor.start_numbers_fixed else None
        if reason:
            return reason
    return None


def player_blocks(event: Event, start_no: int) -> list[Block]:
    """Blocks for the private page of player ``start_no``, under their results."""
    found = [c.player(event, start_no) for c in CONTRIBUTORS.values() if c.player]
    return sorted((b for b in found if b is not None), key=lambda b: b.order)


def player_columns(event: Event, page: str, after_round: int | None = None) -> Columns:
    """Every contributor's columns for a table of players, side by side."""
    found = [c.columns(event, page, after_round) for c in CONTRIBUTORS.values() if c.columns]
    parts = [columns for columns in found if columns is not None]
    if len(parts) == 1:
        return parts[0]
    starts = {start_no for columns in parts for start_no in columns.cells}
    return Columns(
        tuple(heading for columns in parts for heading in columns.headings),
        {n: tuple(cell for columns in parts for cell in columns.row(n)) for n in starts},
    )


def result_changed(game: Game, before: str) -> None:
    """Tell every contributor that ``game``'s result changed from ``before``."""
    for contributor in CONTRIBUTORS.values():
        if contributor.result_changed:
            contributor.result_changed(game, before)


def results_blocks(event: Event, number: int) -> list[Block]:
    """Blocks for the result-entry page of round ``number``, above the boards."""
    found = [c.results(event, number) for c in CONTRIBUTORS.values() if c.results]
    return sorted((b for b in found if b is not None), key=lambda b: b.order)
