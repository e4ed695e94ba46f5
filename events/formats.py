"""The seam: how a competition format with its own models and screens plugs into the core.

A format app (``formats/gnot``, ``formats/cohen``, ``formats/mso``) registers one
:class:`Format` from its ``AppConfig.ready()``. The core apps never import a format app; they
ask :func:`format_of` for the event's format and call the hooks it offers. Every hook is
optional: a format supplies only what differs from an ordinary chess event.

The contract, hook by hook (docs/architecture.md, "The format seam"):

``applies(event)``
    True for the events this format runs (by system or regulation preset). Formats are
    exclusive: at most one applies to an event.
``nav``
    Links the format adds to the event's navigation (label, URL name; reversed with the slug).
``team_event``
    The event has teams, not players: the chess pages (standings, crosstable, rounds, playoff,
    prizes) do not apply, and the format's pages replace them.
``panel`` / ``panel_context(event, role)``
    A template included on the event page, and the context it needs.
``standings(event, *, after_round, codes, edition)``
    The event's standings table when the plain ranking engine does not rank it.
``final_table(event, table)``
    Adjusts the plain engine's table once the format's own final places exist.
``playoff_tie(event)``
    The players tied for the format's playoff (when it is not simply first place), and
    ``playoff_in_final_table``: the final places already contain the playoff's outcome.
``status(event)``
    What is true of the event now, in the format's own words ("Session 3 (Double KO): 2 of 4
    matches decided"), when its stages are not the core's chess rounds; None leaves it to the
    core ("Round 4 of 9 in progress").
``steps(event, role)``
    What the director (or an arbiter, ``role``) should do next in the format's own stages, as
    :class:`Step` links, for the event page's "Next" card.
``own_rounds``
    The format seats and scores its rounds itself (multi-player tables, bridge matches): the
    core's "Pair round N" and "Enter round N's results" do not apply to its events.
``complete_rounds(event)``
    With ``own_rounds``: the last round of the unbroken run of complete rounds, as the format
    counts them (every seat of every table scored), for the core's ``last_complete_round``
    (prizes, closing the event).
``undo`` / ``undoable(entries)``
    Audit actions this format can undo from the audit log: action → ``undo(event=, entry=,
    user=)`` returning the new audit entry; ``undoable`` says which of the given entries (of
    those actions, not undone yet) can still be undone, as a set of ids, in one query.
``pair_document(event, *, round_no, dry_run, publish)``
    ``manage.py pair`` for the format's events: pairs (or with ``dry_run`` only computes) the
    round and returns the command's JSON document (a team Swiss's shape, design brief §4).
``standings_document(event, *, after_round, codes)``
    ``manage.py standings --format json`` for the format's events (team rows: ``team_no``).
``trf_export(event)``
    ``manage.py export_trf`` for the format's events (a TRF-2026 team file).
``close_refusal(event)``
    Why the event cannot be closed yet in the format's own terms (a match card still open), or
    None; the core refuses a chess game without a result itself.
``prize_standings(event)``
    The final ranking the prize sheet splits the place prizes over, as standings rows, when it
    is not the players' standings (a team event's teams: the team number in ``start_no``).
``board_prizes(event, settings)``
    Prizes the format pays besides the places (a team event's board prizes), as the prize
    sheet's ``board_prizes`` key: a list of boards, each with its winners' rows.
``pages``
    The format's own public pages in place of the core's, by the core page's URL name
    (``{"standings:hall": "teams:hall"}``; a ``#fragment`` may follow the format's name): the
    core page answers with a redirect there (:func:`format_page_redirect`), its query string
    and URL arguments kept, so every address people were given (the hall screen's, the
    standings', a printed QR code's) shows the format's page.
``audit_export(event)`` / ``audit_import(event, entries)``
    Extra keys a backup carries for the format's audit entries: ``audit_export`` returns them
    by entry id; ``audit_import`` gets (index, new entry, backed-up record) for every restored
    entry and restores the links, raising :class:`~events.errors.ImportFailed` naming
    ``audit[index].key`` for a link that points nowhere.

Exchange-format keys are registered separately, by every app that has some, as sections of
:mod:`events.exchange`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from events.registries import Registry

if TYPE_CHECKING:
    from django.http import HttpRequest, HttpResponse

    from events.models import AuditEntry, Event


@dataclass(frozen=True)
class NavLink:
    label: str
    url_name: str


@dataclass(frozen=True)
class Step:
    """Something the director should do next, with where to do it. ``post``: the step is done
    right there, by a button that posts to this address (pair the next round), with ``url``
    a link to where it can be done with options, named ``more``."""

    text: str
    url: str
    post: str = ""
    more: str = ""


@dataclass(frozen=True)
class Format:
    code: str
    name: str
    applies: Callable[[Event], bool]
    nav: tuple[NavLink, ...] = ()
    team_event: bool = False
    panel: str = ""
    panel_context: Callable[[Event, str | None], dict[str, Any]] | None = None
    standings: Callable[..., Any] | None = None
    final_table: Callable[[Event, Any], Any] | None = None
    playoff_tie: Callable[[Event], tuple[int, ...]] | None = None
    playoff_in_final_table: bool = False
    status: Callable[[Event], str | None] | None = None
    steps: Callable[[Event, str | None], Sequence[Step]] | None = None
    own_rounds: bool = False
    complete_rounds: Callable[[Event], int] | None = None
    undo: Mapping[str, Callable[..., AuditEntry]] = field(default_factory=dict)
    undoable: Callable[[list[AuditEntry]], set[int]] | None = None
    pair_document: Callable[..., dict[str, Any]] | None = None
    standings_document: Callable[..., dict[str, Any]] | None = None
    trf_export: Callable[[Event], str] | None = None
    close_refusal: Callable[[Event], str | None] | None = None
    prize_standings: Callable[[Event], Sequence[Any]] | None = None
    board_prizes: Callable[[Event, Any], list[dict[str, Any]]] | None = None
    pages: Mapping[str, str] = field(default_factory=dict)
    audit_export: Callable[[Event], dict[int, dict[str, Any]]] | None = None
    audit_import: (
        Callable[[Event, list[tuple[int, AuditEntry, Mapping[str, Any]]]], None] | None
    ) = None


FORMATS: Registry[Format] = Registry("format")


def format_register(fmt: Format) -> Format:
    return FORMATS.register(fmt.code, fmt)


def format_of(event: Event) -> Format | None:
    """The format that runs ``event``, or None for an ordinary chess event."""
    for fmt in FORMATS.values():
        if fmt.applies(event):
            return fmt
    return None


def format_status(event: Event) -> str | None:
    """The format's word on the event's status, if it has one."""
    fmt = format_of(event)
    return fmt.status(event) if fmt is not None and fmt.status is not None else None


def format_steps(event: Event, role: str | None) -> list[Step]:
    """The format's next steps for ``role`` (none for an ordinary chess event)."""
    fmt = format_of(event)
    return list(fmt.steps(event, role)) if fmt is not None and fmt.steps is not None else []


def owns_rounds(event: Event) -> bool:
    """The event's format seats and scores its rounds itself (``Format.own_rounds``)."""
    fmt = format_of(event)
    return fmt is not None and fmt.own_rounds


def undo_handler(event: Event, action: str) -> Callable[..., AuditEntry] | None:
    """The format's undo for an audit action, if the event's format has one."""
    fmt = format_of(event)
    return None if fmt is None else fmt.undo.get(action)


def format_page_redirect(request: HttpRequest, event: Event) -> HttpResponse | None:
    """The redirect to the format's page that replaces the requested core page for this event
    (``Format.pages``, by the URL name the request resolved to), with the same URL arguments
    and query string; None when the core page applies."""
    from django.http import HttpResponseRedirect
    from django.urls import reverse

    fmt, match = format_of(event), request.resolver_match
    target = None if fmt is None or match is None else fmt.pages.get(match.view_name)
    if target is None or match is None:
        return None
    name, _, fragment = target.partition("#")
    query = request.GET.urlencode()
    url = reverse(name, kwargs=match.kwargs) + (f"?{query}" if query else "")
    return HttpResponseRedirect(url + (f"#{fragment}" if fragment else ""))
