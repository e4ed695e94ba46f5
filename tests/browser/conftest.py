"""Chromium through Playwright against pytest-django's live server.

Debian's Chromium (/usr/bin/chromium) is used, not a Playwright download: CI installs it with
apt. Without it the browser tests skip and say why.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
# Long enough for a cold Chromium on a busy CI runner, short enough to fail visibly.
TIMEOUT_MS = 15_000


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    # Playwright's sync API keeps an asyncio loop registered as running on this thread, so
    # Django's async-safety check refuses the test's own ORM calls (fixtures, flush, asserts).
    # Nothing async touches the ORM here: the live server answers in its own thread.
    with pytest.MonkeyPatch.context() as patch, sync_playwright() as playwright:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        yield chromium
        chromium.close()


@pytest.fixture
def new_page(browser, live_server) -> Iterator[Callable[[], object]]:  # type: ignore[no-untyped-def]
    """A page in a fresh browser context (its own cookies): one per person at the board."""
    contexts = []

    def open_page():  # type: ignore[no-untyped-def]
        context = browser.new_context(base_url=live_server.url)
        context.set_default_timeout(TIMEOUT_MS)
        contexts.append(context)
        return context.new_page()

    yield open_page
    for context in contexts:
        context.close()


@pytest.fixture(autouse=True)
def browser_settings(settings, live_server):  # type: ignore[no-untyped-def]
    # The QR codes and "Live results" addresses point at the live server, as SITE_URL points
    # at the site in a deployment.
    settings.SITE_URL = live_server.url
    # live_server serves /static/ through staticfiles' finders, which know only the source
    # names, not the hashed names the manifest storage (DEBUG off) writes into the pages.
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    # The personas' passwords need no strength here; PBKDF2 would dominate the run time.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
