"""Thin function views of the player's page (house style 3).

The private page ``/p/TOKEN/`` needs no login: the token is the key. An unknown, malformed or
revoked token gets a plain 404 and nothing else. The page's data are computed once per player
and results version (:func:`playerpage.selectors.player_page`); a browser that has the current
page gets 304, so the page's poll costs what a public page's costs.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.http import parse_etags
from django.views.decorators.http import require_http_methods, require_POST

from events.access import event_for_director, event_for_results
from events.errors import ResultConflict, UserError
from events.forms import seen_version
from events.limits import whole_number
from events.links import absolute_url
from events.selectors import event_version
from playerpage import selectors, services
from playerpage.cards import Card
from playerpage.cards import cards_pdf as render_cards_pdf
from playerpage.forms import LinkActionForm, PolicyForm, ReportForm
from playerpage.models import Policy


def _private(response: HttpResponse) -> HttpResponse:
    """Nobody else's cache keeps it, no search engine lists it, and no link on it sends the
    token to another site in a Referer header (``same-origin``: ``no-referrer`` would make
    the browser send ``Origin: null`` with the report, which the CSRF check refuses)."""
    patch_cache_control(response, private=True, no_cache=True)
    patch_vary_headers(response, ["Cookie", "HX-Request"])
    response["Referrer-Policy"] = "same-origin"
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


def _etag(request: HttpRequest, ref: selectors.LinkRef) -> str | None:
    """(player, version, htmx, the visitor's CSRF cookie: the form carries a token made from
    it); none while a message waits to be shown."""
    csrf = request.META.get("CSRF_COOKIE")  # the cookie's value, or the one being set
    if csrf is None or "messages" in request.COOKIES:
        return None
    version = event_version(ref.slug)
    htmx = "h" if getattr(request, "htmx", False) else "p"
    digest = hashlib.sha256(f"{ref.key}|{version}|{htmx}|{csrf}".encode()).hexdigest()
    return f'"pp-{digest[:24]}"'


@require_http_methods(["GET", "HEAD", "POST"])
def page(request: HttpRequest, token: str) -> HttpResponse:
    ref = selectors.link_lookup(token)
    if ref is None:
        raise Http404("No such page")
    if request.method == "POST":
        return _private(_report(request, token, ref))
    get_token(request)  # a CSRF cookie even while there is no form: the ETag names it
    etag = _etag(request, ref)
    if etag is not None and etag in parse_etags(request.headers.get("If-None-Match", "")):
        response = HttpResponse(status=304)
    else:
        response = _render(request, token, ref, ReportForm(), status=200)
    if etag is not None:
        response["ETag"] = etag
    return _private(response)


def _render(
    request: HttpRequest,
    token: str,
    ref: selectors.LinkRef,
    form: ReportForm,
    *,
    status: int,
    refusal: str = "",
) -> HttpResponse:
    data = selectors.player_page(token, ref)
    if data is None:
        raise Http404("No such page")
    context = {
        "page": data,
        "form": form,
        "refusal": refusal,
        "poll": selectors.POLL_SECONDS,
        "blocks": data.blocks,
    }
    template = (
        "playerpage/page.html#player-now"
        if getattr(request, "htmx", False)
        else "playerpage/page.html"
    )
    return render(request, template, context, status=status)


def _report(request: HttpRequest, token: str, ref: selectors.LinkRef) -> HttpResponse:
    form = ReportForm(request.POST)
    if not form.is_valid():
        return _render(request, token, ref, form, status=400, refusal="Report 1-0, 1/2-1/2 or 0-1.")
    try:
        outcome = services.result_report_submit(token=token, result=form.cleaned_data["result"])
    except services.LinkUnknown as exc:
        raise Http404("No such page") from exc
    except services.ReportRefused as exc:
        return _render(request, token, ref, form, status=exc.status, refusal=str(exc))
    except ResultConflict:
        refusal = "The arbiter has just entered a result: see the arbiter."
        return _render(request, token, ref, form, status=409, refusal=refusal)
    except UserError as exc:  # the closed event
        return _render(request, token, ref, form, status=403, refusal=str(exc))
    if outcome.late:
        return _render(request, token, ref, form, status=409, refusal=services.SEE_THE_ARBITER)
    messages.success(
        request,
        "Thank you: both reports agree, the result is in."
        if outcome.entered
        else "Thank you: your report waits for your opponent's or the arbiter's.",
    )
    return redirect(reverse("playerpage:page", args=[token]), permanent=False)


# -- The director's side -------------------------------------------------------------------------


def links(request: HttpRequest, slug: str) -> HttpResponse:
    """Every player's link and the policy (the players page shows the same block)."""
    event = event_for_director(request, slug)
    context = {"event": event, "data": _links_context(event)}
    return render(request, "playerpage/links.html", context)


def _links_context(event: Any) -> dict[str, Any]:
    return {
        "event": event,
        "links": selectors.player_links(event),
        "missing": selectors.links_missing(event),
        "policy_form": PolicyForm(initial={"policy": selectors.policy_of(event)}),
    }


@require_POST
def link_action(request: HttpRequest, slug: str, start_no: int) -> HttpResponse:
    event = event_for_director(request, slug)
    form = LinkActionForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Revoke or re-issue: nothing else.")
        return redirect("playerpage:links", slug=slug)
    action = (
        services.player_link_revoke
        if form.cleaned_data["action"] == "revoke"
        else services.player_link_reissue
    )
    try:
        action(event=event, start_no=start_no, user=request.user)
    except UserError as exc:
        messages.error(request, str(exc))
    else:
        done = "revoked" if form.cleaned_data["action"] == "revoke" else "has a new link"
        messages.success(request, f"Player {start_no}'s link {done}.")
    return redirect(reverse("playerpage:links", args=[slug]) + f"#link-{start_no}")


@require_POST
def links_issue(request: HttpRequest, slug: str) -> HttpResponse:
    """A link for every player who has none (after registration, a late entry)."""
    event = event_for_director(request, slug)
    try:
        issued = services.player_links_issue(event=event, user=request.user)
    except UserError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, f"Issued {issued} link{'s' if issued != 1 else ''}.")
    return redirect("playerpage:links", slug=slug)


@require_POST
def policy(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_for_director(request, slug)
    form = PolicyForm(request.POST)
    if not form.is_valid():
        messages.error(request, f"Choose one of: {', '.join(str(p.label) for p in Policy)}.")
        return redirect("playerpage:links", slug=slug)
    try:
        services.reporting_policy_set(
            event=event, policy=form.cleaned_data["policy"], user=request.user
        )
    except UserError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, f"Players' reports: {Policy(form.cleaned_data['policy']).label}.")
    return redirect("playerpage:links", slug=slug)


def _cards_page(request: HttpRequest, event: Any) -> tuple[selectors.CardsPage, list[Card]]:
    """``?page=N`` of the cards (the first without it); 404 for a page the event lacks."""
    number = whole_number(request.GET.get("page") or "1", digits=4)
    page = selectors.player_cards(event, number) if number is not None else None
    if page is None:
        raise Http404("No such page of cards")
    cards = [
        Card(row.start_no, row.name, absolute_url(reverse("playerpage:page", args=[row.token])))
        for row in page.links
    ]
    return page, cards


def cards(request: HttpRequest, slug: str) -> HttpResponse:
    """A page of the printable cards (HTML, A4 by the print stylesheet)."""
    event = event_for_director(request, slug)
    page, cards = _cards_page(request, event)
    return render(request, "playerpage/cards.html", {"event": event, "cards": cards, "page": page})


def cards_pdf(request: HttpRequest, slug: str) -> HttpResponse:
    """The same page of cards as a PDF."""
    event = event_for_director(request, slug)
    page, cards = _cards_page(request, event)
    pdf = render_cards_pdf(event_name=event.name, cards=cards)
    response = HttpResponse(pdf, content_type="application/pdf")
    part = f"-{page.number}" if page.pages > 1 else ""
    response["Content-Disposition"] = f'inline; filename="{slug}-player-cards{part}.pdf"'
    return response


# -- The arbiter's side --------------------------------------------------------------------------


@require_POST
def confirm(request: HttpRequest, slug: str, report_id: int) -> HttpResponse:
    """The arbiter confirms a player's report from the queue on the result-entry page."""
    event = event_for_results(request, slug)
    number = selectors.report_round_number(event, report_id)
    try:
        services.result_report_confirm(
            event=event,
            report_id=report_id,
            expected_version=seen_version(request.POST.get("version")),
            user=request.user,
        )
    except ResultConflict as exc:
        messages.error(
            request,
            f"{exc} Saved now: {exc.current or 'no result'}; the report: {exc.attempted}. "
            "Nothing was changed: look again and enter the result below.",
        )
    except UserError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, "Confirmed.")
    return redirect(reverse("events:round_results", args=[slug, number]) + "#report-queue")
