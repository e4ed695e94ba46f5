"""Playoff time controls as data, never as strings. Pure: no Django.

A time control is the base time of each side plus a per-move increment or delay, in whole
seconds. The label is derived, so the page, the export and the engine never disagree.

Seed 000 (Grand Chess Tour 2019): 2.3.1 G/10 + 5 s delay, 2.3.2 G/5 + 3 s delay, 2.5.1
Armageddon White 5 min / Black 4 min without increment or delay, 3.3.1 G/25 + 10 s delay,
3.3.2 G/10 + 5 s delay, 3.4 G/5 + 3 s delay. A format's own time controls live in its app
(formats/cohen: seed 002 General Rules 5).
"""

from __future__ import annotations

from dataclasses import dataclass


def _clock(seconds: int) -> str:
    """Minutes, or minutes:seconds when the base time is not whole minutes."""
    minutes, rest = divmod(seconds, 60)
    return f"{minutes}" if rest == 0 else f"{minutes}:{rest:02d}"


@dataclass(frozen=True, slots=True)
class TimeControl:
    """Base time per side and the per-move increment or delay (seconds)."""

    base_seconds_white: int
    base_seconds_black: int
    increment_seconds: int = 0
    delay_seconds: int = 0

    def __post_init__(self) -> None:
        values = (
            self.base_seconds_white,
            self.base_seconds_black,
            self.increment_seconds,
            self.delay_seconds,
        )
        # bool is an int subclass; a True here is a programming error, not one second.
        if any(not isinstance(value, int) or isinstance(value, bool) for value in values):
            raise TypeError("time-control values are whole seconds")
        if min(values) < 0 or min(values[:2]) == 0:
            raise ValueError("base times must be positive and extras non-negative")

    @property
    def label(self) -> str:
        """E.g. "G/10 + 5 s delay" or "White 5 min, Black 4 min, no increment or delay"."""
        if self.base_seconds_white == self.base_seconds_black:
            base = f"G/{_clock(self.base_seconds_white)}"
        else:
            base = (
                f"White {_clock(self.base_seconds_white)} min, "
                f"Black {_clock(self.base_seconds_black)} min"
            )
        extras = []
        if self.increment_seconds:
            extras.append(f" + {self.increment_seconds} s increment")
        if self.delay_seconds:
            extras.append(f" + {self.delay_seconds} s delay")
        if extras:
            return base + "".join(extras)
        # Armageddon's unequal clocks (2.5.1) say so explicitly; a plain "G/5" needs no note.
        if self.base_seconds_white != self.base_seconds_black:
            return base + ", no increment or delay"
        return base

    def as_json(self) -> dict[str, object]:
        """The structured fields plus the label, for the extended playoff JSON."""
        return {
            "label": self.label,
            "base_seconds_white": self.base_seconds_white,
            "base_seconds_black": self.base_seconds_black,
            "increment_seconds": self.increment_seconds,
            "delay_seconds": self.delay_seconds,
        }


# Seed 000, Rapid & Blitz events.
GCT_RB_RAPID_MATCH = TimeControl(600, 600, delay_seconds=5)  # 2.3.1
GCT_BLITZ = TimeControl(300, 300, delay_seconds=3)  # 2.3.2 and, for Classical events, 3.4
GCT_ARMAGEDDON = TimeControl(300, 240)  # 2.5.1
# Seed 000, Classical events.
GCT_CLASSICAL_RAPID_MATCH = TimeControl(1500, 1500, delay_seconds=10)  # 3.3.1
GCT_CLASSICAL_RAPID_ROUND_ROBIN = TimeControl(600, 600, delay_seconds=5)  # 3.3.2
