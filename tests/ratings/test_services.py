"""Importing a rating list (ratings/services.py) on PostgreSQL: COPY, replacing a list as a
whole, refusals that change nothing, and the old list answering while the new one loads."""

from __future__ import annotations

import io
import threading

import pytest
from django.db import connection

from events.errors import ImportFailed
from ratings import parsers
from ratings.models import RatingEntry, RatingList
from ratings.selectors import rating_list_search
from tests.ratings.conftest import SMALL_LIST, import_list, line
from tests.ratings.test_parsers import (
    COMBINED,
    COMBINED_HEADER,
    SINGLE,
    SINGLE_HEADER,
    text,
    zipped,
)

pytestmark = pytest.mark.django_db


def names(rating_list: RatingList) -> list[str]:
    return sorted(
        RatingEntry.objects.filter(rating_list=rating_list).values_list("name", flat=True)
    )


def test_an_import_stores_every_player_with_the_name_key_and_the_list_s_ratings(director) -> None:
    imported = import_list(SMALL_LIST, user=director)
    rating_list = imported.rating_list
    assert str(rating_list) == "FIDE"  # FIDE's combined list names itself
    assert rating_list.ratings == ("standard", "rapid", "blitz")
    assert (rating_list.players, imported.skipped, imported.replaced) == (8, 0, None)
    assert rating_list.imported_by == director and rating_list.layout == "fide-txt"
    oye = RatingEntry.objects.get(rating_list=rating_list, fide_id="1401234")
    assert (oye.name, oye.name_key, oye.standard, oye.rapid, oye.birth_year) == (
        "Øye, Åsmund",
        " oye asmund",
        2210,
        None,
        1975,
    )
    assert imported.summary() == "Imported FIDE: 8 players"


def test_a_single_list_is_named_and_dated_from_its_file() -> None:
    imported = import_list(text(SINGLE_HEADER, *SINGLE), filename="rapid_rating_list.txt")
    assert str(imported.rating_list) == "FIDE rapid, Jan 2023"
    assert imported.rating_list.ratings == ("rapid",)


def test_the_director_s_name_and_month_win() -> None:
    import datetime as dt

    imported = import_list(
        zipped("standard_rating_list.txt", text(SINGLE_HEADER, *SINGLE)),
        name="  FIDE   standard ",
        published=dt.date(2026, 11, 1),
        filename="standard_rating_list.zip",
    )
    assert str(imported.rating_list) == "FIDE standard, Nov 2026"
    assert imported.rating_list.source == "standard_rating_list.zip"


def test_a_re_import_replaces_the_players_of_the_list_of_that_name(fide_list) -> None:
    again = import_list(text(COMBINED_HEADER, COMBINED[1]), name="FIDE")
    assert again.rating_list.pk == fide_list.pk  # the same list: registration keeps its choice
    assert names(again.rating_list) == ["Ding, Liren"]
    assert (again.players, again.replaced) == (1, 8)
    assert again.summary() == "Replaced FIDE: 1 players (it had 8)"
    assert RatingList.objects.count() == 1


def test_another_name_is_another_list(fide_list) -> None:
    import_list(text(COMBINED_HEADER, COMBINED[1]), name="FIDE (old)")
    assert RatingList.objects.count() == 2 and len(names(fide_list)) == 8


def test_skipped_lines_are_counted_and_the_rest_imported(fide_list) -> None:
    bad = COMBINED[1][:76] + "N0R " + COMBINED[1][80:]
    imported = import_list(text(COMBINED_HEADER, COMBINED[0], bad, COMBINED[2]), name="FIDE")
    assert (imported.players, imported.skipped) == (2, 1)
    assert [str(p) for p in imported.first_skipped] == [
        "line 3: federation 'N0R' is not three letters"
    ]
    assert "1 lines skipped" in imported.summary()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        pytest.param(text("Name;Elo", "X;1"), "not a FIDE rating list", id="not-fide"),
        pytest.param(
            # Every line shifted two columns: a wrong layout, not a few odd lines.
            text(COMBINED_HEADER, *(("  " + row)[:162] for row in COMBINED * 50)),
            "150 of 150 lines could not be read",
            id="shifted-columns",
        ),
        pytest.param(text(COMBINED_HEADER), "no player could be read", id="empty"),
        pytest.param(
            "<playerslist>"
            + "<player><name>A</name><rating>2000</rating></player>" * 3
            + "<player><name>B</na",
            "not well-formed XML",
            id="xml-cut-after-some-players",
        ),
    ],
)
def test_a_refused_file_leaves_the_old_list_as_it_was(fide_list, data, message) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ImportFailed, match=message):
        import_list(data, name="FIDE")
    fide_list.refresh_from_db()
    assert fide_list.players == 8 and len(names(fide_list)) == 8


def test_the_row_cap_refuses_midway_and_changes_nothing(fide_list, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(parsers, "MAX_PLAYERS", 5)
    with pytest.raises(ImportFailed, match="more than 5 players"):
        import_list(SMALL_LIST, name="FIDE")
    assert len(names(fide_list)) == 8


def test_a_csv_list_needs_a_name() -> None:
    with pytest.raises(ImportFailed, match="name the list"):
        import_list(text("Name;Elo", "X;1"), mapping={"name": "Name", "standard": "Elo"})
    imported = import_list(
        text("Name;Elo", "Lee, Ann;1650"),
        name="Club list",
        mapping={"name": "Name", "standard": "Elo"},
    )
    assert imported.rating_list.layout == "csv" and imported.rating_list.ratings == ("standard",)


class _Paused(io.BytesIO):
    """A file that stops at the fourth read of its second pass (the first counts its bytes:
    ratings.parsers._survey), when the import has deleted the old players and is copying the
    new ones in its transaction, until the test lets it go on."""

    def __init__(self, data: bytes) -> None:
        super().__init__(data)
        self.reads, self.surveyed = 0, False
        self.started, self.go_on = threading.Event(), threading.Event()

    def read(self, size: int | None = -1) -> bytes:
        if self.surveyed:
            self.reads += 1
            if self.reads == 4:
                self.started.set()
                assert self.go_on.wait(30)
        data = super().read(size)
        self.surveyed = self.surveyed or not data
        return data


@pytest.mark.django_db(transaction=True)
def test_the_old_list_answers_until_the_new_one_is_in(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The re-import runs in another connection; meanwhile this one searches the old players."""
    monkeypatch.setattr(parsers, "CHUNK_BYTES", 200)  # a few players a read
    old = import_list(SMALL_LIST, name="FIDE").rating_list
    new_players = [line(str(3_000_000 + n), f"Carlsen, Newcomer {n}") for n in range(40)]
    source = _Paused(text(COMBINED_HEADER, *new_players).encode())
    failures: list[BaseException] = []

    def run() -> None:
        from ratings.services import rating_list_import

        try:
            rating_list_import(source=source, filename="players_list.txt", user=None, name="FIDE")
        except BaseException as exc:  # reported by the assertion below
            failures.append(exc)
        finally:
            connection.close()

    worker = threading.Thread(target=run)
    worker.start()
    assert source.started.wait(30)
    with connection.cursor() as cursor:  # the import is writing the players, uncommitted
        cursor.execute(
            "SELECT count(*) FROM pg_locks JOIN pg_class ON pg_class.oid = pg_locks.relation "
            "WHERE relname = 'ratings_ratingentry' AND mode = 'RowExclusiveLock' "
            "AND pid <> pg_backend_pid()"
        )
        assert cursor.fetchone()[0] >= 1
    during = rating_list_search(rating_list=old, query="carlsen", kind="standard")
    source.go_on.set()
    worker.join(30)
    assert not failures
    assert [hit.name for hit in during] == ["Carlsen, Henrik", "Carlsen, Magnus"]
    after = rating_list_search(rating_list=old, query="carlsen", kind="standard")
    assert len(after) == 20 and after[0].name.startswith("Carlsen, Newcomer")
