"""The shared PDF sheet (events/pdf.py): real text in every script, the QR code's address, the
page turned for a wide wall chart. Pure: no database."""

from __future__ import annotations

from io import BytesIO
from types import SimpleNamespace

import pytest
from pypdf import PdfReader

from events.pdf import Column, Sheet, sheet_pdf, wall_chart_landscape, wall_chart_pdf

NAMES = ("Zoë Ødegård-Łukasiewicz", "Ηλίας Παπαδόπουλος", "王浩", "藤井 そうた", "김철수")


def read(content: bytes) -> PdfReader:
    return PdfReader(BytesIO(content))


def text(content: bytes) -> str:
    return " ".join(page.extract_text() for page in read(content).pages)


def fonts(content: bytes) -> set[str]:
    return {
        str(font["/BaseFont"])
        for page in read(content).pages
        for font in page["/Resources"]["/Font"].values()
        if "/BaseFont" in font.get_object()
    }


def test_names_in_every_script_are_text_and_cjk_names_use_cid_fonts():
    sheet = Sheet(
        title="Café Open",
        subtitle="A list",
        columns=[Column("No.", 12, numeric=True), Column("Name", 80)],
        rows=[(str(n), name) for n, name in enumerate(NAMES, 1)],
        qr_url="https://chess.example.org/e/cafe-open/",
    )
    content = sheet_pdf(sheet)
    extracted = text(content)
    assert all(name in extracted for name in (*NAMES, "Café Open", "A list"))
    assert "https://chess.example.org/e/cafe-open/" in extracted
    for cid_font in ("STSong-Light", "HeiseiKakuGo-W5", "HYGothic-Medium"):
        assert any(cid_font in font for font in fonts(content))


def chart(rounds: int) -> bytes:
    rows = [
        SimpleNamespace(
            start_no=n,
            name=f"Player {n}",
            federation="NOR",
            rating=2000 + n,
            cells=[f"{n % 8 + 1}w1"] * rounds,
            points_text="3½",
        )
        for n in range(1, 9)
    ]
    return wall_chart_pdf(event_name="Café Open", rounds=rounds, rows=rows)


@pytest.mark.parametrize(
    ("rounds", "landscape", "with_rating"),
    [
        pytest.param(6, False, True, id="six-rounds-upright"),
        pytest.param(9, True, True, id="nine-rounds-landscape"),
        pytest.param(20, True, False, id="twenty-rounds-drop-fed-and-rating"),
    ],
)
def test_the_wall_chart_turns_the_page_when_the_rounds_need_it(rounds, landscape, with_rating):
    content = chart(rounds)
    box = read(content).pages[0].mediabox
    assert (box.width > box.height) is landscape is wall_chart_landscape(rounds)
    extracted = text(content)
    assert f"R{rounds}" in extracted and "Player 8" in extracted and "3½" in extracted
    assert ("2008" in extracted) is with_rating


@pytest.mark.parametrize(
    "url",
    [
        pytest.param("https://chess.example.org/e/cafe-open/", id="an-event-page"),
        pytest.param("https://chess.example.org/p/AbCdEfGhIjKlMnOpQrStUvWx/", id="a-player-card"),
        pytest.param("https://chess.example.org/e/" + "x" * 120 + "/", id="a-long-slug"),
    ],
)
def test_the_qr_drawing_fills_exactly_the_codes_dark_modules(url):
    """Issue 29: the code is one path of a rectangle per run of dark modules (a square per
    module was 700 shapes a card, and 2 GB for 5,000 cards); each rectangle read back as the
    modules it covers gives segno's matrix, module for module."""
    import segno
    from reportlab.lib.units import mm

    from events.pdf import qr_drawing

    matrix = [[bool(m) for m in row] for row in segno.make(url, error="m").matrix_iter(border=2)]
    drawing = qr_drawing(url, 38)
    (path,) = drawing.contents
    module, top = 38 * mm / len(matrix), 38 * mm
    filled = [[False] * len(matrix) for _ in matrix]
    points = path.points
    for i in range(0, len(points), 8):  # moveTo and three lineTo: a rectangle
        left, low, right, high = points[i], points[i + 1], points[i + 2], points[i + 5]
        row = round((top - high) / module)
        assert round((top - low) / module) == row + 1  # one module high
        for column in range(round(left / module), round(right / module)):
            assert not filled[row][column]  # no module twice
            filled[row][column] = True
    assert filled == matrix
