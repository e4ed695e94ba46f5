"""Writes of the rating report (HackSoft style: ``noun_verb``, keyword-only, one transaction,
an audit entry): a player's K set by hand (B.02 8.3.3) and the event's norm conditions.

Both go through :func:`events.services.event_require_open` first and end with
:func:`events.services.event_changed`, which moves the results version (the report, kept per
version, follows) and records who changed what, before and after.
"""

from __future__ import annotations

from django.db import transaction

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
