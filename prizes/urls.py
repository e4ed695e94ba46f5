"""Prize sheet and tour series URLs: event-scoped under ``e/<slug>/prizes/`` (house style 5)."""

from __future__ import annotations

from django.urls import path, register_converter

from prizes import views


class FormatConverter:
    regex = "csv|xlsx|pdf|json"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(FormatConverter, "sheetformat")

app_name = "prizes"

urlpatterns = [
    path("e/<slug:slug>/prizes/", views.prize_sheet, name="sheet"),
    path("e/<slug:slug>/prizes/setup/", views.prize_setup, name="setup"),
    path(
        "e/<slug:slug>/prizes/categories/<slug:code>/delete/",
        views.category_delete,
        name="category_delete",
    ),
    path("e/<slug:slug>/prizes/approve/", views.approve, name="approve"),
    path("e/<slug:slug>/prizes/sheet.<sheetformat:fmt>", views.sheet_download, name="download"),
    path(
        "e/<slug:slug>/prizes/draft.<sheetformat:fmt>",
        views.draft_download,
        name="draft_download",
    ),
    path("series/", views.series_list, name="series_list"),
    path("series/new/", views.series_create, name="series_create"),
    path("series/<slug:slug>/", views.series_detail, name="series_detail"),
    path("series/<slug:slug>/edit/", views.series_edit, name="series_edit"),
]
