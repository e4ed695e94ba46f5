#!/usr/bin/env python
"""Django's command-line utility."""

from __future__ import annotations

import gc
import os
import sys


def load_local_settings(path: str = ".env") -> None:
    """The development settings ``make run`` writes (``DEBUG=1``), so that the README's
    commands work as printed after ``make run``. One ``KEY=VALUE`` a line; a variable already
    set in the environment wins, and a production machine, which has no such file, still needs
    its SECRET_KEY (config/settings.py refuses to start without one when DEBUG is off)."""
    target = os.path.join(os.path.dirname(os.path.abspath(__file__)), path)
    if not os.path.exists(target):
        return
    with open(target, encoding="utf-8") as lines:
        for line in lines:
            key, sep, value = line.strip().partition("=")
            if sep and key and not key.startswith("#"):
                os.environ.setdefault(key.strip(), value.strip())


def main() -> None:
    load_local_settings()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    if sys.argv[1:2] == ["standings"]:
        # A read-only command that exits once it has printed runs without the cyclic garbage
        # collector: its passes over the objects start-up builds (all of which live until
        # exit) took 40 ms of the command's start (docs/performance.md).
        gc.disable()
        # Its ordinary success path runs without starting Django; anything else it declines,
        # having printed nothing, and the Django command below answers (standings.fastpath).
        from standings.fastpath import main as standings_direct

        if standings_direct(sys.argv[2:]):
            os._exit(0)
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
