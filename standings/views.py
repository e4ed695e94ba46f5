"""Public live standings: tie-break columns, shared places, the explanation of any two adjacent
players, htmx polling that stops when the event is final, 304s for an unchanged version."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from events import selectors as event_selectors
from events.caching import public_page
from events.errors import UserError
from events.models import EventStatus
from standings import presenters
from standings.selectors import event_standings

POLL_SECONDS = 20


def _after_round(request: HttpRequest) -> int | None:
    raw = request.GET.get("after", "")
    return int(raw) if raw.isdigit() else None


@public_page
def standings(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_selectors.event_get(slug)
    error = ""
    try:
        table = event_standings(event, after_round=_after_round(request))
    except UserError as exc:
        error, table = str(exc), event_standings(event)
    context = {
        "event": event,
        "table": table,
        "rows": presenters.standings_rows(table),
        "error": error,
        "rounds": range(1, event.rounds + 1),
        "poll": event.status != EventStatus.FINISHED and _after_round(request) is None,
        "poll_seconds": POLL_SECONDS,
    }
    template = "standings/standings.html"
    if request.htmx:  # type: ignore[attr-defined]
        template += "#standings-table"
    return render(request, template, context)


@public_page
def explain(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_selectors.event_get(slug)
    try:
        table = event_standings(event, after_round=_after_round(request))
        a, b = int(request.GET.get("a", "")), int(request.GET.get("b", ""))
        comparison = presenters.explanation(table, a, b)
    except (UserError, ValueError) as exc:
        return render(
            request, "standings/explain.html", {"event": event, "error": str(exc)}, status=400
        )
    template = "standings/explain.html" + ("#explanation" if request.htmx else "")  # type: ignore[attr-defined]
    return render(request, template, {"event": event, "table": table, **comparison})
