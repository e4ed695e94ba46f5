from __future__ import annotations

from django.urls import path

from standings import views

app_name = "standings"

urlpatterns = [
    path("e/<slug:slug>/standings/", views.standings, name="standings"),
    path("e/<slug:slug>/standings/explain/", views.explain, name="explain"),
    path("e/<slug:slug>/standings/print/", views.standings_print, name="print"),
    path("e/<slug:slug>/standings/print.pdf", views.standings_print_pdf, name="print_pdf"),
    path("e/<slug:slug>/hall/", views.hall, name="hall"),
]
