"""What the rating lists add to the players page (events.contributions, ``registration``): the
type-ahead that fills the registration form from the list the event registers from."""

from __future__ import annotations

from events.contributions import Block, Contributor, contributor_register
from events.models import Event
from ratings.selectors import players_by_fide_id, rating_list_default, rating_lists


def _registration(event: Event) -> Block:
    lists = rating_lists()
    return Block(
        template="ratings/_registration.html",
        context={"event": event, "lists": lists, "chosen": rating_list_default(lists, event)},
        order=10,
    )


def _players_by_id(event: Event, ids: list[str]) -> tuple[str, dict[str, dict[str, str]]] | None:
    chosen, hits = players_by_fide_id(event, ids)
    if chosen is None:
        return None
    return chosen.name, {fide_id: hit.form_fields() for fide_id, hit in hits.items()}


def register() -> None:
    contributor_register(
        Contributor("ratings", registration=_registration, players_by_id=_players_by_id)
    )
