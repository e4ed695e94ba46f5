"""MSO extra rounds for several perfect scores (seed 003, "Perfect Scores").

While two or more players have a perfect score after the last scheduled round, an extra round is
paired among them. The extra rounds *count as tournament rounds*, so they are real rounds of the
event: the service adds a round, pairs it with
:func:`formats.mso.perfect_scores.mso_extra_round` (pairings and a bye by lot from the event's
lots seed) and the games are entered on the ordinary result-entry screen; standings, crosstable
and exports see them like any other round.
"""

from __future__ import annotations

from django.db import transaction

from events.errors import UserError
from events.models import Bye, ByeKind, Event
from events.selectors import event_crosstable, last_complete_round
from events.services import (
    ByeInput,
    PairingInput,
    UserLike,
    audit_record,
    event_require_open,
    round_pairings_set,
)
from events.sources import MSO, cite
from formats.mso.perfect_scores import mso_extra_round
from standings.ranking import points_of

MSO_PRESETS = ("mso-2021-two-player",)


def perfect_scorers(event: Event) -> tuple[int, ...]:
    """Players who scored every point available so far (seed 003, "Perfect Scores")."""
    table = event_crosstable(event)
    maximum = table.scoring.win * event.rounds
    return tuple(sorted(p for p, points in points_of(table).items() if points == maximum))


def extra_round_needed(event: Event) -> tuple[int, ...]:
    """The perfect scorers when an extra round is due now, else ()."""
    if event.regulation.preset not in MSO_PRESETS or last_complete_round(event) < event.rounds:
        return ()
    scorers = perfect_scorers(event)
    return scorers if len(scorers) >= 2 else ()


@transaction.atomic
def mso_extra_round_schedule(*, event: Event, user: UserLike) -> int:
    """Add and pair the next extra round among the perfect scorers; returns its number."""
    event_require_open(event)
    event = Event.objects.select_for_update().get(pk=event.pk)
    scorers = extra_round_needed(event)
    if not scorers:
        raise UserError(
            "no extra round is due: it needs every round complete and at least two players "
            f"on a perfect score ({cite(MSO, 'Perfect Scores')})"
        )
    number = event.rounds + 1
    previous_byes = set(
        Bye.objects.filter(round__event=event, kind=ByeKind.PAIRING).values_list(
            "player__start_no", flat=True
        )
    )
    extra = mso_extra_round(scorers, event.lots_seed, number, previous_byes)
    assert extra is not None  # two or more scorers
    Event.objects.filter(pk=event.pk).update(rounds=number)
    event.rounds = number
    round_pairings_set(
        event=event,
        round_no=number,
        pairings=[
            PairingInput(board, white, black)
            for board, (white, black) in enumerate(extra.pairings, start=1)
        ],
        byes=[ByeInput(extra.bye, ByeKind.PAIRING)] if extra.bye is not None else [],
        user=user,
        audit=False,
    )
    audit_record(
        event=event,
        user=user,
        action="mso.extra_round",
        summary=f"Extra round {number} for the perfect scores of {', '.join(map(str, scorers))}"
        f"{f'; bye by lot: {extra.bye}' if extra.bye is not None else ''}",
        after={"round": number, "pairings": [list(p) for p in extra.pairings], "bye": extra.bye},
    )
    return number
