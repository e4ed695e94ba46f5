"""The one page of this app that Django does not provide."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe


@require_safe
def password_reset(request: HttpRequest) -> HttpResponse:
    """Forgotten passwords: the site sends no e-mail, so the page says who issues a reset link
    and how (``manage.py password_reset_link USERNAME``)."""
    return render(request, "registration/password_reset.html")
