"""Issue 28, "Keep what the file had", on the writing side: a TRF imported and exported again
keeps a forfeit's missing colours (``- -``), the players' sex, record 072 counted as FIDE
counts rated players (a rating and a FIDE id), and the rank column as the file's tie-breaks
gave it (the standings' order, not points then start number). Through the commands people
use: ``import_trf``, ``export_trf``, and ``export_event``/``import_event`` in between.
"""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from events.models import Game
from events.services import game_result_record
from tests.conftest import export_document, import_copy

pytestmark = pytest.mark.django_db


def record(
    start_no: int, sex: str, name: str, rating: int, fide_id: str, rank: int, *rounds: str
) -> str:
    head = (
        f"001 {start_no:4d} {sex}    {name:<33} {rating:4d} NOR {fide_id:>11} {'':<10} "
        f"{'0.0':>4} {rank:4d}"
    )
    return head + "".join(f"  {block}" for block in rounds)


# Round 1: 1 wins by forfeit against 2, neither given a colour; 3 beats 4. Round 2: 3 beats 1,
# 2 and 4 draw. 2 and 4 have half a point each; 4 met the stronger opponents (Buchholz), so
# the file ranks 4 third and 2 fourth, as the standings do.
FILE = (
    "\n".join(
        [
            "012 Kept Open",
            "042 2025/05/01",
            "XXR 2",
            record(1, "w", "Aas, Ane", 1800, "1503014", 2, "   2 - +", "   3 b 0"),
            record(2, "m", "Berg, Bo", 1700, "", 4, "   1 - -", "   4 w ="),
            record(3, "m", "Dahl, Dag", 0, "", 1, "   4 w 1", "   1 w 1"),
            record(4, "w", "Eik, Eva", 1600, "00000000", 3, "   3 b 0", "   2 b ="),
        ]
    )
    + "\n"
)


def exported(slug: str) -> dict[int, str]:
    out = StringIO()
    call_command("export_trf", slug, stdout=out)
    lines = out.getvalue().splitlines()
    return {int(line[4:8]): line for line in lines if line.startswith("001")} | {
        0: next(line for line in lines if line.startswith("072"))
    }


def test_a_file_imported_and_exported_keeps_what_it_had(tmp_path: Path) -> None:
    path = tmp_path / "kept.trf"
    path.write_text(FILE)
    call_command("import_trf", str(path), "--slug", "kept", stdout=StringIO(), stderr=StringIO())
    assert list(Game.objects.filter(colourless=True).values_list("result", flat=True)) == ["+/-"]
    lines = exported("kept")
    assert lines[1][91:99] == "   2 - +" and lines[2][91:99] == "   1 - -"
    assert lines[3][91:99] == "   4 w 1"  # a game played keeps its colours
    assert [lines[n][9] for n in (1, 2, 3, 4)] == ["w", "m", "m", "w"]
    assert lines[0] == "072 1"  # only 1 has a rating and a FIDE id
    assert {n: int(lines[n][85:89]) for n in (1, 2, 3, 4)} == {3: 1, 1: 2, 4: 3, 2: 4}
    original = {int(line[4:8]): line[85:89] for line in FILE.splitlines() if line[:3] == "001"}
    assert {n: lines[n][85:89] for n in original} == original

    copy = import_copy(export_document("kept"), tmp_path, slug="kept-copy")
    assert exported(copy.slug) == lines  # the JSON exchange keeps the missing colours too


def test_a_forfeit_corrected_to_a_game_played_gets_its_colours_back(tmp_path: Path) -> None:
    path = tmp_path / "kept.trf"
    path.write_text(FILE)
    call_command("import_trf", str(path), "--slug", "kept", stdout=StringIO(), stderr=StringIO())
    game = Game.objects.get(colourless=True)
    game_result_record(game_id=game.pk, result="1-0", expected_version=game.version, user=None)
    lines = exported("kept")
    assert lines[1][91:99] == "   2 w 1" and lines[2][91:99] == "   1 b 0"
