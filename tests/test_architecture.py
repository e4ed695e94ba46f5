"""The layout's rules, checked on the import graph (issue 15; docs/architecture.md).

The graph is read from the source with :mod:`ast`, every import included: at module level,
inside functions and under ``TYPE_CHECKING``. A module that imports another only inside a
function still depends on it, and a cycle hidden that way is still a cycle.

- No import cycle between modules.
- ``events`` is the foundation: it imports nothing from the apps above it, nor the project
  package ``config`` (settings come through ``django.conf``; ``config`` registers its own
  deployment checks from its ``AppConfig``).
- The core apps (events, standings, draws, playoffs, prizes, config) never import a format app:
  a format plugs in through the seam (``events.formats``), and the settings and root URLs name
  it only as a string.
- A format app imports no other format app: each is one folder that can be read, tested and
  removed on its own.
- The rating lists (``ratings``) sit above the foundation like a format: no core app and no
  format imports them; they plug into the players page through ``events.contributions``.
- The FIDE rating report (``fiderating``) sits there too: no core app, no format and neither
  the rating lists nor the player's page import it; it plugs in through
  ``events.contributions``.
"""

from __future__ import annotations

import ast
import graphlib
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import REPO

CORE_APPS = ("events", "standings", "draws", "playoffs", "prizes", "config", "accounts")
PACKAGES = (*CORE_APPS, "formats", "ratings", "playerpage", "fiderating")
# The project package (settings, root URLs, deployment checks) is above everything: the
# foundation reads settings through django.conf, never by importing config.
ABOVE_THE_FOUNDATION = (
    "standings",
    "draws",
    "playoffs",
    "prizes",
    "formats",
    "ratings",
    "playerpage",
    "config",
    "fiderating",
)


def _module_name(path: Path) -> str:
    parts = path.relative_to(REPO).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _sources() -> dict[str, Path]:
    modules = {}
    for package in PACKAGES:
        for path in (REPO / package).rglob("*.py"):
            if "migrations" not in path.parts:
                modules[_module_name(path)] = path
    return modules


MODULES = _sources()


def _target(name: str) -> str | None:
    """The project module an imported dotted name refers to (the longest known prefix)."""
    parts = name.split(".")
    for end in range(len(parts), 0, -1):
        candidate = ".".join(parts[:end])
        if candidate in MODULES:
            return candidate
    return None


def _imported(path: Path) -> Iterator[str]:
    package = _module_name(path) if path.name == "__init__.py" else _module_name(path.parent)
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # ``from .model import X`` inside a package
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            # ``from standings import views`` imports the module standings.views.
            yield from (f"{base}.{alias.name}" for alias in node.names)


def _graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for module, path in MODULES.items():
        targets = {_target(name) for name in _imported(path)}
        graph[module] = {t for t in targets if t is not None and t != module}
    return graph


GRAPH = _graph()


def _cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import cycle (its modules, the first repeated at the end), or [] when there is none."""
    try:
        graphlib.TopologicalSorter(graph).prepare()
    except graphlib.CycleError as error:
        return list(error.args[1])
    return []


def _app(module: str) -> str:
    parts = module.split(".")
    return ".".join(parts[:2]) if parts[0] == "formats" and len(parts) > 1 else parts[0]


def test_the_graph_is_read() -> None:
    """The checks below see real edges (a broken reader would pass them all)."""
    assert "events.models" in GRAPH["events.services"]
    assert "events.contributions" in GRAPH["ratings.contributions"]
    assert "events.formats" in GRAPH["standings.selectors"]
    assert "formats.gnot.models" in GRAPH["formats.gnot.services"]
    assert len(MODULES) > 100


def test_no_import_cycle() -> None:
    assert _cycle(GRAPH) == []


def test_cycle_finder_finds_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert sorted(set(_cycle(graph))) == ["a", "b", "c"]
    assert _cycle({"a": {"b"}, "b": set()}) == []


@pytest.mark.parametrize("module", sorted(m for m in GRAPH if _app(m) == "events"))
def test_the_foundation_imports_nothing_above_it(module: str) -> None:
    above = sorted(t for t in GRAPH[module] if t.split(".")[0] in ABOVE_THE_FOUNDATION)
    assert above == [], f"{module} imports {above}"


@pytest.mark.parametrize("module", sorted(m for m in GRAPH if _app(m) in CORE_APPS))
def test_the_core_never_imports_a_format(module: str) -> None:
    formats = sorted(t for t in GRAPH[module] if t.split(".")[0] == "formats")
    assert formats == [], f"{module} imports {formats}: go through events.formats"


@pytest.mark.parametrize("module", sorted(m for m in GRAPH if _app(m).startswith("formats.")))
def test_a_format_imports_no_other_format(module: str) -> None:
    own = _app(module)
    others = sorted(
        t for t in GRAPH[module] if t.startswith("formats.") and _app(t) not in (own, "formats")
    )
    assert others == [], f"{module} imports {others}"


@pytest.mark.parametrize(
    "module", sorted(m for m in GRAPH if _app(m) in CORE_APPS or _app(m).startswith("formats"))
)
def test_nothing_below_imports_the_rating_lists(module: str) -> None:
    ratings = sorted(t for t in GRAPH[module] if t.split(".")[0] == "ratings")
    assert ratings == [], f"{module} imports {ratings}: go through events.contributions"


@pytest.mark.parametrize(
    "module",
    sorted(m for m in GRAPH if _app(m).split(".")[0] not in ("fiderating",)),
)
def test_nothing_else_imports_the_rating_report(module: str) -> None:
    report = sorted(t for t in GRAPH[module] if t.split(".")[0] == "fiderating")
    assert report == [], f"{module} imports {report}: go through events.contributions"


# -- The map stays true (docs/architecture.md, issue 31) ---------------------------------------

DOC = (REPO / "docs" / "architecture.md").read_text(encoding="utf-8")


def _table_rows(heading: str) -> list[str]:
    """The first column of the table under ``heading`` (a line of the doc)."""
    section = DOC.split(heading, 1)[1]
    rows = []
    for line in section.splitlines()[1:]:
        if line.startswith("#"):
            break
        if line.startswith("| `"):
            rows.append(line.split("|")[1].strip())
    return rows


def test_every_app_of_the_project_has_its_row_in_the_layout() -> None:
    from django.apps import apps

    local = sorted(
        str(Path(app.path).relative_to(REPO)) + "/"
        for app in apps.get_app_configs()
        if Path(app.path).is_relative_to(REPO) and ".venv" not in Path(app.path).parts
    )
    rows = {row.strip("`") for row in _table_rows("| Path | What |")}
    assert "config/" in local and "formats/teams/" in local  # the walk sees the project
    assert [app for app in local if app not in rows] == []


def _hooks(cls: type, heading: str, own: set[str]) -> tuple[list[str], set[str]]:
    import dataclasses

    fields = [f.name for f in dataclasses.fields(cls) if f.name not in own]
    named = {name for row in _table_rows(heading) for name in re.findall(r"`([a-z_]+)", row)}
    return fields, named


def test_every_hook_of_the_format_seam_is_in_the_map() -> None:
    from events.formats import Format

    fields, named = _hooks(Format, "| Hook | Who asks | What the format gives |", {"code", "name"})
    assert len(fields) > 20
    assert [f for f in fields if f not in named] == []


def test_every_contributor_hook_is_in_the_map() -> None:
    from events.contributions import Contributor

    fields, named = _hooks(
        Contributor, "| Hook | Where it shows | Who contributes today |", {"code"}
    )
    assert len(fields) > 8
    assert [f for f in fields if f not in named] == []
