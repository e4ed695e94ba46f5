"""Registries keyed by stable codes (house style 2): one small class for all of them.

Tie-break definitions, prize split rules, rounding policies, playoff rules, VP scales, regulation
presets, exchange sections and formats are each a :class:`Registry`: entries are registered once
under their code, looked up with a message that names the known codes, and listed in
registration order for the UI's choices. Pure: no Django.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


class Registry(dict[str, T]):
    """A ``dict`` from code to entry that refuses a second entry under the same code.

    ``what`` names the kind of entry in messages ("tie-break", "split rule"); ``error`` is the
    exception :meth:`find` raises for an unknown code (the caller's user-facing error class).
    """

    def __init__(self, what: str, error: Callable[[str], Exception] = KeyError) -> None:
        super().__init__()
        self.what = what
        self.error = error

    def register(self, code: str, entry: T) -> T:
        if code in self:
            raise ValueError(f"{self.what} {code} registered twice")
        self[code] = entry
        return entry

    def find(self, code: str) -> T:
        """The entry for ``code``; an unknown code raises ``error`` naming the known ones."""
        try:
            return self[code]
        except KeyError:
            known = ", ".join(sorted(self))
            raise self.error(f"unknown {self.what} {code!r}; choose one of {known}") from None
