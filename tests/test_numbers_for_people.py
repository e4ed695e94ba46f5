"""Numbers a person reads are never raw fractions (issue 20, "Numbers a person reads"): no
``3/2`` in the pairing review, ``17/2`` on the Cohen page, ``331/330`` in the MSO standings,
``16 1/2`` tour points. Points read ``1½``, ratios as decimals with the exact value in a
``title`` tooltip (``events.numbers``).

The demo is loaded once (``tests.test_words``' world: every URL of the project filled with the
demo's objects) and every HTML page is read as the director and as a visitor. What a person
sees is the text between the tags (scripts, styles and attribute values left out: a ``title``
may hold the exact value, a URL its path); a date written ``2019/08/17`` is not a fraction.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.test_permission_matrix import Route
from tests.test_words import CASES, _kwargs, _url, demo  # noqa: F401  (the module's world)

FRACTION = re.compile(r"(?<![\d/.])\d+/\d+(?![\d/])")


def visible_text(html: str) -> str:
    html = re.sub(r"<(script|style|template)\b.*?</\1>", " ", html, flags=re.S | re.I)
    html = re.sub(r"<!--.*?-->", " ", html, flags=re.S)
    text = re.sub(r"<[^>]*>", " ", html)
    return re.sub(r"&#x27;|&quot;|&amp;", " ", text)


def raw_fractions(text: str) -> list[str]:
    return [
        text[max(0, m.start() - 50) : m.end() + 30].replace("\n", " ")
        for m in FRACTION.finditer(text)
    ]


def test_the_scan_sees_what_it_must() -> None:
    assert raw_fractions(visible_text("<td>17/2</td>")) and raw_fractions("331/330")
    assert not raw_fractions(visible_text('<a href="/e/x/rounds/3/">8½</a> 2019/08/17'))
    assert not raw_fractions(visible_text('<span title="331/330">1.003</span>'))


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("route", "who"), [c for c in CASES if not c.values[0].route.startswith("admin/")]
)
def test_no_page_shows_a_raw_fraction(route: Route, who: str, demo: dict[str, Any]) -> None:  # noqa: F811
    client = demo[who]
    offences = []
    for kwargs in _kwargs(route):
        url = _url(route, kwargs)
        response = client.get(url)
        if response.status_code != 200 or "text/html" not in response.get("Content-Type", ""):
            continue
        body = b"".join(response.streaming_content) if response.streaming else response.content
        offences += [
            f"GET {url} as {who}: …{o}…" for o in raw_fractions(visible_text(body.decode()))
        ]
    assert not offences, "\n".join(offences)
