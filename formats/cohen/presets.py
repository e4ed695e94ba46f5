"""The ``cohen-chess`` regulation preset (seed 002 ranking rules 1–6) and its named chains,
registered in :data:`events.regulations.PRESETS` when this module is imported. Pure: no Django.

Cohen Chess ranks a pool's winner, a pool and the whole field with three different chains
(rules 4 and 5), under the peel procedure (rule 6, as rules-notes reads it). The codes are the
seeds' own tie-breaks in the catalogue (:mod:`standings.chains`).
"""

from __future__ import annotations

from events import sources
from events.regulations import NamedChain, Preset, preset_register

# Seed 002 rule 4 A–J: ranking within a pool to find its winner; the chief factor is pool points.
COHEN_POOL_WINNER = NamedChain(
    name="pool_winner",
    clause=sources.cite(sources.COHEN_CHESS, "ranking rule 4 A–J"),
    codes=("POOLPTS", "POOLH2H", "PTS", "H2H", "COMMON", "SOS", "STRONG", "VSTOP", "PREV", "AGE"),
    primary="POOLPTS",
)
# Seed 002 rule 5 A–K: overall ranking (C, pool ranking, applies to the overall ranking only).
COHEN_OVERALL = NamedChain(
    name="overall",
    clause=sources.cite(sources.COHEN_CHESS, "ranking rule 5 A–K"),
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
    clause=sources.cite(
        sources.COHEN_CHESS, "ranking rule 5 A–B, D–K (within a pool, other than its winner)"
    ),
    codes=tuple(code for code in COHEN_OVERALL.codes if code != "POOLRANK"),
)

COHEN_CHESS = preset_register(
    Preset(
        code="cohen-chess",
        title="Cohen Chess club format",
        source=sources.cite(sources.COHEN_CHESS, "ranking rules 1–6"),
        edition="2024",
        swiss_tiebreaks=COHEN_OVERALL.codes,
        round_robin_tiebreaks=COHEN_OVERALL.codes,
        procedure="peel",
        chains=(COHEN_POOL_WINNER, COHEN_POOL, COHEN_OVERALL),
        note="Pool rankings need options: pool_rounds (the stage's rounds), pool_rank "
        "(for the overall chain), previous_rank, optionally overall_rank.",
        playoff_rule="cohen-final-four",
    )
)
