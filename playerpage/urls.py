"""The player's page (``playerpage`` namespace): the private page, and the director's and
arbiter's side of it."""

from __future__ import annotations

from django.urls import path

from playerpage import views

app_name = "playerpage"

urlpatterns = [
    path("p/<str:token>/", views.page, name="page"),
    path("e/<slug:slug>/players/links/", views.links, name="links"),
    path("e/<slug:slug>/players/links/issue/", views.links_issue, name="links_issue"),
    path("e/<slug:slug>/players/links/<int:start_no>/", views.link_action, name="link_action"),
    path("e/<slug:slug>/players/cards/", views.cards, name="cards"),
    path("e/<slug:slug>/players/cards.pdf", views.cards_pdf, name="cards_pdf"),
    path("e/<slug:slug>/reporting/", views.policy, name="policy"),
    path("e/<slug:slug>/reports/<int:report_id>/confirm/", views.confirm, name="confirm"),
]
