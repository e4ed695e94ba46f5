from __future__ import annotations

from django.apps import AppConfig


class EventsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "events"

    def ready(self) -> None:
        import config.checks  # noqa: F401  (registers the deployment checks)
