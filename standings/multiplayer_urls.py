"""MSO multi-player table screens (seed 003), scoped by event; included by ``standings.urls``."""

from __future__ import annotations

from django.urls import path

from standings import multiplayer_views

urlpatterns = [
    path(
        "e/<slug:slug>/tables/<int:number>/",
        multiplayer_views.multi_round,
        name="multi_round",
    ),
    path(
        "e/<slug:slug>/tables/<int:number>/seat/",
        multiplayer_views.multi_tables_set,
        name="multi_tables_set",
    ),
    path(
        "e/<slug:slug>/tables/<int:number>/games/<int:game_id>/scores/",
        multiplayer_views.multi_scores,
        name="multi_scores",
    ),
]
