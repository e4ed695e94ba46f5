"""``{% cite "gct-2019" "3.3" %}``: a regulation cited by its readers' name
(:func:`events.sources.cite`), so that templates name no document themselves."""

from __future__ import annotations

from django import template

from events import sources

register = template.Library()


@register.simple_tag
def cite(code: str, clause: str = "") -> str:
    return sources.cite(code, clause)
