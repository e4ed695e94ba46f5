"""Chromium through Playwright against pytest-django's live server.

The Chromium is the one ``make test`` found or installed (``TEST_CHROMIUM``, see
scripts/test.sh), else Debian's (``chromium`` on PATH), else Playwright's own download. Without
any, the browser tests fail with one line: a skipped browser test is not a pass.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Callable, Iterator, Mapping

import pytest

# Long enough for a cold Chromium on a busy CI runner, short enough to fail visibly.
TIMEOUT_MS = 15_000
NO_CHROMIUM = (
    "no Chromium for the browser tests: run them with make test, which installs one"
    " (Debian's chromium as root, else Playwright's download)"
)


def chromium_executable(
    environ: Mapping[str, str], on_path: str | None, playwright_own: str
) -> str | None:
    """TEST_CHROMIUM when set (even if wrong: make test chose it), else Debian's Chromium on
    PATH, else Playwright's own download when it is there; None when there is none."""
    if environ.get("TEST_CHROMIUM"):
        return environ["TEST_CHROMIUM"]
    if on_path:
        return on_path
    return playwright_own if os.access(playwright_own, os.X_OK) else None


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    # Playwright's sync API keeps an asyncio loop registered as running on this thread, so
    # Django's async-safety check refuses the test's own ORM calls (fixtures, flush, asserts).
    # Nothing async touches the ORM here: the live server answers in its own thread.
    with pytest.MonkeyPatch.context() as patch, sync_playwright() as playwright:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        executable = chromium_executable(
            os.environ, shutil.which("chromium"), playwright.chromium.executable_path
        )
        if executable is None:
            pytest.fail(NO_CHROMIUM, pytrace=False)
        chromium = playwright.chromium.launch(
            executable_path=executable,
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
    from playwright.sync_api import Error as PlaywrightError

    for context in contexts:
        # A request still in flight (an htmx swap's follow-up, a poll) would hold table locks
        # in the live server's thread while the teardown's flush truncates the tables: a
        # deadlock. Let every page's network fall quiet before closing (500 ms without a
        # request; a page that keeps polling is closed after at most 5 s).
        for page in context.pages:
            with contextlib.suppress(PlaywrightError):
                page.wait_for_load_state("networkidle", timeout=5_000)
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
