"""Passwords (issue 19): a logged-in user changes theirs from the header's link; a forgotten
one is reset through a one-time link the administrator issues with ``manage.py
password_reset_link`` (the site sends no e-mail); none of Django's password pages is a 404."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

pytestmark = pytest.mark.django_db

SITE_URL = "https://chess.example.org"


@pytest.fixture(autouse=True)
def site_url(settings):  # type: ignore[no-untyped-def]
    settings.SITE_URL = SITE_URL


def _logs_in(username: str, password: str) -> bool:
    client = Client()
    client.post("/accounts/login/", {"username": username, "password": password})
    return "_auth_user_id" in client.session


def test_the_header_links_to_the_password_change_page(director, client_for):  # type: ignore[no-untyped-def]
    page = client_for(director).get("/").content.decode()
    assert 'href="/accounts/password_change/"' in page
    assert 'href="/accounts/password_change/"' not in Client().get("/").content.decode()


def test_a_logged_in_user_changes_their_password(director, client_for):  # type: ignore[no-untyped-def]
    client = client_for(director)
    form = client.get("/accounts/password_change/")
    assert form.status_code == 200 and "Change your password" in form.content.decode()
    response = client.post(
        "/accounts/password_change/",
        {
            "old_password": "pw-dora-director",
            "new_password1": "a-longer-new-password",
            "new_password2": "a-longer-new-password",
        },
    )
    assert response.status_code == 302 and response["Location"] == "/accounts/password_change/done/"
    assert client.get("/accounts/password_change/done/").status_code == 200  # still logged in
    assert _logs_in(director.username, "a-longer-new-password")
    assert not _logs_in(director.username, "pw-dora-director")


def test_a_wrong_old_password_changes_nothing(director, client_for):  # type: ignore[no-untyped-def]
    response = client_for(director).post(
        "/accounts/password_change/",
        {"old_password": "wrong", "new_password1": "x-new-pass-1", "new_password2": "x-new-pass-1"},
    )
    assert response.status_code == 200
    assert "Your old password was entered incorrectly" in response.content.decode()
    assert _logs_in(director.username, "pw-dora-director")


@pytest.mark.parametrize(
    ("new_password", "said"),
    [
        pytest.param("12345678", "This password is entirely numeric.", id="red-team-digits"),
        pytest.param("password", "This password is too common.", id="red-team-common"),
        pytest.param("dora-director", "The password is too similar to the username.", id="name"),
        pytest.param("x7!k", "This password is too short.", id="short"),
    ],
)
def test_a_weak_new_password_is_refused_with_the_reason(director, client_for, new_password, said):  # type: ignore[no-untyped-def]
    """Issue 29: ``12345678`` and ``password`` passed (only a length of 8 was checked). Django's
    four validators now run on the change form (and the reset link's, and the commands)."""
    response = client_for(director).post(
        "/accounts/password_change/",
        {
            "old_password": "pw-dora-director",
            "new_password1": new_password,
            "new_password2": new_password,
        },
    )
    assert response.status_code == 200
    assert said in response.content.decode().replace("&#x27;", "'")
    assert _logs_in(director.username, "pw-dora-director")


def test_the_password_change_page_wants_a_login() -> None:
    response = Client().get("/accounts/password_change/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=")


def test_the_forgotten_password_page_says_who_issues_a_link() -> None:
    login = Client().get("/accounts/login/").content.decode()
    assert 'href="/accounts/password_reset/"' in login
    page = Client().get("/accounts/password_reset/")
    assert page.status_code == 200
    assert "manage.py password_reset_link YOUR-USERNAME" in page.content.decode()


def _link(username: str) -> str:
    out = StringIO()
    call_command("password_reset_link", username, stdout=out)
    return out.getvalue().strip().splitlines()[-1]


def test_a_reset_link_sets_a_new_password_once(director) -> None:  # type: ignore[no-untyped-def]
    link = _link(director.username)
    assert link.startswith(f"{SITE_URL}/accounts/reset/")
    client = Client()
    landing = client.get(link.removeprefix(SITE_URL))
    assert landing.status_code == 302  # Django moves the token out of the address
    form_url = landing["Location"]
    assert "Set a new password" in client.get(form_url).content.decode()
    new = {"new_password1": "reset-by-link-42", "new_password2": "reset-by-link-42"}
    done = client.post(form_url, new)
    assert done.status_code == 302 and done["Location"] == "/accounts/reset/done/"
    assert client.get("/accounts/reset/done/").status_code == 200
    assert _logs_in(director.username, "reset-by-link-42")
    again = Client().get(link.removeprefix(SITE_URL))
    assert again.status_code == 200 and "This link no longer works" in again.content.decode()


def test_a_reset_link_lifts_the_lock_out(director, settings) -> None:  # type: ignore[no-untyped-def]
    for _ in range(settings.AXES_FAILURE_LIMIT):
        Client().post("/accounts/login/", {"username": director.username, "password": "no"})
    assert not _logs_in(director.username, "pw-dora-director")
    _link(director.username)
    assert _logs_in(director.username, "pw-dora-director")


def test_a_reset_link_for_nobody_is_refused_with_the_reason() -> None:
    with pytest.raises(CommandError, match="there is no user called 'nobody'"):
        call_command("password_reset_link", "nobody")
