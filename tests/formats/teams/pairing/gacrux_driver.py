"""Runs gacrux's pairing checker for many files in one process (test-only).

Started by :mod:`tests.formats.teams.pairing.oracle` as a subprocess, from a directory with
no ``gacrux/`` folder. Each line on stdin is a JSON list of ``pairingchecker`` arguments; for
each, the checker's own entry point (``pairingchecker().common_main()``, what ``python -m
gacrux.pairingchecker`` runs) is called with those arguments, and one line goes back on
stdout: ``{"code": N}`` or ``{"crash": "..."}``. Its answer is in the ``-o`` file. Nothing of
ours is imported here: the oracle stays independent of the engine it checks.
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
import traceback


def main() -> None:
    from gacrux.pairingchecker import pairingchecker

    for line in sys.stdin:
        arguments = json.loads(line)
        sys.argv = ["pairingchecker", *arguments]
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                code = pairingchecker().common_main()
            reply = {"code": code}
        except Exception:  # the oracle crashed: reported to the test, which fails
            reply = {"crash": traceback.format_exc(limit=3)}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
