"""Login throttling (issues 19 and 29), django-axes with this policy (docs/operations.md):

- **Per (client address, account) pair**: ``AXES_FAILURE_LIMIT`` (5) failed logins for one
  username from one address lock that pair for ``AXES_COOLOFF_TIME`` (15 minutes)
  (``AXES_LOCKOUT_PARAMETERS = [["ip_address", "username"]]``). Nobody else is locked: not the
  same account from another address, not another account from the same address. Before
  issue 29 an address was locked for every account after 20 failures, so anyone in a playing
  hall, where directors and arbiters share the venue's one address, could keep the director
  out with the right password; and any 5 failures from anywhere locked the account.
- **The password change form counts too** (``accounts.forms.ThrottledPasswordChangeForm``): a
  wrong old password is a failure of the same pair, and a locked pair is refused there as at
  the login.
- **Tries during a lock-out are refused and not counted**, so a lock-out ends
  ``AXES_COOLOFF_TIME`` after the failure that caused it, however often anyone tries meanwhile
  (``AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False``).
- **A successful login clears that pair's failures**, no other pair's: an attacker's own
  account cannot wipe the failures their address piled up on someone else's.
- **The client address** is ``REMOTE_ADDR``; behind ``TRUSTED_PROXY_COUNT`` reverse proxies it
  is the address the outermost of them reports in ``X-Forwarded-For`` (:func:`client_address`).

The counts live in the database (axes' ``AccessAttempt``), so every app server sees them.
Guessing is slowed by the lock, and made hopeless by Django's password validators
(``AUTH_PASSWORD_VALIDATORS``: no common, all-digit, short or username-like password).
"""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.http import HttpRequest


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
