#!/usr/bin/env bash
# House style 8: ruff (lint and format) on everything, mypy strict on the pure rule engines.
set -euo pipefail
cd "$(dirname "$0")/.."
.venv/bin/ruff check .
.venv/bin/ruff format --check .
.venv/bin/mypy --strict \
  events/trf.py \
  events/records.py standings/registry.py standings/tiebreaks.py standings/ranking.py \
  standings/chains.py standings/presets.py standings/output.py standings/bridge.py \
  standings/gnot.py standings/cohen.py standings/multiplayer.py standings/compute.py \
  standings/fastpath.py \
  draws/berger.py draws/lots.py draws/varma.py draws/gnot.py draws/cohen.py \
  playoffs/rules.py playoffs/timecontrols.py \
  prizes/split.py prizes/tour.py prizes/categories.py
