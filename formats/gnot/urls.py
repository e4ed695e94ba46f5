"""GNOT bridge teams screens, scoped by event (house style 5), in the ``gnot`` namespace."""

from __future__ import annotations

from django.urls import path

from formats.gnot import correction_views as corrections
from formats.gnot import views

app_name = "gnot"

GNOT = "e/<slug:slug>/gnot"
SESSION = f"{GNOT}/sessions/<str:code>"

urlpatterns = [
    path(f"{GNOT}/", views.overview, name="overview"),
    path(f"{GNOT}/teams/", views.teams, name="teams"),
    path(f"{GNOT}/matches/<int:match_id>/", views.match_result, name="match"),
    path(
        f"{GNOT}/matches/<int:match_id>/undo/<int:entry_id>/",
        corrections.match_undo,
        name="match_undo",
    ),
    path(
        f"{GNOT}/matches/<int:match_id>/final-spot/",
        corrections.final_spot,
        name="final_spot",
    ),
    path(f"{SESSION}/", views.session, name="session"),
    path(f"{SESSION}/choice/", views.choice, name="choice"),
    path(f"{SESSION}/draw/", views.session_draw, name="session_draw"),
    path(f"{SESSION}/appeal/", views.appeal_swap, name="appeal"),
    path(f"{GNOT}/swiss/", views.swiss, name="swiss"),
    path(f"{GNOT}/swiss/pair/", views.swiss_pair, name="swiss_pair"),
    path(f"{GNOT}/swiss/dko-winner/", views.dko_winner_swiss, name="dko_winner_swiss"),
    path(f"{GNOT}/qualification/", views.qualification, name="qualification"),
    path(f"{GNOT}/qualification/decline/", views.decline, name="decline"),
]
