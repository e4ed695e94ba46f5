"""What the differential runs compared, added up over pytest-xdist's workers.

A differential module keeps one tally (``register``): the cases its tests started (``expect``,
called as each test is set up) and what each compared (``record``). Every worker hands its
tallies to the controller at the end (``workeroutput``); the controller adds them up, prints
each summary, and fails a green run in which a started case did not compare all its rounds. A
run without workers does the same in its one process. The hooks are in ``tests/conftest.py``,
the only conftest the controller loads (it collects nothing).
"""

from __future__ import annotations

import dataclasses
import importlib
from collections import Counter
from typing import Any, TypeVar

REGISTRY: dict[str, Any] = {}
T = TypeVar("T")


def register(name: str, tally: T) -> T:
    REGISTRY[name] = tally
    return tally


def _state(tally: Any) -> dict[str, Any]:
    """The tally's counts as plain data (what execnet carries: no Counter)."""
    state = {
        field.name: (
            dict(value) if isinstance(value := getattr(tally, field.name), Counter) else value
        )
        for field in dataclasses.fields(tally)
    }
    state["__class__"] = f"{type(tally).__module__}:{type(tally).__qualname__}"
    return state


def _absorb(tally: Any, state: dict[str, Any]) -> None:
    for field in dataclasses.fields(tally):
        mine, theirs = getattr(tally, field.name), state[field.name]
        if isinstance(mine, Counter):
            mine.update(theirs)
        elif isinstance(mine, bool):
            setattr(tally, field.name, mine or theirs)
        else:
            setattr(tally, field.name, mine + theirs)


def _ran(tally: Any) -> bool:
    return bool(getattr(tally, "ran", False) or getattr(tally, "events", 0))


def worker_states() -> dict[str, dict[str, Any]]:
    return {name: _state(tally) for name, tally in REGISTRY.items() if _ran(tally)}


def add_worker_states(states: dict[str, dict[str, Any]]) -> None:
    for name, state in states.items():
        if name not in REGISTRY:
            module, _, qualname = state["__class__"].partition(":")
            REGISTRY[name] = getattr(importlib.import_module(module), qualname)()
        _absorb(REGISTRY[name], state)


def summaries() -> list[str]:
    return [tally.summary() for tally in REGISTRY.values() if _ran(tally)]


def incomplete() -> list[str]:
    return [
        name
        for name, tally in REGISTRY.items()
        if _ran(tally) and hasattr(tally, "complete") and not tally.complete()
    ]
