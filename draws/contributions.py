"""What the drawing of lots and Swiss pairing add to an event's pages (events.contributions):
the public drawing of lots of a round robin, and the director's next step (draw the lots; pair
the next Swiss round; review and publish a round the engine paired)."""

from __future__ import annotations

from django.urls import reverse

from draws import selectors
from draws.models import DrawCeremony, SwissSetup
from draws.swiss import selectors as swiss_selectors
from draws.swiss import services as swiss_services
from events.contributions import Block, Contributor, Step, contributor_register
from events.formats import NavLink, owns_rounds
from events.models import Event, Player, Round


def _nav(event: Event) -> list[NavLink]:
    return [NavLink("Drawing of lots", "draws:draw_public")] if event.is_round_robin else []


def _outdated_steps(event: Event) -> list[Step]:
    return [
        Step(
            f"Round {o.number}'s pairing no longer follows from the results: "
            + ("re-pair or keep it" if o.repairable else "keep it"),
            reverse("draws:swiss_round", args=[event.slug, o.number]),
        )
        for o in swiss_selectors.outdated_rounds(event)
    ]


def _swiss_steps(event: Event) -> list[Step]:
    outdated = _outdated_steps(event)
    if outdated:
        return outdated
    draft = (
        Round.objects.filter(event=event, published=False)
        .order_by("number")
        .values_list("number", flat=True)
        .first()
    )
    if draft is not None:
        url = reverse("draws:swiss_round", args=[event.slug, draft])
        return [Step(f"Review and publish round {draft}", url)]
    number = swiss_selectors.next_round_number(event)
    if Player.objects.filter(event=event).count() < 2:  # nobody to pair yet: register first
        return []
    if number > event.rounds or not swiss_selectors.readiness(event, number).ready:
        return []
    return [
        Step(
            f"Pair round {number}",
            reverse("draws:swiss", args=[event.slug]),
            post=reverse("draws:swiss_pair", args=[event.slug, number]),
            more="Swiss page (byes, withdrawals first)",
        )
    ]


def _steps(event: Event) -> list[Step]:
    if owns_rounds(event):  # its format seats its rounds (MSO tables): no Dutch pairing
        return []
    if swiss_selectors.is_swiss(event):
        return _swiss_steps(event)
    if event.is_round_robin and not selectors.event_has_pairings(event):
        return [
            Step(
                "Draw the lots and create the schedule",
                reverse("draws:ceremony", args=[event.slug]),
            )
        ]
    return []


def _results_block(event: Event, number: int) -> Block | None:
    """On a round's result-entry page: the later rounds paired before a result changed."""
    outdated = swiss_selectors.outdated_rounds(event, after=number)
    if not outdated:
        return None
    context = {"event": event, "outdated": outdated}
    return Block("draws/_outdated_rounds.html", context, order=5, live=True)


def _start_numbers_fixed(event: Event) -> str | None:
    """A closed list of participants and a drawing of lots name the players by start number."""
    if SwissSetup.objects.filter(event=event, pairing_order__isnull=False).exists():
        return "the list of participants is closed (its pairing numbers name the start numbers)"
    if DrawCeremony.objects.filter(event=event).exists():
        return "the lots have been drawn"
    return None


def register() -> None:
    contributor_register(
        Contributor(
            "draws",
            nav=_nav,
            steps=_steps,
            start_numbers_fixed=_start_numbers_fixed,
            result_changed=swiss_services.pairings_outdate,
            results=_results_block,
        )
    )
