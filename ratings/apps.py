from __future__ import annotations

from django.apps import AppConfig


class RatingsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "ratings"
    verbose_name = "Rating lists"

    def ready(self) -> None:
        # The type-ahead on the players page (events.contributions: registration).
        from ratings import contributions

        contributions.register()
