from __future__ import annotations

from django.apps import AppConfig


class FideRatingConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "fiderating"
    verbose_name = "FIDE rating report and title norms"

    def ready(self) -> None:
        # The Rating link (events.contributions); the K set by hand and the norm conditions
        # in the exchange format.
        from fiderating import contributions, exchange

        contributions.register()
        exchange.register()
