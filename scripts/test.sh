#!/usr/bin/env bash
# `make test`: the whole suite on a real PostgreSQL (never SQLite) and a real Chromium, with the
# Swiss pairing oracle. Whatever of the three is missing it sets up first (docs/testing.md):
#   Chromium     TEST_CHROMIUM if set; else `chromium` on PATH (Debian's); else Playwright's own
#                if it was downloaded before; else it installs Debian's chromium (as root, with
#                apt-get), else Playwright's download (into ~/.cache/ms-playwright).
#   bbpPairings  BBP_EXE if set; else built once from ../shared/oracles into ~/.cache, after
#                installing g++ and make with apt-get (as root) if they are missing.
#   PostgreSQL   1. DATABASE_URL if set;
#                2. else the server on 127.0.0.1:5432 (user postgres, trust authentication);
#                3. else a throwaway cluster from installed server binaries (initdb/pg_ctl);
#                4. else a throwaway cluster from the pgserver wheel's binaries (in .venv);
#                TEST_PG=throwaway or TEST_PG=wheel starts 3 or 4 on purpose. As root, a
#                throwaway cluster runs as postgres, else nobody (TEST_PG_USER chooses).
# What cannot be set up stops the run with one line and exit 2 before any test: a browser or
# differential test that skips is not a pass. The lines before the tests say which path was taken.
# Extra arguments go to pytest (e.g. `make test ARGS="-k standings"`).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
ORACLE_BUILD=../shared/oracles/build-bbp.sh
RUN_TMP=$(mktemp -d /tmp/td-test.XXXXXX)  # logs and static files of this run
PG_TMP= PG_BIN=
PG_USER=  # the server's user when make test runs as root (initdb refuses to run as root)

say() { echo "make test: $*" >&2; }
fail() {
  say "$*"
  exit 2
}
have() { command -v "$1" >/dev/null 2>&1; }
as_pg_user() {
  if [ -n "$PG_USER" ]; then runuser -u "$PG_USER" -- "$@"; else "$@"; fi
}

drop_throwaway() {
  if [ -n "$PG_TMP" ]; then
    as_pg_user "$PG_BIN/pg_ctl" -D "$PG_TMP/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$PG_TMP"
  fi
  PG_TMP= PG_BIN=
}
trap 'drop_throwaway; rm -rf "$RUN_TMP"' EXIT

# -- Installing what is missing -----------------------------------------------------------------

can_apt() { [ "$(id -u)" = 0 ] && have apt-get; }

apt_install() {
  say "installing $* with apt-get"
  export DEBIAN_FRONTEND=noninteractive
  # The package lists are refreshed only when the install fails without it: a machine that
  # lacks nothing never gets here, and one that lacks a package rarely needs the refresh.
  apt-get install -y -qq "$@" >"$RUN_TMP/apt.log" 2>&1 && return 0
  apt-get update -qq >>"$RUN_TMP/apt.log" 2>&1 && apt-get install -y -qq "$@" >>"$RUN_TMP/apt.log" 2>&1
}

# -- Chromium -----------------------------------------------------------------------------------

playwright_chromium() {  # Playwright's own Chromium, if it has been downloaded
  "$PY" - <<'PYCODE' 2>/dev/null
import os
import sys

from playwright.sync_api import sync_playwright

with sync_playwright() as playwright:
    path = playwright.chromium.executable_path
if not os.access(path, os.X_OK):
    sys.exit(1)
print(path)
PYCODE
}

setup_chromium() {
  if [ -n "${TEST_CHROMIUM:-}" ]; then
    [ -x "$TEST_CHROMIUM" ] || fail "TEST_CHROMIUM=$TEST_CHROMIUM is not an executable"
    return 0
  fi
  TEST_CHROMIUM=$(command -v chromium || playwright_chromium) && return 0
  local apt_said="Debian's chromium needs root and apt-get"
  if can_apt; then
    apt_install chromium && TEST_CHROMIUM=$(command -v chromium) && return 0
    apt_said="apt-get install chromium failed ($(tail -1 "$RUN_TMP/apt.log"))"
  fi
  say "downloading Playwright's Chromium (.venv/bin/python -m playwright install chromium)"
  "$PY" -m playwright install chromium >"$RUN_TMP/playwright.log" 2>&1 \
    && TEST_CHROMIUM=$(playwright_chromium) && return 0
  fail "no Chromium for the browser tests: $apt_said, and Playwright's download failed" \
       "($(grep -m1 -o 'Error: .*' "$RUN_TMP/playwright.log" || tail -1 "$RUN_TMP/playwright.log"))"
}

# -- bbpPairings, the oracle of the differential tests -------------------------------------------

setup_oracle() {
  if [ -n "${BBP_EXE:-}" ]; then
    [ -x "$BBP_EXE" ] || fail "BBP_EXE=$BBP_EXE is not an executable"
    return 0
  fi
  [ -f "$ORACLE_BUILD" ] || fail "bbpPairings' source is missing: $ORACLE_BUILD" \
    "(the project's shared folder must sit beside the repository)"
  if ! { have g++ && have make; }; then
    # A build from an earlier run needs neither.
    BBP_EXE=$(bash "$ORACLE_BUILD" 2>/dev/null) && return 0
    can_apt || fail "g++ and make are needed to build bbpPairings once (apt-get install g++ make)"
    apt_install g++ make || fail "apt-get install g++ make failed ($(tail -1 "$RUN_TMP/apt.log"))"
  fi
  local started=$SECONDS
  BBP_EXE=$(bash "$ORACLE_BUILD" 2>"$RUN_TMP/bbp.log") \
    || fail "bbpPairings could not be built: $(tail -1 "$RUN_TMP/bbp.log")"
  if ((SECONDS - started > 2)); then
    say "built bbpPairings once, in $((SECONDS - started)) s"
  fi
}

# -- PostgreSQL ---------------------------------------------------------------------------------

server_answers() {
  "$PY" - "$1" <<'PYCODE' >/dev/null 2>&1
import sys, psycopg
psycopg.connect(sys.argv[1], connect_timeout=3).close()
PYCODE
}

installed_pg_bin() {
  for dir in "$(dirname "$(command -v initdb 2>/dev/null || echo /nonexistent/initdb)")" \
             /usr/lib/postgresql/*/bin; do
    if [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ]; then echo "$dir"; return 0; fi
  done
  return 1
}

wheel_pg_bin() {  # the server binaries inside the pgserver wheel (requirements-dev.txt)
  "$PY" - <<'PYCODE' 2>/dev/null
import importlib.util
import pathlib
import sys

spec = importlib.util.find_spec("pgserver")  # found, not imported: nothing of it runs
if spec is None or not spec.submodule_search_locations:
    sys.exit(1)
print(pathlib.Path(spec.submodule_search_locations[0], "pginstall", "bin"))
PYCODE
}

reachable_pg_bin() {
  # The binaries as the server's user can run them: in place when it can reach them; else (only
  # the wheel's can be out of reach: a .venv under /root, say) a copy in the cluster's directory,
  # in the wheel's layout, since its binaries find their libraries at $ORIGIN/../../../pgserver.libs.
  local bin=$1 site
  if as_pg_user "$bin/initdb" --version >/dev/null 2>&1; then echo "$bin"; return 0; fi
  say "${PG_USER:-$(id -un)} cannot run $bin/initdb: using a copy of it"
  site=$(dirname "$(dirname "$(dirname "$bin")")")
  mkdir -p "$PG_TMP/wheel/pgserver"
  cp -r "$site/pgserver/pginstall" "$PG_TMP/wheel/pgserver/"
  if [ -d "$site/pgserver.libs" ]; then cp -r "$site/pgserver.libs" "$PG_TMP/wheel/"; fi
  echo "$PG_TMP/wheel/pgserver/pginstall/bin"
}

start_throwaway() {  # start_throwaway BIN_DIR WHERE_FROM
  local bin=$1 port version
  PG_TMP=$(mktemp -d /tmp/td-pg.XXXXXX)
  if [ "$(id -u)" = 0 ]; then
    # The server runs as postgres, or as nobody where Debian's package (which adds that user)
    # is not installed (TEST_PG_USER chooses); either owns the cluster's directory.
    PG_USER=${TEST_PG_USER:-nobody}
    if [ -z "${TEST_PG_USER:-}" ] && id postgres >/dev/null 2>&1; then PG_USER=postgres; fi
    chown "$PG_USER" "$PG_TMP"
  fi
  bin=$(reachable_pg_bin "$bin")
  PG_BIN=$bin
  port=$((20000 + RANDOM % 20000))
  as_pg_user "$bin/initdb" -D "$PG_TMP/data" -U postgres --auth=trust -E UTF8 --no-sync \
    >"$RUN_TMP/initdb.log" 2>&1 || { cat "$RUN_TMP/initdb.log" >&2; drop_throwaway; return 1; }
  as_pg_user "$bin/pg_ctl" -D "$PG_TMP/data" -l "$PG_TMP/server.log" -w \
    -o "-p $port -k $PG_TMP -c listen_addresses=127.0.0.1 -c fsync=off" start >/dev/null \
    || { cat "$PG_TMP/server.log" >&2; drop_throwaway; return 1; }
  export DATABASE_URL="postgres://postgres@127.0.0.1:$port/postgres"
  version=$("$bin/postgres" --version)  # "postgres (PostgreSQL) 16.2"
  PG_SAID="a throwaway cluster from $2 (PostgreSQL ${version#*) }) on port $port"
}

start_from_wheel() {
  local bin
  bin=$(wheel_pg_bin) || return 1
  start_throwaway "$bin" "the pgserver wheel"
}

start_from_installed() {
  local bin
  bin=$(installed_pg_bin) || return 1
  start_throwaway "$bin" "$bin"
}

setup_postgres() {
  case "${TEST_PG:-}" in
    throwaway) unset DATABASE_URL; start_from_installed && return 0 ;;
    wheel) unset DATABASE_URL; start_from_wheel && return 0 ;;
    "") ;;
    *) fail "TEST_PG must be throwaway, wheel or unset, not $TEST_PG" ;;
  esac
  [ -z "${TEST_PG:-}" ] || fail "could not start a throwaway PostgreSQL (TEST_PG=$TEST_PG)"
  if [ -n "${DATABASE_URL:-}" ]; then
    case "$DATABASE_URL" in postgres*) ;; *) fail "DATABASE_URL must point to PostgreSQL" ;; esac
    PG_SAID="DATABASE_URL from the environment"
  elif server_answers "postgres://postgres@127.0.0.1:5432/postgres"; then
    export DATABASE_URL="postgres://postgres@127.0.0.1:5432/postgres"
    PG_SAID="the server on 127.0.0.1:5432"
  elif ! { start_from_installed || start_from_wheel; }; then
    fail "no PostgreSQL available: set DATABASE_URL, start the server on 127.0.0.1:5432," \
         "or reinstall the pinned test tools (make install-dev) for the pgserver wheel"
  fi
}

# Chromium and the oracle first: they may stop the run, and cost nothing once there.
setup_chromium
setup_oracle
setup_postgres
say "PostgreSQL: $PG_SAID"
say "Chromium: $TEST_CHROMIUM"
say "bbpPairings: $BBP_EXE"
export TEST_CHROMIUM BBP_EXE REQUIRE_ORACLES=1

export TEST_DATABASE_NAME="${TEST_DATABASE_NAME:-test_td_$$}"
export SECRET_KEY="${SECRET_KEY:-test-secret-key-not-for-production}"
export DEBUG=0 ALLOWED_HOSTS="testserver,localhost,127.0.0.1" SECURE_COOKIES=0
# Each run collects static files into its own directory, so two runs never clash.
export STATIC_ROOT="$RUN_TMP/static"
"$PY" manage.py collectstatic --noinput -v 0
# Every core (pytest-xdist: one database per worker, test_td_<pid>_gw<N>), tests handed out by
# work stealing; TEST_WORKERS=0 runs in this one process, and `-n N` among the arguments wins.
workers=${TEST_WORKERS:-$(nproc)}
set +e
"$PY" -m pytest -n "$workers" --dist worksteal "$@"
status=$?
set -e
# pytest exits 5 when it collected no test: that is a failure of the suite, not a pass.
exit $status
