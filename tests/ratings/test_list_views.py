"""The rating lists page (ratings/views.py ``lists``): importing by upload, with a preview and a
CSV column mapping; replacing and deleting; the refusals, in one line where the director is."""

from __future__ import annotations

import random
import re
import string

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from ratings.models import RatingEntry, RatingList
from ratings.views import MAX_UPLOAD_BYTES
from tests.ratings.conftest import SMALL_LIST
from tests.ratings.test_parsers import COMBINED, COMBINED_HEADER, text, zipped

pytestmark = pytest.mark.django_db

URL = "/rating-lists/"


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):  # type: ignore[no-untyped-def]
    settings.MEDIA_ROOT = tmp_path  # the previewed files are kept here


def upload(name: str, data: str | bytes) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data.encode() if isinstance(data, str) else data)


def errors(response) -> str:  # type: ignore[no-untyped-def]
    body = response.content.decode()
    return " ".join(re.findall(r'<ul class="errorlist[^>]*>(.*?)</ul>', body, re.S))


def test_a_manager_imports_fide_s_zip_as_downloaded(manager, client_for) -> None:
    client = client_for(manager)
    response = client.post(
        URL,
        {"file": upload("players_list.zip", zipped("players_list_foa.txt", SMALL_LIST))},
        follow=True,
    )
    assert response.redirect_chain == [(URL, 302)]
    body = response.content.decode()
    assert "Imported FIDE: 8 players" in body
    rating_list = RatingList.objects.get()
    assert (rating_list.players, rating_list.source, rating_list.imported_by) == (
        8,
        "players_list.zip",
        manager,
    )
    assert '<td>FIDE</td><td class="num">8</td><td>standard, rapid, blitz</td>' in body


def test_a_re_upload_replaces_the_list_and_says_so(manager, client_for, fide_list) -> None:
    response = client_for(manager).post(
        URL,
        {
            "file": upload("players_list_foa.txt", text(COMBINED_HEADER, COMBINED[0])),
            "name": "FIDE",
        },
        follow=True,
    )
    assert "Replaced FIDE: 1 players (it had 8)" in response.content.decode()
    assert RatingEntry.objects.filter(rating_list=fide_list).count() == 1


def test_skipped_lines_are_listed_after_the_import(manager, client_for) -> None:
    bad = COMBINED[1][:113] + "28x3  " + COMBINED[1][119:]
    response = client_for(manager).post(
        URL,
        {"file": upload("players_list_foa.txt", text(COMBINED_HEADER, COMBINED[0], bad))},
        follow=True,
    )
    body = response.content.decode()
    assert "Imported FIDE: 1 players; 1 lines skipped" in body
    assert "Skipped line 3: standard rating &#x27;28x3&#x27; is not a number from 0 to 4000" in body


def test_a_national_list_is_previewed_with_its_mapping_then_imported_without_a_second_upload(
    manager, client_for
) -> None:
    client = client_for(manager)
    csv = text(
        "Mitgliedsnr;Nachname;Vorname;Geburtsjahr;DWZ",
        "10234;Müller;Jörg;1968;1875",
        "10235;=Schmidt;Anna;2001;1502",
    )
    mapping = {
        "csv": "on",
        "column_national_id": "Mitgliedsnr",
        "column_surname": "Nachname",
        "column_first_name": "Vorname",
        "column_birth_year": "Geburtsjahr",
        "column_standard": "DWZ",
    }
    preview = client.post(
        URL, {"file": upload("dwz.csv", csv), "name": "DWZ", "preview": "1", **mapping}
    )
    body = preview.content.decode()
    assert preview.status_code == 200
    assert "<td>Müller, Jörg</td>" in body and "1875" in body
    assert "columns: Mitgliedsnr, Nachname, Vorname, Geburtsjahr, DWZ" in body
    assert "line 3: &#x27;=Schmidt, Anna&#x27; is not a name" in body
    assert not RatingList.objects.exists()  # a preview imports nothing
    key = re.search(r'name="upload" value="([\w-]+)"', body)
    assert key is not None and 'name="upload_name" value="dwz.csv"' in body

    imported = client.post(
        URL,
        {"upload": key.group(1), "upload_name": "dwz.csv", "name": "DWZ", **mapping},
        follow=True,
    )
    assert "Imported DWZ: 1 players; 1 lines skipped" in imported.content.decode()
    entry = RatingEntry.objects.get()
    assert (entry.name, entry.national_id, entry.standard, entry.birth_year) == (
        "Müller, Jörg",
        "10234",
        1875,
        1968,
    )
    again = client.post(URL, {"upload": key.group(1), "name": "DWZ", **mapping})
    assert "The previewed file is gone: choose it again." in again.content.decode()


def test_a_tab_separated_list_by_column_numbers(manager, client_for) -> None:
    data = text("id\tname\trapid", "77\tLee, Ann\t1650")
    fields = {
        "csv": "on",
        "delimiter": "tab",
        "column_national_id": "1",
        "column_name": "2",
        "column_rapid": "3",
        "name": "Club",
    }
    response = client_for(manager).post(
        URL, {"file": upload("club.tsv", data), **fields}, follow=True
    )
    assert "Imported Club: 1 players" in response.content.decode()
    entry = RatingEntry.objects.get()
    assert (entry.name, entry.national_id, entry.rapid) == ("Lee, Ann", "77", 1650)


def test_another_user_cannot_use_a_previewed_file(manager, client_for, django_user_model) -> None:
    from django.contrib.auth.models import Permission

    client = client_for(manager)
    preview = client.post(
        URL, {"file": upload("players_list_foa.txt", SMALL_LIST), "preview": "1"}
    ).content.decode()
    key = re.search(r'name="upload" value="([\w-]+)"', preview).group(1)  # type: ignore[union-attr]
    other = django_user_model.objects.create_user("olga-other-manager", password="x")
    other.user_permissions.add(Permission.objects.get(codename="manage_rating_lists"))
    response = client_for(other).post(URL, {"upload": key})
    assert "The previewed file is gone: choose it again." in response.content.decode()
    assert not RatingList.objects.exists()


@pytest.mark.parametrize(
    ("data", "fields", "message"),
    [
        pytest.param(text("Name;Elo", "X;1"), {}, "not a FIDE rating list", id="csv-unmapped"),
        pytest.param(
            text("Name;Elo", "X;1"),
            {"csv": "on", "column_name": "Nom"},
            "no column &#x27;Nom&#x27; (the columns are: Name, Elo)",
            id="wrong-column",
        ),
        pytest.param(
            text("Name;Elo", "X;1"),
            {"csv": "on", "column_name": "Name", "name": ""},
            "name the list",
            id="csv-without-name",
        ),
        pytest.param(SMALL_LIST, {"published": "2026-13"}, "is not a month", id="month"),
        pytest.param(
            text(COMBINED_HEADER, *(("  " + line)[:162] for line in COMBINED * 40)),
            {},
            "120 of 120 lines could not be read",
            id="wrong-layout",
        ),
    ],
)
def test_a_refused_upload_says_why_in_one_line_and_changes_nothing(
    manager, client_for, fide_list, data, fields, message
) -> None:  # type: ignore[no-untyped-def]
    response = client_for(manager).post(
        URL, {"file": upload("list.txt", data), "name": fields.pop("name", "FIDE"), **fields}
    )
    assert response.status_code == 400
    assert message in errors(response)
    assert RatingList.objects.get() == fide_list
    assert RatingEntry.objects.filter(rating_list=fide_list).count() == 8


def test_a_file_over_the_limit_is_refused_before_it_is_read(manager, client_for) -> None:
    response = client_for(manager).post(
        URL, {"file": upload("big.zip", b"PK")}, CONTENT_LENGTH=str(MAX_UPLOAD_BYTES + 10**6)
    )
    assert response.status_code == 413
    assert "the limit is 128 MB" in errors(response)
    assert not RatingList.objects.exists()


def test_three_million_one_field_lines_are_refused_before_a_line_is_read(
    manager, client_for, fide_list, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    """Issue 29, the red team's file: a 2.6 MB zip of a national list with 3 million and one
    one-letter names held a worker 48.7 s (every name parsed and copied) before the player cap
    refused it. The bytes are counted first: no line is parsed, no row written."""
    from ratings import parsers

    monkeypatch.setattr(parsers, "_player", lambda *args: pytest.fail("a line was parsed"))
    names = random.Random(29).choices(string.ascii_letters, k=parsers.MAX_PLAYERS + 1)
    data = zipped("list.csv", "name\n" + "\n".join(names) + "\n")
    assert 2.5e6 < len(data) < 3e6
    response = client_for(manager).post(
        URL, {"file": upload("names.zip", data), "name": "FIDE", "csv": "on", "column_name": "name"}
    )
    assert response.status_code == 400
    assert "more than 3,000,000 players: refused (over 3,000,001 lines" in errors(response)
    assert RatingEntry.objects.filter(rating_list=fide_list).count() == 8


def test_a_manager_deletes_a_list(manager, client_for, fide_list) -> None:
    response = client_for(manager).post(f"/rating-lists/{fide_list.pk}/delete/", follow=True)
    assert "Deleted FIDE." in response.content.decode()
    assert not RatingList.objects.exists() and not RatingEntry.objects.exists()


def test_a_director_without_the_permission_sees_the_lists_but_cannot_change_them(
    director, client_for, fide_list
) -> None:
    client = client_for(director)
    page = client.get(URL).content.decode()
    assert "<td>FIDE</td>" in page and 'id="list-upload"' not in page and "Delete" not in page
    assert client.post(URL, {"file": upload("l.txt", SMALL_LIST)}).status_code == 403
    assert client.post(f"/rating-lists/{fide_list.pk}/delete/").status_code == 403
    assert RatingEntry.objects.filter(rating_list=fide_list).count() == 8


def test_the_page_shows_a_manager_the_upload_form(manager, client_for) -> None:
    body = client_for(manager).get(URL).content.decode()
    assert 'id="list-upload"' in body and 'enctype="multipart/form-data"' in body
    assert "No list yet." in body
