"""Every event with its people and its audit history, as one JSON document (issue 9).

``manage.py export_all`` / ``import_all``. Each event travels as its JSON exchange document
(``tournament-event/1``) next to what that format leaves out on purpose: who has which role
in it (``access``), its audit history (``audit``), its ``results_version`` (restored as it
was, so that an approved prize sheet is current or outdated as before), and the application
data the apps above the foundation keep of it (who approved a prize sheet, who confirmed a
playoff, and when), registered as :class:`EventPart`; data of no single event (the tour
series) are :class:`WholePart`. The exchange format stays a portable description of a
tournament; this is a backup of the application's data: restoring it gives back every page as
it was (``tests/test_backup_pages.py``). ``docs/exchange-format.md`` documents the keys.

Every account travels (issue 29: before, only those an event named), by username, with its
names, e-mail, flags, groups and permissions (``app_label.codename``; the groups with theirs),
but without its password: an account that does not exist where the backup is restored is
created as it was, without a usable password (set one with ``manage.py changepassword``); one
that exists is left as it is. ``pg_dump`` remains the backup of
record (docs/operations.md); this one survives a change of database or of schema.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.db import transaction
from django.db.models import Prefetch

from events.errors import ImportFailed, UserError
from events.exchange import (
    Invalid,
    event_export_document,
    event_import_document,
    moment_of,
    positive,
    require,
    typed,
)
from events.formats import format_of
from events.limits import MAX_BACKUP_BYTES, MAX_BACKUP_JSON_ITEMS, json_parse
from events.models import AuditEntry, Event, EventAccess, Game, Role
from events.registries import Registry
from events.services import UserLike, audit_record, check_length

FORMAT = "tournament-backup/3"
# Version 1 lacks results_version and the apps' parts, versions 1 and 2 the groups, the
# permissions and the accounts no event names: each restores as far as it goes.
READABLE = ("tournament-backup/1", "tournament-backup/2", FORMAT)

Accounts = Mapping[str, Any]


@dataclass(frozen=True)
class EventPart:
    """Application data an app keeps of an event beside its exchange document. ``export``
    returns a JSON value, or None when the event has none; ``load`` restores it into the
    restored event, raising :class:`~events.exchange.Invalid` naming the key at fault.
    Accounts are referred to by username (:func:`account`)."""

    key: str
    export: Callable[[Event], Any]
    load: Callable[[Event, Any, Accounts], None]


@dataclass(frozen=True)
class WholePart:
    """Data of no single event (the tour series), restored after every event."""

    key: str
    export: Callable[[], Any]
    load: Callable[[Any, Accounts], None]


EVENT_PARTS: Registry[EventPart] = Registry("backup part")
WHOLE_PARTS: Registry[WholePart] = Registry("backup part")


def event_part_register(part: EventPart) -> EventPart:
    return EVENT_PARTS.register(part.key, part)


def whole_part_register(part: WholePart) -> WholePart:
    return WHOLE_PARTS.register(part.key, part)


def account(accounts: Accounts, username: Any, where: str) -> Any:
    """The restored account of ``username`` (None stays None); one the backup's ``accounts``
    do not list is refused."""
    if username is None:
        return None
    if not isinstance(username, str) or username not in accounts:
        raise Invalid(f"{where}: {username!r} is not one of the backup's accounts")
    return accounts[username]


def username_of(user: Any) -> str | None:
    """How a backup names an account (None: nobody); every account is in the backup."""
    return None if user is None else str(user.get_username())


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
            "user": username_of(entry.user),
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


def _permission_name(permission: Permission) -> str:
    """``app_label.codename``, as ``has_perm`` names it."""
    return f"{permission.content_type.app_label}.{permission.codename}"


def _permission_names(permissions: Iterable[Permission]) -> list[str]:
    return sorted(_permission_name(permission) for permission in permissions)


def _with_permissions(relation: str) -> Prefetch:  # type: ignore[type-arg]
    """The permissions of every account or group in one query, not one per row."""
    return Prefetch(relation, queryset=Permission.objects.select_related("content_type"))


def _accounts() -> list[dict[str, Any]]:
    """Every account (issue 29: a superuser without a role in any event was left out, and so
    was every permission), without its password."""
    users = (
        get_user_model()
        .objects.order_by("username")
        .prefetch_related("groups", _with_permissions("user_permissions"))
    )
    return [
        {
            "username": user.get_username(),
            "email": user.email,
            "first_name": user.first_name,
            "last_name": user.last_name,
            "is_active": user.is_active,
            "is_staff": user.is_staff,
            "is_superuser": user.is_superuser,
            "groups": sorted(group.name for group in user.groups.all()),
            "permissions": _permission_names(user.user_permissions.all()),
        }
        for user in users
    ]


def _groups() -> list[dict[str, Any]]:
    return [
        {"name": group.name, "permissions": _permission_names(group.permissions.all())}
        for group in Group.objects.order_by("name").prefetch_related(
            _with_permissions("permissions")
        )
    ]


def backup_export() -> dict[str, Any]:
    return {
        "format": FORMAT,
        "exported_at": dt.datetime.now(dt.UTC).isoformat(),
        "groups": _groups(),
        "accounts": _accounts(),
        "events": [_event_export(event) for event in Event.objects.order_by("id")],
        **{
            part.key: value for part in WHOLE_PARTS.values() if (value := part.export()) is not None
        },
    }


def _event_export(event: Event) -> dict[str, Any]:
    return {
        "event": event_export_document(event),
        "access": [
            {"user": username_of(access.user), "role": access.role}
            for access in EventAccess.objects.filter(event=event)
            .select_related("user")
            .order_by("user__username")
        ],
        "audit": _audit_export(event),
        "results_version": event.results_version,
        **_parts_export(event),
    }


def _parts_export(event: Event) -> dict[str, Any]:
    exported = {part.key: part.export(event) for part in EVENT_PARTS.values()}
    return {key: value for key, value in exported.items() if value is not None}


Permissions = Mapping[str, Permission]  # this installation's, by ``app_label.codename``


def _installed_permissions() -> Permissions:
    return {
        _permission_name(permission): permission
        for permission in Permission.objects.select_related("content_type")
    }


def _permissions_import(raw: Any, where: str, installed: Permissions) -> list[Permission]:
    """The permissions ``app_label.codename`` names; one this installation lacks is refused."""
    permissions = []
    for i, name in enumerate(typed(raw, list, where)):
        permission = installed.get(typed(name, str, f"{where}[{i}]"))
        if permission is None:
            raise Invalid(f"{where}[{i}]: {name[:80]!r} is no permission of this installation")
        permissions.append(permission)
    return permissions


def _groups_import(raw: Any, installed: Permissions) -> dict[str, Group]:
    """The backup's groups; one that does not exist yet is created with its permissions,
    an existing one (by name) is left as it is."""
    groups = {}
    for i, group_raw in enumerate(typed(raw, list, "groups")):
        where = f"groups[{i}]"
        typed(group_raw, dict, where)
        name = require(group_raw, "name", str, f"{where}.")
        check_length(Group, "name", name, f"{where}.name")
        permissions = _permissions_import(
            group_raw.get("permissions", []), f"{where}.permissions", installed
        )
        group, created = Group.objects.get_or_create(name=name)
        if created:
            group.permissions.set(permissions)
        groups[name] = group
    return groups


def _account_create(
    raw: Mapping[str, Any], where: str, groups: Mapping[str, Group], installed: Permissions
) -> Any:
    """A new account as the backup has it, without a usable password."""
    model = get_user_model()
    text = {"username": raw["username"]}
    for key in ("email", "first_name", "last_name"):
        text[key] = typed(raw.get(key, ""), str, f"{where}.{key}")
    for key, value in text.items():
        check_length(model, key, value, f"{where}.{key}")
    flag = {key: raw.get(key) is True for key in ("is_staff", "is_superuser")}
    user = model(
        **text,
        is_active=raw.get("is_active") is not False,  # a version 1 or 2 file says nothing
        **flag,
    )
    user.set_unusable_password()
    permissions = _permissions_import(raw.get("permissions", []), f"{where}.permissions", installed)
    names = typed(raw.get("groups", []), list, f"{where}.groups")
    for j, name in enumerate(names):
        if typed(name, str, f"{where}.groups[{j}]") not in groups:
            raise Invalid(f"{where}.groups[{j}]: {name!r} is not one of the backup's groups")
    user.save()
    user.user_permissions.set(permissions)
    user.groups.set(groups[name] for name in names)
    return user


def _accounts_import(
    raw: Any, groups: Mapping[str, Group], installed: Permissions
) -> dict[str, Any]:
    """Every account of the backup: one that exists (by username) is left as it is."""
    model = get_user_model()
    users = {}
    for i, account_raw in enumerate(typed(raw, list, "accounts")):
        where = f"accounts[{i}]"
        typed(account_raw, dict, where)
        username = require(account_raw, "username", str, f"{where}.")
        user = model.objects.filter(username=username).first()
        users[username] = user or _account_create(account_raw, where, groups, installed)
    return users


def _undone_by(raw: Mapping[str, Any], i: int, count: int, taken: set[int]) -> int | None:
    """The index of the entry that undid entry ``i``: a later entry, undoing only this one."""
    where = f"audit[{i}].undone_by"
    index = raw.get("undone_by")
    if index is None:
        return None
    typed(index, int, where)
    if not i < index < count:
        raise Invalid(f"{where}: {index} is not a later entry of this history (0–{count - 1})")
    if index in taken:
        raise Invalid(f"{where}: entry {index} already undoes another entry")
    taken.add(index)
    return int(index)


def _audit_entry(event: Event, raw: Any, i: int, games: dict[Any, Game], users: Accounts) -> Any:
    where = f"audit[{i}]"
    spot = raw.get("game")
    game = None
    if spot is not None:
        typed(spot, dict, f"{where}.game")
        key = (spot.get("round"), spot.get("board"))
        game = games.get(key)
        if game is None:
            raise Invalid(f"{where}.game: round {key[0]} board {key[1]} is not a game")
    at = moment_of(require(raw, "at", str, f"{where}."), f"{where}.at")
    entry = AuditEntry.objects.create(
        event=event,
        user=account(users, raw.get("user"), f"{where}.user"),
        action=require(raw, "action", str, f"{where}."),
        summary=require(raw, "summary", str, f"{where}."),
        game=game,
        before=raw.get("before"),
        after=raw.get("after"),
    )
    # ``at`` is auto_now_add: set it afterwards, as it was.
    AuditEntry.objects.filter(pk=entry.pk).update(at=at)
    return entry


def _audit_import(event: Event, raw: Any, users: Accounts) -> None:
    """Replaces the entries the import itself wrote with the history as it was."""
    entries = typed(raw, list, "audit")
    for i, entry in enumerate(entries):
        typed(entry, dict, f"audit[{i}]")
    taken: set[int] = set()
    undone = [_undone_by(entry, i, len(entries), taken) for i, entry in enumerate(entries)]
    AuditEntry.objects.filter(event=event).delete()
    games = {
        (game.round.number, game.board): game
        for game in Game.objects.filter(round__event=event).select_related("round")
    }
    created = [_audit_entry(event, e, i, games, users) for i, e in enumerate(entries)]
    fmt = format_of(event)
    if fmt is not None and fmt.audit_import is not None:
        fmt.audit_import(
            event, [(i, e, raw) for i, (e, raw) in enumerate(zip(created, entries, strict=True))]
        )
    for entry, index in zip(created, undone, strict=True):
        if index is not None:
            AuditEntry.objects.filter(pk=entry.pk).update(undone_by=created[index])


def _access(raw: Any, users: Accounts) -> list[tuple[Any, str]]:
    granted = []
    for i, grant in enumerate(typed(raw, list, "access")):
        where = f"access[{i}]"
        typed(grant, dict, where)
        user = account(users, require(grant, "user", str, f"{where}."), f"{where}.user")
        role = require(grant, "role", str, f"{where}.")
        if role not in Role.values:
            raise Invalid(f"{where}.role: {role!r} is not one of {', '.join(Role.values)}")
        granted.append((user, role))
    return granted


def _event_import(record: Any, users: Accounts, user: UserLike) -> Event:
    access = _access(record.get("access", []), users)
    directors = [person for person, role in access if role == Role.DIRECTOR]
    event = event_import_document(
        text=json.dumps(require(record, "event", dict, "")),
        user=directors[0] if directors else None,
    )
    EventAccess.objects.filter(event=event).delete()
    EventAccess.objects.bulk_create(
        EventAccess(event=event, user=person, role=role) for person, role in access
    )
    _audit_import(event, record.get("audit", []), users)
    for part in EVENT_PARTS.values():
        if record.get(part.key) is not None:
            part.load(event, record[part.key], users)
    audit_record(event=event, user=user, action="event.restore", summary="Restored from a backup")
    if record.get("results_version") is not None:
        # As it was, after every write of the restore: an approved sheet stays current (or
        # outdated) as before, and the pages cached under (slug, version) show this state.
        version = typed(record["results_version"], int, "results_version")
        version = positive(version, "results_version")
        Event.objects.filter(pk=event.pk).update(results_version=version)
    return event


@transaction.atomic
def backup_import(*, text: str, user: UserLike = None) -> list[Event]:
    """Restores every event of a backup; all or nothing (an existing slug refuses it all).
    A refusal is one line naming the record and the key at fault."""
    try:
        document = json_parse(
            text, limit=MAX_BACKUP_BYTES, items=MAX_BACKUP_JSON_ITEMS, what="the backup"
        )
    except UserError as exc:
        raise ImportFailed(str(exc)) from exc
    if not isinstance(document, dict) or document.get("format") not in READABLE:
        raise ImportFailed(f"format: expected {FORMAT!r}")
    try:
        installed = _installed_permissions()
        groups = _groups_import(document.get("groups", []), installed)
        users = _accounts_import(document.get("accounts", []), groups, installed)
        events = [
            _event_import_named(i, record, users, user)
            for i, record in enumerate(typed(document.get("events", []), list, "events"))
        ]
        for part in WHOLE_PARTS.values():
            if document.get(part.key) is not None:
                part.load(document[part.key], users)
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise ImportFailed(f"the backup is malformed: {exc!r}") from exc
    return events


def _event_import_named(i: int, record: Any, users: Accounts, user: UserLike) -> Event:
    """A refusal names the record: ``events[3] (demo-swiss): audit[7].undone_by: …``."""
    typed(record, dict, f"events[{i}]")
    slug = record["event"].get("slug") if isinstance(record.get("event"), dict) else None
    try:
        return _event_import(record, users, user)
    except ImportFailed as exc:
        raise ImportFailed(f"events[{i}]{f' ({slug})' if slug else ''}: {exc}") from exc
