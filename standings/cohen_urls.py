"""Cohen Chess stage screens (seed 002), scoped by event; included by ``standings.urls``."""

from __future__ import annotations

from django.urls import path

from standings import cohen_views

urlpatterns = [
    path("e/<slug:slug>/cohen/", cohen_views.cohen_stages, name="cohen"),
    path("e/<slug:slug>/cohen/start/", cohen_views.cohen_start, name="cohen_start"),
    path(
        "e/<slug:slug>/cohen/<slug:stage>/advance/",
        cohen_views.cohen_advance,
        name="cohen_advance",
    ),
]
