"""Production settings: ``check --deploy`` is clean, HSTS and secure cookies are on (issue 9).

The settings module reads the environment once, at import, so each check runs Django in a
subprocess with production variables (DEBUG off, a long random SECRET_KEY) and the test
database.
"""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

REPO = Path(__file__).resolve().parent.parent


def production_env(**extra: str) -> dict[str, str]:
    database = settings.DATABASES["default"]
    url = (
        f"postgres://{database['USER']}:{database['PASSWORD']}@{database['HOST']}:"
        f"{database['PORT']}/{database['NAME']}"
    )
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("SECURE_", "DJANGO_", "BEHIND_"))
    }
    env.update(
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(64),
        ALLOWED_HOSTS="chess.example.org",
        DATABASE_URL=url,
        SECURE_HSTS_SECONDS="31536000",
        SECURE_SSL_REDIRECT="1",
        BEHIND_TLS_PROXY="1",
        **extra,
    )
    env.pop("SECURE_COOKIES", None)  # make test turns them off for the test client
    return env


def run_python(code: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.django_db
def test_check_deploy_is_clean_with_production_settings():
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=REPO,
        env=production_env(),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


PROBE = """
import json, django
django.setup()
from django.test import Client
client = Client(HTTP_X_FORWARDED_PROTO="https", HTTP_HOST="chess.example.org")
login = client.get("/accounts/login/")
plain = Client(HTTP_HOST="chess.example.org")
print(json.dumps({
    "status": login.status_code,
    "hsts": login.get("Strict-Transport-Security", ""),
    "csp": login.get("Content-Security-Policy", ""),
    "nosniff": login.get("X-Content-Type-Options", ""),
    "frame": login.get("X-Frame-Options", ""),
    "csrf_cookie_secure": bool(login.cookies["csrftoken"]["secure"]),
    "http_redirect": plain.get("/accounts/login/").status_code,
    "healthz_over_http": plain.get("/healthz").status_code,
}))
"""


@pytest.mark.django_db
def test_production_answers_carry_hsts_csp_and_secure_cookies():
    env = production_env(DJANGO_SETTINGS_MODULE="config.settings")
    result = run_python(PROBE, env)
    assert result.returncode == 0, result.stderr
    seen = json.loads(result.stdout.strip().splitlines()[-1])
    assert seen["status"] == 200
    assert seen["hsts"] == "max-age=31536000; includeSubDomains; preload"
    assert "script-src 'self'" in seen["csp"] and "unsafe-inline" not in seen["csp"]
    assert seen["nosniff"] == "nosniff" and seen["frame"] == "DENY"
    assert seen["csrf_cookie_secure"] is True
    assert seen["http_redirect"] == 301  # plain HTTP goes to HTTPS
    assert seen["healthz_over_http"] == 200  # except the load balancer's probe


def test_session_cookies_are_secure_by_default_in_production():
    code = (
        "import django; django.setup(); from django.conf import settings as s; "
        "print(s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.SESSION_COOKIE_HTTPONLY)"
    )
    result = run_python(code, production_env(DJANGO_SETTINGS_MODULE="config.settings"))
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "True", "True"]
