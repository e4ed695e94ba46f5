"""Issue 20, "Switching from another program mid-event": a TRF written after round k by another
program, imported with the real ``import_trf`` command into PostgreSQL, then ``manage.py
pair``: exactly bbpPairings' pairing of the same file (``draws/swiss/trf_import.py``).

Tournaments come from bbpPairings' own generator (requested half-point byes, forfeits,
withdrawals); each is cut after every round k as another program writes it: the tournament
records, ``XXR`` with the scheduled rounds, and round k + 1's requested byes and absences as
one more round in which nobody is paired (as bbpPairings and JaVaFo read them). Every other
cut leaves out ``XXC`` (Swiss-Manager and Vega do not write it: the initial colour is then read
back from round 1's colours). The variants add the records bbpPairings reads: Baku
acceleration (``XXA``), forbidden pairs (``XXP``), 3/1/0 points (``BBW``/``BBD``). The default
run is a seeded subset; ``-m pairing_full`` (``make test-pairing-full``) runs them all.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, replace
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.draws.swiss import bbp
from tests.draws.swiss.differential import SCORING_310, Case, _extras, _generate, cases


@dataclass(frozen=True)
class Tournament(Case):
    """A generated tournament with more absences than the engine's differential run: about
    one player in six asks for a half-point bye each round, one in eight games is forfeited,
    and one player in fifteen withdraws (bbpPairings' generator takes "one in N" rates)."""

    def config(self) -> bbp.Config:
        return replace(super().config(), half_point_bye_rate=6, forfeit_rate=8, retired_rate=15)


def tournaments(count: int, seed: int, sizes: tuple[int, int]) -> list[Tournament]:
    return [Tournament(**vars(case)) for case in cases(count, seed, sizes)]


DEFAULT_TOURNAMENTS = [
    *tournaments(10, seed=2026, sizes=(7, 30)),
    Tournament(players=13, rounds=7, seed=20, variant="baku"),
    Tournament(players=16, rounds=7, seed=21, variant="forbidden"),
    Tournament(players=11, rounds=5, seed=22, variant="scoring310"),
]
FULL_TOURNAMENTS = [
    *tournaments(80, seed=20, sizes=(7, 60)),
    *tournaments(10, seed=21, sizes=(61, 120)),
]

HEADER = (
    "012 Continued Open {seed}\n022 Tromsø\n032 NOR\n042 2026/04/01\n052 2026/04/09\n"
    "062 {players}\n072 {players}\n092 Individual: Swiss-System\n102 IA Kari Nordmann\n"
    "112 FA Ola Nordmann\n122 90'/40+30'+30\"\n"
)


@pytest.fixture(scope="module")
def exe() -> str:
    return bbp.required_path()


def cut_after(case: Case, text: str, k: int) -> str:
    """The tournament as another program writes it after round k (round k + 1 not paired)."""
    scoring = SCORING_310 if case.variant == "scoring310" else None
    crosstable, total = bbp.parse(text, scoring)
    initial = bbp.infer_initial_colour(crosstable)
    extra, _ = _extras(case, crosstable, k + 1, total, random.Random(case.seed + k))
    lines = bbp.round_trf(crosstable, k + 1, total, initial, extra).splitlines()
    header = HEADER.format(seed=case.seed, players=len(crosstable.entrants)).splitlines()
    kept = [line for line in lines[1:] if k % 2 == 0 or not line.startswith("XXC")]
    return "\n".join(header + kept) + "\n"


def ours(path: Path, slug: str) -> tuple[object, object]:
    out = StringIO()
    call_command("import_trf", str(path), "--slug", slug, stdout=out, stderr=StringIO())
    assert out.getvalue().split()[-1] == slug
    try:
        document = json.loads(pair_json(slug))
    except CommandError as exc:
        assert "no pairing" in str(exc).lower() or "impossible" in str(exc).lower(), exc
        return "impossible", None
    boards = [(board["white"], board["black"]) for board in document["boards"]]
    byes = [bye["start_no"] for bye in document["byes"] if bye["kind"] == "pairing"]
    return boards, (byes[0] if byes else None)


def pair_json(slug: str) -> str:
    out = StringIO()
    call_command("pair", slug, "--dry-run", "--format", "json", stdout=out)
    return out.getvalue()


def theirs(exe: str, text: str) -> tuple[object, object]:
    try:
        boards, bye, _ = bbp.run_pairer(exe, text)
    except bbp.NoPairing:
        return "impossible", None
    return boards, bye


def compare(exe: str, case: Case, tmp_path: Path) -> list[str]:
    text = _generate(exe, case)
    total = bbp.parse(text)[1]
    mismatches = []
    for k in range(1, total):
        cut = cut_after(case, text, k)
        path = tmp_path / f"after-{k}.trf"
        path.write_text(cut, encoding="utf-8")
        slug = f"cut-{case.seed}-{k}"
        expected, got = theirs(exe, cut), ours(path, slug)
        if got != expected:
            mismatches.append(f"after round {k}: bbpPairings {expected}, ours {got}")
        again = theirs(exe, export_trf(slug))
        if again != expected:
            mismatches.append(f"after round {k}: bbpPairings on export_trf's file {again}")
    return mismatches


def export_trf(slug: str) -> str:
    out = StringIO()
    call_command("export_trf", slug, stdout=out)
    return out.getvalue()


@pytest.mark.django_db
@pytest.mark.parametrize("tournament", DEFAULT_TOURNAMENTS, ids=lambda case: case.id)
def test_pair_after_importing_a_cut_gives_bbppairings_pairing(
    exe: str, tournament: Case, tmp_path: Path
) -> None:
    assert compare(exe, tournament, tmp_path) == []


@pytest.mark.django_db
@pytest.mark.pairing_full
@pytest.mark.parametrize("tournament", FULL_TOURNAMENTS, ids=lambda case: case.id)
def test_pair_after_importing_a_cut_gives_bbppairings_pairing_full(
    exe: str, tournament: Case, tmp_path: Path
) -> None:
    assert compare(exe, tournament, tmp_path) == []
