"""Regulation presets: the preset list of design.md §4, as data.

The core presets are in standings/presets.py; the formats register their own (formats/cohen,
formats/mso, formats/gnot), and all of them land in one registry, ``events.regulations.PRESETS``.
"""

from __future__ import annotations

import importlib.util
from fractions import Fraction

import pytest

from events.records import Crosstable, Entrant, RoundResult
from events.regulations import PRESETS, Preset
from standings.ranking import PROCEDURES, rank
from standings.registry import REGISTRY

DESIGN_PRESETS = [
    "fide-2024",
    "fide-2026",
    "gct-2019-classical",
    "gct-2019-rapid-blitz",
    "mso-2021-two-player",
    "mso-2021-multi-player",
    "cohen-chess",
    "gnot-2012",
]
FIDE_LOADED = importlib.util.find_spec("standings.tiebreaks") is not None
BUCHHOLZ_FAMILY = {"BH", "FB", "AOB"}


def all_codes(preset: Preset) -> set[str]:
    codes = {*preset.swiss_tiebreaks, *preset.round_robin_tiebreaks}
    for chain in preset.chains:
        codes |= {*chain.codes, chain.primary}
    return codes


def test_every_design_preset_is_defined() -> None:
    assert sorted(PRESETS) == sorted(DESIGN_PRESETS)
    assert all(code == preset.code for code, preset in PRESETS.items())


@pytest.mark.parametrize("code", DESIGN_PRESETS)
def test_preset_is_usable(code: str) -> None:
    preset = PRESETS[code]
    assert preset.procedure in PROCEDURES
    assert preset.edition in ("2024", "2026")
    assert preset.complete or preset.note, "an incomplete preset says what is missing"
    if preset.code.startswith("fide") and not FIDE_LOADED:
        pytest.skip("the C.07 codes are registered by standings.tiebreaks")
    importlib.import_module("standings.ranking")  # registers what the engine loads
    if preset.tiebreak_check is not None:  # a format's own codes (MSO multi-player tables)
        codes = preset.tiebreaks_for(round_robin=False)
        assert preset.tiebreak_check(list(codes), False, preset.edition) == codes
        return
    for tiebreak in all_codes(preset):
        assert tiebreak == "PTS" or tiebreak.split("/")[0] in REGISTRY


@pytest.mark.parametrize(
    ("code", "edition", "procedure"),
    [
        pytest.param("fide-2024", "2024", "lexicographic", id="c07-2024-art4.2"),
        pytest.param("fide-2026", "2026", "lexicographic", id="c07-2026-art4.2"),
        pytest.param("mso-2021-two-player", "2024", "restart", id="seed003-clarification1"),
        pytest.param("mso-2021-multi-player", "2024", "restart", id="seed003-clarification1-mp"),
        pytest.param("cohen-chess", "2024", "peel", id="seed002-rule6"),
    ],
)
def test_edition_and_procedure(code: str, edition: str, procedure: str) -> None:
    assert (PRESETS[code].edition, PRESETS[code].procedure) == (edition, procedure)


def test_fide_round_robins_use_no_buchholz() -> None:
    """C.07 2026 forbids the Buchholz family in round robins; the default avoids it in both."""
    for code in ("fide-2024", "fide-2026"):
        chain = PRESETS[code].tiebreaks_for(round_robin=True)
        assert chain[0] == "DE"
        assert not {tiebreak.split("/")[0] for tiebreak in chain} & BUCHHOLZ_FAMILY
        assert PRESETS[code].tiebreaks_for(round_robin=False)[:2] == ("BH/C1", "BH")


def test_mso_two_player_chain() -> None:
    """seed003 two-player rules 1–3 with clarification 2 (equalised Buchholz)."""
    preset = PRESETS["mso-2021-two-player"]
    assert preset.tiebreaks_for(round_robin=False) == ("BHEQ/C2", "BHEQ", "PROG")


def test_gct_presets_break_no_ties_and_rapid_counts_double() -> None:
    """seed000 2.7/3.10: ties share; rules-notes "Rapid & Blitz scoring": rapid counts double."""
    for code in ("gct-2019-classical", "gct-2019-rapid-blitz"):
        assert PRESETS[code].tiebreaks_for(round_robin=True) == ()
    scoring = PRESETS["gct-2019-rapid-blitz"].scoring
    rapid_win = RoundResult(1, 2, "w", "1", "rapid")
    blitz_draw = RoundResult(2, 3, "b", "=", "blitz")
    assert scoring.points(rapid_win) == 2
    assert scoring.points(blitz_draw) == Fraction(1, 2)
    assert PRESETS["gct-2019-classical"].scoring.points(rapid_win) == 1


def test_gct_tie_is_left_shared() -> None:
    preset = PRESETS["gct-2019-classical"]
    entrants = tuple(
        Entrant(p, f"Player {p}", results=(RoundResult(1, None, "-", "F"),)) for p in (1, 2)
    )
    standings = rank(
        Crosstable("GCT", 1, entrants, scoring=preset.scoring),
        preset.tiebreaks_for(round_robin=True),
        procedure=preset.procedure,
    )
    assert [(s.rank, s.shared) for s in standings] == [(1, True), (1, True)]
