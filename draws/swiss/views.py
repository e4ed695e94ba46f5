"""Swiss pairing screens (issue 14): the director's Swiss page (settings, byes, forbidden pairs,
withdrawals, late entries, "Pair round N"), the review page of a paired round (publish,
re-pair, discard, change by hand with the checker's reasons) and the printable pairing list
(an A4 sheet and its PDF).

Thin function views (house style 3): parse → service or selector → render. Every form works
without JavaScript; a refused action comes back as a message on the page it was made from.
"""

from __future__ import annotations

from collections.abc import Callable

from django import forms
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from draws.pdf import (
    PairingLine,
    find_board_lines,
    find_board_pdf,
    pairing_blocks,
    pairing_lines,
    pairings_pdf,
)
from draws.swiss import selectors, services
from draws.swiss.forms import (
    ByeRequestForm,
    ForbiddenPairForm,
    LateEntryForm,
    PairRoundForm,
    RoundEditForm,
    SwissSetupForm,
    WithdrawalForm,
)
from events.access import event_for_director
from events.caching import public_page, public_pdf
from events.errors import DuplicatesToConfirm, UserError
from events.formats import format_page_redirect
from events.models import Event
from events.qr import event_page_code
from events.selectors import (
    event_get,
    points_before,
    round_games,
    round_number_or_404,
    user_role,
)

PAGE = "draws/swiss.html"
REVIEW = "draws/swiss_round.html"


def _swiss_event(request: HttpRequest, slug: str, number: int | None = None) -> Event:
    """The director's Swiss event (and ``number`` one of its rounds), else "not found"."""
    event = event_for_director(request, slug)
    if not selectors.is_swiss(event):
        raise Http404("Only a Swiss event is paired by the Dutch system")
    if number is not None:
        round_number_or_404(event, number)
    return event


@require_GET
def swiss(request: HttpRequest, slug: str) -> HttpResponse:
    event = _swiss_event(request, slug)
    return render(request, PAGE, _swiss_context(event))


def _swiss_context(event: Event, **forms: object) -> dict[str, object]:
    page = selectors.swiss_page(event)
    return {
        "event": event,
        "page": page,
        "setup_form": SwissSetupForm(
            initial={
                "initial_colour": page.setup.initial_colour,
                "acceleration": page.setup.acceleration,
            }
        ),
        "bye_form": ByeRequestForm(initial={"round": page.next_round}),
        "forbidden_form": ForbiddenPairForm(),
        # Its own ids: the bye form's "Start no." already has id_start_no.
        "withdrawal_form": WithdrawalForm(auto_id="id_withdrawal_%s"),
        "late_form": LateEntryForm(),
        "pair_form": PairRoundForm(),
        **forms,
    }


def _posted(
    request: HttpRequest, slug: str, form_class: type, run: Callable[..., object], done: str
) -> HttpResponse:
    """Validate a posted form and run the service; a refusal or bad input is a message on the
    Swiss page, and nothing changes."""
    event = _swiss_event(request, slug)
    form = form_class(request.POST)
    if not form.is_valid():
        for field, errors in form.errors.items():
            messages.error(request, f"{field}: {' '.join(errors)}")
        return redirect("draws:swiss", slug=slug)
    try:
        run(event, form)
    except DuplicatesToConfirm:
        raise  # the caller shows the form again with the box to tick
    except UserError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, done)
    return redirect("draws:swiss", slug=slug)


def _form_action(
    form_class: type, service: str, done: str, **fields: str
) -> Callable[[HttpRequest, str], HttpResponse]:
    """A view that posts ``form_class`` to the Swiss service named ``service``: each keyword of
    the service from the form field named beside it (``round_no="round"``), plus the event and
    the user. The service is looked up when the view runs (the module stays patchable)."""

    @require_POST
    def view(request: HttpRequest, slug: str) -> HttpResponse:
        def run(event: Event, form: forms.Form) -> object:
            data = {keyword: form.cleaned_data[field] for keyword, field in fields.items()}
            return getattr(services, service)(event=event, user=request.user, **data)

        return _posted(request, slug, form_class, run, done)

    return view


def _undo_action(service: str, key: str, done: str) -> Callable[..., HttpResponse]:
    """A view that withdraws one recorded item (a bye request, a forbidden pair) by the id in
    its URL: the Swiss service named ``service`` takes it as ``key``."""

    @require_POST
    def view(request: HttpRequest, slug: str, **ids: int) -> HttpResponse:
        def run(event: Event) -> object:
            return getattr(services, service)(event=event, user=request.user, **{key: ids[key]})

        return _done(request, slug, run, done)

    return view


def _done(
    request: HttpRequest, slug: str, run: Callable[[Event], object], done: str
) -> HttpResponse:
    """Run a service that needs no form; a refusal is a message on the Swiss page."""
    event = _swiss_event(request, slug)
    try:
        run(event)
    except UserError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, done)
    return redirect("draws:swiss", slug=slug)


setup = _form_action(
    SwissSetupForm,
    "swiss_setup_set",
    "Swiss settings saved.",
    initial_colour="initial_colour",
    acceleration="acceleration",
)
bye_add = _form_action(
    ByeRequestForm,
    "bye_request_record",
    "Bye recorded.",
    start_no="start_no",
    round_no="round",
    kind="kind",
    note="note",
)
bye_cancel = _undo_action("bye_request_cancel", "request_id", "Bye cancelled.")
forbidden_add = _form_action(
    ForbiddenPairForm,
    "forbidden_pair_add",
    "Forbidden pair recorded.",
    first="first",
    second="second",
    reason="reason",
    until_round="until_round",
)
forbidden_remove = _undo_action("forbidden_pair_remove", "pair_id", "Forbidden pair removed.")
withdrawal = _form_action(
    WithdrawalForm,
    "withdrawal_record",
    "Withdrawal recorded.",
    start_no="start_no",
    after_round="after_round",
)


@require_POST
def close_list(request: HttpRequest, slug: str) -> HttpResponse:
    return _done(
        request,
        slug,
        lambda event: services.participants_close(event=event, user=request.user),
        "The list of participants is closed: pairing numbers are fixed.",
    )


@require_POST
def late_entry(request: HttpRequest, slug: str) -> HttpResponse:
    """A late entry; a probable duplicate shows the page again with what was typed and the
    box to confirm it (issue 20), anything else refused is a message, as for the other forms."""

    def run(event: Event, form: LateEntryForm) -> object:
        return services.late_entry_register(
            event=event,
            fields=form.player_fields(),
            missed=form.cleaned_data["missed"],
            user=request.user,
            confirm_duplicates=form.confirmed,
        )

    try:
        return _posted(request, slug, LateEntryForm, run, "Late entry registered.")
    except DuplicatesToConfirm as warning:
        form = LateEntryForm(request.POST)
        form.is_valid()
        form.duplicates_to_confirm(warning)
        event = _swiss_event(request, slug)
        return render(request, PAGE, _swiss_context(event, late_form=form))


@require_POST
def pair(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    event = _swiss_event(request, slug, number)
    form = PairRoundForm(request.POST)
    form.is_valid()
    try:
        services.swiss_round_pair(
            event=event,
            round_no=number,
            user=request.user,
            allow_unfinished=form.cleaned_data.get("allow_unfinished", False),
        )
    except UserError as exc:
        messages.error(request, str(exc))
        return redirect("draws:swiss", slug=slug)
    messages.success(request, f"Round {number} paired by the Dutch system: review and publish it.")
    return redirect("draws:swiss_round", slug=slug, number=number)


def _review(request: HttpRequest, event: Event, number: int, **extra: object) -> HttpResponse:
    review = selectors.review_page(event, number)
    context = {
        "event": event,
        "review": review,
        "edit_form": RoundEditForm(),
        # The notice of the result-entry page, for this round alone (re-pair or keep it).
        "outdated_block": {
            "event": event,
            "outdated": [review.outdated] if review.outdated else [],
        },
        **extra,
    }
    return render(request, REVIEW, context)


@require_GET
def swiss_round(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    return _review(request, _swiss_event(request, slug, number), number)


ROUND_ACTIONS: dict[str, tuple[Callable[..., object], str]] = {
    "publish": (services.swiss_round_publish, "Round {n} published."),
    "unpublish": (services.swiss_round_unpublish, "Round {n} withdrawn for changes."),
    "discard": (services.swiss_round_discard, "The pairing of round {n} was discarded."),
    "keep": (services.swiss_round_keep, "Round {n} kept as paired, after the correction."),
}


@require_POST
def round_action(request: HttpRequest, slug: str, number: int, action: str) -> HttpResponse:
    event = _swiss_event(request, slug, number)
    if action not in ROUND_ACTIONS:
        raise Http404("No such action")
    run, done = ROUND_ACTIONS[action]
    try:
        run(event=event, round_no=number, user=request.user)
    except UserError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, done.format(n=number))
        if action == "discard":
            return redirect("draws:swiss", slug=slug)
    return redirect("draws:swiss_round", slug=slug, number=number)


@require_POST
def round_edit(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A manual change; when the checker finds it breaks a rule, the page shows why and asks
    for a confirmation (the same change, ``confirm`` ticked)."""
    event = _swiss_event(request, slug, number)
    form = RoundEditForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Give the board and the players of the change.")
        return redirect("draws:swiss_round", slug=slug, number=number)
    try:
        differences = services.swiss_round_edit(
            event=event,
            round_no=number,
            change=form.cleaned_data["change"],
            values=form.values(),
            confirm=form.cleaned_data["confirm"],
            user=request.user,
        )
    except services.NeedsConfirmation as exc:
        return _review(request, event, number, pending=form.cleaned_data, refusal=exc)
    except UserError as exc:
        messages.error(request, str(exc))
    else:
        note = " It departs from the Dutch rules, as confirmed." if differences else ""
        messages.success(request, f"Round {number} changed.{note}")
    return redirect("draws:swiss_round", slug=slug, number=number)


def _printed_games(request: HttpRequest, event: Event, number: int) -> tuple[list, list]:  # type: ignore[type-arg]
    rnd, games, byes = round_games(event, number)
    if not rnd.published and user_role(event, request.user) is None:
        raise Http404("This round has not been published yet")
    return games, byes


def _printed_round(request: HttpRequest, event: Event, number: int) -> list[PairingLine]:
    games, byes = _printed_games(request, event, number)
    return pairing_lines(games, byes, points_before(event, number))


@public_page
def find_board_print(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The alphabetical list for the wall: each player's board, colour and opponent."""
    event = event_get(slug)
    if moved := format_page_redirect(request, event):  # a team event's round sheet, say
        return moved
    games, byes = _printed_games(request, event, number)
    context = {
        "event": event,
        "number": number,
        "lines": find_board_lines(games, byes),
        "code": event_page_code(slug),
    }
    return render(request, "draws/find_board_print.html", context)


@public_pdf(lambda slug, number: f"{slug}-round-{number}-find-your-board.pdf")
def find_board_print_pdf(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    event = event_get(slug)
    if moved := format_page_redirect(request, event):  # a team event's round sheet, say
        return moved
    games, byes = _printed_games(request, event, number)
    pdf = find_board_pdf(
        event_name=event.name,
        round_number=number,
        site=event.site,
        lines=find_board_lines(games, byes),
        public_url=event_page_code(slug).url,
    )
    return HttpResponse(pdf, content_type="application/pdf")


@public_page
def pairings_print(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The pairing list to pin up or print on A4: board, White, result, Black, in blocks of
    boards, with the QR code of the event's public page."""
    event = event_get(slug)
    if moved := format_page_redirect(request, event):  # a team event's round sheet, say
        return moved
    lines = _printed_round(request, event, number)
    context = {
        "event": event,
        "number": number,
        "blocks": pairing_blocks(lines),
        "code": event_page_code(slug),
    }
    return render(request, "draws/pairings_print.html", context)


@public_pdf(lambda slug, number: f"{slug}-round-{number}-pairings.pdf")
def pairings_print_pdf(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The same pairing list as a PDF."""
    event = event_get(slug)
    if moved := format_page_redirect(request, event):  # a team event's round sheet, say
        return moved
    lines = _printed_round(request, event, number)
    pdf = pairings_pdf(
        event_name=event.name,
        round_number=number,
        site=event.site,
        lines=lines,
        public_url=event_page_code(slug).url,
    )
    return HttpResponse(pdf, content_type="application/pdf")
