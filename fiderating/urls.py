"""The rating report (``fiderating`` namespace), scoped by event."""

from __future__ import annotations

from django.urls import path

from fiderating import views

app_name = "fiderating"

urlpatterns = [
    path("e/<slug:slug>/rating/", views.report, name="report"),
    path(
        "e/<slug:slug>/rating/report.<str:fmt>",
        views.report_download,
        name="report_download",
    ),
    path("e/<slug:slug>/rating/players/<int:start_no>/", views.player, name="player"),
    path("e/<slug:slug>/rating/manage/", views.manage, name="manage"),
    path("e/<slug:slug>/rating/manage/k/<int:start_no>/", views.k_set, name="k_set"),
    path("e/<slug:slug>/rating/manage/conditions/", views.conditions, name="conditions"),
    path("e/<slug:slug>/rating/manage/k-from-list/", views.k_from_list, name="k_from_list"),
    path(
        "e/<slug:slug>/rating/players/<int:start_no>/certificate/<str:title>.pdf",
        views.certificate,
        name="certificate",
    ),
]
