"""Writes of the rating report (HackSoft style: ``noun_verb``, keyword-only, one transaction,
an audit entry): a player's K set by hand (B.02 8.3.3) and the event's norm conditions.

Both go through :func:`events.services.event_require_open` first and end with
:func:`events.services.event_changed`, which moves the results version (the report, kept per
version, follows) and records who changed what, before and after.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction

from events.contributions import players_by_fide_id
from events.errors import UserError
from events.models import Event, Player
from events.services import UserLike, event_changed, event_require_open
from fiderating.models import EventKind, NormConditions, PlayerK
from fiderating.rating import k_set_check


@transaction.atomic
def player_k_set(*, event: Event, start_no: int, k: int | None, user: UserLike) -> None:
    """Set a player's K by hand (B.02 8.3.3: 40, 20 or 10), or clear it (``None``: K from the
    rating list or the rules)."""
    event = event_require_open(event)
    if k is not None:
        k_set_check(k, f"player {start_no}: K")
    player = Player.objects.filter(event=event, start_no=start_no).first()
    if player is None:
        raise UserError(f"no player with the start number {start_no}")
    found = PlayerK.objects.filter(player=player).first()
    before = found.k if found else None
    if before == k:
        return
    if k is None:
        PlayerK.objects.filter(player=player).delete()
        summary = f"K of {player} cleared (was {before}): from the rating list or B.02 8.3.3"
    else:
        PlayerK.objects.update_or_create(player=player, defaults={"k": k})
        summary = f"K of {player} set by the arbiter to {k}" + (
            f" (was {before})" if before else ""
        )
    event_changed(
        event=event,
        user=user,
        action="player.k",
        summary=summary,
        before={"start_no": start_no, "k": before},
        after={"start_no": start_no, "k": k},
    )


@dataclass(frozen=True)
class KRefreshed:
    """What taking K from the rating list did: the list, the players whose K changed, and how
    many with a FIDE id the list does not hold."""

    list_name: str
    changed: tuple[int, ...]  # start numbers
    not_on_the_list: int

    def summary(self) -> str:
        changed = len(self.changed)
        missing = f"; {self.not_on_the_list} not on it" if self.not_on_the_list else ""
        return f"K from the rating list {self.list_name}: {changed} player(s) changed{missing}"


def _listed_ks(event: Event, ids: list[str]) -> tuple[str, dict[str, int | None]]:
    """The event's rating list and the K it gives each of these FIDE ids beside the event's
    rating (through the seam: events.contributions; the list answers any number of ids)."""
    answer = players_by_fide_id(event, ids)
    if answer is None:
        raise UserError("no rating list is loaded to take K from (Rating lists, Import)")
    name, fields = answer
    return name, {fide_id: _k_of(hit) for fide_id, hit in fields.items()}


def _k_of(fields: dict[str, str]) -> int | None:
    text = fields.get("k_listed", "")
    return int(text) if text.isdigit() else None


def _with_fide_id(event: Event) -> dict[str, Player]:
    """The event's players by FIDE id ("" and "0" are none)."""
    players = Player.objects.filter(event=event).exclude(fide_id__in=["", "0"])
    return {p.fide_id.strip(): p for p in players}


@transaction.atomic
def players_k_refresh(*, event: Event, user: UserLike) -> KRefreshed:
    """Each player's K from the event's rating list (the one registration searches, with the
    event's rating): for players registered before the list was imported, or from a TRF, which
    carries no K (B.02 8.3.3's K, 7.1.2). Players the list does not hold keep theirs. One audit
    entry with every K before and after."""
    event = event_require_open(event)
    by_id = _with_fide_id(event)
    name, listed = _listed_ks(event, list(by_id))
    changed = sorted(
        (by_id[i] for i, k in listed.items() if i in by_id and by_id[i].k_listed != k),
        key=lambda p: p.start_no,
    )
    before = [{"start_no": p.start_no, "k_listed": p.k_listed} for p in changed]
    for player in changed:
        player.k_listed = listed[player.fide_id.strip()]
        player.version += 1
    Player.objects.bulk_update(changed, ["k_listed", "version"])
    refreshed = KRefreshed(name, tuple(p.start_no for p in changed), len(set(by_id) - set(listed)))
    if changed:
        event_changed(
            event=event,
            user=user,
            action="player.k_listed",
            summary=refreshed.summary(),
            before=before,
            after=[{"start_no": p.start_no, "k_listed": p.k_listed} for p in changed],
        )
    return refreshed


@transaction.atomic
def norm_conditions_set(
    *, event: Event, kind: str, standings_columns: bool, user: UserLike
) -> None:
    """The event's kind for title norms (B.01 1.4.1 b, 1.4.3 a-c) and whether the standings
    show the rating columns."""
    event = event_require_open(event)
    if kind not in EventKind.values:
        raise UserError(f"unknown kind of event {kind!r}: one of {', '.join(EventKind.values)}")
    found = NormConditions.objects.filter(event=event).first()
    before = (
        {"kind": found.kind, "standings_columns": found.standings_columns}
        if found
        else {"kind": EventKind.ORDINARY.value, "standings_columns": False}
    )
    after = {"kind": kind, "standings_columns": standings_columns}
    if before == after:
        return
    NormConditions.objects.update_or_create(event=event, defaults=after)
    event_changed(
        event=event,
        user=user,
        action="event.norm_conditions",
        summary=f"Rating report: {EventKind(kind).label}; rating columns in the standings "
        + ("shown" if standings_columns else "hidden"),
        before=before,
        after=after,
    )
