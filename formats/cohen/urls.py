"""Cohen Chess stage screens (seed 002), scoped by event, in the ``cohen`` namespace."""

from __future__ import annotations

from django.urls import path

from formats.cohen import views

app_name = "cohen"

urlpatterns = [
    path("e/<slug:slug>/cohen/", views.cohen_stages, name="stages"),
    path("e/<slug:slug>/cohen/start/", views.cohen_start, name="start"),
    path("e/<slug:slug>/cohen/<slug:stage>/advance/", views.cohen_advance, name="advance"),
]
