"""The QR code of an event's public page, for the printed pairing list and the hall screen.

Drawn on the server by segno as inline SVG: no script, no request for an image, and nothing
the content security policy has to allow (the SVG draws with presentation attributes, not
``style``). The PDF sheets draw the same code with ReportLab (``events.pdf.qr_drawing``).
"""

from __future__ import annotations

import io
from dataclasses import dataclass

import segno
from django.utils.safestring import SafeString, mark_safe

from events.links import event_page_url


@dataclass(frozen=True)
class PageCode:
    url: str
    svg: SafeString


def qr_svg(url: str, *, title: str) -> SafeString:
    """``url`` as an SVG QR code with medium error correction and a white quiet zone of two
    modules (the standard four waste a printed corner; phones read two on a white ground).
    The SVG has no size of its own: the stylesheet gives it one."""
    out = io.BytesIO()
    segno.make(url, error="m").save(
        out,
        kind="svg",
        xmldecl=False,
        svgns=True,
        svgclass="qr",
        lineclass=None,
        omitsize=True,
        border=2,
        dark="#000",
        light="#fff",
        title=title,
    )
    # segno escapes the title and writes nothing but the path of the code.
    return mark_safe(out.getvalue().decode())


def event_page_code(slug: str) -> PageCode:
    """The absolute address of the event's public page (from ``SITE_URL``, not the request's
    Host: the pages that show it are cached for every visitor) and its QR code."""
    url = event_page_url(slug)
    return PageCode(url, qr_svg(url, title=f"QR code: {url}"))
