"""A list file kept between its preview and its import, so that the director chooses it once.

The file goes to Django's default storage (``MEDIA_ROOT``; shared storage when several app
servers serve the site) under a random key that only its uploader can use, and is removed once
imported. Kept files older than :data:`KEPT_FOR` are removed whenever a file is kept.
"""

from __future__ import annotations

import datetime as dt
import secrets
from typing import Any

from django.core.files import File
from django.core.files.storage import default_storage
from django.utils import timezone

FOLDER = "rating-uploads"
KEPT_FOR = dt.timedelta(hours=12)


def _path(user: Any, key: str) -> str:
    return f"{FOLDER}/{user.pk}-{key}"


def upload_keep(*, user: Any, upload: File) -> str:  # type: ignore[type-arg]
    """Keep ``upload`` for ``user``; the key to find it again."""
    _stale_remove()
    key = secrets.token_urlsafe(24)
    default_storage.save(_path(user, key), upload)
    return key


def upload_open(*, user: Any, key: str) -> File:  # type: ignore[type-arg]
    """The kept file (FileNotFoundError when it is gone)."""
    return default_storage.open(_path(user, key), "rb")


def upload_discard(*, user: Any, key: str) -> None:
    default_storage.delete(_path(user, key))


def _stale_remove() -> None:
    if not default_storage.exists(FOLDER):
        return
    cutoff = timezone.now() - KEPT_FOR
    for name in default_storage.listdir(FOLDER)[1]:
        path = f"{FOLDER}/{name}"
        if default_storage.get_modified_time(path) < cutoff:
            default_storage.delete(path)
