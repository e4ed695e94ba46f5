from __future__ import annotations

from typing import Any

from django.apps import AppConfig

from formats.teams.systems import TEAM_SYSTEMS


def _panel_context(event: Any, role: str | None) -> dict[str, Any]:
    from formats.teams.presenters import panel_context

    return panel_context(event)


# The chess pages a spectator, a QR code or the event page may still lead to, and the team
# page that answers for them (``Format.pages``: the core redirects there).
PAGES = {
    "standings:standings": "teams:standings",
    "standings:explain": "teams:standings",
    "standings:print": "teams:standings_print",
    "standings:print_pdf": "teams:standings_pdf",
    "standings:hall": "teams:hall",
    "events:crosstable": "teams:standings#team-crosstable",
    "events:crosstable_print": "teams:crosstable_print",
    "events:crosstable_pdf": "teams:crosstable_pdf",
    "events:round_detail": "teams:round",
    "events:round_results": "teams:round",
    "draws:print": "teams:round_print",
    "draws:print_pdf": "teams:round_pdf",
    "draws:print_find": "teams:round_print",
    "draws:print_find_pdf": "teams:round_pdf",
}


class TeamsConfig(AppConfig):
    """Chess team events (issue #22): team Swiss (FIDE C.04.6, 2026) and team round robins.

    The pure engines beside this file (``pairing/``, ``berger.py``, ``records.py``,
    ``scoring.py``, ``tiebreaks.py``, ``trf.py``) import no Django; this app stores the event
    and plugs it into the core through the format seam (docs/architecture.md).
    """

    default_auto_field = "django.db.models.BigAutoField"
    name = "formats.teams"
    label = "teams"
    verbose_name = "Chess team events"

    def ready(self) -> None:
        from events.formats import Format, NavLink, format_register
        from formats.teams import awards, exchange, selectors, services

        exchange.register()
        from events.imports import trf_reader_register
        from formats.teams.imports import team_event_import_trf

        trf_reader_register(team_event_import_trf)

        format_register(
            Format(
                code="chess-teams",
                name="Chess team events",
                applies=lambda event: event.system in TEAM_SYSTEMS,
                nav=(
                    NavLink("Teams", "teams:teams"),
                    NavLink("Rounds", "teams:rounds"),
                    NavLink("Team standings", "teams:standings"),
                    NavLink("Board ranking", "teams:boards"),
                    NavLink("Prizes", "prizes:sheet"),
                ),
                team_event=True,
                panel="teams/_event_panel.html",
                panel_context=_panel_context,
                status=selectors.team_status,
                steps=selectors.team_steps,
                complete_rounds=awards.team_complete_rounds,
                close_refusal=awards.team_close_refusal,
                prize_standings=awards.team_prize_standings,
                board_prizes=awards.board_prizes,
                pair_document=services.pair_command,
                standings_document=selectors.standings_document,
                trf_export=selectors.trf_export,
                pages=PAGES,
            )
        )
