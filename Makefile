# Two commands: `make run` (set up and serve the demo) and `make test` (the whole suite).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip

.PHONY: run test lint bench install install-dev demo

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

# Serves http://127.0.0.1:8000 on SQLite (db.sqlite3) unless DATABASE_URL is set.
run: $(VENV)/.runtime
	DEBUG=1 $(PY) manage.py migrate --noinput
	DEBUG=1 $(PY) manage.py load_demo
	DEBUG=1 $(PY) manage.py runserver 127.0.0.1:8000

test: $(VENV)/.dev
	scripts/test.sh $(ARGS)

lint: $(VENV)/.dev
	scripts/lint.sh

bench: $(VENV)/.dev
	DEBUG=1 $(PY) bench/standings.py
