"""The printed pairing list of a round: the A4 sheet in blocks of boards with the QR code of
the event's public page, and the same list as a PDF whose text is real (names in every script,
the QR code's address), for everyone once the round is published."""

from __future__ import annotations

import re
from io import BytesIO

import pytest
from django.urls import reverse
from pypdf import PdfReader

from events.models import Event, Game, Player, Round
from events.qr import qr_svg
from events.services import (
    ByeInput,
    PairingInput,
    event_version_bump,
    game_result_record,
    round_pairings_set,
)

pytestmark = pytest.mark.django_db

# Latin with diacritics (DejaVu), Chinese, Japanese and Korean (ReportLab's CID fonts).
NAMES = {1: "Zoë Ødegård-Łukasiewicz", 2: "王浩", 3: "藤井 そうた", 4: "김철수"}
SITE_URL = "https://chess.example.org"
PUBLIC_PAGE = SITE_URL + "/e/{slug}/"


@pytest.fixture(autouse=True)
def site_url(settings):  # type: ignore[no-untyped-def]
    settings.SITE_URL = SITE_URL


def named(event: Event) -> Event:
    for start_no, name in NAMES.items():
        Player.objects.filter(event=event, start_no=start_no).update(name=name)
    event_version_bump(event=event)
    return event


def sheet(event: Event, number: int = 1) -> str:
    return reverse("draws:print", args=[event.slug, number])


def pdf(event: Event, number: int = 1) -> str:
    return reverse("draws:print_pdf", args=[event.slug, number])


def pdf_text(content: bytes) -> str:
    return " ".join(page.extract_text() for page in PdfReader(BytesIO(content)).pages)


def test_the_sheet_lists_the_boards_with_the_qr_code_of_the_public_page(event, client_for):
    named(event)
    first = Game.objects.get(round__event=event, board=1)
    game_result_record(game_id=first.pk, result="1-0", expected_version=None, user=None)
    page = client_for(None).get(sheet(event))
    assert page.status_code == 200
    content = page.content.decode()
    rows = re.findall(r"<tr><td class=\"num\">(\d+)</td><td>(.*?)</td>", content)
    assert rows == [("1", f"1. {NAMES[1]}"), ("2", f"3. {NAMES[3]}")]
    assert '<td class="result">1-0</td>' in content
    url = PUBLIC_PAGE.format(slug=event.slug)
    assert qr_svg(url, title=f"QR code: {url}") in content
    assert f"Live results: {url}</p>" in content
    assert reverse("draws:print_pdf", args=[event.slug, 1]) in content
    assert "event-nav" not in content and "css/print." in content


def test_boards_come_in_blocks_that_a_page_break_does_not_split(director, client_for):
    from tests.conftest import make_event

    event = make_event(director, players=25)
    pairings = [PairingInput(b, 2 * b - 1, 2 * b) for b in range(1, 13)]
    round_pairings_set(
        event=event, round_no=1, pairings=pairings, byes=[ByeInput(25, "pairing")], user=director
    )
    content = client_for(None).get(sheet(event)).content.decode()
    blocks = re.findall(r'<tbody class="block">(.*?)</tbody>', content, re.S)
    assert [block.count("<tr>") for block in blocks] == [10, 3]  # 12 boards and the bye
    assert "25. Player 25" in blocks[1] and "Pairing-allocated bye" in blocks[1]


def test_the_pdf_holds_the_names_in_every_script_and_the_public_address(event, client_for):
    named(event)
    response = client_for(None).get(pdf(event))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == (
        f'inline; filename="{event.slug}-round-1-pairings.pdf"'
    )
    text = pdf_text(response.content)
    assert all(name in text for name in NAMES.values())
    assert "Round 1 · pairings" in text
    assert PUBLIC_PAGE.format(slug=event.slug) in text


def test_a_forged_host_header_never_reaches_the_sheets_address(event, client_for, settings):  # type: ignore[no-untyped-def]
    """The sheets are cached for every visitor: one request with Host evil:6666 (a deployment
    that lets any host through) must not put that address in front of everyone (issue 19)."""
    settings.ALLOWED_HOSTS = ["*"]
    url = PUBLIC_PAGE.format(slug=event.slug)
    forged = {"HTTP_HOST": "evil:6666"}
    for page in (sheet(event), pdf(event)):
        first = client_for(None).get(page, **forged)
        later = client_for(None).get(page)  # from the shared page cache
        for response in (first, later):
            text = (
                pdf_text(response.content) if page.endswith(".pdf") else response.content.decode()
            )
            assert url in text and "evil" not in text, page


def test_an_unchanged_pdf_answers_304_and_a_cached_one_keeps_its_file_name(event, client_for):
    client = client_for(None)
    first = client.get(pdf(event))
    assert client.get(pdf(event), HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    again = client_for(None).get(pdf(event))  # from the shared page cache
    assert again.content == first.content
    assert again["Content-Disposition"] == first["Content-Disposition"]


def test_a_round_under_review_is_the_directors_alone(event, client_for, director, visitor):
    Round.objects.filter(event=event, number=1).update(published=False)
    event_version_bump(event=event)
    for url in (sheet(event), pdf(event)):
        assert client_for(None).get(url).status_code == 404
        assert client_for(visitor).get(url).status_code == 404
        assert client_for(director).get(url).status_code == 200


def test_a_round_not_paired_and_an_unknown_event_are_404(event, client_for):
    assert client_for(None).get(sheet(event, 2)).status_code == 404
    assert client_for(None).get(pdf(event, 2)).status_code == 404
    assert client_for(None).get("/e/no-such-event/rounds/1/print.pdf").status_code == 404


# -- Issue 20: scores and ratings on the pairing list; the alphabetical list for the wall ----


def _second_round(event, director):  # type: ignore[no-untyped-def]
    """Round 1: 1 beat 2, 3 and 4 drew; round 2 pairs 1 (1 point) against 3 (½)."""
    for board, result in ((1, "1-0"), (2, "1/2-1/2")):
        game = Game.objects.get(round__event=event, round__number=1, board=board)
        game_result_record(game_id=game.pk, result=result, expected_version=None, user=director)
    round_pairings_set(
        event=event,
        round_no=2,
        pairings=[PairingInput(1, 1, 3), PairingInput(2, 4, 2)],
        user=director,
    )
    return {p.start_no: p.rating for p in Player.objects.filter(event=event)}


def test_the_pairing_list_prints_each_players_rating_and_points_before_the_round(
    event, director, client_for
):
    ratings = _second_round(named(event), director)
    content = client_for(None).get(sheet(event, 2)).content.decode()
    board_1 = re.search(r"<tr><td class=\"num\">1</td>.*?</tr>", content).group(0)
    cells = re.findall(r"<td[^>]*>(.*?)</td>", board_1)
    assert cells == [
        "1",
        f"1. {NAMES[1]}",
        str(ratings[1]),
        "1",
        "",
        "½",
        str(ratings[3]),
        f"3. {NAMES[3]}",
    ]
    text = pdf_text(client_for(None).get(pdf(event, 2)).content)
    assert f"{ratings[1]}" in text and "½" in text and "Rtg" in text and "Pts" in text


def test_find_your_board_lists_every_player_by_name_with_board_colour_and_opponent(
    event, director, client_for
):
    _second_round(event, director)
    Player.objects.filter(event=event, start_no=4).update(name="Adams, Zed")
    Player.objects.filter(event=event, start_no=3).update(name="zhou, ann")
    event_version_bump(event=event)
    url = reverse("draws:print_find", args=[event.slug, 2])
    content = client_for(None).get(url).content.decode()
    rows = re.findall(
        r"<tr><td>([^<]*)</td><td class=\"num\">(\d+)</td><td class=\"num\">(\d*)</td>"
        r"<td>([^<]*)</td><td>([^<]*)</td></tr>",
        content,
    )
    assert [row[0] for row in rows] == ["Adams, Zed", "Player 1", "Player 2", "zhou, ann"]
    by_no = {int(row[1]): row[2:] for row in rows}
    assert by_no[1] == ("1", "White", "3. zhou, ann")
    assert by_no[3] == ("1", "Black", "1. Player 1")
    assert by_no[4] == ("2", "White", "2. Player 2")
    assert reverse("draws:print", args=[event.slug, 2]) in content
    response = client_for(None).get(reverse("draws:print_find_pdf", args=[event.slug, 2]))
    assert response["Content-Disposition"] == (
        f'inline; filename="{event.slug}-round-2-find-your-board.pdf"'
    )
    text = pdf_text(response.content)
    assert "find your board" in text
    assert text.index("Adams, Zed") < text.index("Player 1") < text.index("zhou, ann")


def test_find_your_board_of_a_round_under_review_is_the_directors_alone(
    event, client_for, director, visitor
):
    Round.objects.filter(event=event, number=1).update(published=False)
    event_version_bump(event=event)
    for name in ("draws:print_find", "draws:print_find_pdf"):
        url = reverse(name, args=[event.slug, 1])
        assert client_for(None).get(url).status_code == 404
        assert client_for(visitor).get(url).status_code == 404
        assert client_for(director).get(url).status_code == 200
