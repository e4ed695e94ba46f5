"""MSO screens (seed 003), scoped by event, in the ``mso`` namespace: a round's multi-player
tables, and the extra round for several perfect scores."""

from __future__ import annotations

from django.urls import path

from formats.mso import views

app_name = "mso"

TABLES = "e/<slug:slug>/tables/<int:number>"

urlpatterns = [
    path(f"{TABLES}/", views.multi_round, name="tables"),
    path(f"{TABLES}/seat/", views.multi_tables_set, name="tables_set"),
    path(f"{TABLES}/games/<int:game_id>/scores/", views.multi_scores, name="scores"),
    path("e/<slug:slug>/extra-round/", views.mso_extra_round, name="extra_round"),
]
