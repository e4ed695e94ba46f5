"""Deployment checks (``manage.py check --deploy``) beyond Django's own."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import Error, Tags, register


@register(Tags.security, deploy=True)
def debug_off(app_configs: Any = None, **kwargs: Any) -> list[Error]:
    """Django only warns about DEBUG in a deployment; here it is an error, so that a deploy
    script running ``check --deploy`` stops (issue 19: ``.env``, which ``make run`` writes,
    says DEBUG=1)."""
    if not settings.DEBUG:
        return []
    return [
        Error(
            "DEBUG is on: a production start needs DEBUG=0.",
            hint="Set DEBUG=0 (and SECRET_KEY) in the environment; manage.py reads .env, which "
            "make run writes for development, only where no SECRET_KEY is set.",
            id="config.E001",
        )
    ]
