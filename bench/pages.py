"""What each live page costs to compute (issue 24): CPU milliseconds per computation.

    .venv/bin/python bench/pages.py [--players 300] [--runs 15] [--profile "standings"]

The event of the load test (``bench/load.py``: a Swiss with rounds 1-4 played and round 5
paired) in a scratch PostgreSQL database (dropped at the end), production settings
(``DEBUG=0``, cached templates) and a per-process cache. The median CPU time
(``time.process_time``, which other processes on a shared machine disturb far less than wall
time) of: computing each public page through Django's test client, the kept renderings
dropped but the standings table kept; the standings after each new result of round 5, as a
refresh during a live round finds them; a page answered from the kept rendering (200 and
304); the director's result entry page and an htmx result save; a player's private page
(issue 21) polled after a result of round 5, the first player's and another's. ``--profile
PAGE`` (or ``"player page"``) prints cProfile's top functions for one computation of it.
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

sys.path.insert(0, str(Path(__file__).resolve().parent))
import load  # noqa: E402  (bench/load.py: the event, the scratch database, the settings)

PAGES = {
    "event page": ("/e/{slug}/", False),
    "event page, htmx poll": ("/e/{slug}/", True),
    "standings": ("/e/{slug}/standings/", False),
    "standings, htmx poll": ("/e/{slug}/standings/", True),
    "round 5 pairings": ("/e/{slug}/rounds/5/", False),
    "crosstable": ("/e/{slug}/crosstable/", False),
    "hall screen": ("/e/{slug}/hall/", False),
    "hall screen, htmx poll": ("/e/{slug}/hall/", True),
}

MEASURE = """
import cProfile, json, os, pstats, statistics, sys, time
import django
django.setup()
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client
from django.test.utils import setup_test_environment
from events.models import Game
setup_test_environment()
spec = json.loads(sys.stdin.read())
slug, runs = spec["slug"], spec["runs"]
HTMX = {"HTTP_HX_REQUEST": "true"}
spectator = Client()
director = Client()
director.force_login(get_user_model().objects.create_superuser("bench-pages", password=None))

def drop_pages():
    for key in [k for k in list(cache._cache) if "page" in k]:  # renderings, not standings
        cache.delete(key.split(":", 2)[2])

def cpu(request, before=lambda: None):
    times = []
    for _ in range(runs):
        before()
        started = time.process_time()
        response = request()
        times.append(time.process_time() - started)
        assert response.status_code in (200, 304), response.status_code
    return statistics.median(times) * 1000

figures = {}
for name, (path, htmx) in spec["pages"].items():
    address, headers = path.format(slug=slug), HTMX if htmx else {}
    spectator.get(address, **headers)  # the standings table is kept, as during a round
    figures[f"computing the {name}"] = cpu(lambda: spectator.get(address, **headers), drop_pages)
# During a live round every result is a new results version: what a page costs then.
played = iter(Game.objects.filter(round__event__slug=slug, round__number=5).order_by("-board"))
owner = get_user_model().objects.get(username="bench-pages")

def a_result_of_round_5():
    from events.services import game_result_record
    game = next(played)
    game_result_record(game_id=game.pk, result="0-1", expected_version=None, user=owner)
    drop_pages()
standings = f"/e/{slug}/standings/"
figures["computing the standings, htmx poll, after a result of round 5"] = cpu(
    lambda: spectator.get(standings, **HTMX), a_result_of_round_5)
etag = spectator.get(standings)["ETag"]
figures["standings from the kept rendering (200)"] = cpu(lambda: spectator.get(standings))
figures["standings unchanged (304)"] = cpu(
    lambda: spectator.get(standings, HTTP_IF_NONE_MATCH=etag))
figures["result entry page (director)"] = cpu(lambda: director.get(f"/e/{slug}/rounds/5/results/"))
games = iter(Game.objects.filter(round__event__slug=slug, round__number=5).order_by("board"))

def save():
    game = next(games)
    return director.post(f"/e/{slug}/games/{game.pk}/result/",
                         {"result": "1-0", "version": game.version}, **HTMX)
figures["result save, htmx (director)"] = cpu(save)
# Issue 21: a player's private page, polled after a result of round 5 (a new results version:
# the kept page of every player is stale), for a player whose own game has no result yet.
from playerpage.models import PlayerLink
from playerpage.services import player_links_issue
event_obj = Game.objects.filter(round__event__slug=slug).first().round.event
player_links_issue(event=event_obj, user=owner)
waiting = Game.objects.filter(round__event__slug=slug, round__number=5, result="").order_by("board")
token = PlayerLink.objects.get(player_id=waiting.first().white_id).token
phone = Client()
figures["player page poll, the first after a result of round 5"] = cpu(
    lambda: phone.get(f"/p/{token}/", **HTMX), a_result_of_round_5)
other = PlayerLink.objects.get(player_id=waiting.first().black_id).token
figures["player page poll, another player's after the same result"] = cpu(
    lambda: phone.get(f"/p/{other}/", **HTMX),
    lambda: (a_result_of_round_5(), phone.get(f"/p/{token}/", **HTMX)))
if spec["profile"] == "player page":
    a_result_of_round_5()
    profile = cProfile.Profile()
    profile.enable()
    phone.get(f"/p/{token}/", **HTMX)
    profile.disable()
    pstats.Stats(profile, stream=sys.stderr).sort_stats("cumulative").print_stats(40)
if spec["profile"] in spec["pages"]:
    path, htmx = spec["pages"][spec["profile"]]
    drop_pages()
    profile = cProfile.Profile()
    profile.enable()
    spectator.get(path.format(slug=slug), **(HTMX if htmx else {}))
    profile.disable()
    pstats.Stats(profile, stream=sys.stderr).sort_stats("cumulative").print_stats(40)
print(json.dumps(figures))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--runs", type=int, default=15, help="computations per page (median)")
    parser.add_argument(
        "--profile", default="", choices=["", *PAGES, "player page"], help="cProfile one page"
    )
    options = parser.parse_args()
    if not 2 <= options.players <= 1000 or not 1 <= options.runs <= 100:
        parser.error("2 to 1000 players, 1 to 100 runs")
    server = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
    with tempfile.TemporaryDirectory(prefix="td-pages-") as scratch:
        figures = measure(server, Path(scratch), options)
    print(f"{options.players} players, rounds 1-4 played, round 5 paired; {load.machine()}; "
          f"load average {load.load_average()}; {time.strftime('%Y-%m-%d %H:%M')}\n")  # fmt: skip
    print("| request | CPU ms (median) |\n|---|---:|")
    for name, milliseconds in figures.items():
        print(f"| {name} | {milliseconds:.1f} |")


def measure(server: str, work: Path, options: argparse.Namespace) -> dict[str, float]:
    """Set up the scratch database and measure in a process of its own: the figures."""
    with load.scratch_database(server) as database_url:
        env = load.django_env(database_url, STATIC_ROOT=str(work / "static"))
        env.update(ALLOWED_HOSTS="testserver", REDIS_URL="")
        bench = argparse.Namespace(
            players=options.players, rounds=9, played=4, directors=1, phones=0
        )
        plan = load.prepare(env, work, bench)
        spec = {"slug": plan["slug"], "runs": options.runs, "pages": PAGES}
        spec["profile"] = options.profile
        env["DJANGO_SETTINGS_MODULE"] = "config.settings"
        measured = subprocess.run(
            [sys.executable, "-c", MEASURE], cwd=load.REPO, check=True, capture_output=True,
            text=True, input=json.dumps(spec), env=env,
        )  # fmt: skip
    if options.profile:
        print(measured.stderr)
    figures: dict[str, float] = json.loads(measured.stdout.strip().splitlines()[-1])
    return figures


if __name__ == "__main__":
    main()
