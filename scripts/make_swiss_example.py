"""Writes examples/swiss-open.json: a 40-player, 7-round Swiss whose first four rounds were
paired by the product's own Dutch engine and played (results drawn from a seeded lot weighted
by rating), with a requested bye, a forbidden pair and a withdrawal on the way. The demo loads
it (``manage.py load_demo``); re-running this script gives the same file.

    .venv/bin/python scripts/make_swiss_example.py
"""

from __future__ import annotations

import json
import os
import random
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
FIRST = [
    "Ada",
    "Ben",
    "Chloe",
    "Dev",
    "Elif",
    "Farid",
    "Greta",
    "Hugo",
    "Ines",
    "Jonas",
    "Kaya",
    "Liam",
    "Mira",
    "Nils",
    "Olga",
    "Pavel",
    "Quinn",
    "Rosa",
    "Sami",
    "Tara",
]
LAST = [
    "Lindqvist",
    "Okafor",
    "Marchetti",
    "Novak",
    "Haddad",
    "Sato",
    "Brennan",
    "Kowalski",
    "Duarte",
    "Weiss",
    "Ivanova",
    "Mensah",
    "Castillo",
    "Berg",
    "Rahman",
    "Nguyen",
    "Fischer",
    "Alvarez",
    "Petrov",
    "Clarke",
]
FEDERATIONS = ["ENG", "SCO", "WLS", "IRL", "FRA", "GER", "NED", "ESP"]
TITLES = {1: "IM", 2: "FM", 4: "FM", 7: "CM"}


def _players() -> list[dict[str, object]]:
    rng = random.Random("swiss-open-players")
    names = rng.sample([f"{last}, {first}" for first in FIRST for last in LAST], 40)
    ratings = sorted((rng.randint(1450, 2420) for _ in range(40)), reverse=True)
    return [
        {
            "name": name,
            "rating": rating,
            "federation": rng.choice(FEDERATIONS),
            "title": TITLES.get(i, ""),
        }
        for i, (name, rating) in enumerate(zip(names, ratings, strict=True), start=1)
    ]


def _result(rng: random.Random, white: int, black: int) -> str:
    """Rating-weighted: the expected score of the Elo formula, a third of it drawn."""
    expected = 1 / (1 + 10 ** ((black - white) / 400))
    roll = rng.random()
    if roll < expected * 0.8:
        return "1-0"
    if roll > 1 - (1 - expected) * 0.8:
        return "0-1"
    return "1/2-1/2"


def main() -> None:
    database = Path(tempfile.mkdtemp()) / "example.sqlite3"
    os.environ.update(DEBUG="1", DATABASE_URL=f"sqlite:///{database}")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    sys.path.insert(0, str(REPO))
    import django

    django.setup()
    from django.core.management import call_command

    from draws.swiss import services as swiss_services
    from events.exchange import event_export_document
    from events.models import Game, Player
    from events.services import (
        EventFields,
        PlayerFields,
        event_create,
        game_result_record,
        players_register_many,
    )

    call_command("migrate", verbosity=0)
    event = event_create(
        fields=EventFields(
            name="Riverside Open",
            system="swiss",
            time_control="classical",
            rounds=7,
            preset="fide-2026",
            site="Riverside Chess Club",
            lots_seed="riverside-open-2026",
        ),
        director=None,
        slug="swiss-open",
    )
    import datetime as dt

    event.start_date = dt.date(2026, 11, 7)
    event.save()
    players_register_many(
        event=event,
        players=[PlayerFields(**p) for p in _players()],
        user=None,  # type: ignore[arg-type]
    )
    swiss_services.forbidden_pair_add(
        event=event, first=12, second=27, reason="siblings", user=None
    )
    swiss_services.bye_request_record(event=event, start_no=9, round_no=3, kind="half", user=None)
    rng = random.Random("swiss-open-results")
    ratings = dict(Player.objects.filter(event=event).values_list("start_no", "rating"))
    for number in range(1, 5):
        if number == 3:
            swiss_services.withdrawal_record(event=event, start_no=33, after_round=2, user=None)
        swiss_services.swiss_round_pair(event=event, round_no=number, user=None)
        swiss_services.swiss_round_publish(event=event, round_no=number, user=None)
        for game in Game.objects.filter(round__event=event, round__number=number).select_related(
            "white", "black"
        ):
            result = _result(rng, ratings[game.white.start_no], ratings[game.black.start_no])
            game_result_record(game_id=game.pk, result=result, expected_version=None, user=None)
    event.refresh_from_db()
    document = event_export_document(event)
    target = REPO / "examples" / "swiss-open.json"
    target.write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(target)


if __name__ == "__main__":
    main()
