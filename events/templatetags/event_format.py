"""``{% event_format event as fmt %}``, ``{% event_links event as links %}`` and
``{% event_registration event as blocks %}`` (and ``{% event_results event number as
blocks %}`` for a round's result-entry page; ``{% event_columns event PAGE as columns %}``
and ``{% column_cells columns start_no as cells %}`` for a table of players): the event's
format (the seam, :mod:`events.formats`), the links of its navigation (what the apps contribute,
:mod:`events.contributions`, then the format's own) and the blocks the apps add to the players
page, so that shared templates show only what the event has without naming any app."""

from __future__ import annotations

from django import template

from events.contributions import (
    Block,
    Columns,
    nav_links,
    player_columns,
    registration_blocks,
    results_blocks,
)
from events.formats import Format, NavLink, format_of
from events.models import Event
from events.regulations import preset_label

register = template.Library()


@register.filter
def preset(code: str) -> str:
    """A regulation preset with its description: "FIDE (C.07, 2024 edition) · fide-2024"."""
    return preset_label(code)


@register.simple_tag
def event_format(event: Event) -> Format | None:
    return format_of(event)


@register.simple_tag
def event_links(event: Event) -> list[NavLink]:
    fmt = format_of(event)
    return [*nav_links(event), *(fmt.nav if fmt is not None else ())]


@register.simple_tag
def event_registration(event: Event) -> list[Block]:
    return registration_blocks(event)


@register.simple_tag
def event_results(event: Event, number: int) -> list[Block]:
    return results_blocks(event, number)


@register.simple_tag
def event_columns(event: Event, page: str, after_round: int | None = None) -> Columns:
    """The columns the apps add to a table of players (events.contributions)."""
    return player_columns(event, page, after_round)


@register.simple_tag
def column_cells(columns: Columns, start_no: int) -> tuple[str, ...]:
    return columns.row(start_no)
