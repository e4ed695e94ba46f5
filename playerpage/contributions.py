"""What the player's page adds to the event's pages (events.contributions): the players' links
on the players page, and the arbiter's queue of players' reports on a round's result-entry
page."""

from __future__ import annotations

from events.contributions import Block, Contributor, contributor_register
from events.models import Event
from playerpage.selectors import report_queue


def _registration(event: Event) -> Block:
    return Block(template="playerpage/_links_block.html", context={"event": event}, order=90)


def _results(event: Event, number: int) -> Block:
    return Block(
        template="playerpage/_queue.html",
        context={"event": event, "queue": report_queue(event, number)},
        order=10,
    )


def register() -> None:
    contributor_register(Contributor("playerpage", registration=_registration, results=_results))
