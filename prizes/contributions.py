"""What the prize sheet adds to an event's pages (events.contributions): the Prizes link for
events that have prizes, and the director's next step once every round is complete (approve
the prize sheet, again after a later change; enter the fund when none is set)."""

from __future__ import annotations

from django.urls import reverse

from events.contributions import Contributor, Step, contributor_register
from events.formats import NavLink
from events.models import Event, EventStatus
from events.selectors import last_complete_round
from prizes.models import CategoryPrize, PlacePrize
from prizes.selectors import approval_is_outdated, approval_latest


def _has_prizes(event: Event) -> bool:
    return (
        PlacePrize.objects.filter(event=event).exists()
        or CategoryPrize.objects.filter(event=event).exists()
    )


def _nav(event: Event) -> list[NavLink]:
    return [NavLink("Prizes", "prizes:sheet")] if _has_prizes(event) else []


def prize_steps(event: Event) -> list[Step]:
    """The prize sheet's next step once every round is complete (a team format asks too)."""
    if event.status == EventStatus.FINISHED or last_complete_round(event) < event.rounds:
        return []
    if not _has_prizes(event):
        # Every round is in and no prize is set: the one thing left before closing, unless the
        # event pays none (issue 20: "Nothing is waiting" must not hide a missing fund).
        url = reverse("prizes:setup", args=[event.slug])
        return [Step("Enter the prize fund (if the event pays prizes)", url)]
    approval = approval_latest(event)
    if approval is not None and not approval_is_outdated(approval, event):
        return []
    again = " again (the results changed since)" if approval is not None else ""
    return [Step(f"Approve the prize sheet{again}", reverse("prizes:sheet", args=[event.slug]))]


def register() -> None:
    contributor_register(Contributor("prizes", nav=_nav, steps=prize_steps))
