"""The JSON exchange format, version 1 (design brief §4), import and export.

Import validates the whole document first, naming the key at fault (``players[3].start_no``),
then writes everything in one transaction: it loads completely or changes nothing.
Export → import → export gives the same document.

Extensions to the brief's keys (documented in ``docs/exchange-format.md`` and the JSON Schema):
``site``, and per player ``previous_rank`` and ``withdrawn_after_round``; for GNOT bridge events
``vp_scale``, ``teams``, ``team_matches``, ``choices``, ``swiss_entries``, ``swiss_byes``
(:mod:`standings.gnot_exchange`).
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from typing import Any

from django.db import transaction

from events.errors import ImportFailed, UserError
from events.models import (
    Bye,
    ByeKind,
    Event,
    EventSystem,
    Game,
    Player,
    Result,
    TimeControl,
)
from events.services import (
    ByeInput,
    EventFields,
    PairingInput,
    PlayerFields,
    UserLike,
    event_create,
    players_register_many,
    refuse_unstorable_values,
    round_pairings_set,
)
from playoffs.models import PlayoffGame
from prizes.models import PlacePrize
from standings.gnot_exchange import gnot_records_export, gnot_records_import

FORMAT = "tournament-event/1"
PLAYER_KEYS = (
    "start_no",
    "name",
    "federation",
    "rating",
    "fide_id",
    "title",
    "sex",
    "birth_date",
    "previous_rank",
    "withdrawn_after_round",
)


class Invalid(ImportFailed):
    pass


def _require(obj: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if key not in obj:
        raise Invalid(f"{where}{key}: missing")
    return _typed(obj[key], kind, f"{where}{key}")


def _typed(value: Any, kind: type | tuple[type, ...], where: str) -> Any:
    if isinstance(value, bool) or not isinstance(value, kind):
        names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        expected = {"int": "an integer", "str": "a string", "list": "a list"}.get(names, names)
        raise Invalid(f"{where}: expected {expected}, got {json.dumps(value)[:40]}")
    return value


def _date(value: Any, where: str) -> dt.date | None:
    if value in (None, ""):
        return None
    try:
        return dt.date.fromisoformat(_typed(value, str, where))
    except ValueError as exc:
        raise Invalid(f"{where}: {value!r} is not a date (YYYY-MM-DD)") from exc


def _choice(value: Any, allowed: list[str], where: str) -> str:
    if value not in allowed:
        raise Invalid(f"{where}: {value!r} is not one of {', '.join(allowed)}")
    return str(value)


def parse_document(text: str) -> dict[str, Any]:
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        raise Invalid(f"invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}") from exc
    if not isinstance(document, dict):
        raise Invalid("the document must be a JSON object")
    if document.get("format") != FORMAT:
        raise Invalid(f"format: expected {FORMAT!r}, got {document.get('format')!r}")
    return document


def _event_fields(doc: Mapping[str, Any]) -> EventFields:
    regulation = doc.get("regulation") or {"preset": "fide-2024"}
    _typed(regulation, dict, "regulation")
    preset = _require(regulation, "preset", str, "regulation.")
    return EventFields(
        name=_require(doc, "name", str, ""),
        system=_choice(_require(doc, "system", str, ""), EventSystem.values, "system"),
        time_control=_choice(
            _require(doc, "time_control", str, ""), TimeControl.values, "time_control"
        ),
        rounds=_positive(_require(doc, "rounds", int, ""), "rounds"),
        start_date=_date(doc.get("start_date"), "start_date"),
        preset=preset,
        overrides={k: v for k, v in regulation.items() if k != "preset"},
        currency=_typed(doc.get("currency", "USD"), str, "currency")[:3],
        site=_typed(doc.get("site", ""), str, "site"),
        lots_seed=_typed(doc.get("lots_seed", ""), str, "lots_seed"),
    )


def _positive(value: int, where: str) -> int:
    if value < 1:
        raise Invalid(f"{where}: must be at least 1, got {value}")
    return value


def _player(raw: Any, where: str) -> tuple[PlayerFields, int | None]:
    _typed(raw, dict, where)
    unknown = set(raw) - set(PLAYER_KEYS)
    if unknown:
        raise Invalid(f"{where}.{sorted(unknown)[0]}: unknown key")
    sex = raw.get("sex", "") or ""
    _choice(sex, ["", "m", "w"], f"{where}.sex")
    previous = raw.get("previous_rank")
    withdrawn = raw.get("withdrawn_after_round")
    fields = PlayerFields(
        start_no=_positive(_require(raw, "start_no", int, f"{where}."), f"{where}.start_no"),
        name=_require(raw, "name", str, f"{where}."),
        federation=_typed(raw.get("federation", ""), str, f"{where}.federation"),
        rating=_typed(raw.get("rating", 0) or 0, int, f"{where}.rating"),
        fide_id=str(_typed(raw.get("fide_id", "") or "", (str, int), f"{where}.fide_id")),
        title=_typed(raw.get("title", "") or "", str, f"{where}.title"),
        sex=sex,
        birth_date=_date(raw.get("birth_date"), f"{where}.birth_date"),
        previous_rank=None if previous is None else _typed(previous, int, f"{where}.previous_rank"),
    )
    if withdrawn is not None:
        _typed(withdrawn, int, f"{where}.withdrawn_after_round")
    return fields, withdrawn


def _rounds_from(
    doc: Mapping[str, Any], rounds: int
) -> dict[int, tuple[list[PairingInput], list[ByeInput]]]:
    by_round: dict[int, tuple[list[PairingInput], list[ByeInput]]] = {}
    for i, raw in enumerate(_typed(doc.get("games", []), list, "games")):
        where = f"games[{i}]"
        _typed(raw, dict, where)
        number = _round_number(_require(raw, "round", int, f"{where}."), rounds, where)
        result = raw.get("result") or ""
        _choice(result, ["", *Result.values], f"{where}.result")
        time_control = raw.get("time_control") or ""
        _choice(time_control, ["", "classical", "rapid", "blitz"], f"{where}.time_control")
        games, _ = by_round.setdefault(number, ([], []))
        board = raw.get("board", len(games) + 1)
        games.append(
            PairingInput(
                board=_positive(_typed(board, int, f"{where}.board"), f"{where}.board"),
                white=_require(raw, "white", int, f"{where}."),
                black=_require(raw, "black", int, f"{where}."),
                result=result,
                time_control=time_control,
            )
        )
    for i, raw in enumerate(_typed(doc.get("byes", []), list, "byes")):
        where = f"byes[{i}]"
        _typed(raw, dict, where)
        number = _round_number(_require(raw, "round", int, f"{where}."), rounds, where)
        kind = _choice(_require(raw, "kind", str, f"{where}."), ByeKind.values, f"{where}.kind")
        by_round.setdefault(number, ([], []))[1].append(
            ByeInput(start_no=_require(raw, "start_no", int, f"{where}."), kind=kind)
        )
    return by_round


def _round_number(number: int, rounds: int, where: str) -> int:
    if not 1 <= number <= rounds:
        raise Invalid(f"{where}.round: {number} is outside 1–{rounds}")
    return number


def _prizes(doc: Mapping[str, Any]) -> list[tuple[int, Decimal]]:
    prizes = []
    seen: set[int] = set()
    for i, raw in enumerate(_typed(doc.get("prizes", []), list, "prizes")):
        where = f"prizes[{i}]"
        _typed(raw, dict, where)
        place = _positive(_require(raw, "place", int, f"{where}."), f"{where}.place")
        if place in seen:
            raise Invalid(f"{where}.place: place {place} is listed twice")
        seen.add(place)
        try:
            amount = Decimal(str(_require(raw, "amount", (str, int), f"{where}.")))
        except InvalidOperation as exc:
            raise Invalid(f"{where}.amount: {raw['amount']!r} is not an amount") from exc
        if amount < 0 or not amount.is_finite():
            raise Invalid(f"{where}.amount: must be a non-negative amount")
        prizes.append((place, amount))
    return prizes


def _playoff_games(doc: Mapping[str, Any], start_nos: set[int]) -> list[PlayoffGame]:
    games = []
    for i, raw in enumerate(_typed(doc.get("playoff_games", []), list, "playoff_games")):
        where = f"playoff_games[{i}]"
        _typed(raw, dict, where)
        white = _require(raw, "white", int, f"{where}.")
        black = _require(raw, "black", int, f"{where}.")
        for key, value in (("white", white), ("black", black)):
            if value not in start_nos:
                raise Invalid(f"{where}.{key}: there is no player with start number {value}")
        if white == black:
            raise Invalid(f"{where}: a player cannot play themself")
        games.append(
            PlayoffGame(
                stage=_positive(_require(raw, "stage", int, f"{where}."), f"{where}.stage"),
                round=_positive(
                    _typed(raw.get("round", 1), int, f"{where}.round"), f"{where}.round"
                ),
                white=white,
                black=black,
                result=_choice(
                    raw.get("result") or "", ["", "1-0", "0-1", "1/2-1/2"], f"{where}.result"
                ),
            )
        )
    return games


@transaction.atomic
@refuse_unstorable_values(Invalid)
def event_import_document(*, text: str, user: UserLike, slug: str = "") -> Event:
    """Create an event from the JSON exchange format. All or nothing."""
    doc = parse_document(text)
    fields = _event_fields(doc)
    players_raw = _typed(doc.get("players", []), list, "players")
    players = [_player(raw, f"players[{i}]") for i, raw in enumerate(players_raw)]
    start_nos = [p.start_no for p, _ in players]
    duplicates = {n for n in start_nos if start_nos.count(n) > 1}
    if duplicates:
        raise Invalid(f"players: start number {min(duplicates)} is used twice")
    rounds = _rounds_from(doc, fields.rounds)
    prizes = _prizes(doc)
    playoff_games = _playoff_games(doc, {n for n in start_nos if n is not None})
    try:
        event = event_create(fields=fields, director=user, slug=slug or doc.get("slug", ""))
        players_register_many(event=event, players=[p for p, _ in players], user=user)
        for number in sorted(rounds):
            games, byes = rounds[number]
            round_pairings_set(
                event=event, round_no=number, pairings=games, byes=byes, user=user, audit=False
            )
    except ImportFailed:
        raise
    except UserError as exc:
        raise Invalid(str(exc)) from exc
    _format_records_import(doc, event, {n for n in start_nos if n is not None})
    for fields_, withdrawn in players:
        if withdrawn is not None:
            Player.objects.filter(event=event, start_no=fields_.start_no).update(
                withdrawn_after_round=withdrawn
            )
    PlacePrize.objects.bulk_create(
        PlacePrize(event=event, place=place, amount=amount) for place, amount in prizes
    )
    for game in playoff_games:
        game.event = event
    PlayoffGame.objects.bulk_create(playoff_games)
    _playoff_records_import(doc, event, {n for n in start_nos if n is not None}, user)
    gnot_records_import(doc, event)
    return event


def _format_records_import(doc: Mapping[str, Any], event: Event, start_nos: set[int]) -> None:
    """Cohen Chess ``stages`` and MSO ``multi_games`` (standings.exchange_records)."""
    from standings.exchange_records import multi_games_import, stages_import

    multi_games_import(doc, event)
    stages_import(doc, event, start_nos)


def _playoff_records_import(
    doc: Mapping[str, Any], event: Event, start_nos: set[int], user: UserLike
) -> None:
    """Coin tosses, the chief arbiter's decision and the director's confirmation; then the
    whole playoff is re-planned, so rows that do not fit its schedule refuse the import."""
    from playoffs import rules
    from playoffs.models import ArbiterDecision, CoinToss
    from playoffs.selectors import event_playoff

    tosses = _typed(doc.get("playoff_coin_tosses", []), list, "playoff_coin_tosses")
    for i, raw in enumerate(tosses):
        where = f"playoff_coin_tosses[{i}]"
        _typed(raw, dict, where)
        winner = _require(raw, "toss_winner", int, f"{where}.")
        if winner not in start_nos:
            raise Invalid(f"{where}.toss_winner: there is no player with start number {winner}")
        CoinToss.objects.create(
            event=event,
            stage=_positive(_require(raw, "stage", int, f"{where}."), f"{where}.stage"),
            game=_positive(_require(raw, "game", int, f"{where}."), f"{where}.game"),
            toss_winner=winner,
            choice=_choice(
                _require(raw, "choice", str, f"{where}."), ["white", "black"], f"{where}.choice"
            ),
        )
    decision = doc.get("playoff_decision")
    if decision is not None:
        _typed(decision, dict, "playoff_decision")
        order = _require(decision, "order", list, "playoff_decision.")
        reason = _require(decision, "reason", str, "playoff_decision.")
        if not reason.strip():
            raise Invalid("playoff_decision.reason: the chief arbiter's means must be recorded")
        ArbiterDecision.objects.create(event=event, order=order, reason=reason)
    _playoff_confirmation_import(doc.get("playoff_confirmation"), event)
    try:
        event_playoff(event)
    except rules.PlayoffInputError as exc:
        # A playoff confirmed for a tie that later results changed is exported as it stands
        # (the playoff pages flag it and ask the director to confirm again or reset); such a
        # document must re-import, or a backup could not be restored. Anything else is refused.
        if not _confirmed_for_another_tie(event):
            raise Invalid(f"playoff_games: {exc}") from exc


def _confirmed_for_another_tie(event: Event) -> bool:
    from playoffs.models import PlayoffState
    from playoffs.selectors import tied_for_first

    state = PlayoffState.objects.filter(event=event).first()
    return state is not None and set(state.tied) != set(tied_for_first(event))


def _playoff_confirmation_import(raw: Any, event: Event) -> None:
    """The director's confirmation as it was recorded (the tie then, and the start)."""
    from playoffs.models import PlayoffState
    from playoffs.selectors import playoff_rule

    if raw is None:
        return
    where = "playoff_confirmation"
    _typed(raw, dict, where)
    tied = _require(raw, "tied", list, f"{where}.")
    if not all(isinstance(n, int) and not isinstance(n, bool) for n in tied):
        raise Invalid(f"{where}.tied: expected start numbers")
    not_before = raw.get("not_before")
    try:
        moment = dt.datetime.fromisoformat(not_before) if not_before else None
    except (TypeError, ValueError) as exc:
        raise Invalid(f"{where}.not_before: {not_before!r} is not a date and time") from exc
    start_day = _date(_require(raw, "start_day", str, f"{where}."), f"{where}.start_day")
    rule = playoff_rule(event)
    if rule is None:
        raise Invalid(f"{where}: the regulation {event.regulation.preset} has no playoff")
    PlayoffState.objects.create(
        event=event,
        rule=rule,
        tied=tied,
        start_day=start_day,
        not_before=moment,
        start_clause=_typed(raw.get("start_clause", ""), str, f"{where}.start_clause"),
        confirmed_at=dt.datetime.now(dt.UTC),
    )


def _decimal_text(amount: Decimal) -> str:
    text = format(amount.normalize(), "f")
    return text


def event_export_document(event: Event) -> dict[str, Any]:
    """The event as a JSON exchange document (a dict; ``json.dumps`` it)."""
    regulation = {"preset": event.regulation.preset, **event.regulation.overrides}
    players = []
    for p in Player.objects.filter(event=event).order_by("start_no"):
        record: dict[str, Any] = {
            "start_no": p.start_no,
            "name": p.name,
            "federation": p.federation,
            "rating": p.rating,
            "fide_id": p.fide_id,
            "title": p.title,
            "sex": p.sex,
            "birth_date": p.birth_date.isoformat() if p.birth_date else None,
        }
        if p.previous_rank is not None:
            record["previous_rank"] = p.previous_rank
        if p.withdrawn_after_round is not None:
            record["withdrawn_after_round"] = p.withdrawn_after_round
        players.append(record)
    games = []
    for g in (
        Game.objects.filter(round__event=event)
        .select_related("round", "white", "black")
        .order_by("round__number", "board")
    ):
        game: dict[str, Any] = {
            "round": g.round.number,
            "board": g.board,
            "white": g.white.start_no,
            "black": g.black.start_no,
            "result": g.result or None,
        }
        if g.time_control:
            game["time_control"] = g.time_control
        games.append(game)
    byes = [
        {"round": b.round.number, "start_no": b.player.start_no, "kind": b.kind}
        for b in Bye.objects.filter(round__event=event)
        .select_related("round", "player")
        .order_by("round__number", "player__start_no")
    ]
    document: dict[str, Any] = {
        "format": FORMAT,
        "name": event.name,
        "slug": event.slug,
        "start_date": event.start_date.isoformat() if event.start_date else None,
        "system": event.system,
        "time_control": event.time_control,
        "rounds": event.rounds,
        "regulation": regulation,
        "currency": event.currency,
        "lots_seed": event.lots_seed,
        "players": players,
        "games": games,
        "byes": byes,
        "prizes": [
            {"place": p.place, "amount": _decimal_text(p.amount)}
            for p in PlacePrize.objects.filter(event=event).order_by("place")
        ],
        "playoff_games": [
            {
                "stage": g.stage,
                "round": g.round,
                "white": g.white,
                "black": g.black,
                "result": g.result or None,
            }
            for g in PlayoffGame.objects.filter(event=event).order_by("stage", "round", "id")
        ],
    }
    if event.site:
        document["site"] = event.site
    document.update(_format_records_export(event))
    document.update(_playoff_records_export(event))
    document.update(gnot_records_export(event))
    return document


def _format_records_export(event: Event) -> dict[str, Any]:
    """``stages`` and ``multi_games`` where the event has them (additive keys)."""
    from standings.exchange_records import multi_games_export, stages_export

    records: dict[str, Any] = {}
    stages = stages_export(event)
    if stages:
        records["stages"] = stages
    tables = multi_games_export(event)
    if tables:
        records["multi_games"] = tables
    return records


def _playoff_records_export(event: Event) -> dict[str, Any]:
    from playoffs.models import ArbiterDecision, CoinToss, PlayoffState

    records: dict[str, Any] = {}
    tosses = [
        {"stage": t.stage, "game": t.game, "toss_winner": t.toss_winner, "choice": t.choice}
        for t in CoinToss.objects.filter(event=event).order_by("stage", "game")
    ]
    if tosses:
        records["playoff_coin_tosses"] = tosses
    decision = ArbiterDecision.objects.filter(event=event).first()
    if decision is not None:
        records["playoff_decision"] = {"order": decision.order, "reason": decision.reason}
    state = PlayoffState.objects.filter(event=event).first()
    if state is not None:
        records["playoff_confirmation"] = {
            "tied": state.tied,
            "start_day": state.start_day.isoformat(),
            "not_before": state.not_before.isoformat() if state.not_before else None,
            "start_clause": state.start_clause,
        }
    return records
