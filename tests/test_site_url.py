"""``SITE_URL``: the public address links and QR codes are built from, checked at start-up
(issue 19). Each case starts Django in a subprocess, as the settings read the environment once.
"""

from __future__ import annotations

import pytest

from tests.test_security import production_env, run_python

PRINT_SITE_URL = (
    "import django; django.setup(); from django.conf import settings; print(settings.SITE_URL)"
)


def _start(**variables: str):  # type: ignore[no-untyped-def]
    env = production_env(DJANGO_SETTINGS_MODULE="config.settings")
    env.pop("SITE_URL", None)
    env.update(variables)
    return run_python(PRINT_SITE_URL, env)


@pytest.mark.parametrize(
    ("variables", "site_url"),
    [
        ({"SITE_URL": "https://chess.example.org"}, "https://chess.example.org"),
        ({"SITE_URL": "https://chess.example.org:8443/"}, "https://chess.example.org:8443"),
        ({"ALLOWED_HOSTS": "chess.example.org,localhost"}, "https://chess.example.org"),
        ({"DEBUG": "1", "ALLOWED_HOSTS": ""}, "http://127.0.0.1:8000"),
    ],
    ids=["given", "port-and-slash", "first-allowed-host", "development"],
)
def test_the_site_address(variables: dict[str, str], site_url: str) -> None:
    result = _start(**variables)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [site_url]


@pytest.mark.parametrize(
    ("variables", "reason"),
    [
        ({"SITE_URL": "ftp://chess.example.org"}, "SITE_URL must be http(s)://host[:port]"),
        ({"SITE_URL": "https://chess.example.org/live"}, "without a path"),
        ({"SITE_URL": "https://user@chess.example.org"}, "without a path"),
        ({"SITE_URL": "https://chess.example.org:99999"}, "SITE_URL has a bad port"),
        ({"SITE_URL": "chess.example.org"}, "SITE_URL must be http(s)://host[:port]"),
        ({"ALLOWED_HOSTS": ".example.org"}, "SITE_URL must be set"),
        ({"ALLOWED_HOSTS": "*"}, "SITE_URL must be set"),
    ],
    ids=["scheme", "path", "user", "port", "no-scheme", "host-pattern", "wildcard"],
)
def test_a_bad_site_address_stops_the_start(variables: dict[str, str], reason: str) -> None:
    result = _start(**variables)
    assert result.returncode != 0
    assert reason in result.stderr
