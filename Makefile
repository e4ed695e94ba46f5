# Two commands: `make run` (set up and serve the demo) and `make test` (the whole suite).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip

.PHONY: run test test-pairing-full test-team-pairing-full lint bench bench-pairing \
	bench-team-pairing bench-team-standings test-team-tiebreak-full install install-dev demo

$(VENV)/.runtime: requirements.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PIP) install -q --upgrade pip
	$(PIP) install -q -r requirements.txt
	touch $@

$(VENV)/.dev: requirements.txt requirements-dev.txt $(VENV)/.runtime
	$(PIP) install -q -r requirements-dev.txt
	touch $@

install: $(VENV)/.runtime
install-dev: $(VENV)/.dev

# Serves http://127.0.0.1:8000 on SQLite (db.sqlite3) unless DATABASE_URL is set. Writes .env
# (DEBUG=1, development only, git-ignored) so that manage.py commands work afterwards as printed.
run: $(VENV)/.runtime .env
	DEBUG=1 $(PY) manage.py migrate --noinput
	DEBUG=1 $(PY) manage.py load_demo
	DEBUG=1 $(PY) manage.py runserver 127.0.0.1:8000

.env:
	printf '# Written by make run: development settings for manage.py (never on a server).\nDEBUG=1\n' > .env

test: $(VENV)/.dev
	scripts/test.sh $(ARGS)

# The whole differential run of the Swiss engine against bbpPairings (300+ generated
# tournaments, about 2 minutes); make test runs a seeded subset of it.
test-pairing-full: $(VENV)/.dev
	scripts/test.sh tests/draws/swiss -m pairing_full -q $(ARGS)

# The whole differential run of the team Swiss engine (C.04.6) against gacrux (200+ generated
# events, minutes); make test runs a seeded subset of it.
test-team-pairing-full: $(VENV)/.dev
	scripts/test.sh tests/formats/teams/pairing -m team_pairing_full -q $(ARGS)

# The whole differential run of the C.07 team tie-breaks against gacrux (200+ generated events,
# every round); make test runs a seeded subset of it.
test-team-tiebreak-full: $(VENV)/.dev
	scripts/test.sh tests/formats/teams/tiebreaks -m team_tiebreak_full -q $(ARGS)

lint: $(VENV)/.dev
	scripts/lint.sh

bench: $(VENV)/.dev
	DEBUG=1 $(PY) bench/standings.py

bench-pairing: $(VENV)/.dev
	DEBUG=1 $(PY) bench/pairing.py

bench-team-pairing: $(VENV)/.dev
	$(PY) bench/team_pairing.py

bench-team-standings: $(VENV)/.dev
	$(PY) bench/team_standings.py
