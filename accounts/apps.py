from __future__ import annotations

from django.apps import AppConfig


class AccountsConfig(AppConfig):
    """Logging in and passwords: the login throttle's policy, password change, reset links."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "accounts"
