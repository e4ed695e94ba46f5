"""A result of an earlier round corrected after the next round was paired (issue 29): the page
says which paired round no longer follows from the results, offers to re-pair it (while it has
no result) or keep it, the choice is audited, the round's reasons read "out of date" until
then, an undo of the correction takes it away, and the exchange format keeps it."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command
from django.urls import reverse

from draws.models import SwissRound
from events.models import AuditEntry, Game, Round
from tests.conftest import make_event

OUTDATED = b"its pairing no longer follows from the results"


@pytest.fixture
def paired(director, client_for):  # type: ignore[no-untyped-def]
    """Round 1 paired, published and played (every White wins), round 2 paired and published,
    all through the director's pages."""
    event = make_event(director, players=8, rounds=5)
    client = client_for(director)
    for number in (1, 2):
        client.post(reverse("draws:swiss_pair", args=[event.slug, number]))
        client.post(reverse("draws:swiss_round_action", args=[event.slug, number, "publish"]))
        if number == 1:
            for game in Game.objects.filter(round__event=event, round__number=1):
                client.post(
                    reverse("events:game_result", args=[event.slug, game.pk]),
                    {"result": "1-0", "version": game.version},
                )
    return event


def _correct(client, event, board: int, result: str):  # type: ignore[no-untyped-def]
    game = Game.objects.get(round__event=event, round__number=1, board=board)
    return client.post(
        reverse("events:game_result", args=[event.slug, game.pk]),
        {"result": result, "version": game.version},
        HTTP_HX_REQUEST="true",
    )


def _review(client, event):  # type: ignore[no-untyped-def]
    return client.get(reverse("draws:swiss_round", args=[event.slug, 2])).content


def test_a_result_entered_before_the_next_round_is_paired_says_nothing(
    paired, client_for, director
):  # type: ignore[no-untyped-def]
    client = client_for(director)
    assert (
        OUTDATED not in client.get(reverse("events:round_results", args=[paired.slug, 1])).content
    )
    review = _review(client, paired)
    assert b"as the Dutch system pairs it" in review and b"out of date" not in review


def test_a_correction_says_what_it_breaks_and_the_director_keeps_the_round(
    paired, client_for, director
):  # type: ignore[no-untyped-def]
    client = client_for(director)
    saved = _correct(client, paired, 1, "0-1")
    # The save's answer (htmx) brings the notice with it: round 2 no longer follows.
    assert OUTDATED in saved.content and b"Round 1, board 1: 1-0 \xe2\x86\x92 0-1" in saved.content
    assert b"Re-pair round 2" in saved.content and b"Keep round 2 as paired" in saved.content
    review = _review(client, paired)
    assert b"reasons out of date" in review and b"as the Dutch system pairs it" not in review
    event_page = client.get(reverse("events:event_detail", args=[paired.slug])).content
    assert b"Round 2&#x27;s pairing no longer follows from the results" in event_page
    swiss_page = client.get(reverse("draws:swiss", args=[paired.slug])).content
    assert b"results changed since: re-pair or keep" in swiss_page
    boards = SwissRound.objects.get(round__event=paired, round__number=2).boards
    kept = client.post(reverse("draws:swiss_round_action", args=[paired.slug, 2, "keep"]))
    assert kept.status_code == 302
    assert AuditEntry.objects.filter(event=paired, action="swiss.keep").count() == 1
    assert SwissRound.objects.get(round__event=paired, round__number=2).boards == boards
    assert b"out of date" not in _review(client, paired)


def test_re_pairing_the_round_follows_the_corrected_results(paired, client_for, director):  # type: ignore[no-untyped-def]
    client = client_for(director)
    _correct(client, paired, 1, "0-1")
    done = client.post(
        reverse("draws:swiss_pair", args=[paired.slug, 2]), {"allow_unfinished": "on"}
    )
    assert done.status_code == 302
    assert not Round.objects.get(event=paired, number=2).published  # review it again
    review = _review(client, paired)
    assert b"as the Dutch system pairs it" in review and b"out of date" not in review
    assert AuditEntry.objects.filter(event=paired, action="swiss.pair").count() == 3


def test_undoing_the_correction_clears_the_mark(paired, client_for, director):  # type: ignore[no-untyped-def]
    client = client_for(director)
    _correct(client, paired, 1, "0-1")
    _correct(client, paired, 2, "1/2-1/2")
    entry = AuditEntry.objects.filter(event=paired, action="result.correct").order_by("id")
    client.post(reverse("events:audit_undo", args=[paired.slug, entry[1].pk]))
    review = _review(client, paired)
    assert b"out of date" in review and b"Round 1, board 1" in review
    assert b"Round 1, board 2" not in review
    client.post(reverse("events:audit_undo", args=[paired.slug, entry[0].pk]))
    assert b"out of date" not in _review(client, paired)
    assert SwissRound.objects.get(round__event=paired, round__number=2).outdated_by is None


def test_a_round_with_results_can_only_be_kept(paired, client_for, director):  # type: ignore[no-untyped-def]
    client = client_for(director)
    game = Game.objects.filter(round__event=paired, round__number=2).first()
    client.post(
        reverse("events:game_result", args=[paired.slug, game.pk]),
        {"result": "1-0", "version": game.version},
    )
    saved = _correct(client, paired, 1, "0-1")
    assert OUTDATED in saved.content and b"Re-pair round 2" not in saved.content
    assert b"can no longer be paired again" in saved.content


def test_the_exchange_format_keeps_the_mark(paired, client_for, director, tmp_path, capsys):  # type: ignore[no-untyped-def]
    _correct(client_for(director), paired, 1, "0-1")
    call_command("export_event", paired.slug)
    document = json.loads(capsys.readouterr().out)
    (record,) = [r for r in document["swiss"]["rounds"] if r["round"] == 2]
    assert record["outdated_by"] == {"1.1": "1-0"}
    path = tmp_path / "event.json"
    path.write_text(json.dumps(document))
    call_command("import_event", str(path), slug="copy")
    capsys.readouterr()
    copied = SwissRound.objects.get(round__event__slug="copy", round__number=2)
    assert copied.outdated_by == {"1.1": "1-0"}
