"""prizes.selectors.prizes_allocate and the prize services: settings, fund, categories, approval.

Case names cite their source: seed 000 clauses and its Addendum (GCT 2019), or the product's
own decisions (docstrings of prizes/selectors.py and prizes/services.py).
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest

from events.errors import UserError
from events.models import AuditEntry, Event, Game
from events.services import game_result_record
from prizes import selectors, services
from prizes.models import PrizeSheetApproval
from tests.conftest import make_event
from tests.prizes.conftest import ADDENDUM_FUND, gct_event

pytestmark = pytest.mark.django_db


def amounts(event: Event) -> dict[int, Decimal]:
    sheet = selectors.prizes_allocate(event=event).sheet
    return {row.start_no: row.amount for row in sheet.rows}


def test_addendum_tie_for_first_to_fourth_pays_72500_and_three_times_49167(addendum_event):
    """Seed 000, 3.8 and the Addendum: shared 27,500 each, the winner adds 45,000, the
    others 21,666 2/3; each share rounded half up (3.8.4), so 220,001 is paid from 220,000."""
    allocation = selectors.prizes_allocate(event=addendum_event)
    sheet = allocation.sheet
    assert [row.start_no for row in sheet.rows[:4]] == [3, 1, 2, 4]  # playoff winner first
    assert amounts(addendum_event) == {
        3: Decimal(72500),
        1: Decimal(49167),
        2: Decimal(49167),
        4: Decimal(49167),
        5: Decimal(0),
        6: Decimal(0),
    }
    assert sheet.total_paid == Decimal(220001) and sheet.fund == Decimal(220000)
    assert sheet.difference == Decimal(1)
    assert sheet.rows[1].exact_amount == Fraction(147500, 3)
    assert "shared 27,500 + divisible 21,667 = 49,167" in sheet.rows[1].breakdown
    assert "shared 27,500 + divisible 45,000 = 72,500" in sheet.rows[0].breakdown
    # 3.9: tour points split equally, no bonus after a playoff: (18+15+12+10)/4.
    assert {row.tour_points for row in sheet.rows[:4]} == {Fraction(55, 4)}
    assert all(row.rank == 1 and row.shared for row in sheet.rows[:4])


def test_largest_remainder_override_pays_the_fund_exactly(addendum_event, director):
    """rules-notes "Rounding": the largest-remainder policy pays exactly 220,000; equal
    remainders go by rank, then start number (prizes/split.py)."""
    services.prize_settings_set(
        event=addendum_event, split_rule="", rounding="largest-remainder", unit=None, user=director
    )
    sheet = selectors.prizes_allocate(event=addendum_event).sheet
    assert sheet.total_paid == Decimal(220000) and sheet.difference == 0
    assert amounts(addendum_event) == {
        3: Decimal(72500),
        1: Decimal(49167),
        2: Decimal(49167),
        4: Decimal(49166),
        5: Decimal(0),
        6: Decimal(0),
    }


def test_ties_below_first_split_equally(tmp_path):
    """Seed 000, 3.10: places 5–6 pool 20,000 + 10,001 and share it, 15,000.5 → 15,001."""
    event = gct_event(tmp_path, "gct-below", [*ADDENDUM_FUND, "20000", "10001"])
    sheet = selectors.prizes_allocate(event=event).sheet
    fifth, sixth = sheet.rows[4], sheet.rows[5]
    assert (fifth.rank, sixth.rank) == (5, 5) and fifth.shared and sixth.shared
    assert fifth.amount == sixth.amount == Decimal(15001)
    assert fifth.exact_amount == Fraction(30001, 2)
    assert "equal split of places 5–6 (20,000 + 10,001) / 2" in fifth.breakdown
    assert fifth.tour_points == Fraction(15, 2)  # (8 + 7) / 2


def test_rapid_blitz_tie_for_first_is_split_equally_without_a_playoff(tmp_path):
    """Seed 000, 2.6: the playoff decides the title only; money is split equally."""
    event = gct_event(
        tmp_path,
        "gct-rb",
        ADDENDUM_FUND,
        winner=None,
        time_control="rapid_blitz",
        preset="gct-2019-rapid-blitz",
    )
    allocation = selectors.prizes_allocate(event=event)
    assert {row.amount for row in allocation.sheet.rows[:4]} == {Decimal(55000)}
    assert allocation.settings.split_rule == "equal"
    assert {row.tour_points for row in allocation.sheet.rows[:4]} == {Fraction(37, 4)}


def test_classical_tie_without_a_playoff_winner_names_the_playoff(tmp_path):
    """Seed 000, 3.8: the split needs the winner; the message says so."""
    event = gct_event(tmp_path, "gct-pending", ADDENDUM_FUND, winner=None)
    with pytest.raises(selectors.PrizesUnavailable, match="the playoff has not decided a winner"):
        selectors.prizes_allocate(event=event)


def test_an_incomplete_event_has_no_prize_sheet(director):
    event = make_event(director)
    with pytest.raises(selectors.PrizesUnavailable, match="the event is not complete"):
        selectors.prizes_allocate(event=event)


# --- settings and fund --------------------------------------------------------------------


def test_settings_default_to_the_regulation_and_overrides_are_audited(addendum_event, director):
    settings = selectors.prize_settings_effective(addendum_event)
    assert (settings.split_rule, settings.rounding, settings.unit) == (
        "gct-2019-classical",
        "per-share-half-up",
        Decimal(1),
    )
    version = addendum_event.results_version
    services.prize_settings_set(
        event=addendum_event, split_rule="equal", rounding="floor", unit=Decimal(10), user=director
    )
    settings = selectors.prize_settings_effective(addendum_event)
    assert (settings.split_rule, settings.rounding, str(settings.unit)) == ("equal", "floor", "10")
    assert settings.overridden == {"split_rule", "rounding", "unit"}
    entry = AuditEntry.objects.filter(event=addendum_event, action="prizes.settings").get()
    assert entry.after == {"split_rule": "equal", "rounding": "floor", "unit": "10"}
    addendum_event.refresh_from_db()
    assert addendum_event.results_version == version + 1


@pytest.mark.parametrize(
    ("split_rule", "rounding", "unit", "message"),
    [
        ("coin-flip", "", None, "unknown split rule 'coin-flip'"),
        ("", "banker", None, "unknown rounding policy 'banker'"),
        ("", "", Decimal(7), "not a whole number of the rounding unit 7"),
        ("", "", Decimal(0), "more than 0"),
    ],
)
def test_bad_settings_are_refused_and_nothing_changes(
    addendum_event, director, split_rule, rounding, unit, message
):
    with pytest.raises(UserError, match=message):
        services.prize_settings_set(
            event=addendum_event, split_rule=split_rule, rounding=rounding, unit=unit, user=director
        )
    assert not AuditEntry.objects.filter(event=addendum_event, action="prizes.settings").exists()


def test_fund_replaced_audited_and_validated(addendum_event, director):
    services.prize_fund_set(
        event=addendum_event,
        prizes=[(1, Decimal(1000)), (2, Decimal(500))],
        user=director,
    )
    assert selectors.prize_fund(addendum_event).total == Decimal(1500)
    entry = AuditEntry.objects.filter(event=addendum_event, action="prizes.fund").get()
    assert entry.before[0] == {"place": 1, "amount": "90000"}
    assert entry.after == [{"place": 1, "amount": "1000"}, {"place": 2, "amount": "500"}]
    with pytest.raises(UserError, match="place 2 has two prizes"):
        services.prize_fund_set(
            event=addendum_event, prizes=[(2, Decimal(1)), (2, Decimal(2))], user=director
        )
    with pytest.raises(UserError, match="not a whole number of the rounding unit 1"):
        services.prize_fund_set(event=addendum_event, prizes=[(1, Decimal("0.5"))], user=director)
    assert selectors.prize_fund(addendum_event).total == Decimal(1500)


# --- categories -----------------------------------------------------------------------------


def test_category_prize_replaces_a_lower_main_prize(addendum_event, director):
    """prizes/categories.py: one prize per player, the higher; the main amount is released."""
    services.prize_category_save(
        event=addendum_event,
        code="women",
        name="Best woman",
        conditions=[{"field": "sex", "op": "eq", "value": "w"}],
        amounts=["50000"],
        user=director,
    )
    document = selectors.sheet_document(selectors.prizes_allocate(event=addendum_event))
    payouts = {row["start_no"]: row for row in document["categories"]["payouts"]}
    assert payouts[4]["amount"] == "50000" and payouts[4]["source"] == "women"
    assert document["categories"]["released"][0]["amount"] == "49167"
    assert selectors.prize_money(document)[4] == Decimal(50000)


@pytest.mark.parametrize(
    ("conditions", "amounts", "message"),
    [
        ([{"field": "height", "op": "gt", "value": 2}], ["100"], "unknown field 'height'"),
        ([{"field": "sex", "op": "like", "value": "w"}], ["100"], "unknown operator 'like'"),
        ({"field": "sex"}, ["100"], "expected a list"),
        ([{"field": "sex", "op": "eq", "value": "w"}], ["10", "20"], "must not increase"),
        ([{"field": "sex", "op": "eq", "value": "w"}], ["ten"], "'ten' is not an amount"),
    ],
)
def test_bad_categories_are_refused(addendum_event, director, conditions, amounts, message):
    with pytest.raises(UserError, match=message):
        services.prize_category_save(
            event=addendum_event,
            code="c",
            name="C",
            conditions=conditions,
            amounts=amounts,
            user=director,
        )
    assert not selectors.event_categories(addendum_event)


# --- approval -------------------------------------------------------------------------------


def test_approval_freezes_a_snapshot_that_a_result_change_makes_outdated(addendum_event, director):
    first = services.prize_sheet_approve(event=addendum_event, user=director)
    addendum_event.refresh_from_db()
    assert first.results_version == addendum_event.results_version
    assert not selectors.approval_is_outdated(first, addendum_event)
    assert first.snapshot["total_paid"] == "220001"

    # Player 5 now beats player 6: 5th and 6th are no longer tied (tour points 8 and 7).
    game = Game.objects.get(
        round__event=addendum_event, white__start_no__in=(5, 6), black__start_no__in=(5, 6)
    )
    result = "1-0" if game.white.start_no == 5 else "0-1"
    game_result_record(game_id=game.pk, result=result, expected_version=None, user=director)
    addendum_event.refresh_from_db()

    page = selectors.prize_page(addendum_event, director)
    assert page.outdated and page.draft_differs
    # Never silently recomputed; shown with who approved it, and when (issue 29).
    assert {key: value for key, value in page.published.items() if key != "approval"} == (
        first.snapshot
    )
    assert page.published["approval"]["approved_by"] == director.username
    first.refresh_from_db()
    assert [row["tour_points"] for row in first.snapshot["rows"][4:]] == ["15/2", "15/2"]
    assert [row["tour_points"] for row in page.draft["rows"][4:]] == ["8", "7"]

    second = services.prize_sheet_approve(
        event=addendum_event, user=director, seen_version=addendum_event.results_version
    )
    addendum_event.refresh_from_db()
    assert selectors.approval_latest(addendum_event) == second
    assert not selectors.approval_is_outdated(second, addendum_event)
    assert PrizeSheetApproval.objects.filter(event=addendum_event).count() == 2
    assert AuditEntry.objects.filter(event=addendum_event, action="prizes.approve").count() == 2


def test_approving_a_sheet_the_director_has_not_seen_is_refused(addendum_event, director):
    stale = addendum_event.results_version - 1
    with pytest.raises(UserError, match="changed since this page was loaded"):
        services.prize_sheet_approve(event=addendum_event, user=director, seen_version=stale)
    assert not PrizeSheetApproval.objects.exists()


def test_an_incomplete_event_cannot_be_approved(director):
    event = make_event(director)
    with pytest.raises(UserError, match="not complete"):
        services.prize_sheet_approve(event=event, user=director)
    assert not PrizeSheetApproval.objects.exists()


def test_hort_takes_the_tie_for_first_from_the_playoff_order(addendum_event, director):
    """Issue 20: the classic Hort system on a GCT event (no tie-breaks) reads the tie for
    first's order from the playoff: everyone gets a quarter of half the pooled 220,000 (27,500),
    and each keeps half the prize of their playoff place (prizes.split.hort_split)."""
    from playoffs.selectors import event_playoff

    services.prize_settings_set(
        event=addendum_event, split_rule="hort", rounding="", unit=None, user=director
    )
    plan = event_playoff(addendum_event)
    assert plan.status == "decided" and plan.order[0] == 3
    kept = dict(zip(plan.order, (45000, 30000, 20000, 15000), strict=True))
    paid = amounts(addendum_event)
    assert {n: paid[n] for n in plan.order} == {n: Decimal(27500 + k) for n, k in kept.items()}
    assert sum(paid.values()) == Decimal(220000)


def test_hort_waits_for_a_playoff_that_has_not_decided_the_tie_for_first(tmp_path):
    """Not a programmer's message: the sheet says what it waits for (issue 20)."""
    event = gct_event(tmp_path, "gct-undecided", ADDENDUM_FUND, winner=None)
    services.prize_settings_set(event=event, split_rule="hort", rounding="", unit=None, user=None)
    with pytest.raises(selectors.PrizesUnavailable, match="playoff has not decided the order"):
        selectors.prizes_allocate(event=event)
