"""The project package as an app, so that what belongs to the whole deployment (its checks)
is registered by the project itself rather than by an app below it (issue 31)."""

from __future__ import annotations

from django.apps import AppConfig


class ProjectConfig(AppConfig):
    name = "config"
    label = "project"
    verbose_name = "Project"

    def ready(self) -> None:
        from config import checks  # noqa: F401  (registers the deployment checks)
