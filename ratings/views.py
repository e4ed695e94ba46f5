"""Rating list screens: the lists (import with a preview, replace, delete) and, per event, the
search that registers a player from a list. Thin function views; the hits are an inline partial
named after its element id (``rating-hits``), rendered alone for the players page's type-ahead;
without JavaScript the same search is a page whose hits register the player with one button.
The players page's *Update from a rating list* card previews (``refresh``, its partial
``rating-refresh-preview``) and applies a newer list to the registered players."""

from __future__ import annotations

from typing import IO, cast

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.files import File
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from events.access import event_for_director
from events.errors import UserError
from events.middleware import checks_request_size
from events.models import Event
from events.views import HtmxHttpRequest
from ratings import uploads
from ratings.forms import ListUploadForm, RefreshForm, SearchForm
from ratings.models import RatingList
from ratings.parsers import CSV_DELIMITERS
from ratings.selectors import (
    ListPreview,
    rating_list_preview,
    rating_lists,
    rating_refresh_preview,
    registration_search,
)
from ratings.services import (
    ListImported,
    players_rating_refresh,
    rating_list_delete,
    rating_list_import,
)

LISTS = "ratings/lists.html"
SEARCH = "ratings/search.html"
REFRESH = "ratings/refresh.html"
REFRESH_PAGE = 200
PERMISSION = "ratings.manage_rating_lists"
MAX_UPLOAD_BYTES = 128 * 1024**2  # FIDE's zipped lists are about 50 MB (Oct 2026)
FORM_BYTES = 64 * 1024  # the form's other fields, beside the file


@login_required
@require_GET
def search(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    event = event_for_director(request, slug)
    form = SearchForm(request.GET)
    form.is_valid()  # a field in error is left out of cleaned_data: no search, or the default list
    found = registration_search(
        event, query=form.cleaned_data.get("q", ""), list_id=form.cleaned_data.get("list")
    )
    error = " ".join(form.errors.get("q", [])) or found.error
    context = {"event": event, "form": form, "found": found, "error": error}
    return render(request, SEARCH + "#rating-hits" if request.htmx else SEARCH, context)


@login_required
@require_http_methods(["GET", "POST"])
def refresh(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The players' ratings (and title, K, …) from a newer list: GET previews what would
    change (the card's partial for htmx), POST applies exactly that preview."""
    event = event_for_director(request, slug)
    form = RefreshForm(request.POST if request.method == "POST" else request.GET)
    if request.method == "POST":
        return _refresh_apply(request, event, form)
    context = {"event": event, "lists": rating_lists(), "form": form, **_refreshed(event, form)}
    return render(
        request, REFRESH + "#rating-refresh-preview" if request.htmx else REFRESH, context
    )


def _refreshed(event: Event, form: RefreshForm) -> dict[str, object]:
    """The preview and the page of it shown (:data:`REFRESH_PAGE` players a page: 5,000 on one
    page were a megabyte), or the one-line refusal."""
    if form.refusal():
        return {"error": form.refusal()}
    try:
        preview = rating_refresh_preview(event, list_id=form.cleaned_data["list"])
    except UserError as exc:
        return {"error": str(exc)}
    page = Paginator(preview.rows, REFRESH_PAGE).get_page(form.cleaned_data.get("page"))
    return {"preview": preview, "page": page}


def _refresh_apply(request: HttpRequest, event: Event, form: RefreshForm) -> HttpResponse:
    if not form.is_valid():
        messages.error(request, form.refusal())
    else:
        try:
            done = players_rating_refresh(
                event=event,
                list_id=form.cleaned_data["list"],
                digest=form.cleaned_data["digest"],
                user=request.user,
            )
        except UserError as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, done.summary())
    return redirect(reverse("events:players", args=[event.slug]) + "#rating-refresh")


@csrf_exempt  # the token is checked in _lists, once the body is known not to be too large
@checks_request_size(MAX_UPLOAD_BYTES + FORM_BYTES)
@login_required
@require_http_methods(["GET", "POST"])
def lists(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        if not request.user.has_perm(PERMISSION):
            raise PermissionDenied("Only a manager of rating lists may import them.")
        declared = _declared_length(request)
        if declared > MAX_UPLOAD_BYTES + FORM_BYTES:
            return _too_large(request, declared)
    return _lists(request)


def _declared_length(request: HttpRequest) -> int:
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:  # Django reads such a body as empty
        return 0


def _too_large(request: HttpRequest, declared: int) -> HttpResponse:
    """Refused before its body is read: one line where the director is."""
    refusal = (
        f"The file is {declared / 1024**2:,.0f} MB; the limit is {MAX_UPLOAD_BYTES // 1024**2} "
        "MB. Upload FIDE's zip as downloaded, or import with manage.py import_rating_list."
    )
    context = {"lists": rating_lists(), "form": ListUploadForm(), "manager": True}
    return render(request, LISTS, {**context, "refusal": refusal}, status=413)


@csrf_protect
def _lists(request: HttpRequest) -> HttpResponse:
    manager = request.user.has_perm(PERMISSION)
    form = ListUploadForm(request.POST or None, request.FILES or None) if manager else None
    context: dict[str, object] = {"lists": rating_lists(), "form": form, "manager": manager}
    if form is not None and form.is_bound and form.is_valid():
        try:
            if "preview" in request.POST:
                context["preview"] = _preview(request, form)
            else:
                _imported_say(request, _import(request, form))
                return redirect("ratings:lists")
        except UserError as exc:
            form.add_error(None, str(exc))
    return render(request, LISTS, context, status=200 if form is None or not form.errors else 400)


def _source(request: HttpRequest, form: ListUploadForm) -> tuple[File, str]:  # type: ignore[type-arg]
    """The uploaded file, or the one kept since its preview, with its name."""
    upload = form.cleaned_data.get("file")
    if upload is not None:
        return upload, upload.name
    try:
        kept = uploads.upload_open(user=request.user, key=form.cleaned_data["upload"])
    except FileNotFoundError as exc:
        raise UserError("The previewed file is gone: choose it again.") from exc
    return kept, form.cleaned_data.get("upload_name") or ""


def _preview(request: HttpRequest, form: ListUploadForm) -> ListPreview:
    data = form.cleaned_data
    if data.get("file") is not None:  # kept, so that Import needs no second upload
        form.data = form.data.copy()
        form.data["upload"] = data["upload"] = uploads.upload_keep(
            user=request.user, upload=data["file"]
        )
        form.data["upload_name"] = data["upload_name"] = data.pop("file").name
    source, filename = _source(request, form)
    with source:
        return rating_list_preview(
            source=cast(IO[bytes], source),
            filename=filename,
            kind=data["kind"] or None,
            mapping=form.mapping(),
            delimiter=CSV_DELIMITERS.get(data["delimiter"]),
        )


def _import(request: HttpRequest, form: ListUploadForm) -> ListImported:
    source, filename = _source(request, form)
    data = form.cleaned_data
    with source:
        imported = rating_list_import(
            source=cast(IO[bytes], source),
            filename=filename,
            user=request.user,
            name=data["name"],
            published=data["published"],
            kind=data["kind"] or None,
            mapping=form.mapping(),
            delimiter=CSV_DELIMITERS.get(data["delimiter"]),
        )
    if data.get("upload"):
        uploads.upload_discard(user=request.user, key=data["upload"])
    return imported


def _imported_say(request: HttpRequest, imported: ListImported) -> None:
    messages.success(request, imported.summary())
    if imported.first_skipped:
        shown = "; ".join(str(problem) for problem in imported.first_skipped[:5])
        more = imported.skipped - min(5, len(imported.first_skipped))
        messages.warning(request, f"Skipped {shown}" + (f"; and {more:,} more" if more else ""))


@require_POST
@login_required
def list_delete(request: HttpRequest, list_id: int) -> HttpResponse:
    if not request.user.has_perm(PERMISSION):
        raise PermissionDenied("Only a manager of rating lists may delete them.")
    rating_list = get_object_or_404(RatingList, pk=list_id)
    rating_list_delete(rating_list=rating_list, user=request.user)
    messages.success(request, f"Deleted {rating_list}.")
    return redirect("ratings:lists")
