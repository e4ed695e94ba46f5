"""The ``gnot-2012`` regulation preset (seed 004), registered in
:data:`events.regulations.PRESETS` when this module is imported. Pure: no Django.

Bridge scoring (IMPs, VP scales) and the knock-out ranking (IMP margin, IMP quotient, recorded
lot) are not chess crosstable tie-breaks: the format ranks its teams with its own engine
(:mod:`formats.gnot.rules`), so the preset's chess chains are empty.
"""

from __future__ import annotations

from events import sources
from events.regulations import Preset, preset_register

GNOT_2012 = preset_register(
    Preset(
        code="gnot-2012",
        title="NSWBA GNOT 2012 bridge teams",
        source=sources.cite(sources.GNOT_2012),
        edition="2024",
        swiss_tiebreaks=(),
        round_robin_tiebreaks=(),
        procedure="lexicographic",
        complete=False,
        own_standings=True,
        note="Bridge scoring (IMPs, VP scales) and the knock-out ranking (IMP margin, IMP "
        "quotient, recorded lot) are the format's own (formats/gnot), not chess tie-breaks.",
    )
)
