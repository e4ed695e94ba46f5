"""The player's page in the exchange format and the backup (issue 21): the policy, the links
and the reports travel, a restored card still opens its page, and a bad key refuses the
import naming it."""

from __future__ import annotations

import copy
import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import Client

from events.errors import ImportFailed
from events.exchange import event_export_document, event_import_document
from events.models import Event
from playerpage.models import PlayerLink, ResultReport
from playerpage.services import player_link_revoke, reporting_policy_set
from tests.playerpage.helpers import token_of, url_of
from tests.playerpage.test_views import report

pytestmark = pytest.mark.django_db


@pytest.fixture
def reported(event, director):  # type: ignore[no-untyped-def]
    """Links issued (player 4's revoked), a policy, and reports: 1 and 2 disagree."""
    token_of(event, 1)
    player_link_revoke(event=event, start_no=4, user=director)
    reporting_policy_set(event=event, policy="arbiter", user=director)
    report(event, 1, "1-0")
    report(event, 2, "0-1")
    return event


def test_the_document_carries_policy_links_and_reports(reported) -> None:  # type: ignore[no-untyped-def]
    document = event_export_document(reported)
    assert document["reporting_policy"] == "arbiter"
    assert [(link["start_no"], link["active"]) for link in document["player_links"]] == [
        (1, True), (2, True), (3, True), (4, False)
    ]  # fmt: skip
    assert [(r["start_no"], r["result"], r["status"]) for r in document["result_reports"]] == [
        (1, "1-0", "waiting"), (2, "0-1", "waiting")
    ]  # fmt: skip


@pytest.mark.django_db(transaction=True)
def test_a_backup_restored_keeps_the_cards_working(reported, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    urls = {n: url_of(reported, n) for n in (1, 2, 3, 4)}
    before = event_export_document(reported)
    backup = tmp_path / "backup.json"
    call_command("export_all", "--output", str(backup))
    call_command("flush", interactive=False, verbosity=0)
    call_command("import_all", str(backup), stdout=io.StringIO())
    restored = Event.objects.get(slug=reported.slug)
    assert event_export_document(restored) == before
    assert Client().get(urls[1]).status_code == 200
    assert Client().get(urls[4]).status_code == 404  # revoked stays revoked
    queue_reports = ResultReport.objects.filter(game__round__event=restored)
    assert queue_reports.count() == 2


def test_a_second_import_does_not_take_over_the_first_events_links(reported, director) -> None:  # type: ignore[no-untyped-def]
    document = event_export_document(reported)
    copy_event = event_import_document(text=json.dumps(document), user=director, slug="copy")
    assert PlayerLink.objects.filter(player__event=copy_event).count() == 0
    assert Client().get(url_of(reported, 1)).status_code == 200
    assert "Spring Open" in Client().get(url_of(reported, 1)).content.decode()
    assert ResultReport.objects.filter(game__round__event=copy_event).count() == 2


@pytest.mark.parametrize(
    ("change", "named"),
    [
        pytest.param(
            lambda d: d.update(reporting_policy="sometimes"), "reporting_policy", id="policy"
        ),
        pytest.param(
            lambda d: d["player_links"][0].update(token="short"),
            "player_links[0].token",
            id="token-form",
        ),
        pytest.param(
            lambda d: d["player_links"][1].update(token=d["player_links"][0]["token"]),
            "player_links[1].token",
            id="token-twice",
        ),
        pytest.param(
            lambda d: d["player_links"][1].update(start_no=1),
            "player_links[1].start_no",
            id="player-twice",
        ),
        pytest.param(
            lambda d: d["player_links"][0].update(start_no=99),
            "player_links[0].start_no",
            id="no-such-player",
        ),
        pytest.param(
            lambda d: d["result_reports"][0].update(start_no=3),
            "result_reports[0].start_no",
            id="not-their-game",
        ),
        pytest.param(
            lambda d: d["result_reports"][0].update(result="+/-"),
            "result_reports[0].result",
            id="forfeit",
        ),
        pytest.param(
            lambda d: d["result_reports"][0].update(board=9),
            "result_reports[0]",
            id="no-such-board",
        ),
        pytest.param(
            lambda d: d["result_reports"][0].update(reported_at="yesterday"),
            "result_reports[0].reported_at",
            id="bad-time",
        ),
        pytest.param(
            lambda d: d["result_reports"][0].update(status="lost"),
            "result_reports[0].status",
            id="bad-status",
        ),
    ],
)
def test_a_bad_key_refuses_the_import_naming_it(reported, director, change, named) -> None:  # type: ignore[no-untyped-def]
    document = copy.deepcopy(event_export_document(reported))
    change(document)
    events = Event.objects.count()
    with pytest.raises(ImportFailed, match=named.replace("[", r"\[").replace("]", r"\]")):
        event_import_document(text=json.dumps(document), user=director, slug="bad")
    assert Event.objects.count() == events


def test_player_links_prints_the_stable_json(event) -> None:  # type: ignore[no-untyped-def]
    out = io.StringIO()
    call_command("player_links", event.slug, stdout=out)
    document = json.loads(out.getvalue())
    assert document["event"] == event.slug
    assert [(p["start_no"], p["name"]) for p in document["players"]] == [
        (n, f"Player {n}") for n in range(1, 5)
    ]
    for player in document["players"]:
        assert player["url"] == url_of(event, player["start_no"])
        assert Client().get(player["url"]).status_code == 200
    again = io.StringIO()
    call_command("player_links", event.slug, stdout=again)
    assert json.loads(again.getvalue()) == document  # the links are issued once


def test_player_links_as_text_and_its_refusal(event) -> None:  # type: ignore[no-untyped-def]
    from tests.conftest import refused_in_one_line

    out = io.StringIO()
    call_command("player_links", event.slug, "--format", "text", stdout=out)
    lines = out.getvalue().splitlines()
    assert len(lines) == 4 and lines[0].split()[0] == "1" and lines[0].endswith(url_of(event, 1))
    assert "no-such-event" in refused_in_one_line("player_links", "no-such-event")
