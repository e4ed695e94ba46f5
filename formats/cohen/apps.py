from __future__ import annotations

from typing import Any

from django.apps import AppConfig


def _panel_context(event: Any, role: str | None) -> dict[str, Any]:
    return {}


class CohenConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "formats.cohen"
    label = "cohen"
    verbose_name = "Cohen Chess"

    def ready(self) -> None:
        from events.formats import Format, NavLink, format_register
        from formats.cohen import backup, exchange, playoff, presets, selectors  # noqa: F401

        exchange.register()
        backup.register()
        format_register(
            Format(
                code="cohen",
                name="Cohen Chess club format",
                applies=lambda event: event.system == "cohen",
                nav=(NavLink("Stages", "cohen:stages"),),
                panel="cohen/_event_panel.html",
                panel_context=_panel_context,
                final_table=selectors.cohen_final_table,
                playoff_tie=selectors.cohen_final_four_tie,
                playoff_in_final_table=True,
                status=selectors.cohen_status,
                steps=selectors.cohen_steps,
            )
        )
