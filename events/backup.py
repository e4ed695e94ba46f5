"""Every event with its people and its audit history, as one JSON document (issue 9).

``manage.py export_all`` / ``import_all``. Each event travels as its JSON exchange document
(``tournament-event/1``, unchanged) next to two things that format leaves out on purpose:
who has which role in it (``access``) and its audit history (``audit``). The exchange format
stays a portable description of a tournament; this is a backup of the application's data.

Accounts travel by username (with e-mail and the staff/superuser flags) but without their
passwords: an account that does not exist where the backup is restored is created without a
usable password (set one with ``manage.py changepassword``). ``pg_dump`` remains the backup of
record (docs/operations.md); this one survives a change of database or of schema.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

from events.errors import ImportFailed, UserError
from events.exchange import event_export_document, event_import_document
from events.formats import format_of
from events.limits import MAX_BACKUP_BYTES, MAX_BACKUP_JSON_ITEMS, json_parse
from events.models import AuditEntry, Event, EventAccess, Game
from events.services import UserLike, audit_record

FORMAT = "tournament-backup/1"


def _username(user: Any) -> str | None:
    return user.get_username() if user is not None else None


def _audit_export(event: Event) -> list[dict[str, Any]]:
    """Oldest first; ``undone_by`` is the index of the undoing entry in this list."""
    entries = list(
        AuditEntry.objects.filter(event=event).select_related("user", "game__round").order_by("id")
    )
    index = {entry.pk: i for i, entry in enumerate(entries)}
    fmt = format_of(event)
    extras = fmt.audit_export(event) if fmt is not None and fmt.audit_export else {}
    return [
        {
            "at": entry.at.isoformat(),
            "user": _username(entry.user),
            "action": entry.action,
            "summary": entry.summary,
            "before": entry.before,
            "after": entry.after,
            "game": (
                {"round": entry.game.round.number, "board": entry.game.board}
                if entry.game is not None
                else None
            ),
            **extras.get(entry.pk, {}),
            "undone_by": index.get(entry.undone_by_id) if entry.undone_by_id else None,
        }
        for entry in entries
    ]


def _accounts(events: list[Event]) -> list[dict[str, Any]]:
    users = get_user_model().objects.filter(eventaccess__event__in=events).distinct()
    authors = get_user_model().objects.filter(auditentry__event__in=events).distinct()
    return [
        {
            "username": user.get_username(),
            "email": user.email,
            "is_staff": user.is_staff,
            "is_superuser": user.is_superuser,
        }
        for user in (users | authors).distinct().order_by("username")
    ]


def backup_export() -> dict[str, Any]:
    events = list(Event.objects.order_by("id"))
    return {
        "format": FORMAT,
        "exported_at": dt.datetime.now(dt.UTC).isoformat(),
        "accounts": _accounts(events),
        "events": [
            {
                "event": event_export_document(event),
                "access": [
                    {"user": access.user.get_username(), "role": access.role}
                    for access in EventAccess.objects.filter(event=event)
                    .select_related("user")
                    .order_by("user__username")
                ],
                "audit": _audit_export(event),
            }
            for event in events
        ],
    }


def _accounts_import(accounts: list[dict[str, Any]]) -> dict[str, Any]:
    model = get_user_model()
    users = {}
    for account in accounts:
        user = model.objects.filter(username=account["username"]).first()
        if user is None:
            user = model(
                username=account["username"],
                email=account.get("email", ""),
                is_staff=bool(account.get("is_staff")),
                is_superuser=bool(account.get("is_superuser")),
            )
            user.set_unusable_password()
            user.save()
        users[account["username"]] = user
    return users


def _audit_import(event: Event, entries: list[dict[str, Any]], users: dict[str, Any]) -> None:
    """Replaces the entries the import itself wrote with the history as it was."""
    AuditEntry.objects.filter(event=event).delete()
    games = {
        (game.round.number, game.board): game
        for game in Game.objects.filter(round__event=event).select_related("round")
    }
    created = []
    for i, raw in enumerate(entries):
        where = raw.get("game")
        game = games.get((where["round"], where["board"])) if where else None
        if where and game is None:
            raise ImportFailed(f"audit[{i}].game: round {where['round']} board {where['board']}")
        entry = AuditEntry.objects.create(
            event=event,
            user=users.get(raw.get("user") or ""),
            action=raw["action"],
            summary=raw["summary"],
            game=game,
            before=raw.get("before"),
            after=raw.get("after"),
        )
        # ``at`` is auto_now_add: set it afterwards, as it was.
        AuditEntry.objects.filter(pk=entry.pk).update(at=dt.datetime.fromisoformat(raw["at"]))
        created.append(entry)
    fmt = format_of(event)
    if fmt is not None and fmt.audit_import is not None:
        fmt.audit_import(
            event, [(i, e, raw) for i, (e, raw) in enumerate(zip(created, entries, strict=True))]
        )
    for entry, raw in zip(created, entries, strict=True):
        if raw.get("undone_by") is not None:
            AuditEntry.objects.filter(pk=entry.pk).update(undone_by=created[raw["undone_by"]])


def _event_import(record: dict[str, Any], users: dict[str, Any], user: UserLike) -> Event:
    access = record.get("access", [])
    directors = [users[a["user"]] for a in access if a["role"] == "director"]
    event = event_import_document(
        text=json.dumps(record["event"]), user=directors[0] if directors else None
    )
    EventAccess.objects.filter(event=event).delete()
    EventAccess.objects.bulk_create(
        EventAccess(event=event, user=users[a["user"]], role=a["role"]) for a in access
    )
    _audit_import(event, record.get("audit", []), users)
    audit_record(event=event, user=user, action="event.restore", summary="Restored from a backup")
    return event


@transaction.atomic
def backup_import(*, text: str, user: UserLike = None) -> list[Event]:
    """Restores every event of a backup; all or nothing (an existing slug refuses it all)."""
    try:
        document = json_parse(
            text, limit=MAX_BACKUP_BYTES, items=MAX_BACKUP_JSON_ITEMS, what="the backup"
        )
    except UserError as exc:
        raise ImportFailed(str(exc)) from exc
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ImportFailed(f"format: expected {FORMAT!r}")
    try:
        users = _accounts_import(document.get("accounts", []))
        return [_event_import(record, users, user) for record in document.get("events", [])]
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise ImportFailed(f"the backup is malformed: {exc!r}") from exc
