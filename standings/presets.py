"""The core regulation presets of design.md §4, as data, registered in
:data:`events.regulations.PRESETS` when this module is imported.

Pure: no Django, no tie-break registry import; tests check that every code listed here is
registered.

A preset gives the C.07 edition, the default tie-break codes (separately for Swiss and round
robin events, since C.07 recommends different lists and the 2026 edition forbids the Buchholz
family in round robins), the multi-way procedure (:mod:`standings.ranking`), the scoring, and
any further named chains the format needs (Cohen Chess ranks a pool's winner, a pool and the
whole field with three different chains). An event stores its preset code plus overrides.

Decisions:

- FIDE Swiss default ``BH/C1, BH, DE, WIN``: Buchholz cut-1 then Buchholz, as C.07's guidance
  for individual Swiss events puts first; then direct encounter and number of wins, which need no
  ratings (rating tie-breaks are dropped when an unrated player is present, rules-notes).
- FIDE round-robin default ``DE, WIN, SB, KS``: C.07's guidance for individual round robins,
  valid in both editions (no Buchholz family, which the 2026 edition forbids there).
- GCT 2019 breaks no ties off the board: a tie for first goes to a playoff (2.1, 3.1) and every
  other tie shares money and tour points equally (2.7, 3.10); so the chains are empty and
  everyone level on points shares the place.
- MSO two-player games use the restart procedure (clarification 1).
- The formats with their own engines register their presets from their own apps:
  ``cohen-chess`` (formats/cohen), ``mso-2021-multi-player`` (formats/mso), ``gnot-2012``
  (formats/gnot).
"""

from __future__ import annotations

from fractions import Fraction

from events.records import Scoring
from events.regulations import Preset, preset_register
from events.sources import GCT_2019, MSO, cite

FIDE_SWISS = ("BH/C1", "BH", "DE", "WIN")
FIDE_ROUND_ROBIN = ("DE", "WIN", "SB", "KS")

MSO_TWO_PLAYER = ("BHEQ/C2", "BHEQ", "PROG")

CORE_PRESETS = (
    Preset(
        code="fide-2024",
        title="FIDE (C.07, 2024 edition)",
        source="FIDE Handbook C.07, in force from 1 Aug 2024",
        edition="2024",
        swiss_tiebreaks=FIDE_SWISS,
        round_robin_tiebreaks=FIDE_ROUND_ROBIN,
        procedure="lexicographic",
    ),
    Preset(
        code="fide-2026",
        title="FIDE (C.07, 2026 edition)",
        source="FIDE Handbook C.07, in force from 1 Mar 2026",
        edition="2026",
        swiss_tiebreaks=FIDE_SWISS,
        round_robin_tiebreaks=FIDE_ROUND_ROBIN,
        procedure="lexicographic",
    ),
    Preset(
        code="gct-2019-classical",
        title="Grand Chess Tour 2019, Classical",
        source=cite(GCT_2019, "3.1 and 3.10"),
        edition="2024",
        swiss_tiebreaks=(),
        round_robin_tiebreaks=(),
        procedure="lexicographic",
        note="No off-the-board tie-breaks: first place goes to a playoff (3.3–3.7), "
        "other ties share the place (3.10).",
        playoff_rule="gct-2019-classical",
    ),
    Preset(
        code="gct-2019-rapid-blitz",
        title="Grand Chess Tour 2019, Rapid & Blitz",
        source=cite(GCT_2019, "2.1 and 2.7") + "; rules-notes 'Rapid & Blitz scoring'",
        edition="2024",
        swiss_tiebreaks=(),
        round_robin_tiebreaks=(),
        procedure="lexicographic",
        scoring=Scoring(time_control_weights=(("rapid", Fraction(2)),)),
        note="Rapid games count double. No off-the-board tie-breaks: first place goes to "
        "a playoff (2.3–2.5), other ties share the place (2.7).",
        playoff_rule="gct-2019-rapid-blitz",
    ),
    Preset(
        code="mso-2021-two-player",
        title="Mind Sports Olympiad, two-player games",
        source=cite(MSO, "two-player rules 1–3, clarifications 1–2"),
        edition="2024",
        swiss_tiebreaks=MSO_TWO_PLAYER,
        round_robin_tiebreaks=MSO_TWO_PLAYER,
        procedure="restart",
    ),
)

for _preset in CORE_PRESETS:
    preset_register(_preset)
