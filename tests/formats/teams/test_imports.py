"""Importing TRF-2026 team files as FIDE's sample and gacrux write them (issue 28), through the
import page and ``manage.py import_trf``: team events paired round by round by gacrux (FIDE's
reference engine), with the pairing-allocated bye as ``0000 - U`` on the bye team's boards,
requested byes on team boards, forfeited matches (record 330) with their players' ``0000 - +``
and ``0000 - -``, and players out of the line-up (``0000 - -``). Each imported event's team
tie-breaks equal gacrux's on the same file."""

from __future__ import annotations

import io
import json
import random
from fractions import Fraction
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse

from events.models import Event
from formats.teams import records as r
from formats.teams.trf import write_team_trf
from tests.formats.teams.fide_rows import with_fide_rows
from tests.formats.teams.pairing.generator import Case, records, team_trf
from tests.formats.teams.pairing.generator import Event as Generated
from tests.formats.teams.pairing.oracle import Gacrux, started
from tests.formats.teams.tiebreaks.differential import _with_line_ups
from tests.formats.teams.tiebreaks.oracle import TiebreakOracle

pytestmark = [pytest.mark.django_db, pytest.mark.oracle]

CODES = ("MP", "GP", "BH:MP", "EMGSB/C1", "SSSC", "EDE")
CASES = [
    Case(teams=9, boards=4, rounds=5, seed=2811, forfeit_percentage=12, bye_percentage=8),
    Case(
        teams=8,
        boards=3,
        rounds=5,
        seed=2812,
        forfeit_percentage=10,
        scores="gp+mp",
        win_points=3,
        bye_percentage=8,
    ),
]


def _paired_by_gacrux(gacrux: Gacrux, case: Case) -> r.TeamEvent:
    """``case`` played round by round, each round as gacrux pairs it from the file so far."""
    event = Generated.start(case)
    rng = random.Random(case.seed)
    last = 0
    for round_no in range(1, case.rounds + 1):
        requested = event.requested_byes(rng)
        answer = gacrux.pair(team_trf(event, round_no, requested), round_no, case.method)
        if answer.impossible:
            break
        matches = [(white, black, event._match_boards(rng)) for white, black in answer.matches]
        event.record(round_no, matches, answer.bye, requested)
        last = round_no
    # Empty boards (the absent player out of the line-up: 0000 - -), line-ups out of roster
    # order, and forfeited matches as FIDE writes them (record 330, no boards).
    return _with_line_ups(records(event, last + 1), case.seed)


@pytest.fixture(scope="module")
def oracle_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("gacrux-import")


@pytest.fixture(scope="module")
def files(oracle_dir: Path) -> list[tuple[str, int]]:
    gacrux = started(oracle_dir)
    try:
        events = [_paired_by_gacrux(gacrux, case) for case in CASES]
    finally:
        gacrux.close()
    return [(with_fide_rows(write_team_trf(e), e), e.played_rounds) for e in events]


def _expected(oracle_dir: Path, text: str, after: int) -> dict[int, tuple[Fraction | None, ...]]:
    oracle = TiebreakOracle(oracle_dir)
    try:
        return oracle.tiebreaks(text, after, CODES)
    finally:
        oracle.close()


def _standings(slug: str) -> dict[int, tuple[Fraction, ...]]:
    out = io.StringIO()
    call_command("standings", slug, "--format", "json", "--tiebreaks", ",".join(CODES), stdout=out)
    rows = json.loads(out.getvalue())["rows"]
    return {
        row["team_no"]: tuple(Fraction(row["tiebreaks"][code]) for code in CODES) for row in rows
    }


def test_the_files_hold_what_fide_and_gacrux_write(files: list[tuple[str, int]]) -> None:
    text = "".join(trf for trf, _ in files)
    for block in ("0000 - U", "0000 - H", "0000 - -", "0000 - +"):
        assert block in text, block
    assert "\n330 " in text and "\n320 " in text


@pytest.mark.parametrize("index", range(len(CASES)), ids=[case.id for case in CASES])
def test_the_import_page_reads_the_file_and_its_tiebreaks_equal_gacrux(
    index: int, files: list[tuple[str, int]], oracle_dir: Path, director, client_for
) -> None:  # type: ignore[no-untyped-def]
    text, after = files[index]
    upload = SimpleUploadedFile("team.trf", text.encode("latin-1"))
    response = client_for(director).post(
        reverse("events:event_import"), {"file": upload, "slug": f"team-page-{index}"}
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    event = Event.objects.get(slug=f"team-page-{index}")
    assert event.system in ("team_swiss",)
    expected = _expected(oracle_dir, text, after)
    assert _standings(event.slug) == expected


@pytest.mark.parametrize("index", range(len(CASES)), ids=[case.id for case in CASES])
def test_import_trf_reads_the_file_and_its_tiebreaks_equal_gacrux(
    index: int, files: list[tuple[str, int]], oracle_dir: Path, tmp_path: Path
) -> None:
    text, after = files[index]
    path = tmp_path / "team.trf"
    path.write_text(text, encoding="latin-1")
    call_command("import_trf", str(path), "--slug", f"team-cmd-{index}", stdout=io.StringIO())
    assert _standings(f"team-cmd-{index}") == _expected(oracle_dir, text, after)
