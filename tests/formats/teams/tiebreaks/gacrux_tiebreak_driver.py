"""Runs gacrux's tie-break checker for many files in one process (test-only).

Started by :mod:`tests.formats.teams.tiebreaks.oracle` as a subprocess, from a directory with
no ``gacrux/`` folder. Each line on stdin is a JSON list of ``tiebreakchecker`` arguments; for
each, the checker's own entry point (what ``python -m gacrux.tiebreakchecker`` runs) is called
and one line goes back on stdout: ``{"code": N, "output": "..."}`` (its tab-separated table)
or ``{"crash": "..."}``. Nothing of ours is imported here: the oracle stays independent of the
engine it checks.
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
import traceback


def main() -> None:
    from gacrux.tiebreakchecker import tiebreakchecker

    for line in sys.stdin:
        arguments = json.loads(line)
        sys.argv = ["tiebreakchecker", *arguments]
        captured = io.StringIO()
        try:
            with contextlib.redirect_stdout(captured):
                code = tiebreakchecker().common_main()
            reply = {"code": code, "output": captured.getvalue()}
        except Exception:  # the oracle crashed: reported to the test, which fails
            reply = {"crash": traceback.format_exc(limit=3)}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
