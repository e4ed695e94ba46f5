"""Thin function views of the rating report (house style 3).

- ``report`` and ``player`` are public pages (``events.caching.public_page``): every player's
  rating change, performance and norms, and one player's games with their terms, norms and
  what the next game needs. They run a fixed number of queries; the report is computed once
  per results version (fiderating.selectors).
- ``manage`` is the director's: the norm conditions, each player's K set by hand, the norm
  watch (what each player near a norm needs next) and the certificates.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from events import selectors as event_selectors
from events.access import event_for_director, event_for_results
from events.caching import public_page
from events.errors import UserError
from events.models import Event
from fiderating import presenters, selectors, services
from fiderating.certificate import certificate_pdf
from fiderating.exports import CONTENT_TYPES, report_csv, report_xlsx
from fiderating.forms import ConditionsForm, KForm
from fiderating.rating import K_VALUES


@public_page
def report(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_selectors.event_get(slug)
    data = selectors.rating_report(event)
    context = {
        "event": event,
        "report": data,
        "lines": [presenters.line(row) for row in data.rows],
    }
    return render(request, "fiderating/report.html", context)


def report_download(request: HttpRequest, slug: str, fmt: str) -> HttpResponse:
    """The report as CSV or XLSX (every player's figures and the norms reached), for anyone:
    the report is kept per results version, so a download costs the writing only."""
    if fmt not in CONTENT_TYPES:
        raise Http404("The rating report downloads as .csv or .xlsx")
    event = event_selectors.event_get(slug)
    data = selectors.rating_report(event)
    body: str | bytes = report_csv(data) if fmt == "csv" else report_xlsx(data)
    response = HttpResponse(body, content_type=CONTENT_TYPES[fmt])
    response["Content-Disposition"] = f'attachment; filename="{slug}-rating-report.{fmt}"'
    return response


@public_page
def player(request: HttpRequest, slug: str, start_no: int) -> HttpResponse:
    event = event_selectors.event_get(slug)
    data = selectors.rating_report(event)
    row = data.row(start_no)
    if row is None:
        raise Http404("No such player")
    return render(request, "fiderating/player.html", _player_context(event, data, row))


def _player_context(event: Event, data: Any, row: Any) -> dict[str, Any]:
    names = {r.start_no: r.name for r in data.rows}
    return {
        "event": event,
        "report": data,
        "row": row,
        "line": presenters.line(row),
        "games": presenters.game_lines(row, names),
        "next": selectors.player_next_round(event, data, row.start_no),
    }


def manage(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_for_director(request, slug, open_only=False)
    data = selectors.rating_report(event)
    conditions = selectors.norm_conditions(event)
    ks = selectors.ks_set(event)
    context = {
        "event": event,
        "report": data,
        "lines": [(presenters.line(row), ks.get(row.start_no)) for row in data.rows],
        "conditions_form": ConditionsForm(
            initial={"kind": conditions.kind, "standings_columns": conditions.standings_columns}
        ),
        "watch": selectors.norm_watch(event, data),
        "k_values": K_VALUES,
    }
    return render(request, "fiderating/manage.html", context)


@require_POST
def k_set(request: HttpRequest, slug: str, start_no: int) -> HttpResponse:
    event = event_for_director(request, slug)
    form = KForm(request.POST)
    if not form.is_valid():
        messages.error(request, form.errors["k"][0])
    else:
        try:
            services.player_k_set(
                event=event, start_no=start_no, k=form.cleaned_data["k"], user=request.user
            )
        except UserError as exc:
            messages.error(request, str(exc))
        else:
            k = form.cleaned_data["k"]
            messages.success(
                request,
                f"Player {start_no}: K {k}, set by the arbiter."
                if k
                else f"Player {start_no}: K from the rating list or B.02 8.3.3.",
            )
    return redirect(reverse("fiderating:manage", args=[slug]) + f"#k-{start_no}")


@require_POST
def k_from_list(request: HttpRequest, slug: str) -> HttpResponse:
    """Every player's K from the event's rating list (players registered before its import or
    from a TRF)."""
    event = event_for_director(request, slug)
    try:
        refreshed = services.players_k_refresh(event=event, user=request.user)
    except UserError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, refreshed.summary() + ".")
    return redirect(reverse("fiderating:manage", args=[slug]) + "#k-table")


@require_POST
def conditions(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_for_director(request, slug)
    form = ConditionsForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Choose one of the kinds of event listed.")
        return redirect("fiderating:manage", slug=slug)
    try:
        services.norm_conditions_set(
            event=event,
            kind=form.cleaned_data["kind"],
            standings_columns=form.cleaned_data["standings_columns"],
            user=request.user,
        )
    except UserError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, "Saved the event's conditions for norms and the standings.")
    return redirect("fiderating:manage", slug=slug)


def certificate(request: HttpRequest, slug: str, start_no: int, title: str) -> HttpResponse:
    """The norm certificate (FIDE form IT1) of a norm the player reached, as a PDF, for the
    director and the arbiters; the chief arbiter named in the event's records signs it."""
    event = event_for_results(request, slug)
    try:
        cert = selectors.certificate_of(event, selectors.rating_report(event), start_no, title)
    except selectors.NoNorm as exc:
        raise Http404(str(exc)) from exc
    except UserError as exc:
        messages.error(request, str(exc))
        return redirect("fiderating:manage", slug=slug)
    response = HttpResponse(certificate_pdf(cert), content_type="application/pdf")
    name = f"{slug}-{start_no}-{title.lower()}-norm.pdf"
    response["Content-Disposition"] = f'inline; filename="{name}"'
    return response
