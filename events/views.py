"""Thin function views: parse → selector/service → render (house style 3).

Each htmx region is an inline partial named after its element id; for htmx requests the view
renders only that partial. Every form also works without JavaScript (plain POST + redirect).
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST
from django_htmx.middleware import HtmxDetails

from events import exchange, selectors, services
from events.access import event_for_director, event_for_results
from events.caching import public_page, public_pdf
from events.contributions import player_columns
from events.errors import (
    DuplicatesToConfirm,
    LinesRefused,
    PlayerConflict,
    RegulationLocked,
    ResultConflict,
    UserError,
)
from events.formats import format_page_redirect
from events.forms import (
    AccessForm,
    EventForm,
    PairingsForm,
    PlayerDeleteForm,
    PlayerEditForm,
    PlayerForm,
    PlayerListForm,
    PlayerTrfForm,
    UploadForm,
    seen_version,
)
from events.imports import (
    decode_upload,
    event_import_upload,
    fide_id_conflicts,
    import_notes_pending,
    players_from_trf,
)
from events.imports import import_notes_dismiss as dismiss_import_notes
from events.models import Event, Result, Role
from events.pdf import wall_chart_landscape, wall_chart_pdf
from events.regulations import tiebreak_choices


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


def event_list(request: HttpRequest) -> HttpResponse:
    return render(request, "events/event_list.html", {"events": selectors.event_list()})


@public_page
def event_detail(request: HttpRequest, slug: str) -> HttpResponse:
    event = selectors.event_get(slug)
    context = selectors.event_overview(event, request.user)
    template = "events/event_detail.html"
    if request.htmx and context.get("current") is not None:  # type: ignore[attr-defined]
        template += "#live-round"  # the spectator's live round and the status, polled
    elif context["role"] == Role.DIRECTOR:  # the whole page: the import's notes, not polled
        context["import_notes"] = import_notes_pending(event)
    return render(request, template, context)


@login_required
@require_http_methods(["GET", "POST"])
def event_create(request: HttpRequest) -> HttpResponse:
    form = EventForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            event = services.event_create(fields=form.event_fields(), director=request.user)
        except UserError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, f"Created {event.name}. Register the players next.")
            return redirect("events:players", slug=event.slug)
    context = {"form": form, "event": None, "catalogue": tiebreak_choices()}
    return render(request, "events/event_form.html", context)


@require_POST
def import_notes_dismiss(request: HttpRequest, slug: str) -> HttpResponse:
    """The director has read what the TRF import read, set aside or changed (issue 29)."""
    event = event_for_director(request, slug, open_only=False)
    dismiss_import_notes(event=event, user=request.user)
    return redirect("events:event_detail", slug=event.slug)


@login_required
@require_http_methods(["GET", "POST"])
def event_import(request: HttpRequest) -> HttpResponse:
    form = UploadForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            event = event_import_upload(
                upload=form.cleaned_data["file"],
                slug=form.cleaned_data["slug"],
                user=request.user,
                confirm_duplicates=form.cleaned_data["confirm_duplicates"],
            )
        except UserError as exc:
            if isinstance(exc, DuplicatesToConfirm):
                form.ask_duplicates()
            form.add_error("file", str(exc))
        else:
            messages.success(request, f"Imported {event.name}.")
            return redirect("events:event_detail", slug=event.slug)
    return render(request, "events/event_import.html", {"form": form})


@require_http_methods(["GET", "POST"])
def event_edit(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_for_director(request, slug)
    form = EventForm(request.POST or None, initial=EventForm.initial_for(event))
    if request.method == "POST" and form.is_valid():
        try:
            services.event_update(
                event=event,
                fields=form.event_fields(),
                user=request.user,
                confirm_regulation=form.cleaned_data["confirm_regulation"],
            )
        except (RegulationLocked, UserError) as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, "Saved.")
            return redirect("events:event_detail", slug=event.slug)
    context = {"form": form, "event": event, "catalogue": tiebreak_choices()}
    return render(request, "events/event_form.html", context)


@require_http_methods(["GET", "POST"])
def players(request: HttpRequest, slug: str) -> HttpResponse:
    """Register players: one by one, a pasted list, or the players of a TRF file; a list or a
    file goes after the players already registered."""
    event = event_for_director(request, slug)
    forms = {
        "form": PlayerForm(request.POST if "add" in request.POST else None),
        "list_form": PlayerListForm(request.POST if "paste" in request.POST else None),
        "trf_form": PlayerTrfForm(
            request.POST if "trf" in request.POST else None,
            request.FILES if "trf" in request.POST else None,
        ),
    }
    bound = next((f for f in forms.values() if f.is_bound), None)
    if bound is not None and bound.is_valid():
        created = _register(request, event, bound)
        if created:
            # Said at the top of the Add form, and its first field has the focus again.
            messages.success(request, _added(created), extra_tags="registration")
            url = reverse("events:players", args=[slug])
            return redirect(f"{url}?added=1")
    if request.GET.get("added"):
        forms["form"].fields["name"].widget.attrs["autofocus"] = True
    context = {
        "event": event,
        "players": selectors.players_list(event),
        "fide_id_conflicts": fide_id_conflicts(event),
        **forms,
    }
    return render(request, "events/players.html", context)


def _register(request: HttpRequest, event: Event, bound: Any) -> list[Any]:
    """Register what the bound form holds; a refusal goes on the form (every bad line of a
    pasted list at once) and nothing is registered."""
    try:
        return services.players_register_many(
            event=event,
            players=_players_submitted(bound),
            user=request.user,
            confirm_duplicates=bound.confirmed,
            append=True,
        )
    except DuplicatesToConfirm as warning:
        bound.duplicates_to_confirm(warning)
    except LinesRefused as exc:
        for line in ("Nothing was registered: correct these lines.", *exc.lines):
            bound.add_error(None, line)
    except UserError as exc:
        bound.add_error(None, str(exc))
    return []


def _added(created: list) -> str:  # type: ignore[type-arg]
    if len(created) == 1:
        return f"Added {created[0].start_no}. {created[0].name}."
    return f"Added {len(created)} players, {created[0].start_no}–{created[-1].start_no}."


def _players_submitted(form: PlayerForm | PlayerListForm | PlayerTrfForm) -> list:  # type: ignore[type-arg]
    if isinstance(form, PlayerForm):
        return [form.player_fields()]
    if isinstance(form, PlayerListForm):
        return services.parse_player_csv(form.cleaned_data["players_csv"])
    return players_from_trf(decode_upload(form.cleaned_data["trf_file"]))


@require_http_methods(["GET", "POST"])
def player_edit(request: HttpRequest, slug: str, start_no: int) -> HttpResponse:
    """Correct a player's fields; delete the player while they have no game."""
    event = event_for_director(request, slug)
    player = selectors.player_get(event, start_no)
    form = PlayerEditForm(request.POST or None, initial=PlayerEditForm.initial_for(player))
    if request.method == "POST" and form.is_valid():
        try:
            saved = services.player_update(
                event=event,
                start_no=start_no,
                fields=form.player_fields(),
                expected_version=form.seen(),
                user=request.user,
                confirm_duplicates=form.confirmed,
            )
        except PlayerConflict as exc:
            return _player_conflict(request, event, start_no, str(exc))
        except DuplicatesToConfirm as warning:
            form.duplicates_to_confirm(warning)
        except UserError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, f"Saved {saved}.")
            return redirect("events:players", slug=slug)
    return render(request, "events/player_edit.html", _player_edit_context(event, player, form))


def _player_edit_context(event, player, form: PlayerEditForm) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    return {
        "event": event,
        "player": player,
        "form": form,
        "delete_form": PlayerDeleteForm(initial={"version": player.version}),
        "took_part": services.player_took_part(player),
    }


def _player_conflict(request: HttpRequest, event, start_no: int, message: str) -> HttpResponse:  # type: ignore[no-untyped-def]
    """A stale form: the player as they are now (or the list, if they are gone), the message
    on top, nothing changed."""
    messages.error(request, message)
    if selectors.player_find(event, start_no) is None:
        return redirect("events:players", slug=event.slug)
    return redirect("events:player_edit", slug=event.slug, start_no=start_no)


@require_POST
def player_delete(request: HttpRequest, slug: str, start_no: int) -> HttpResponse:
    event = event_for_director(request, slug)
    player = selectors.player_get(event, start_no)
    form = PlayerDeleteForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Tick the box to confirm the deletion; nothing was deleted.")
        return redirect("events:player_edit", slug=slug, start_no=start_no)
    try:
        services.player_delete(
            event=event,
            start_no=start_no,
            expected_version=seen_version(form.cleaned_data["version"]),
            user=request.user,
        )
    except PlayerConflict as exc:
        return _player_conflict(request, event, start_no, str(exc))
    except UserError as exc:
        messages.error(request, str(exc))
        return redirect("events:player_edit", slug=slug, start_no=start_no)
    messages.success(request, f"Deleted {player}.")
    return redirect("events:players", slug=slug)


@public_page
def round_detail(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    event = selectors.event_get(slug)
    if moved := format_page_redirect(request, event):  # a team event's round page, say
        return moved
    rnd, games, byes = selectors.round_games(event, number)
    if not rnd.published and selectors.user_role(event, request.user) is None:
        raise Http404("This round has not been published yet")
    context = {
        "event": event,
        "round": rnd,
        "games": games,
        "byes": byes,
        "rounds": range(1, event.rounds + 1),
    }
    return render(request, "events/round_detail.html", context)


@require_http_methods(["GET", "POST"])
def round_pairings(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    event = event_for_director(request, slug)
    selectors.round_number_or_404(event, number)
    form = PairingsForm(
        request.POST or None, initial={"pairings": selectors.pairings_text(event, number)}
    )
    if request.method == "POST" and form.is_valid():
        games, byes = form.cleaned_data["pairings"]
        try:
            services.round_pairings_set(
                event=event, round_no=number, pairings=games, byes=byes, user=request.user
            )
        except UserError as exc:
            form.add_error("pairings", str(exc))
        else:
            messages.success(request, f"Round {number} paired.")
            return redirect("events:round_results", slug=slug, number=number)
    return render(
        request, "events/round_pairings.html", {"event": event, "number": number, "form": form}
    )


def round_results(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    event = event_for_results(request, slug)
    if moved := format_page_redirect(request, event):
        return moved
    context = selectors.result_entry_context(event, number, viewer=request.user)
    return render(request, "events/round_results.html", context)


@require_POST
def game_result(request: HtmxHttpRequest, slug: str, game_id: int) -> HttpResponse:
    """Record one result. htmx gets the row back (and the progress, out of band)."""
    event = event_for_results(request, slug)
    result = request.POST.get("result", "")
    try:
        game = services.game_result_record(
            game_id=selectors.game_id_in_event(event, game_id),
            result=result,
            expected_version=seen_version(request.POST.get("version")),
            user=request.user,
        )
    except ResultConflict as exc:
        return _conflict(request, event, game_id, exc)
    except UserError as exc:
        return _refused(request, event, game_id, exc)
    if not request.htmx:
        return redirect(
            reverse("events:round_results", args=[slug, game.round.number]) + f"#game-{game.pk}"
        )
    context = selectors.result_entry_context(
        event, game.round.number, only_game=game.pk, viewer=request.user
    )
    return render(request, "events/round_results.html#game-row-oob", context)


def _refused(request: HtmxHttpRequest, event, game_id: int, exc: UserError) -> HttpResponse:  # type: ignore[no-untyped-def]
    """A refused save: the message where the user is (the row for htmx), nothing changed."""
    if not request.htmx:
        messages.error(request, str(exc))
        return redirect(
            "events:round_results",
            slug=event.slug,
            number=selectors.game_round_number(event, game_id),
        )
    context = selectors.result_entry_context(
        event, selectors.game_round_number(event, game_id), only_game=game_id
    )
    context["row_error"] = str(exc)
    return render(request, "events/round_results.html#game-row", context)


def _conflict(request: HtmxHttpRequest, event, game_id: int, exc: ResultConflict) -> HttpResponse:  # type: ignore[no-untyped-def]
    number = selectors.game_round_number(event, game_id)
    context = selectors.result_entry_context(event, number, only_game=game_id, viewer=request.user)
    # The full page (409, no htmx) renders every row: only the row in conflict shows it.
    context.update(conflict=exc, conflict_game=game_id, results=Result)
    template = "events/round_results.html#game-row" if request.htmx else "events/round_results.html"
    return render(request, template, context, status=200 if request.htmx else 409)


def _crosstable_context(event: Event) -> dict[str, Any]:
    table = selectors.event_crosstable(event, published_only=True)
    return {
        "event": event,
        "rows": selectors.crosstable_rows(table),
        "rounds": range(1, event.rounds + 1),
        "live": selectors.live_round(event),
    }


@public_page
def crosstable(request: HttpRequest, slug: str) -> HttpResponse:
    event = selectors.event_get(slug)
    if moved := format_page_redirect(request, event):  # a team event's crosstable, say
        return moved
    return render(request, "events/crosstable.html", _crosstable_context(event))


@public_page
def crosstable_print(request: HttpRequest, slug: str) -> HttpResponse:
    """The wall chart: the crosstable on A4, landscape when the rounds need the width."""
    event = selectors.event_get(slug)
    if moved := format_page_redirect(request, event):
        return moved
    context = _crosstable_context(event)
    context["landscape"] = wall_chart_landscape(context["event"].rounds)
    context["extra"] = player_columns(event, "wall_chart")
    return render(request, "events/crosstable_print.html", context)


@public_pdf(lambda slug: f"{slug}-crosstable.pdf")
def crosstable_pdf(request: HttpRequest, slug: str) -> HttpResponse:
    event = selectors.event_get(slug)
    if moved := format_page_redirect(request, event):
        return moved
    context = _crosstable_context(event)
    pdf = wall_chart_pdf(
        event_name=event.name,
        rounds=event.rounds,
        rows=context["rows"],
        extra=player_columns(event, "wall_chart"),
    )
    return HttpResponse(pdf, content_type="application/pdf")


def audit_log(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_for_director(request, slug)
    context = {"event": event, "entries": selectors.audit_entries(event)}
    return render(request, "events/audit_log.html", context)


@require_POST
def audit_undo(request: HttpRequest, slug: str, entry_id: int) -> HttpResponse:
    event = event_for_director(request, slug)
    try:
        services.audit_undo(event=event, entry_id=entry_id, user=request.user)
    except UserError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, "Undone.")
    return redirect("events:audit_log", slug=slug)


@require_http_methods(["GET", "POST"])
def access(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_for_director(request, slug, open_only=False)
    form = AccessForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            services.access_grant(event=event, user=request.user, **form.cleaned_data)
        except UserError as exc:
            form.add_error("username", str(exc))
        else:
            return redirect("events:access", slug=slug)
    context = {"event": event, "form": form, "access": selectors.event_access(event)}
    return render(request, "events/access.html", context)


def export_json(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_for_director(request, slug)
    body = json.dumps(exchange.event_export_document(event), indent=2, ensure_ascii=False)
    response = HttpResponse(body, content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="{slug}.json"'
    return response


def export_trf(request: HttpRequest, slug: str) -> HttpResponse:
    from events.imports import event_trf_file

    event = event_for_director(request, slug)
    response = HttpResponse(event_trf_file(event), content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{slug}.trf"'
    return response


@require_POST
def event_close(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_for_director(request, slug, open_only=False)  # reopening is allowed
    reopen = request.POST.get("reopen") == "1"
    try:
        if reopen:
            services.event_reopen(event=event, user=request.user)
        else:
            services.event_close(event=event, user=request.user)
    except UserError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(
            request,
            "The event is open again."
            if reopen
            else "The event is closed: the standings are final.",
        )
    return redirect("events:event_detail", slug=slug)
