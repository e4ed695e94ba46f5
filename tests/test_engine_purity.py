"""House style 1: rule engines import no Django and no models (a lint rule as a test).

Every module listed here must only import the standard library and other engines.
"""

from __future__ import annotations

import ast

import pytest

from tests.conftest import REPO

ENGINES = [
    "events/trf.py",
    "events/errors.py",
    "events/regulations.py",
    "events/records.py",
    "standings/registry.py",
    "standings/tiebreaks.py",
    "standings/ranking.py",
    "standings/chains.py",
    "standings/presets.py",
    "standings/output.py",
    "standings/compute.py",
    "standings/catalogue.py",
    "standings/bridge.py",
    "standings/gnot.py",
    "standings/cohen.py",
    "standings/multiplayer.py",
    "draws/berger.py",
    "draws/lots.py",
    "draws/varma.py",
    "draws/gnot.py",
    "draws/cohen.py",
    "playoffs/rules.py",
    "playoffs/timecontrols.py",
    "prizes/split.py",
    "prizes/tour.py",
    "prizes/categories.py",
]
ENGINE_MODULES = {path.removesuffix(".py").replace("/", ".") for path in ENGINES}


def imported_modules(path: str) -> set[str]:
    tree = ast.parse((REPO / path).read_text())
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module in {"events", "standings", "draws", "playoffs", "prizes"}:
                names.update(f"{node.module}.{alias.name}" for alias in node.names)
            else:
                names.add(node.module)
    return names


@pytest.mark.parametrize("path", [p for p in ENGINES if (REPO / p).exists()])
def test_engine_imports_no_django_and_no_app_module(path):
    project_packages = {"events", "standings", "draws", "playoffs", "prizes", "config"}
    for module in imported_modules(path):
        top = module.split(".")[0]
        assert top != "django", f"{path} imports {module}"
        if top in project_packages:
            assert module in ENGINE_MODULES, f"{path} imports the non-engine module {module}"
