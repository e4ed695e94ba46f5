"""One env-driven settings module (house style 9). Bad values fail loudly at start-up.

Environment:
- ``DEBUG``: "1"/"true" for development. Defaults to off.
- ``SECRET_KEY``: required when DEBUG is off.
- ``DATABASE_URL``: any dj-database-url URL; default an embedded SQLite file (``make run``).
  Tests always run on PostgreSQL (``make test`` sets this).
- ``ALLOWED_HOSTS``: comma-separated; defaults to localhost names in DEBUG.
- ``SITE_URL``: the public address (``https://chess.example.org``) that links and QR codes
  are built from; default in DEBUG http://127.0.0.1:8000, else https:// + the first host.
"""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path
from urllib.parse import SplitResult, urlsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from events.limits import MAX_FORM_BYTES

BASE_DIR = Path(__file__).resolve().parent.parent


def _env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    lowered = raw.strip().lower()
    if lowered in {"1", "true", "yes", "on"}:
        return True
    if lowered in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (1/0, true/false), got {raw!r}")


def _env_int(name: str, default: int, *, low: int, high: int) -> int:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    if not raw.isascii() or not raw.isdigit() or not low <= int(raw) <= high:
        raise ImproperlyConfigured(
            f"{name} must be a whole number from {low} to {high}, got {raw!r}"
        )
    return int(raw)


DEBUG = _env_bool("DEBUG", False)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")
    SECRET_KEY = "insecure-development-key-never-use-in-production"

_hosts = os.environ.get("ALLOWED_HOSTS", "")
ALLOWED_HOSTS = [h.strip() for h in _hosts.split(",") if h.strip()] or (
    ["127.0.0.1", "localhost", "[::1]", "testserver"] if DEBUG else []
)
if not DEBUG and not ALLOWED_HOSTS:
    raise ImproperlyConfigured("ALLOWED_HOSTS must be set when DEBUG is off")


def _site_url_from_hosts(host: str) -> str:
    """https:// and the first ``ALLOWED_HOSTS`` entry, when it is a plain host name."""
    if host.startswith(".") or "*" in host:
        raise ImproperlyConfigured(
            f"SITE_URL must be set: the first ALLOWED_HOSTS entry {host!r} is a pattern, "
            "not the site's address"
        )
    return f"https://{host}"


def _scheme_and_host_only(parts: SplitResult) -> bool:
    """http or https, a host and no more: no user, path, query or fragment."""
    return (
        parts.scheme in ("http", "https")
        and bool(parts.hostname)
        and parts.username is None
        and parts.path in ("", "/")
        and not parts.query
        and not parts.fragment
    )


def _site_url(raw: str) -> str:
    """The public address links and QR codes are built from (``events.links``), never the
    request's Host header, which anyone can set. ``SITE_URL`` if given (scheme and host, an
    optional port, nothing else); else in DEBUG the development server's; else https:// and
    the first ``ALLOWED_HOSTS`` entry, which must then be a plain host name."""
    if not raw:
        if DEBUG:
            return "http://127.0.0.1:8000"
        raw = _site_url_from_hosts(ALLOWED_HOSTS[0])
    parts = urlsplit(raw.strip())
    if not _scheme_and_host_only(parts):
        raise ImproperlyConfigured(
            f"SITE_URL must be http(s)://host[:port], without a path, got {raw!r}"
        )
    try:
        parts.port  # noqa: B018 (a port out of range raises here)
    except ValueError as exc:
        raise ImproperlyConfigured(f"SITE_URL has a bad port: {raw!r}") from exc
    return f"{parts.scheme}://{parts.netloc}"


SITE_URL = _site_url(os.environ.get("SITE_URL", ""))

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "axes",
    "csp",
    "config.apps.ProjectConfig",  # the deployment checks (config/checks.py)
    "accounts",
    "events",
    "standings",
    "playoffs",
    "prizes",
    "draws",
    "ratings",  # rating lists and registration from them (ratings/)
    "playerpage",  # the player's private page and self-reported results (playerpage/)
    "fiderating",  # rating changes, norms and the rating report (fiderating/)
    # Formats with their own models and screens, each plugged in through events.formats.
    "formats.gnot",
    "formats.cohen",
    "formats.mso",
    "formats.teams",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "events.access.LoginRequiredMiddleware",
    "events.access.PrivatePages",  # Cache-Control: private, no-store for logged-in pages
    "events.middleware.DatabaseUnavailableMiddleware",
    "events.middleware.RequestSizeLimitMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into its lockout response.
    "axes.middleware.AxesMiddleware",
]

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # login throttling (django-axes)
    "django.contrib.auth.backends.ModelBackend",
]
# The login throttle's policy (accounts/throttle.py, docs/operations.md): per pair of client
# address and account, the login page and the password change form alike; tries during a
# lock-out neither count nor extend it.
AXES_FAILURE_LIMIT = _env_int("AXES_FAILURE_LIMIT", 5, low=1, high=1000)
AXES_COOLOFF_TIME = dt.timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["ip_address", "username"]]
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
# Behind reverse proxies: how many of them append to X-Forwarded-For (0: the header is ignored).
TRUSTED_PROXY_COUNT = _env_int("TRUSTED_PROXY_COUNT", 0, low=0, high=10)
AXES_CLIENT_IP_CALLABLE = "accounts.throttle.client_address"

# Content security policy (django-csp): no inline scripts or styles anywhere in the app.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
        "base-uri": ["'self'"],
        "object-src": ["'none'"],
    }
}
X_FRAME_OPTIONS = "DENY"
SECURE_REFERRER_POLICY = "same-origin"

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    }
]

_default_db = f"sqlite:///{BASE_DIR / 'db.sqlite3'}"
try:
    DATABASES = {
        "default": dj_database_url.parse(
            os.environ.get("DATABASE_URL") or _default_db, conn_max_age=60
        )
    }
except ValueError as exc:  # unknown scheme and the like
    raise ImproperlyConfigured(f"DATABASE_URL is not a valid database URL: {exc}") from exc
DATABASES["default"]["ATOMIC_REQUESTS"] = False
# A persistent connection is checked before a request reuses it: after a database restart the
# first request on each worker would otherwise fail on the dead connection (tests/test_reliability).
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
# Several test runs may share one server (make test in two checkouts): each names its own.
if os.environ.get("TEST_DATABASE_NAME"):
    DATABASES["default"]["TEST"] = {"NAME": os.environ["TEST_DATABASE_NAME"]}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Django's four: like the username, shorter than 8, one of 20,000 common passwords, all digits
# (issue 29: ``12345678`` and ``password`` passed). The change form, the reset link's form,
# ``createsuperuser`` and ``changepassword`` all check them.
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": f"django.contrib.auth.password_validation.{name}"}
    for name in (
        "UserAttributeSimilarityValidator",
        "MinimumLengthValidator",
        "CommonPasswordValidator",
        "NumericPasswordValidator",
    )
]

LANGUAGE_CODE = "en"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")
STATICFILES_DIRS = [BASE_DIR / "static"]
# Uploaded files kept between two requests (a rating list between its preview and its import).
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT") or BASE_DIR / "media")
# The manifest storage whatever DEBUG says, so that collectstatic always writes the manifest
# a production start needs (run with DEBUG=1 by mistake, it used to write none, and every page
# was a 500); with DEBUG on, pages link the unhashed names, served from the sources.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "events:event_list"
LOGOUT_REDIRECT_URL = "events:event_list"

# One shared cache for every app server when REDIS_URL is set (standings and pages are cached
# per results version, so invalidation needs no messages between servers); else per process.
REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": os.environ.get("CACHE_KEY_PREFIX", "td"),
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# How old a public page may be when a spectator is answered with it while it is recomputed
# (events/caching.py; docs/performance.md, "A live round"). 0: always the current version.
PUBLIC_PAGE_STALE_SECONDS = int(os.environ.get("PUBLIC_PAGE_STALE_SECONDS", "10"))
if not 0 <= PUBLIC_PAGE_STALE_SECONDS <= 300:
    raise ImproperlyConfigured("PUBLIC_PAGE_STALE_SECONDS must be between 0 and 300")
# Request bodies (events/limits.py; docs/reliability.md, "Limits"). Form fields: 1 MB, the
# longest pasted player list is a fifth of it; past it, the one-line "too large" page
# (config.views.bad_request). Uploaded files are capped at 10 MB by the upload forms and, with
# the form around them, by events.middleware.RequestSizeLimitMiddleware before they are read;
# above 2.5 MB one is streamed to a temporary file rather than held in memory.
DATA_UPLOAD_MAX_MEMORY_SIZE = MAX_FORM_BYTES
FILE_UPLOAD_MAX_MEMORY_SIZE = 5 * 2**19

# Every error a request ends in (a 500 and its traceback, from ``django.request``) and every
# warning goes to the server's error log: gunicorn's (its --error-logfile, syslog, or standard
# error; config/logs.py), else standard error (docs/operations.md, "Logs"). 4xx answers stay
# out: the access log has them.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "server": {"format": "{asctime} {levelname} {name} {process}: {message}", "style": "{"},
        "django.server": {
            "()": "django.utils.log.ServerFormatter",
            "format": "[{server_time}] {message}",
            "style": "{",
        },
    },
    "handlers": {
        "server": {"class": "config.logs.ServerLog", "formatter": "server"},
        "django.server": {"class": "logging.StreamHandler", "formatter": "django.server"},
    },
    "root": {"handlers": ["server"], "level": "WARNING"},
    "loggers": {
        "django": {
            "handlers": ["server"],
            "level": "INFO" if DEBUG else "WARNING",
            "propagate": False,
        },
        "django.request": {"handlers": ["server"], "level": "ERROR", "propagate": False},
        # runserver's access log, as Django configures it (a dictConfig resets what it omits).
        "django.server": {"handlers": ["django.server"], "level": "INFO", "propagate": False},
    },
}

# Sessions live in the database, so any app server can serve any request.
SESSION_ENGINE = "django.contrib.sessions.backends.db"

if not DEBUG:
    SESSION_COOKIE_SECURE = _env_bool("SECURE_COOKIES", True)
    CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "0"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = SECURE_HSTS_SECONDS > 0
    SECURE_HSTS_PRELOAD = SECURE_HSTS_SECONDS > 0
    SECURE_SSL_REDIRECT = _env_bool("SECURE_SSL_REDIRECT", False)
    # Load balancers probe over plain HTTP: a redirect would read as "down".
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
    # Behind a TLS-terminating proxy that sets X-Forwarded-Proto.
    if _env_bool("BEHIND_TLS_PROXY", False):
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_CONTENT_TYPE_NOSNIFF = True
