"""Swiss pairing engine: our time against bbpPairings' on the same TRF, by field size.

Not a test: prints figures. For each field size a 9-round tournament is generated with
bbpPairings' generator (fixed seed; cached under the temp dir, since 1,000 players take
minutes to generate), then rounds 5 and 9 are paired by both from the same data, several
times, alternating; the table gives the medians and the spread (max - min over the median) of
each side. bbpPairings is timed as a process, start-up included; ours as ``pair_round`` on
records already in memory. Wall-clock time is what the requirement is about; the CPU-time
ratio (bbpPairings' as a child process, ours as the process's) is printed beside it because it
is much less disturbed when other work shares the machine. Needs g++ and make for the oracle.

    .venv/bin/python bench/pairing.py                # 50, 100, 300 players, 5 runs each
    .venv/bin/python bench/pairing.py 1000 --runs 3  # chosen sizes and runs
"""

from __future__ import annotations

import argparse
import hashlib
import resource
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from draws.swiss.pairing import pair_round  # noqa: E402
from tests.draws.swiss import bbp  # noqa: E402

ROUNDS = 9
MEASURED_ROUNDS = (5, 9)
SEED = 7
CACHE = Path(tempfile.gettempdir()) / "swiss-pairing-bench"


@dataclass(frozen=True)
class Row:
    players: int
    round_no: int
    theirs: list[float]
    ours: list[float]
    theirs_cpu: list[float]
    ours_cpu: list[float]
    same: bool

    @staticmethod
    def spread(times: list[float]) -> float:
        return (max(times) - min(times)) / statistics.median(times)

    def line(self) -> str:
        theirs, ours = statistics.median(self.theirs), statistics.median(self.ours)
        cpu = statistics.median(self.ours_cpu) / statistics.median(self.theirs_cpu)
        return (
            f"| {self.players} | {self.round_no} | {theirs:.3f} | {ours:.3f} | "
            f"{ours / theirs:.2f} | {cpu:.2f} | "
            f"{self.spread(self.theirs):.0%} / {self.spread(self.ours):.0%}"
            f" | {'yes' if self.same else 'NO'} |"
        )


def tournament(exe: str, players: int, seed: int = SEED) -> str:
    """The generated tournament, from the cache when this executable made it before."""
    config = bbp.Config(players=players, rounds=ROUNDS)
    key = hashlib.sha256(f"{Path(exe).resolve()}|{config}|{seed}".encode()).hexdigest()[:16]
    path = CACHE / f"{players}p-{ROUNDS}r-seed{seed}-{key}.trf"
    if not path.exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        text = bbp.generate(exe, config, seed)
        partial = path.with_suffix(".tmp")
        partial.write_text(text)
        partial.replace(path)
    return path.read_text()


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def measure(exe: str, players: int, runs: int) -> list[Row]:
    crosstable, total = bbp.parse(tournament(exe, players))
    initial = bbp.infer_initial_colour(crosstable)
    rows = []
    for round_no in MEASURED_ROUNDS:
        trf = bbp.round_trf(crosstable, round_no, total, initial)
        before = bbp.crosstable_before(crosstable, round_no)
        request = bbp.request_for(crosstable, round_no, total, initial)
        theirs, ours, theirs_cpu, ours_cpu, same = [], [], [], [], True
        for _ in range(runs):
            children = _children_cpu()
            boards, bye, seconds = bbp.run_pairer(exe, trf)
            theirs_cpu.append(_children_cpu() - children)
            theirs.append(seconds)
            start, start_cpu = time.perf_counter(), time.process_time()
            pairing = pair_round(before, request)
            ours.append(time.perf_counter() - start)
            ours_cpu.append(time.process_time() - start_cpu)
            same &= ([(b.white, b.black) for b in pairing.boards], pairing.bye) == (boards, bye)
        rows.append(Row(players, round_no, theirs, ours, theirs_cpu, ours_cpu, same))
    return rows


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sizes", nargs="*", type=int, default=[50, 100, 300])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    exe = bbp.bbp_path()
    if exe is None:
        raise SystemExit(bbp.skip_reason())
    print(f"median of {args.runs} runs; spread = (max - min) / median, bbpPairings / ours")
    print("| players | round | bbpPairings s | ours s | ratio | CPU ratio | spread | same |")
    print("|---|---|---|---|---|---|---|---|")
    for players in args.sizes:
        for row in measure(exe, players, args.runs):
            print(row.line(), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
