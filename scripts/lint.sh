#!/usr/bin/env bash
# House style 8: ruff (lint and format) on everything, mypy strict on the pure rule engines.
set -euo pipefail
cd "$(dirname "$0")/.."
.venv/bin/ruff check .
.venv/bin/ruff format --check .
.venv/bin/mypy --strict \
  events/trf.py events/trf_fields.py events/records.py events/crosstable.py events/registries.py \
  events/regulations.py events/sources.py events/spreadsheet.py events/limits.py \
  events/duplicates.py \
  standings/registry.py standings/tiebreaks.py standings/ranking.py standings/chains.py \
  standings/presets.py standings/output.py standings/compute.py standings/fastpath.py \
  standings/catalogue.py \
  draws/berger.py draws/lots.py draws/varma.py draws/swiss/pairing \
  playoffs/rules.py playoffs/timecontrols.py \
  prizes/split.py prizes/tour.py prizes/categories.py \
  formats/gnot/bridge.py formats/gnot/rules.py formats/gnot/draw.py formats/gnot/presets.py \
  formats/cohen/rules.py formats/cohen/draw.py formats/cohen/playoff.py \
  formats/cohen/presets.py \
  formats/mso/rules.py formats/mso/perfect_scores.py formats/mso/presets.py \
  formats/teams/pairing formats/teams/berger.py formats/teams/records.py \
  formats/teams/scoring.py formats/teams/trf.py formats/teams/tiebreaks.py \
  formats/teams/lineups.py formats/teams/history.py formats/teams/board_prizes.py \
  ratings/parsers.py ratings/names.py \
  fiderating/rating.py fiderating/norms.py fiderating/report.py
