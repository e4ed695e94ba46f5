"""``manage.py standings`` without starting Django: the command's direct path.

Issue 3 asks the ``standings`` command to run at least 30× faster than FIDE's calculator at
2000 players × 11 rounds. Of the Django command's 2,770 M instructions, building the
crosstable, ranking and writing the JSON took 1,250 M; the rest was starting Django, its apps
and their models, and reading through the ORM (docs/performance.md, "Standings"). So
``manage.py`` offers the command line to :func:`main` first. This path:

- reads the settings module Django would read (``DJANGO_SETTINGS_MODULE``, house style 9: one
  settings module) for its database, and connects with psycopg as Django's PostgreSQL backend
  would (:func:`connection_params`), in one read-only, repeatable-read transaction;
- reads the same rows as the ORM selectors (:class:`SqlRows`: five narrow queries);
- checks the options, builds the crosstable and ranks through :mod:`standings.compute`, which
  the ORM path uses too, and writes with :mod:`standings.output`.

It covers the command's ordinary success path only. Anything else it *declines*, having
printed nothing, and ``manage.py`` runs the Django command, which prints the result or the
canonical one-line refusal: an option this parser does not know (``--help``, ``--settings``,
``-v``, an abbreviation), an unknown event, a refusal of the options (round out of range,
unknown code), an event that is not ranked by the plain engine (Cohen Chess, multi-player
games), a database other than PostgreSQL or one configured beyond plain connection settings,
and any database error. A test holds its output equal to ``call_command``'s for generated
events of every kind it accepts, in every format.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
from collections.abc import Mapping, Sequence
from typing import Any, NoReturn

import psycopg

from events.crosstable import PlayerRow, RoundProgress, build_crosstable, last_complete
from events.errors import UserError
from events.records import Crosstable
from events.regulations import PRESETS, effective
from standings.compute import EventFacts, compute_standings, resolve
from standings.output import json_text, to_csv, to_text

ENGINE = "django.db.backends.postgresql"
# Events ranked by the plain engine (standings.selectors.event_standings): these systems, under a
# core preset (standings.presets) that has no standings of its own. A format's preset is
# registered only when Django starts its app, so here it is unknown and declined.
PLAIN_SYSTEMS = frozenset({"swiss", "round_robin", "double_round_robin", "knockout"})
# libpq connection settings that mean the same to psycopg as to Django's backend; any other
# key in OPTIONS (a pool, a role, server-side binding, a service) declines.
PLAIN_OPTIONS = frozenset(
    {
        "sslmode",
        "sslrootcert",
        "sslcert",
        "sslkey",
        "sslpassword",
        "connect_timeout",
        "application_name",
        "options",
        "target_session_attrs",
        "passfile",
        "keepalives",
        "keepalives_idle",
        "keepalives_interval",
        "keepalives_count",
    }
)
ROUND_ROBIN_SYSTEMS = frozenset({"round_robin", "double_round_robin"})


class Decline(Exception):
    """The direct path does not take this command line; Django's command will."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise Decline(message)


def parse(argv: Sequence[str]) -> argparse.Namespace:
    """The command's own options (design brief §4), exactly as the Django command reads them,
    but no abbreviations and none of Django's general options: those decline."""
    parser = _Parser(prog="standings", add_help=False, allow_abbrev=False, exit_on_error=False)
    parser.add_argument("slug")
    parser.add_argument("--tiebreaks", default="")
    parser.add_argument("--edition", choices=["2024", "2026"])
    parser.add_argument("--after-round", type=int, dest="after_round")
    parser.add_argument("--format", choices=["json", "csv", "text"], default="text")
    try:
        return parser.parse_args(list(argv))
    except argparse.ArgumentError as exc:
        raise Decline(str(exc)) from exc


def connection_params(database: Mapping[str, Any]) -> dict[str, Any]:
    """psycopg's connection keywords for ``DATABASES["default"]``, as Django's PostgreSQL
    backend builds them (``DatabaseWrapper.get_connection_params``, Django 5.2), for a plain
    configuration; anything else declines."""
    if database.get("ENGINE") != ENGINE:
        raise Decline("not PostgreSQL")
    name = database.get("NAME")
    options = dict(database.get("OPTIONS") or {})
    if not name or not isinstance(name, str) or not set(options) <= PLAIN_OPTIONS:
        raise Decline("a database configuration beyond plain connection settings")
    params: dict[str, Any] = {"dbname": name, **options, "client_encoding": "UTF8"}
    for key, param in (("USER", "user"), ("PASSWORD", "password"), ("HOST", "host")):
        if database.get(key):
            params[param] = database[key]
    if database.get("PORT"):
        params["port"] = database["PORT"]
    return params


class SqlRows:
    """The rows :class:`standings.selectors.EventRows` reads through the ORM, read with plain
    SQL on the tables the ``events`` models define (:class:`standings.compute.StandingsSource`).
    """

    def __init__(self, connection: psycopg.Connection[Any], event_id: int, facts: EventFacts):
        self.connection = connection
        self.event_id = event_id
        self.facts = facts
        self._players: list[PlayerRow] | None = None
        self._previous: dict[int, int] = {}

    def _fetch(self, sql: str, *params: object) -> list[Any]:
        return self.connection.execute(sql, params).fetchall()

    def last_complete_round(self) -> int:
        rows = self._fetch(
            "SELECT r.number,"
            " (SELECT count(*) FROM events_game g WHERE g.round_id = r.id),"
            " (SELECT count(*) FROM events_game g WHERE g.round_id = r.id AND g.result <> ''),"
            " (SELECT count(*) FROM events_bye b WHERE b.round_id = r.id)"
            " FROM events_round r WHERE r.event_id = %s ORDER BY r.number",
            self.event_id,
        )
        return last_complete(RoundProgress(*row) for row in rows)

    def players(self) -> list[PlayerRow]:
        if self._players is None:
            rows = self._fetch(
                "SELECT id, start_no, name, rating, federation, fide_id, title, sex, birth_date,"
                " previous_rank FROM events_player WHERE event_id = %s ORDER BY start_no",
                self.event_id,
            )
            self._players = [row[:9] for row in rows]
            self._previous = {row[1]: row[9] for row in rows if row[9] is not None}
        return self._players

    def crosstable(self, rounds: int) -> Crosstable:
        games = self._fetch(
            "SELECT r.number, g.white_id, g.black_id, g.result, g.time_control"
            " FROM events_game g JOIN events_round r ON r.id = g.round_id"
            " WHERE r.event_id = %s AND r.number <= %s ORDER BY r.number, g.board",
            self.event_id,
            rounds,
        )
        byes = self._fetch(
            "SELECT r.number, p.start_no, b.kind FROM events_bye b"
            " JOIN events_round r ON r.id = b.round_id JOIN events_player p ON p.id = b.player_id"
            " WHERE r.event_id = %s AND r.number <= %s",
            self.event_id,
            rounds,
        )
        facts = self.facts
        return build_crosstable(
            name=facts.name,
            rounds=rounds,
            start_date=facts.start_date,
            round_robin=facts.round_robin,
            scoring=facts.regulation.scoring,
            players=self.players(),
            games=games,
            byes=byes,
        )

    def previous_ranks(self) -> dict[int, int]:
        self.players()
        return dict(self._previous)


def render(argv: Sequence[str], connection: psycopg.Connection[Any]) -> str:
    """What the command prints for ``argv``, read on ``connection``; :class:`Decline` where
    the Django command must answer instead."""
    options = parse(argv)
    row = connection.execute(
        "SELECT e.id, e.slug, e.name, e.rounds, e.system, e.start_date, s.preset,"
        " s.overrides::text FROM events_event e JOIN events_regulationset s ON s.event_id = e.id"
        " WHERE e.slug = %s",
        (options.slug,),
    ).fetchone()
    if row is None:
        raise Decline("no such event")
    event_id, slug, name, rounds, system, start_date, preset, overrides = row
    if system not in PLAIN_SYSTEMS or preset not in PRESETS or PRESETS[preset].own_standings:
        raise Decline("standings of their own")
    round_robin = system in ROUND_ROBIN_SYSTEMS
    facts = EventFacts(
        slug=slug,
        name=name,
        rounds=rounds,
        round_robin=round_robin,
        start_date=start_date,
        regulation=effective(preset, json.loads(overrides), round_robin=round_robin),
    )
    source = SqlRows(connection, event_id, facts)
    codes = [c.strip() for c in options.tiebreaks.split(",") if c.strip()]
    try:
        request = resolve(
            facts, source, after_round=options.after_round, codes=codes, edition=options.edition
        )
        table = compute_standings(facts, source, request)
    except UserError as exc:
        raise Decline(str(exc)) from exc
    if options.format == "json":
        text = json_text(table)
        return text if text.endswith("\n") else text + "\n"
    if options.format == "csv":
        return to_csv(table)
    return to_text(table)


def main(argv: Sequence[str]) -> bool:
    """Print the standings for ``manage.py standings ARGV`` and return True, or return False,
    having printed nothing, for ``manage.py`` to run the Django command."""
    try:
        parse(argv)
        settings = importlib.import_module(
            os.environ.get("DJANGO_SETTINGS_MODULE", "config.settings")
        )
        params = connection_params(settings.DATABASES["default"])
        with psycopg.connect(**params) as connection:
            connection.read_only = True
            connection.isolation_level = psycopg.IsolationLevel.REPEATABLE_READ
            text = render(argv, connection)
    except Exception:
        # Declined, a database error, or a settings module that fails to load: the Django
        # command is the reference, and it answers or says why in its own words.
        return False
    sys.stdout.write(text)
    sys.stdout.flush()
    return True
