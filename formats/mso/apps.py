from __future__ import annotations

from typing import Any

from django.apps import AppConfig


def _multi_player_panel(event: Any, role: str | None) -> dict[str, Any]:
    return {"multi_player": True, "rounds": range(1, event.rounds + 1)}


def _two_player_panel(event: Any, role: str | None) -> dict[str, Any]:
    from formats.mso.extra_rounds import extra_round_needed

    return {"extra_round_for": extra_round_needed(event) if role == "director" else ()}


def _two_player_steps(event: Any, role: str | None) -> list[Any]:
    """Seed 003 "Perfect Scores": the extra round among the perfect scorers, once due."""
    from django.urls import reverse

    from events.formats import Step
    from formats.mso.extra_rounds import extra_round_needed

    if role != "director" or not extra_round_needed(event):
        return []
    url = reverse("events:event_detail", args=[event.slug]) + "#perfect-scores"
    return [Step("Pair the extra round for the perfect scores", url)]


class MsoConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "formats.mso"
    label = "mso"
    verbose_name = "Mind Sports Olympiad"

    def ready(self) -> None:
        from events.formats import Format, format_register
        from formats.mso import exchange, presets, selectors, services
        from formats.mso.extra_rounds import MSO_PRESETS

        exchange.register()
        undo = dict.fromkeys(services.UNDOABLE_ACTIONS, services.multi_scores_undo)
        # Multi-player games (seed 003 multi-player rules): tables of several players, ranked
        # by the format's own engine; table scores are undone from the audit log.
        format_register(
            Format(
                code="mso-multi-player",
                name="Mind Sports Olympiad, multi-player games",
                applies=lambda event: event.regulation.preset == presets.MSO_MULTI_PLAYER.code,
                panel="mso/_event_panel.html",
                panel_context=_multi_player_panel,
                standings=selectors.standings_of,
                status=selectors.multi_status,
                steps=selectors.multi_steps,
                own_rounds=True,
                complete_rounds=selectors.multi_last_complete_round,
                undo=undo,
                undoable=services.undoable_entries,
                audit_export=services.table_audit_export,
                audit_import=services.table_audit_import,
            )
        )
        # Two-player games (seed 003 two-player rules): ordinary games, plus the extra rounds
        # for several perfect scores.
        format_register(
            Format(
                code="mso-two-player",
                name="Mind Sports Olympiad, two-player games",
                applies=lambda event: event.regulation.preset in MSO_PRESETS,
                panel="mso/_event_panel.html",
                panel_context=_two_player_panel,
                steps=_two_player_steps,
            )
        )
