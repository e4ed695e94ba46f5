"""The drawing of lots, scoped by event (house style 5)."""

from __future__ import annotations

from django.urls import path

from draws import views

app_name = "draws"

urlpatterns = [
    path("e/<slug:slug>/draw/", views.draw_public, name="draw_public"),
    path("e/<slug:slug>/draw/ceremony/", views.ceremony, name="ceremony"),
    path("e/<slug:slug>/draw/ceremony/entry/", views.entry_record, name="entry_record"),
    path("e/<slug:slug>/draw/ceremony/computer/", views.computer_draw, name="computer_draw"),
    path("e/<slug:slug>/draw/ceremony/reset/", views.reset, name="reset"),
    path("e/<slug:slug>/draw/ceremony/schedule/", views.schedule_create, name="schedule_create"),
]
