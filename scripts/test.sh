#!/usr/bin/env bash
# Runs the whole suite on a real PostgreSQL (never SQLite):
#   1. DATABASE_URL if set;
#   2. else the server on 127.0.0.1:5432 (user postgres, trust authentication);
#   3. else a throwaway cluster made with initdb/pg_ctl in a temporary directory;
#   4. else a clear message and exit 2.
# Extra arguments go to pytest (e.g. `make test ARGS="-k standings"`).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python

server_answers() {
  "$PY" - "$1" <<'PYCODE' >/dev/null 2>&1
import sys, psycopg
psycopg.connect(sys.argv[1], connect_timeout=3).close()
PYCODE
}

find_pg_bin() {
  for dir in "$(dirname "$(command -v initdb 2>/dev/null || echo /nonexistent)")" /usr/lib/postgresql/*/bin; do
    if [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ]; then echo "$dir"; return 0; fi
  done
  return 1
}

start_throwaway() {
  local bin tmp port
  AS_USER=()
  bin=$(find_pg_bin) || return 1
  tmp=$(mktemp -d /tmp/td-pg.XXXXXX)
  PG_BIN=$bin PG_TMP=$tmp
  port=$(( 20000 + RANDOM % 20000 ))
  if [ "$(id -u)" = 0 ]; then  # initdb refuses to run as root
    id postgres >/dev/null 2>&1 || return 1
    chown postgres "$tmp"
    AS_USER=(runuser -u postgres --)
  fi
  "${AS_USER[@]}" "$bin/initdb" -D "$tmp/data" -U postgres --auth=trust -E UTF8 >"$tmp/initdb.log" 2>&1 || { cat "$tmp/initdb.log" >&2; return 1; }
  "${AS_USER[@]}" "$bin/pg_ctl" -D "$tmp/data" -l "$tmp/server.log" -w \
    -o "-p $port -k $tmp -c listen_addresses=127.0.0.1 -c fsync=off" start >/dev/null || { cat "$tmp/server.log" >&2; return 1; }
  trap '"${AS_USER[@]}" "$PG_BIN/pg_ctl" -D "$PG_TMP/data" -m immediate stop >/dev/null 2>&1; rm -rf "$PG_TMP"' EXIT
  export DATABASE_URL="postgres://postgres@127.0.0.1:$port/postgres"
  echo "make test: started a throwaway PostgreSQL on port $port" >&2
}

# TEST_PG=throwaway skips the first two (to exercise the throwaway cluster on purpose).
if [ "${TEST_PG:-}" = throwaway ]; then
  unset DATABASE_URL
  start_throwaway || { echo "make test: could not start a throwaway PostgreSQL" >&2; exit 2; }
elif [ -n "${DATABASE_URL:-}" ]; then
  case "$DATABASE_URL" in postgres*) ;; *) echo "make test: DATABASE_URL must point to PostgreSQL" >&2; exit 2;; esac
elif server_answers "postgres://postgres@127.0.0.1:5432/postgres"; then
  export DATABASE_URL="postgres://postgres@127.0.0.1:5432/postgres"
elif ! start_throwaway; then
  echo "make test: no PostgreSQL available. Set DATABASE_URL, start the server on 127.0.0.1:5432" \
       "(pg_ctlcluster --skip-systemctl-redirect \$(ls /etc/postgresql) main start)," \
       "or install the server binaries (apt-get install postgresql) so a throwaway cluster can be started." >&2
  exit 2
fi

export TEST_DATABASE_NAME="${TEST_DATABASE_NAME:-test_td_$$}"
export SECRET_KEY="${SECRET_KEY:-test-secret-key-not-for-production}"
export DEBUG=0 ALLOWED_HOSTS="testserver,localhost,127.0.0.1" SECURE_COOKIES=0
# Each run collects static files into its own directory, so two runs never clash.
STATIC_ROOT=$(mktemp -d /tmp/td-static.XXXXXX)
export STATIC_ROOT
"$PY" manage.py collectstatic --noinput -v 0
set +e
"$PY" -m pytest "$@"
status=$?
set -e
rm -rf "$STATIC_ROOT"
# pytest exits 5 when it collected no test: that is a failure of the suite, not a pass.
exit $status
