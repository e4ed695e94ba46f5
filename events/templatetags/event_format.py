"""``{% event_format event as fmt %}``: the event's format (the seam, :mod:`events.formats`), so
that shared templates show the links and panels the format adds without naming any format."""

from __future__ import annotations

from django import template

from events.formats import Format, format_of
from events.models import Event

register = template.Library()


@register.simple_tag
def event_format(event: Event) -> Format | None:
    return format_of(event)
