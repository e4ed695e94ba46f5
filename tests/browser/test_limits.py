"""Inputs past a cap in a real browser (issue 19): the director uploads, Chromium shows one
line saying what the limit is, and nothing is imported. The caps: events/limits.py."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from events.limits import MAX_FORM_BYTES, MAX_UPLOAD_BYTES
from events.models import Event
from tests.browser.test_result_entry import log_in
from tests.events.test_exchange import nested
from tests.events.test_imports import absent_field

pytestmark = pytest.mark.browser


def upload(page, name: str, content: bytes) -> None:  # type: ignore[no-untyped-def]
    page.goto("/events/import/")
    page.get_by_label("File").set_input_files(
        files=[{"name": name, "mimeType": "application/octet-stream", "buffer": content}]
    )
    page.get_by_role("button", name="Import").click()


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("open.trf", absent_field(5001, 1).encode(), "line 5007: more than 5,000 players"),
        (
            "long.trf",
            absent_field(700, 99).encode(),
            "700 players x 99 rounds is 69,300 results; at most 60,000 (e.g. 606 players in 99 "
            "rounds)",
        ),
        ("deep.json", nested(1000).encode(), "the document: nested 1002 levels deep; at most 32"),
    ],
    ids=["players", "results", "nesting"],
)
def test_a_file_past_a_cap_is_one_line_on_the_import_page(
    new_page, director, name, content, message
):
    page = new_page()
    log_in(page, director.username)
    upload(page, name, content)
    expect(page.get_by_role("heading", name="Import an event")).to_be_visible()
    expect(page.locator(".errorlist")).to_have_text(message)
    assert not Event.objects.exists()


def test_a_file_past_the_byte_cap_gets_the_too_large_page_and_the_way_back(new_page, director):
    page = new_page()
    log_in(page, director.username)
    upload(page, "huge.trf", b" " * (MAX_UPLOAD_BYTES + MAX_FORM_BYTES + 1))
    expect(page.get_by_role("heading", name="Too large")).to_be_visible()
    expect(page.get_by_role("alert")).to_have_text(
        "What you sent is 11.0 MB; a file may have at most 10.0 MB. Nothing was read or changed."
    )
    page.get_by_role("link", name="Back to the page you came from").click()
    expect(page).to_have_url(re.compile(r"/events/import/$"))
    assert not Event.objects.exists()
