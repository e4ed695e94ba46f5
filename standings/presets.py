"""Regulation presets: the ranking part of each preset in design.md §4, as data.

Pure: no Django, no registry import; tests check that every code listed here is registered.
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
- MSO uses the restart procedure (clarification 1); Cohen Chess the peel procedure (rule 6).
- MSO multi-player games rank by their own chain over table records
  (:mod:`standings.multiplayer`), not by crosstable codes: ``multi_player_chain`` holds it,
  ``points_table`` the tournament points per finishing position. Seed 003 gives no points
  table; the default awards n − k points to the k-th of n at a table (3, 2, 1, 0 at a table of
  four), the one the engine's docstring uses; a regulation override replaces it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from events.records import Scoring


@dataclass(frozen=True, slots=True)
class NamedChain:
    """A chain for one purpose within a format: its clause, primary criterion and codes."""

    name: str
    clause: str
    codes: tuple[str, ...]
    primary: str = "PTS"


@dataclass(frozen=True, slots=True)
class PresetChain:
    """The ranking rules of one regulation preset.

    ``complete`` is False where the format's own chain belongs to later work (the ``note``
    says what is missing); such a preset ranks by points alone and leaves ties shared.
    """

    code: str
    title: str
    source: str
    edition: str
    swiss_tiebreaks: tuple[str, ...]
    round_robin_tiebreaks: tuple[str, ...]
    procedure: str
    scoring: Scoring = field(default_factory=Scoring)
    chains: tuple[NamedChain, ...] = ()
    complete: bool = True
    note: str = ""
    multi_player_chain: tuple[str, ...] = ()
    points_table: tuple[tuple[int, tuple[Fraction, ...]], ...] = ()

    def tiebreaks_for(self, *, round_robin: bool) -> tuple[str, ...]:
        """The default codes for an event of this preset."""
        return self.round_robin_tiebreaks if round_robin else self.swiss_tiebreaks

    def chain(self, name: str) -> NamedChain:
        for chain in self.chains:
            if chain.name == name:
                return chain
        raise KeyError(f"preset {self.code} has no chain {name!r}")


FIDE_SWISS = ("BH/C1", "BH", "DE", "WIN")
FIDE_ROUND_ROBIN = ("DE", "WIN", "SB", "KS")

MSO_TWO_PLAYER = ("BHEQ/C2", "BHEQ", "PROG")
# Seed 003 multi-player rules 1–5 (standings.multiplayer.MSO_MULTI_PLAYER_CHAIN, whose codes are
# not crosstable codes, so they are not in the registry).
MSO_MULTI_PLAYER = ("LRB", "LRR", "PBO", "WON", "BHEQ/GROW")
# Tournament points by finishing position for tables of two to eight (decision, above).
MSO_POINTS_TABLE = tuple(
    (size, tuple(Fraction(size - position) for position in range(1, size + 1)))
    for size in range(2, 9)
)

# Seed 002 rule 4 A–J: ranking within a pool to find its winner; the chief factor is pool points.
COHEN_POOL_WINNER = NamedChain(
    name="pool_winner",
    clause="seed 002 ranking rule 4 A–J",
    codes=("POOLPTS", "POOLH2H", "PTS", "H2H", "COMMON", "SOS", "STRONG", "VSTOP", "PREV", "AGE"),
    primary="POOLPTS",
)
# Seed 002 rule 5 A–K: overall ranking (C, pool ranking, applies to the overall ranking only).
COHEN_OVERALL = NamedChain(
    name="overall",
    clause="seed 002 ranking rule 5 A–K",
    codes=(
        "PTS",
        "H2H",
        "POOLRANK",
        "POOLPTS",
        "POOLH2H",
        "COMMON",
        "SOS",
        "STRONG",
        "VSTOP",
        "PREV",
        "AGE",
    ),
)
# Seed 002 rule 5 for the other places within a pool: the same chain without C.
COHEN_POOL = NamedChain(
    name="pool",
    clause="seed 002 ranking rule 5 A–B, D–K (within a pool, other than its winner)",
    codes=tuple(code for code in COHEN_OVERALL.codes if code != "POOLRANK"),
)

PRESETS: dict[str, PresetChain] = {
    preset.code: preset
    for preset in (
        PresetChain(
            code="fide-2024",
            title="FIDE (C.07, 2024 edition)",
            source="FIDE Handbook C.07, in force from 1 Aug 2024",
            edition="2024",
            swiss_tiebreaks=FIDE_SWISS,
            round_robin_tiebreaks=FIDE_ROUND_ROBIN,
            procedure="lexicographic",
        ),
        PresetChain(
            code="fide-2026",
            title="FIDE (C.07, 2026 edition)",
            source="FIDE Handbook C.07, in force from 1 Mar 2026",
            edition="2026",
            swiss_tiebreaks=FIDE_SWISS,
            round_robin_tiebreaks=FIDE_ROUND_ROBIN,
            procedure="lexicographic",
        ),
        PresetChain(
            code="gct-2019-classical",
            title="Grand Chess Tour 2019, Classical",
            source="seed 000, 3.1 and 3.10",
            edition="2024",
            swiss_tiebreaks=(),
            round_robin_tiebreaks=(),
            procedure="lexicographic",
            note="No off-the-board tie-breaks: first place goes to a playoff (3.3–3.7), "
            "other ties share the place (3.10).",
        ),
        PresetChain(
            code="gct-2019-rapid-blitz",
            title="Grand Chess Tour 2019, Rapid & Blitz",
            source="seed 000, 2.1 and 2.7; rules-notes 'Rapid & Blitz scoring'",
            edition="2024",
            swiss_tiebreaks=(),
            round_robin_tiebreaks=(),
            procedure="lexicographic",
            scoring=Scoring(time_control_weights=(("rapid", Fraction(2)),)),
            note="Rapid games count double. No off-the-board tie-breaks: first place goes to "
            "a playoff (2.3–2.5), other ties share the place (2.7).",
        ),
        PresetChain(
            code="mso-2021-two-player",
            title="Mind Sports Olympiad, two-player games",
            source="seed 003, two-player rules 1–3, clarifications 1–2",
            edition="2024",
            swiss_tiebreaks=MSO_TWO_PLAYER,
            round_robin_tiebreaks=MSO_TWO_PLAYER,
            procedure="restart",
        ),
        PresetChain(
            code="mso-2021-multi-player",
            title="Mind Sports Olympiad, multi-player games",
            source="seed 003, multi-player rules 1–5, clarifications 1–2",
            edition="2024",
            swiss_tiebreaks=(),
            round_robin_tiebreaks=(),
            procedure="restart",
            multi_player_chain=MSO_MULTI_PLAYER,
            points_table=MSO_POINTS_TABLE,
            note="Multi-player tables: tournament points from the points table, then last-round "
            "board, last-round result, % of best opponent's score (capped at 110 % per game), "
            "games won, Buchholz with growing cuts, restarting on every split "
            "(standings.multiplayer).",
        ),
        PresetChain(
            code="cohen-chess",
            title="Cohen Chess club format",
            source="seed 002, ranking rules 1–6",
            edition="2024",
            swiss_tiebreaks=COHEN_OVERALL.codes,
            round_robin_tiebreaks=COHEN_OVERALL.codes,
            procedure="peel",
            chains=(COHEN_POOL_WINNER, COHEN_POOL, COHEN_OVERALL),
            note="Pool rankings need options: pool_rounds (the stage's rounds), pool_rank "
            "(for the overall chain), previous_rank, optionally overall_rank.",
        ),
        PresetChain(
            code="gnot-2012",
            title="NSWBA GNOT 2012 bridge teams",
            source="seed 004",
            edition="2024",
            swiss_tiebreaks=(),
            round_robin_tiebreaks=(),
            procedure="lexicographic",
            complete=False,
            note="Later work: bridge scoring (IMPs, VP scales) and the knock-out ranking "
            "(IMP margin, IMP quotient, recorded lot) are not chess crosstable tie-breaks.",
        ),
    )
}
