"""Real TRF files from the world (``tests/fixtures/trf/real``, issue 28), each imported as it is
with ``manage.py import_trf``:

- it imports, and the import's notes (stderr, kept with the event) name every value the import
  left out or read in its own way: a column it could not read, a date not in TRF16's spelling,
  a bye written as a result against no one, a points column that disagrees with the results;
- its tie-breaks equal those of FIDE's calculator gacrux on the same file (on the event's
  ``export_trf`` where gacrux refuses the file itself, and then the refusal is asserted, so that
  a gacrux that learns to read it makes this test compare with the file);
- the export is read by bbpPairings' checker and by gacrux;
- for a Swiss, the file cut after each round k (as a program writes it after round k: the
  rounds to k, round k + 1's byes and absences, the points column after round k) is paired here
  exactly as bbpPairings pairs the same cut.

The generic checks read the file's columns themselves (``_Line``), so a new file in the corpus
is checked without a word added here.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from dataclasses import dataclass
from fractions import Fraction
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from events.imports import import_notes
from events.models import Event, Game, Player
from events.selectors import regulation_of
from tests.draws.swiss import bbp
from tests.draws.swiss.test_trf_continuation import ours as paired_here
from tests.draws.swiss.test_trf_continuation import theirs as paired_by_bbppairings

pytestmark = pytest.mark.django_db

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "trf" / "real"
FILES = sorted(p for p in CORPUS.rglob("*") if p.suffix in (".trf", ".tab"))
IDS = [str(p.relative_to(CORPUS)) for p in FILES]
CODES = ["PTS", "BH/C1", "BH", "SB"]


# -- the file as written ----------------------------------------------------------------------


def text_of(path: Path) -> str:
    raw = path.read_bytes()
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


@dataclass(frozen=True)
class _Line:
    """A ``001`` line's columns as TRF16 places them (rules-notes, "TRF16")."""

    text: str

    def column(self, first: int, last: int) -> str:
        return self.text.ljust(last)[first - 1 : last].strip()

    @property
    def start_no(self) -> int:
        return int(self.column(5, 8))

    def blocks(self) -> list[str]:
        tail = self.text[91:]
        found = [tail[i : i + 8] for i in range(0, len(tail), 10)]
        while found and not found[-1].strip():
            found.pop()
        return found


def player_lines(text: str) -> list[_Line]:
    return [_Line(line.rstrip("\r")) for line in text.splitlines() if line.startswith("001")]


def record(text: str, code: str) -> str:
    found = [line[4:].strip() for line in text.splitlines() if line.startswith(code + " ")]
    return found[0] if found else ""


def declared_swiss(text: str) -> bool:
    kind = record(text, "092").lower()
    return "swiss" in kind or "dutch" in kind


# -- the notes --------------------------------------------------------------------------------


def cases_named(notes: list[str], opening: str) -> tuple[list[str], int]:
    """The cases a note that starts with ``opening`` lists, and how many it says there are
    (the listed ones and "and N more")."""
    found = [note for note in notes if note.startswith(opening)]
    if not found:
        return [], 0
    body = found[0][len(opening) :].rstrip(".")
    more = re.search(r" and (\d+) more$", body)
    listed = body[: more.start()] if more else body
    cases = [case.strip() for case in listed.split(", ") if case.strip()]
    return cases, len(cases) + (int(more.group(1)) if more else 0)


def imported(path: Path, slug: str) -> tuple[Event, list[str]]:
    out, err = StringIO(), StringIO()
    call_command("import_trf", str(path), "--slug", slug, stdout=out, stderr=err)
    assert out.getvalue().split()[-1] == slug
    return Event.objects.get(slug=slug), err.getvalue().splitlines()


# Player columns (first, last) the import keeps, and the opening of the note that names the
# players whose value it left out.
COLUMNS = {
    "federation": (54, 56, "Players' federation column, not read (left empty): "),
    "fide_id": (58, 68, "Players' FIDE id column, not read (left empty): "),
    "title": (11, 13, "Players' title column, not read (left empty): "),
    "sex": (10, 10, "Players' sex column, not read (left empty): "),
}


def _left_out(lines: list[_Line], players: dict[int, Player], field: str) -> list[int]:
    first, last, _ = COLUMNS[field]
    return [
        line.start_no
        for line in lines
        if line.column(first, last).strip("0") and not getattr(players[line.start_no], field)
    ]


def _ids_held_twice(notes: list[str]) -> set[int]:
    held = [re.findall(r"(\d+) \(", n) for n in notes if "have the same FIDE id" in n]
    return {int(number) for numbers in held for number in numbers}


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_a_real_file_imports_as_it_is_and_the_notes_name_every_change(path: Path) -> None:
    text = text_of(path)
    event, notes = imported(path, "real")
    assert notes == import_notes(event)  # stored with the event (issue 29), as printed
    players = {p.start_no: p for p in Player.objects.filter(event=event)}
    lines = player_lines(text)
    assert sorted(players) == sorted(line.start_no for line in lines)
    twice = _ids_held_twice(notes)
    for field, (_, _, opening) in COLUMNS.items():
        left_out = [
            n for n in _left_out(lines, players, field) if field != "fide_id" or n not in twice
        ]
        assert cases_named(notes, opening)[1] == len(left_out), (field, left_out, notes)
    _check_dates(text, event, notes)
    _check_byes(lines, notes)
    _check_points(lines, event, notes)
    if declared_swiss(text):
        assert event.system == "swiss"  # 092 says what the event is (issue 28)


def _check_dates(text: str, event: Event, notes: list[str]) -> None:
    """A start or end date given in another spelling than TRF16's is named with its text."""
    for code, value in (("042", event.start_date), ("052", event.end_date)):
        written = record(text, code)
        if written.strip("0/.- ") and not re.fullmatch(r"\d{4}[-/.]\d\d[-/.]\d\d", written):
            assert any(repr(" ".join(written.split())) in note for note in notes), (code, notes)
        if value is None and written.strip("0/.- "):
            assert any(f"record {code}" in note for note in notes), (code, notes)


BYE_OPENINGS = (
    "Draws written against no one, read as half-point byes: ",
    "Wins written against no one, read as full-point byes: ",
    "Losses written against no one, read as zero-point byes (absent): ",
    "Rounds with neither opponent nor result, read as zero-point byes (absent): ",
)


def _check_byes(lines: list[_Line], notes: list[str]) -> None:
    """Every round written as a result against no one (or as nothing at all, before the
    player's last round) is one of the cases the bye notes count."""
    written = sum(
        1
        for line in lines
        for block in line.blocks()
        if not block[:4].strip("0 ") and block.ljust(8)[7].upper() in "=D+1W-0L "
    )
    assert sum(cases_named(notes, opening)[1] for opening in BYE_OPENINGS) == written


def _check_points(lines: list[_Line], event: Event, notes: list[str]) -> None:
    """The players whose points column is not their points here are named in the notes."""
    out = StringIO()
    call_command("standings", event.slug, "--tiebreaks", "PTS", "--format", "json", stdout=out)
    ours = {row["start_no"]: Fraction(row["points"]) for row in json.loads(out.getvalue())["rows"]}
    differ = [
        line.start_no
        for line in lines
        if re.fullmatch(r"\d+\.\d", line.column(81, 84))
        and Fraction(line.column(81, 84)) != ours[line.start_no]
    ]
    opening = next((n for n in notes if n.startswith("The points column disagrees")), "")
    assert len(differ) == (int(re.search(r"for (\d+) player", opening)[1]) if opening else 0)  # type: ignore[index]


# -- tie-breaks: gacrux ------------------------------------------------------------------------


class GacruxRefused(Exception):
    pass


def gacrux(
    path: Path, *, edition: int, round_robin: bool, played: int, workdir: Path
) -> dict[int, dict[str, Fraction]]:
    """gacrux's values for :data:`CODES` after round ``played`` (a file's next round of
    requested byes is not a round played) under the event's C.07 edition (its ``/V``
    modifier), run from a directory with no folder named gacrux (rules-notes)."""
    raw = path.read_bytes()
    encoding = "utf-8" if _is_utf8(raw) else "latin-1"
    codes = [code if code == "PTS" else f"{code}/V{edition}" for code in CODES]
    command = [sys.executable, "-m", "gacrux.tiebreakchecker", "-i", str(path), "-b", encoding]
    command += ["-n", str(played), "-t", *codes, "-d", "T", "-p" if round_robin else "-s"]
    done = subprocess.run(command, cwd=workdir, capture_output=True, text=True, check=False)
    table = done.stdout.splitlines()
    if done.returncode or not table or not table[0].startswith("StartNo"):
        raise GacruxRefused((done.stdout + done.stderr).strip().splitlines()[:3])
    header = table[0].split("\t")
    values = {}
    for row in table[1:]:
        cells = dict(zip(header, row.split("\t"), strict=True))
        values[int(cells["StartNo"])] = {
            code: Fraction(cells[name]) for code, name in zip(CODES, codes, strict=True)
        }
    return values


def _is_utf8(raw: bytes) -> bool:
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def ours(event: Event) -> tuple[dict[int, dict[str, Fraction]], int]:
    """The standings command's values for :data:`CODES`, and the round they are after."""
    out = StringIO()
    call_command(
        "standings", event.slug, "--tiebreaks", ",".join(CODES), "--format", "json", stdout=out
    )
    document = json.loads(out.getvalue())
    values = {
        row["start_no"]: {"PTS": Fraction(row["points"])}
        | {c: Fraction(row["tiebreaks"][c]) for c in CODES[1:]}
        for row in document["rows"]
    }
    return values, document["after_round"]


def edition_of(event: Event) -> int:
    return int(regulation_of(event).edition)


@pytest.mark.oracle
@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_tiebreaks_equal_fides_calculator_and_the_export_is_read_back(
    path: Path, tmp_path: Path
) -> None:
    event, _ = imported(path, "real")
    exported = tmp_path / "exported.trf"
    out = StringIO()
    call_command("export_trf", event.slug, stdout=out)
    exported.write_text(out.getvalue(), encoding="utf-8")
    mine, played = ours(event)
    options = {
        "edition": edition_of(event),
        "round_robin": event.is_round_robin,
        "played": played,
        "workdir": tmp_path,
    }
    # The export is read by gacrux, to the same values. A forfeit the file wrote without
    # colours is exported so (issue 28, "keep what the file had"), and gacrux refuses those as
    # it refuses the original: it then reads a copy that gives each such forfeit the colours of
    # its start numbers' order (an unplayed game's colour enters no tie-break compared here).
    try:
        read = gacrux(exported, **options)
    except GacruxRefused as refused:
        text = exported.read_text()
        assert "No result for black" in str(refused) and with_forfeit_colours(text) != text
        coloured = tmp_path / "exported-coloured.trf"
        coloured.write_text(with_forfeit_colours(exported.read_text()), encoding="utf-8")
        read = gacrux(coloured, **options)
    assert read == mine
    try:
        theirs = gacrux(path, **options)
    except GacruxRefused as refused:
        assert path.name in GACRUX_REFUSES, f"gacrux refused {path.name}: {refused}"
    else:
        assert path.name not in GACRUX_REFUSES, f"gacrux now reads {path.name}: compare it"
        assert theirs == mine
    checked = subprocess.run(
        [bbp_exe(), "--dutch", str(exported), "-c"], capture_output=True, text=True
    )
    assert checked.returncode == 0, checked.stderr  # read by bbpPairings' checker


def with_forfeit_colours(text: str) -> str:
    """``text`` with each forfeit written without colours given white for the lower start
    number and black for the higher (gacrux reads no forfeit without colours)."""

    def coloured(line: str) -> str:
        if not line.startswith("001"):
            return line
        own = int(line[4:8])
        head, rounds = line[:89], line[89:]
        blocks = [rounds[i : i + 10] for i in range(0, len(rounds), 10)]
        for index, block in enumerate(blocks):
            opponent = block[2:6].strip()
            if opponent.isdigit() and int(opponent) and block[7:8] == "-":
                colour = "w" if own < int(opponent) else "b"
                blocks[index] = block[:7] + colour + block[8:]
        return head + "".join(blocks)

    return "\n".join(coloured(line) for line in text.split("\n"))


# Files gacrux refuses as they are, and why (its own words): their tie-breaks are compared on
# the export, which gacrux reads.
GACRUX_REFUSES = {
    "armstrong_2011.tab": "a team league: records 013 make it a team tournament of 8 boards",
    "bunratty_masters_2011.tab": "its points column disagrees with the results",
    "irish_junior_champs_2011.tab": "its points column disagrees with the results",
    "example1.trf": "forfeits without colours (153 - -): 'No result for black in round 1'",
}


def bbp_exe() -> str:
    path = bbp.bbp_path()
    if path is None:
        pytest.skip(bbp.skip_reason())
    return path


# -- each round's cut: bbpPairings --------------------------------------------------------------

SCORES = {**dict.fromkeys("1W+FU", Fraction(1)), **dict.fromkeys("=DH", Fraction(1, 2))}


def _points(blocks: list[str]) -> Fraction:
    """The points of these entries as bbpPairings counts them (its trf.cpp: a win, a forfeit
    win and the F and U byes score a win, a draw and H a draw, all else nothing)."""
    return sum((SCORES.get(b.ljust(8)[7].upper(), Fraction(0)) for b in blocks), Fraction(0))


def _not_paired(block: str) -> bool:
    """An entry of a round in which the player is not paired: a requested bye or an absence
    (bbpPairings: no opponent, not U, not +)."""
    return bool(block.strip()) and not block[:4].strip("0 ") and block.ljust(8)[7] not in "U+"


def _cut_line(line: _Line, k: int) -> str:
    blocks = line.blocks()
    kept = [b.ljust(8) for b in blocks[:k]]
    following = blocks[k] if len(blocks) > k else ""
    if _not_paired(following):
        kept += ["        "] * (k - len(kept)) + [following.ljust(8)]
    head = line.text.ljust(91)[:91]
    head = head[:80] + f"{float(_points(kept)):4.1f}" + head[84:]
    return head + "  ".join(kept)


def cut_after(text: str, k: int, total: int) -> str:
    """The file as a program writes it after round k (see the module's docstring)."""
    lines = [line.rstrip("\r") for line in text.splitlines()]
    header = [line for line in lines if not line.startswith(("001", "XXR"))]
    players = [_cut_line(_Line(line), k) for line in lines if line.startswith("001")]
    return "\n".join([*header[:1], f"XXR {total}", *header[1:], *players]) + "\n"


SWISS = [p for p in FILES if declared_swiss(text_of(p))]
SWISS_IDS = [str(p.relative_to(CORPUS)) for p in SWISS]
# Above this many players the default run pairs the first and the last cut only (each cut of
# the 284-player Karl-Mala file is an import and a pairing); make test-pairing-full pairs every
# cut (tests/draws/swiss/test_trf_corpus_cuts.py).
EVERY_CUT_UP_TO = 150


def cuts(text: str, *, every: bool) -> tuple[int, list[int]]:
    """The scheduled rounds, and the rounds k after which the file is cut."""
    lines = player_lines(text)
    rounds = max(len(line.blocks()) for line in lines)
    total = max(rounds, int(record(text, "XXR") or 0))
    after = list(range(1, rounds))
    if not every and len(lines) > EVERY_CUT_UP_TO:
        after = sorted({after[0], after[-1]}) if after else []
    return total, after


def compare_cuts(path: Path, tmp_path: Path, *, every: bool) -> list[str]:
    exe = bbp_exe()
    text = text_of(path)
    total, after = cuts(text, every=every)
    mismatches = []
    for k in after:
        cut = cut_after(text, k, total)
        cut_path = tmp_path / f"after-{k}.trf"
        cut_path.write_text(cut, encoding="utf-8")
        expected, got = paired_by_bbppairings(exe, cut), paired_here(cut_path, f"cut-{k}")
        if got != expected:
            mismatches.append(f"after round {k}: bbpPairings {expected}, here {got}")
    return mismatches


@pytest.mark.parametrize("path", SWISS, ids=SWISS_IDS)
def test_each_rounds_cut_is_paired_as_bbppairings_pairs_it(path: Path, tmp_path: Path) -> None:
    assert compare_cuts(path, tmp_path, every=False) == []


def test_what_the_file_says_and_the_event_does_not_compute_is_kept() -> None:
    """For the writer and the director (issue 28): record 072 as written, the rank column the
    other program's tie-breaks gave, the forfeits written without colours (``153 - -``), the
    sex and title columns (``f``, ``wf`` in the Karl-Mala file)."""
    path = CORPUS / "sklangen-TRF" / "example1.trf"
    event, _ = imported(path, "karl-mala")
    assert event.trf_rated_players == 146
    players = {p.start_no: p for p in Player.objects.filter(event=event)}
    assert (players[1].file_rank, players[13].file_rank) == (4, None)  # 0: left the event
    assert (players[69].sex, players[69].title, players[186].sex) == ("", "WFM", "w")
    game = Game.objects.get(round__event=event, round__number=1, white__start_no__in=(13, 153))
    assert {game.white.start_no, game.black.start_no} == {13, 153}
    assert (game.colourless, game.result) == (True, "-/+")
    written = sum(  # both sides of a game without colours say "-"
        1
        for line in player_lines(text_of(path))
        for block in line.blocks()
        if block[:4].strip("0 ") and block.ljust(8)[5] == "-"
    )
    assert Game.objects.filter(round__event=event, colourless=True).count() * 2 == written
