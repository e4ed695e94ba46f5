"""FIDE C.07 tie-breaks: FIDE's published exercises, the fixture tables, and the tricky rules.

No database. Every row of ``shared/data/tiebreaks/expected_values.csv`` is a case whose id
names its provenance; the rule cases name the C.07 article they pin down.
"""

from __future__ import annotations

import csv
import dataclasses
import re
import time
from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from events.records import Crosstable, Entrant, RoundResult, round_result
from events.trf import parse_trf
from standings import tiebreaks
from standings.registry import REGISTRY, TiebreakNotAllowed, UnknownTiebreak, parse_code
from tests.standings.generate import generate, generate_swiss, ranks_by_points_then_de

DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "tiebreaks"
if not DATA.exists():  # the shared folder sits next to the project root
    DATA = Path("/work/shared/data/tiebreaks")


@cache
def fixture(name: str) -> Crosstable:
    crosstable = parse_trf((DATA / name).read_text()).crosstable
    # The exercises' round robin is not flagged in its TRF; FIDE computes it as one (-p).
    return dataclasses.replace(crosstable, round_robin="round_robin" in name)


def _edition(rules_edition: str) -> str:
    # The CSV names the rules by their date: C07-2024-08 (the 2023 text as revised on
    # 1 Aug 2024) and C07-2026-03 (in force from 1 Mar 2026).
    return {"C07-2024-08": "2024", "C07-2026-03": "2026"}[rules_edition]


def _csv_cases() -> list[object]:
    with (DATA / "expected_values.csv").open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    cases = []
    for row in rows:
        case_id = (
            f"{row['provenance']} | {row['fixture']} | {row['rules_edition']} | "
            f"{row['tiebreak']} | #{row['start_no']}"
        )
        cases.append(pytest.param(row, id=case_id))
    return cases


@pytest.mark.parametrize("row", _csv_cases())
def test_published_and_fixture_values(row: dict[str, str]) -> None:
    crosstable = fixture(row["fixture"])
    edition = _edition(row["rules_edition"])
    start_no = int(row["start_no"])
    code = row["tiebreak"]
    if code == "RANK(PTS,DE)":
        value: object = ranks_by_points_then_de(crosstable, edition)[start_no]
        assert value == int(row["expected"])
        return
    value = tiebreaks.compute_all(crosstable, [code], edition)[code][start_no]
    if row["expected"] == "undefined":
        # No opponent left after the cut: the engine reports 0, which ranks last.
        assert value == 0
    else:
        assert value == Fraction(row["expected"])


# ---------------------------------------------------------------------------------------------
# A compact notation for hand-made crosstables: "2w1" = opponent 2, white, result 1;
# "-H" = no opponent, result H.


def table(
    rows: dict[int, str], *, round_robin: bool = False, ratings: dict[int, int] | None = None
) -> Crosstable:
    entrants = []
    for start_no, text in rows.items():
        results = []
        for round_no, token in enumerate(text.split(), start=1):
            if token.startswith("-"):
                results.append(RoundResult(round_no, None, "-", token[1]))
            else:
                results.append(RoundResult(round_no, int(token[:-2]), token[-2], token[-1]))
        rating = (ratings or {}).get(start_no, 2000 - 10 * start_no)
        entrants.append(Entrant(start_no, f"P{start_no}", rating=rating, results=tuple(results)))
    rounds = max(len(e.results) for e in entrants)
    return Crosstable("t", rounds, tuple(entrants), round_robin=round_robin)


# Player 1 takes a half-point bye in round 2 and wins the other two games.
SWISS_BYE = table(
    {
        1: "2w1 -H 3w1",
        2: "1b0 3w= 4w1",
        3: "4w1 2b= 1b0",
        4: "3b0 -U 2b0",
    }
)
# Player 1 beats 2, then forfeits to 3 (a VUR with an opponent), then beats 4.
SWISS_FORFEIT = table(
    {
        1: "2w1 3w- 4w1",
        2: "1b0 4w1 3w1",
        3: "4b0 1b+ 2b0",
        4: "3w1 2b0 1b0",
    }
)
# Player 1 beats 2 and 3, then withdraws (zero-point byes for the rest).
SWISS_WITHDRAWAL = table(
    {
        1: "2w1 3w1 -Z -Z",
        2: "1b0 4w= 3w1 4b0",
        3: "4b= 1b0 2b0 -U",
        4: "3w= 2b= -U 2w1",
    }
)
ROUND_ROBIN_FORFEIT = table(
    {
        1: "4w1 2b= 3w0",
        2: "3w= 1w= 4b+",
        3: "2b= 4w1 1b1",
        4: "1b0 3b0 2w-",
    },
    round_robin=True,
)

RULE_CASES = [
    # (id, crosstable, edition, code, {start_no: value})
    (
        "C.07 16.4 dummy = own score for a requested bye (2024)",
        SWISS_BYE,
        "2024",
        "BH",
        {1: Fraction(11, 2)},
    ),
    (
        "C.07 16.4.2 2026 caps a bye's dummy at a draw x rounds",
        SWISS_BYE,
        "2026",
        "BH",
        {1: Fraction(9, 2)},
    ),
    (
        "C.07 16.5 Cut-1 removes the VUR even when it is higher (2024)",
        SWISS_BYE,
        "2024",
        "BH/C1",
        {1: 3},
    ),
    ("C.07 16.5 Cut-1 removes the capped VUR (2026)", SWISS_BYE, "2026", "BH/C1", {1: 3}),
    (
        "C.07 16.3 a bye before the last game counts its points for opponents",
        SWISS_BYE,
        "2024",
        "BH",
        {2: 5},
    ),
    (
        "C.07 16.2.1 a pairing-allocated bye is no VUR: dummy, no cut preference",
        SWISS_BYE,
        "2024",
        "BH/C1",
        {4: 3},
    ),
    ("C.07 16.4.1 2024 forfeit dummy = own score", SWISS_FORFEIT, "2024", "BH", {1: 5}),
    (
        "C.07 16.4.1 2026 caps a forfeit's dummy at the opponent's score",
        SWISS_FORFEIT,
        "2026",
        "BH",
        {1: 4},
    ),
    (
        "C.07 16.3 withdrawn player's later byes count as draws for opponents",
        SWISS_WITHDRAWAL,
        "2024",
        "BH",
        {2: Fraction(21, 2)},
    ),
    (
        "C.07 9.1 SB: opponent score x own result, dummy rounds included",
        SWISS_BYE,
        "2024",
        "SB",
        {1: Fraction(17, 4)},
    ),
    (
        "C.07 16.5 SB Cut-1 cuts the higher of lowest VUR and weakest opponent",
        SWISS_BYE,
        "2024",
        "SB/C1",
        {1: Fraction(11, 4)},
    ),
    (
        "C.07 15.2 round robin: forfeits count as games for SB",
        ROUND_ROBIN_FORFEIT,
        "2024",
        "SB",
        {2: 2, 4: 0},
    ),
    ("C.07 7.1 WIN counts forfeit wins and pairing byes", SWISS_FORFEIT, "2024", "WIN", {3: 1}),
    ("C.07 7.2 WON counts over-the-board wins only", SWISS_FORFEIT, "2024", "WON", {3: 0}),
    ("C.07 7.1 WIN counts a pairing-allocated bye", SWISS_BYE, "2024", "WIN", {4: 1}),
    (
        "C.07 7.3 BPG: games played with black (forfeits excluded)",
        SWISS_FORFEIT,
        "2024",
        "BPG",
        {3: 2},
    ),
    (
        "C.07 7.5 REP: games, pairing byes and full-point rounds",
        SWISS_BYE,
        "2024",
        "REP",
        {1: 2, 4: 3},
    ),
    ("C.07 7.6 PS: sum of running scores", SWISS_BYE, "2024", "PS", {1: 5}),
    ("C.07 14.1 PS/C1 leaves out the first round", SWISS_BYE, "2024", "PS/C1", {1: 4}),
    ("C.07 10.1 ARO: over-the-board opponents only", SWISS_FORFEIT, "2024", "ARO", {1: 1970}),
    ("C.07 8.3 FB: the last game is scored as a draw", SWISS_BYE, "2024", "FB", {1: 5}),
    ("C.07 9.3 KS: points against opponents with at least 50 %", SWISS_BYE, "2024", "KS", {1: 2}),
    ("TPN: the pairing number itself (lower is better)", SWISS_BYE, "2026", "TPN", {3: 3}),
    (
        "STD: 1 / ½ / 0 by comparison with a draw's points",
        SWISS_BYE,
        "2026",
        "STD",
        {1: Fraction(5, 2)},
    ),
]


@pytest.mark.parametrize(
    ("crosstable", "edition", "code", "expected"),
    [pytest.param(*case[1:], id=case[0]) for case in RULE_CASES],
)
def test_rules(
    crosstable: Crosstable, edition: str, code: str, expected: dict[int, object]
) -> None:
    values = tiebreaks.compute_all(crosstable, [code], edition)[code]
    assert {start_no: values[start_no] for start_no in expected} == expected


# ---------------------------------------------------------------------------------------------
# Rating tie-breaks (C.07 Art. 10, B.02 tables)


def test_aro_rounds_half_up_c07_10_1() -> None:
    crosstable = table(
        {1: "2w1 3b1", 2: "1b0 -U", 3: "-U 1w0"}, ratings={1: 2000, 2: 1500, 3: 1501}
    )
    assert tiebreaks.compute(crosstable, "ARO", "2024")[1] == 1501  # 1500.5 rounds up


def test_tpr_and_ptp_c07_10_2_10_3() -> None:
    crosstable = table(
        {1: "2w1 3b=", 2: "1b0 -U", 3: "-U 1w="}, ratings={1: 2000, 2: 1800, 3: 1900}
    )
    values = tiebreaks.compute_all(crosstable, ["TPR", "PTP"], "2024")
    # 75 %: dp(75) = 193; ARO 1850
    assert values["TPR"][1] == 1850 + 193
    # A draw against 2000: B.02 gives 50 % for differences up to 3, so 1997 suffices.
    assert values["PTP"][3] == 1997


def test_ptp_zero_score_is_lowest_opponent_minus_800_c07_10_3() -> None:
    crosstable = table(
        {1: "2w0 3b0", 2: "1b1 -U", 3: "-U 1w1"}, ratings={1: 2000, 2: 1800, 3: 1900}
    )
    assert tiebreaks.compute(crosstable, "PTP", "2024")[1] == 1800 - 800


def test_rating_tiebreaks_dropped_with_unrated_player_c07_10() -> None:
    crosstable = table({1: "2w1", 2: "1b0"}, ratings={1: 2000, 2: 0})
    with pytest.raises(tiebreaks.RatingTiebreakDropped, match="unrated"):
        tiebreaks.compute_all(crosstable, ["ARO"], "2024")
    with pytest.raises(TiebreakNotAllowed):
        tiebreaks.check_allowed("TPR", round_robin=False, edition="2024", crosstable=crosstable)
    values = tiebreaks.compute_all(crosstable, ["ARO", "RTNG"], "2026", {"unrated_rating": 1000})
    assert values["ARO"][1] == 1000
    assert values["RTNG"][2] == 1000


def test_b02_tables_agree_with_fide_calculator() -> None:
    fidetables = pytest.importorskip("gacrux.fidetables")
    assert [tiebreaks.rating_difference_for(p) for p in range(101)] == fidetables.ScoreToDp
    assert [tiebreaks.expected_percent(d) for d in range(801)] == fidetables.DiffToPd


# ---------------------------------------------------------------------------------------------
# Direct encounter (C.07 Art. 6)


def test_de_averages_repeated_games_c07_6() -> None:
    crosstable = table({1: "2w1 2b0 2w1", 2: "1b0 1w1 1b0"})
    values = tiebreaks.compute(crosstable, "DE", "2024", group={1, 2})
    assert values == {1: Fraction(2, 3), 2: Fraction(1, 3)}


def test_de_leaves_forfeits_out_unless_p_c07_6() -> None:
    crosstable = table({1: "2w+ 3w1", 2: "1b- 4w1", 3: "4b1 1b0", 4: "3w0 2b0"})
    # 1 and 2 have not played each other over the board: DE cannot place either.
    plain = tiebreaks.compute(crosstable, "DE", "2024", group={1, 2})
    assert plain[1] == plain[2]
    counted = tiebreaks.compute(crosstable, "DE/P", "2024", group={1, 2})
    assert counted[1] > counted[2]


def test_de_swiss_places_only_when_missing_games_cannot_change_it_c07_6() -> None:
    # 1 beat 2 and 3; 2 and 3 never met: 1 is placed, 2 and 3 stay tied.
    crosstable = table(
        {1: "2w1 3b1", 2: "1b0 4w1", 3: "4w1 1w0", 4: "3b0 2b0"},
    )
    values = tiebreaks.compute(crosstable, "DE", "2024", group={1, 2, 3})
    assert values[1] > values[2] == values[3]


def test_de_round_robin_uses_scores_of_games_met_c07_6() -> None:
    values = tiebreaks.compute(ROUND_ROBIN_FORFEIT, "DE", "2024", group={2, 4})
    assert values[2] > values[4]  # the forfeit counts in a round robin (15.2)


# ---------------------------------------------------------------------------------------------
# Registry, modifiers, editions


@pytest.mark.parametrize(
    "code",
    ["PTS", "BH/C1", "BH/C2", "BH/M1", "BH/M2", "FB/M1", "SB/C1", "PS/C1", "KS/L+1", "KS/L-2",
     "AOB/F", "DE/P", "ARO/C1", "ARO/M1", "TPN/R", "RTNG/R", "STD", "APRO", "APPO", "PTP"],
)  # fmt: skip
def test_accepted_codes(code: str) -> None:
    assert parse_code(code).code == code


@pytest.mark.parametrize(
    ("code", "message"),
    [("BH/L+1", "/L+1"), ("SB/M1", "/M1"), ("KS/C1", "/C1"), ("TPR/C1", "/C1"), ("PTS/R", "/R"),
     ("DE/C1", "/C1"), ("XYZ", "unknown"), ("BH/C0", "/C0")],
)  # fmt: skip
def test_rejected_modifiers(code: str, message: str) -> None:
    with pytest.raises(UnknownTiebreak, match=re.escape(message)):
        parse_code(code)


def test_every_fide_code_is_registered() -> None:
    codes = "PTS DE WIN WON BPG BWG PS REP STD TPN BH AOB FB SB KS ARO TPR PTP APRO APPO RTNG"
    assert set(codes.split()) <= set(REGISTRY)
    assert REGISTRY["DE"].group_dependent
    assert not REGISTRY["TPN"].higher_is_better


@pytest.mark.parametrize(
    ("code", "round_robin", "edition", "allowed"),
    [
        ("BH", True, "2026", False),
        ("BH/C1", True, "2026", False),
        ("FB", True, "2026", False),
        ("AOB", True, "2026", False),
        ("BH", True, "2024", True),
        ("BH", False, "2026", True),
        ("SB", True, "2026", True),
        ("STD", False, "2024", False),
        ("TPN", False, "2024", False),
        ("AOB/F", False, "2024", False),
        ("AOB/F", False, "2026", True),
    ],
    ids=lambda v: str(v),
)
def test_check_allowed_by_edition(
    code: str, round_robin: bool, edition: str, allowed: bool
) -> None:
    if allowed:
        tiebreaks.check_allowed(code, round_robin=round_robin, edition=edition)
    else:
        with pytest.raises(TiebreakNotAllowed, match=r"C\.07"):
            tiebreaks.check_allowed(code, round_robin=round_robin, edition=edition)


def test_edition_by_start_date() -> None:
    assert tiebreaks.edition_for(fixture("held_swiss_5.trf").start_date) == "2024"
    assert (
        tiebreaks.edition_for(fixture("swiss_with_many_unplayed_rounds.trf").start_date) == "2024"
    )
    assert tiebreaks.edition_for(tiebreaks.EDITION_2026_START) == "2026"


def test_reverse_modifier_negates_so_higher_stays_better() -> None:
    values = tiebreaks.compute_all(SWISS_BYE, ["RTNG", "RTNG/R"], "2026")
    assert values["RTNG/R"] == {s: -v for s, v in values["RTNG"].items()}


def test_compute_all_leaves_out_group_dependent_codes() -> None:
    assert set(tiebreaks.compute_all(SWISS_BYE, ["PTS", "DE", "BH"], "2024")) == {"PTS", "BH"}


# ---------------------------------------------------------------------------------------------
# Properties


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(min_value=0, max_value=10_000))
def test_cuts_never_raise_the_value(seed: int) -> None:
    crosstable = generate(seed)
    edition = tiebreaks.edition_for(crosstable.start_date)
    values = tiebreaks.compute_all(
        crosstable, ["BH", "BH/C1", "BH/C2", "BH/M1", "SB", "SB/C1"], edition
    )
    for start_no in values["BH"]:
        assert values["BH/C2"][start_no] <= values["BH/C1"][start_no] <= values["BH"][start_no]
        assert values["BH/M1"][start_no] <= values["BH/C1"][start_no]
        assert values["SB/C1"][start_no] <= values["SB"][start_no]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(min_value=0, max_value=10_000))
def test_values_are_exact_and_cover_the_field(seed: int) -> None:
    crosstable = generate(seed)
    edition = tiebreaks.edition_for(crosstable.start_date)
    codes = ["PTS", "BH", "SB", "PS", "WIN", "AOB", "KS"]
    values = tiebreaks.compute_all(crosstable, codes, edition)
    start_nos = {e.start_no for e in crosstable.entrants}
    for code in codes:
        assert set(values[code]) == start_nos
        assert all(isinstance(v, Fraction) for v in values[code].values())


def test_linear_scaling_2000_players_11_rounds() -> None:
    crosstable = generate_swiss(7, players=2000, rounds=11)
    # CPU time: a quadratic computation fails it, a busy machine (other tests, other workers)
    # does not; the wall-clock figures are bench/standings.py's.
    started = time.process_time()
    values = tiebreaks.compute_all(crosstable, ["PTS", "BH/C1", "BH", "SB", "PS"], "2024")
    elapsed = time.process_time() - started
    assert len(values["BH"]) == 2000
    assert elapsed < 3.0


@given(
    st.integers(1, 30),
    st.one_of(st.none(), st.integers(1, 3000)),
    st.sampled_from("wb-"),
    st.sampled_from(sorted("1=0WDL+-UFHZ")),
    st.sampled_from(["", "rapid", "blitz"]),
)
def test_round_result_is_the_constructors_record(round_no, opponent, colour, code, control):
    """The loaders' fast maker (docs/performance.md) gives the same frozen record."""
    made = round_result(round_no, opponent, colour, code, control)
    expected = RoundResult(round_no, opponent, colour, code, control)
    assert made == expected and hash(made) == hash(expected) and repr(made) == repr(expected)
    assert (made.played, made.is_forfeit) == (expected.played, expected.is_forfeit)
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.code = "1"  # type: ignore[misc]
