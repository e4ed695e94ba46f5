"""GNOT bridge teams (seed 004): screens. Thin function views (house style 3).

Who may do what: everybody reads the overview (pools, sessions, bracket), the session pages,
the Swiss table and the qualification list (ETag per results version); directors and arbiters
enter match results and playoff boards; only the director registers and seeds teams, runs the
choice ceremony (1.10), draws sessions, records appeal swaps (1.10.7), pairs the Swiss and
records teams that decline (1.11.3). htmx regions are inline partials named after their element
ids; every form works without JavaScript (plain POST, then a redirect).
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from events.access import event_for_director, event_for_results
from events.caching import public_page
from events.errors import ResultConflict, UserError
from events.forms import NO_VERSION
from events.models import Event
from events.selectors import event_get, user_role
from events.views import HtmxHttpRequest
from formats.gnot import presenters, selectors, services
from formats.gnot.bridge import WBF_25
from formats.gnot.correction_views import corrections_context
from formats.gnot.forms import (
    AppealForm,
    BandsForm,
    ChoiceForm,
    DeclineForm,
    GuestForm,
    MatchResultForm,
    ScaleForm,
    SeedingForm,
    TeamsForm,
    WhistScaleForm,
)
from formats.gnot.models import GnotSetup, MatchStatus, TeamMatch

SESSION_CODES = ("2", "2a", "2b", "3", "3a", "3b", "4", "4a", "4b", "5")


def _gnot_event(slug: str):  # type: ignore[no-untyped-def]
    event = event_get(slug)
    if event.system != "gnot":
        raise Http404("Not a GNOT bridge teams event")
    return event


@require_GET
@public_page
def overview(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    event = _gnot_event(slug)
    rows = selectors.match_rows(event)
    context = {
        "event": event,
        "role": user_role(event, request.user),
        "teams": selectors.teams_of(event),
        "week_one": selectors.week_one(rows, event.lots_seed),
        "sessions": selectors.sessions_overview(event, rows),
        "brackets": presenters.brackets(rows),
        "vp_scale": selectors.vp_scale_code(event),
    }
    template = "gnot/overview.html"
    return render(request, template + "#gnot-bracket" if request.htmx else template, context)


TeamsPageForm = TeamsForm | SeedingForm | ScaleForm | WhistScaleForm | BandsForm


def _teams_forms(request: HttpRequest, event: Event) -> dict[str, TeamsPageForm]:
    """The teams page's five forms, the one its button names bound to the POST."""
    keys = ("add", "seed", "scale", "whist", "band_table")
    bound = {key: request.POST if key in request.POST else None for key in keys}
    setup = GnotSetup.objects.filter(event=event).first()
    return {
        "teams_form": TeamsForm(bound["add"]),
        "seeding_form": SeedingForm(bound["seed"]),
        "scale_form": ScaleForm(
            bound["scale"], initial={"vp_scale": selectors.vp_scale_code(event)}
        ),
        "whist_form": WhistScaleForm(
            bound["whist"],
            initial={
                "whist_scale": setup.whist_vp_scale if setup else "",
                "whist_boards": setup.whist_scale_boards if setup else 8,
            },
        ),
        "bands_form": BandsForm(bound["band_table"], initial={"bands": _bands_initial(setup)}),
    }


@require_http_methods(["GET", "POST"])
def teams(request: HttpRequest, slug: str) -> HttpResponse:
    """Registration, seeding (1.5), the Swiss VP scale (1.8.1) and the American Whist scale
    (3.2.4.1): the director only."""
    event = event_for_director(request, slug)
    forms = _teams_forms(request, event)
    form = next((f for f in forms.values() if f.is_bound), None)
    if form is not None and form.is_valid():
        try:
            _teams_save(request, event, form)
        except UserError as exc:
            form.add_error(None, str(exc))
        else:
            return redirect("gnot:teams", slug=slug)
    context = {"event": event, "teams": selectors.teams_of(event), **forms}
    return render(request, "gnot/teams.html", context)


def _bands_initial(setup: GnotSetup | None) -> str:
    """The event's table, or the shipped WBF 25-VP 14-board bands as a starting point."""
    tables = selectors.band_rows(setup)
    if not tables:
        tables = {
            boards: [(b.margin, b.winner, b.loser) for b in bands]
            for boards, bands in WBF_25.tables.items()
        }
    return services.band_lines(tables)


def _teams_save(request: HttpRequest, event, form) -> None:  # type: ignore[no-untyped-def]
    if isinstance(form, TeamsForm):
        services.teams_register(event=event, teams=form.team_fields(), user=request.user)
    elif isinstance(form, SeedingForm):
        services.teams_seed(event=event, order=form.cleaned_data["order"], user=request.user)
    elif isinstance(form, BandsForm):
        services.gnot_bands_set(event=event, tables=form.cleaned_data["bands"], user=request.user)
    elif isinstance(form, WhistScaleForm):
        services.gnot_whist_scale_set(
            event=event,
            scale=form.cleaned_data["whist_scale"],
            boards=form.cleaned_data["whist_boards"],
            user=request.user,
        )
    else:
        services.gnot_setup_set(
            event=event, vp_scale=form.cleaned_data["vp_scale"], user=request.user
        )
    messages.success(request, "Saved.")


def _match_or_404(event, match_id: int) -> TeamMatch:  # type: ignore[no-untyped-def]
    row = selectors.match_rows(event)
    found = next((r for r in row if r.pk == match_id), None)
    if found is None:
        raise Http404("No such match")
    return found


@require_http_methods(["GET", "POST"])
def match_result(request: HtmxHttpRequest, slug: str, match_id: int) -> HttpResponse:
    """Result entry (directors and arbiters): IMPs or board scores; playoff boards when asked."""
    event = event_for_results(request, slug)
    row = _match_or_404(event, match_id)
    form = MatchResultForm(request.POST or None, initial={"version": row.version})
    conflict = None
    if request.method == "POST" and form.is_valid():
        try:
            _result_save(request, event, row, form)
        except ResultConflict as exc:
            conflict = exc
        except UserError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, "Result saved.")
            return redirect("gnot:match", slug=slug, match_id=match_id)
    context = {
        "event": event,
        "match": row,
        "form": form,
        "conflict": conflict,
        **corrections_context(request, event, row),  # tie rule, final spot, changes (issue 8)
    }
    template = "gnot/match.html"
    return render(request, template + "#match-form" if request.htmx else template, context)


def _result_save(request: HttpRequest, event, row: TeamMatch, form: MatchResultForm) -> None:  # type: ignore[no-untyped-def]
    where = {
        "event": event,
        "match_id": row.pk,
        "score": form.score(),
        "user": request.user,
        "expected_version": form.cleaned_data.get("version") or NO_VERSION,
    }
    if request.POST.get("playoff") and row.status == MatchStatus.PLAYOFF_NEEDED:
        services.match_playoff_record(**where)
    else:
        services.match_result_record(**where)


@require_GET
@public_page
def session(request: HtmxHttpRequest, slug: str, code: str) -> HttpResponse:
    """A session's matches and its choice ceremony (who chooses next, from which range)."""
    event = _gnot_event(slug)
    if code not in SESSION_CODES:
        raise Http404("No such session")
    context = {
        "event": event,
        "code": code,
        "title": selectors.SESSION_TITLES[code],
        "role": user_role(event, request.user),
        **presenters.session_context(event, code),
    }
    template = "gnot/session.html"
    return render(request, template + "#choice-ceremony" if request.htmx else template, context)


@require_POST
def choice(request: HtmxHttpRequest, slug: str, code: str) -> HttpResponse:
    """The director records the next step of the ceremony; a refusal is shown, nothing saved."""
    event = event_for_director(request, slug)
    form = ChoiceForm(request.POST)
    try:
        if not form.is_valid():
            raise UserError("; ".join(e for errors in form.errors.values() for e in errors))
        _choice_save(request, event, code, form.cleaned_data)
    except UserError as exc:
        messages.error(request, str(exc))
    return redirect("gnot:session", slug=slug, code=code)


def _choice_save(request: HttpRequest, event, code: str, data: dict) -> None:  # type: ignore[no-untyped-def,type-arg]
    action, user = data["action"], request.user
    if action == "forfeit":
        services.choice_forfeit_record(event=event, session=code, user=user)
    elif action == "lot":
        services.choice_lot_record(event=event, session=code, user=user)
    else:
        services.choice_record(
            event=event,
            session=code,
            chosen=data["chosen"],
            user=user,
            by_director=action == "director",
        )
    messages.success(request, "Recorded.")


@require_POST
def session_draw(request: HttpRequest, slug: str, code: str) -> HttpResponse:
    event = event_for_director(request, slug)
    try:
        count = services.session_draw(event=event, session=code, user=request.user)
    except UserError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, f"Session {code} drawn: {count} matches.")
    return redirect("gnot:session", slug=slug, code=code)


@require_POST
def appeal_swap(request: HttpRequest, slug: str, code: str) -> HttpResponse:
    event = event_for_director(request, slug)
    form = AppealForm(request.POST)
    try:
        if not form.is_valid():
            raise UserError("name both teams by number")
        services.appeal_swap_record(
            event=event, session=code, user=request.user, **form.cleaned_data
        )
    except UserError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, "Positions swapped (1.10.7).")
    return redirect("gnot:session", slug=slug, code=code)


@require_GET
@public_page
def swiss(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    event = _gnot_event(slug)
    view = selectors.swiss_view(event)
    context = {
        "event": event,
        "role": user_role(event, request.user),
        "swiss": view,
        "exact": presenters.exact,
        "rows": [
            (row, presenters.exact(row.entry_score), presenters.exact(row.vps))
            for row in view.table
        ],
    }
    template = "gnot/swiss.html"
    return render(request, template + "#swiss-table" if request.htmx else template, context)


@require_POST
def swiss_pair(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_for_director(request, slug)
    try:
        number = services.swiss_round_pair(event=event, user=request.user)
    except UserError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, f"Swiss round {number} paired.")
    return redirect("gnot:swiss", slug=slug)


@require_POST
def dko_winner_swiss(request: HttpRequest, slug: str) -> HttpResponse:
    """3.1.8: the director lets the Double Knockout winner play the Swiss as a guest."""
    event = event_for_director(request, slug)
    form = GuestForm(request.POST)
    form.is_valid()
    try:
        services.dko_winner_swiss_set(
            event=event, joins=bool(form.cleaned_data.get("joins")), user=request.user
        )
    except UserError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, "Saved (3.1.8).")
    return redirect("gnot:swiss", slug=slug)


@require_GET
@public_page
def qualification(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    event = _gnot_event(slug)
    context = {
        "event": event,
        "role": user_role(event, request.user),
        **presenters.qualification_context(selectors.qualification_view(event)),
    }
    template = "gnot/qualification.html"
    return render(request, template + "#qualification" if request.htmx else template, context)


@require_POST
def decline(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_for_director(request, slug)
    form = DeclineForm(request.POST)
    try:
        if not form.is_valid():
            raise UserError("name the team by number")
        services.team_decline_set(event=event, user=request.user, **form.cleaned_data)
    except UserError as exc:
        messages.error(request, str(exc))
    return redirect("gnot:qualification", slug=slug)
