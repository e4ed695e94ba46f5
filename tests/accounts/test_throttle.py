"""The login throttle's policy, through the login page and the password change form (issues 19
and 29; accounts/throttle.py).

Per pair of client address and account; tries during a lock-out are refused and neither count
nor extend it; behind trusted proxies the client address is the one the proxy reports. Time is
moved by ageing the stored attempts, as the clock would.
"""

from __future__ import annotations

import datetime as dt

import pytest
from axes.models import AccessAttempt
from django.db.models import F
from django.test import Client

pytestmark = pytest.mark.django_db

LOGIN = "/accounts/login/"


def _try(username: str, password: str, address: str = "192.0.2.1", **headers: str):  # type: ignore[no-untyped-def]
    return Client(REMOTE_ADDR=address, **headers).post(
        LOGIN, {"username": username, "password": password}
    )


def _right(user) -> str:  # type: ignore[no-untyped-def]
    return "pw-" + user.username


def _age(minutes: int) -> None:
    AccessAttempt.objects.update(attempt_time=F("attempt_time") - dt.timedelta(minutes=minutes))


def test_five_failures_lock_the_account_from_that_address_only(director, visitor, settings):  # type: ignore[no-untyped-def]
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert _try(director.username, "wrong", "198.51.100.1").status_code == 200
    # The failure that reaches the limit is answered with the lock-out already.
    assert _try(director.username, "wrong", "198.51.100.1").status_code == 429
    locked = _try(director.username, _right(director), "198.51.100.1")
    assert locked.status_code == 429
    assert "Too many failed logins" in locked.content.decode()
    # The same account from another address, another account from this one: untouched.
    assert _try(director.username, _right(director), "203.0.113.50").status_code == 302
    assert _try(visitor.username, _right(visitor), "198.51.100.1").status_code == 302


def test_failures_below_the_limit_do_not_lock(director, settings):  # type: ignore[no-untyped-def]
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        _try(director.username, "wrong")
    assert _try(director.username, _right(director)).status_code == 302


def test_twenty_failures_from_the_halls_address_lock_no_one_else(director, settings):  # type: ignore[no-untyped-def]
    """Issue 29: 20 failed logins from one address, whatever the accounts, locked every account
    at that address for 15 minutes: the director, in the same hall, got 429 with the right
    password."""
    for n in range(20):
        _try(f"guess-{n % 4}", "wrong", "192.0.2.66")  # 5 each on four made-up accounts
    assert _try("guess-0", "anything", "192.0.2.66").status_code == 429
    assert _try(director.username, _right(director), "192.0.2.66").status_code == 302


def test_failures_from_many_addresses_lock_no_address(director, settings):  # type: ignore[no-untyped-def]
    """Anyone anywhere could lock the director out with 5 failures; now each (address,
    account) pair has its own count."""
    for n in range(settings.AXES_FAILURE_LIMIT * 2):
        assert _try(director.username, "wrong", f"198.51.100.{n}").status_code == 200
    assert _try(director.username, _right(director), "203.0.113.5").status_code == 302


def test_tries_during_a_lock_out_do_not_extend_it(director, settings):  # type: ignore[no-untyped-def]
    for _ in range(settings.AXES_FAILURE_LIMIT):
        _try(director.username, "wrong")
    _age(10)
    for _ in range(3):  # someone keeps trying, with the right password too
        assert _try(director.username, "wrong").status_code == 429
        assert _try(director.username, _right(director)).status_code == 429
    _age(6)  # 16 minutes after the failure that locked the account
    assert _try(director.username, _right(director)).status_code == 302


def test_a_lock_out_lasts_the_cool_off_time(director, settings):  # type: ignore[no-untyped-def]
    for _ in range(settings.AXES_FAILURE_LIMIT):
        _try(director.username, "wrong")
    _age(14)
    assert _try(director.username, _right(director)).status_code == 429


def test_an_attackers_own_login_does_not_clear_their_failures_on_another_account(
    director, visitor, settings
):  # type: ignore[no-untyped-def]
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        _try(director.username, "wrong", "192.0.2.9")
    assert _try(visitor.username, _right(visitor), "192.0.2.9").status_code == 302
    assert _try(director.username, "wrong", "192.0.2.9").status_code == 429  # the fifth
    assert _try(director.username, _right(director), "192.0.2.9").status_code == 429


def test_behind_a_trusted_proxy_the_address_is_the_one_the_proxy_reports(director, settings):  # type: ignore[no-untyped-def]
    settings.TRUSTED_PROXY_COUNT = 1
    proxy = "10.0.0.2"
    for n in range(settings.AXES_FAILURE_LIMIT):
        # The client's own X-Forwarded-For entry (left) is not believed; the proxy's is.
        forwarded = f"198.51.100.{n}, 203.0.113.7"
        _try(director.username, "wrong", proxy, HTTP_X_FORWARDED_FOR=forwarded)
    from_client = _try(
        director.username, _right(director), proxy, HTTP_X_FORWARDED_FOR="203.0.113.7"
    )
    assert from_client.status_code == 429
    elsewhere = _try(director.username, _right(director), proxy, HTTP_X_FORWARDED_FOR="203.0.113.8")
    assert elsewhere.status_code == 302


def test_without_a_trusted_proxy_x_forwarded_for_is_ignored(director, settings):  # type: ignore[no-untyped-def]
    for n in range(settings.AXES_FAILURE_LIMIT):
        forwarded = f"198.51.100.{n}"
        _try(director.username, "wrong", "192.0.2.70", HTTP_X_FORWARDED_FOR=forwarded)
    assert _try(director.username, _right(director), "192.0.2.70").status_code == 429


def test_a_malformed_forwarded_address_falls_back_to_the_connection(director, settings):  # type: ignore[no-untyped-def]
    settings.TRUSTED_PROXY_COUNT = 1
    response = _try(director.username, "wrong", "10.0.0.2", HTTP_X_FORWARDED_FOR="not-an-ip")
    assert response.status_code == 200
    assert AccessAttempt.objects.get().ip_address == "10.0.0.2"


def test_wrong_old_passwords_on_the_change_form_count_as_failed_logins(director, settings):  # type: ignore[no-untyped-def]
    """Issue 29: the change form's old password could be guessed without end by whoever had
    a logged-in session. Now each wrong one counts for the pair, and a locked pair is refused
    on the form (the right old password too) and at the login; the password stays."""
    session = Client(REMOTE_ADDR="192.0.2.30")
    session.force_login(director)
    change = "/accounts/password_change/"
    new = {"new_password1": "a-longer-new-password", "new_password2": "a-longer-new-password"}
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        response = session.post(change, {"old_password": "guess", **new})
        assert response.status_code == 200
        assert "Your old password was entered incorrectly" in response.content.decode()
    assert session.post(change, {"old_password": "guess", **new}).status_code == 429
    refused = session.post(change, {"old_password": _right(director), **new})
    assert refused.status_code == 429 and "Too many failed logins" in refused.content.decode()
    assert _try(director.username, _right(director), "192.0.2.30").status_code == 429
    assert _try(director.username, _right(director), "192.0.2.31").status_code == 302
