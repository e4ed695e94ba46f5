from __future__ import annotations

from django.urls import path

from standings import cohen_urls, gnot_urls, multiplayer_urls, views

app_name = "standings"

urlpatterns = [
    path("e/<slug:slug>/standings/", views.standings, name="standings"),
    path("e/<slug:slug>/standings/explain/", views.explain, name="explain"),
]

# GNOT bridge teams (seed 004)
urlpatterns += gnot_urls.urlpatterns

# Cohen Chess stages (seed 002) and MSO multi-player tables (seed 003)
urlpatterns += cohen_urls.urlpatterns + multiplayer_urls.urlpatterns
