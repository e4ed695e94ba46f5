from __future__ import annotations

from django.urls import path

from standings import views

app_name = "standings"

urlpatterns = [
    path("e/<slug:slug>/standings/", views.standings, name="standings"),
    path("e/<slug:slug>/standings/explain/", views.explain, name="explain"),
]
