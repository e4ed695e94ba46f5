"""Security headers, login throttling and the 503 page (issue 9, first part)."""

from __future__ import annotations

import pytest
from django.db import connections
from django.db.utils import OperationalError
from django.test import Client, RequestFactory

from events.middleware import DatabaseUnavailableMiddleware

pytestmark = pytest.mark.django_db


def test_pages_carry_a_strict_content_security_policy(event):
    response = Client().get(f"/e/{event.slug}/")
    policy = response["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy
    assert "frame-ancestors 'none'" in policy
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"


def test_repeated_failed_logins_lock_the_account_out(director, settings):
    client = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post("/accounts/login/", {"username": director.username, "password": "wrong"})
    locked = client.post(
        "/accounts/login/", {"username": director.username, "password": "pw-" + director.username}
    )
    assert locked.status_code == 429
    assert "Too many failed logins" in locked.content.decode()
    assert "_auth_user_id" not in client.session


def test_a_correct_login_still_works_below_the_limit(director):
    client = Client()
    client.post("/accounts/login/", {"username": director.username, "password": "wrong"})
    response = client.post(
        "/accounts/login/", {"username": director.username, "password": "pw-" + director.username}
    )
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(director.pk)


def lost_connection_error() -> OperationalError:
    """A real OperationalError: connecting to a port where no PostgreSQL listens."""
    real = connections["default"]
    wrapper = real.__class__({**real.settings_dict, "PORT": "1", "NAME": "nowhere"}, "probe")
    try:
        wrapper.ensure_connection()
    except OperationalError as error:
        return error
    finally:
        wrapper.close()
    raise AssertionError("expected the connection to fail")


def test_a_lost_database_connection_answers_503_with_retry_after():
    middleware = DatabaseUnavailableMiddleware(lambda request: None)
    request = RequestFactory().get("/e/anything/standings/")
    response = middleware.process_exception(request, lost_connection_error())
    assert response is not None and response.status_code == 503
    assert response["Retry-After"] == "5"
    assert "not answering" in response.content.decode()


def test_other_database_errors_are_not_hidden():
    middleware = DatabaseUnavailableMiddleware(lambda request: None)
    request = RequestFactory().get("/")
    assert middleware.process_exception(request, OperationalError("division by zero")) is None
