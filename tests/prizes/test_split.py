"""Prize splitting (prizes/split.py): seed 000 3.8 and its Addendum, 2.6/2.7/3.10 equal splits,
the classic Hort system, the rounding policies and their bounds."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from prizes.split import (
    ROUNDING_POLICIES,
    SPLIT_RULES,
    FinalRanking,
    PlacedPlayer,
    PlacePrize,
    PlayoffWinnerRequired,
    PrizeFund,
    PrizeInputError,
    PrizeRow,
    allocate_prizes,
    format_exact_money,
    pool_text,
    prize_regulation,
    prize_sheet_json,
)

ADDENDUM_FUND = PrizeFund.from_amounts([90000, 60000, 40000, 30000])


def ranking(
    group_sizes: Sequence[int],
    *,
    playoff_winner: int | None = None,
    tiebreak_order: bool = False,
) -> FinalRanking:
    """Players numbered 1, 2, … in ranking order, in tie groups of the given sizes."""
    players = []
    start_no = 1
    for size in group_sizes:
        rank = start_no
        for position in range(1, size + 1):
            players.append(
                PlacedPlayer(
                    start_no=start_no,
                    name=f"Player {start_no}",
                    rank=rank,
                    shared=size > 1,
                    tiebreak_order=position if tiebreak_order and size > 1 else None,
                )
            )
            start_no += 1
    return FinalRanking(tuple(players), playoff_winner=playoff_winner)


def amounts(sheet_rows: Sequence[PrizeRow]) -> dict[int, Decimal]:
    return {row.start_no: row.amount for row in sheet_rows}


# --- Seed 000 Addendum: tie for 1st–4th, 90k/60k/40k/30k, Player 2 wins the playoff ----------

ADDENDUM_CASES = [
    pytest.param(
        "per-share-half-up",
        {2: 72500, 1: 49167, 3: 49167, 4: 49167},
        Decimal(220001),
        Decimal(0),
        id="seed000-addendum-per-share-half-up-220001",
    ),
    pytest.param(
        "largest-remainder",
        # Three equal remainders of 2/3 compete for two units: rank, then start number.
        {2: 72500, 1: 49167, 3: 49167, 4: 49166},
        Decimal(220000),
        Decimal(0),
        id="seed000-addendum-largest-remainder-220000",
    ),
    pytest.param(
        "floor",
        {2: 72500, 1: 49166, 3: 49166, 4: 49166},
        Decimal(219998),
        Decimal(2),
        id="seed000-addendum-floor-remainder-to-organiser",
    ),
]


@pytest.mark.parametrize(("policy", "expected", "total", "organiser"), ADDENDUM_CASES)
def test_addendum_gct_classical_tie_for_first(
    policy: str, expected: dict[int, int], total: Decimal, organiser: Decimal
) -> None:
    sheet = allocate_prizes(
        ranking([4, 1], playoff_winner=2),
        ADDENDUM_FUND,
        split_rule_code="gct-2019-classical",
        rounding_code=policy,
    )
    assert amounts(sheet.rows) == {**{k: Decimal(v) for k, v in expected.items()}, 5: Decimal(0)}
    assert sheet.fund == Decimal(220000)
    assert sheet.total_paid == total
    assert sheet.difference == total - Decimal(220000)
    assert sheet.organiser_remainder == organiser
    # 3.8: the tied players are not ranked among themselves; the winner is listed first.
    assert [(row.rank, row.shared) for row in sheet.rows[:4]] == [(1, True)] * 4
    assert sheet.rows[0].start_no == 2 and sheet.rows[0].playoff_winner


def test_addendum_breakdown_text_matches_the_table() -> None:
    sheet = allocate_prizes(
        ranking([4], playoff_winner=2), ADDENDUM_FUND, split_rule_code="gct-2019-classical"
    )
    by_start_no = {row.start_no: row for row in sheet.rows}
    assert "shared 27,500 + divisible 45,000 = 72,500" in by_start_no[2].breakdown
    assert "shared 27,500 + divisible 21,667 = 49,167" in by_start_no[3].breakdown
    assert "exact 49,166 2/3" in by_start_no[3].breakdown
    assert by_start_no[3].exact_amount == Fraction(147500, 3)


def test_gct_classical_needs_the_playoff_winner_seed000_3_8() -> None:
    with pytest.raises(PlayoffWinnerRequired, match="3.8"):
        allocate_prizes(ranking([2, 1]), ADDENDUM_FUND, split_rule_code="gct-2019-classical")


SPLIT_CASES = [
    pytest.param(
        "gct-2019-classical",
        [1, 2, 1],
        None,
        {1: "90000", 2: "50000", 3: "50000", 4: "30000"},
        id="seed000-3.10-classical-tie-below-first-equal",
    ),
    pytest.param(
        "gct-2019-classical",
        [2, 2],
        1,
        # 3.8 with two: 150,000/4 = 37,500 shared; winner +45,000, loser +30,000.
        {1: "82500", 2: "67500", 3: "35000", 4: "35000"},
        id="seed000-3.8-two-way-tie-for-first",
    ),
    pytest.param(
        "equal",
        [2, 1, 1],
        1,
        # 2.6: the Rapid & Blitz playoff decides the title only.
        {1: "75000", 2: "75000", 3: "40000", 4: "30000"},
        id="seed000-2.6-rapid-blitz-tie-for-first-equal",
    ),
    pytest.param(
        "equal",
        [1, 3],
        None,
        # (60,000 + 40,000 + 30,000) / 3 = 43,333 1/3: thirds.
        {1: "90000", 2: "43333", 3: "43333", 4: "43333"},
        id="seed000-2.7-three-tied-for-2nd-4th-thirds",
    ),
    pytest.param(
        "equal",
        [1, 1, 4],
        None,
        # Places 3–6 tied, prizes only for 3 and 4: (40,000 + 30,000 + 0 + 0) / 4.
        {1: "90000", 2: "60000", 3: "17500", 4: "17500", 5: "17500", 6: "17500"},
        id="tie-straddling-the-end-of-the-fund",
    ),
    pytest.param(
        "equal",
        [1, 1, 1, 1, 1],
        None,
        {1: "90000", 2: "60000", 3: "40000", 4: "30000", 5: "0"},
        id="no-ties-place-beyond-the-fund-pays-0",
    ),
]


@pytest.mark.parametrize(("rule", "groups", "winner", "expected"), SPLIT_CASES)
def test_split_rules(
    rule: str, groups: list[int], winner: int | None, expected: dict[int, str]
) -> None:
    sheet = allocate_prizes(
        ranking(groups, playoff_winner=winner), ADDENDUM_FUND, split_rule_code=rule
    )
    assert amounts(sheet.rows) == {k: Decimal(v) for k, v in expected.items()}


BREAKDOWN_CASES = [
    pytest.param(
        [1, 2, 1], 2, "equal split of places 2–3 (60,000 + 40,000) / 2 = 50,000", id="2.7"
    ),
    pytest.param(
        [1, 3],
        2,
        "equal split of places 2–4 (60,000 + 40,000 + 30,000) / 3 = 43,333 "
        "(exact 43,333 1/3, per-share-half-up)",
        id="2.7-thirds",
    ),
    pytest.param([1, 1, 1, 1, 1], 1, "prize for place 1 = 90,000", id="untied"),
    pytest.param([1, 1, 1, 1, 1], 5, "no prize for place 5 = 0", id="beyond-fund"),
]


@pytest.mark.parametrize(("groups", "start_no", "text"), BREAKDOWN_CASES)
def test_breakdown_text(groups: list[int], start_no: int, text: str) -> None:
    sheet = allocate_prizes(ranking(groups), ADDENDUM_FUND)
    assert {row.start_no: row.breakdown for row in sheet.rows}[start_no] == text


# Issue 29: a 5,000-way tie wrote all 5,000 pooled prizes on each of its 5,000 rows.
POOL_CASES = [
    pytest.param(["60,000", "40,000"], "100,000", "60,000 + 40,000", id="2.7-as-before"),
    pytest.param(["100.00", "0.00", "0.00"], "100.00", "100.00 + 0.00 + 0.00", id="two-alike"),
    pytest.param(
        ["300", "200", "100", *["0"] * 4997], "600", "300 + 200 + 100 + 4,997 × 0", id="issue-29"
    ),
    pytest.param(["50"] * 10 + ["0"] * 3, "500", "10 × 50 + 3 × 0", id="runs"),
    pytest.param(
        [str(n) for n in range(100, 0, -10)], "550", "10 prizes, 550 in all", id="many-terms"
    ),
]


@pytest.mark.parametrize(("terms", "total", "text"), POOL_CASES)
def test_pooled_prizes_are_said_in_words_that_do_not_grow_with_the_tie(
    terms: list[str], total: str, text: str
) -> None:
    assert pool_text(terms, total) == text


def _breakdown_bytes(rule: str, size: int, fund: PrizeFund) -> int:
    sheet = allocate_prizes(
        ranking([size], tiebreak_order=rule == "hort"), fund, split_rule_code=rule
    )
    return sum(len(row.breakdown.encode()) for row in sheet.rows)


@pytest.mark.parametrize(
    ("rule", "fund"),
    [
        pytest.param("equal", ADDENDUM_FUND, id="equal-small-fund"),
        pytest.param("equal", PrizeFund.from_amounts(range(900, 0, -1)), id="equal-900-prizes"),
        pytest.param("hort", ADDENDUM_FUND, id="hort"),
    ],
)
def test_a_ties_breakdowns_grow_linearly_with_the_tie(rule: str, fund: PrizeFund) -> None:
    """Issue 29: the sheet of a 400-way tie says about twice what a 200-way tie's says (it
    was four times as much: every row listed every place's prize)."""
    small, large = _breakdown_bytes(rule, 200, fund), _breakdown_bytes(rule, 400, fund)
    assert large / small < 2.2, (small, large)


# --- The classic Hort system ----------------------------------------------------------------
# Source: German Wikipedia, "Hort-System". Each tied player keeps half the prize of the place
# their tie-breaks give them; the other halves form a pot shared equally.

HORT_CASES = [
    pytest.param(
        [100, 80, 60, 40, 20, 10],
        [2, 1, 3],
        # A, B tied on 8: keep 50 and 40, pot 90 → 45 each. C alone: 60. D, E, F tied on 7:
        # keep 20, 10, 5, pot 35 → 35/3 each.
        {
            1: Fraction(95),
            2: Fraction(85),
            3: Fraction(60),
            4: Fraction(95, 3),
            5: Fraction(65, 3),
            6: Fraction(50, 3),
        },
        {1: 95, 2: 85, 3: 60, 4: 32, 5: 22, 6: 17},
        id="de.wikipedia-Hort-System-example",
    ),
    pytest.param(
        [90000, 60000, 40000, 30000],
        [4],
        # The Addendum's fund under the classic Hort system: pot 110,000 / 4 = 27,500 each plus
        # half of one's own tie-break place. The first gets 72,500 as under 3.8, but the others
        # are ranked among themselves (57,500 / 47,500 / 42,500) instead of 49,166 2/3 each.
        {1: Fraction(72500), 2: Fraction(57500), 3: Fraction(47500), 4: Fraction(42500)},
        {1: 72500, 2: 57500, 3: 47500, 4: 42500},
        id="constructed-addendum-fund-under-classic-hort",
    ),
    pytest.param(
        [1000, 500],
        [1, 2],
        # Places 2–3 tied, only place 2 has a prize: the second by tie-breaks keeps half of 0.
        {1: Fraction(1000), 2: Fraction(375), 3: Fraction(125)},
        {1: 1000, 2: 375, 3: 125},
        id="constructed-hort-tie-straddling-end-of-fund",
    ),
    pytest.param(
        [700, 400, 100],
        [3],
        # Pot (700 + 400 + 100) / 2 = 600 → 200 each; keep 350, 200, 50 → 550, 400, 250.
        {1: Fraction(550), 2: Fraction(400), 3: Fraction(250)},
        {1: 550, 2: 400, 3: 250},
        id="constructed-hort-three-way-tie-for-first",
    ),
]


@pytest.mark.parametrize(("prizes", "groups", "exact", "paid"), HORT_CASES)
def test_hort_split(
    prizes: list[int], groups: list[int], exact: dict[int, Fraction], paid: dict[int, int]
) -> None:
    sheet = allocate_prizes(
        ranking(groups, tiebreak_order=True),
        PrizeFund.from_amounts(prizes),
        split_rule_code="hort",
    )
    assert {row.start_no: row.exact_amount for row in sheet.rows} == exact
    assert amounts(sheet.rows) == {k: Decimal(v) for k, v in paid.items()}


def test_hort_uses_the_tiebreak_order_not_the_listing_order() -> None:
    players = (
        PlacedPlayer(7, "Second on tie-break", 1, True, tiebreak_order=2),
        PlacedPlayer(3, "First on tie-break", 1, True, tiebreak_order=1),
    )
    sheet = allocate_prizes(
        FinalRanking(players), PrizeFund.from_amounts([100, 80]), split_rule_code="hort"
    )
    assert amounts(sheet.rows) == {3: Decimal(95), 7: Decimal(85)}
    assert "place 1 by tie-break: half of place 1 50 + pot share 45 = 95" in sheet.rows[1].breakdown


@pytest.mark.parametrize(
    ("positions", "paid"),
    [
        # Pot 240 / 2 / 3 = 40 each; the first keeps 50; the two still level keep half of the
        # average of places 2 and 3, (80 + 60) / 2 / 2 = 35.
        pytest.param((1, 2, 2), {1: 90, 2: 75, 3: 75}, id="constructed-two-level-behind-first"),
        # Nobody separated: the equal split, 80 each.
        pytest.param((1, 1, 1), {1: 80, 2: 80, 3: 80}, id="constructed-nobody-separated"),
    ],
)
def test_hort_players_still_level_share_their_places(
    positions: tuple[int, ...], paid: dict[int, int]
) -> None:
    players = tuple(
        PlacedPlayer(n, f"P{n}", 1, True, tiebreak_order=p) for n, p in enumerate(positions, 1)
    )
    sheet = allocate_prizes(
        FinalRanking(players), PrizeFund.from_amounts([100, 80, 60]), split_rule_code="hort"
    )
    assert amounts(sheet.rows) == {k: Decimal(v) for k, v in paid.items()}


def test_hort_positions_must_be_competition_ranks() -> None:
    players = tuple(
        PlacedPlayer(n, f"P{n}", 1, True, tiebreak_order=p) for n, p in ((1, 1), (2, 3))
    )
    with pytest.raises(PrizeInputError, match="must number the players 1 to 2"):
        FinalRanking(players)


def test_hort_without_tiebreak_order_is_a_clear_error() -> None:
    with pytest.raises(PrizeInputError, match="tie-break order of the tie at places 1–2"):
        allocate_prizes(ranking([2]), ADDENDUM_FUND, split_rule_code="hort")


# --- Units, currencies and the JSON row ------------------------------------------------------


def test_unit_of_a_cent_keeps_the_decimals() -> None:
    fund = PrizeFund.from_amounts(["100.00"], currency="EUR")
    sheet = allocate_prizes(ranking([3]), fund, unit=Decimal("0.01"))
    assert [row.amount for row in sheet.rows] == [Decimal("33.33")] * 3
    assert sheet.rows[0].breakdown.startswith("equal split of places 1–3 (100.00 + 0.00 + 0.00)")
    assert sheet.organiser_remainder == Decimal("0.01")


def test_prize_sheet_json_matches_design_section_4() -> None:
    from prizes.tour import tour_points

    ranked = ranking([2, 1], playoff_winner=1)
    sheet = allocate_prizes(
        ranked,
        PrizeFund.from_amounts([100000, 50000, 30000]),
        split_rule_code="gct-2019-classical",
        tour_points=tour_points(ranked, "gct-2019-classical"),
    )
    data = prize_sheet_json(sheet, "sinquefield-2019")
    assert data["event"] == "sinquefield-2019"
    assert data["fund"] == "180000" and data["total_paid"] == "180000"
    rows = data["rows"]
    assert isinstance(rows, list)
    # 150,000/4 + 50,000 = 87,500 for the winner; 37,500 + 25,000 for the loser.
    assert rows[0] == {
        "rank": 1,
        "shared": True,
        "start_no": 1,
        "name": "Player 1",
        "amount": "87500",
        "tour_points": "33/2",
        "breakdown": "tie for places 1–2 (GCT 3.8), playoff winner: shared 37,500 + "
        "divisible 50,000 = 87,500",
    }
    assert Fraction(rows[1]["tour_points"]) == Fraction(33, 2)
    assert rows[2]["amount"] == "30000" and rows[2]["tour_points"] == "12"


@pytest.mark.parametrize(
    ("preset", "rule", "table"),
    [
        pytest.param("gct-2019-classical", "gct-2019-classical", "gct-2019-classical", id="3.8"),
        pytest.param("gct-2019-rapid-blitz", "equal", "gct-2019-rapid-blitz", id="2.6"),
        pytest.param("fide-2024", "equal", None, id="default"),
    ],
)
def test_presets_name_registered_codes(preset: str, rule: str, table: str | None) -> None:
    from prizes.tour import TOUR_POINTS_TABLES

    regulation = prize_regulation(preset)
    assert (regulation.split_rule, regulation.tour_points_table) == (rule, table)
    assert regulation.split_rule in SPLIT_RULES and regulation.rounding in ROUNDING_POLICIES
    assert table is None or table in TOUR_POINTS_TABLES


# --- Bad input: a clear message, never a silent guess ---------------------------------------

BAD_INPUT_CASES = [
    pytest.param(
        lambda: FinalRanking((PlacedPlayer(1, "A", 1), PlacedPlayer(2, "B", 3))),
        "expected rank 2",
        id="rank-gap",
    ),
    pytest.param(
        lambda: FinalRanking((PlacedPlayer(1, "A", 1), PlacedPlayer(2, "B", 1))),
        "shared=False",
        id="shared-flag-wrong",
    ),
    pytest.param(
        lambda: FinalRanking((PlacedPlayer(1, "A", 1), PlacedPlayer(1, "B", 2))),
        "appears twice",
        id="duplicate-start-number",
    ),
    pytest.param(lambda: ranking([1, 2], playoff_winner=2), "nobody is tied", id="no-tie-for-1st"),
    pytest.param(lambda: ranking([2, 1], playoff_winner=3), "not tied for first", id="winner"),
    pytest.param(
        lambda: PrizeFund((PlacePrize(1, 100.0),)),  # type: ignore[arg-type]
        "must be a Decimal",
        id="float-prize-refused",
    ),
    pytest.param(
        lambda: PrizeFund.from_amounts([0.1]),  # type: ignore[list-item]
        "never float",
        id="float-amount-refused",
    ),
    pytest.param(
        lambda: PrizeFund((PlacePrize(1, Decimal(5)), PlacePrize(1, Decimal(3)))),
        "two prizes",
        id="place-twice",
    ),
    pytest.param(
        lambda: allocate_prizes(ranking([1]), PrizeFund.from_amounts(["10.50"])),
        "whole number of the rounding unit",
        id="prize-not-multiple-of-unit",
    ),
    pytest.param(
        lambda: allocate_prizes(ranking([1]), ADDENDUM_FUND, split_rule_code="nope"),
        "choose one of equal, gct-2019-classical, hort",
        id="unknown-split-rule",
    ),
    pytest.param(
        lambda: allocate_prizes(ranking([1]), ADDENDUM_FUND, rounding_code="nope"),
        "unknown rounding policy",
        id="unknown-rounding-policy",
    ),
    pytest.param(
        lambda: allocate_prizes(ranking([1]), ADDENDUM_FUND, unit=Decimal(0)),
        "positive Decimal",
        id="zero-unit",
    ),
]


@pytest.mark.parametrize(("build", "message"), BAD_INPUT_CASES)
def test_bad_input_is_a_prize_input_error(build: object, message: str) -> None:
    with pytest.raises(PrizeInputError, match=message):
        build()  # type: ignore[operator]


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (Fraction(147500, 3), "49,166 2/3"),
        (Fraction(21, 2), "10.5"),
        (Fraction(2, 3), "2/3"),
        (Fraction(220000), "220,000"),
    ],
)
def test_format_exact_money(value: Fraction, text: str) -> None:
    assert format_exact_money(value) == text


# --- Properties -----------------------------------------------------------------------------

UNITS = [Decimal(1), Decimal("0.01"), Decimal(5)]


@st.composite
def prize_events(draw: st.DrawFn) -> tuple[FinalRanking, PrizeFund, Decimal, str]:
    unit = draw(st.sampled_from(UNITS))
    prize_units = draw(st.lists(st.integers(0, 200_000), min_size=1, max_size=8))
    fund = PrizeFund.from_amounts([count * unit for count in prize_units])
    groups = draw(st.lists(st.integers(1, 5), min_size=1, max_size=6))
    rule = draw(st.sampled_from(sorted(SPLIT_RULES)))
    winner = None
    if groups[0] > 1 and rule == "gct-2019-classical":
        winner = draw(st.integers(1, groups[0]))
    return ranking(groups, playoff_winner=winner, tiebreak_order=True), fund, unit, rule


@settings(max_examples=300, deadline=None)
@given(prize_events(), st.sampled_from(sorted(ROUNDING_POLICIES)))
def test_total_paid_within_the_rounding_policy_bound(
    event: tuple[FinalRanking, PrizeFund, Decimal, str], policy: str
) -> None:
    ranked, fund, unit, rule = event
    sheet = allocate_prizes(ranked, fund, split_rule_code=rule, rounding_code=policy, unit=unit)
    payees = len(sheet.rows)
    # Splitting never creates or loses money: the exact shares add up to the occupied places.
    assert sum(row.exact_amount for row in sheet.rows) == Fraction(sheet.awarded)
    if payees >= len(fund.prizes):
        assert sheet.awarded == sheet.fund
    drift = sheet.total_paid - sheet.awarded
    if policy == "largest-remainder":
        assert drift == 0
    elif policy == "per-share-half-up":
        assert abs(drift) <= unit * payees / 2
    else:
        assert -unit * payees < drift <= 0
        assert sheet.organiser_remainder == -drift
    assert all(row.amount % unit == 0 for row in sheet.rows)


@settings(max_examples=200, deadline=None)
@given(prize_events(), st.sampled_from(sorted(ROUNDING_POLICIES)))
def test_equal_split_pays_every_tied_player_the_same(
    event: tuple[FinalRanking, PrizeFund, Decimal, str], policy: str
) -> None:
    ranked, fund, unit, _ = event
    sheet = allocate_prizes(ranked, fund, split_rule_code="equal", rounding_code=policy, unit=unit)
    by_rank: dict[int, set[Decimal]] = {}
    for row in sheet.rows:
        by_rank.setdefault(row.rank, set()).add(row.amount)
    for paid in by_rank.values():
        if policy == "largest-remainder":
            # Keeping the total exact can cost one unit of equality inside a tie.
            assert max(paid) - min(paid) <= unit
        else:
            assert len(paid) == 1
