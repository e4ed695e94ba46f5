#!/usr/bin/env python
"""Django's command-line utility."""

from __future__ import annotations

import gc
import os
import sys


def main() -> None:
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
