"""House style 1 for the team pairing engines (the Swiss package and the round robin): they
import no Django and no app module, only the standard library, themselves and the core's pure
engines (``tests/test_engine_purity.py``)."""

from __future__ import annotations

import pytest

from tests.conftest import REPO
from tests.test_engine_purity import ENGINE_MODULES, imported_modules

PACKAGE = REPO / "formats" / "teams" / "pairing"
MODULES = [
    *sorted(str(path.relative_to(REPO)) for path in PACKAGE.glob("*.py")),
    "formats/teams/berger.py",
    "formats/teams/records.py",
    "formats/teams/scoring.py",
    "formats/teams/trf.py",
    "formats/teams/tiebreaks.py",
]
OWN = {path.removesuffix(".py").removesuffix("/__init__").replace("/", ".") for path in MODULES}


def test_the_package_has_its_modules() -> None:
    assert "formats/teams/pairing/engine.py" in MODULES


@pytest.mark.parametrize("path", MODULES)
def test_imports_no_django_and_no_app_module(path: str) -> None:
    project = {"events", "standings", "draws", "playoffs", "prizes", "formats", "config"}
    for module in imported_modules(path):
        top = module.split(".")[0]
        assert top != "django", f"{path} imports {module}"
        if top in project:
            assert module in ENGINE_MODULES | OWN, f"{path} imports the non-engine module {module}"
