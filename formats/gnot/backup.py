"""A GNOT event's audit entries in a backup (events.backup): an entry about a match names it
by its number in ``before``/``after`` (``"match"``, formats/gnot/corrections.py decision 5),
and a restored match has another number. The backup names the match by session, round and
table (``"team_match"``, unique in an event), and the restore writes the new number back, so
the match page still lists its changes and can undo the latest."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from events.exchange import Invalid
from events.models import AuditEntry, Event
from formats.gnot.models import TeamMatch


def _named(values: Any) -> int | None:
    if isinstance(values, dict) and type(values.get("match")) is int:
        return int(values["match"])
    return None


def match_audit_export(event: Event) -> dict[int, dict[str, Any]]:
    places = {
        pk: {"session": session, "round": number, "table": table}
        for pk, session, number, table in TeamMatch.objects.filter(event=event).values_list(
            "pk", "session", "round", "table"
        )
    }
    extras = {}
    for entry in AuditEntry.objects.filter(event=event).only("pk", "before", "after"):
        match = _named(entry.after) or _named(entry.before)
        if match in places:
            extras[entry.pk] = {"team_match": places[match]}
    return extras


def _renumbered(values: Any, number: int) -> Any:
    return {**values, "match": number} if _named(values) is not None else values


def match_audit_import(
    event: Event, restored: list[tuple[int, AuditEntry, Mapping[str, Any]]]
) -> None:
    matches = {
        (session, number, table): pk
        for pk, session, number, table in TeamMatch.objects.filter(event=event).values_list(
            "pk", "session", "round", "table"
        )
    }
    for index, entry, raw in restored:
        place = raw.get("team_match")
        if not place:
            continue
        if not isinstance(place, dict):
            raise Invalid(f"audit[{index}].team_match: expected session, round and table")
        key = (place.get("session"), place.get("round"), place.get("table"))
        if key not in matches:
            raise Invalid(f"audit[{index}].team_match: there is no match {key}")
        AuditEntry.objects.filter(pk=entry.pk).update(
            before=_renumbered(entry.before, matches[key]),
            after=_renumbered(entry.after, matches[key]),
        )
