"""What the rating lists add to the players page (events.contributions, ``registration``): the
type-ahead that fills the registration form from the list the event registers from, and the
card that updates the registered players from a newer list (ratings/refresh.py)."""

from __future__ import annotations

from events.contributions import Block, Contributor, contributor_register
from events.models import Event
from ratings.selectors import (
    event_rating,
    players_by_fide_id,
    rating_list_default,
    rating_lists,
    rating_refresh_refusal,
)


def _registration(event: Event) -> Block:
    lists = rating_lists()
    return Block(
        template="ratings/_registration.html",
        context={"event": event, "lists": lists, "chosen": rating_list_default(lists, event)},
        order=10,
    )


def _refresh(event: Event) -> Block | None:
    """Only where a list is loaded (the type-ahead's card says how to load one)."""
    lists = rating_lists()
    chosen = rating_list_default(lists, event)
    if chosen is None:
        return None
    context = {
        "event": event,
        "lists": lists,
        "chosen": chosen.pk,
        "kind": event_rating(event),
        "refusal": rating_refresh_refusal(event),
    }
    return Block(template="ratings/_refresh.html", context=context, order=15)


def _players_by_id(event: Event, ids: list[str]) -> tuple[str, dict[str, dict[str, str]]] | None:
    chosen, hits = players_by_fide_id(event, ids)
    if chosen is None:
        return None
    return chosen.name, {fide_id: hit.form_fields() for fide_id, hit in hits.items()}


def register() -> None:
    contributor_register(
        Contributor("ratings", registration=_registration, players_by_id=_players_by_id)
    )
    contributor_register(Contributor("ratings-refresh", registration=_refresh))
