#!/usr/bin/env python
"""Django's command-line utility."""

from __future__ import annotations

import gc
import os
import sys


def load_local_settings(path: str = ".env") -> None:
    """The development settings ``make run`` writes (``DEBUG=1``), so that the README's
    commands work as printed after ``make run``. One ``KEY=VALUE`` a line; a variable already
    set in the environment wins.

    Never on a server (issue 19): a ``SECRET_KEY`` in the environment means one (the app
    refuses to start without it when DEBUG is off, and development never needs one), and then
    the file is not read at all, so a checkout where ``make run`` once ran cannot give a
    production ``collectstatic`` or ``migrate`` DEBUG=1. When the file does switch DEBUG on, a
    line on stderr says so. The WSGI entry (gunicorn) never reads it."""
    target = os.path.join(os.path.dirname(os.path.abspath(__file__)), path)
    if os.environ.get("SECRET_KEY") or not os.path.exists(target):
        return
    debug_before = os.environ.get("DEBUG")
    with open(target, encoding="utf-8") as lines:
        for line in lines:
            key, sep, value = line.strip().partition("=")
            if sep and key and not key.startswith("#"):
                os.environ.setdefault(key.strip(), value.strip())
    if debug_before is None and os.environ.get("DEBUG", "0") not in ("", "0"):
        print(
            f"manage.py: development settings from {path} (DEBUG={os.environ['DEBUG']}); "
            "a server sets SECRET_KEY, which turns the file off",
            file=sys.stderr,
        )


def main() -> None:
    load_local_settings()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    if sys.argv[1:2] in (["standings"], ["pair"]):
        # A command that exits once it has printed runs without the cyclic garbage collector:
        # its passes over the objects start-up builds (all of which live until exit) took
        # 40 ms of the command's start (docs/performance.md); what `pair` builds is acyclic
        # records, freed by their reference counts.
        gc.disable()
    if sys.argv[1:2] == ["standings"]:
        # Its ordinary success path runs without starting Django; anything else it declines,
        # having printed nothing, and the Django command below answers (standings.fastpath).
        from standings.fastpath import main as standings_direct

        if standings_direct(sys.argv[2:]):
            os._exit(0)
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
