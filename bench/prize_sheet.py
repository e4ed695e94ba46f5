"""A large tie's prize sheet (issue 29): bytes, time and peak memory of each of its outputs.

    .venv/bin/python bench/prize_sheet.py [--players 5000] [--outputs page,csv,...] [--repo DIR]

The event of issue 29: N players, one round, every game drawn, and no tie-breaks (``fide-2024``
with an empty list), so that all N share first place and its three prizes (300, 200 and 100
EUR). It is imported with ``manage.py import_event`` into a scratch PostgreSQL database (on
the server of ``DATABASE_URL``, default ``127.0.0.1:5432``; dropped at the end), with
production settings (``DEBUG=0``) and a per-process cache. Then each step runs in a process of
its own, which prints the bytes it produced, its wall time and its peak resident memory (the
process's own high-water mark, ``VmHWM``, Django and the project loaded included; ``idle MB``
is the same process's resident size before the step):

- ``backup``: ``export_all`` before the approval (the backup's size without the sheet);
- ``approve``: ``prize_sheet_approve`` (the bytes are the snapshot it stores, as JSON);
- ``backup+``: ``export_all`` after it (what one approval adds to every backup);
- ``page``, ``page all``: the public prize page for an anonymous visitor, as printed and with
  every player (``?all=1``);
- ``csv``, ``csv all``, ``xlsx``, ``pdf``, ``json``: the public ``sheet.*`` downloads (``all``:
  every player, ``?all=1``).

``--repo DIR`` runs the same steps on another checkout of the project (the one before a change,
say: ``git archive COMMIT | tar -x -C DIR``), with this interpreter; a checkout that does not
know ``?all=1`` ignores it. It prints figures; it asserts nothing. ``docs/performance.md``
("Prize sheets") has the figures before and after issue 29.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(1, str(Path(__file__).resolve().parent.parent))
import load  # noqa: E402  (bench/load.py: the scratch database, the settings, the machine)

from tests.prizes.documents import tie_document  # noqa: E402  (the tie the tests measure too)

OUTPUTS = {
    "backup": "",
    "approve": "",
    "backup+": "",
    "page": "/e/{slug}/prizes/",
    "page all": "/e/{slug}/prizes/?all=1",
    "csv": "/e/{slug}/prizes/sheet.csv",
    "csv all": "/e/{slug}/prizes/sheet.csv?all=1",
    "xlsx": "/e/{slug}/prizes/sheet.xlsx",
    "xlsx all": "/e/{slug}/prizes/sheet.xlsx?all=1",
    "pdf": "/e/{slug}/prizes/sheet.pdf",
    "pdf all": "/e/{slug}/prizes/sheet.pdf?all=1",
    "json": "/e/{slug}/prizes/sheet.json",
}
DEFAULT_OUTPUTS = "backup,approve,backup+,page,page all,csv,csv all,json"

# One step in a process of its own; prints {"bytes", "seconds", "idle_mb", "peak_mb"}.
STEP = r"""
import json, sys, time
import django
django.setup()
from django.core.management import call_command
from django.test import Client

def resident(field):
    with open("/proc/self/status") as status:
        return int(next(l.split()[1] for l in status if l.startswith(field))) / 1024

spec = json.loads(sys.argv[1])
idle = resident("VmRSS:")
started = time.perf_counter()
if spec["step"] == "approve":
    from django.contrib.auth import get_user_model
    from events.models import Event
    from prizes.services import prize_sheet_approve
    user = get_user_model().objects.create_superuser("bench-approver", password=None)
    approval = prize_sheet_approve(event=Event.objects.get(slug=spec["slug"]), user=user)
    size = len(json.dumps(approval.snapshot, ensure_ascii=False).encode())
elif spec["step"].startswith("backup"):
    call_command("export_all", "--output", spec["file"])
    size = len(open(spec["file"], "rb").read())
else:
    response = Client().get(spec["path"])
    assert response.status_code == 200, (spec["path"], response.status_code)
    size = len(response.content)
seconds = time.perf_counter() - started
print(json.dumps({"bytes": size, "seconds": seconds, "idle_mb": idle,
                  "peak_mb": resident("VmHWM:")}))
"""


def step(repo: Path, env: dict[str, str], spec: dict[str, Any], timeout: int) -> dict[str, Any]:
    try:
        done = subprocess.run(
            [sys.executable, "-c", STEP, json.dumps(spec)],
            cwd=repo, env=env, capture_output=True, text=True, timeout=timeout,
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        return {"error": f"stopped after {timeout} s"}
    if done.returncode != 0:
        return {"error": done.stderr.strip().splitlines()[-1]}
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def measure(repo: Path, work: Path, options: argparse.Namespace) -> dict[str, dict[str, Any]]:
    server = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
    slug = "bench-tie"
    document = work / "tie.json"
    document.write_text(json.dumps(tie_document(options.players, slug)))
    figures = {}
    with load.scratch_database(server) as database_url:
        env = load.django_env(database_url, STATIC_ROOT=str(work / "static"))
        env.update(ALLOWED_HOSTS="testserver", REDIS_URL="")
        prepare = [
            ["manage.py", "migrate", "-v0"],
            ["manage.py", "collectstatic", "--noinput", "-v0"],
            ["manage.py", "import_event", str(document)],
        ]
        for command in prepare:
            subprocess.run([sys.executable, *command], cwd=repo, env=env, check=True,
                           capture_output=True)  # fmt: skip
        env["DJANGO_SETTINGS_MODULE"] = "config.settings"
        for name in options.outputs.split(","):
            path = OUTPUTS[name].format(slug=slug)
            spec = {"step": name, "slug": slug, "path": path, "file": str(work / "backup.json")}
            figures[name] = step(repo, env, spec, options.timeout)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=5000)
    parser.add_argument("--outputs", default=DEFAULT_OUTPUTS, help=f"of: {', '.join(OUTPUTS)}")
    parser.add_argument("--repo", type=Path, default=load.REPO, help="the checkout to measure")
    parser.add_argument("--timeout", type=int, default=900, help="seconds a step may take")
    options = parser.parse_args()
    unknown = set(options.outputs.split(",")) - set(OUTPUTS)
    if unknown or not 2 <= options.players <= 5000:
        parser.error(f"2 to 5000 players; outputs among {', '.join(OUTPUTS)}")
    with tempfile.TemporaryDirectory(prefix="td-prize-bench-") as scratch:
        figures = measure(options.repo.resolve(), Path(scratch), options)
    print(f"{options.players:,}-way tie; {options.repo}; {load.machine()}; "
          f"load average {load.load_average()}; {time.strftime('%Y-%m-%d %H:%M')}\n")  # fmt: skip
    print("| output | bytes | seconds | idle MB | peak MB |\n|---|---:|---:|---:|---:|")
    for name, figure in figures.items():
        if "error" in figure:
            print(f"| {name} | {figure['error']} | | | |")
            continue
        print(
            f"| {name} | {figure['bytes']:,} | {figure['seconds']:.2f} | "
            f"{figure['idle_mb']:.0f} | {figure['peak_mb']:.0f} |"
        )


if __name__ == "__main__":
    main()
