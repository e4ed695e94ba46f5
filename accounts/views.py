"""The pages of this app that Django does not provide as they are needed here."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from accounts.forms import ThrottledPasswordChangeForm


@require_safe
def password_reset(request: HttpRequest) -> HttpResponse:
    """Forgotten passwords: the site sends no e-mail, so the page says who issues a reset link
    and how (``manage.py password_reset_link USERNAME``)."""
    return render(request, "registration/password_reset.html")


class PasswordChangeView(auth_views.PasswordChangeView):
    """Django's view with the throttled form (``accounts.forms``)."""

    form_class = ThrottledPasswordChangeForm

    def get_form_kwargs(self) -> dict[str, Any]:
        return {**super().get_form_kwargs(), "request": self.request}
