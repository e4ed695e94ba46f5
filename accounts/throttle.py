"""Login throttling (issue 19), on top of django-axes. The policy (docs/operations.md):

- **Per account**: ``AXES_FAILURE_LIMIT`` (5) failed logins for one username, from any
  address, lock that account for ``AXES_COOLOFF_TIME`` (15 minutes).
- **Per client address**: ``LOGIN_ADDRESS_FAILURE_LIMIT`` (20) failed logins from one address,
  whatever the usernames, lock that address. Higher than the account's, because a playing
  hall's directors and arbiters often share one address (the venue's network).
- **Tries during a lock-out are refused and not counted**, so a lock-out ends
  ``AXES_COOLOFF_TIME`` after the failure that caused it, however often anyone tries meanwhile
  (``AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False``).
- **A successful login clears the account's failures**, not the address's: an attacker's own
  account cannot wipe the failures their address piled up on someone else's.
- **The client address** is ``REMOTE_ADDR``; behind ``TRUSTED_PROXY_COUNT`` reverse proxies it
  is the address the outermost of them reports in ``X-Forwarded-For`` (:func:`client_address`).

The counts live in the database (axes' ``AccessAttempt``), so every app server sees them.
"""

from __future__ import annotations

import ipaddress
from typing import Any

from axes.attempts import get_cool_off_threshold
from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_username, get_failure_limit
from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import QuerySet, Sum
from django.http import HttpRequest


def _failures(attempts: QuerySet[AccessAttempt]) -> int:
    return attempts.aggregate(total=Sum("failures_since_start"))["total"] or 0


class LoginThrottle(AxesDatabaseHandler):
    """axes' database handler with one limit per account and another per client address."""

    def get_failures(self, request: HttpRequest, credentials: dict[str, Any] | None = None) -> int:
        """The account's recent failures; once the address has reached its own limit, at least
        the account limit, so that axes (which compares one number with one limit) locks."""
        recent = AccessAttempt.objects.filter(attempt_time__gte=get_cool_off_threshold(request))
        username = get_client_username(request, credentials)
        account = _failures(recent.filter(username=username))
        address = _failures(recent.filter(ip_address=request.axes_ip_address))  # type: ignore[attr-defined]
        if address >= settings.LOGIN_ADDRESS_FAILURE_LIMIT:
            return max(account, get_failure_limit(request, credentials))
        return account

    def reset_user_attempts(
        self, request: HttpRequest, credentials: dict[str, Any] | None = None
    ) -> int:
        username = get_client_username(request, credentials)
        count, _ = AccessAttempt.objects.filter(username=username).delete()
        return count


def client_address(request: HttpRequest) -> str | None:
    """The client's address as the outermost trusted proxy saw it.

    Each proxy appends the address it was connected from to ``X-Forwarded-For``, so with N
    trusted proxies the client is the N-th entry from the right; entries further left were
    written by the client and prove nothing. With no trusted proxy (the default) the header is
    ignored. A malformed entry falls back to ``REMOTE_ADDR``.
    """
    remote = request.META.get("REMOTE_ADDR")
    count = settings.TRUSTED_PROXY_COUNT
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    if count == 0 or not forwarded:
        return remote
    entries = [entry.strip() for entry in forwarded.rsplit(",", count)[-count:]]
    candidate = entries[0] if entries else ""
    try:
        return str(ipaddress.ip_address(candidate))
    except ValueError:
        return remote
