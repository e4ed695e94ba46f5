"""``manage.py import_rating_list`` as an organiser runs it: its own process against the test
database (exit status, stdout, stderr), and through ``call_command``."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from ratings.models import RatingEntry, RatingList
from tests.conftest import manage_process
from tests.ratings.conftest import SMALL_LIST
from tests.ratings.test_parsers import COMBINED, COMBINED_HEADER, text, zipped


@pytest.fixture
def files(tmp_path):  # type: ignore[no-untyped-def]
    def write(name: str, data: str | bytes):  # type: ignore[no-untyped-def]
        path = tmp_path / name
        path.write_bytes(data.encode() if isinstance(data, str) else data)
        return path

    return write


@pytest.mark.django_db(transaction=True)
def test_the_command_imports_a_zip_and_prints_what_it_did_last(files) -> None:
    path = files("players_list.zip", zipped("players_list_foa.txt", SMALL_LIST))
    done = manage_process("import_rating_list", str(path), "--published", "2026-11")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "Imported FIDE, Nov 2026: 8 players"
    assert done.stderr == ""
    assert RatingList.objects.get().players == 8


@pytest.mark.django_db(transaction=True)
def test_skipped_lines_go_to_stderr_with_their_numbers(files) -> None:
    bad = COMBINED[2][:76] + "N0R " + COMBINED[2][80:]
    path = files("list.txt", text(COMBINED_HEADER, COMBINED[0], bad))
    done = manage_process("import_rating_list", str(path), "--name", "FIDE test")
    assert done.returncode == 0
    assert done.stderr.splitlines() == ["line 3: federation 'N0R' is not three letters (skipped)"]
    assert done.stdout.splitlines()[-1] == "Imported FIDE test: 1 players; 1 lines skipped"


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("args", "data", "message"),
    [
        pytest.param([], text("Name;Elo", "X;1"), "not a FIDE rating list", id="not-fide"),
        pytest.param(
            ["--column", "name=Nom"], text("Name;Elo", "X;1"), "no column 'Nom'", id="column"
        ),
        pytest.param(
            ["--column", "nom"], text("Name;Elo", "X;1"), "write FIELD=COLUMN", id="mapping"
        ),
        pytest.param(["--published", "November"], SMALL_LIST, "is not a month", id="month"),
    ],
)
def test_a_refused_file_exits_non_zero_with_one_line_and_changes_nothing(
    files, args, data, message
) -> None:  # type: ignore[no-untyped-def]
    path = files("list.txt", data)
    done = manage_process("import_rating_list", str(path), *args)
    assert done.returncode != 0
    assert len(done.stderr.strip().splitlines()) == 1 and message in done.stderr
    assert not RatingList.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_a_missing_file_is_one_line_too() -> None:
    done = manage_process("import_rating_list", "/nonexistent/players_list.zip")
    assert done.returncode != 0
    assert (
        done.stderr.strip() == "CommandError: cannot read /nonexistent/players_list.zip: "
        "No such file or directory"
    )


@pytest.mark.django_db
def test_a_national_list_by_its_columns(files) -> None:
    path = files("elo.csv", text("id\tname\trapid", "77\tLee, Ann\t1650"))
    out = io.StringIO()
    call_command(
        "import_rating_list",
        str(path),
        "--name",
        "Club",
        "--delimiter",
        "tab",
        "--column",
        "national_id=id",
        "--column",
        "name=2",
        "--column",
        "rapid=rapid",
        stdout=out,
    )
    assert out.getvalue().splitlines()[-1] == "Imported Club: 1 players"
    entry = RatingEntry.objects.get()
    assert (entry.name, entry.national_id, entry.rapid) == ("Lee, Ann", "77", 1650)


@pytest.mark.django_db
def test_preview_prints_the_first_players_and_imports_nothing(files) -> None:
    path = files("list.txt", SMALL_LIST)
    out, err = io.StringIO(), io.StringIO()
    call_command("import_rating_list", str(path), "--preview", stdout=out, stderr=err)
    lines = out.getvalue().splitlines()
    assert lines[0] == (
        "   1503014  Carlsen, Magnus  NOR m GM 1990  standard=2823 rapid=2801 blitz=2860"
    )
    assert len(lines) == 8 and not RatingList.objects.exists()


@pytest.mark.django_db
def test_call_command_raises_the_one_line_reason(files) -> None:
    path = files("list.txt", text("Name;Elo", "X;1"))
    with pytest.raises(CommandError, match=r"list\.txt: line 1: not a FIDE rating list"):
        call_command("import_rating_list", str(path))
