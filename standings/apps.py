from __future__ import annotations

from django.apps import AppConfig


class StandingsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "standings"

    def ready(self) -> None:
        # The core presets and the tie-break catalogue's check of codes, for the foundation's
        # regulation sets (events.regulations).
        import standings.catalogue  # noqa: F401
        import standings.presets  # noqa: F401
        from standings import contributions

        contributions.register()
