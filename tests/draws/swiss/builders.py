"""Small hand-made crosstables for the table-driven tests (test-only)."""

from __future__ import annotations

from events.records import Crosstable, Entrant, RoundResult, Scoring


def crosstable(
    players: int, rounds: dict[int, list[str]] | None = None, scoring: Scoring | None = None
) -> Crosstable:
    """``rounds[start_no]`` lists one cell per round: ``"3w1"`` (opponent 3, white, won),
    ``"-U"`` (pairing-allocated bye), ``"-H"`` (half-point bye), ``"-Z"`` (absent)."""
    cells = rounds or {}
    played = max((len(v) for v in cells.values()), default=0)
    entrants = []
    for start_no in range(1, players + 1):
        results = []
        for index, cell in enumerate(cells.get(start_no, ["-Z"] * played), start=1):
            if cell.startswith("-"):
                results.append(RoundResult(index, None, "-", cell[1]))
            else:
                results.append(RoundResult(index, int(cell[:-2]), cell[-2], cell[-1]))
        entrants.append(Entrant(start_no=start_no, name=f"P{start_no}", results=tuple(results)))
    return Crosstable(
        name="case", rounds=played, entrants=tuple(entrants), scoring=scoring or Scoring()
    )
