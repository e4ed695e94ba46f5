"""Nobody outside the team knows what a "seed" is: no page, command output or export says
"seed 0…" (the team's name for a regulation document, ``shared/seeds/``); they cite the
document by its readers' name (:mod:`events.sources`).

The demo (``load_demo``) is loaded once and committed for the module. Every URL of the project,
enumerated from the resolver as ``tests/test_permission_matrix.py`` does, is filled with the
demo's real objects (each event-scoped URL for every demo event, its rounds, matches and
sessions) and opened by a superuser (the director's pages, and the admin) and by an anonymous
visitor. Every export is read too: ``export_event`` and ``export_trf`` of every event, the
``standings``, ``playoff`` and ``prizes`` commands in each of their formats, ``pair`` and
``varma_draw`` where they apply, each command's help, and the prize sheet downloads (PDF text
by pypdf, XLSX by its XML parts).

A last check reads the source: a string literal that is not a docstring, or template text,
must not say it either (error messages that the demo never triggers).
"""

from __future__ import annotations

import ast
import io
import re
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management import call_command, get_commands, load_command_class
from django.core.management.base import CommandError
from django.test import Client
from pypdf import PdfReader

from events.errors import UserError
from events.models import Event, Round
from prizes.services import prize_sheet_approve
from tests.conftest import REPO
from tests.test_permission_matrix import ROUTES, Route

SEED_WORD = re.compile(r"seed(?:\s|&nbsp;|&#160;|\\u00a0)*0", re.IGNORECASE)
PERSONAS = ("superuser", "anonymous")
SHEET_FORMATS = ("csv", "xlsx", "pdf", "json")


def _offences(where: str, text: str) -> list[str]:
    return [
        f"{where}: …{text[max(0, m.start() - 60) : m.end() + 40]!r}…"
        for m in SEED_WORD.finditer(text)
    ]


def _text(body: bytes) -> str:
    """What a reader sees in a body: a PDF's text, an XLSX's XML parts, else the text."""
    if body.startswith(b"%PDF"):
        return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(body)).pages)
    if body.startswith(b"PK"):
        with zipfile.ZipFile(io.BytesIO(body)) as archive:
            return "\n".join(
                archive.read(name).decode("utf-8", "replace") for name in archive.namelist()
            )
    return body.decode("utf-8", "replace")


# -- The world: the demo, committed once -------------------------------------------------------


def _approve_prize_sheets(user: Any) -> None:
    """Approved sheets, so that the public ``sheet.*`` downloads exist where prizes apply."""
    for event in Event.objects.order_by("slug"):
        try:
            prize_sheet_approve(event=event, user=user)
        except UserError:  # no prizes for this event (a format without a sheet, no fund)
            continue


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker) -> Iterator[dict[str, Any]]:  # type: ignore[no-untyped-def]
    with django_db_blocker.unblock():
        call_command("load_demo", stdout=io.StringIO())
        superuser = get_user_model().objects.create_superuser("sam-super", password="x")
        _approve_prize_sheets(superuser)
        client = Client()
        client.force_login(superuser)
        yield {"superuser": client, "anonymous": Client()}
        call_command("flush", interactive=False, verbosity=0)


# -- Every URL, filled with the demo's objects -------------------------------------------------


def _rounds(event: Event) -> list[int]:
    """The first and the last round the event holds, and the next one to pair (if any)."""
    held = sorted(Round.objects.filter(event=event).values_list("number", flat=True))
    numbers = {1, *held[-1:]}
    if held and held[-1] < event.rounds:
        numbers.add(held[-1] + 1)
    return sorted(numbers)


def _matches(event: Event) -> list[int]:
    from formats.gnot.models import TeamMatch

    return list(TeamMatch.objects.filter(event=event).order_by("pk").values_list("pk", flat=True))


def _event_values(route: Route, event: Event) -> Iterator[dict[str, Any]]:
    from formats.gnot.views import SESSION_CODES

    values: dict[str, list[Any]] = {
        "slug": [event.slug],
        "number": _rounds(event),
        "match_id": _matches(event)[:1] + _matches(event)[-1:],
        "fmt": list(SHEET_FORMATS),
        "code": list(SESSION_CODES) if "/gnot/" in route.route else [1],
    }
    combos: list[dict[str, Any]] = [{}]
    for name in route.params:
        # The other parameters belong to POST-only URLs (games, entries, stages, categories):
        # a GET is refused before any lookup, so any value does.
        choices = values.get(name, [1])
        combos = [{**combo, name: choice} for combo in combos for choice in choices]
    yield from combos


def _admin_values(route: Route) -> Iterator[dict[str, Any]]:
    """The admin: a real object of the URL's model (``admin:app_model_change``)."""
    if not route.params:
        yield {}
        return
    if route.params != ("object_id",):
        return  # view_on_site only redirects
    for model in apps.get_models():
        # Named ``admin:<app>_<model>_change`` and the like; the unnamed catch-all redirects.
        if route.key.startswith(f"admin:{model._meta.app_label}_{model._meta.model_name}_"):
            first = model._default_manager.order_by("pk").first()
            if first is not None:
                yield {"object_id": first.pk}


def _kwargs(route: Route) -> Iterator[dict[str, Any]]:
    if route.route.startswith("admin/"):
        yield from _admin_values(route)
    elif route.route.startswith("series/") and route.params:
        from prizes.models import Series

        for slug in Series.objects.order_by("slug").values_list("slug", flat=True):
            yield {"slug": slug}
    elif "slug" in route.params:
        for event in Event.objects.order_by("slug"):
            yield from _event_values(route, event)
    elif route.key == "password_reset_confirm":
        yield {"uidb64": "MQ", "token": "not-a-token"}  # a broken link: the page says so
    else:  # no parameter, or a POST-only URL's (a rating list's delete): any value does
        yield dict.fromkeys(route.params, 1)


def _url(route: Route, kwargs: dict[str, Any]) -> str:
    url = "/" + route.route.replace("^", "").replace("$", "")
    url = re.sub(r"\(\?P<(\w+)>[^)]*\)", lambda m: str(kwargs[m.group(1)]), url)
    return re.sub(r"<(?:\w+:)?(\w+)>", lambda m: str(kwargs[m.group(1)]), url)


CASES = [
    pytest.param(route, who, id=f"{route.key}-{who}")
    for route in ROUTES
    for who in PERSONAS
    if not (who == "anonymous" and route.route.startswith("admin/"))
]


@pytest.mark.django_db
@pytest.mark.parametrize(("route", "who"), CASES)
def test_no_page_says_seed(route: Route, who: str, demo: dict[str, Any]) -> None:
    client = demo[who]
    offences = []
    for kwargs in _kwargs(route):
        url = _url(route, kwargs)
        response = client.get(url)
        assert response.status_code < 500, f"GET {url} as {who}: {response.status_code}"
        body = b"".join(response.streaming_content) if response.streaming else response.content
        offences += _offences(f"GET {url} as {who}", _text(body))
    assert not offences, "\n".join(offences)


# -- Every export and every command's output ---------------------------------------------------


def _run(*args: str, **options: Any) -> str:
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command(*args, stdout=out, stderr=err, **options)
    except (CommandError, SystemExit) as exc:  # refusals are output too
        err.write(str(exc))
    return out.getvalue() + err.getvalue()


def _slugs() -> list[str]:
    return list(Event.objects.order_by("slug").values_list("slug", flat=True))


@pytest.mark.django_db
def test_no_export_says_seed(demo: dict[str, Any]) -> None:
    offences = []
    for slug in _slugs():
        runs: list[tuple[str, ...]] = [("export_event", slug), ("export_trf", slug)]
        runs += [("standings", slug, f"--format={fmt}") for fmt in ("json", "csv", "text")]
        runs += [("playoff", slug, f"--format={fmt}") for fmt in ("json", "text")]
        runs += [("prizes", slug, f"--format={fmt}") for fmt in ("json", "csv")]
        runs += [("prizes", slug, "--approved", f"--format={fmt}") for fmt in ("json", "csv")]
        for run in runs:
            offences += _offences(" ".join(run), _run(*run))
    assert not offences, "\n".join(offences)


@pytest.mark.django_db
def test_no_binary_prize_sheet_says_seed(demo: dict[str, Any], tmp_path: Path) -> None:
    offences, written = [], set()
    for slug in _slugs():
        for fmt in ("xlsx", "pdf"):
            for approved in ((), ("--approved",)):
                path = tmp_path / f"{slug}.{fmt}"
                message = _run("prizes", slug, f"--format={fmt}", f"--output={path}", *approved)
                text = _text(path.read_bytes()) if path.exists() else ""
                offences += _offences(f"prizes {slug} {fmt} {approved}", message + text)
                written |= {fmt} if text else set()
                path.unlink(missing_ok=True)
    assert written == {"xlsx", "pdf"}, "the demo should have prize sheets to read"
    assert not offences, "\n".join(offences)


@pytest.mark.django_db
def test_no_draw_output_says_seed(demo: dict[str, Any]) -> None:
    """``pair`` (checked and dry-run) for the Swiss events, ``varma_draw`` for the others. The
    test's transaction is rolled back, so a recorded draw does not outlive it."""
    offences = []
    for event in Event.objects.order_by("slug"):
        if event.system == "swiss":
            runs = [
                ("pair", event.slug, flag, f"--format={fmt}")
                for flag in ("--check", "--dry-run")
                for fmt in ("json", "text")
            ]
        else:
            runs = [
                ("varma_draw", event.slug, "--seed=words", f"--format={fmt}")
                for fmt in ("json", "text")
            ]
        for run in runs:
            offences += _offences(" ".join(run), _run(*run))
    assert not offences, "\n".join(offences)


PROJECT = ("config", "events", "standings", "draws", "playoffs", "prizes", "formats")
COMMANDS = sorted(name for name, app in get_commands().items() if app.split(".")[0] in PROJECT)


@pytest.mark.parametrize("name", COMMANDS)
def test_no_command_help_says_seed(name: str) -> None:
    command = load_command_class(get_commands()[name], name)
    assert not _offences(name, command.create_parser("manage.py", name).format_help())


# -- The source: literals that can reach a reader ----------------------------------------------


def _literals(path: Path) -> Iterator[tuple[int, str]]:
    """String literals other than docstrings (a bare string statement is one)."""
    tree = ast.parse(path.read_text())
    bare = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in bare:
            yield node.lineno, node.value


def _sources() -> Iterator[Path]:
    for package in PROJECT:
        yield from (REPO / package).rglob("*.py")
        yield from (REPO / package).rglob("*.html")
    yield from (REPO / "templates").rglob("*.html")


def test_no_literal_or_template_says_seed() -> None:
    offences = []
    for path in _sources():
        where = path.relative_to(REPO)
        if path.suffix == ".html":
            offences += _offences(str(where), path.read_text())
            continue
        for line, text in _literals(path):
            offences += _offences(f"{where}:{line}", text)
    assert not offences, "\n".join(offences)
