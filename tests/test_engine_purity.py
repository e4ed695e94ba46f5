"""House style 1: rule engines import no Django and no models (a lint rule as a test).

Every module listed here must only import the standard library and other engines.
"""

from __future__ import annotations

import ast

import pytest

from tests.conftest import REPO

ENGINES = [
    "events/trf.py",
    "events/trf_fields.py",
    "events/errors.py",
    "events/limits.py",
    "events/duplicates.py",
    "events/registries.py",
    "events/regulations.py",
    "events/records.py",
    "events/crosstable.py",
    "events/sources.py",
    "events/spreadsheet.py",
    "events/numbers.py",
    "standings/registry.py",
    "standings/tiebreaks.py",
    "standings/ranking.py",
    "standings/chains.py",
    "standings/presets.py",
    "standings/output.py",
    "standings/compute.py",
    "standings/catalogue.py",
    "draws/berger.py",
    "draws/lots.py",
    "draws/varma.py",
    "playoffs/rules.py",
    "playoffs/timecontrols.py",
    "prizes/split.py",
    "prizes/tour.py",
    "prizes/categories.py",
    "formats/gnot/bridge.py",
    "formats/gnot/rules.py",
    "formats/gnot/draw.py",
    "formats/gnot/presets.py",
    "formats/cohen/rules.py",
    "formats/cohen/draw.py",
    "formats/cohen/playoff.py",
    "formats/cohen/presets.py",
    "formats/mso/rules.py",
    "formats/mso/perfect_scores.py",
    "formats/mso/presets.py",
    "ratings/parsers.py",
    "ratings/names.py",
    "fiderating/rating.py",
    "fiderating/norms.py",
    "fiderating/report.py",
]
# The Swiss pairing engine: every module of the package (issue 14).
ENGINES += sorted(
    str(path.relative_to(REPO)) for path in (REPO / "draws" / "swiss" / "pairing").glob("*.py")
)
ENGINE_MODULES = {
    path.removesuffix(".py").removesuffix("/__init__").replace("/", ".") for path in ENGINES
}


def imported_modules(path: str) -> set[str]:
    tree = ast.parse((REPO / path).read_text())
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if (REPO / node.module.replace(".", "/")).is_dir():  # ``from package import module``
                names.update(f"{node.module}.{alias.name}" for alias in node.names)
            else:
                names.add(node.module)
    return names


@pytest.mark.parametrize("path", [p for p in ENGINES if (REPO / p).exists()])
def test_engine_imports_no_django_and_no_app_module(path):
    project_packages = {
        "events",
        "standings",
        "draws",
        "playoffs",
        "prizes",
        "formats",
        "config",
        "ratings",
        "fiderating",
    }
    for module in imported_modules(path):
        top = module.split(".")[0]
        assert top != "django", f"{path} imports {module}"
        if top in project_packages:
            assert module in ENGINE_MODULES, f"{path} imports the non-engine module {module}"
