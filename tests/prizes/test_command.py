"""``manage.py prizes SLUG [--format json|csv|xlsx|pdf] [--output FILE]`` (design.md §4) on
events imported with ``import_event``: the Addendum of seed 000 end to end, every format
written and read back, and bad input as a one-line CommandError."""

from __future__ import annotations

import csv
import io
import json
from decimal import Decimal
from fractions import Fraction
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from openpyxl import load_workbook
from pypdf import PdfReader

from events.models import AuditEntry, Player
from events.services import event_version_bump
from prizes import services
from tests.conftest import make_event
from tests.prizes.conftest import ADDENDUM_FUND, gct_event

pytestmark = pytest.mark.django_db

ROW_KEYS = {"rank", "shared", "start_no", "name", "amount", "tour_points", "breakdown"}


def run(*args: str) -> str:
    out = StringIO()
    call_command("prizes", *args, stdout=out)
    return out.getvalue()


def command_error(*args: str) -> str:
    with pytest.raises(CommandError) as info:
        run(*args)
    message = str(info.value)
    assert "\n" not in message  # one line on stderr
    return message


def test_addendum_through_the_command(addendum_event):
    """Seed 000, Addendum: tie for 1st–4th, playoff decided → 72,500 and 3 × 49,167, 220,001
    paid from 220,000 (3.8.4, each share rounded half up)."""
    entries = AuditEntry.objects.count()
    document = json.loads(run(addendum_event.slug))
    assert {"event", "currency", "fund", "total_paid", "rows"} <= set(document)
    assert (document["event"], document["currency"]) == ("gct-addendum", "USD")
    assert Fraction(document["fund"]) == 220000 and Fraction(document["total_paid"]) == 220001
    rows = document["rows"]
    assert all(set(row) >= ROW_KEYS for row in rows)
    assert [(row["start_no"], row["amount"]) for row in rows[:4]] == [
        (3, "72500"),
        (1, "49167"),
        (2, "49167"),
        (4, "49167"),
    ]
    assert all(row["rank"] == 1 and row["shared"] for row in rows[:4])
    assert [Fraction(row["tour_points"]) for row in rows] == [Fraction(55, 4)] * 4 + [
        Fraction(15, 2)
    ] * 2
    assert "shared 27,500 + divisible 21,667 = 49,167" in rows[1]["breakdown"]
    assert AuditEntry.objects.count() == entries  # the command only reads


def test_largest_remainder_override_through_the_command(addendum_event, director):
    services.prize_settings_set(
        event=addendum_event, split_rule="", rounding="largest-remainder", unit=None, user=director
    )
    document = json.loads(run(addendum_event.slug, "--format", "json"))
    assert document["total_paid"] == "220000" and document["rounding"] == "largest-remainder"
    assert sorted(row["amount"] for row in document["rows"][:4]) == [
        "49166",
        "49167",
        "49167",
        "72500",
    ]


def test_tour_points_are_null_without_a_tour_table(tmp_path):
    """design.md §4: ``tour_points`` is null where the preset has no tour table."""
    event = gct_event(tmp_path, "fide-like", ["100", "50"], winner=None, preset="fide-2024")
    document = json.loads(run(event.slug))
    assert {row["tour_points"] for row in document["rows"]} == {None}
    assert document["split_rule"] == "equal"


def test_csv_to_stdout_and_to_a_file(addendum_event, tmp_path):
    text = run(addendum_event.slug, "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [row["amount"] for row in rows[:4]] == ["72500", "49167", "49167", "49167"]
    # Tour points 55/4 as a number a spreadsheet adds (issue 20).
    assert rows[0]["place"] == "1–4" and rows[0]["tour_points"] == "13.75"
    target = tmp_path / "prizes.csv"
    assert run(addendum_event.slug, "--format", "csv", "--output", str(target)) == ""
    assert target.read_text() == text


def test_xlsx_written_and_read_back(addendum_event, tmp_path: Path):
    target = tmp_path / "prizes.xlsx"
    run(addendum_event.slug, "--format", "xlsx", "--output", str(target))
    sheet = load_workbook(target).active
    values = [[cell for cell in row] for row in sheet.iter_rows(values_only=True)]
    header = values.index(
        ["Place", "No.", "Name", "Amount (USD)", "Tour points", "Breakdown", "Prize", "Paid (USD)"]
    )
    payees = values[header + 1 : header + 7]
    assert [(row[1], Decimal(str(row[3]))) for row in payees[:4]] == [
        (3, Decimal(72500)),
        (1, Decimal(49167)),
        (2, Decimal(49167)),
        (4, Decimal(49167)),
    ]
    # Tour points are a numeric cell a spreadsheet adds up (55/4; issue 20), not text.
    assert payees[0][4] == 13.75 and "divisible 45,000" in payees[0][5]
    # Issue 29: amounts are numbers a SUM adds, not text; a shared place stays text.
    assert payees[0][0] == "1–4" and isinstance(payees[0][7], int)
    totals = {row[0]: row[7] for row in values if row and row[0] in ("Fund", "Total paid")}
    assert Decimal(str(totals["Total paid"])) == Decimal(220001)
    assert Decimal(str(totals["Fund"])) == Decimal(220000)


def test_pdf_written_and_read_back(addendum_event, tmp_path: Path):
    target = tmp_path / "prizes.pdf"
    run(addendum_event.slug, "--format", "pdf", "--output", str(target))
    text = " ".join(page.extract_text() for page in PdfReader(target).pages)
    assert "Prize sheet" in text and "GCT test gct-addendum" in text
    for expected in ("72,500", "49,167", "Player 3", "220,001", "220,000", "13.75"):
        assert expected in text


def test_pdf_sets_chinese_japanese_and_korean_names_in_cid_fonts(addendum_event, tmp_path: Path):
    # Han alone: Chinese; with kana: Japanese; Hangul: Korean
    names = {1: "王浩", 2: "藤井 そうた", 4: "김철수"}
    for start_no, name in names.items():
        Player.objects.filter(event=addendum_event, start_no=start_no).update(name=name)
    event_version_bump(event=addendum_event)
    target = tmp_path / "prizes.pdf"
    run(addendum_event.slug, "--format", "pdf", "--output", str(target))
    reader = PdfReader(target)
    text = " ".join(page.extract_text() for page in reader.pages)
    assert all(name in text for name in names.values())
    fonts = {
        str(font["/BaseFont"])
        for page in reader.pages
        for font in page["/Resources"]["/Font"].values()
        if "/BaseFont" in font.get_object()
    }
    for cid_font in ("STSong-Light", "HeiseiKakuGo-W5", "HYGothic-Medium"):
        assert any(cid_font in font for font in fonts), (cid_font, fonts)


def test_binary_formats_need_a_file_or_a_redirected_stdout(addendum_event):
    message = command_error(addendum_event.slug, "--format", "xlsx")
    assert "binary" in message and "--output" in message


def test_unknown_event():
    assert command_error("no-such-event") == "no event with the slug 'no-such-event'"


def test_incomplete_event(director):
    event = make_event(director)
    assert "the event is not complete" in command_error(event.slug)


def test_playoff_not_decided(tmp_path):
    event = gct_event(tmp_path, "gct-pending", ADDENDUM_FUND, winner=None)
    assert "the playoff has not decided a winner yet" in command_error(event.slug)


def test_unwritable_output(addendum_event, tmp_path):
    target = tmp_path / "missing-dir" / "prizes.pdf"
    assert command_error(addendum_event.slug, "--format", "pdf", "--output", str(target))
    assert not target.exists()


def test_approved_snapshot(addendum_event, director):
    assert "no prize sheet has been approved yet" in command_error(
        addendum_event.slug, "--approved"
    )
    services.prize_sheet_approve(event=addendum_event, user=director)
    services.prize_fund_set(event=addendum_event, prizes=[(1, Decimal(1000))], user=director)
    approved = json.loads(run(addendum_event.slug, "--approved"))
    current = json.loads(run(addendum_event.slug))
    assert approved["total_paid"] == "220001"  # frozen
    assert current["total_paid"] == "1000"
