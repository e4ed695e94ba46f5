"""A mutation check on a sample (issue 31): break one rule, permission or export at a time in a
copy of the working tree and run the tests that guard it; each run must fail.

    .venv/bin/python scripts/mutation_check.py            # every mutation
    .venv/bin/python scripts/mutation_check.py hort cut1  # some of them, by name

Each mutation replaces one exact piece of a product file (the script refuses one that no longer
matches, so the sample cannot rot silently) in a copy made with ``git archive`` of HEAD plus the
working tree's changes to tracked files. The tests run there through ``scripts/test.sh`` with
``-x`` (the first failure is enough) on a test database of their own. It prints one line per
mutation: ``caught`` (the suite failed, as it must) or ``MISSED``; it exits 1 if any was missed.
docs/testing.md lists the sample and the last run's figures.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Mutation:
    name: str
    what: str
    path: str
    old: str
    new: str
    tests: tuple[str, ...]


MUTATIONS = [
    Mutation(
        "cut1",
        "rule: C.07 16.5's Cut-1 removes the last opponent instead of the weakest",
        "standings/tiebreaks.py",
        "    del items[weakest]\n",
        "    del items[-1]\n",
        ("tests/standings",),
    ),
    Mutation(
        "hort",
        "rule: the Hort system keeps a third of a shared place's prizes instead of half",
        "prizes/split.py",
        "/ sharing / 2",
        "/ sharing / 3",
        ("tests/prizes",),
    ),
    Mutation(
        "strong-colour",
        "rule: C.04.3's strong colour preference is ignored in the Swiss engine",
        "draws/swiss/pairing/colours.py",
        "    if player.strong_preference and not opponent.strong_preference:\n",
        "    if False:\n",
        ("tests/draws/swiss",),
    ),
    Mutation(
        "director-pages",
        "permission: any role of the event may use the director's pages",
        "events/access.py",
        "    if role not in allowed:\n",
        "    if role is None:\n",
        ("tests/test_permission_matrix.py",),
    ),
    Mutation(
        "closed-event",
        "permission: a closed event takes writes",
        "events/services.py",
        "    if locked.status == EventStatus.FINISHED:\n        raise EventClosed\n",
        "    if False:\n        raise EventClosed\n",
        ("tests/test_closed_event.py",),
    ),
    Mutation(
        "csv-formula",
        "export: a CSV cell that starts like a formula is written as it is",
        "events/spreadsheet.py",
        "    if starts_like_formula(text):  # the OWASP rule",
        "    if False:  # the OWASP rule",
        ("tests/events/test_spreadsheet.py", "tests/prizes/test_sheets.py"),
    ),
]


def _copy() -> Path:
    """HEAD with the working tree's changes to tracked files, in a temporary folder."""
    # beside the repository, so that ../shared (the seeds, the oracles' sources) is found
    target = Path(tempfile.mkdtemp(prefix=".td-mutation.", dir=REPO.parent))
    archive = subprocess.run(
        ["git", "-C", str(REPO), "archive", "HEAD"], check=True, capture_output=True
    )
    subprocess.run(["tar", "-x", "-C", str(target)], input=archive.stdout, check=True)
    changed = subprocess.run(
        ["git", "-C", str(REPO), "diff", "--name-only", "HEAD"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    for name in changed:
        if (REPO / name).exists():
            shutil.copy2(REPO / name, target / name)
    (target / ".venv").symlink_to(REPO / ".venv")
    return target


def _run(mutation: Mutation) -> tuple[bool, float]:
    tree = _copy()
    try:
        path = tree / mutation.path
        text = path.read_text(encoding="utf-8")
        if text.count(mutation.old) != 1:
            raise SystemExit(f"{mutation.name}: the piece to break is not once in {mutation.path}")
        path.write_text(text.replace(mutation.old, mutation.new), encoding="utf-8")
        env = {
            **os.environ,
            "TEST_DATABASE_NAME": "test_mutation",
            "TEST_WORKERS": os.environ.get("TEST_WORKERS", "2"),
        }
        started = time.monotonic()
        result = subprocess.run(
            ["scripts/test.sh", *mutation.tests, "-x", "-q", "-p", "no:randomly"],
            cwd=tree,
            env=env,
            capture_output=True,
            text=True,
        )
        # failed tests (pytest's 1, or 2 when -x stops xdist's workers); anything else that is
        # not a pass (a set-up failure, no test collected) gives no verdict
        caught = re.search(r"\b\d+ failed\b", result.stdout) is not None
        if not caught and result.returncode != 0:
            raise SystemExit(f"{mutation.name}: the run did not test: {result.stdout[-2000:]}")
        return caught, time.monotonic() - started
    finally:
        shutil.rmtree(tree, ignore_errors=True)


def main(names: list[str]) -> int:
    chosen = [m for m in MUTATIONS if not names or m.name in names]
    missed = 0
    for mutation in chosen:
        caught, seconds = _run(mutation)
        missed += not caught
        verdict = "caught" if caught else "MISSED"
        tests = ", ".join(mutation.tests)
        print(f"{verdict:7} {mutation.name:15} {seconds:6.0f} s  {mutation.what} ({tests})")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
