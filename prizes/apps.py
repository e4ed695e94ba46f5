from __future__ import annotations

from django.apps import AppConfig


class PrizesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "prizes"

    def ready(self) -> None:
        from prizes import backup, contributions, exchange

        exchange.register()
        backup.register()
        contributions.register()
