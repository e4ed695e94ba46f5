"""Absolute links to the site's pages: the QR codes and "Live results" addresses on printed
sheets and the hall screen, the password reset links.

Built from the configured public address (``settings.SITE_URL``), never from the request's
``Host`` header: those pages are cached and shared by every visitor, so one request with a
forged Host would otherwise put its address in front of everyone (issue 19).
"""

from __future__ import annotations

from django.conf import settings
from django.urls import reverse


def absolute_url(path: str) -> str:
    """``path`` (as ``reverse`` gives it, with its leading slash) on the public address."""
    return f"{settings.SITE_URL}{path}"


def event_page_url(slug: str) -> str:
    """The absolute address of the event's public page."""
    return absolute_url(reverse("events:event_detail", args=[slug]))
