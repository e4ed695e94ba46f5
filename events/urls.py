from __future__ import annotations

from django.urls import path

from events import views

app_name = "events"

urlpatterns = [
    path("", views.event_list, name="event_list"),
    path("events/new/", views.event_create, name="event_create"),
    path("events/import/", views.event_import, name="event_import"),
    path("e/<slug:slug>/", views.event_detail, name="event_detail"),
    path("e/<slug:slug>/edit/", views.event_edit, name="event_edit"),
    path(
        "e/<slug:slug>/import-notes/dismiss/",
        views.import_notes_dismiss,
        name="import_notes_dismiss",
    ),
    path("e/<slug:slug>/close/", views.event_close, name="event_close"),
    path("e/<slug:slug>/players/", views.players, name="players"),
    path("e/<slug:slug>/players/<int:start_no>/", views.player_edit, name="player_edit"),
    path(
        "e/<slug:slug>/players/<int:start_no>/delete/",
        views.player_delete,
        name="player_delete",
    ),
    path("e/<slug:slug>/crosstable/", views.crosstable, name="crosstable"),
    path("e/<slug:slug>/crosstable/print/", views.crosstable_print, name="crosstable_print"),
    path("e/<slug:slug>/crosstable/print.pdf", views.crosstable_pdf, name="crosstable_pdf"),
    path("e/<slug:slug>/rounds/<int:number>/", views.round_detail, name="round_detail"),
    path(
        "e/<slug:slug>/rounds/<int:number>/pairings/", views.round_pairings, name="round_pairings"
    ),
    path("e/<slug:slug>/rounds/<int:number>/results/", views.round_results, name="round_results"),
    path("e/<slug:slug>/games/<int:game_id>/result/", views.game_result, name="game_result"),
    path("e/<slug:slug>/audit/", views.audit_log, name="audit_log"),
    path("e/<slug:slug>/audit/<int:entry_id>/undo/", views.audit_undo, name="audit_undo"),
    path("e/<slug:slug>/access/", views.access, name="access"),
    path("e/<slug:slug>/export.json", views.export_json, name="export_json"),
    path("e/<slug:slug>/export.trf", views.export_trf, name="export_trf"),
]
