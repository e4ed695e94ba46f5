"""Playoff screens, scoped by event (house style 5)."""

from __future__ import annotations

from django.urls import path

from playoffs import views

app_name = "playoffs"

GAME = "e/<slug:slug>/playoff/stages/<int:stage>/games/<int:game>"

urlpatterns = [
    path("e/<slug:slug>/playoff/", views.playoff_public, name="playoff"),
    path("e/<slug:slug>/playoff/proposal/", views.playoff_proposal, name="proposal"),
    path("e/<slug:slug>/playoff/manage/", views.playoff_manage, name="manage"),
    path("e/<slug:slug>/playoff/confirm/", views.playoff_confirm, name="confirm"),
    path("e/<slug:slug>/playoff/decision/", views.arbiter_decision, name="decision"),
    path("e/<slug:slug>/playoff/reset/", views.playoff_reset, name="reset"),
    path("e/<slug:slug>/playoff/undo/<int:entry_id>/", views.playoff_undo, name="undo"),
    path(f"{GAME}/result/", views.playoff_game_result, name="game_result"),
    path(f"{GAME}/toss/", views.coin_toss, name="coin_toss"),
]
