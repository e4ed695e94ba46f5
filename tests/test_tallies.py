"""The differential tallies add up over pytest-xdist's workers (tests/tallies.py): what two
workers compared is what one process would have, and a case that did not compare all its
rounds still fails the run."""

from __future__ import annotations

from collections import Counter

from tests import tallies
from tests.formats.teams.pairing.differential import Tally as TeamTally


def test_two_workers_tallies_add_up_to_one_and_an_incomplete_case_is_found(monkeypatch):  # type: ignore[no-untyped-def]
    monkeypatch.setattr(tallies, "REGISTRY", {})
    worker_a = TeamTally(events=2, rounds=10, expected_events=2, expected_rounds=10, ran=True)
    worker_a.exercised.update({"4.3.1": 3})
    worker_b = TeamTally(events=1, rounds=4, expected_events=2, expected_rounds=9, ran=True)
    worker_b.exercised.update({"4.3.1": 1, "C6": 2})

    handed_over = []
    for worker in (worker_a, worker_b):  # each worker hands over plain data (no Counter)
        monkeypatch.setattr(tallies, "REGISTRY", {"team-pairing": worker})
        handed_over.append(tallies.worker_states())
        assert isinstance(handed_over[-1]["team-pairing"]["exercised"], dict)

    monkeypatch.setattr(tallies, "REGISTRY", {})  # the controller's, empty until they report
    for states in handed_over:
        tallies.add_worker_states(states)

    total = tallies.REGISTRY["team-pairing"]
    assert (total.events, total.rounds, total.expected_events, total.expected_rounds) == (
        3,
        14,
        4,
        19,
    )
    assert total.exercised == Counter({"4.3.1": 4, "C6": 2})
    assert tallies.incomplete() == ["team-pairing"]
    assert "MISSING some" in tallies.summaries()[0]


def test_complete_tallies_pass(monkeypatch):  # type: ignore[no-untyped-def]
    done = TeamTally(events=1, rounds=5, expected_events=1, expected_rounds=5, ran=True)
    monkeypatch.setattr(tallies, "REGISTRY", {"team-pairing": done})
    assert tallies.incomplete() == []
    assert "as selected" in tallies.summaries()[0]
