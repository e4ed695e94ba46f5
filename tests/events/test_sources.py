"""``events.sources``: the regulation documents' display names and how a clause is cited."""

from __future__ import annotations

import pytest

from events.sources import COHEN_CHESS, DOCUMENTS, FIDE_VARMA, GCT_2019, GNOT_2012, MSO, cite


@pytest.mark.parametrize(
    ("code", "clause", "expected"),
    [
        pytest.param(GCT_2019, "3.3", "GCT 2019 Tiebreak Regulations 3.3", id="numbered"),
        pytest.param(GCT_2019, "§2–3", "GCT 2019 Tiebreak Regulations §2–3", id="section-sign"),
        pytest.param(MSO, "Perfect Scores", "MSO Tie-break Rules, Perfect Scores", id="worded"),
        pytest.param(
            COHEN_CHESS,
            "(7 or fewer players) first round rule 1",
            "Cohen Chess rules (7 or fewer players) first round rule 1",
            id="parenthesis",
        ),
        pytest.param(
            GNOT_2012, "3.2.4.1", "NSWBA GNOT 2012 Conditions of Contest 3.2.4.1", id="gnot"
        ),
        pytest.param(
            FIDE_VARMA,
            "clause 3",
            "FIDE C.05 Annex 2 (Varma tables), clause 3",
            id="varma",
        ),
        pytest.param(COHEN_CHESS, "", "Cohen Chess rules", id="no-clause"),
    ],
)
def test_cite(code: str, clause: str, expected: str) -> None:
    assert cite(code, clause) == expected


def test_every_document_is_named_without_the_team_word() -> None:
    assert set(DOCUMENTS) == {GCT_2019, FIDE_VARMA, COHEN_CHESS, MSO, GNOT_2012}
    assert all("seed" not in name.lower() for name in DOCUMENTS.values())


def test_an_unknown_code_is_a_bug() -> None:
    with pytest.raises(KeyError):
        cite("seed 000")
