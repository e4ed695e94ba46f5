"""Shared pieces of the management commands."""

from __future__ import annotations

from django.core.management.base import CommandError

from events.models import Event


def event_or_fail(slug: str) -> Event:
    """The event, or the commands' one-line refusal (design brief §4: exit non-zero, one line)."""
    try:
        return Event.objects.select_related("regulation").get(slug=slug)
    except Event.DoesNotExist as exc:
        raise CommandError(f"no event with the slug {slug!r}") from exc
