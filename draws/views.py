"""The drawing of lots: the director's ceremony page and the public draw page (issue 4).

Thin function views (house style 3). The ceremony region is the inline partial ``ceremony``
(element id ``ceremony``): htmx requests get it alone, plain form posts redirect back to the
page (or re-render it with the form's errors), so the ceremony also runs without JavaScript.
"""

from __future__ import annotations

from collections.abc import Callable

from django import forms
from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from draws import selectors, services
from draws.varma import ENVELOPE_LABELS
from events.access import event_for_director
from events.caching import public_page
from events.errors import UserError
from events.models import Event
from events.selectors import event_get
from events.views import HtmxHttpRequest

CEREMONY_TEMPLATE = "draws/ceremony.html"


class DrawEntryForm(forms.Form):
    """One draw of a physical ceremony. ``start_no`` is whose turn the page showed, so a stale
    page (someone else recorded a draw meanwhile) is refused by the turn check."""

    start_no = forms.IntegerField(min_value=1, widget=forms.HiddenInput)
    envelope = forms.ChoiceField(choices=[(label, label) for label in ENVELOPE_LABELS])
    number = forms.IntegerField(min_value=1, max_value=999)


def _entry_form(board: selectors.DrawBoard) -> DrawEntryForm:
    allowed = [envelope.label for envelope in board.envelopes if envelope.allowed]
    drawer = board.next_drawer
    return DrawEntryForm(
        initial={
            "start_no": drawer.start_no if drawer else None,
            "envelope": allowed[0] if allowed else None,
        }
    )


def _ceremony_page(
    request: HtmxHttpRequest,
    event: Event,
    *,
    form: DrawEntryForm | None = None,
    notice: str = "",
    error: str = "",
) -> HttpResponse:
    board = selectors.draw_board(event)
    context = {
        "event": event,
        "board": board,
        "form": form or _entry_form(board),
        "notice": notice,
        "error": error,
    }
    template = f"{CEREMONY_TEMPLATE}#ceremony" if request.htmx else CEREMONY_TEMPLATE
    return render(request, template, context)


def _action(
    request: HtmxHttpRequest, slug: str, run: Callable[[Event], object], done: str
) -> HttpResponse:
    """Run a service for the director; answer htmx with the region, plain posts with a redirect."""
    event = event_for_director(request, slug)
    try:
        run(event)
    except UserError as exc:
        if request.htmx:
            return _ceremony_page(request, event, error=str(exc))
        messages.error(request, str(exc))
    else:
        if request.htmx:
            return _ceremony_page(request, event_get(slug), notice=done)
        messages.success(request, done)
    return redirect("draws:ceremony", slug=slug)


@public_page
def draw_public(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    event = event_get(slug)
    context = {"event": event, "board": selectors.draw_board(event)}
    template = "draws/draw_public.html#draw-public" if request.htmx else "draws/draw_public.html"
    return render(request, template, context)


@require_GET
def ceremony(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    return _ceremony_page(request, event_for_director(request, slug))


@require_POST
def entry_record(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    event = event_for_director(request, slug)
    form = DrawEntryForm(request.POST)
    if form.is_valid():
        try:
            services.draw_entry_record(event=event, user=request.user, **form.cleaned_data)
        except UserError as exc:
            form.add_error(None, str(exc))
        else:
            done = f"Recorded number {form.cleaned_data['number']}."
            if request.htmx:
                return _ceremony_page(request, event, notice=done)
            messages.success(request, done)
            return redirect("draws:ceremony", slug=slug)
    return _ceremony_page(request, event, form=form)


@require_POST
def computer_draw(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    return _action(
        request,
        slug,
        lambda event: services.draw_perform(event=event, user=request.user),
        "The lots have been drawn by computer.",
    )


@require_POST
def reset(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    return _action(
        request,
        slug,
        lambda event: services.draw_reset(event=event, user=request.user),
        "The drawing of lots has been reset.",
    )


@require_POST
def schedule_create(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    return _action(
        request,
        slug,
        lambda event: services.schedule_create(event=event, user=request.user),
        "The schedule has been created: every round is paired.",
    )
