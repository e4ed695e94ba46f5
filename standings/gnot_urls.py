"""GNOT bridge teams screens, scoped by event (house style 5); included by ``standings.urls``,
so the names live in the ``standings`` namespace (``standings:gnot_session``, …)."""

from __future__ import annotations

from django.urls import path

from standings import gnot_correction_views as corrections
from standings import gnot_views as views

GNOT = "e/<slug:slug>/gnot"
SESSION = f"{GNOT}/sessions/<str:code>"

urlpatterns = [
    path(f"{GNOT}/", views.overview, name="gnot"),
    path(f"{GNOT}/teams/", views.teams, name="gnot_teams"),
    path(f"{GNOT}/matches/<int:match_id>/", views.match_result, name="gnot_match"),
    path(
        f"{GNOT}/matches/<int:match_id>/undo/<int:entry_id>/",
        corrections.match_undo,
        name="gnot_match_undo",
    ),
    path(
        f"{GNOT}/matches/<int:match_id>/final-spot/",
        corrections.final_spot,
        name="gnot_final_spot",
    ),
    path(f"{SESSION}/", views.session, name="gnot_session"),
    path(f"{SESSION}/choice/", views.choice, name="gnot_choice"),
    path(f"{SESSION}/draw/", views.session_draw, name="gnot_session_draw"),
    path(f"{SESSION}/appeal/", views.appeal_swap, name="gnot_appeal"),
    path(f"{GNOT}/swiss/", views.swiss, name="gnot_swiss"),
    path(f"{GNOT}/swiss/pair/", views.swiss_pair, name="gnot_swiss_pair"),
    path(f"{GNOT}/swiss/dko-winner/", views.dko_winner_swiss, name="gnot_dko_winner_swiss"),
    path(f"{GNOT}/qualification/", views.qualification, name="gnot_qualification"),
    path(f"{GNOT}/qualification/decline/", views.decline, name="gnot_decline"),
]
