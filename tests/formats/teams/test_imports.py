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


# -- the product's own team file (issue 28, items "own team TRF" and "one writer") -------------

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


def _run(*args: str) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


@pytest.fixture
def demo_team_swiss(director):  # type: ignore[no-untyped-def]
    """The demo's *Norwegian Team Swiss 2026*, loaded as ``load_demo`` loads it."""
    from events.exchange import event_import_document

    text = (EXAMPLES / "team-swiss.json").read_text()
    return event_import_document(text=text, user=director, slug="team-swiss-2026")


def test_the_demo_team_event_exported_imports_and_reads_back_the_same(
    demo_team_swiss, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    """export_trf → import_trf: the same standings, the same next pairing, the same file."""
    exported = _run("export_trf", demo_team_swiss.slug)
    path = tmp_path / "team-swiss.trf"
    path.write_text(exported, encoding="latin-1")
    assert _run("import_trf", str(path), "--slug", "team-swiss-copy").split()[-1] == (
        "team-swiss-copy"
    )
    codes = "MP,GP,BH:MP,EMGSB/C1,EDE"

    def standings(slug: str) -> dict:  # type: ignore[type-arg]
        document = json.loads(_run("standings", slug, "--format", "json", "--tiebreaks", codes))
        return {key: value for key, value in document.items() if key != "event"}

    assert standings("team-swiss-copy") == standings(demo_team_swiss.slug)
    copy_pairing = json.loads(_run("pair", "team-swiss-copy", "--dry-run", "--format", "json"))
    pairing = json.loads(_run("pair", demo_team_swiss.slug, "--dry-run", "--format", "json"))
    assert copy_pairing["matches"] == pairing["matches"]
    assert _run("export_trf", "team-swiss-copy") == exported


def test_the_web_trf_of_a_team_event_is_the_file_export_trf_writes(
    demo_team_swiss, director, client_for
) -> None:  # type: ignore[no-untyped-def]
    response = client_for(director).get(
        reverse("events:export_trf", kwargs={"slug": demo_team_swiss.slug})
    )
    assert response.status_code == 200
    assert response.content == _run("export_trf", demo_team_swiss.slug).encode("utf-8")
    assert b"\n310 " in response.content and b"\n192 FIDE_TEAM" in response.content


def _twice_in_a_roster(text: str) -> str:
    """The file with team 1's second player given its first player's name (one person listed
    twice in a roster, as a typing slip makes it)."""
    lines = text.splitlines()
    first = next(line for line in lines if line.startswith("310   1 "))
    one, two = (int(first[73 + 5 * i : 77 + 5 * i]) for i in (0, 1))
    name = next(line[14:47] for line in lines if line.startswith(f"001 {one:4d}"))
    return "".join(
        (line[:14] + name + line[47:] if line.startswith(f"001 {two:4d}") else line) + "\n"
        for line in lines
    )


def test_a_repeated_name_in_one_roster_is_asked_on_the_page_then_imported(
    demo_team_swiss, director, client_for
) -> None:  # type: ignore[no-untyped-def]
    text = _twice_in_a_roster(_run("export_trf", demo_team_swiss.slug))
    client = client_for(director)
    url = reverse("events:event_import")
    page = client.post(url, {"file": SimpleUploadedFile("t.trf", text.encode("latin-1"))})
    body = page.content.decode()
    assert page.status_code == 200 and "Possible duplicates" in body
    assert 'type="checkbox" name="confirm_duplicates"' in body
    assert not Event.objects.filter(slug="twice").exists()
    done = client.post(
        url,
        {
            "file": SimpleUploadedFile("t.trf", text.encode("latin-1")),
            "slug": "twice",
            "confirm_duplicates": "on",
        },
    )
    assert done.status_code == 302
    assert Event.objects.filter(slug="twice").exists()


def test_a_repeated_name_in_one_roster_needs_confirm_duplicates_on_import_trf(
    demo_team_swiss, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    from django.core.management.base import CommandError

    path = tmp_path / "twice.trf"
    path.write_text(_twice_in_a_roster(_run("export_trf", demo_team_swiss.slug)), "latin-1")
    with pytest.raises(CommandError, match="Possible duplicates"):
        _run("import_trf", str(path), "--slug", "twice")
    assert _run("import_trf", str(path), "--slug", "twice", "--confirm-duplicates").split()[-1] == (
        "twice"
    )


def test_a_name_alike_in_two_teams_is_two_players(demo_team_swiss, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Team 2's first player given team 1's first player's name: two clubs' players."""
    text = _run("export_trf", demo_team_swiss.slug)
    lines = text.splitlines()
    roster = {line[4:7].strip(): int(line[73:77]) for line in lines if line.startswith("310 ")}
    name = next(line[14:47] for line in lines if line.startswith(f"001 {roster['1']:4d}"))
    changed = "".join(
        (line[:14] + name + line[47:] if line.startswith(f"001 {roster['2']:4d}") else line) + "\n"
        for line in lines
    )
    path = tmp_path / "alike.trf"
    path.write_text(changed, "latin-1")
    assert _run("import_trf", str(path), "--slug", "alike").split()[-1] == "alike"


# -- TRF16 team records (013) ---------------------------------------------------------------

ARMSTRONG = (
    Path(__file__).resolve().parents[2] / "fixtures/trf/real/icu_tournament/armstrong_2011.tab"
)


def test_a_trf16_team_league_imports_as_individuals_and_says_so_in_one_note(director) -> None:  # type: ignore[no-untyped-def]
    """The ICU's rating report of a team league (12 records 013): the individual event, and
    one note that the team records were not read as a team event (never silently)."""
    err = io.StringIO()
    call_command(
        "import_trf", str(ARMSTRONG), "--slug", "armstrong", stdout=io.StringIO(), stderr=err
    )
    event = Event.objects.get(slug="armstrong")
    assert event.system not in ("team_swiss", "team_round_robin", "team_double_round_robin")
    team_notes = [line for line in err.getvalue().splitlines() if "013" in line]
    assert team_notes == [
        "Records 013 (12 teams) were not read as a team event: a TRF16 file gives no boards, "
        "match colours or team scoring; the players and their games are imported as an "
        "individual event (a TRF-2026 team file, records 310, imports as a team event)."
    ]
    teams = sum(line.startswith("013") for line in ARMSTRONG.read_text("latin-1").splitlines())
    assert teams == 12


# -- FIDE TEC's team sample ---------------------------------------------------------------------

TEC_SAMPLE = (
    Path(__file__).resolve().parents[2] / "fixtures/trf/teams/tec-fide/GrandMommysCup03_trf.txt"
)
SAMPLE_CODES = (
    "MP", "GP", "BH:MP/C1", "EMGSB/C1", "EDE", "MPVGP", "BH:GP", "SB:MP", "PS", "BC", "TBR",
    "WIN", "WON",
)  # fmt: skip


def _published_scores() -> dict[int, tuple[Fraction, Fraction]]:
    """Each team's match and game points as the sample's records 310 publish them."""
    lines = TEC_SAMPLE.read_text("latin-1").splitlines()
    return {
        int(line[4:7]): (Fraction(line[54:60].strip()), Fraction(line[61:67].strip()))
        for line in lines
        if line.startswith("310 ")
    }


def test_fides_team_sample_imports_on_the_page_with_its_notes(director, client_for) -> None:  # type: ignore[no-untyped-def]
    from events.imports import import_notes

    upload = SimpleUploadedFile("GrandMommysCup03_trf.txt", TEC_SAMPLE.read_bytes())
    response = client_for(director).post(
        reverse("events:event_import"), {"file": upload, "slug": "grandmommy"}
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    event = Event.objects.get(slug="grandmommy")
    assert event.system == "team_swiss" and event.rounds == 14
    notes = import_notes(event)
    assert notes[0] == (
        "Tie-breaks of record 202 the team standings do not compute, left out of the event's "
        "list: EDET/P, EMGSB/C1/P, BH:MP/C1/P."
    )
    assert notes[1].startswith("Record 250 (acceleration, 4 lines) not read")
    assert "013 (50 lines)" in notes[2] and "801 (50 lines), 802 (50 lines)" in notes[2]
    page = client_for(director).get(f"/e/{event.slug}/").content.decode()
    assert "Record 250 (acceleration, 4 lines) not read" in page


def test_fides_team_sample_scores_and_tiebreaks_equal_the_file_and_gacrux(
    oracle_dir: Path, tmp_path: Path
) -> None:
    """Imported by import_trf: every team's match and game points are those the sample
    publishes (records 310), and every value of 13 tie-breaks equals gacrux's on the file."""
    call_command(
        "import_trf", str(TEC_SAMPLE), "--slug", "grandmommy", stdout=io.StringIO(),
        stderr=io.StringIO(),
    )  # fmt: skip
    out = io.StringIO()
    call_command(
        "standings", "grandmommy", "--format", "json", "--tiebreaks", ",".join(SAMPLE_CODES),
        stdout=out,
    )  # fmt: skip
    rows = json.loads(out.getvalue())["rows"]
    ours = {
        row["team_no"]: tuple(Fraction(row["tiebreaks"][code]) for code in SAMPLE_CODES)
        for row in rows
    }
    assert {team: values[:2] for team, values in ours.items()} == _published_scores()
    oracle = TiebreakOracle(oracle_dir)
    try:
        theirs = oracle.tiebreaks(TEC_SAMPLE.read_text("latin-1"), 14, SAMPLE_CODES)
    finally:
        oracle.close()
    assert ours == theirs
