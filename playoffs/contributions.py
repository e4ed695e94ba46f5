"""What the playoff adds to an event's pages (events.contributions): the Playoff link and box
for events whose regulation has a playoff rule, the status while it runs, and the director's
next step (confirm the tie, enter the playoff's results); the event cannot be closed while it
runs."""

from __future__ import annotations

from django.urls import reverse

from events.contributions import Block, Contributor, Step, contributor_register
from events.formats import NavLink
from events.models import Event
from playoffs import rules
from playoffs.selectors import event_playoff, playoff_rule, playoff_state, tied_for_first


def _nav(event: Event) -> list[NavLink]:
    return [NavLink("Playoff", "playoffs:playoff")] if playoff_rule(event) else []


def _running(event: Event) -> tuple[bool, bool]:
    """(a tie for first waits for the playoff, the director has confirmed it)."""
    if playoff_rule(event) is None:
        return False, False
    tied = tied_for_first(event)
    if not tied:
        return False, False
    try:
        plan = event_playoff(event, tied)
    except rules.PlayoffInputError:
        return True, True
    if plan is None or plan.status == "decided":
        return False, False
    state = playoff_state(event)
    return True, state is not None and set(state.tied) == set(tied)


def _status(event: Event) -> str | None:
    waiting, _ = _running(event)
    return "Playoff in progress" if waiting else None


def _steps(event: Event) -> list[Step]:
    waiting, confirmed = _running(event)
    if not waiting:
        return []
    if not confirmed:
        return [
            Step(
                "Confirm the playoff for the tie for first",
                reverse("playoffs:proposal", args=[event.slug]),
            )
        ]
    return [Step("Enter the playoff's results", reverse("playoffs:manage", args=[event.slug]))]


def _close_refusal(event: Event) -> str | None:
    waiting, _ = _running(event)
    if not waiting:
        return None
    return (
        "the playoff for first place is still running: enter its results (or the arbiter's "
        "decision) before closing the event"
    )


def _block(event: Event) -> Block | None:
    if playoff_rule(event) is None:
        return None
    return Block("playoffs/event_playoff.html", order=30)


def register() -> None:
    contributor_register(
        Contributor(
            "playoffs",
            nav=_nav,
            steps=_steps,
            status=_status,
            block=_block,
            close_refusal=_close_refusal,
        )
    )
