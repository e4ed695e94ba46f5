"""GNOT bridge teams (seed 004) in the JSON exchange format: additive keys (design brief §4
"bridge IMPs, pools … extend this format in the same style"), documented in
docs/exchange-format.md and docs/exchange-format.schema.json.

Keys (all optional; exported for every ``gnot`` event): ``vp_scale``, ``vp_bands`` (the
event's own band table), ``whist_scale``
(3.2.4.1), ``dko_winner_swiss`` (3.1.8), ``teams``, ``team_matches``, ``choices``,
``swiss_entries``, ``swiss_byes``. Only what people entered is
exchanged; each match's status, winner and way of deciding are recomputed on import by the
engine (:func:`formats.gnot.services.match_decide`), so a document cannot disagree with the
rules. A section of :mod:`events.exchange` (registered by the app), loaded inside its
transaction: an error raises :class:`~events.exchange.Invalid` naming the key, and nothing is
written.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.db import IntegrityError

from events.errors import UserError
from events.exchange import ImportContext, Invalid, choice, one_line, section_register
from events.exchange import Section as ExchangeSection
from events.models import Event
from formats.gnot import services
from formats.gnot.bridge import EVENT_BANDS, VP_SCALES, BandRow, InvalidBandTable, event_band_scale
from formats.gnot.models import (
    SESSION_CODES,
    ChoiceKind,
    ChoiceRecord,
    GnotSetup,
    Half,
    MatchKind,
    Section,
    SwissBye,
    SwissEntry,
    Team,
    TeamMatch,
    TeamMatchSlot,
)

GNOT_KEYS = (
    "vp_scale",
    "vp_bands",
    "whist_scale",
    "dko_winner_swiss",
    "teams",
    "team_matches",
    "choices",
    "swiss_entries",
    "swiss_byes",
)
TEAM_KEYS = {"team_no", "name", "players", "seed", "section", "pool", "declined"}
MATCH_KEYS = {
    "session",
    "round",
    "stage",
    "table",
    "kind",
    "home",
    "away",
    "boards",
    "half",
    "final_spot",
    "home_imps",
    "away_imps",
    "board_nets",
    "playoffs",
}
CHOICE_KEYS = {"session", "seq", "kind", "chooser", "chosen", "by_director", "by_lot"}


def _obj(value: Any, where: str, keys: set[str]) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise Invalid(f"{where}: expected an object")
    unknown = set(value) - keys
    if unknown:
        raise Invalid(f"{where}.{sorted(unknown)[0]}: unknown key")
    return value


def _int(
    obj: Mapping[str, Any], key: str, where: str, *, minimum: int = 0, default: Any = ...
) -> Any:
    if key not in obj:
        if default is ...:
            raise Invalid(f"{where}.{key}: missing")
        return default
    value = obj[key]
    if value is None and default is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise Invalid(f"{where}.{key}: expected an integer of at least {minimum}")
    return value


def _str(obj: Mapping[str, Any], key: str, where: str, default: Any = ...) -> str:
    if key not in obj:
        if default is ...:
            raise Invalid(f"{where}.{key}: missing")
        return str(default)
    if not isinstance(obj[key], str):
        raise Invalid(f"{where}.{key}: expected a string")
    return str(obj[key])


def _bool(obj: Mapping[str, Any], key: str, where: str) -> bool:
    value = obj.get(key, False)
    if not isinstance(value, bool):
        raise Invalid(f"{where}.{key}: expected true or false")
    return value


def _nets(value: Any, where: str) -> list[int]:
    if not isinstance(value, list) or not all(
        isinstance(n, int) and not isinstance(n, bool) for n in value
    ):
        raise Invalid(f"{where}: expected a list of whole net scores")
    return list(value)


def _fraction_text(value: Any, where: str) -> str:
    try:
        return str(Fraction(str(value)))
    except (ValueError, ZeroDivisionError) as exc:
        raise Invalid(f'{where}: {value!r} is not an exact number such as "18" or "25/3"') from exc


def _team_of(teams: Mapping[int, Team], number: Any, where: str) -> Team:
    if isinstance(number, bool) or not isinstance(number, int) or number not in teams:
        raise Invalid(f"{where}: there is no team {number!r}")
    return teams[number]


# --- import ---------------------------------------------------------------------------------


def gnot_records_import(doc: Mapping[str, Any], event: Event) -> None:
    """Load the GNOT keys of ``doc`` into ``event`` (inside the caller's transaction)."""
    if not any(key in doc for key in GNOT_KEYS):
        return
    if event.system != "gnot":
        raise Invalid(f"teams: only a gnot event has teams, not a {event.system} event")
    codes = sorted([*VP_SCALES, EVENT_BANDS])
    scale = _str(doc, "vp_scale", "", default="wbf-25")
    choice(scale, codes, "vp_scale")
    whist = _obj(doc.get("whist_scale", {}), "whist_scale", {"scale", "boards"})
    whist_code = _str(whist, "scale", "whist_scale", default="")
    if whist_code:
        choice(whist_code, codes, "whist_scale.scale")
    bands = _bands_import(doc.get("vp_bands", {}))
    if EVENT_BANDS in (scale, whist_code) and not bands:
        raise Invalid("vp_bands: the event-bands scale needs the event's band table")
    GnotSetup.objects.create(
        event=event,
        vp_scale=scale,
        whist_vp_scale=whist_code,
        whist_scale_boards=_int(whist, "boards", "whist_scale", minimum=1, default=8),
        dko_winner_swiss=_bool(doc, "dko_winner_swiss", ""),
        vp_bands=bands,
    )
    teams = _teams_import(doc.get("teams", []), event)
    try:
        _matches_import(doc.get("team_matches", []), event, teams)
        _choices_import(doc.get("choices", []), event, teams)
        _swiss_import(doc, event, teams)
    except IntegrityError as exc:
        raise Invalid(
            f"team_matches: the rows break a rule of the event ({exc.__cause__})"
        ) from exc


def _teams_import(raw: Any, event: Event) -> dict[int, Team]:
    if not isinstance(raw, list):
        raise Invalid("teams: expected a list")
    teams: dict[int, Team] = {}
    seeds: set[int] = set()
    for i, item in enumerate(raw):
        where = f"teams[{i}]"
        obj = _obj(item, where, TEAM_KEYS)
        number = _int(obj, "team_no", where, minimum=1)
        if number in teams:
            raise Invalid(f"{where}.team_no: team {number} is listed twice")
        seed = _int(obj, "seed", where, minimum=1, default=None)
        if seed is not None and seed in seeds:
            raise Invalid(f"{where}.seed: seed {seed} is used twice")
        if seed is not None:
            seeds.add(seed)
        teams[number] = Team(
            event=event,
            team_no=number,
            name=one_line(_str(obj, "name", where), f"{where}.name"),
            players=one_line(_str(obj, "players", where, default=""), f"{where}.players"),
            seed=seed,
            section=choice(
                _str(obj, "section", where, default=""), Section.values, f"{where}.section"
            ),
            pool=_str(obj, "pool", where, default="")[:8],
            declined=_bool(obj, "declined", where),
        )
    Team.objects.bulk_create(teams.values())
    return {t.team_no: t for t in Team.objects.filter(event=event)}


def _playoffs(value: Any, where: str) -> list[dict[str, Any]]:
    if not isinstance(value, list):
        raise Invalid(f"{where}: expected a list")
    found = []
    for j, item in enumerate(value):
        spot = f"{where}[{j}]"
        obj = _obj(item, spot, {"home_imps", "away_imps", "boards"})
        found.append(
            {
                "home_imps": _int(obj, "home_imps", spot),
                "away_imps": _int(obj, "away_imps", spot),
                "boards": _nets(obj.get("boards", []), f"{spot}.boards"),
            }
        )
    return found


def _match_row(
    obj: Mapping[str, Any], where: str, event: Event, teams: Mapping[int, Team]
) -> TeamMatch:
    home_imps = _int(obj, "home_imps", where, default=None)
    away_imps = _int(obj, "away_imps", where, default=None)
    if (home_imps is None) != (away_imps is None):
        raise Invalid(f"{where}: give both teams' IMPs or neither")
    home = _team_of(teams, obj.get("home"), f"{where}.home")
    away = _team_of(teams, obj.get("away"), f"{where}.away")
    if home == away:
        raise Invalid(f"{where}: a team cannot play itself")
    return TeamMatch(
        event=event,
        session=choice(_str(obj, "session", where), SESSION_CODES, f"{where}.session"),
        round=_int(obj, "round", where, minimum=1, default=1),
        stage=_str(obj, "stage", where, default="")[:8],
        table=_int(obj, "table", where, minimum=1),
        kind=choice(_str(obj, "kind", where, default="match"), MatchKind.values, f"{where}.kind"),
        home=home,
        away=away,
        boards=_int(obj, "boards", where, minimum=1),
        half=choice(_str(obj, "half", where, default="full"), Half.values, f"{where}.half"),
        final_spot=_bool(obj, "final_spot", where),
        home_imps=home_imps,
        away_imps=away_imps,
        board_nets=_nets(obj.get("board_nets", []), f"{where}.board_nets"),
        playoffs=_playoffs(obj.get("playoffs", []), f"{where}.playoffs"),
    )


def _matches_import(raw: Any, event: Event, teams: Mapping[int, Team]) -> None:
    if not isinstance(raw, list):
        raise Invalid("team_matches: expected a list")
    for i, item in enumerate(raw):
        where = f"team_matches[{i}]"
        row = _match_row(_obj(item, where, MATCH_KEYS), where, event, teams)
        if row.board_nets and len(row.board_nets) != row.boards:
            raise Invalid(f"{where}.board_nets: expected {row.boards} board scores")
        try:
            services.match_decide(event=event, row=row)
        except UserError as exc:
            raise Invalid(f"{where}: {exc}") from exc
        row.save()
        for team in (row.home, row.away):
            TeamMatchSlot.objects.create(
                event=event, session=row.session, round=row.round, team=team, match=row
            )


def _choices_import(raw: Any, event: Event, teams: Mapping[int, Team]) -> None:
    if not isinstance(raw, list):
        raise Invalid("choices: expected a list")
    for i, item in enumerate(raw):
        where = f"choices[{i}]"
        obj = _obj(item, where, CHOICE_KEYS)
        kind = choice(
            _str(obj, "kind", where, default="choice"), ChoiceKind.values, f"{where}.kind"
        )
        chosen = obj.get("chosen")
        if (kind == ChoiceKind.FORFEIT) != (chosen is None):
            raise Invalid(f"{where}.chosen: a forfeit names no opponent; other steps do")
        ChoiceRecord.objects.create(
            event=event,
            session=choice(_str(obj, "session", where), SESSION_CODES, f"{where}.session"),
            seq=_int(obj, "seq", where, minimum=1),
            kind=kind,
            chooser=_team_of(teams, obj.get("chooser"), f"{where}.chooser"),
            chosen=None if chosen is None else _team_of(teams, chosen, f"{where}.chosen"),
            by_director=_bool(obj, "by_director", where),
            by_lot=_bool(obj, "by_lot", where),
        )


def _bands_import(value: Any) -> dict[str, list[list[Any]]]:
    """``vp_bands``: {"BOARDS": [[margin, "winner", "loser"], ...]}, checked like the form."""
    if not isinstance(value, dict):
        raise Invalid("vp_bands: expected an object")
    tables: dict[int, list[BandRow]] = {}
    for boards, rows in value.items():
        where = f"vp_bands.{boards}"
        if not str(boards).isdigit() or int(boards) < 1 or not isinstance(rows, list):
            raise Invalid(f"{where}: expected a board count with a list of bands")
        tables.setdefault(int(boards), []).extend(_band_rows(rows, where))
    if not tables:
        return {}
    try:
        event_band_scale(tables)
    except InvalidBandTable as exc:
        raise Invalid(f"vp_bands: {exc}") from exc
    return {
        str(b): [[m, str(w), str(lo)] for m, w, lo in rows] for b, rows in sorted(tables.items())
    }


def _band_rows(rows: list[Any], where: str) -> list[BandRow]:
    """One table's bands, each [margin, "winner", "loser"]: a whole margin, exact VPs."""
    table: list[BandRow] = []
    for i, row in enumerate(rows):
        if not (isinstance(row, list) and len(row) == 3 and _whole(row[0])):
            raise Invalid(f"{where}[{i}]: expected [margin, winner, loser]")
        table.append((row[0], _decimal(row[1], f"{where}[{i}]"), _decimal(row[2], f"{where}[{i}]")))
    return table


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _decimal(value: Any, where: str) -> Decimal:
    try:
        number = Decimal(str(value))
    except ArithmeticError:
        number = Decimal("NaN")
    if isinstance(value, bool) or not number.is_finite():
        raise Invalid(f'{where}: {value!r} is not a VP score such as "15" or "12.5"')
    return number


def _swiss_import(doc: Mapping[str, Any], event: Event, teams: Mapping[int, Team]) -> None:
    entries = doc.get("swiss_entries", [])
    if not isinstance(entries, list):
        raise Invalid("swiss_entries: expected a list")
    for i, item in enumerate(entries):
        where = f"swiss_entries[{i}]"
        obj = _obj(item, where, {"team", "round", "entry_score", "entry_rank", "non_contending"})
        SwissEntry.objects.create(
            event=event,
            team=_team_of(teams, obj.get("team"), f"{where}.team"),
            round=_int(obj, "round", where, minimum=1),
            entry_score=_fraction_text(obj.get("entry_score", "0"), f"{where}.entry_score"),
            entry_rank=_int(obj, "entry_rank", where, minimum=1, default=None),
            non_contending=_bool(obj, "non_contending", where),
        )
    byes = doc.get("swiss_byes", [])
    if not isinstance(byes, list):
        raise Invalid("swiss_byes: expected a list")
    for i, item in enumerate(byes):
        where = f"swiss_byes[{i}]"
        obj = _obj(item, where, {"team", "round", "vps"})
        SwissBye.objects.create(
            event=event,
            team=_team_of(teams, obj.get("team"), f"{where}.team"),
            round=_int(obj, "round", where, minimum=1),
            vps=_fraction_text(obj.get("vps"), f"{where}.vps"),
        )


# --- export ---------------------------------------------------------------------------------


def _team_record(team: Team) -> dict[str, Any]:
    record: dict[str, Any] = {"team_no": team.team_no, "name": team.name}
    if team.players:
        record["players"] = team.players
    if team.seed is not None:
        record.update(seed=team.seed, section=team.section, pool=team.pool)
    if team.declined:
        record["declined"] = True
    return record


def _match_record(row: TeamMatch) -> dict[str, Any]:
    record: dict[str, Any] = {
        "session": row.session,
        "round": row.round,
        "table": row.table,
        "home": row.home.team_no,
        "away": row.away.team_no,
        "boards": row.boards,
        "half": row.half,
        "home_imps": row.home_imps,
        "away_imps": row.away_imps,
    }
    if row.stage:
        record["stage"] = row.stage
    if row.kind != MatchKind.MATCH:
        record["kind"] = row.kind
    if row.final_spot:
        record["final_spot"] = True
    if row.board_nets:
        record["board_nets"] = row.board_nets
    if row.playoffs:
        record["playoffs"] = row.playoffs
    return record


def _choice_record(record: ChoiceRecord) -> dict[str, Any]:
    found: dict[str, Any] = {
        "session": record.session,
        "seq": record.seq,
        "kind": record.kind,
        "chooser": record.chooser.team_no,
    }
    if record.chosen is not None:
        found["chosen"] = record.chosen.team_no
    if record.by_director:
        found["by_director"] = True
    if record.by_lot:
        found["by_lot"] = True
    return found


def gnot_records_export(event: Event) -> dict[str, Any]:
    """The GNOT keys of an event's exchange document (empty for other systems)."""
    if event.system != "gnot":
        return {}
    setup = GnotSetup.objects.filter(event=event).first()
    matches = (
        TeamMatch.objects.filter(event=event)
        .select_related("home", "away")
        .order_by("session", "round", "table")
    )
    choices = (
        ChoiceRecord.objects.filter(event=event)
        .select_related("chooser", "chosen")
        .order_by("session", "seq")
    )
    return {
        "vp_scale": setup.vp_scale if setup else "wbf-25",
        **_setup_extras(setup),
        "teams": [_team_record(t) for t in Team.objects.filter(event=event).order_by("team_no")],
        "team_matches": [_match_record(m) for m in matches],
        "choices": [_choice_record(c) for c in choices],
        "swiss_entries": [
            {
                "team": e.team.team_no,
                "round": e.round,
                "entry_score": e.entry_score,
                **({"entry_rank": e.entry_rank} if e.entry_rank is not None else {}),
                **({"non_contending": True} if e.non_contending else {}),
            }
            for e in SwissEntry.objects.filter(event=event)
            .select_related("team")
            .order_by("round", "entry_rank", "team__team_no")
        ],
        "swiss_byes": [
            {"round": b.round, "team": b.team.team_no, "vps": b.vps}
            for b in SwissBye.objects.filter(event=event).select_related("team").order_by("round")
        ],
    }


def _setup_extras(setup: GnotSetup | None) -> dict[str, Any]:
    """Written only when they differ from the defaults, so older documents stay identical."""
    extras: dict[str, Any] = {}
    if setup is None:
        return extras
    if setup.vp_bands:
        extras["vp_bands"] = setup.vp_bands
    if setup.whist_vp_scale or setup.whist_scale_boards != 8:
        extras["whist_scale"] = {"scale": setup.whist_vp_scale, "boards": setup.whist_scale_boards}
    if setup.dko_winner_swiss:
        extras["dko_winner_swiss"] = True
    return extras


def gnot_records_load(doc: Mapping[str, Any], event: Event, context: ImportContext) -> None:
    gnot_records_import(doc, event)


def register() -> None:
    section_register(ExchangeSection("gnot", 50, gnot_records_export, gnot_records_load))
