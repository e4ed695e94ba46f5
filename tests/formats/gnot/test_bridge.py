"""Bridge scoring: IMPs (Law 78B), board-a-match, total points, VP scales, entry scores.

Case ids name their source: the Law, the seed clause (seed 004), or the published value.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Context, Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from formats.gnot.bridge import (
    EVENT_BANDS,
    IMP_THRESHOLDS,
    VP_SCALES,
    WBF_25,
    WBF_2013_20,
    InvalidBandTable,
    UnknownVPScale,
    available_vps,
    board_a_match,
    event_band_scale,
    imps,
    match_vps,
    on_scale,
    score_match,
    share_of_available,
    table_boards,
    triangle_entry_score,
    vp_scale,
    whist_entry_score,
)

# Law 78B, band by band: (lowest difference, highest listed difference, IMPs).
LAW_78B = [
    (0, 10, 0),
    (20, 40, 1),
    (50, 80, 2),
    (90, 120, 3),
    (130, 160, 4),
    (170, 210, 5),
    (220, 260, 6),
    (270, 310, 7),
    (320, 360, 8),
    (370, 420, 9),
    (430, 490, 10),
    (500, 590, 11),
    (600, 740, 12),
    (750, 890, 13),
    (900, 1090, 14),
    (1100, 1290, 15),
    (1300, 1490, 16),
    (1500, 1740, 17),
    (1750, 1990, 18),
    (2000, 2240, 19),
    (2250, 2490, 20),
    (2500, 2990, 21),
    (3000, 3490, 22),
    (3500, 3990, 23),
    (4000, 7600, 24),
]


@pytest.mark.parametrize(
    ("low", "high", "expected"),
    [pytest.param(*band, id=f"law-78B-{band[0]}-{band[1]}") for band in LAW_78B],
)
def test_imp_band_edges(low: int, high: int, expected: int) -> None:
    assert imps(low) == expected
    assert imps(high) == expected
    assert imps(-low) == -expected
    assert imps(-high) == -expected


def test_imp_thresholds_are_the_law_78b_band_starts() -> None:
    assert tuple(low for low, _high, _imps in LAW_78B[1:]) == IMP_THRESHOLDS


@pytest.mark.parametrize(
    ("net", "expected"),
    [
        pytest.param(15, 0, id="law-78B-gap-15-below-20"),
        pytest.param(Fraction(45), 1, id="law-78B-gap-45-averaged-score"),
        pytest.param(Decimal("19.99"), 0, id="law-78B-just-below-band"),
        pytest.param(-Decimal("595"), -11, id="law-78B-negative-gap"),
    ],
)
def test_imps_between_listed_bands(net: object, expected: int) -> None:
    assert imps(net) == expected  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("net", "expected"),
    [
        pytest.param(10, Fraction(1), id="1.9.1-bam-plus"),
        pytest.param(0, Fraction(1, 2), id="1.9.1-bam-zero"),
        pytest.param(-10, Fraction(0), id="1.9.1-bam-minus"),
    ],
)
def test_board_a_match(net: int, expected: Fraction) -> None:
    assert board_a_match(net) == expected


def test_score_match_imps_bam_and_total_points() -> None:
    score = score_match([620, -100, 0, 50, -1430])
    assert (score.home_imps, score.away_imps) == (12 + 2, 3 + 16)
    assert (score.home_bam, score.away_bam) == (Fraction(5, 2), Fraction(5, 2))
    assert score.total_points == Fraction(620 - 100 + 50 - 1430)


# --- the WBF 2013 continuous scale ---------------------------------------------------------


def independent_wbf(margin: int, boards: int) -> Decimal:
    """The formula from rules-notes again, written independently at 80 digits."""
    ctx = Context(prec=80)
    tau = (ctx.sqrt(Decimal(5)) - 1) / 2
    x = 15 * ctx.sqrt(Decimal(boards))
    value = 10 + 10 * (1 - ctx.power(tau, 3 * Decimal(margin) / x)) / (1 - tau**3)
    return min(value, Decimal(20)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


@pytest.mark.parametrize("boards", [6, 7, 8, 12, 14, 16, 20, 24, 28, 32])
def test_wbf_2013_matches_the_formula_computed_independently(boards: int) -> None:
    for margin in range(0, 130):
        assert WBF_2013_20.winner_vps(margin, boards) == independent_wbf(margin, boards)


@pytest.mark.parametrize(
    ("margin", "winner"),
    [
        pytest.param(0, "10.00", id="wbf-2013-16-boards-draw-10-10"),
    ],
)
def test_wbf_2013_published_16_boards(margin: int, winner: str) -> None:
    assert WBF_2013_20.victory_points(margin, 0, 16) == Decimal(winner)
    assert WBF_2013_20.victory_points(0, margin, 16) == 20 - Decimal(winner)


@pytest.mark.parametrize(
    ("margin", "winner", "loser"),
    [
        pytest.param(1, "10.33", "9.67", id="klinger-ibpa-2013-14-boards-1-imp"),
        pytest.param(2, "10.66", "9.34", id="klinger-ibpa-2013-14-boards-2-imps-10.66-9.34"),
        pytest.param(4, "11.28", "8.72", id="klinger-ibpa-2013-14-boards-imps-3-4-worth-0.31"),
        pytest.param(5, "11.58", "8.42", id="klinger-ibpa-2013-14-boards-imp-5-worth-0.30"),
        pytest.param(7, "12.16", "7.84", id="klinger-ibpa-2013-14-boards-7-imps-12.16-7.84"),
    ],
)
def test_wbf_2013_published_14_boards(margin: int, winner: str, loser: str) -> None:
    """Ron Klinger, "The New WBF IMPs-to-VPs Scale", IBPA Bulletin, May 2013 (NEC Cup 14-board
    scale): IMPs 1–2 worth 0.33 each, 3–4 0.31, 5 0.30, 6–7 0.29; 2 IMPs = 10.66–9.34;
    7 IMPs = 12.16–7.84."""
    assert match_vps(WBF_2013_20, 40 + margin, 40, 14) == (Decimal(winner), Decimal(loser))


@given(
    st.integers(min_value=1, max_value=64),
    st.integers(min_value=0, max_value=300),
    st.integers(min_value=0, max_value=300),
)
def test_wbf_2013_properties(boards: int, ours: int, theirs: int) -> None:
    mine = WBF_2013_20.victory_points(ours, theirs, boards)
    other = WBF_2013_20.victory_points(theirs, ours, boards)
    assert mine + other == 20
    assert mine == mine.quantize(Decimal("0.01"))
    assert Decimal(0) <= mine <= Decimal(20)
    if ours > theirs:
        assert mine >= WBF_2013_20.victory_points(ours - 1, theirs, boards)


@pytest.mark.parametrize("boards", [8, 14, 16, 28])
def test_wbf_2013_caps_at_20_from_the_blitz_margin(boards: int) -> None:
    blitz = Context(prec=50).sqrt(Decimal(boards)) * 15
    at_blitz = int(blitz.to_integral_value(rounding="ROUND_CEILING"))
    for margin in range(at_blitz, at_blitz + 40):
        assert WBF_2013_20.winner_vps(margin, boards) == Decimal(20)
    assert WBF_2013_20.winner_vps(at_blitz - 3, boards) < Decimal(20)


def test_wbf_2013_rejects_nonsense() -> None:
    with pytest.raises(ValueError):
        WBF_2013_20.winner_vps(3, 0)
    with pytest.raises(ValueError):
        WBF_2013_20.winner_vps(-3, 14)


# --- the older 25-VP scale (bands to be verified) ------------------------------------------


def test_wbf_25_draw_is_15_15_and_normal_maximum_25_5() -> None:
    assert match_vps(WBF_25, 30, 30, 14) == (Decimal(15), Decimal(15))
    bands = WBF_25.table_for(14)
    assert [b.winner + b.loser for b in bands if b.winner < 25] == [Decimal(30)] * 10
    assert (bands[-1].winner, bands[-1].loser) == (Decimal(25), Decimal(0))


@given(st.integers(min_value=0, max_value=200), st.integers(min_value=0, max_value=200))
def test_wbf_25_properties(ours: int, theirs: int) -> None:
    mine = WBF_25.victory_points(ours, theirs, 14)
    other = WBF_25.victory_points(theirs, ours, 14)
    assert Decimal(0) <= other <= mine <= Decimal(25) or ours < theirs
    if ours > theirs:
        assert mine >= WBF_25.victory_points(ours - 1, theirs, 14)


@pytest.mark.parametrize(
    ("margin", "winner"),
    [
        pytest.param(0, 15, id="klinger-ibpa-2013-old-14-boards-0-imps-draw"),
        pytest.param(2, 15, id="klinger-ibpa-2013-old-14-boards-2-imps-draw"),
        pytest.param(3, 16, id="klinger-ibpa-2013-old-14-boards-3-imps-no-longer-a-draw"),
    ],
)
def test_wbf_25_published_14_board_draw_band(margin: int, winner: int) -> None:
    """Ron Klinger, "The New WBF IMPs-to-VPs Scale", IBPA Bulletin, May 2013: "Under the former
    WBF scale, 0-2 IMPs was a draw for 14-board or 16-board matches". The only band edge of the
    old 14-board scale found published; the rest of ``WBF_25_BANDS_14`` is unverified."""
    assert match_vps(WBF_25, 40 + margin, 40, 14) == (Decimal(winner), Decimal(30 - winner))


@pytest.mark.xfail(
    strict=True,
    reason="known discrepancy: the unverified 14-board bands put 25-5 at 44, a published "
    "source at 39 (bcstar.nl); fix the table from the printed WBF scale, then drop this mark",
)
def test_wbf_25_published_14_board_maximum_at_39() -> None:
    """bcstar.nl, "De nieuwe winstpuntenschalen": "14 spellen ... oude schalen: 25 WP bij 39+
    IMP" (the old 25-VP scale reaches 25 VPs from a 39-IMP margin over 14 boards)."""
    assert WBF_25.victory_points(39, 0, 14) == Decimal(25)
    assert WBF_25.victory_points(38, 0, 14) < Decimal(25)


def test_band_scale_uses_nearest_smaller_table() -> None:
    assert WBF_25.table_for(20) is WBF_25.table_for(14)
    assert WBF_25.table_for(7) is WBF_25.table_for(14)


# --- registry and entry scores ---------------------------------------------------------------


def test_registry() -> None:
    assert set(VP_SCALES) == {"wbf-2013-20", "wbf-25"}
    assert vp_scale("wbf-25") is WBF_25
    with pytest.raises(UnknownVPScale, match="wbf-2013-20"):
        vp_scale("acbl-30")


@pytest.mark.parametrize(
    ("scale", "matches", "expected"),
    [
        pytest.param(WBF_25, 1, Fraction(20), id="1.8.3-80pc-of-25-after-1"),
        pytest.param(WBF_25, 3, Fraction(60), id="1.8.3-80pc-of-75-after-3"),
        pytest.param(WBF_2013_20, 1, Fraction(16), id="1.8.3-80pc-of-20-after-1"),
        pytest.param(WBF_2013_20, 5, Fraction(80), id="1.8.3-80pc-of-100-after-5"),
        pytest.param(WBF_2013_20, 0, Fraction(0), id="1.8.3-nothing-available-yet"),
    ],
)
def test_eighty_percent_of_available(scale: object, matches: int, expected: Fraction) -> None:
    assert share_of_available(scale, matches) == expected  # type: ignore[arg-type]


def test_available_vps() -> None:
    assert available_vps(WBF_25, 4) == 100


@pytest.mark.parametrize(
    ("scale", "earned", "expected"),
    [
        pytest.param(WBF_25, ["17", "12"], Fraction(7) + Fraction(29, 3), id="3.3.3-7-plus-third"),
        pytest.param(WBF_25, ["0", "0"], Fraction(7), id="3.3.3-7-plus-nothing"),
        pytest.param(
            WBF_2013_20,
            ["12.48", "7.52"],
            Fraction(28, 5) + Fraction(20, 3),
            id="3.3.3-on-20-scale-7-rescaled-to-5.6",
        ),
    ],
)
def test_triangle_entry_score(scale: object, earned: list[str], expected: Fraction) -> None:
    score = triangle_entry_score(scale, [Decimal(v) for v in earned])  # type: ignore[arg-type]
    assert score == expected
    assert isinstance(score, Fraction)


def test_whist_entry_score_is_a_quarter() -> None:
    assert whist_entry_score(WBF_25, [Decimal(18), Decimal(13), Decimal(9), Decimal(15)]) == (
        Fraction(55, 4)
    )


def test_on_scale_keeps_25_scale_constants() -> None:
    assert on_scale(5, WBF_25) == 5
    assert on_scale(5, WBF_2013_20) == 4


# --- the event's own band table (issue 8: "an editable band table") ---------------------------

D = Decimal
GOOD_8 = [(0, D(15), D(15)), (2, D(16), D(14)), (5, D("17.5"), D("12.5")), (40, D(25), D(0))]


def test_event_band_scale_converts_by_its_own_bands() -> None:
    scale = event_band_scale({8: GOOD_8})
    assert (scale.code, scale.match_maximum) == (EVENT_BANDS, D(25))
    assert match_vps(scale, 10, 8, 8) == (D(16), D(14))
    assert match_vps(scale, 1, 7, 8) == (D("12.5"), D("17.5"))
    assert match_vps(scale, 50, 0, 8) == (D(25), D(0))


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        pytest.param([], "no band", id="empty"),
        pytest.param([(1, D(15), D(15))], "first band is the draw", id="no-draw-at-0"),
        pytest.param([(0, D(16), D(14))], "first band is the draw", id="unequal-draw"),
        pytest.param(
            [*GOOD_8[:2], (2, D(17), D(13))], "margins must increase", id="margin-repeats"
        ),
        pytest.param([*GOOD_8[:2], (4, D(15), D(15))], "fewer VPs", id="winner-drops"),
        pytest.param(
            [*GOOD_8[:2], (4, D(16), D(15))], "fewer VPs or the loser more", id="loser-rises"
        ),
        pytest.param(
            [*GOOD_8[:1], (3, D(14), D(16))], "at least the loser's", id="winner-below-loser"
        ),
        pytest.param([*GOOD_8[:1], (3, D(26), D(-1))], "at least the loser's", id="negative"),
    ],
)
def test_a_band_table_that_is_not_a_scale_is_refused(rows, message) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(InvalidBandTable, match=message):
        event_band_scale({8: rows})


def test_table_boards_names_the_table_a_band_scale_falls_back_to() -> None:
    # WBF_25 lists 14 boards only: an 8-board match uses it (BandScale.table_for)
    assert table_boards(WBF_25, 8) == 14 and table_boards(WBF_25, 20) == 14
    assert table_boards(event_band_scale({8: GOOD_8}), 8) == 8
    assert table_boards(WBF_2013_20, 7) == 7  # a formula has every board count
