"""What the rating report lacks (fiderating/report.py): each record FIDE's rating officer needs
(the TRF's 012-132 with the arbiters' FIDE ids, B.02 9.1), the results, the players' ids."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace

import pytest

from fiderating.report import ReportRecords, report_missing

COMPLETE = ReportRecords(
    name="Norm Invitational",
    city="Oslo",
    federation="NOR",
    start=dt.date(2026, 4, 4),
    end=dt.date(2026, 4, 12),
    chief_arbiter="IA Arne Arbiter 1500000",
    deputy_arbiters=("FA Dina Deputy 1500010",),
    rate_of_play="90'/40+30'+30\"",
    round_dates=tuple(dt.date(2026, 4, 4 + n) for n in range(9)),
    rounds=9,
    complete_rounds=9,
    without_fide_id=(),
)


def test_a_complete_report_lacks_nothing() -> None:
    assert report_missing(COMPLETE) == ()


@pytest.mark.parametrize(
    ("change", "missing"),
    [
        pytest.param({"city": ""}, "the city (record 022)", id="022"),
        pytest.param({"federation": ""}, "the host federation (record 032)", id="032"),
        pytest.param({"start": None}, "the start date (record 042)", id="042"),
        pytest.param({"end": None}, "the end date (record 052)", id="052"),
        pytest.param(
            {"chief_arbiter": ""}, "the chief arbiter, with their FIDE id (record 102)", id="102"
        ),
        pytest.param(
            {"chief_arbiter": "IA Arne Arbiter"},
            "the chief arbiter's FIDE id (record 102 reads 'IA Arne Arbiter'; write it after "
            "the name)",
            id="102-fide-id",
        ),
        pytest.param(
            {"deputy_arbiters": ("FA Dina Deputy 1500010", "Ole Helper")},
            "deputy arbiter 2's FIDE id (record 112: 'Ole Helper')",
            id="112-fide-id",
        ),
        pytest.param({"rate_of_play": " "}, "the time control (record 122)", id="122"),
        pytest.param(
            {"round_dates": COMPLETE.round_dates[:7]},
            "the dates of rounds 8, 9 (record 132)",
            id="132",
        ),
        pytest.param({"complete_rounds": 7}, "the results of rounds 8-9", id="results"),
        pytest.param(
            {"without_fide_id": (3, 12)},
            "FIDE ids of players 3, 12 (FIDE rates players by their id)",
            id="fide-ids",
        ),
    ],
)
def test_what_is_missing_is_named(change: dict[str, object], missing: str) -> None:
    assert report_missing(replace(COMPLETE, **change)) == (missing,)  # type: ignore[arg-type]
