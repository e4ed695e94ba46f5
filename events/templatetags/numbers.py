"""The template filters for numbers a person reads (:mod:`events.numbers`, issue 20).

``{{ value|points }}`` → ``3½``; ``{{ value|number }}`` → ``1.003`` inside
``<span title="331/330">`` when rounded; ``{{ text|readable }}`` rewrites the exact ratios an
engine wrote into a sentence. They escape what they are given and add markup only around a
number they made.
"""

from __future__ import annotations

from django import template
from django.utils.html import format_html

from events import numbers

register = template.Library()


def _with_title(shown: str, value: object) -> str:
    title = numbers.exact_title(value)
    if not title:
        return shown
    return format_html('<span class="exact" title="{}">{}</span>', title, shown)


@register.filter
def points(value: object) -> str:
    """Points: ``3``, ``3½``; another fraction as a decimal with the exact value as title."""
    return _with_title(numbers.points_text(value), value)


@register.filter
def number(value: object) -> str:
    """A tie-break value or ratio as a decimal, the exact value as title when rounded."""
    return _with_title(numbers.number_text(value), value)


@register.filter
def readable(text: object) -> str:
    return numbers.readable("" if text is None else str(text))


@register.filter
def result(code: object) -> str:
    """A game's result as pages write it: ``½-½``, never ``1/2-1/2``."""
    return numbers.result_text("" if code is None else str(code))


@register.filter
def count(value: object) -> str:
    """A count, its thousands grouped: ``4,004`` players."""
    return numbers.count_text(value)
