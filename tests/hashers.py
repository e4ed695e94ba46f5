"""The test suite's password hasher: PBKDF2 with one iteration.

Django's 1,000,000 iterations cost 0.3–3 s a password on the project's machines, and most tests
create three or four personas. The hash keeps PBKDF2's name and records its iteration count, so
a ``manage.py`` or app-server process that a test starts (with the production hashers) checks
these passwords as it would any other (and upgrades them at the first login)."""

from __future__ import annotations

from django.contrib.auth.hashers import PBKDF2PasswordHasher


class OneIterationPBKDF2PasswordHasher(PBKDF2PasswordHasher):
    iterations = 1
