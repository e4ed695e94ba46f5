from __future__ import annotations

from django.apps import AppConfig


class DrawsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "draws"

    def ready(self) -> None:
        from draws import ceremony_exchange, contributions
        from draws.swiss import exchange, trf_import

        exchange.register()
        trf_import.register()
        ceremony_exchange.register()
        contributions.register()
