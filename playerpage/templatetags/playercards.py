"""``{% card_qr url %}``: a player card's QR code, inline SVG (events.qr)."""

from __future__ import annotations

from django import template
from django.utils.safestring import SafeString

from events.qr import qr_svg

register = template.Library()


@register.simple_tag
def card_qr(url: str) -> SafeString:
    return qr_svg(url, title="QR code of your private page")
