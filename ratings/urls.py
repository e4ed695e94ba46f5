"""Rating lists (``ratings`` namespace): the lists, and the registration search of an event."""

from __future__ import annotations

from django.urls import path

from ratings import views

app_name = "ratings"

urlpatterns = [
    path("rating-lists/", views.lists, name="lists"),
    path("rating-lists/<int:list_id>/delete/", views.list_delete, name="list_delete"),
    path("e/<slug:slug>/players/rating-list/", views.search, name="search"),
    path("e/<slug:slug>/players/rating-refresh/", views.refresh, name="refresh"),
]
