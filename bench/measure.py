"""One process's wall time, CPU time and peak resident memory, for the benchmarks and the tests
that hold a command to a memory promise.

The peak is the process's own high-water mark (``VmHWM`` of /proc/self/status, read as it
exits), not ``ru_maxrss`` from ``wait4``: Linux carries the parent's resident size at the fork
into the child's ``ru_maxrss`` across the exec, so a command started from a test run that has
grown to 400 MB "peaked" at 400 MB whatever it did itself.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

# Runs manage.py in this interpreter and, at exit (sys.exit included), writes VmHWM in kB.
_WRAPPER = """\
import atexit, runpy, sys
peak_file = sys.argv.pop(1)
def write_peak():
    with open("/proc/self/status") as status:
        peak = next(line.split()[1] for line in status if line.startswith("VmHWM:"))
    with open(peak_file, "w") as out:
        out.write(peak)
atexit.register(write_peak)
sys.argv = sys.argv[1:]
runpy.run_path(sys.argv[0], run_name="__main__")
"""


@dataclass(frozen=True)
class Measured:
    status: int
    stdout: str
    stderr: str
    seconds: float
    cpu_seconds: float
    peak_mb: float


def manage_measured(*args: str, env: dict[str, str]) -> Measured:
    """``manage.py ARGS`` in a process of its own, measured."""
    with tempfile.TemporaryDirectory() as scratch:
        peak_file = Path(scratch, "peak")
        out, err = Path(scratch, "stdout"), Path(scratch, "stderr")
        command = [sys.executable, "-c", _WRAPPER, str(peak_file), "manage.py", *args]
        start = time.perf_counter()
        with out.open("wb") as stdout, err.open("wb") as stderr:
            process = subprocess.Popen(command, cwd=REPO, env=env, stdout=stdout, stderr=stderr)
            _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - start
        peak_kb = int(peak_file.read_text()) if peak_file.exists() else 0
        return Measured(
            status=os.waitstatus_to_exitcode(status),
            stdout=out.read_text("utf-8", "replace"),
            stderr=err.read_text("utf-8", "replace"),
            seconds=seconds,
            cpu_seconds=usage.ru_utime + usage.ru_stime,
            peak_mb=peak_kb / 1024,
        )
