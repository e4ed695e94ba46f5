from __future__ import annotations

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from config.views import healthz

# Form fields past DATA_UPLOAD_MAX_MEMORY_SIZE: the one-line "too large" page, not a bare 400.
handler400 = "config.views.bad_request"

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/", include("accounts.urls")),
    path("", include("events.urls")),
    path("", include("draws.urls")),
    path("", include("standings.urls")),
    path("", include("prizes.urls")),
    path("", include("playoffs.urls")),
    path("", include("ratings.urls")),
    path("", include("playerpage.urls")),
    path("", include("fiderating.urls")),
    # Formats with their own screens (events.formats): each app, its own namespace.
    path("", include("formats.gnot.urls")),
    path("", include("formats.cohen.urls")),
    path("", include("formats.mso.urls")),
    path("", include("formats.teams.urls")),
]
