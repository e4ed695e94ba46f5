"""The drawing of lots, scoped by event (house style 5)."""

from __future__ import annotations

from django.urls import path

from draws import views
from draws.swiss import views as swiss_views

app_name = "draws"

urlpatterns = [
    path("e/<slug:slug>/draw/", views.draw_public, name="draw_public"),
    path("e/<slug:slug>/draw/ceremony/", views.ceremony, name="ceremony"),
    path("e/<slug:slug>/draw/ceremony/entry/", views.entry_record, name="entry_record"),
    path("e/<slug:slug>/draw/ceremony/computer/", views.computer_draw, name="computer_draw"),
    path("e/<slug:slug>/draw/ceremony/reset/", views.reset, name="reset"),
    path("e/<slug:slug>/draw/ceremony/schedule/", views.schedule_create, name="schedule_create"),
]

# Swiss pairing by the FIDE Dutch system (issue 14).
SWISS = "e/<slug:slug>/swiss"
urlpatterns += [
    path(f"{SWISS}/", swiss_views.swiss, name="swiss"),
    path(f"{SWISS}/settings/", swiss_views.setup, name="swiss_setup"),
    path(f"{SWISS}/close-list/", swiss_views.close_list, name="swiss_close_list"),
    path(f"{SWISS}/byes/", swiss_views.bye_add, name="swiss_bye_add"),
    path(f"{SWISS}/byes/<int:request_id>/cancel/", swiss_views.bye_cancel, name="swiss_bye_cancel"),
    path(f"{SWISS}/forbidden/", swiss_views.forbidden_add, name="swiss_forbidden_add"),
    path(
        f"{SWISS}/forbidden/<int:pair_id>/remove/",
        swiss_views.forbidden_remove,
        name="swiss_forbidden_remove",
    ),
    path(f"{SWISS}/withdrawals/", swiss_views.withdrawal, name="swiss_withdrawal"),
    path(f"{SWISS}/late-entry/", swiss_views.late_entry, name="swiss_late_entry"),
    path(f"{SWISS}/rounds/<int:number>/", swiss_views.swiss_round, name="swiss_round"),
    path(f"{SWISS}/rounds/<int:number>/pair/", swiss_views.pair, name="swiss_pair"),
    path(f"{SWISS}/rounds/<int:number>/edit/", swiss_views.round_edit, name="swiss_edit"),
    path(
        f"{SWISS}/rounds/<int:number>/<slug:action>/",
        swiss_views.round_action,
        name="swiss_round_action",
    ),
    path("e/<slug:slug>/rounds/<int:number>/print/", swiss_views.pairings_print, name="print"),
    path(
        "e/<slug:slug>/rounds/<int:number>/print.pdf",
        swiss_views.pairings_print_pdf,
        name="print_pdf",
    ),
    path(
        "e/<slug:slug>/rounds/<int:number>/print/find/",
        swiss_views.find_board_print,
        name="print_find",
    ),
    path(
        "e/<slug:slug>/rounds/<int:number>/print/find.pdf",
        swiss_views.find_board_print_pdf,
        name="print_find_pdf",
    ),
]
