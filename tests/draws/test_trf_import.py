"""What an imported TRF says about pairing the rest of a Swiss (draws/swiss/trf_import.py,
issue 20): the next round's requested byes, pairing numbers, initial colour, acceleration, forbidden
pairs; the refusals (one line, nothing changed) and the notes the director is shown."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse

from draws.models import ByeRequest, ForbiddenPair, SwissSetup
from events.imports import import_notes
from events.models import Event
from events.services import player_delete
from tests.events.test_trf import player

pytestmark = pytest.mark.django_db

# Six players, round 1 played (1 beat 4, 2-5 drawn, 3 beat 6); round 2 is not paired yet: 1
# asks for a half-point bye and 5 for a zero-point bye.
ROUND_1 = [
    ("   4 w 1", "0000 - H"),
    ("   5 b =", ""),
    ("   6 w 1", ""),
    ("   1 b 0", ""),
    ("   2 w =", "0000 - Z"),
    ("   3 b 0", ""),
]


def cut(header: str = "XXR 5\n", round_2: list[str] | None = None) -> str:
    seconds = round_2 or ["0000 - H", "", "", "", "0000 - Z", ""]
    lines = [
        player(n, f"{first}  {second}".rstrip(), rating=2400 - 50 * n)
        for n, ((first, _), second) in enumerate(zip(ROUND_1, seconds, strict=True), start=1)
    ]
    return "012 Cut after round 1\n" + header + "\n".join(lines) + "\n"


def imported(tmp_path: Path, text: str, slug: str = "cut") -> tuple[Event, str]:
    path = tmp_path / "cut.trf"
    path.write_text(text)
    out, err = StringIO(), StringIO()
    call_command("import_trf", str(path), "--slug", slug, stdout=out, stderr=err)
    assert out.getvalue().split()[-1] == slug
    return Event.objects.get(slug=slug), err.getvalue()


def test_the_next_rounds_byes_become_requests_and_pair_honours_them(tmp_path: Path) -> None:
    event, notes = imported(tmp_path, cut())
    assert event.rounds == 5
    requests = ByeRequest.objects.filter(player__event=event).values_list(
        "player__start_no", "round", "kind"
    )
    assert sorted(requests) == [(1, 2, "half"), (5, 2, "zero")]
    out = StringIO()
    call_command("pair", event.slug, "--dry-run", "--format", "json", stdout=out)
    document = json.loads(out.getvalue())
    assert document["round"] == 2
    assert {"start_no": 1, "kind": "half"} in document["byes"]
    assert {"start_no": 5, "kind": "zero"} in document["byes"]
    paired = {n for board in document["boards"] for n in (board["white"], board["black"])}
    assert paired == {2, 3, 4, 6}
    assert "1 of 5 rounds played" in notes and "requested byes from the file: 1 (H), 5 (Z)" in notes
    assert import_notes(event) == notes.strip().splitlines()


@pytest.mark.parametrize(
    ("records", "colour"),
    [("XXC black1\n", "b"), ("152 W\n", "w"), ("", "w")],
    ids=["XXC", "TRF-2026 152", "read back from round 1: start number 1 had White"],
)
def test_pairing_numbers_and_initial_colour(tmp_path: Path, records: str, colour: str) -> None:
    event, notes = imported(tmp_path, cut("XXR 5\n" + records))
    setup = SwissSetup.objects.get(event=event)
    assert setup.pairing_order == [1, 2, 3, 4, 5, 6]
    assert setup.initial_colour == colour
    assert "Initial colour" in notes and "list of participants is closed" in notes


def test_baku_acceleration_and_forbidden_pairs(tmp_path: Path) -> None:
    # Six players, five rounds: Baku accelerates rounds 1-3 (a win's points in rounds 1-2, a
    # draw's in round 3) for pairing numbers 1-3 (C.04.5; draws/swiss/pairing/acceleration.py).
    accelerations = "".join(
        f"XXA {n:4d}" + ("  1.0  1.0  0.5" if n <= 3 else "  0.0  0.0  0.0") + "\n"
        for n in range(1, 7)
    )
    event, notes = imported(tmp_path, cut("XXR 5\n" + accelerations + "XXP 2 3 6\n"))
    assert SwissSetup.objects.get(event=event).acceleration == "baku"
    pairs = ForbiddenPair.objects.filter(event=event).values_list(
        "first__start_no", "second__start_no"
    )
    assert sorted(pairs) == [(2, 3), (2, 6), (3, 6)]
    assert "Baku acceleration" in notes and "3 forbidden pairs" in notes


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (cut("XXR 5\n250      1.0   1   2    1    3\n"), "record 250 (acceleration)"),
        (cut("XXR 5\nXXP 1 9\n"), "XXP: player 9 is not in the file"),
    ],
    ids=["TRF-2026 250", "XXP stranger"],
)
def test_what_cannot_be_honoured_is_refused_in_one_line(
    tmp_path: Path, text: str, message: str
) -> None:
    path = tmp_path / "refused.trf"
    path.write_text(text)
    with pytest.raises(Exception, match=message.replace("(", r"\(").replace(")", r"\)")) as info:
        call_command("import_trf", str(path), stdout=StringIO(), stderr=StringIO())
    assert "\n" not in str(info.value)
    assert Event.objects.count() == 0


def test_a_full_point_bye_the_file_grants_in_the_next_round_is_honoured(tmp_path: Path) -> None:
    """Issue 28: ``0000 - F`` in the next round (a full point granted in advance, as
    Swiss-Manager and JaVaFo write it) is that round's requested bye, not a refusal."""
    event, notes = imported(tmp_path, cut(round_2=["0000 - F", "", "", "", "", ""]))
    request = ByeRequest.objects.get(player__event=event)
    assert (request.player.start_no, request.round, request.kind) == (1, 2, "full")
    assert "requested byes from the file: 1 (F)" in notes
    out = StringIO()
    call_command("pair", event.slug, "--dry-run", "--format", "json", stdout=out)
    document = json.loads(out.getvalue())
    assert {"start_no": 1, "kind": "full"} in document["byes"]
    assert 1 not in {n for board in document["boards"] for n in (board["white"], board["black"])}


def test_an_acceleration_table_that_is_not_bakus_is_kept_and_written_back(tmp_path: Path) -> None:
    """Issue 28: ``XXA`` points other than Baku's (JaVaFo's manual has such a file) are the
    event's table of virtual points; the next rounds are paired with them (the corpus test
    holds the pairing to bbpPairings') and the export writes them as they were read."""
    event, notes = imported(tmp_path, cut("XXR 5\nXXA    4  1.0  0.5\nXXA    6  0.0  1.0\n"))
    setup = SwissSetup.objects.get(event=event)
    assert (setup.acceleration, setup.acceleration_table) == (
        "table",
        {"4": ["1", "1/2"], "6": ["0", "1"]},
    )
    assert "the file's virtual points (XXA) for 2 players in rounds 1-2" in notes
    out = StringIO()
    call_command("export_trf", event.slug, stdout=out)
    assert [line for line in out.getvalue().splitlines() if line.startswith("XXA")] == [
        "XXA    4  1.0  0.5",
        "XXA    6  0.0  1.0",
    ]


def test_the_acceleration_table_of_a_deleted_player_is_not_written_back(tmp_path: Path) -> None:
    """A player of the file's ``XXA`` table who never played and is deleted here leaves the
    exported file altogether: an ``XXA`` record naming a player the file does not list is
    refused on reading (by this program's import, as by any reader that checks it)."""
    lines = [player(n, first, rating=2400 - 50 * n) for n, (first, _) in enumerate(ROUND_1, 1)]
    lines.append(player(7, "0000 - Z", rating=1000))
    table = "XXA    4  1.0  0.5\nXXA    7  0.0  1.0\n"
    event, _ = imported(tmp_path, "012 Cut\nXXR 5\n" + table + "\n".join(lines) + "\n")
    player_delete(event=event, start_no=7, expected_version=None, user=None)
    out = StringIO()
    call_command("export_trf", event.slug, stdout=out)
    assert [line for line in out.getvalue().splitlines() if line.startswith("XXA")] == [
        "XXA    4  1.0  0.5"
    ]
    again, _ = imported(tmp_path, out.getvalue(), slug="again")
    assert SwissSetup.objects.get(event=again).acceleration_table == {"4": ["1", "1/2"]}


def test_without_xxr_the_event_has_the_rounds_the_file_holds(tmp_path: Path) -> None:
    event, notes = imported(tmp_path, cut(header=""))
    assert event.rounds == 2  # round 1 played, round 2's byes listed
    assert "does not say how many rounds" in notes
    assert ByeRequest.objects.filter(player__event=event, round=2).count() == 2


def test_the_import_page_shows_the_notes(director, client_for) -> None:  # type: ignore[no-untyped-def]
    upload = SimpleUploadedFile("cut.trf", cut().encode())
    response = client_for(director).post(
        reverse("events:event_import"), {"file": upload, "slug": "cut"}, follow=True
    )
    page = response.content.decode()
    assert "1 of 5 rounds played" in page
    assert "requested byes from the file: 1 (H), 5 (Z)" in page
