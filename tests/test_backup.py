"""Backup and restore (issue 9): export everything, wipe the database, import, and get the same
standings, prize sheets, access and audit history."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError

from events.backup import backup_import
from events.errors import ImportFailed
from events.exchange import event_import_document
from events.imports import event_import_trf
from events.models import AuditEntry, Event, EventAccess, Game
from events.services import access_grant, audit_undo, game_result_record
from formats.mso.models import MultiGame, MultiGameScore
from formats.mso.services import multi_game_scores_record
from tests.conftest import manage_process

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "examples"


def run(*args: str) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def outcome(*args: str) -> Any:
    """A command's JSON, or its refusal (a prize sheet of an unfinished event is refused)."""
    try:
        document = json.loads(run(*args))
    except CommandError as exc:
        return f"refused: {exc}"
    # The results version counts writes (it keys the caches): a restore makes its own.
    document.pop("results_version", None)
    return document


def _table_of(entry: AuditEntry) -> tuple[int, int] | None:
    """The multi-player table an entry changed (formats/mso links it), by round and board."""
    link = getattr(entry, "mso_table", None)
    if link is None or link.game is None:
        return None
    return (link.game.round.number, link.game.board)


def audit_history(event: Event) -> list[tuple[Any, ...]]:
    entries = list(
        AuditEntry.objects.filter(event=event)
        .select_related("user", "game__round", "mso_table__game__round")
        .order_by("id")
    )
    position = {entry.pk: i for i, entry in enumerate(entries)}
    return [
        (
            entry.at,
            entry.user.get_username() if entry.user else None,
            entry.action,
            entry.summary,
            entry.before,
            entry.after,
            (entry.game.round.number, entry.game.board) if entry.game else None,
            _table_of(entry),
            position.get(entry.undone_by_id),
        )
        for entry in entries
    ]


def snapshot() -> dict[str, Any]:
    state = {}
    for event in Event.objects.order_by("slug"):
        state[event.slug] = {
            "standings": outcome("standings", event.slug, "--format", "json"),
            "prizes": outcome("prizes", event.slug, "--format", "json"),
            "access": sorted(
                EventAccess.objects.filter(event=event).values_list("user__username", "role")
            ),
            "audit": audit_history(event),
        }
    return state


def a_season_of_work() -> None:
    """Every example event, a TRF import, arbiters, results entered, corrected and undone."""
    users = get_user_model().objects
    dora = users.create_user("dora", password="x", email="dora@example.org")
    users.create_user("arno", password="x")
    for path in sorted(EXAMPLES.glob("*.json")):
        event = event_import_document(text=path.read_text(), user=dora)
        access_grant(event=event, username="arno", role="arbiter", user=dora)
    swiss = event_import_trf(text=(EXAMPLES / "held-swiss-9.trf").read_text(), user=dora)
    access_grant(event=swiss, username="arno", role="arbiter", user=dora)
    arno = users.get(username="arno")
    game = Game.objects.filter(round__event=swiss).order_by("id").first()
    assert game is not None
    original = game.result
    game_result_record(game_id=game.pk, result="1/2-1/2", expected_version=None, user=arno)
    game_result_record(game_id=game.pk, result="0-1", expected_version=None, user=dora)
    last = AuditEntry.objects.filter(game=game).order_by("-id").first()
    assert last is not None
    audit_undo(event=game.round.event, entry_id=last.pk, user=dora)
    assert Game.objects.get(pk=game.pk).result == "1/2-1/2" != original
    # A multi-player table's scores corrected twice, the second correction undone (seed 003).
    table = MultiGame.objects.filter(round__event__slug="mso-settlers-2021").order_by("id").first()
    assert table is not None
    seats = list(MultiGameScore.objects.filter(game=table).order_by("seat"))
    for bonus in ("1", "2"):
        multi_game_scores_record(
            event=table.round.event,
            game_id=table.pk,
            scores=[(s.player.start_no, str((s.score or 0) + int(bonus))) for s in seats],
            expected_version=None,
            user=arno,
        )
    last = AuditEntry.objects.filter(mso_table__game=table).order_by("-id").first()
    assert last is not None
    audit_undo(event=table.round.event, entry_id=last.pk, user=dora)


@pytest.mark.django_db(transaction=True)
def test_export_all_wipe_import_all_gives_the_same_event_data(tmp_path):
    a_season_of_work()
    before = snapshot()
    backup = tmp_path / "backup.json"
    run("export_all", "--output", str(backup))

    call_command("flush", interactive=False, verbosity=0)  # the database is gone
    assert Event.objects.count() == 0 and get_user_model().objects.count() == 0

    slugs = run("import_all", str(backup)).split()
    assert sorted(slugs) == sorted(before)
    after = snapshot()
    for slug, was in before.items():
        now = after[slug]
        assert now["standings"] == was["standings"], slug
        assert now["prizes"] == was["prizes"], slug
        assert now["access"] == was["access"], slug
        # The restore is itself on the record, after the history as it was.
        assert now["audit"][:-1] == was["audit"], slug
        assert now["audit"][-1][2:4] == ("event.restore", "Restored from a backup")
    # Accounts come back without a usable password (set one with changepassword).
    dora = get_user_model().objects.get(username="dora")
    assert dora.email == "dora@example.org" and not dora.has_usable_password()


@pytest.mark.django_db
def test_a_backup_whose_event_exists_already_is_refused_whole():
    a_season_of_work()
    text = json.dumps(json.loads(run("export_all")))
    events, entries = Event.objects.count(), AuditEntry.objects.count()
    with pytest.raises(ImportFailed):
        backup_import(text=text)
    assert (Event.objects.count(), AuditEntry.objects.count()) == (events, entries)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "text", ["", "[]", '{"format": "tournament-event/1"}', '{"format": "tournament-backup/1", '
     '"events": [{"event": {}}]}']
)  # fmt: skip
def test_a_malformed_backup_is_refused_with_the_reason(text):
    with pytest.raises(ImportFailed):
        backup_import(text=text)
    assert Event.objects.count() == 0


def _backup_with(change: Any) -> str:
    """A small real backup (one example event with an undone correction), changed by
    ``change(document)``."""
    dora = get_user_model().objects.create_user("dora", password="x")
    event = event_import_document(text=(EXAMPLES / "demo-classical.json").read_text(), user=dora)
    game = Game.objects.filter(round__event=event).order_by("id").first()
    assert game is not None
    result = "1-0" if game.result == "1/2-1/2" else "1/2-1/2"
    game_result_record(game_id=game.pk, result=result, expected_version=None, user=dora)
    last = AuditEntry.objects.filter(game=game).order_by("-id").first()
    assert last is not None
    audit_undo(event=event, entry_id=last.pk, user=dora)
    document = json.loads(run("export_all"))
    call_command("flush", interactive=False, verbosity=0)
    change(document)
    return json.dumps(document)


def _set_undone_by(value: Any) -> Any:
    def change(document: dict[str, Any]) -> None:
        audit = document["events"][0]["audit"]
        undone = next(entry for entry in audit if entry["undone_by"] is not None)
        undone["undone_by"] = value

    return change


def _set_role(document: dict[str, Any]) -> None:
    document["events"][0]["access"][0]["role"] = "emperor"


def _approval(snapshot: Any, approved_by: Any = None) -> Any:
    def change(document: dict[str, Any]) -> None:
        document["events"][0]["prize_approvals"] = [
            {
                "results_version": 3,
                "approved_by": approved_by,
                "approved_at": "2026-01-01T00:00:00+00:00",
                "snapshot": snapshot,
            }
        ]

    return change


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("change", "reason"),
    [
        pytest.param(_set_role, "access[0].role: 'emperor' is not one of", id="unknown-role"),
        pytest.param(_set_undone_by(999), "undone_by: 999 is not a later entry", id="999"),
        pytest.param(_set_undone_by(-1), "undone_by: -1 is not a later entry", id="minus-1"),
        pytest.param(_set_undone_by(0), "undone_by: 0 is not a later entry", id="earlier"),
        pytest.param(_set_undone_by("1"), "undone_by: expected an integer", id="text"),
        pytest.param(
            _approval({"rows": 5}),
            "prize_approvals[0].snapshot: not a prize sheet",
            id="approval-of-no-sheet",
        ),
        pytest.param(
            _approval({}, approved_by="mallory"),
            "prize_approvals[0].approved_by: 'mallory' is not one of the backup's accounts",
            id="approval-by-a-stranger",
        ),
    ],
)
def test_import_all_refuses_a_bad_role_undo_link_or_approval_in_one_line(
    tmp_path: Path, change: Any, reason: str
) -> None:
    """Issue 19: an unknown role was a 69-line traceback, ``undone_by`` 999 a bare IndexError,
    and -1 was accepted (the entry linked to another one). Now one line, nothing written; the
    same for an approved sheet that is no sheet (its page would fail) or names a stranger."""
    path = tmp_path / "backup.json"
    path.write_text(_backup_with(change))
    process = manage_process("import_all", str(path))
    assert process.returncode != 0
    assert len(process.stderr.strip().splitlines()) == 1, process.stderr
    assert reason in process.stderr and "events[0] (demo-classical):" in process.stderr
    assert "Traceback" not in process.stderr
    assert Event.objects.count() == 0 and AuditEntry.objects.count() == 0
    assert get_user_model().objects.count() == 0


@pytest.mark.django_db(transaction=True)
def test_an_approval_by_someone_without_a_role_in_the_event_is_restored() -> None:
    """Every account a backup names is in its accounts: here a superuser approved the sheet."""
    from prizes.models import PrizeSheetApproval
    from prizes.services import prize_sheet_approve

    sam = get_user_model().objects.create_superuser("sam", password="x")
    event = event_import_trf(text=(EXAMPLES / "held-swiss-9.trf").read_text(), user=None)
    prize_sheet_approve(event=event, user=sam)
    text = run("export_all")
    call_command("flush", interactive=False, verbosity=0)
    backup_import(text=text)
    approval = PrizeSheetApproval.objects.select_related("approved_by").get()
    assert approval.approved_by is not None and approval.approved_by.username == "sam"
    assert approval.approved_by.is_superuser and not approval.approved_by.has_usable_password()


def accounts_as_they_are() -> list[tuple[Any, ...]]:
    """Every account with what it may do (its password aside), by username."""
    return [
        (
            user.username,
            user.email,
            user.first_name,
            user.last_name,
            user.is_active,
            user.is_staff,
            user.is_superuser,
            sorted(user.groups.values_list("name", flat=True)),
            sorted(user.get_all_permissions()),
        )
        for user in get_user_model().objects.order_by("username")
    ]


@pytest.mark.django_db(transaction=True)
def test_a_restore_gives_back_every_account_and_every_permission(tmp_path: Path) -> None:
    """Issue 29: a superuser with no role in any event was not in the backup, and the
    director's permission to manage rating lists was lost. Every account comes back, active
    or not, with its flags, groups and permissions; none with a usable password."""
    from django.contrib.auth.models import Group, Permission

    users = get_user_model().objects
    users.create_superuser("root", password="x", email="root@example.org")
    dora = users.create_user("dora", password="x", first_name="Dora", last_name="Director")
    dora.user_permissions.add(Permission.objects.get(codename="manage_rating_lists"))
    desk = Group.objects.create(name="results desk")
    desk.permissions.add(Permission.objects.get(codename="view_auditentry"))
    users.create_user("arno", password="x").groups.add(desk)
    users.create_user("gone", password="x", is_active=False)
    event = event_import_document(text=(EXAMPLES / "demo-classical.json").read_text(), user=dora)
    access_grant(event=event, username="arno", role="arbiter", user=dora)
    before = accounts_as_they_are()
    assert ("ratings.manage_rating_lists" in before[1][-1]) and before[1][0] == "dora"
    backup = tmp_path / "backup.json"
    run("export_all", "--output", str(backup))

    call_command("flush", interactive=False, verbosity=0)
    run("import_all", str(backup))
    assert accounts_as_they_are() == before
    assert users.get(username="dora").has_perm("ratings.manage_rating_lists")
    assert not any(user.has_usable_password() for user in users.all())


def _accounts_with_permissions(count: int) -> None:
    from django.contrib.auth.models import Group, Permission

    desk, _ = Group.objects.get_or_create(name="results desk")
    desk.permissions.add(Permission.objects.get(codename="view_auditentry"))
    manage = Permission.objects.get(codename="manage_rating_lists")
    users = get_user_model().objects
    for number in range(users.count(), users.count() + count):
        user = users.create_user(f"user{number}", password="x")
        user.user_permissions.add(manage)
        user.groups.add(desk)


@pytest.mark.django_db
def test_the_accounts_cost_the_backup_the_same_queries_however_many_they_are() -> None:
    """Each account's permissions and groups are read with all the others', not one query each
    (export and restore alike)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from events.backup import backup_export

    def queries() -> tuple[int, int]:
        """The backup's queries, and the restore's reads of the permissions."""
        with CaptureQueriesContext(connection) as exported:
            document = backup_export()
        get_user_model().objects.all().delete()
        with CaptureQueriesContext(connection) as restored:
            backup_import(text=json.dumps(document))
        # A permission looked up by its name, one query each (what the restore must not do).
        reads = [q for q in restored.captured_queries if '"codename" = ' in q["sql"]]
        return len(exported), len(reads)

    _accounts_with_permissions(2)
    few = queries()
    _accounts_with_permissions(8)
    assert get_user_model().objects.count() == 10
    assert queries() == few
    assert all(
        user.has_perm("ratings.manage_rating_lists") for user in get_user_model().objects.all()
    )


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("where", "value", "reason"),
    [
        pytest.param(
            "permissions", ["ratings.rule_the_world"],
            "accounts[0].permissions[0]: 'ratings.rule_the_world' is no permission",
            id="unknown-permission",
        ),
        pytest.param(
            "groups", ["wizards"], "accounts[0].groups[0]: 'wizards' is not one of the backup's",
            id="unknown-group",
        ),
        pytest.param(
            "groups", [["wizards"]], "accounts[0].groups[0]: expected a string", id="group-not-text"
        ),
        pytest.param(
            "email", "x" * 300, "accounts[0].email: 300 characters is too long", id="long-email"
        ),
    ],
)  # fmt: skip
def test_import_all_refuses_an_account_it_cannot_restore_in_one_line(
    tmp_path: Path, where: str, value: Any, reason: str
) -> None:
    document = json.loads(_backup_with(lambda document: None))
    document["accounts"][0][where] = value
    path = tmp_path / "backup.json"
    path.write_text(json.dumps(document))
    process = manage_process("import_all", str(path))
    assert process.returncode != 0 and "Traceback" not in process.stderr
    assert len(process.stderr.strip().splitlines()) == 1 and reason in process.stderr
    assert get_user_model().objects.count() == 0 and Event.objects.count() == 0


@pytest.mark.django_db(transaction=True)
def test_a_bridge_correction_still_names_its_match_after_a_restore() -> None:
    """GNOT audit entries name their match by its number (formats/gnot/corrections.py); the
    restored match has another, so the backup names it by session, round and table."""
    from formats.gnot.models import TeamMatch
    from formats.gnot.services import ScoreInput, match_result_record

    dora = get_user_model().objects.create_user("dora", password="x")
    event = event_import_document(text=(EXAMPLES / "gnot-2012.json").read_text(), user=dora)
    TeamMatch.objects.create(  # an unrelated row first, so that the restored numbers differ
        event=event, session="5", round=9, table=99, home=event.teams.first(),
        away=event.teams.last(), boards=8,
    )  # fmt: skip
    row = TeamMatch.objects.filter(event=event, home_imps__isnull=False).order_by("pk").last()
    assert row is not None and row.home_imps is not None and row.away_imps is not None
    score = ScoreInput(home_imps=row.home_imps + 1, away_imps=row.away_imps)
    match_result_record(event=event, match_id=row.pk, score=score, user=dora)
    place = (row.session, row.round, row.table)
    text = run("export_all")
    call_command("flush", interactive=False, verbosity=0)
    backup_import(text=text)
    restored = TeamMatch.objects.get(session=place[0], round=place[1], table=place[2])
    assert restored.pk != row.pk
    entry = AuditEntry.objects.get(action="gnot.result")
    assert entry.before["match"] == entry.after["match"] == restored.pk
