"""Prize sheet, prize set-up, approval, downloads and tour series (issue 6).

Thin function views (house style 3). Who sees what:

- The prize sheet page is public, and shows the *approved* sheet (with a prominent banner when
  the results have moved on since). The director also sees the current draft, why there is
  none yet (event not complete, playoff undecided), and the approve button.
- Set-up (fund, settings, categories), approval and draft downloads: the director only (403
  for an arbiter or anyone else; anonymous users are sent to log in).
- Approved downloads (CSV/XLSX/PDF) are public once a sheet is approved (404 before).
- Series standings are public; creating a series needs a login, changing one its creator.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from events.access import event_for_director
from events.caching import number_up_to, public_page
from events.errors import UserError
from events.limits import whole_number
from events.models import Event
from events.selectors import event_get
from events.views import HtmxHttpRequest
from prizes import selectors, services
from prizes.exports import CONTENT_TYPES, sheet_render
from prizes.forms import CategoryForm, FundForm, SeriesForm, SettingsForm
from prizes.presenters import conditions_text, money_text, sheet_display

SHEET_TEMPLATE = "prizes/prize_sheet.html"
SETUP_TEMPLATE = "prizes/prize_setup.html"


# ``?all=1``: every player, not only the prizes (issue 29: a sheet of three prizes ran to two
# pages of "no prize for place 27 = 0"). The public page and downloads declare it.
EVERY_PLAYER = {"all": number_up_to(1)}


def _every_player(request: HttpRequest) -> bool:
    return request.GET.get("all") == "1"


def _sheet_context(request: HttpRequest, event: Event) -> dict[str, object]:
    page = selectors.prize_page(event, request.user)
    every_player = _every_player(request)
    return {
        "event": event,
        "page": page,
        "every_player": every_player,
        "published": sheet_display(page.published, every_player=every_player)
        if page.published
        else None,
        "draft": sheet_display(page.draft, every_player=every_player) if page.draft else None,
    }


@public_page(params=EVERY_PLAYER)
def prize_sheet(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    event = event_get(slug)
    template = f"{SHEET_TEMPLATE}#prize-sheet" if request.htmx else SHEET_TEMPLATE
    return render(request, template, _sheet_context(request, event))


@require_POST
def approve(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    event = event_for_director(request, slug, open_only=False)
    seen = request.POST.get("results_version", "")
    try:
        services.prize_sheet_approve(
            event=event, user=request.user, seen_version=whole_number(seen)
        )
    except UserError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, "Prize sheet approved and published.")
    if request.htmx:
        context = _sheet_context(request, event_get(slug))
        return render(request, f"{SHEET_TEMPLATE}#prize-sheet", context)
    return redirect("prizes:sheet", slug=slug)


def _download(
    request: HttpRequest, document: dict[str, object], slug: str, fmt: str, kind: str
) -> HttpResponse:
    body = sheet_render(document, fmt, every_player=_every_player(request))
    response = HttpResponse(body, content_type=CONTENT_TYPES[fmt])
    response["Content-Disposition"] = f'attachment; filename="{slug}-prizes-{kind}.{fmt}"'
    return response


@public_page(params=EVERY_PLAYER)
def sheet_download(request: HttpRequest, slug: str, fmt: str) -> HttpResponse:
    """The approved sheet as frozen, with who approved it and when (public)."""
    approval = selectors.approval_latest(event_get(slug))
    if approval is None:
        raise Http404("No prize sheet has been approved yet")
    return _download(request, selectors.approved_document(approval), slug, fmt, "approved")


def draft_download(request: HttpRequest, slug: str, fmt: str) -> HttpResponse:
    """The sheet as computed now (the director, before approving)."""
    event = event_for_director(request, slug)
    try:
        document = selectors.sheet_document(selectors.prizes_allocate(event=event))
    except selectors.PrizesUnavailable as exc:
        messages.error(request, str(exc))
        return redirect("prizes:sheet", slug=slug)
    return _download(request, document, slug, fmt, "draft")


# --------------------------------------------------------------------------------------------
# Set-up: one page, three regions (fund, settings, categories), each its own form and partial.


def _setup_context(event: Event, **forms: object) -> dict[str, object]:
    settings = selectors.prize_settings_effective(event)
    fund = selectors.prize_fund(event)
    places = [(prize.place, str(prize.amount)) for prize in fund.prizes]
    return {
        "event": event,
        "settings": settings,
        "fund_total": money_text(fund.total, event.currency),
        "categories": [
            (record, conditions_text(record.conditions))
            for record in selectors.event_category_records(event)
        ],
        "fund_form": forms.get("fund_form")
        or FundForm(initial={"prizes": FundForm.initial_text(places)}),
        "settings_form": forms.get("settings_form")
        or SettingsForm(initial=SettingsForm.initial_for(settings), event=event),
        "category_form": forms.get("category_form") or CategoryForm(),
    }


SETUP_FORMS = {
    "fund": ("fund_form", "prize-fund"),
    "settings": ("settings_form", "prize-settings"),
    "category": ("category_form", "prize-categories"),
}


def _bound_form(request: HttpRequest, event: Event, which: str):  # type: ignore[no-untyped-def]
    if which == "fund":
        return FundForm(request.POST)
    if which == "settings":
        return SettingsForm(request.POST, event=event)
    return CategoryForm(request.POST)


def _save(event: Event, which: str, data: dict[str, object], user: object) -> str:
    if which == "fund":
        services.prize_fund_set(event=event, prizes=data["prizes"], user=user)  # type: ignore[arg-type]
        return "Prize fund saved."
    if which == "settings":
        services.prize_settings_set(event=event, user=user, **data)  # type: ignore[arg-type]
        return "Prize settings saved."
    services.prize_category_save(event=event, user=user, **data)  # type: ignore[arg-type]
    return f"Category {data['name']} saved."


@require_http_methods(["GET", "POST"])
def prize_setup(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    event = event_for_director(request, slug, open_only=False)
    which = request.POST.get("form", "")
    if request.method == "GET" or which not in SETUP_FORMS:
        return render(request, SETUP_TEMPLATE, _setup_context(event))
    form_name, region = SETUP_FORMS[which]
    form = _bound_form(request, event, which)
    notice = ""
    if form.is_valid():
        try:
            notice = _save(event, which, form.cleaned_data, request.user)
        except UserError as exc:
            form.add_error(None, str(exc))
        else:
            if not request.htmx:
                messages.success(request, notice)
                return redirect("prizes:setup", slug=slug)
            form = None  # a fresh form showing the saved values
    context = {**_setup_context(event_get(slug), **{form_name: form}), "notice": notice}
    template = f"{SETUP_TEMPLATE}#{region}" if request.htmx else SETUP_TEMPLATE
    return render(request, template, context, status=200 if notice or request.htmx else 400)


@require_POST
def category_delete(request: HttpRequest, slug: str, code: str) -> HttpResponse:
    event = event_for_director(request, slug, open_only=False)
    try:
        services.prize_category_delete(event=event, code=code, user=request.user)
    except UserError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, f"Category {code} removed.")
    return redirect("prizes:setup", slug=slug)


# --------------------------------------------------------------------------------------------
# Tour series


def series_list(request: HttpRequest) -> HttpResponse:
    return render(request, "prizes/series_list.html", {"series_list": selectors.series_list()})


def series_detail(request: HttpRequest, slug: str) -> HttpResponse:
    series = selectors.series_get(slug)
    error, standings = "", None
    try:
        standings = selectors.series_standings(series)
    except UserError as exc:
        error = str(exc)
    can_edit = request.user.is_authenticated and (
        request.user.is_superuser or series.created_by_id == request.user.pk
    )
    context = {"series": series, "standings": standings, "error": error, "can_edit": can_edit}
    return render(request, "prizes/series_detail.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def series_create(request: HttpRequest) -> HttpResponse:
    events = selectors.events_directed_by(request.user)
    form = SeriesForm(request.POST or None, events=events)
    if request.method == "POST" and form.is_valid():
        try:
            series = services.series_create(user=request.user, **form.cleaned_data)
        except UserError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, f"Created the series {series.name}.")
            return redirect("prizes:series_detail", slug=series.slug)
    return render(request, "prizes/series_form.html", {"form": form, "series": None})


@login_required
@require_http_methods(["GET", "POST"])
def series_edit(request: HttpRequest, slug: str) -> HttpResponse:
    series = selectors.series_for_owner(slug, request.user)
    events = selectors.events_directed_by(request.user) | series.events.all()
    initial = {"name": series.name, "events": list(series.events.all())}
    form = SeriesForm(
        request.POST or None, events=events.distinct(), initial=initial, with_slug=False
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            services.series_update(
                series=series, name=data["name"], events=list(data["events"]), user=request.user
            )
        except UserError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, "Saved.")
            return redirect("prizes:series_detail", slug=series.slug)
    return render(request, "prizes/series_form.html", {"form": form, "series": series})
