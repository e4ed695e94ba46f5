"""The regulation documents the product implements, named as their readers name them.

Pure: no Django. Inside the team the documents are "seeds" (``shared/seeds/``, numbered 000–004),
a word nobody outside the team knows. Every citation a person can read (pages, command output,
exports, error messages, notes) is built here, so a document's display name lives in one place;
docstrings and comments may keep the seed numbers, which are for engineers.

The codes are stable keys (house style 2): store or compare the code, never the display name.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

GCT_2019: Final = "gct-2019"  # seed 000
FIDE_VARMA: Final = "fide-varma"  # seed 001
COHEN_CHESS: Final = "cohen-chess"  # seed 002
MSO: Final = "mso"  # seed 003
GNOT_2012: Final = "gnot-2012"  # seed 004

DOCUMENTS: Final[Mapping[str, str]] = MappingProxyType(
    {
        GCT_2019: "GCT 2019 Tiebreak Regulations",
        # The seed is the text approved in 1987 and filed then as Handbook C.07; today's
        # Handbook files it as C.05 Annex 2, the number arbiters look it up by.
        FIDE_VARMA: "FIDE C.05 Annex 2 (Varma tables)",
        COHEN_CHESS: "Cohen Chess rules",
        MSO: "MSO Tie-break Rules",
        GNOT_2012: "NSWBA GNOT 2012 Conditions of Contest",
    }
)


def cite(code: str, clause: str = "") -> str:
    """The document's display name, followed by ``clause`` when one is given.

    A numbered clause follows the name after a space ("GCT 2019 Tiebreak Regulations 3.3"); a
    clause that starts with a word follows after a comma ("MSO Tie-break Rules, Perfect
    Scores"). An unknown code is a programming error (KeyError), not a user's.
    """
    name = DOCUMENTS[code]
    if not clause:
        return name
    return f"{name}, {clause}" if clause[0].isalpha() else f"{name} {clause}"
