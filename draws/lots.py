"""Verifiable lots: every random decision of an event derives from its recorded seed.

Pure: no Django. Design brief §3 "Randomness is auditable": before a ceremony the public page
shows ``seed_hash(seed)``; afterwards the seed itself, so anyone can re-run the draw.

The generator is deliberately simple and language-neutral so that it can be re-implemented from
this docstring alone: draw number i for a purpose is the big-endian integer of
SHA-256(f"{seed}|{purpose}|{i}"). A number below ``n`` is taken by rejection sampling (draws that
fall in the incomplete top block of 2**256 are skipped), so every outcome is exactly equally
likely. Shuffles are Fisher–Yates from the last position down.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

_SPACE = 1 << 256


def seed_hash(seed: str) -> str:
    """The SHA-256 of the seed, published before the ceremony."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


def derived_seed(master: str, ceremony: str) -> str:
    """The seed of one public ceremony, derived from the event's master lots seed.

    Revealing it after the ceremony lets anyone re-run that draw without revealing the master
    seed, from which the event's later lots (playoff pairing numbers, Armageddon byes) derive.
    """
    return hashlib.sha256(f"{master}|{ceremony}".encode()).hexdigest()


class LotDrawer:
    """A reproducible stream of lots for one purpose of one event.

    ``purpose`` separates independent draws of the same event ("varma", "playoff-1-pairing",
    "armageddon-2-byes", ...) so that adding one draw never changes another.
    """

    def __init__(self, seed: str, purpose: str) -> None:
        self.seed = seed
        self.purpose = purpose
        self._counter = 0

    def _next_word(self) -> int:
        material = f"{self.seed}|{self.purpose}|{self._counter}".encode()
        self._counter += 1
        return int.from_bytes(hashlib.sha256(material).digest(), "big")

    def below(self, n: int) -> int:
        """A uniformly drawn integer in ``0 .. n-1``."""
        if n <= 0:
            raise ValueError("cannot draw from an empty range")
        limit = _SPACE - (_SPACE % n)
        while True:
            word = self._next_word()
            if word < limit:
                return word % n

    def pick(self, items: Sequence[T]) -> T:
        """One item drawn by lot."""
        return items[self.below(len(items))]

    def shuffle(self, items: Sequence[T]) -> list[T]:
        """A new list with the items in an order drawn by lot (Fisher–Yates)."""
        result = list(items)
        for i in range(len(result) - 1, 0, -1):
            j = self.below(i + 1)
            result[i], result[j] = result[j], result[i]
        return result

    def coin_toss(self) -> bool:
        """True for heads."""
        return self.below(2) == 0
