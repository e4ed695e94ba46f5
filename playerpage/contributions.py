"""What the player's page adds to the event's pages (events.contributions): the players' links
on the players page, and the arbiter's queue of players' reports on a round's result-entry
page."""

from __future__ import annotations

from django.urls import reverse

from events.contributions import Block, Contributor, Step, contributor_register
from events.models import Event, EventStatus
from playerpage.selectors import links_missing, player_links, report_queue, round_has_reports


def _registration(event: Event) -> Block:
    """Every player's link, for the director, and the button that issues the missing ones."""
    return Block(
        template="playerpage/_links_block.html",
        context={"event": event, "links": player_links(event), "missing": links_missing(event)},
        order=90,
    )


def _steps(event: Event) -> list[Step]:
    missing = links_missing(event)
    if not missing or event.status == EventStatus.FINISHED:
        return []
    text = f"Issue the players' private links and print their cards ({missing} without one)"
    return [Step(text, reverse("playerpage:links", args=[event.slug]))]


def _results(event: Event, number: int) -> Block | None:
    """The arbiter's queue, above the boards once a player of the round has reported: before
    that nothing (on a phone every line above the boards is a board fewer on the screen)."""
    if not round_has_reports(event, number):
        return None
    queue = report_queue(event, number)
    return Block(
        template="playerpage/_queue.html",
        context={"event": event, "queue": queue},
        order=10,
    )


def register() -> None:
    contributor_register(
        Contributor("playerpage", steps=_steps, registration=_registration, results=_results)
    )
