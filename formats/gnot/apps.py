from __future__ import annotations

from typing import Any

from django.apps import AppConfig


def _panel_context(event: Any, role: str | None) -> dict[str, Any]:
    return {"team_count": event.teams.count()}


class GnotConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "formats.gnot"
    label = "gnot"
    verbose_name = "GNOT bridge teams"

    def ready(self) -> None:
        from events.formats import Format, NavLink, format_register
        from formats.gnot import backup, exchange, presets, selectors  # noqa: F401

        exchange.register()
        format_register(
            Format(
                code="gnot",
                name="GNOT bridge teams",
                applies=lambda event: event.system == "gnot",
                nav=(
                    NavLink("Pools and knock-outs", "gnot:overview"),
                    NavLink("Swiss", "gnot:swiss"),
                    NavLink("Qualification", "gnot:qualification"),
                ),
                team_event=True,
                status=selectors.gnot_status,
                steps=selectors.gnot_steps,
                own_rounds=True,
                panel="gnot/_event_panel.html",
                panel_context=_panel_context,
                audit_export=backup.match_audit_export,
                audit_import=backup.match_audit_import,
            )
        )
