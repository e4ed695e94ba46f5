"""gacrux (FIDE's reference engine, pinned in requirements-dev.txt) as the oracle (test-only).

``python -m gacrux.pairingchecker -i FILE -p -n ROUND -m METHOD`` pairs round ROUND of a
TRF-2026 team file: METHOD is ``fideteam-typea|typeb|nocolor`` followed by the scores
(``mp+gp``, ``gp+mp``, ``mp``, ``gp``). Its JSON answer lists the pairs in table order as
``[white, black]`` (White on board 1), the pairing-allocated bye as ``[team, 0]``; status 2
or 505 means no legal pairing exists (C.04.6 3.3.3).

Starting Python for every round costs more than the pairing, so by default the checker's
entry point runs in one long-lived subprocess (:mod:`tests.formats.teams.pairing.
gacrux_driver`); ``one_shot=True`` runs the command line itself for every file
(``test_differential.py`` checks that both give the same answer).
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

DRIVER = Path(__file__).with_name("gacrux_driver.py")
# No legal pairing (3.3.3): 2 when the pairing step found none, 505 when the engine raised it
# before pairing.
NO_LEGAL_PAIRING = (2, 505)


class OracleError(RuntimeError):
    """gacrux refused the file or crashed: the harness wrote something it cannot read."""


@dataclass(frozen=True)
class OracleAnswer:
    matches: tuple[tuple[int, int], ...]  # (white, black) in table order
    bye: int | None
    impossible: bool = False


def available() -> bool:
    return importlib.util.find_spec("gacrux") is not None


def started(workdir: Path) -> Gacrux:
    """The oracle for a test fixture, or the test skipped when gacrux is missing; CI sets
    REQUIRE_ORACLES=1 (.ci/run), and there a missing oracle is a failure, never a quiet skip
    that would let the differential tests pass without running."""
    if not available():
        reason = "gacrux is not installed (pip install -r requirements-dev.txt)"
        if os.environ.get("REQUIRE_ORACLES") == "1":
            pytest.fail(reason)
        pytest.skip(reason)
    return Gacrux(workdir)


def _read_answer(output: Path) -> OracleAnswer:
    text = output.read_text(encoding="utf-8") if output.exists() else ""
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise OracleError(f"gacrux wrote no JSON answer: {text[:300]!r}") from error
    status = document.get("status", {})
    if status.get("code") in NO_LEGAL_PAIRING:
        return OracleAnswer((), None, impossible=True)
    if status.get("code") != 0:
        raise OracleError(f"gacrux refused the file: {status}")
    pairs = [tuple(pair) for pair in document["pairingResult"]["pairs"]]
    matches = tuple((white, black) for white, black in pairs if black)
    byes = [white for white, black in pairs if not black]
    return OracleAnswer(matches, byes[0] if byes else None)


class DriverProcess:
    """A long-lived Python process running one of gacrux's checkers per request (a JSON list of
    arguments a line, a JSON reply a line), started on the first request: importing gacrux
    costs more than most of its runs."""

    def __init__(self, driver: Path, workdir: Path) -> None:
        self.driver, self.workdir = driver, workdir
        self.process: subprocess.Popen[str] | None = None

    def ask(self, arguments: list[str]) -> dict[str, Any]:
        if self.process is None:
            self.process = subprocess.Popen(
                [sys.executable, "-u", str(self.driver)],
                cwd=self.workdir,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
            )
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(arguments) + "\n")
        self.process.stdin.flush()
        reply = json.loads(self.process.stdout.readline() or '{"crash": "the driver ended"}')
        if "crash" in reply:
            raise OracleError(reply["crash"])
        return dict(reply)

    def close(self) -> None:
        if self.process is not None:
            assert self.process.stdin is not None
            self.process.stdin.close()
            self.process.wait(timeout=60)
            self.process = None


class Gacrux:
    """Pairs rounds of team files with gacrux, in ``workdir`` (which has no gacrux folder)."""

    def __init__(self, workdir: Path, one_shot: bool = False) -> None:
        self.workdir = workdir
        self.one_shot = one_shot
        self.driver = DriverProcess(DRIVER, workdir)
        self.calls = 0

    def _arguments(self, trf: str, round_no: int, method: str) -> tuple[list[str], Path]:
        self.calls += 1
        source = self.workdir / f"event-{self.calls}.trf"
        output = self.workdir / f"event-{self.calls}.json"
        source.write_text(trf, encoding="latin-1")
        arguments = ["-i", str(source), "-p", "-n", str(round_no), "-m", method]
        return [*arguments, "-o", str(output)], output

    def _run_one_shot(self, arguments: list[str]) -> None:
        subprocess.run(
            [sys.executable, "-m", "gacrux.pairingchecker", *arguments],
            cwd=self.workdir,
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )

    def _run_in_driver(self, arguments: list[str]) -> None:
        self.driver.ask(arguments)

    def pair(self, trf: str, round_no: int, method: str) -> OracleAnswer:
        arguments, output = self._arguments(trf, round_no, method)
        run = self._run_one_shot if self.one_shot else self._run_in_driver
        run(arguments)
        answer = _read_answer(output)
        output.unlink(missing_ok=True)
        (self.workdir / f"event-{self.calls}.trf").unlink(missing_ok=True)
        return answer

    def close(self) -> None:
        self.driver.close()
