"""Chess team event screens (issue #22), scoped by event, in the ``teams`` namespace."""

from __future__ import annotations

from django.urls import path

from formats.teams import views

app_name = "teams"

BASE = "e/<slug:slug>/team"
ROUND = f"{BASE}/rounds/<int:number>"

urlpatterns = [
    path(f"{BASE}s/", views.teams, name="teams"),
    path(f"{BASE}s/register/", views.team_register, name="register"),
    path(f"{BASE}s/<int:team_no>/", views.team_page, name="team"),
    path(f"{BASE}s/settings/", views.team_settings, name="settings"),
    path(f"{BASE}s/numbers/", views.team_numbers, name="numbers"),
    path(f"{BASE}s/adjustments/", views.team_adjustment, name="adjustment"),
    path(f"{BASE}s/byes/", views.team_bye, name="bye"),
    path(f"{BASE}/rounds/", views.rounds, name="rounds"),
    path(f"{ROUND}/", views.round_page, name="round"),
    path(f"{ROUND}/pair/", views.round_pair, name="pair"),
    path(f"{ROUND}/publish/", views.round_publish, name="publish"),
    path(f"{ROUND}/discard/", views.round_discard, name="discard"),
    path(f"{ROUND}/lineup/", views.lineup, name="lineup"),
    path(f"{ROUND}/lineup-deadline/", views.lineup_deadline, name="lineup_deadline"),
    path(f"{ROUND}/matches/<int:match_id>/card/", views.match_card, name="card"),
    path(f"{BASE}/games/<int:game_id>/result/", views.board_result, name="board_result"),
    path(f"{BASE}/standings/", views.standings, name="standings"),
    path(f"{BASE}/boards/", views.boards, name="boards"),
    path(f"{BASE}/hall/", views.hall, name="hall"),
    path(f"{ROUND}/print/", views.sheet_print, {"sheet": "round"}, name="round_print"),
    path(f"{ROUND}/print.pdf", views.sheet_file, {"sheet": "round"}, name="round_pdf"),
]
for sheet in ("standings", "crosstable", "boards"):
    urlpatterns += [
        path(f"{BASE}/{sheet}/print/", views.sheet_print, {"sheet": sheet}, name=f"{sheet}_print"),
        path(f"{BASE}/{sheet}/print.pdf", views.sheet_file, {"sheet": sheet}, name=f"{sheet}_pdf"),
    ]
