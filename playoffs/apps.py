from __future__ import annotations

from django.apps import AppConfig


class PlayoffsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "playoffs"

    def ready(self) -> None:
        from playoffs import backup, contributions, exchange

        exchange.register()
        backup.register()
        contributions.register()
