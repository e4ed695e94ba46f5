from __future__ import annotations

from django.apps import AppConfig


class PlayerPageConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "playerpage"
    verbose_name = "The player's page"

    def ready(self) -> None:
        # The arbiter's queue on the result-entry page and the links on the players page
        # (events.contributions); the policy, links and reports in the exchange format.
        from playerpage import contributions, exchange

        contributions.register()
        exchange.register()
