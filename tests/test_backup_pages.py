"""Issue 19, "A backup restores everything": the demo with every setting an event can carry
changed, backed up (``export_all``), the database emptied, restored (``import_all``): every page
a director sees reads, text for text, as it did.

The pages are enumerated from the URL resolver (every GET a director may make, for every
event, every round and every GNOT match and session), so a page added later is compared too.
What is normalised, and why (nothing else is):

- the CSRF token (new per session);
- database ids inside links and form fields (``/games/812/result/``): rows restored into an
  empty database get new ids; the link's text and its target page are compared all the same;
- a game's or match's ``version`` in its result form: a per-row count of writes that only
  detects two people saving the same row; the restore writes each row afresh (a form loaded
  before the restore is refused as a conflict, the safe side). The event's results version,
  which pages show, is compared as it is;
- the restore's own audit entry (``event.restore``), the last line of the audit log: the
  restore is itself on the record;
- the PDFs are made in reportlab's invariant mode (no moment of making, no random file id in
  them), so that they are compared byte for byte: their digest stands for them, and a PDF that
  differs is shown by its text.
"""

from __future__ import annotations

import datetime as dt
import difflib
import hashlib
import io
import re
from collections.abc import Iterator
from decimal import Decimal
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import models
from django.test import Client
from django.urls import reverse

from events.models import Event
from tests.test_permission_matrix import ACCESS, ROUTES, Route

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


# -- What a director sees, as text -------------------------------------------------------------

ID_IN_PATH = re.compile(r"/(games|matches|audit|undo|byes|forbidden|scores)/[0-9]+/")

ID_MARK = r"/\1/ID/"


class PageText(HTMLParser):
    """The visible text of a page, and the state of its forms and links."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag in ("script", "style"):
            self._skip += 1
        name = values.get("name")
        if tag == "input" and name != "csrfmiddlewaretoken":
            checked = " checked" if "checked" in values else ""
            value = "ROW" if name == "version" else values.get("value")
            self.parts.append(f"[{name}={value}{checked}]")
        if tag == "option" and "selected" in values:
            self.parts.append(f"[selected {values.get('value')}]")
        for attribute in ("href", "action", "hx-get", "hx-post"):
            target = values.get(attribute)
            if target:
                self.parts.append(f"[{attribute} {ID_IN_PATH.sub(ID_MARK, target)}]")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip and data.strip():
            self.parts.append(" ".join(data.split()))


PDFS: dict[str, bytes] = {}  # digest -> the PDF, to show the text of one that differs


def page_text(response: Any) -> str:
    kind = response.get("Content-Type", "")
    body = response.content
    if "pdf" in kind:
        # Extracting the text of 400 PDFs took a quarter of the test's time; the bytes say more.
        digest = hashlib.sha256(body).hexdigest()
        PDFS[digest] = body
        return f"PDF {digest}"
    if "spreadsheetml" in kind:
        return xlsx_text(body)
    if "html" not in kind:
        return body.decode()
    parser = PageText()
    parser.feed(body.decode())
    return "\n".join(parser.parts)


def pdf_text(body: bytes) -> str:
    """The strings reportlab drew (the content streams), without the file's metadata."""
    from pypdf import PdfReader

    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(body)).pages)


def xlsx_text(body: bytes) -> str:
    from openpyxl import load_workbook

    workbook = load_workbook(io.BytesIO(body))
    return "\n".join(
        repr([cell.value for cell in row]) for sheet in workbook for row in sheet.iter_rows()
    )


# -- Every page ------------------------------------------------------------------------------


def director_pages(route: Route) -> bool:
    access = ACCESS.get(route.key)
    return access is not None and access.get.get("director") == 200


def _params(route: Route, event: Event) -> Iterator[dict[str, Any]]:
    from formats.gnot.models import TeamMatch
    from formats.gnot.selectors import KNOCKOUT_ORDER

    if route.params == ("slug",):
        yield {"slug": event.slug}
    elif route.params == ("slug", "number"):
        for number in range(1, event.rounds + 1):
            yield {"slug": event.slug, "number": number}
    elif route.params in (("slug", "fmt"), ("slug", "start_no"), ("slug", "team_no")):
        yield from _one_of_each(route.params[1], event)
    elif route.params == ("slug", "match_id"):
        for match in TeamMatch.objects.filter(event=event).order_by(
            "session", "round", "stage", "table", "half"
        ):
            yield {"slug": event.slug, "match_id": match.pk}
    elif route.params == ("slug", "code") and route.key.startswith("gnot:"):
        for code in KNOCKOUT_ORDER if TeamMatch.objects.filter(event=event).exists() else ():
            yield {"slug": event.slug, "code": code}
    else:
        raise AssertionError(f"{route.key}: say how to fill {route.params}")


def _one_of_each(param: str, event: Event) -> Iterator[dict[str, Any]]:
    """Every export format; every team's page (a chess team event's); the first player's
    page (a player's edit page: issue 20)."""
    from formats.teams.models import Team as ChessTeam

    if param == "fmt":
        values: list[Any] = ["csv", "xlsx", "json"]
    elif param == "team_no":
        values = list(ChessTeam.objects.filter(event=event).values_list("team_no", flat=True))
    else:
        values = list(event.players.order_by("start_no").values_list("start_no", flat=True)[:1])
    for value in values:
        yield {"slug": event.slug, param: value}


def pages(director: Any) -> dict[str, str]:
    client = Client()
    client.force_login(director)
    seen: dict[str, str] = {}
    for route in ROUTES:
        if not director_pages(route) or "slug" not in route.params:
            # Pages of no event (a password link's page takes its own token: none to restore).
            if director_pages(route) and not route.route.startswith("admin") and not route.params:
                response = client.get(reverse(route.key))
                seen[route.key] = f"{response.status_code}\n{page_text(response)}"
            continue
        targets = (
            Event.objects.order_by("slug") if not route.route.startswith("series/") else [None]
        )
        for event in targets:
            params = [{"slug": "demo-tour"}] if event is None else list(_params(route, event))
            for kwargs in params:
                url = reverse(route.key, kwargs=kwargs)
                response = client.get(url)
                seen[f"{route.key} {kwargs}"] = f"{response.status_code}\n{page_text(response)}"
    return seen


# -- The demo with every setting changed -------------------------------------------------------


def _armageddon_toss(event: Event, director: Any) -> None:
    """The Armageddon game waiting for its coin toss (seed 000 2.5.3) gets one."""
    from playoffs.selectors import event_playoff
    from playoffs.services import coin_toss_record

    plan = event_playoff(event)
    assert plan is not None
    for stage_no, stage in enumerate(plan.stages, 1):
        for game_no, game in enumerate(stage.games, 1):
            if stage.kind == "armageddon" and game.result is None:
                coin_toss_record(
                    event=event,
                    stage=stage_no,
                    game=game_no,
                    toss_winner=game.players[1],
                    choice="black",
                    user=director,
                )
                return
    raise AssertionError("the demo's Armageddon game has no toss to record")


def every_setting_changed() -> None:
    """What a director can set on an event beyond its games: prize settings, categories,
    approved sheets (twice, the first one outdated), closed events, a confirmed playoff with a
    coin toss, access for another arbiter, a Swiss bye request and a forbidden pair, and two
    drawings of lots."""
    from draws.swiss.services import bye_request_record, forbidden_pair_add
    from events.services import access_grant, event_close
    from playoffs.services import playoff_confirm
    from prizes.services import prize_category_save, prize_settings_set, prize_sheet_approve

    director = get_user_model().objects.get(username="director")
    get_user_model().objects.create_user("vera", email="vera@example.org")
    event = {e.slug: e for e in Event.objects.all()}
    prize_settings_set(
        event=event["demo-classical"],
        split_rule="hort",
        rounding="largest-remainder",
        unit=Decimal("10"),
        user=director,
    )
    for slug in ("demo-classical", "demo-swiss"):
        prize_category_save(
            event=event[slug],
            code="women",
            name="Best woman",
            conditions=[{"field": "sex", "op": "eq", "value": "w"}],
            amounts=["500", "250"],
            user=director,
        )
    playoff_confirm(
        event=event["demo-classical"], user=director, last_round_date=dt.date(2019, 8, 26)
    )
    _armageddon_toss(event["demo-rapid-blitz"], director)
    for slug in ("demo-swiss", "cohen-club-night"):
        prize_sheet_approve(event=event[slug], user=director)
    prize_settings_set(
        event=event["demo-swiss"], split_rule="equal", rounding="floor", unit=None, user=director
    )
    prize_sheet_approve(event=event["demo-swiss"], user=director)
    for slug in ("demo-swiss", "cohen-club-night", "mso-settlers-2021"):
        event_close(event=event[slug], user=director)
    access_grant(event=event["swiss-open"], username="vera", role="arbiter", user=director)
    bye_request_record(
        event=event["swiss-open"], start_no=7, round_no=5, kind="half", user=director
    )
    forbidden_pair_add(
        event=event["swiss-open"], first=3, second=30, reason="club mates", user=director
    )
    _drawings_of_lots(director)
    _bridge_result_corrected(event["gnot-2012"], director)
    _players_reports(event["swiss-open"], director)
    _tournament_records_set(event["swiss-open"], director)


def _players_reports(event: Event, director: Any) -> None:
    """The player's page (issue 21): a revoked and a re-issued link, a policy, reports (round 4
    has its results: they are the late reports the arbiter sees)."""
    from playerpage.models import PlayerLink
    from playerpage.services import (
        player_link_reissue,
        player_link_revoke,
        reporting_policy_set,
        result_report_submit,
    )

    player_link_revoke(event=event, start_no=2, user=director)
    player_link_reissue(event=event, start_no=3, user=director)
    reporting_policy_set(event=event, policy="arbiter", user=director)
    for start_no in (1, 4):
        token = PlayerLink.objects.get(player__event=event, player__start_no=start_no).token
        result_report_submit(token=token, result="1-0")


def _tournament_records_set(event: Event, director: Any) -> None:
    """The rating report's tournament records (issue 20): its settings page shows them all."""
    from events.services import EventFields, TournamentRecords, event_update

    start = event.start_date or dt.date(2026, 4, 1)
    fields = EventFields(
        name=event.name,
        system=event.system,
        time_control=event.time_control,
        rounds=event.rounds,
        start_date=start,
        preset=event.regulation.preset,
        overrides=event.regulation.overrides,
        currency=event.currency,
        site="Tromsø",
        records=TournamentRecords(
            federation="NOR",
            end_date=start + dt.timedelta(days=8),
            tournament_type="Individual: Swiss-System",
            chief_arbiter="IA Kari Nordmann",
            deputy_arbiters=("FA Ola Nordmann", "Per Hansen"),
            rate_of_play="90'/40+30'+30\"",
            round_dates=(start, None, start + dt.timedelta(days=2)),
        ),
    )
    event_update(event=event, fields=fields, user=director)


def _bridge_result_corrected(event: Event, director: Any) -> None:
    """A GNOT match's IMPs corrected (the winner's margin one more): its page lists the change
    with its undo, by the match's number in the audit entry (formats/gnot/corrections.py)."""
    from formats.gnot.models import TeamMatch
    from formats.gnot.services import ScoreInput, match_result_record

    played = TeamMatch.objects.filter(event=event, home_imps__isnull=False, away_imps__isnull=False)
    row = played.filter(home_imps__gt=models.F("away_imps")).order_by("-session", "-round").first()
    assert row is not None and row.home_imps is not None and row.away_imps is not None
    match_result_record(
        event=event,
        match_id=row.pk,
        score=ScoreInput(home_imps=row.home_imps + 1, away_imps=row.away_imps),
        user=director,
    )


def _drawings_of_lots(director: Any) -> None:
    """Two round robins of ten (seed 001): one drawn by the computer and scheduled from the
    draw, one half-way through a physical ceremony."""
    from draws.services import draw_entry_record, draw_perform, schedule_create
    from tests.draws.test_services import CEREMONY, make_field

    drawn = make_field(director, name="Varma Cup")
    draw_perform(event=drawn, user=director)
    schedule_create(event=drawn, user=director)
    held = make_field(director, name="Envelope Night", lots_seed="envelope-night")
    for start_no, envelope, number in CEREMONY[:4]:
        draw_entry_record(
            event=held, start_no=start_no, envelope=envelope, number=number, user=director
        )


def who_and_when() -> dict[str, list[tuple[Any, ...]]]:
    """The records of who did what and when that no page shows (the confirmation's moment)."""
    from draws.models import DrawCeremony
    from formats.cohen.models import CohenStage
    from playerpage.models import PlayerLink, ReportingPolicy, ResultReport
    from playoffs.models import ArbiterDecision, CoinToss, PlayoffState
    from prizes.models import PrizeSheetApproval, Series

    def rows(model: Any, *fields: str) -> list[tuple[Any, ...]]:
        return sorted(model.objects.values_list(*fields), key=repr)

    return {
        "events": rows(Event, "slug", "status", "results_version"),
        "confirmations": rows(
            PlayoffState, "event__slug", "confirmed_by__username", "confirmed_at", "tied"
        ),
        "tosses": rows(CoinToss, "event__slug", "stage", "game", "recorded_by__username",
                       "recorded_at"),
        "decisions": rows(ArbiterDecision, "event__slug", "decided_by__username", "decided_at"),
        "approvals": rows(PrizeSheetApproval, "event__slug", "results_version",
                          "approved_by__username", "approved_at", "snapshot"),
        "advancements": rows(CohenStage, "event__slug", "name", "advanced_by__username",
                             "advanced_at"),
        "ceremonies": rows(DrawCeremony, "event__slug", "mode", "status", "completed_at",
                           "schedule_created"),
        "series": rows(Series, "slug", "name", "created_by__username", "created_at",
                       "events__slug"),
        "player_links": rows(PlayerLink, "player__event__slug", "player__start_no", "token",
                             "active"),
        "reporting": rows(ReportingPolicy, "event__slug", "policy"),
        "reports": rows(ResultReport, "game__round__event__slug", "game__round__number",
                        "game__board", "player__start_no", "result", "reported_at", "source",
                        "status"),
    }  # fmt: skip


def without_the_restore(text: str) -> str:
    """The audit log less the restore's own entry (its time, "system", its summary)."""
    lines = text.splitlines()
    at = lines.index("Restored from a backup")
    assert lines[at - 1] == "system" and re.fullmatch(r"[0-9-]+ [0-9:]+", lines[at - 2])
    assert "Restored from a backup" not in lines[at + 1 :]
    return "\n".join(lines[: at - 2] + lines[at + 1 :])


def readable(text: str) -> str:
    """A page's text for a difference: a PDF by the text it draws."""
    if text.startswith("PDF ") and text[4:] in PDFS:
        return pdf_text(PDFS[text[4:]])
    return text


@pytest.fixture
def invariant_pdfs(monkeypatch: pytest.MonkeyPatch) -> None:
    """reportlab writes no creation date and no random document id: the same PDF twice is the
    same bytes."""
    from reportlab import rl_config

    monkeypatch.setattr(rl_config, "invariant", 1)


@pytest.mark.usefixtures("invariant_pdfs")
def test_a_restore_gives_back_every_page_a_director_sees(tmp_path: Path) -> None:
    # Ids from 1, as after the flush below: the pages name rows by id (a match's address), and
    # the tests before this one in the same run moved the sequences on (they roll back their
    # rows, not their sequences).
    call_command("flush", interactive=False, verbosity=0)
    call_command("load_demo", stdout=io.StringIO())
    every_setting_changed()
    users = get_user_model().objects
    before = pages(users.get(username="director"))
    records = who_and_when()
    # Some of each (no demo playoff reaches the chief arbiter's decision, seed 000 3.5).
    assert all(rows for kind, rows in records.items() if kind != "decisions"), records
    backup = tmp_path / "backup.json"
    call_command("export_all", "--output", str(backup))
    call_command("flush", interactive=False, verbosity=0)  # the database is gone
    assert Event.objects.count() == 0
    call_command("import_all", str(backup), stdout=io.StringIO())
    # Rating lists are the federation's files, imported again after a restore
    # (docs/operations.md, "Backups"): the players pages offer the type-ahead once one is there.
    call_command("load_demo_ratings", stdout=io.StringIO())
    after = pages(users.get(username="director"))
    # The rating lists' own page says when each list was imported: now, again.
    before.pop("ratings:lists"), after.pop("ratings:lists")
    assert who_and_when() == records
    for key, text in after.items():
        if key.startswith("events:audit_log "):
            after[key] = without_the_restore(text)
    assert sorted(after) == sorted(before)
    differences = [
        f"### {key}\n"
        + "\n".join(
            difflib.unified_diff(
                readable(before[key]).splitlines(), readable(after[key]).splitlines(), lineterm=""
            )
        )
        for key in before
        if before[key] != after[key]
    ]
    assert not differences, "\n\n".join(differences)[:20000]
