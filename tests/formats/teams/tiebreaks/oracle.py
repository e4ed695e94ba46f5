"""gacrux's tie-break checker as the oracle for the team tie-breaks (test-only).

``python -m gacrux.tiebreakchecker -i FILE -s -d T -n ROUND -t CODE ...`` (``-p`` for a round
robin) prints a tab-separated table: start number, rank, one column per code. Its entry point
runs in one long-lived subprocess (:mod:`tests.formats.teams.tiebreaks.
gacrux_tiebreak_driver`), from a directory without a ``gacrux/`` folder.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from tests.formats.teams.pairing.oracle import DriverProcess, OracleError

DRIVER = Path(__file__).with_name("gacrux_tiebreak_driver.py")
# Our codes as gacrux names them: MP and GP are its MPTS and GPTS.
GACRUX_NAMES = {"MP": "MPTS", "GP": "GPTS"}


def gacrux_code(code: str) -> str:
    return GACRUX_NAMES.get(code, code)


def _value(text: str) -> Fraction | None:
    return None if text in ("-0", "None") else Fraction(text)


class TiebreakOracle:
    """Computes team tie-breaks of TRF files with gacrux, in ``workdir``."""

    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        self.driver = DriverProcess(DRIVER, workdir)
        self.calls = 0

    def _ask(self, arguments: list[str]) -> str:
        return str(self.driver.ask(arguments)["output"])

    def tiebreaks(
        self, trf: str, after_round: int, codes: tuple[str, ...], round_robin: bool = False
    ) -> dict[int, tuple[Fraction | None, ...]]:
        """Each team's values of ``codes`` after ``after_round``, as gacrux computes them."""
        self.calls += 1
        source = self.workdir / f"event-{self.calls}.trf"
        source.write_text(trf, encoding="latin-1")
        system = "-p" if round_robin else "-s"
        arguments = ["-i", str(source), system, "-d", "T", "-n", str(after_round), "-t"]
        output = self._ask([*arguments, *(gacrux_code(code) for code in codes)])
        lines = output.strip().splitlines()
        if not lines or not lines[0].startswith("StartNo"):
            raise OracleError(f"gacrux printed no table for {source}: {output[:300]!r}")
        source.unlink(missing_ok=True)
        table = {}
        for line in lines[1:]:
            cells = line.split("\t")
            if len(cells) != 2 + len(codes):
                raise OracleError(f"gacrux printed a row of another width: {line!r}")
            table[int(cells[0])] = tuple(_value(cell) for cell in cells[2:])
        return table

    def close(self) -> None:
        self.driver.close()
